"""Remake the pictures in docs/img: `python docs/img/make.py` (needs Debian's chromium, which
takes the screenshots, and matplotlib for the ratings chart). The positions are seeded, so the
pictures only change when the drawing code does."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import kingdoms
from kingdoms import hex
from kingdoms.agents import ISMCTS, Greedy, Random
from PIL import Image  # comes with matplotlib

HERE = Path(__file__).resolve().parent


def played(name: str, seed: int, plies: int) -> kingdoms.Game:
    g = kingdoms.new_game(name, seed=seed)
    for i in range(plies):
        if g.is_terminal:
            break
        acts = g.legal_actions()
        g.apply(acts[(i * 7 + seed) % len(acts)])
    return g


def screenshot(svg: str, out: str) -> None:
    root = ET.fromstring(svg)
    w, h = int(float(root.get("width", "800"))), int(float(root.get("height", "600")))
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "p.html"
        page.write_text(
            f'<!DOCTYPE html><html><body style="margin:0">{svg}</body></html>', encoding="utf-8"
        )
        shot = Path(tmp) / "shot.png"
        # headless Chromium's viewport is shorter than its window: shoot taller, then crop
        subprocess.run(
            [
                "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--screenshot={shot}",
                f"--window-size={w},{h + 200}",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
        )
        with Image.open(shot) as im:
            im.crop((0, 0, w, h)).save(HERE / out, optimize=True)
    print(out, w, h)


def main() -> int:
    bl = played("battleline", 2, 55)
    act = next(a for a in bl.legal_actions() if bl.describe_action(a)["kind"] == "play")
    screenshot(bl.svg(action=act), "battleline.png")
    screenshot(bl.svg(bl.current_player), "battleline-player.png")
    sk = played("strifull", 3, 40)
    screenshot(sk.svg(), "strifull.png")
    screenshot(sk.svg(0), "strifull-player.png")
    ar = played("arte", 5, 45)
    screenshot(ar.svg(), "arte.png")
    screenshot(ar.svg(0), "arte-player.png")
    screenshot(played("arte", 3, 400).svg(), "arte-end.png")
    zi = played("zinordia", 4, 60)
    screenshot(zi.svg(), "zinordia.png")
    screenshot(zi.svg(0), "zinordia-player.png")
    for orientation, picture in (
        ("pointy", "\n . . . . . .\n. . # # . . .\n . ~ ~ . . .\n. . . # . . .\n . . . . . .\n"),
        (
            "flat",
            "\n.   .   .   .\n  .   #   .   .\n.   ~   #   .\n  .   ~   .   .\n.   .   .   .\n  .   .   .   .\n",
        ),
    ):
        m = hex.HexMap.from_text(
            f'name = "{orientation}-top map"\norientation = "{orientation}"\n'
            f"picture = '''{picture}'''\n"
            '[legend]\n"." = "plain"\n"#" = "rock"\n"~" = "water"\n'
            "[terrain]\nplain = {}\nwater = { cost = 2 }\n"
            "rock = { passable = false, blocks_sight = true }\n"
        )
        zones = sorted(m.zones(), key=lambda h: (h.r, h.q))
        start, goal = zones[0], zones[-1]
        m.set_occupant(start, 1)
        reach = m.reachable(start, 3)
        screenshot(
            m.svg(highlight=list(reach), path=m.path(start, goal), labels=reach, coordinates=True),
            f"hexmap-{orientation}.png",
        )
    from kingdoms._svg.replay import replay_html

    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "replay.html"
        page.write_text(replay_html(played("battleline", 2, 30).record()), encoding="utf-8")
        shot = Path(tmp) / "shot.png"
        subprocess.run(
            [
                "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--screenshot={shot}",
                "--window-size=1000,920",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
        )
        with Image.open(shot) as im:
            im.crop((0, 0, 1000, 720)).save(HERE / "replay.png", optimize=True)
    print("replay.png")
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: ratings.png not made", file=sys.stderr)
        return 0
    result = kingdoms.tournament(
        "battleline", [Random(), Greedy(), ISMCTS(iterations=200)], games=24, seed=1
    )
    ax = result.plot()
    ax.figure.tight_layout()
    ax.figure.savefig(HERE / "ratings.png", dpi=100)
    plt.close(ax.figure)
    print("ratings.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
