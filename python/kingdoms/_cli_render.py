"""`kingdoms render` (one position as SVG) and `kingdoms view` (a record as an HTML replay
page): pictures from the command line (docs/pictures.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import kingdoms


def add_render_parsers(sub: Any) -> None:
    """Register the `render` and `view` subcommands on the CLI's subparsers."""
    from kingdoms.cli import add_option_argument  # shared --option handling

    r = sub.add_parser(
        "render",
        help="draw a position as SVG",
        description="Draw the position of a recorded game (or a new deal) as an SVG picture: "
        "everything, or only what --player sees (hidden cards face down).",
    )
    r.add_argument("game", choices=kingdoms.games(), help="the game")
    r.add_argument(
        "--record",
        metavar="FILE",
        help="a record (JSON, as `kingdoms play --record`; default: a new deal)",
    )
    r.add_argument("--ply", type=int, default=None, help="position after N actions (default: last)")
    r.add_argument(
        "--player", type=int, default=None, help="draw what this player sees (default: everything)"
    )
    r.add_argument("--seed", type=int, default=0, help="without --record: the deal (default 0)")
    add_option_argument(r)
    r.add_argument("-o", "--output", metavar="FILE", default="-", help="SVG file (default: stdout)")
    r.set_defaults(func=cmd_render)

    v = sub.add_parser(
        "view",
        help="write a record as a self-contained HTML replay page",
        description="Write an HTML page that steps through a recorded game (first, previous, "
        "next, last, a move list) with the position at every ply; it needs no network.",
    )
    v.add_argument("record", metavar="FILE", help="a record (JSON)")
    v.add_argument(
        "--player",
        type=int,
        default=None,
        help="show only what this player sees (default: everything)",
    )
    v.add_argument("-o", "--output", metavar="FILE", required=True, help="the HTML file")
    v.set_defaults(func=cmd_view)


def _read_record(path: str) -> kingdoms.Record:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise SystemExit(f"kingdoms: cannot read the record {path!r}: {e}") from None
    return kingdoms.Record.from_json(text)


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        raise SystemExit(f"kingdoms: cannot write {path!r}: {e}") from None


def cmd_render(args: argparse.Namespace) -> int:
    from kingdoms.cli import parse_options

    if args.record is None:
        game = kingdoms.new_game(args.game, seed=args.seed, **parse_options(args.option))
        if args.ply not in (None, 0):
            raise SystemExit("kingdoms: --ply needs --record")
    else:
        record = _read_record(args.record)
        if record.game != args.game:
            raise SystemExit(f"kingdoms: the record is a {record.game} game, not {args.game}")
        n = len(record.actions)
        ply = n if args.ply is None else args.ply
        if not 0 <= ply <= n:
            raise SystemExit(f"kingdoms: --ply must be from 0 to {n} for this record")
        game = kingdoms.replay(
            kingdoms.Record(record.game, record.seed, record.actions[:ply], record.options)
        )
    _write(args.output, game.svg(args.player))
    return 0


def cmd_view(args: argparse.Namespace) -> int:
    from kingdoms._svg.replay import replay_html

    record = _read_record(args.record)
    _write(args.output, replay_html(record, args.player))
    return 0
