"""Fuzzing what is read from text and folders one did not write (issue 51): record text
(`read_records` on mutated records and hostile lines), self-play folders (mutated
`manifest.json`, shards swapped for links, FIFOs and junk) and Zinordia content folders
(`content_options` on folders holding links out, FIFOs, devices and mutated maps). Only
results or KingdomsError/TypeError come out, no call blocks, and memory stays bounded (the
long runs go under ``ulimit -v``). Each input is one call, counted per surface.
Long run: ``python -m pytest tests/test_fuzz_files.py -m slow -s``.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import Any

import kingdoms
import kingdoms.selfplay as sp
import pytest
from _fuzz import CALLS, QUICK, call, json_copy, long_run, mutate
from hypothesis import given
from hypothesis import strategies as st
from kingdoms import zinordia
from kingdoms.agents import Random

# Characters that break naive line, quote and comment handling.
HOSTILE = [
    "\n", "\r", "\r\n", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x00", "\x1b[2J",
    "\\", '"', "{", "}", "[", "]", ".", " ", "\t", "\ud800", "𝄞", "\\u0041", "\\U00110000",
    "\\u12", "9" * 50, "1. ", "*", "1-0", "winner 99999", '[Event "', "{\\}", '\\"',
]  # fmt: skip


def _records() -> list[str]:
    out = []
    for name in kingdoms.games():
        rec = kingdoms.play_match(name, [Random(seed=1), Random(seed=2)], seed=3)
        short = kingdoms.Record(rec.game, rec.seed, rec.actions[:8], rec.options)
        game = kingdoms.GameRecord(
            short, players=["A\r", "B\u2028"], event='e"v', comments={1: "c}{\\"}
        )
        out.append(kingdoms.write_records(game))
    return out


RECORDS = _records()


def hostile_text(rng: random.Random) -> str:
    """A record text, mutated at the character and line level."""
    text = rng.choice(RECORDS)
    if rng.random() < 0.3:
        text = "\n".join(rng.sample(RECORDS, 2))
    for _ in range(rng.randrange(1, 6)):
        kind = rng.randrange(7)
        i = rng.randrange(len(text) + 1)
        if kind <= 2:
            text = text[:i] + rng.choice(HOSTILE) + text[i:]
        elif kind == 3:
            text = text[:i] + text[i + rng.randrange(1, 40) :]
        elif kind == 4:
            lines = text.split("\n")
            j = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[j])
            text = "\n".join(lines)
        elif kind == 5:
            text = text[:i] + rng.choice(HOSTILE) * rng.choice([100, 5000]) + text[i:]
        else:
            text = text[:i] + rng.choice(["[", "{", "[[", '{\\"a\\":'] * 1) * 3000 + text[i:]
    return text


def fuzz_records(rng: random.Random) -> None:
    out = call("records", kingdoms.read_records, hostile_text(rng))
    if isinstance(out, list):
        for g in out:  # whatever reads back writes and reads back the same
            assert kingdoms.read_records(kingdoms.write_records(g)) == [g]


# ---- self-play folders ----

FOLDERS: dict[str, Any] = {}


def run_folder(base: Path) -> Path:
    if "run" not in FOLDERS:
        out = base / "run"
        sp.generate("battleline", [Random(seed=1)], games=2, out=out, shard_games=1, format="npz")
        FOLDERS["run"] = out
        FOLDERS["manifest"] = out / sp.MANIFEST
        (base / "outside.npz").write_bytes((out / "shard-000000.npz").read_bytes())
    return FOLDERS["run"]


MANIFEST_JUNK = [
    "../outside.npz", "/dev/zero", "/etc/passwd", "shard-000000.npz/..", "", ".", "..",
    "shard-000001.npz", "shard-000000.parquet", "\x00", "a" * 5000, "shard-0.npz",
]  # fmt: skip


def fuzz_manifest(rng: random.Random, base: Path) -> None:
    out = run_folder(base)
    if "good" not in FOLDERS:
        FOLDERS["good"] = json.loads((out / sp.MANIFEST).read_text(encoding="utf-8"))
        FOLDERS["shard1"] = (out / "shard-000001.npz").read_bytes()
    good = FOLDERS["good"]
    tree = mutate(json_copy(good), rng, rng.randrange(1, 4))
    if rng.random() < 0.5 and isinstance(tree, dict) and isinstance(tree.get("shards"), list):
        for s in tree["shards"]:
            if isinstance(s, dict) and rng.random() < 0.5:
                s["file"] = rng.choice(MANIFEST_JUNK)
    text = json.dumps(tree) if rng.random() < 0.9 else "[" * rng.choice([10, 100_000])
    FOLDERS["manifest"].write_text(text, encoding="utf-8", errors="surrogatepass")
    shard = out / "shard-000001.npz"
    kind = rng.randrange(8)
    if kind < 3:  # swap a shard for a FIFO, a link out or junk
        shard.unlink(missing_ok=True)
        if kind == 0:
            os.mkfifo(shard)
        elif kind == 1:
            shard.symlink_to(rng.choice(["/dev/zero", "/dev/urandom", str(base / "outside.npz")]))
        else:
            shard.write_bytes(rng.randbytes(rng.randrange(200)))
    f = rng.choice([sp.read_manifest, sp.shards, sp.load])
    call("manifests", f, out)
    if kind < 3:
        shard.unlink()
        shard.write_bytes(FOLDERS["shard1"])


# ---- Zinordia content folders ----

MAP_TEXT = next(v for k, v in zinordia.reference_files().items() if k.startswith("maps/"))


def fuzz_content(rng: random.Random, base: Path) -> None:
    folder = base / f"maps-{rng.randrange(4)}"
    if folder.exists():
        for f in folder.iterdir():
            f.unlink()
    else:
        folder.mkdir()
    (folder / "arena.toml").write_text(MAP_TEXT, encoding="utf-8")
    for i in range(rng.randrange(3)):
        p = folder / f"m{i}.toml"
        kind = rng.randrange(5)
        if kind == 0:
            os.mkfifo(p)
        elif kind == 1:
            p.symlink_to(rng.choice(["/dev/zero", "/proc/self/environ", "/etc/passwd", "..", "."]))
        elif kind == 2:
            p.symlink_to(folder / "arena.toml")
        else:
            lines = MAP_TEXT.split("\n")
            for _ in range(rng.randrange(1, 4)):
                j = rng.randrange(len(lines))
                lines[j] = lines[j][: rng.randrange(len(lines[j]) + 1)] + rng.choice(HOSTILE)
            p.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
    opts = call("content", zinordia.content_options, maps=folder)
    if isinstance(opts, dict) and rng.random() < 0.3:
        g = call("content", zinordia.Zinordia, seed=1, **opts)
        assert isinstance(g, (kingdoms.Game, kingdoms.KingdomsError, TypeError))


def run_one(seed: int, base: Path, n: int = 1) -> None:
    rng = random.Random(seed)
    # Record text is the cheapest surface and the one most exposed: ten texts a round.
    for _ in range(n):
        for _ in range(10):
            fuzz_records(rng)
        fuzz_manifest(rng, base)
        fuzz_content(rng, base)


@QUICK
@given(seed=st.integers(0, 2**32))
def test_fuzz_files(tmp_path_factory: pytest.TempPathFactory, seed: int) -> None:
    run_one(seed, tmp_path_factory.getbasetemp())


@pytest.mark.slow
def test_fuzz_files_long(tmp_path: Path) -> None:
    for s in ("records", "manifests", "content"):
        CALLS[s] = 0
    start = time.perf_counter()
    long_run(2000)(given(seed=st.integers(0, 2**32))(lambda seed: run_one(seed, tmp_path, 5)))()
    seconds = time.perf_counter() - start
    for s in ("records", "manifests", "content"):
        print(f"\n{s} fuzz: {CALLS[s]} calls", end="")
    print(f"\nin {seconds:.0f} s, all results or KingdomsError/TypeError")
