"""The `kingdoms` command line: simulate, bench, tournament, selfplay, play, render, view,
serve.

Each subcommand lives in its own `_cli_*` module and registers itself through one
`add_*_parser(subparsers)` function; `SUBCOMMANDS` is the table of them, so a new
subcommand is its module and one line here. What the subcommands share is in `_cli_common`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

import kingdoms
from kingdoms._cli_play import add_play_parser
from kingdoms._cli_render import add_render_parsers
from kingdoms._cli_selfplay import add_selfplay_parser
from kingdoms._cli_serve import add_serve_parser
from kingdoms._cli_simulate import add_bench_parser, add_simulate_parser
from kingdoms._cli_tournament import add_tournament_parser
from kingdoms._cli_train import add_train_parser

Command = Callable[[argparse.Namespace], int]

#: The subcommands, in the order `kingdoms --help` lists them: each registers its parser(s)
#: on the subparsers and sets `func`, the command to run.
SUBCOMMANDS: tuple[Callable[[Any], None], ...] = (
    add_simulate_parser,
    add_bench_parser,
    add_tournament_parser,
    add_selfplay_parser,
    add_play_parser,
    add_render_parsers,
    add_serve_parser,
    add_train_parser,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kingdoms",
        description="Battle Line, STRIFULL, Arte da Guerra and Zinordia: rules engines, bots "
        "and pictures. Run 'kingdoms COMMAND --help' for a command's arguments.",
    )
    parser.add_argument("--version", action="version", version=kingdoms.__version__)
    sub = parser.add_subparsers(dest="command", required=True)
    for add in SUBCOMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    func: Command = args.func
    try:
        return func(args)
    except kingdoms.KingdomsError as e:
        print(f"kingdoms: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
