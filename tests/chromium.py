"""Headless Chromium for the browser tests: the distribution's package and its driver, never a
download (Debian: apt-get install chromium chromium-driver; .ci/run installs them).

Without them a test skips, except under CI=true, where it fails: CI must not pass by skipping.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("SIXTYSIX_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("SIXTYSIX_CHROMEDRIVER", "/usr/bin/chromedriver"))


def require_browser(what: str, modules: tuple[str, ...] = ("selenium",), hint: str = "") -> None:
    """Skip (fail under CI=true) unless Chromium, its driver and ``modules`` are installed."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as e:
            missing.append(f"python package {e.name}")
    if missing:
        message = f"{what} needs {', '.join(missing)} ({hint or 'apt-get install chromium chromium-driver'})"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@contextmanager
def headless_chromium(profile: Path, monkeypatch: Any, console: bool = False, wait_s: float = 60) -> Iterator[Any]:
    """A selenium driver of headless Chromium with its profile in ``profile``; ``console``: keep
    the browser console's messages for ``driver.get_log("browser")``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    monkeypatch.setenv("SE_OFFLINE", "true")  # Selenium Manager must not look for downloads
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--window-size=1400,900",
    ):
        options.add_argument(arg)
    if console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(wait_s)
    try:
        yield driver
    finally:
        driver.quit()
