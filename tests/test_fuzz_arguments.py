"""Fuzzing arguments (issue 11): int arguments of every binding (players, ids, seeds,
counts, thread counts, limits) with boundaries, negatives, huge ints, bools, floats, NaN,
strings and other junk. A value out of range is an `ArgumentError` naming the argument, a
wrong type a `TypeError`; never `OverflowError`, and a refusal changes nothing. Long run:
``python -m pytest tests/test_fuzz_arguments.py -m slow -s``.
"""

from __future__ import annotations

import time
from typing import Any

import kingdoms
import pytest
from _fuzz import CALLS, QUICK, call, junk, long_run, on_game, position, report
from hypothesis import given
from hypothesis import strategies as st
from kingdoms import agents
from kingdoms._kingdoms import tournament_schedule
from kingdoms.batch import Batch

SURFACE = "arguments"
values = st.one_of(junk, st.integers(-3, 5))


def run_one(name: str, seed: int, xs: list[Any]) -> None:
    g = position(name, seed, seed % 30)
    a, b, c = xs[0], xs[1], xs[2]
    for method in ("view", "render", "observation_tensor", "evaluate", "team", "id_to_action"):
        on_game(SURFACE, g, method, a)
    on_game(SURFACE, g, "resample_hidden", a, b)
    on_game(SURFACE, g, "to_json", a)
    on_game(SURFACE, g.clone(), "apply_id", a)
    call(SURFACE, kingdoms.new_game, name, seed=a)
    call(SURFACE, agents.Random, a)
    call(SURFACE, agents.Greedy, samples=a, seed=b)
    call(SURFACE, agents.ISMCTS, iterations=a, seed=b, rollout_depth=c)
    call(SURFACE, agents.ISMCTS, iterations=10, expand_samples=a, exploration=b)
    call(SURFACE, kingdoms.Record, name, a, [])
    call(SURFACE, tournament_schedule, name, a, games=b)
    # Small budgets only: a valid value must not start a long run.
    small = [v for v in (a, b) if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 3]
    games = small[0] if small else 0
    call(SURFACE, kingdoms.simulate, name, games, a, threads=b if small else c, first=c)
    call(SURFACE, kingdoms.simulate, name, 1, 1, threads=a)
    for batch_args in ((a,), (1,)):
        if batch_args == (a,) and not (isinstance(a, int) and a <= 4):
            batch_args = (10**12,)
        out = call(SURFACE, Batch, name, *batch_args, seed=b, threads=None)
        if isinstance(out, Batch):
            call(SURFACE, out.game, c)
            call(SURFACE, out.reset, c)


settings_args = {
    "name": st.sampled_from(kingdoms.games()),
    "seed": st.integers(0, 1000),
    "xs": st.lists(values, min_size=3, max_size=3),
}


@QUICK
@given(**settings_args)
def test_fuzz_arguments(name: str, seed: int, xs: list[Any]) -> None:
    run_one(name, seed, xs)


@pytest.mark.parametrize(
    "f, needle",
    [
        (lambda: kingdoms.new_game("battleline", seed=-1), "seed out of range"),
        (lambda: kingdoms.new_game("battleline", seed=2**64), "seed out of range"),
        (lambda: kingdoms.new_game("battleline", seed=1).view(-1), "player out of range"),
        (lambda: kingdoms.new_game("battleline", seed=1).view(2), "player out of range"),
        (lambda: kingdoms.simulate("battleline", -1, 1), "games out of range"),
        (lambda: kingdoms.simulate("battleline", 1, 1, threads=100_000), "threads out of range"),
        (lambda: kingdoms.simulate("battleline", 1, 1, threads=0), "threads out of range"),
        (lambda: Batch("battleline", 10**9, seed=1), "num_games out of range"),
        (lambda: agents.Greedy(samples=10**9), "samples out of range"),
        (lambda: agents.ISMCTS(iterations=2**40), "iterations out of range"),
        (lambda: agents.Random(seed=-5), "seed out of range"),
        (lambda: kingdoms.new_game("battleline", seed=1).to_json(indent=-1), "indent"),
    ],
)
def test_out_of_range_is_an_argument_error(f: Any, needle: str) -> None:
    with pytest.raises(kingdoms.ArgumentError, match=needle):
        f()


def test_huge_first_is_refused() -> None:
    with pytest.raises(kingdoms.KingdomsError, match="first"):
        kingdoms.simulate("battleline", 1, 1, first=2**64 - 1)


def test_threads_limit_is_refused_at_once() -> None:
    start = time.perf_counter()
    with pytest.raises(kingdoms.ArgumentError):
        kingdoms.tournament("battleline", [agents.Random(), agents.Random()], games=2, threads=5000)
    assert time.perf_counter() - start < 5


def test_bool_is_not_a_seed() -> None:
    with pytest.raises(TypeError, match="bool"):
        kingdoms.new_game("battleline", seed=True)


GAME_LIST = "the games are battleline, strifull, arte, zinordia"
UNKNOWN = "chess" * 100  # quoted only in part


@pytest.mark.parametrize(
    "f",
    [
        lambda: kingdoms.new_game(UNKNOWN, seed=1),
        lambda: kingdoms.simulate(UNKNOWN, 2, 1),
        lambda: Batch(UNKNOWN, 2, seed=1),
        lambda: kingdoms.tournament(UNKNOWN, [agents.Random(), agents.Random()], games=2),
        lambda: kingdoms.play_match(UNKNOWN, [agents.Random(), agents.Random()], seed=1),
        lambda: tournament_schedule(UNKNOWN, 2, games=2),
        lambda: kingdoms.Record(UNKNOWN, 1, []),
    ],
    ids=["new_game", "simulate", "Batch", "tournament", "play_match", "schedule", "Record"],
)
def test_an_unknown_game_name_is_an_argument_error_listing_the_games(f: Any) -> None:
    """Issue 11: wherever a game is named, an unknown name is an `ArgumentError` quoting the
    name (clipped) and listing the games."""
    with pytest.raises(kingdoms.ArgumentError, match=f'game "chesschess.*{GAME_LIST}') as e:
        f()
    assert len(str(e.value)) < 200


@pytest.mark.parametrize(
    "f",
    [
        lambda: kingdoms.from_dict({"game": UNKNOWN, "seed": 1}),
        lambda: kingdoms.from_json('{"game": "' + UNKNOWN + '"}'),
        lambda: kingdoms.replay({"game": UNKNOWN, "seed": 1, "actions": []}),
        lambda: kingdoms.Record.from_dict({"game": UNKNOWN, "seed": 1, "actions": []}),
        lambda: kingdoms.read_records(f'[Game "{UNKNOWN}"]\n[Seed "1"]\n\n*\n'),
    ],
    ids=["from_dict", "from_json", "replay", "Record.from_dict", "read_records"],
)
def test_a_saved_game_of_an_unknown_game_is_a_state_error_listing_the_games(f: Any) -> None:
    with pytest.raises(kingdoms.StateError, match=f'game: "chesschess.*{GAME_LIST}') as e:
        f()
    assert len(str(e.value)) < 250


@pytest.mark.slow
def test_fuzz_arguments_long() -> None:
    CALLS[SURFACE] = 0
    start = time.perf_counter()
    long_run(2000)(given(**settings_args)(run_one))()
    print(report(SURFACE, time.perf_counter() - start))


@pytest.mark.parametrize(
    "agent",
    [agents.ISMCTS(iterations=2**24), agents.ISMCTS(time_limit=1e6), agents.Greedy(samples=65536)],
    ids=["ismcts-iterations", "ismcts-time", "greedy"],
)
def test_a_long_act_stops_at_ctrl_c(agent: Any) -> None:
    """The largest budgets are allowed, and Ctrl-C ends them at once (issue 11)."""
    import os
    import signal
    import threading

    g = kingdoms.new_game("strifull", seed=5)
    before = g.to_json()
    # Python's own Ctrl-C handler: a process started in the background by a shell ignores
    # SIGINT, and the kill below would then never stop the act.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            agent.act(g)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.perf_counter() - start < 20
    assert g.to_json() == before
