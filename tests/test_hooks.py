"""The archive's extension points (``clubs.hooks``, issue 57, item 4): each declared once with
its protocol and how many fill it, each filled as declared once Django is set up (exactly one
filler of a hook that takes one, one or more of the others), every filler of the protocol's
shape, and every fill made in an ``AppConfig.ready()`` of an installed app, nowhere else. A
hook filled twice is refused when the site starts; one no app fills is found here."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from django.apps import apps

from clubs import hooks
from clubs.hooks import HOOKS, Hook
from clubs.waiting import Kind


def wrongly_filled(declared: Iterable[Hook[Any]]) -> list[str]:
    """Say each hook filled other than declared: none or more than one of a hook that takes
    one, none of one that takes many, a filler not of its protocol's shape, or a fill made
    outside an installed app's ``AppConfig.ready()``."""
    said = []
    for hook in declared:
        count = len(hook.fills)
        if count == 0 or (count > 1 and not hook.many):
            said.append(f"{hook.name}: filled {count} times")
        for key, filler in hook._fills.items():
            if not of_shape(filler, hook.protocol):
                said.append(f"{hook.name}: {filler!r} is not a {hook.protocol.__name__}")
            if not from_ready(hook.sites[key]):
                said.append(f"{hook.name}: {key!r} filled in {hook.sites[key]}")
    return said


def from_ready(site: str) -> bool:
    """Whether ``site`` ("<module>.<qualified name>") is the ``ready()`` of the config
    Django installed for its app."""
    if not site.endswith(".ready"):
        return False
    module, _, owner = site.removesuffix(".ready").rpartition(".")
    try:
        config = getattr(importlib.import_module(module), owner, None)
    except ImportError:
        return False
    return any(type(installed) is config for installed in apps.get_app_configs())


def of_shape(filler: Any, protocol: type) -> bool:
    """Whether each function of ``protocol`` (its ``__call__``, or its methods) takes, in
    ``filler``, the arguments the protocol says it is called with; and each field is
    there."""
    for name in protocol.__protocol_attrs__:  # type: ignore[attr-defined]
        declared = getattr(protocol, name, None)
        if not hasattr(filler, name):
            return False
        # A function's own ``__call__`` takes anything: the function says what it takes.
        function = filler if name == "__call__" else getattr(filler, name)
        if callable(declared) and not takes(function, declared):
            return False
    return True


def takes(function: Callable[..., Any], declared: Callable[..., Any]) -> bool:
    """Whether ``function`` can be called as ``declared`` says (its ``self`` aside)."""
    positional, keywords = [], {}
    for parameter in list(inspect.signature(declared).parameters.values())[1:]:
        if parameter.kind is parameter.KEYWORD_ONLY:
            keywords[parameter.name] = None
        else:
            positional.append(None)
    try:
        inspect.signature(function).bind(*positional, **keywords)
    except TypeError:
        return False
    return True


def test_every_hook_is_filled_as_declared_from_an_app_configs_ready():
    assert wrongly_filled(HOOKS) == []


def test_every_hook_of_the_module_is_declared():
    """A hook the module holds but ``HOOKS`` leaves out would go unchecked."""
    found = [value for value in vars(hooks).values() if isinstance(value, Hook)]
    assert sorted(hook.name for hook in found) == sorted(hook.name for hook in HOOKS)
    assert len({hook.name for hook in HOOKS}) == len(HOOKS)


def test_who_fills_each_hook():
    """The apps that answer each question, in the order they are ready (the order of
    ``INSTALLED_APPS``: clubs' audit actions lead the trail's list)."""
    apps_of = {
        hook.name: list(dict.fromkeys(site.split(".")[0] for site in hook.sites.values()))
        for hook in HOOKS
    }
    assert apps_of == {
        "audit_actions": ["clubs", "games", "competitions", "webhooks"],
        "waiting_kinds": ["games", "competitions", "webhooks"],
        "waiting_listeners": ["competitions", "webhooks"],
        "counts_for": ["competitions"],
        "archive_events": ["replays", "competitions", "recorder", "webhooks"],
        "tool_events": ["webhooks"],
        "player_merging": ["replays", "competitions"],
        "player_claimed": ["replays"],
        "match_deleting": ["replays"],
        "player_calendar": ["competitions"],
        "home_notes": ["replays"],
    }


# --- planted: each wrong fill is refused or found ------------------------------------------


def answer(event: Any) -> None:
    """A filler of ``ArchiveReceiver``."""


def other_answer(event: Any) -> None:
    """Another."""


def test_a_hook_filled_twice_is_refused():
    one = Hook("one", hooks.ArchiveReceiver, many=False)
    one.fill(answer)
    with pytest.raises(ValueError, match="one is filled twice"):
        one.fill(other_answer)
    many = Hook("many", hooks.ArchiveReceiver, many=True)
    many.fill(answer, other_answer)
    with pytest.raises(ValueError, match="many is filled twice"):
        many.fill(answer)
    # Two kinds of one slug are one kind filled twice.
    keyed = Hook("keyed", hooks.WaitingKind, many=True, key=lambda kind: kind.slug)
    first = Kind("x", "first", list, list)
    keyed.fill(first)
    with pytest.raises(ValueError, match="keyed is filled twice"):
        keyed.fill(Kind("x", "again", list, list))
    assert keyed.fills == (first,)


def test_a_filler_of_another_kind_is_refused():
    with pytest.raises(TypeError, match="takes a WaitingKind"):
        Hook("kinds", hooks.WaitingKind, many=True).fill(answer)


def test_a_hook_no_app_fills_or_filled_outside_ready_is_found():
    unfilled = Hook("unfilled", hooks.ArchiveReceiver, many=True)
    outside = Hook("outside", hooks.ArchiveReceiver, many=False)
    outside.fill(answer)  # from this test, not an app's ready()
    assert wrongly_filled([unfilled, outside]) == [
        "unfilled: filled 0 times",
        f"outside: {answer!r} filled in {__name__}.{inspect.currentframe().f_code.co_name}",
    ]


def test_a_filler_not_called_as_its_protocol_says_is_found():
    def two_arguments(event: Any, more: Any) -> None: ...

    def keywords_lost(*, source: Any) -> None: ...

    assert not of_shape(two_arguments, hooks.ArchiveReceiver)
    assert of_shape(answer, hooks.ArchiveReceiver)
    assert not of_shape(keywords_lost, hooks.PlayerMerging)
    assert not of_shape(answer, hooks.PlayerMerging)


def test_a_fill_from_a_function_called_by_ready_is_not_from_ready():
    assert from_ready("competitions.apps.CompetitionsConfig.ready")
    assert not from_ready("competitions.waiting.register_kinds")
    assert not from_ready("competitions.apps.CompetitionsConfig.other")
    assert not from_ready("tests.test_hooks.test_who_fills_each_hook")
