"""STRIFULL through Python: a random game driven step by step from Python, batch simulation,
and the per-state calls agents use. Run with ``pytest benches/bench_strifull.py
--benchmark-enable`` (benches are not part of the test run)."""

from __future__ import annotations

import random

import kingdoms
from kingdoms.strifull import Strifull
from pytest_benchmark.fixture import BenchmarkFixture


def _random_game_steps(seed: int) -> int:
    g = Strifull(seed=seed)
    rnd = random.Random(seed)
    steps = 0
    while not g.is_terminal:
        ids = g.legal_action_ids()
        g.apply_id(int(ids[rnd.randrange(len(ids))]))
        steps += 1
    return steps


def test_python_loop_legal_action_ids_apply_id(benchmark: BenchmarkFixture) -> None:
    """One random game (about 72 decisions) driven from Python."""
    seeds = iter(range(10**9))
    steps = benchmark(lambda: _random_game_steps(next(seeds)))
    assert steps > 0


def test_simulate_one_thread(benchmark: BenchmarkFixture) -> None:
    """1000 random games in Rust on one thread."""
    stats = benchmark(lambda: kingdoms.simulate("strifull", 1000, 1, threads=1))
    assert stats.games == 1000


def _midgame() -> Strifull:
    g = Strifull(seed=3)
    rnd = random.Random(3)
    for _ in range(30):
        g.apply(rnd.choice(g.legal_actions()))
    return g


def test_observation_and_view(benchmark: BenchmarkFixture) -> None:
    g = _midgame()
    benchmark(lambda: (g.observation_tensor(0), g.view(0)))


def test_resample_hidden(benchmark: BenchmarkFixture) -> None:
    g = _midgame()
    seeds = iter(range(10**9))
    benchmark(lambda: g.resample_hidden(0, next(seeds)))
