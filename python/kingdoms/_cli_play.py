"""`kingdoms play`: a person against an agent, in the terminal."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from rich.console import Console

import kingdoms
from kingdoms._cli_tournament import AGENT_HELP
from kingdoms.agents import parse


def add_play_parser(sub: Any) -> None:
    """Register the `play` subcommand on the CLI's subparsers."""
    from kingdoms.cli import add_option_argument, parse_options  # shared --option handling

    p = sub.add_parser(
        "play",
        help="play a game against an agent in the terminal",
        description="You play one seat, an agent the other(s). Each turn shows what your "
        "seat may see and the legal moves; answer with a move's number or its notation, "
        "'?' to list the moves again, or 'quit'. " + AGENT_HELP,
    )
    p.add_argument("game", choices=kingdoms.games())
    p.add_argument(
        "--ai", default="ismcts:2000", metavar="AGENT", help="the opponent (default ismcts:2000)"
    )
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--seed", type=int, default=None, help="deal (default: a fresh one)")
    add_option_argument(p)
    p.add_argument("--record", metavar="FILE", help="write the game's record (JSON) to FILE")
    p.set_defaults(func=lambda args: cmd_play(args, parse_options(args.option)))


def _show_moves(console: Console, actions: list[kingdoms.Action]) -> None:
    width = len(str(len(actions)))
    console.print("  ".join(f"[bold]{i + 1:>{width}}[/] {a}" for i, a in enumerate(actions)))


def _read_move(
    console: Console, stdin: TextIO, actions: list[kingdoms.Action], game: kingdoms.Game
) -> kingdoms.Action | None:
    """The person's move, or None to quit (end of input too)."""
    while True:
        console.print("your move> ", end="")
        line = stdin.readline()
        if not line:
            return None
        text = line.strip()
        if text in ("quit", "q", "exit"):
            return None
        if text in ("?", "help", ""):
            _show_moves(console, actions)
            continue
        if text.isdigit() and 1 <= int(text) <= len(actions):
            return actions[int(text) - 1]
        try:
            action = game.parse_action(text)
        except ValueError as e:
            console.print(f"[red]{e}[/]")
            continue
        if action in actions:
            return action
        console.print(f"[red]{text} is not legal now[/] ('?' lists the moves)")


def cmd_play(args: argparse.Namespace, options: dict[str, Any], stdin: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    console = Console(highlight=False)
    game = kingdoms.new_game(args.game, seed=args.seed, **options)
    if not 0 <= args.seat < game.num_players:
        console.print(f"[red]--seat must be 0..{game.num_players - 1}[/]")
        return 2
    ai = parse(args.ai)
    console.print(f"{args.game}, seed {game.seed}: you are player {args.seat}, against {args.ai}")
    while not game.is_terminal:
        player = game.current_player
        if player == args.seat:
            console.print()
            console.print(game.render(args.seat), markup=False)
            actions = game.legal_actions()
            _show_moves(console, actions)
            move = _read_move(console, stdin, actions, game)
            if move is None:
                console.print("stopped.")
                break
            game.apply(move)
        else:
            move = ai.act(game)
            console.print(f"player {player} ({args.ai}) plays [bold]{move}[/]")
            game.apply(move)
    if game.is_terminal:
        console.print()
        console.print(game.render(args.seat), markup=False)
        w = game.winner
        verdict = "a draw" if w is None else ("you win" if w == args.seat else f"player {w} wins")
        console.print(f"[bold]Game over: {verdict}.[/]")
    if args.record:
        with open(args.record, "w", encoding="utf-8") as f:
            f.write(game.record().to_json(indent=2))
    return 0
