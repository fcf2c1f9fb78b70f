"""What the CLI's subcommands share: `--option KEY=VALUE` rules options, `--ray`, progress
bars. It imports no other module of the package, so every `_cli_*` module may use it."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

__all__ = ["add_option_argument", "add_ray_argument", "parse_options", "progress_bar"]


def _option_value(text: str) -> Any:
    """`k=v` values: JSON if it parses (numbers, true/false, lists), else the plain string."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON, nested too deeply, too many digits
        return text


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """`--option KEY=VALUE`, repeatable: a rules option of the game (read by `parse_options`)."""
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rules option of the game, repeatable, e.g. --option traitor_troops_only=true "
        "(VALUE is read as JSON when it parses, else as text; default: the game's defaults)",
    )


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"kingdoms: --option takes KEY=VALUE, not {pair!r}")
        options[key.replace("-", "_")] = _option_value(value)
    return options


def add_ray_argument(p: argparse.ArgumentParser) -> None:
    """`--ray [ADDRESS]`: run on a Ray cluster (no address: the one this machine runs or a
    new local one)."""
    p.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run as Ray tasks on the cluster at ADDRESS (alone: a local Ray); same results "
        "(default: this machine only; needs pip install 'kingdoms[ray]')",
    )


def progress_bar(quiet: bool, unit: str = "games", console: Console | None = None) -> Progress:
    """A progress bar on stderr whose count names what it counts (`37/100 games`); off when
    `quiet` or when stderr is neither a terminal nor a notebook."""
    err = console or Console(stderr=True)
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=quiet or not (err.is_terminal or err.is_jupyter),
    )
