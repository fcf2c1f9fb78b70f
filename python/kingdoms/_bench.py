"""Speed figures shared by `kingdoms bench` and `benches/`: engine loops and agents.

Every figure grows its batch until it has run for `seconds`, so a figure is a rate over at
least that long. They are wall-clock rates: run them on a quiet machine. Every function takes
the game's rules options, so each mode of a game (its module's `BENCH_MODES`: Zinordia's
free-for-all of three and four seats and its 2 v 2) is measured like a duel.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from typing import Any

import numpy as np

import kingdoms
from kingdoms._games import bench_modes, game_module
from kingdoms.agents import ISMCTS, Greedy, Random, RustAgent
from kingdoms.batch import Batch, random_legal_ids


def modes(name: str) -> dict[str, dict[str, Any]]:
    """The modes of game `name` to measure: label -> rules options (its module's
    `BENCH_MODES`, the default first)."""
    return bench_modes(name)


def lineup(
    name: str, first: RustAgent, rest: list[RustAgent], options: dict[str, Any]
) -> list[RustAgent]:
    """Agents for one game of `name`: `first` for seat 0 and, in a team game, its partners;
    the next of `rest` (cycled) for every other seat. With `partners="fixed"` the first
    team is `first`'s."""
    g = kingdoms.new_game(name, seed=0, **options)
    seats = g.num_players
    partners = [p for p in range(seats) if g.team(p) == g.team(0)]
    out = [first] * len(partners)
    out += [rest[i % len(rest)] for i in range(seats - len(partners))]
    return out


def positions(
    name: str, count: int = 8, seed: int = 5, options: dict[str, Any] | None = None
) -> list[kingdoms.Game]:
    """`count` running positions with a choice to make, spread over one random game."""
    rng = random.Random(seed)
    g = kingdoms.new_game(name, seed=seed, **(options or {}))
    states = []
    while not g.is_terminal:
        if len(g.legal_actions()) > 1:
            states.append(g.clone())
        g.apply(rng.choice(g.legal_actions()))
    step = max(1, len(states) // count)
    return states[::step][:count]


def ismcts_iterations_per_second(
    name: str,
    seconds: float,
    rollout_depth: int | None = 0,
    options: dict[str, Any] | None = None,
) -> float:
    """One thread: 500-iteration searches from positions spread over a game (`rollout_depth`
    0: the default leaf evaluation; None: random rollouts to the end)."""
    states = positions(name, options=options)
    agent = ISMCTS(iterations=500, seed=1, rollout_depth=rollout_depth)
    iterations, spent = 0, 0.0
    while iterations == 0 or spent < seconds:  # at least one round, even for seconds=0
        for s in states:
            r = agent.analyze(s)
            iterations += r.iterations
            spent += r.seconds
    return iterations / spent


def greedy_moves_per_second(
    name: str, seconds: float, options: dict[str, Any] | None = None
) -> float:
    states = positions(name, options=options)
    agent = Greedy()
    moves = 0
    start = time.perf_counter()
    while moves == 0 or time.perf_counter() - start < seconds:
        for s in states:
            agent.act(s)
            moves += 1
    return moves / (time.perf_counter() - start)


def random_ids(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id per row of an action mask."""
    ids: np.ndarray = np.argmax(rng.random(mask.shape) * mask, axis=1)
    return ids


def batch_steps_per_second(
    name: str,
    num_games: int,
    seconds: float,
    threads: int | None = None,
    out: bool = False,
    options: dict[str, Any] | None = None,
    compact: bool = False,
) -> float:
    """Game-steps per second of `Batch.step` alone: `num_games` moves per call, random legal
    ids chosen in numpy between calls (not timed). `out`: write into one set of arrays made
    once by `Batch.buffers` (`step(ids, out=...)`) instead of fresh arrays every call.
    `compact`: the smallest arrays the game offers, packed masks (`mask="bits"`, ids drawn
    by `random_legal_ids`) and uint8 observations where it has them (Battle Line)."""
    arrays: dict[str, Any] = {}
    if compact:
        arrays["mask"] = "bits"
        if Batch(name, 1, **(options or {})).obs_divisors is not None:
            arrays["obs_dtype"] = "uint8"
    env = Batch(name, num_games, seed=1, threads=threads, **arrays, **(options or {}))
    _, mask, _ = env.reset()
    buffers = env.buffers() if out else None
    choose = random_legal_ids if compact else random_ids
    rng = np.random.default_rng(0)
    calls, spent = 0, 0.0
    while calls == 0 or spent < seconds:
        ids = choose(mask, rng)
        start = time.perf_counter()
        # with `out`, `mask` is the buffer itself: read (by the chooser) before the next step
        mask = env.step(ids, out=buffers).mask
        spent += time.perf_counter() - start
        calls += 1
    return calls * num_games / spent


def tournament_scaling(
    name: str,
    seconds: float,
    agents: list[RustAgent] | None = None,
    rounds: int = 3,
    options: dict[str, Any] | None = None,
) -> dict[str, float]:
    """Tournament games/s on one thread and on two (greedy against random by default: in a
    game of more seats, against a random agent in every other seat; in a team game, a team
    of greedy players against random ones). `agents` has one agent per seat; partners are
    fixed (`lineup`).

    The games are doubled until one thread takes `seconds`; then one and two threads play
    that same tournament back to back, `rounds` times. The speed-up is the median of the
    back-to-back ratios (neighbours in time share the machine's momentary speed, which on a
    shared virtual machine wanders by ±20%), and "cores busy" is the process CPU time of a
    two-thread run over its wall time: 2.0 means no thread ever waited."""
    opts = options or {}
    players = agents if agents is not None else lineup(name, Greedy(), [Random()], opts)

    def run(games: int, threads: int) -> tuple[float, float]:
        cpu = time.process_time()
        r = kingdoms.tournament(
            name,
            players,
            games=games,
            seed=3,
            threads=threads,
            bootstrap=0,
            partners="fixed",
            **opts,
        )
        return r.seconds, time.process_time() - cpu

    games = 2 * len(players)  # a multiple of the seats, as the seat rotation needs
    while run(games, 1)[0] < seconds and games < 1 << 20:
        games *= 2
    ones, twos, ratios, busy = [], [], [], []
    for _ in range(rounds):
        one, _ = run(games, 1)
        two, cpu = run(games, 2)
        ones.append(games / one)
        twos.append(games / two)
        ratios.append(one / two)
        busy.append(cpu / two)
    return {
        "games/s, 1 thread": statistics.median(ones),
        "games/s, 2 threads": statistics.median(twos),
        "speed-up, 2 threads / 1": statistics.median(ratios),
        "cores busy, 2 threads": statistics.median(busy),
    }


def agent_figures(
    name: str, seconds: float, options: dict[str, Any] | None = None
) -> dict[str, float]:
    """Search, batch and tournament figures for one game (and mode: its rules options)."""
    opts = options or {}
    out = {
        "ISMCTS iterations/s (1 thread)": ismcts_iterations_per_second(name, seconds, options=opts),
        "ISMCTS iterations/s (1 thread, rollouts to the end)": ismcts_iterations_per_second(
            name, seconds, rollout_depth=None, options=opts
        ),
        "greedy moves/s (1 thread)": greedy_moves_per_second(name, seconds, opts),
        "batch steps/s (1024 games, 1 thread, fresh arrays)": batch_steps_per_second(
            name, 1024, seconds, 1, options=opts
        ),
        "batch steps/s (1024 games, 1 thread, out= buffers)": batch_steps_per_second(
            name, 1024, seconds, 1, out=True, options=opts
        ),
        "batch steps/s (1024 games, all cores, fresh arrays)": batch_steps_per_second(
            name, 1024, seconds, options=opts
        ),
        "batch steps/s (1024 games, all cores, out= buffers)": batch_steps_per_second(
            name, 1024, seconds, out=True, options=opts
        ),
        "batch steps/s (1024 games, 1 thread, out= buffers, compact)": batch_steps_per_second(
            name, 1024, seconds, 1, out=True, options=opts, compact=True
        ),
        "batch steps/s (1024 games, all cores, out= buffers, compact)": batch_steps_per_second(
            name, 1024, seconds, out=True, options=opts, compact=True
        ),
    }
    for key, value in tournament_scaling(name, seconds, options=opts).items():
        out[f"tournament (greedy vs random) {key}"] = value
    search = lineup(name, ISMCTS(iterations=100), [Greedy()], opts)
    for key, value in tournament_scaling(name, seconds, search, options=opts).items():
        out[f"tournament (ismcts:100 vs greedy) {key}"] = value
    return out


def python_loop_steps_per_second(game: str, options: dict[str, Any], seconds: float) -> float:
    """Steps/s of a plain Python loop: legal_action_ids + apply_id, resetting at game end."""
    rng = random.Random(0)
    g = kingdoms.new_game(game, seed=0, **options)
    steps = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        for _ in range(200):
            if g.is_terminal:
                g = kingdoms.new_game(game, seed=rng.randrange(2**32), **options)
            ids = g.legal_action_ids()
            g.apply_id(int(ids[rng.randrange(len(ids))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def bench_figures(
    game: str, options: dict[str, Any], seconds: float, agents: bool = True
) -> dict[str, float]:
    """The `kingdoms bench` figures: random games/s on one core and on all, Python-loop
    steps/s, the game's own figures (its module's `bench_extras`, e.g. claim proofs/s) and,
    with `agents`, search, batch and tournament figures, all under the rules `options`."""
    figures: dict[str, float] = {}

    def rate(threads: int | None) -> float:
        n = 256
        while True:  # grow the batch until it runs long enough to time
            s = kingdoms.simulate(game, n, 12345, threads=threads, **options)
            if s.seconds >= seconds or n >= 1 << 24:
                return s.games_per_second
            n *= 2

    figures["random games/s, 1 thread"] = rate(1)
    cores = os.cpu_count() or 1
    figures[f"random games/s, {cores} threads"] = rate(None)
    figures["python-loop steps/s"] = python_loop_steps_per_second(game, options, seconds)
    module = game_module(game)
    extras = getattr(module, "bench_extras", None)
    if callable(extras):
        figures.update(extras(seconds))
    if agents:
        figures.update(agent_figures(game, seconds, options))
    return figures
