"""Fuzzing saved states and records (issue 11): `to_dict()` trees of random positions of
every game, mutated (nodes replaced by junk or by other nodes, keys dropped or added, lists
cut or shuffled, numbers and strings nudged), loaded through `from_dict`, `from_json`, the
game's own class and, for records, `replay`. Only results or KingdomsError/TypeError come
out; a state that loads plays on (legal actions, views, pictures, observations, JSON round
trip) without any other error. Long run: ``python -m pytest tests/test_fuzz_states.py -m
slow -s``.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import kingdoms
import pytest
from _fuzz import (
    CALLS,
    JUNK_VALUES,
    QUICK,
    call,
    json_copy,
    long_run,
    mutate,
    position,
    report,
)
from hypothesis import given
from hypothesis import strategies as st

SURFACE = "states"
CLASSES = {name: type(kingdoms.new_game(name, seed=0)) for name in kingdoms.games()}


def exercise(g: Any) -> None:
    """A loaded state must answer the protocol without surprises."""
    if not isinstance(g, kingdoms.Game):
        return
    call(SURFACE, g.legal_actions)
    call(SURFACE, g.to_json)
    for p in range(g.num_players):
        call(SURFACE, g.view, p)
        call(SURFACE, g.render, p)
        call(SURFACE, g.observation_tensor, p)
    back = call(SURFACE, kingdoms.from_json, g.to_json())
    if isinstance(back, kingdoms.Game):
        assert back.to_json() == g.to_json()


def run_one(name: str, seed: int, plies: int, edits: int) -> None:
    g = position(name, seed, plies)
    rng = random.Random(seed * 7919 + edits)
    for _ in range(8):
        tree = mutate(json_copy(g.to_dict()), rng, edits)
        exercise(call(SURFACE, kingdoms.from_dict, tree))
        exercise(call(SURFACE, CLASSES[name].from_dict, tree))
        try:
            text = json.dumps(tree)
        except (TypeError, ValueError, RecursionError):
            text = None
        if text is not None:
            exercise(call(SURFACE, kingdoms.from_json, text))
            cut = rng.randrange(len(text) + 1)
            call(SURFACE, kingdoms.from_json, text[:cut])
    record = g.record().to_dict()
    for _ in range(4):
        tree = mutate(json_copy(record), rng, edits)
        exercise(call(SURFACE, kingdoms.replay, tree))
        call(SURFACE, kingdoms.Record.from_dict, tree)


settings_args = {
    "name": st.sampled_from(kingdoms.games()),
    "seed": st.integers(0, 2**32),
    "plies": st.sampled_from([0, 1, 5, 20, 60, 400]),
    "edits": st.integers(1, 4),
}


@QUICK
@given(**settings_args)
def test_fuzz_states(name: str, seed: int, plies: int, edits: int) -> None:
    run_one(name, seed, plies, edits)


def test_hostile_trees_are_refused_with_paths() -> None:
    g = position("battleline", 1, 10)
    d = g.to_dict()
    d["seed"] = float("nan")
    with pytest.raises(kingdoms.StateError, match=r"\$\.seed"):
        kingdoms.from_dict(d)
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(5000):
        node["a"] = {}
        node = node["a"]
    with pytest.raises(kingdoms.StateError, match="deeper than 128"):
        kingdoms.from_dict(deep)
    with pytest.raises(kingdoms.StateError):
        kingdoms.from_json("[" * 100_000)
    with pytest.raises(TypeError, match="NoneType"):
        kingdoms.from_dict(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="keys must be str"):
        kingdoms.from_dict({1: 2})
    with pytest.raises(kingdoms.StateError, match=r"\$\.actions\[0\]"):
        kingdoms.Record.from_dict({"game": "battleline", "seed": 1, "options": {}, "actions": [1]})
    with pytest.raises(TypeError, match="a record"):
        kingdoms.Record.from_dict([])  # type: ignore[arg-type]


def test_mutated_trees_never_share_or_change_the_junk() -> None:
    """The states long run's unbounded memory (issue 11) was the harness: `mutate` put the
    shared `JUNK_VALUES` lists and dicts into trees and then edited them in place, so after
    some 600 trees one held itself and `slots` walked that cycle forever. Each tree now gets
    fresh copies: after many edits the junk is unchanged and every tree is finite JSON."""
    before = repr(JUNK_VALUES)
    rng = random.Random(1)
    base = {"a": [1, 2, {"b": "x"}], "c": {"d": 3}}
    for _ in range(2000):
        tree = mutate(json_copy(base), rng, 4)
        json.dumps(tree)  # raises ValueError on a cycle
    assert repr(JUNK_VALUES) == before


def test_shared_parts_cannot_blow_a_state_up() -> None:
    """Python objects may share parts: 64 levels of `v = [v, v]` are 65 lists but 2**64
    values once copied, and a list naming one 4 MiB text 1000 times is 4 GB. Taking such data
    as JSON stops at documented totals (docs/protocol.md, "Limits") with a `StateError`
    instead of allocating without bound (issue 11)."""
    v: Any = []
    for _ in range(64):
        v = [v, v]
    text = "x" * (4 << 20)
    g = kingdoms.new_game("battleline", seed=1)
    record = g.record().to_dict()
    loads = [
        lambda t: kingdoms.from_dict(g.to_dict() | {"x": t}),
        lambda t: kingdoms.replay(record | {"options": {"o": t}}),
        lambda t: kingdoms.Record.from_dict(record | {"options": {"o": t}}),
    ]
    for shared, why in ((v, "more than 1048576 values"), ([text] * 1000, "bytes of text in all")):
        for load in loads:
            with pytest.raises(kingdoms.StateError, match=why):
                load(shared)
        with pytest.raises(kingdoms.RulesOptionError, match=why):
            kingdoms.new_game("battleline", seed=1, traitor_troops_only=shared)


@pytest.mark.slow
def test_fuzz_states_long() -> None:
    CALLS[SURFACE] = 0
    start = time.perf_counter()
    long_run(800)(given(**settings_args)(run_one))()
    print(report(SURFACE, time.perf_counter() - start))


def test_saved_states_and_records_never_open_a_path(tmp_path: Any) -> None:
    """A state or record naming a `cards_file` is refused without reading it; a game made
    from a file carries the set's text (issue 11)."""
    from kingdoms.arte import Arte
    from kingdoms.strifull import Strifull, reference_files

    fifo_like = tmp_path / "never-read.toml"  # does not exist: a read would say so
    for cls, text in (
        (Strifull, "\n".join(reference_files().values())),
        (Arte, Arte.reference_cards_toml()),
    ):
        path = tmp_path / f"{cls.GAME}.toml"
        path.write_text(text, encoding="utf-8")
        g = cls(seed=4, cards_file=str(path))
        assert g.options["cards_file"] is None and g.options["cards_toml"] == text
        path.unlink()  # the game, its states and its record no longer need the file
        assert kingdoms.from_json(g.to_json()) == g
        assert kingdoms.replay(g.record()) == g
        d = g.to_dict()
        d["options"]["cards_file"], d["options"]["cards_toml"] = str(fifo_like), None
        with pytest.raises(kingdoms.StateError, match=r"\$\.options\.cards_file") as e:
            kingdoms.from_dict(d)
        assert "never-read" not in str(e.value)
        record = g.record().to_dict()
        record["options"] = {"cards_file": str(fifo_like)}
        with pytest.raises(kingdoms.StateError, match=r"\$\.options\.cards_file"):
            kingdoms.replay(record)


def test_strifull_options_contradicting_the_sides_are_refused() -> None:
    g = kingdoms.new_game("strifull", seed=3)
    d = g.to_dict()
    d["options"]["leaders"] = [None, "nobody"]
    with pytest.raises(kingdoms.StateError, match=r"\$\.options\.leaders\[1\]"):
        kingdoms.from_dict(d)
    d = g.to_dict()
    d["options"]["factions"] = ["magos", "magos"]
    with pytest.raises(kingdoms.StateError, match=r"\$\.options\.factions\[0\]"):
        kingdoms.from_dict(d)
