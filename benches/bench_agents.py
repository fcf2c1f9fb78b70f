"""Agent, batch and tournament speed, for every game.

As pytest-benchmark benches (never run as tests)::

    python -m pytest benches/bench_agents.py --benchmark-only

or as a figures table (what docs/agents.md quotes)::

    python benches/bench_agents.py [--seconds 2] [--json]

Figures (computed by `kingdoms._bench`, which `kingdoms bench` reports too): ISMCTS
iterations/s on one thread over positions spread through a game (leaf evaluation, the
default, and random rollouts to the end), greedy moves/s, batch steps/s (one step = one move
in each of the batch's games; random legal ids chosen in numpy, untimed; into fresh arrays
every call, and into `out=` buffers made once), and tournament
games/s on one and on two threads (greedy against random), with their ratio.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

import kingdoms
import numpy as np
import pytest
from kingdoms._bench import agent_figures, positions, random_ids
from kingdoms.agents import ISMCTS, Greedy, Random
from kingdoms.batch import Batch

GAMES = kingdoms.games()


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
        name, [Random(), Greedy()], games=64, seed=3, threads=threads, bootstrap=0
    )
    benchmark.pedantic(run, rounds=3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("games", nargs="*", default=GAMES)
    args = parser.parse_args()
    results = {name: agent_figures(name, args.seconds) for name in args.games}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for name, figs in results.items():
        print(name)
        for k, v in figs.items():
            print(f"  {k:<52} {v:>12,.2f}" if v < 100 else f"  {k:<52} {v:>12,.0f}")


if __name__ == "__main__":
    main()
