"""`kingdoms simulate` (uniformly random games in Rust, with a progress bar) and
`kingdoms bench` (the engine's speed on this machine)."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from rich.console import Console
from rich.table import Table

import kingdoms
from kingdoms import _bench
from kingdoms._cli_common import add_option_argument, parse_options, progress_bar

__all__ = ["add_bench_parser", "add_simulate_parser", "simulate_with_progress"]


def add_simulate_parser(sub: Any) -> None:
    """Register the `simulate` subcommand on the CLI's subparsers."""
    sim = sub.add_parser("simulate", help="play uniformly random games in Rust on all cores")
    sim.add_argument("game", choices=kingdoms.games(), help="the game to play")
    sim.add_argument(
        "--games", type=int, default=10_000, help="how many games to play (default 10000)"
    )
    sim.add_argument("--seed", type=int, default=0, help="seed of the batch of games (default 0)")
    sim.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    add_option_argument(sim)
    sim.add_argument(
        "--json", action="store_true", help="print the totals as JSON instead of a table"
    )
    sim.set_defaults(func=cmd_simulate)


def add_bench_parser(sub: Any) -> None:
    """Register the `bench` subcommand on the CLI's subparsers."""
    bench = sub.add_parser(
        "bench",
        help="measure the engine's speed on this machine, in every mode of the game (Zinordia: "
        "duel, free-for-all of 3 and 4, 2 v 2) unless --option picks one",
    )
    bench.add_argument(
        "game", choices=[*kingdoms.games(), "all"], help="the game to measure, or all of them"
    )
    bench.add_argument(
        "--seconds",
        type=float,
        default=1.0,
        help="the least time each measure runs, in seconds (default 1.0)",
    )
    add_option_argument(bench)
    bench.add_argument(
        "--no-agents",
        action="store_true",
        help="skip the search, batch and tournament figures (default: measure them)",
    )
    bench.add_argument(
        "--json", action="store_true", help="print the figures as JSON instead of tables"
    )
    bench.set_defaults(func=cmd_bench)


def simulate_with_progress(
    game: str,
    games: int,
    seed: int,
    threads: int | None,
    options: dict[str, Any],
    console: Console,
    chunks: int = 40,
) -> kingdoms.SimulationStats | dict[str, Any]:
    """Run `kingdoms.simulate` in chunks to show progress; totals are the same as one call."""
    if games < 2000 or not console.is_terminal:
        return kingdoms.simulate(game, games, seed, threads=threads, **options)
    size = -(-games // chunks)
    wins: list[int] = []
    draws = plies = 0
    start = time.perf_counter()
    with progress_bar(False, "games", console) as progress:
        task = progress.add_task(f"{game}: random games", total=games)
        for first in range(0, games, size):
            n = min(size, games - first)
            s = kingdoms.simulate(game, n, seed, threads=threads, first=first, **options)
            wins = [a + b for a, b in zip(wins, s.wins)] if wins else list(s.wins)
            draws += s.draws
            plies += s.plies
            progress.advance(task, n)
    seconds = time.perf_counter() - start
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "plies": plies,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds else float("inf"),
    }


def _as_dict(stats: kingdoms.SimulationStats | dict[str, Any]) -> dict[str, Any]:
    if isinstance(stats, dict):
        return stats
    return {
        k: getattr(stats, k)
        for k in ("games", "wins", "draws", "plies", "seconds", "games_per_second")
    }


def cmd_simulate(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    stats = _as_dict(
        simulate_with_progress(
            args.game, args.games, args.seed, args.threads, parse_options(args.option), console
        )
    )
    if args.json:
        print(json.dumps(stats))
        return 0
    title = f"{args.game}: {stats['games']:,} uniformly random games, seed {args.seed}"
    # as wide as its title, so that the title never wraps
    table = Table(title=title, min_width=len(title))
    table.add_column("result")
    table.add_column("games", justify="right")
    table.add_column("share", justify="right")
    for p, w in enumerate(stats["wins"]):
        table.add_row(f"player {p} wins", f"{w:,}", f"{w / stats['games']:.1%}")
    table.add_row("draws", f"{stats['draws']:,}", f"{stats['draws'] / stats['games']:.1%}")
    Console().print(table)
    print(
        f"{stats['plies'] / stats['games']:.1f} plies per game; "
        f"{stats['games_per_second']:,.0f} games/s ({stats['seconds']:.2f} s)"
    )
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    console = Console()
    names = kingdoms.games() if args.game == "all" else [args.game]
    options = parse_options(args.option)
    # Without rules options every mode of the game is measured: the default one under the
    # game's name, the others under "game (mode)".
    runs: list[tuple[str, str, dict[str, Any]]] = []  # (table name, game, rules options)
    for name in names:
        if options:
            runs.append((name, name, options))
            continue
        for i, (label, mode) in enumerate(_bench.modes(name).items()):
            runs.append((name if i == 0 else f"{name} ({label})", name, mode))
    results: dict[str, dict[str, float]] = {}
    with console.status("benchmarking…"):
        for key, name, opts in runs:
            results[key] = _bench.bench_figures(name, opts, args.seconds, agents=not args.no_agents)
    if args.json:
        print(json.dumps(results))
        return 0
    for name, figures in results.items():
        table = Table(title=f"kingdoms bench {name}")
        table.add_column("measure")
        table.add_column("value", justify="right")
        for key, value in figures.items():
            table.add_row(key, f"{value:,.2f}" if value < 100 else f"{value:,.0f}")
        console.print(table)
    return 0
