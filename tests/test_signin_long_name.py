"""A sign-in with a name longer than any person's is refused as a wrong password, never a
500 (the write fuzz found one on PostgreSQL: axes kept the name in a column of 255)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("length", [150, 151, 300, 5000])
def test_a_name_of_any_length_is_a_refused_sign_in(length):
    answer = Client().post(
        "/accounts/login/", {"username": "u" * length, "password": "x" * 40, "next": "-1"}
    )
    assert answer.status_code == 200  # the form again, saying the name or password is wrong
