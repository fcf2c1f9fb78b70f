"""`kingdoms render` (one position as SVG) and `kingdoms view` (a record as an HTML replay
page): pictures from the command line (docs/pictures.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import kingdoms
from kingdoms._cli_common import add_option_argument, parse_options
from kingdoms.records import GameRecord


def add_render_parsers(sub: Any) -> None:
    """Register the `render` and `view` subcommands on the CLI's subparsers."""
    r = sub.add_parser(
        "render",
        help="draw a position as SVG",
        description="Draw the position of a recorded game (or a new deal) as an SVG picture: "
        "everything, or only what --player sees (hidden cards face down).",
    )
    r.add_argument(
        "game",
        nargs="?",
        choices=kingdoms.games(),
        help="the game (default: the record's; needed without --record)",
    )
    r.add_argument(
        "--record",
        metavar="FILE",
        help="a record: JSON, JSON lines or the text form (docs/records.md), told apart by "
        "their content (default: a new deal)",
    )
    _index_argument(r)
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
    v.add_argument(
        "record",
        metavar="FILE",
        help="a record: JSON, JSON lines or the text form (docs/records.md), told apart by "
        "their content",
    )
    _index_argument(v)
    v.add_argument(
        "--player",
        type=int,
        default=None,
        help="show only what this player sees (default: everything)",
    )
    v.add_argument(
        "-o", "--output", metavar="FILE", default="-", help="the HTML file (default: stdout)"
    )
    v.set_defaults(func=cmd_view)


def _index_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--index",
        type=int,
        default=0,
        help="which record of a file holding several, from 0 (a tournament's --records file "
        "holds one a game; default 0)",
    )


def parse_records(text: str) -> list[kingdoms.Record]:
    """The records in `text`, whatever its form: one JSON record (`Record.to_json`), JSON
    lines (one record a line, as `kingdoms tournament --records FILE.jsonl` writes), or the
    text form (`[Game "..."]` headers, docs/records.md). Told apart by the first character."""
    return [g.record for g in parse_game_records(text)]


def parse_game_records(text: str) -> list[GameRecord]:
    """:func:`parse_records`, keeping the text form's headers and comments."""
    body = text.lstrip()
    if body.startswith("["):
        return kingdoms.read_records(body)
    if not body.startswith("{"):
        raise kingdoms.StateError(
            'not a record: expected JSON ({...}) or the text form ([Game "..."] headers)'
        )
    try:
        return [GameRecord(kingdoms.Record.from_json(body))]
    except kingdoms.KingdomsError:
        lines = [line for line in body.splitlines() if line.strip()]
        if len(lines) < 2:
            raise
    out = []
    for n, line in enumerate(lines, 1):
        try:
            out.append(GameRecord(kingdoms.Record.from_json(line)))
        except kingdoms.KingdomsError as e:
            raise kingdoms.StateError(f"line {n}: {e}") from None
    return out


def _read_record(path: str, index: int = 0) -> kingdoms.Record:
    return _read_game_record(path, index).record


def _read_game_record(path: str, index: int = 0) -> GameRecord:
    from kingdoms.records import read_text_file

    # The engine's one reader of user files: a FIFO or /dev/zero is refused, not read.
    text = read_text_file(Path(path), "the record")
    records = parse_game_records(text)
    if not 0 <= index < len(records):
        raise SystemExit(
            f"kingdoms: --index {index} is not in {path!r}: it holds {len(records)} record(s) "
            f"(0 to {len(records) - 1})"
        )
    return records[index]


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        raise SystemExit(f"kingdoms: cannot write {path!r}: {e}") from None


def cmd_render(args: argparse.Namespace) -> int:
    if args.record is None:
        if args.game is None:
            raise SystemExit("kingdoms: render needs GAME (or --record FILE, which names it)")
        game = kingdoms.new_game(args.game, seed=args.seed, **parse_options(args.option))
        if args.ply not in (None, 0):
            raise SystemExit("kingdoms: --ply needs --record")
    else:
        record = _read_record(args.record, args.index)
        if args.game is not None and record.game != args.game:
            raise SystemExit(f"kingdoms: the record is a {record.game} game, not {args.game}")
        n = len(record.actions)
        ply = n if args.ply is None else args.ply
        if not 0 <= ply <= n:
            raise SystemExit(f"kingdoms: --ply must be from 0 to {n} for this record")
        game = kingdoms.replay(
            kingdoms.Record(
                record.game, record.seed, record.actions[:ply], record.options, record.position
            )
        )
    _write(args.output, game.svg(args.player))
    return 0


def cmd_view(args: argparse.Namespace) -> int:
    from kingdoms._svg.replay import replay_html

    about = _read_game_record(args.record, args.index)
    # The one validated path for a record: it refuses file options (`cards_file`), options
    # that are not the game's (`seed`, `name`, `position`) and illegal actions.
    kingdoms.replay(about.record)
    _write(args.output, replay_html(about, args.player))
    return 0
