"""The page in a real browser: headless Chromium (the distribution's package, never a download)
plays a whole deal against ``random`` by clicking, checks the result shown, screenshots the table
and inspects the picture, then replays the saved game with the arrow keys.

Needs /usr/bin/chromium and /usr/bin/chromedriver (Debian: apt-get install chromium
chromium-driver; .ci/run installs them). Without them the test skips, except under CI=true, where
it fails. Screenshots go to the test's tmp folder, or to $SIXTYSIX_SCREENSHOTS when set.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.chromium import headless_chromium, require_browser


def _require_browser() -> None:
    require_browser(
        "browser test", ("PIL", "selenium"), "apt-get install chromium chromium-driver; pip install -e '.[all]'"
    )


@pytest.fixture
def server(tmp_path):
    _require_browser()
    from werkzeug.serving import make_server

    from sixtysix_env.web import create_app

    app = create_app("random", records=tmp_path / "records", seed=5)
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{srv.server_port}/"
    srv.shutdown()
    thread.join(timeout=10)


@pytest.fixture
def browser(tmp_path, monkeypatch):
    _require_browser()
    with headless_chromium(tmp_path / "chromium-profile", monkeypatch) as driver:
        yield driver


def _shot_dir(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("SIXTYSIX_SCREENSHOTS", tmp_path / "shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _wait(driver, condition, what: str, timeout: float = 30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}; status: {driver.find_element('id', 'status').text!r}")


def _idle(driver) -> None:
    _wait(driver, lambda: driver.execute_script("return document.body.dataset.busy") == "0", "the page to be idle")


def _inspect_png(path: Path) -> None:
    """Not blank, many colours, and card faces (their off-white paper) in sight."""
    from PIL import Image

    with Image.open(path) as image:
        rgb = image.convert("RGB")
        assert rgb.size[0] >= 1000 and rgb.size[1] >= 700
        pixels = list(rgb.get_flattened_data() if hasattr(rgb, "get_flattened_data") else rgb.getdata())
    counts = Counter(pixels)
    assert len(counts) > 500, f"{path}: only {len(counts)} colours"
    assert counts.most_common(1)[0][1] < 0.5 * len(pixels), f"{path}: mostly one colour"
    paper = sum(n for (r, g, b), n in counts.items() if r > 245 and g > 243 and 236 < b < 252)
    assert paper > 20_000, f"{path}: little card paper ({paper} pixels)"


def test_play_a_deal_by_clicking_then_replay_it(server, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    app, url = server
    shots = _shot_dir(tmp_path)
    browser.get(url + "?pause=150")
    _idle(browser)
    assert browser.title == "Sixty-Six"
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors

    svg_counts = []
    for _ in range(120):
        _idle(browser)
        if browser.execute_script("return document.body.dataset.phase") == "over":
            break
        svg_counts.append(len(browser.find_elements(By.CSS_SELECTOR, "svg.card-svg")))
        if len(svg_counts) == 3:
            browser.save_screenshot(str(shots / "play.png"))
        cards = browser.find_elements(By.CSS_SELECTOR, "#hand-bottom .card.playable")
        dimmed = browser.find_elements(By.CSS_SELECTOR, "#hand-bottom .card.dimmed")
        buttons = browser.find_elements(By.CSS_SELECTOR, "#actions button")
        assert cards or buttons, "your turn, but nothing to click"
        hand = browser.find_elements(By.CSS_SELECTOR, "#hand-bottom .card")
        if cards:  # every card is clickable or dimmed
            assert len(cards) + len(dimmed) == len(hand)
        else:  # a button decides (draw or close): no card is dimmed
            assert buttons and not dimmed
        # prefer drawing to closing so the deal runs its normal course
        draw = [b for b in buttons if b.text.startswith("Draw")]
        (draw or cards or buttons)[0].click()
    else:
        raise AssertionError("the deal did not end within 120 clicks")

    assert max(svg_counts) >= 12  # your hand, the opponent's backs, the stock and the trump card
    result = browser.find_element(By.ID, "result")
    assert result.is_displayed()
    (game,) = app.config["server"].games.values()
    assert game.deal.is_over
    shown = browser.find_element(By.ID, "result-text").text
    assert shown == game.view()["outcome"]["text"]
    title = browser.find_element(By.ID, "result-title").text
    assert ("You win" in title) == (game.deal.outcome.winner == 0)
    browser.save_screenshot(str(shots / "result.png"))
    _inspect_png(shots / "play.png")
    _inspect_png(shots / "result.png")

    # the finished deal was saved; replay it with both hands face up
    (record,) = (tmp_path / "records").glob("*.json")
    browser.find_element(By.ID, "mode-replay").click()
    select = _wait(
        browser,
        lambda: (
            len(browser.find_elements(By.CSS_SELECTOR, "#record-list option")) > 1
            and browser.find_element(By.ID, "record-list")
        ),
        "the record list",
    )
    Select(select).select_by_value(record.name)
    step = browser.find_element(By.ID, "replay-step")
    _wait(browser, lambda: step.text.startswith("step 0 of"), "the replay to load")
    total = int(step.text.split()[-1])
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(3):
        body.send_keys(Keys.ARROW_RIGHT)
    assert step.text == f"step 3 of {total}"
    body.send_keys(Keys.ARROW_LEFT)
    assert step.text == f"step 2 of {total}"
    top_faces = browser.find_elements(By.CSS_SELECTOR, "#hand-top svg.card-svg:not(.card-back)")
    assert len(top_faces) >= 5  # the other hand is face up in a replay
    assert not browser.find_elements(By.CSS_SELECTOR, ".card.playable")
    browser.save_screenshot(str(shots / "replay.png"))
    _inspect_png(shots / "replay.png")
    body.send_keys(Keys.END)
    assert step.text == f"step {total} of {total}"
    assert browser.find_element(By.ID, "status").text == game.view()["outcome"]["text"]
    browser.find_element(By.ID, "replay-first").click()
    assert step.text == f"step 0 of {total}"
    shutil.copy(record, shots / "record.json")  # next to the screenshots, for a person to look at


def _click_through_deal(browser, shots: Path, name: str) -> list[int]:
    """Click the first legal card or button until the deal ends; returns the SVG count per turn."""
    from selenium.webdriver.common.by import By

    counts = []
    for _ in range(120):
        _idle(browser)
        if browser.execute_script("return document.body.dataset.phase") == "over":
            return counts
        counts.append(len(browser.find_elements(By.CSS_SELECTOR, "svg.card-svg")))
        if len(counts) == 3:
            browser.save_screenshot(str(shots / name))
        cards = browser.find_elements(By.CSS_SELECTOR, "#hand-bottom .card.playable")
        buttons = browser.find_elements(By.CSS_SELECTOR, "#actions button")
        assert cards or buttons, "your turn, but nothing to click"
        (cards or buttons)[0].click()
    raise AssertionError("the deal did not end within 120 clicks")


def test_play_a_four_player_deal_by_clicking(server, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    app, url = server
    shots = _shot_dir(tmp_path)
    browser.get(url + "?pause=50")
    _idle(browser)
    Select(browser.find_element(By.ID, "rules")).select_by_value("four:pagat")
    browser.find_element(By.ID, "new-match").click()
    _idle(browser)
    for where in ("left", "top", "right"):
        assert browser.find_element(By.ID, f"seat-{where}").is_displayed()
    assert not browser.find_element(By.ID, "stock-area").is_displayed()  # no stock with four players
    counts = _click_through_deal(browser, shots, "four.png")
    assert max(counts) >= 15  # your hand and the three other hands' backs
    games = [g for g in app.config["server"].games.values() if g.game == "four"]
    assert len(games) == 1 and games[0].deal.is_over
    assert browser.find_element(By.ID, "result-text").text == games[0].view()["outcome"]["text"]
    _inspect_png(shots / "four.png")
