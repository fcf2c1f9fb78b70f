"""Headless Chromium for the browser tests: Debian's chromium and chromedriver driven by
selenium (nothing downloads a browser). `require()` skips the calling test module where
they are not installed, except under CI (``CI=true``), where `.ci/run` installs them and a
missing browser is a failure; `chrome(...)` is a driver, quit on exit; `wait(...)` a
quickly polling ``WebDriverWait``."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


def require() -> None:
    """Skip the module (fail under CI) without Chromium, chromedriver or selenium."""
    if not (CHROMIUM and CHROMEDRIVER):
        if os.environ.get("CI"):
            pytest.fail("CI needs Debian's chromium and chromium-driver (.ci/run installs them)")
        pytest.skip(
            "headless Chromium not installed (apt-get install chromium chromium-driver)",
            allow_module_level=True,
        )
    pytest.importorskip("selenium.webdriver")


def wait(driver: Any, timeout: float) -> Any:
    """selenium's ``WebDriverWait`` polling every 20 ms: its default half second, paid at every
    move of a whole game played by clicking, was most of those tests' time."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.02)


@contextmanager
def chrome(size: tuple[int, int], logs: tuple[str, ...] = ("browser",)) -> Iterator[Any]:
    """A headless Chromium of window ``size`` keeping every entry of the ``logs`` kinds
    (``driver.get_log(kind)``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={size[0]},{size[1]}",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", dict.fromkeys(logs, "ALL"))
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()
