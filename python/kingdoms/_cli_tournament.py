"""`kingdoms tournament`: agents against each other on all cores, with a progress bar."""

from __future__ import annotations

import argparse
import json
import math
import secrets
import sys
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

import kingdoms
from kingdoms._cli_agents import AGENT_HELP, AGENTS_ARGUMENT_HELP, agent_name, load_agent
from kingdoms._cli_common import (
    add_option_argument,
    add_ray_argument,
    parse_options,
    progress_bar,
)
from kingdoms._text import terminal

__all__ = ["AGENT_HELP", "add_ray_argument", "add_tournament_parser", "progress_bar"]


def add_tournament_parser(sub: Any) -> None:
    """Register the `tournament` subcommand on the CLI's subparsers."""
    p = sub.add_parser(
        "tournament",
        help="play agents against each other (seats swapped fairly) and rate them",
        description="Round robin (or gauntlet) between agents, seats swapped fairly and each "
        "deal replayed in every seat order, on all cores; prints standings with Elo "
        "ratings and 95% intervals. " + AGENT_HELP,
    )
    p.add_argument("game", choices=kingdoms.games(), help="the game")
    p.add_argument("--agents", nargs="+", required=True, metavar="AGENT", help=AGENTS_ARGUMENT_HELP)
    p.add_argument(
        "--games",
        type=int,
        default=100,
        help="games per pairing, a multiple of the number of players (default 100)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the deals and the agents (default: a fresh one from the OS, printed with "
        "the results; play between untrusted bots needs an unguessable seed)",
    )
    p.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    p.add_argument(
        "--pairing",
        choices=["round-robin", "gauntlet"],
        default="round-robin",
        help="round-robin (default): every pair of agents; gauntlet: the first agent against each "
        "of the others",
    )
    p.add_argument(
        "--partners",
        choices=["rotate", "fixed"],
        default="rotate",
        help="team games: rotate (default) = every split of a group into teams in turn (games a "
        "multiple of seats x splits); fixed = consecutive agents are partners",
    )
    p.add_argument(
        "--bootstrap",
        type=int,
        default=1000,
        help="bootstrap samples for the Elo intervals (default 1000; 0: none)",
    )
    p.add_argument(
        "--position",
        metavar="TEXT",
        default=None,
        help="start every game from this position string (as Game.position() writes it; a "
        "player's view has its hidden cards dealt afresh for each game) instead of a new deal "
        "(default: a new deal)",
    )
    add_option_argument(p)
    p.add_argument(
        "--records",
        metavar="FILE",
        help="write every game's record to FILE: record text with the agents' names if FILE "
        "ends in .txt, else one JSON object a line (default: none)",
    )
    p.add_argument(
        "--json", action="store_true", help="print the results as JSON instead of tables"
    )
    add_ray_argument(p)

    def run(args: argparse.Namespace) -> int:
        return cmd_tournament(args, parse_options(args.option))

    p.set_defaults(func=run)


def _elo(x: float) -> str:
    return "—" if math.isnan(x) else f"{x:+.0f}"


def _name(name: str) -> Text:
    """An agent's name for a table cell: plain text (rich markup in it is not read) with no
    control characters (a name can come from a bot's command line or a Python object)."""
    return Text(terminal(name))


def results_table(r: kingdoms.TournamentResult) -> Table:
    """The standings, ranked by Elo rating (best first); `#` is the agent's number in the
    pairings table and in results."""
    title = f"{r.game}: {r.games:,} games, {r.games_per_pairing:,} per pairing, seed {r.seed}"
    # No vertical rules and wins-draws-losses in one column, so that agent names and the
    # intervals fit an 80-column terminal; a name too long for it wraps, never is cut.
    t = Table(title=title, box=box.SIMPLE_HEAD)
    for col, just in [
        ("rank", "right"),
        ("#", "right"),
        ("agent", "left"),
        ("games", "right"),
        ("W-D-L", "right"),
        ("score", "right"),
        ("Elo", "right"),
        ("95% interval", "right"),
    ]:
        t.add_column(col, justify=just, overflow="fold", no_wrap=col != "agent")  # type: ignore[arg-type]
    for rank, i in enumerate(r.ranking(), start=1):
        w, e = r.totals[i], r.elo[i]
        t.add_row(
            str(rank),
            str(i),
            _name(r.names[i]),
            f"{w.games:,}",
            f"{w.wins:,}-{w.draws:,}-{w.losses:,}",
            f"{w.score:.1%}",
            _elo(e.elo),
            f"[{_elo(e.lo)}, {_elo(e.hi)}]",
        )
    return t


def pairings_table(r: kingdoms.TournamentResult) -> Table:
    """Row against column: wins-draws-losses and score."""
    t = Table(title="pairings (row against column: wins-draws-losses, score)", box=box.SIMPLE_HEAD)
    t.add_column("agent", no_wrap=True)
    n = len(r.names)
    for j in range(n):
        t.add_column(f"#{j}", justify="right", overflow="fold")
    for i in range(n):
        cells = []
        for j in range(n):
            p = r.pairwise(i, j)
            cells.append(
                "—" if i == j or p.games == 0 else f"{p.wins}-{p.draws}-{p.losses} {p.score:.0%}"
            )
        t.add_row(_name(f"#{i} {r.names[i]}"), *cells)
    return t


def forfeits_lines(r: kingdoms.TournamentResult) -> list[str]:
    """One line per forfeited game: the game, the agent and why."""
    return [
        terminal(
            f"game {g.index}: {r.names[g.seats[g.forfeit]]} (player {g.forfeit}) forfeited: "
            f"{g.forfeit_reason}"
        )
        for g in r.results
        if g.forfeit is not None
    ]


def cmd_tournament(args: argparse.Namespace, options: dict[str, Any]) -> int:
    if args.seed is None:
        args.seed = secrets.randbits(64)
    agents = [load_agent(a) for a in args.agents]
    names = [agent_name(a, spec) for a, spec in zip(agents, args.agents)]
    with progress_bar(args.json) as bar:
        # short, so that the bar keeps its width in an 80-column terminal
        task = bar.add_task(f"{args.game}: {len(names)} agents", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        common: dict[str, Any] = {
            "games": args.games,
            "seed": args.seed,
            "pairing": args.pairing,
            "records": bool(args.records),
            "bootstrap": args.bootstrap,
            "progress": progress,
            "partners": args.partners,
        }
        if args.position is not None:
            common["position"] = args.position
        if args.ray is not None:
            from kingdoms import distributed

            result = distributed.tournament(
                args.game, agents, address=args.ray or None, **common, **options
            )
        else:
            result = kingdoms.tournament(
                args.game, agents, threads=args.threads, **common, **options
            )
    for agent in agents:
        if isinstance(agent, kingdoms.agents.Subprocess):
            agent.close()
    if args.records and args.records.endswith(".txt"):
        from kingdoms.records import write_records

        write_records(result, args.records)  # the agents' names and each game's round
    elif args.records:
        with open(args.records, "w", encoding="utf-8") as f:
            f.writelines(rec.to_json() + "\n" for rec in result.records or [])
    if args.json:
        data = result.to_dict()
        for g in data["results"]:
            g.pop("record", None)
        json.dump(data, sys.stdout)
        print()
        return 0
    out = Console()
    out.print(results_table(result))
    if len(result.names) > 2:
        out.print(pairings_table(result))
    seats = ", ".join(
        f"player {p} won {w / max(result.games, 1):.1%}" for p, w in enumerate(result.seat_wins)
    )
    out.print(
        f"seats: {seats}, drawn {result.draws / max(result.games, 1):.1%}; "
        f"{result.plies / max(result.games, 1):.1f} plies a game; "
        f"{result.seconds:.1f} s, {result.games_per_second:.1f} games/s"
    )
    lines = forfeits_lines(result)
    if lines:
        out.print(Text(f"{len(lines)} forfeits:\n  " + "\n  ".join(lines)))
    return 0
