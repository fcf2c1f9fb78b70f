"""`kingdoms selfplay`: self-play training data as sharded NPZ/Parquet files, locally or on
Ray, with a progress bar."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import kingdoms
from kingdoms import selfplay
from kingdoms._cli_agents import AGENT_HELP, AGENTS_ARGUMENT_HELP, load_agent
from kingdoms._cli_common import add_option_argument, add_ray_argument, parse_options, progress_bar


def add_selfplay_parser(sub: Any) -> None:
    """Register the `selfplay` subcommand on the CLI's subparsers."""
    p = sub.add_parser(
        "selfplay",
        help="write self-play training data (observations, masks, actions, returns, visits)",
        description="Play GAMES self-play games and write every decision to sharded files "
        "with a manifest.json in OUT; run again on OUT to resume an interrupted run. One "
        "agent plays every seat; one agent per player rotates seats. " + AGENT_HELP,
    )
    p.add_argument("game", choices=kingdoms.games(), help="the game")
    p.add_argument("--agents", nargs="+", required=True, metavar="AGENT", help=AGENTS_ARGUMENT_HELP)
    p.add_argument("--games", type=int, required=True, help="how many games to play")
    p.add_argument("--out", required=True, metavar="DIR", help="the folder the shards go to")
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the games (default: a fresh one from the OS, kept in the manifest)",
    )
    p.add_argument("--shard-games", type=int, default=1000, help="games a shard (default 1000)")
    p.add_argument(
        "--format",
        choices=selfplay.FORMATS,
        default="npz",
        help="the shards' file format: npz (the default, numpy's; every install writes it) or "
        "parquet (needs pyarrow: pip install 'kingdoms[ray]')",
    )
    p.add_argument(
        "--threads", type=int, default=None, help="threads (default: all cores; local runs)"
    )
    p.add_argument(
        "--seats",
        action="store_true",
        help="add the seats column: every seat's observation of the true state at each "
        "decision, the training data of a network with --input seats (local runs)",
    )
    p.add_argument(
        "--json", action="store_true", help="print the manifest as JSON instead of a summary"
    )
    add_option_argument(p)
    add_ray_argument(p)

    def run(args: argparse.Namespace) -> int:
        return cmd_selfplay(args, parse_options(args.option))

    p.set_defaults(func=run)


def cmd_selfplay(args: argparse.Namespace, options: dict[str, Any]) -> int:
    if args.format == "parquet" and not selfplay.has_parquet():
        # checked before any game is played, not after the first shard
        raise SystemExit(
            "kingdoms: --format parquet needs pyarrow: pip install 'kingdoms[ray]' (or "
            "pyarrow), or use --format npz"
        )
    if args.seats and args.ray is not None:
        raise SystemExit("kingdoms: --seats runs locally only (not with --ray)")
    agents = [load_agent(a) for a in args.agents]  # as tournament: cmd: bots too
    with progress_bar(args.json) as bar:
        task = bar.add_task(f"{args.game} self-play", total=args.games)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        common: dict[str, Any] = {
            "seed": selfplay.run_seed(args.out, args.seed),
            "shard_games": args.shard_games,
            "format": args.format,
            "progress": progress,
        }
        if args.ray is not None:
            from kingdoms import distributed

            manifest = distributed.selfplay(
                args.game,
                agents,
                args.games,
                args.out,
                address=args.ray or None,
                **common,
                **options,
            )
        else:
            manifest = selfplay.generate(
                args.game,
                agents,
                args.games,
                args.out,
                threads=args.threads,
                seats=args.seats,
                **common,
                **options,
            )
    if args.json:
        json.dump(manifest, sys.stdout)
        print()
    else:
        shards = len(manifest["shards"])
        print(f"{args.games} games in {shards} shards: {args.out}/{selfplay.MANIFEST}")
        forfeits = [f for s in manifest["shards"] for f in s.get("forfeits", [])]
        if forfeits:
            print(f"{len(forfeits)} forfeited, left out of the data:")
            for f in forfeits:
                print(f"  game {f['game']}: {f['reason']}")
    return 0
