"""Agent, batch and tournament speed, for every game.

As pytest-benchmark benches (never run as tests)::

    python -m pytest benches/bench_agents.py --benchmark-only

or as a figures table (what docs/agents.md quotes)::

    python benches/bench_agents.py [--seconds 2] [--json]

Figures: ISMCTS iterations/s on one core over positions spread through a game (full random
rollouts, and leaf evaluation), greedy moves/s, batch steps/s (one step = one move in each
of the batch's games, random legal actions chosen in numpy), and tournament games/s on one
and on two threads (random against greedy), with their ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

import kingdoms
import numpy as np
import pytest
from kingdoms.agents import ISMCTS, Greedy, Random
from kingdoms.batch import Batch

GAMES = kingdoms.games()


def positions(name: str, count: int = 8, seed: int = 5) -> list[kingdoms.Game]:
    """`count` running positions spread over one random game."""
    rng = random.Random(seed)
    g = kingdoms.new_game(name, seed=seed)
    states = []
    while not g.is_terminal:
        if len(g.legal_actions()) > 1:
            states.append(g.clone())
        g.apply(rng.choice(g.legal_actions()))
    step = max(1, len(states) // count)
    return states[::step][:count]


def ismcts_iterations_per_second(name: str, rollout_depth: int | None, seconds: float) -> float:
    states = positions(name)
    iterations = 0
    spent = 0.0
    agent = ISMCTS(iterations=500, rollout_depth=rollout_depth, seed=1)
    while spent < seconds:
        for s in states:
            r = agent.analyze(s)
            iterations += r.iterations
            spent += r.seconds
    return iterations / spent


def greedy_moves_per_second(name: str, seconds: float) -> float:
    states = positions(name)
    agent = Greedy()
    moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for s in states:
            agent.act(s)
            moves += 1
    return moves / (time.perf_counter() - start)


def random_ids(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


def batch_steps_per_second(name: str, num_games: int, seconds: float,
                           threads: int | None = None) -> float:
    """Game-steps per second of `Batch.step` (`num_games` moves per call, observations and
    masks out): only the call is timed, not the choice of the random legal ids."""
    env = Batch(name, num_games, seed=1, threads=threads)
    _, mask, _ = env.reset()
    rng = np.random.default_rng(0)
    calls = 0
    spent = 0.0
    while spent < seconds:
        actions = random_ids(mask, rng)
        start = time.perf_counter()
        mask = env.step(actions).mask
        spent += time.perf_counter() - start
        calls += 1
    return calls * num_games / spent


def tournament_games_per_second(name: str, threads: int, seconds: float) -> float:
    games = 64
    while True:
        r = kingdoms.tournament(name, [Random(), Greedy()], games=games, seed=3,
                                threads=threads, bootstrap=0)
        if r.seconds >= seconds or games >= 1 << 20:
            return r.games_per_second
        games *= 2


def figures(name: str, seconds: float) -> dict[str, float]:
    out = {
        "ISMCTS iterations/s (1 core, rollouts to the end)":
            ismcts_iterations_per_second(name, None, seconds),
        "ISMCTS iterations/s (1 core, leaf evaluation)":
            ismcts_iterations_per_second(name, 0, seconds),
        "greedy moves/s (1 core)": greedy_moves_per_second(name, seconds),
        "batch steps/s (1024 games, 1 thread)": batch_steps_per_second(name, 1024, seconds, 1),
        "batch steps/s (1024 games, all cores)": batch_steps_per_second(name, 1024, seconds),
    }
    one = tournament_games_per_second(name, 1, seconds)
    two = tournament_games_per_second(name, 2, seconds)
    out["tournament games/s (random vs greedy, 1 thread)"] = one
    out["tournament games/s (random vs greedy, 2 threads)"] = two
    out["tournament speed-up, 2 threads / 1"] = two / one
    return out


# ---- pytest-benchmark ------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_bench_ismcts_1000_iterations(benchmark: Any, name: str) -> None:
    state = positions(name, count=3)[1]
    agent = ISMCTS(iterations=1000, seed=1)
    benchmark(agent.act, state)


@pytest.mark.parametrize("name", GAMES)
def test_bench_batch_step_1024(benchmark: Any, name: str) -> None:
    env = Batch(name, 1024, seed=1)
    _, mask, _ = env.reset()
    rng = np.random.default_rng(0)
    holder = {"mask": mask}

    def step() -> None:
        holder["mask"] = env.step(random_ids(holder["mask"], rng)).mask

    benchmark(step)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", GAMES)
def test_bench_tournament_threads(benchmark: Any, name: str, threads: int) -> None:
    run: Callable[[], Any] = lambda: kingdoms.tournament(
        name, [Random(), Greedy()], games=64, seed=3, threads=threads, bootstrap=0)
    benchmark.pedantic(run, rounds=3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("games", nargs="*", default=GAMES)
    args = parser.parse_args()
    results = {name: figures(name, args.seconds) for name in args.games}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for name, figs in results.items():
        print(name)
        for k, v in figs.items():
            print(f"  {k:<52} {v:>12,.2f}" if v < 100 else f"  {k:<52} {v:>12,.0f}")


if __name__ == "__main__":
    main()
