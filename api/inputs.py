"""The API's side of a use case's one input. A use case's input is the form its page uses, in
the app that owns the use case (``competitions.forms``, ``clubs.forms``, ``games.forms``):
its fields say what the use case takes, with their bounds and defaults, and its
``clean_<field>`` methods what else a value must be. ``FormInput`` is a serializer made from
that form: its fields, and so the OpenAPI schema and the checks of what is sent, are read
from the form's (the API's words in the schema aside), then the form's own ``clean_<field>``
methods run on what passed. A rule is written once, in the form; what the rules of the
archive refuse is the service's to say (``ClubRefusal``, a 409 in ``api.errors``)."""

from __future__ import annotations

from typing import Any

from django import forms
from rest_framework import serializers


def api_field(
    field: forms.Field, *, optional: bool = False, required: bool = False, plain: bool = False
) -> serializers.Field:
    """Return the API's field for a form's ``field``: the same type, bounds and default. A
    field the page shows filled (its ``initial``) is optional, and takes that value when it
    is not sent; a choice of rows takes their ids. ``optional``: not required, no default;
    ``required``: required whatever the page says; ``plain``: its choices by value alone."""
    kwargs: dict[str, Any] = {}
    if required:
        pass
    elif optional:
        kwargs["required"] = False
    elif field.initial is not None and not callable(field.initial):
        kwargs["default"] = field.initial
    elif not field.required:
        kwargs["required"] = False
        if isinstance(field, forms.CharField):
            kwargs["default"] = ""
    many = {"min_length": getattr(field, "least", None), "max_length": getattr(field, "most", None)}
    if isinstance(field, forms.ModelMultipleChoiceField):
        child = serializers.IntegerField(min_value=1)
        return serializers.ListField(child=child, **many, **kwargs)
    if isinstance(field, forms.ModelChoiceField):
        return serializers.IntegerField(**kwargs)
    if isinstance(field, forms.MultipleChoiceField):
        child = serializers.ChoiceField(choices=_choices(field, plain))
        return serializers.ListField(child=child, **many, **kwargs)
    if isinstance(field, forms.ChoiceField):
        return serializers.ChoiceField(choices=_choices(field, plain), **kwargs)
    if isinstance(field, forms.IntegerField):
        return serializers.IntegerField(
            min_value=field.min_value, max_value=field.max_value, **kwargs
        )
    if isinstance(field, forms.DateField):
        return serializers.DateField(**kwargs)
    if isinstance(field, forms.BooleanField):
        return serializers.BooleanField(**{"required": False, **kwargs})
    if isinstance(field, forms.SlugField):
        return serializers.SlugField(
            max_length=field.max_length, allow_unicode=field.allow_unicode, **kwargs
        )
    if isinstance(field, forms.CharField):
        return serializers.CharField(
            max_length=field.max_length, allow_blank=not field.required, **kwargs
        )
    raise TypeError(f"no API field for {type(field).__name__}")


def _choices(field: forms.ChoiceField, plain: bool) -> list[Any]:
    """Return a choice field's choices, read now (a preset added since is among them), or
    their values alone (``plain``)."""
    choices = [(value, label) for value, label in field.choices if value != ""]
    return [value for value, _label in choices] if plain else choices


class FormInput(serializers.Serializer):
    # A serializer that takes what the page's form (``form_class``) takes. ``optional`` names
    # the fields the API does not require (a use case's endpoint asks for them itself),
    # ``api_required`` those it requires where the page does not, ``left_out`` those it does not
    # take; ``help_texts`` are the schema's words, ``plain_choices`` the fields whose choices
    # it gives by value alone. (No docstring: the schema would give it as
    # each input's description.)

    form_class: type[forms.BaseForm]
    optional: tuple[str, ...] = ()
    api_required: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()
    help_texts: dict[str, Any] = {}
    plain_choices: tuple[str, ...] = ()

    def get_fields(self) -> dict[str, serializers.Field]:
        made = {}
        for name, field in self.form_class.base_fields.items():
            if name in self.left_out:
                continue
            made[name] = api_field(
                field,
                optional=name in self.optional,
                required=name in self.api_required,
                plain=name in self.plain_choices,
            )
            if name in self.help_texts:
                made[name].help_text = self.help_texts[name]
        return made | super().get_fields()  # and the fields the API alone takes

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Run the form's own ``clean_<field>`` methods on what the fields took."""
        cleans = [name for name in attrs if hasattr(self.form_class, f"clean_{name}")]
        if not cleans:
            return attrs
        form = self.form_class()
        form.cleaned_data = dict(attrs)
        errors = {}
        for name in cleans:
            try:
                attrs[name] = getattr(form, f"clean_{name}")()
            except forms.ValidationError as error:
                errors[name] = error.messages
        if errors:
            raise serializers.ValidationError(errors)
        return attrs
