"""Remake the screenshots of `kingdoms serve` in docs/img (docs/serve.md):
`python docs/img/make_serve.py` (needs the serve extra, selenium and Debian's chromium and
chromium-driver). Each shows a game against the heuristic agent a few moves in, with a card
or Star picked so that the legal targets are highlighted. The deals are drawn by the server,
so the positions differ from one run to the next."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import uvicorn
from kingdoms.serve import create_app
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

HERE = Path(__file__).resolve().parent
TOKEN = "screenshot-token-" + "s" * 20


def main() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    asgi, _ = create_app(TOKEN, "127.0.0.1", port)
    srv = uvicorn.Server(uvicorn.Config(asgi, log_level="warning"))
    threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not srv.started:
        time.sleep(0.05)
    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1500,1050"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    ready = "return document.body.dataset.ready || '';"
    try:
        driver.get(f"http://127.0.0.1:{port}/?token={TOKEN}")
        WebDriverWait(driver, 20).until(
            lambda d: d.execute_script("return document.body.dataset.loaded;")
        )
        for game, moves, out in (
            ("battleline", 6, "serve-battleline.png"),
            ("zinordia", 9, "serve-zinordia.png"),
        ):
            Select(driver.find_element(By.ID, "game")).select_by_value(game)
            Select(
                driver.find_element(By.CSS_SELECTOR, '#seats select[data-seat="1"]')
            ).select_by_value("heuristic")
            driver.find_element(By.ID, "start").click()
            WebDriverWait(driver, 20).until(lambda d: d.execute_script(ready))
            for _ in range(moves):
                WebDriverWait(driver, 30).until(
                    lambda d: d.execute_script(
                        "return document.body.dataset.toMove === '0' && document.body.dataset.ready === document.body.dataset.version;"
                    )
                )
                version = driver.execute_script(ready)
                driver.find_elements(By.CSS_SELECTOR, "#moves button")[-1].click()
                WebDriverWait(driver, 30).until(lambda d, v=version: d.execute_script(ready) != v)
            WebDriverWait(driver, 30).until(
                lambda d: d.execute_script("return document.body.dataset.toMove === '0';")
            )
            time.sleep(0.5)
            hits = driver.find_elements(By.CSS_SELECTOR, "#board svg rect.hit")
            if hits and game == "battleline":
                hits[0].click()  # a card picked: its flags are highlighted
            time.sleep(0.3)
            driver.save_screenshot(str(HERE / out))
    finally:
        driver.quit()
        srv.should_exit = True


if __name__ == "__main__":
    main()
