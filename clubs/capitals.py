"""A capital first letter only where the script has capitals: Georgian has none.

Django makes a form's label from a model field's ``verbose_name`` with
``django.utils.text.capfirst`` (``Field.formfield``, ``AuthenticationForm``), which upper-cases
the first letter. Since Unicode 11 the upper case of a Georgian letter (Mkhedruli, U+10D0 to
U+10FF) is Mtavruli (U+1C90 to U+1CBF): letters that Georgian writing does not capitalise
with, and that the fonts of most systems (Debian's chromium among them) draw as boxes. The
forms of the archive label their model fields with ``capfirst`` below instead.
"""

from __future__ import annotations

from django.utils.functional import keep_lazy_text

# Mkhedruli, the Georgian letters in use: caseless in writing, whatever Unicode maps them to.
MKHEDRULI = range(0x10D0, 0x1100)
# Mtavruli, what upper-casing Mkhedruli gives; what a page in Georgian must never show.
MTAVRULI = range(0x1C90, 0x1CC0)


@keep_lazy_text
def capfirst(text: str) -> str:
    """Return ``text`` with its first letter upper-cased, unless that letter is Georgian."""
    text = str(text)
    if not text or ord(text[0]) in MKHEDRULI:
        return text
    return text[0].upper() + text[1:]


def labelled_formfield(db_field, **kwargs):
    """Return a model field's form field labelled by ``capfirst`` (a ModelForm's
    ``formfield_callback``); a label the form names itself is kept."""
    kwargs.setdefault("label", capfirst(db_field.verbose_name))
    return db_field.formfield(**kwargs)


def mtavruli_count(text: str) -> int:
    """Return how many Mtavruli letters ``text`` holds."""
    return sum(ord(char) in MTAVRULI for char in text)
