"""The rules of a Fives and Threes match in words on its page, at a phone's size, in
Russian: each option of the preset said (screenshot in test-artifacts/)."""

from __future__ import annotations

import pytest

from fives_engine.simulate import simulate_match

from .test_replay_browser import ARTIFACTS, open_replay, store

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_fives_and_threes_match_says_its_rules_on_a_phone_in_russian(browser, live_server, owner):
    match = store(owner, simulate_match("fives-and-threes", 4, teams=True, seed=21))
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="ru-RU", is_mobile=True
    )
    page = context.new_page()
    try:
        open_replay(page, f"{live_server.url}{match.get_absolute_url()}")
        rules = page.locator("details.ruleset")
        assert "Пятёрки и тройки" in rules.locator("summary").inner_text()
        rules.locator("summary").click()
        said = rules.locator("ul.ruleset li").all_inner_texts()
        assert said[:2] == [
            "игра до 61",
            "сторона должна набрать ровно 61: ход, с которым счёт перевалил бы за 61, не "
            "приносит ничего, а матч кончается в тот же миг, когда сторона набирает ровно "
            "столько",
        ]
        assert "из базара не берут: кто не может сходить, стучит (пропускает ход)" in said
        assert "каждый кон начинает следующий по кругу игрок" in said
        assert not any("базаре" in words for words in said)  # no tiles kept back
        # The list fits the phone's width: no phrase runs off the screen.
        widest = page.evaluate(
            "Math.max(...[...document.querySelectorAll('ul.ruleset li')]"
            ".map(n => n.getBoundingClientRect().right))"
        )
        assert widest <= 390
        rules.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "ruleset-words-fives-and-threes-ru-phone.png"))
    finally:
        context.close()
