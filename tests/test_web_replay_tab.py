"""The Replay tab in a real browser (the fixtures of test_web_browser.py): before a record is
chosen it shows no table, not the live game's cards."""

from __future__ import annotations

from .test_web_browser import _idle, browser, server  # noqa: F401  (pytest fixtures)


def test_the_replay_tab_hides_the_live_table_until_a_record_is_chosen(server, browser):  # noqa: F811
    from selenium.webdriver.common.by import By

    _, url = server
    browser.get(url + "?pause=0")
    _idle(browser)
    board = browser.find_element(By.ID, "board")
    assert board.is_displayed() and browser.find_elements(By.CSS_SELECTOR, "#hand-bottom svg.card-svg")
    browser.find_element(By.ID, "mode-replay").click()
    assert not board.is_displayed()
    assert not [e for e in browser.find_elements(By.CSS_SELECTOR, "svg.card-svg") if e.is_displayed()]
    browser.find_element(By.ID, "mode-play").click()
    assert board.is_displayed()
