"""`kingdoms play`: people and agents in any mix of seats, at one terminal.

Each person's turn shows what that seat may see, the legal moves grouped by what they share
(Battle Line: by card, one entry per flag), and answers to `hint`, `undo`, `?` and `quit`.
Everything printed during the game is built from what the person at the screen may see: the
other seats' moves as that person's view tells them (a secret move reads as one), no seed
unless the user gave it, and after an undo what they have not seen is drawn afresh.
"""

from __future__ import annotations

import argparse
import random
import re
import secrets
import sys
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from rich.console import Console
from rich.text import Text

import kingdoms
from kingdoms._cli_agents import AGENT_HELP, agent_name, load_agent
from kingdoms._cli_common import add_option_argument, parse_options
from kingdoms._seen import seen_move
from kingdoms._subprocess import Forfeit
from kingdoms._text import terminal
from kingdoms.agents import ISMCTS, AgentLike, RustAgent, parse

HUMAN = "human"

COMMANDS = (
    "Answer with a move's number or its notation; Enter plays the default move when there "
    "is only one; '?' lists the moves again; 'hint' asks the hint agent (its choice and "
    "search statistics); 'undo' takes back your last move and the agents' replies; 'quit' "
    "stops."
)

# Colours by suit, per game: a pattern of card tokens and a style per suit (its first
# letter for Battle Line's troops, the element's name for STRIFULL).
SUITS: dict[str, tuple[re.Pattern[str], dict[str, str]]] = {
    "battleline": (
        re.compile(r"(?<![A-Za-z0-9])[ROYGBP](?:10|[1-9])(?![0-9])"),
        {
            "R": "bold red",
            "O": "bold dark_orange",
            "Y": "bold yellow",
            "G": "bold green",
            "B": "bold blue",
            "P": "bold magenta",
        },
    ),
    "strifull": (  # elements by name, and as the board abbreviates them (Fi5/3, [Wi])
        re.compile(r"\b(?:fire|water|wind|earth)\b|\b(?:Fi|Wa|Wi|Ea)(?=[0-9\]])"),
        {
            **dict.fromkeys(("fire", "Fi"), "bold red"),
            **dict.fromkeys(("water", "Wa"), "bold blue"),
            **dict.fromkeys(("wind", "Wi"), "bold cyan"),
            **dict.fromkeys(("earth", "Ea"), "bold yellow"),
        },
    ),
}


def add_play_parser(sub: Any) -> None:
    """Register the `play` subcommand on the CLI's subparsers."""
    p = sub.add_parser(
        "play",
        help="play a game in the terminal: people and agents in any mix of seats",
        description="People and agents take the seats (--seats human ismcts:2000, or --seat "
        "and --ai for one person against agents). Each turn of a person shows what that seat "
        "may see and the legal moves, grouped. " + COMMANDS + " " + AGENT_HELP,
    )
    p.add_argument("game", choices=kingdoms.games(), help="the game")
    p.add_argument(
        "--seats",
        nargs="+",
        metavar="SEAT",
        default=None,
        help="who plays each seat, in seat order: 'human' or an agent (default: you at --seat, "
        "--ai in every other seat)",
    )
    p.add_argument(
        "--ai",
        default="ismcts:2000",
        metavar="AGENT",
        help="the agent in the seats that are not yours, without --seats (default ismcts:2000)",
    )
    p.add_argument("--seat", type=int, default=0, help="your seat, without --seats (default 0)")
    p.add_argument(
        "--hint-agent",
        default="ismcts:2000",
        metavar="AGENT",
        help="the search agent that answers 'hint' (default ismcts:2000)",
    )
    p.add_argument("--seed", type=int, default=None, help="the deal (default: a fresh one)")
    p.add_argument(
        "--position",
        metavar="TEXT",
        default=None,
        help="start from this position string (as Game.position() writes it; a player's view "
        "has its hidden cards drawn from --seed) instead of a new deal (default: a new deal)",
    )
    add_option_argument(p)
    p.add_argument(
        "--record",
        metavar="FILE",
        help="write the game's record to FILE at the end: record text with the players' "
        "names if FILE ends in .txt, else JSON (default: none)",
    )
    p.add_argument(
        "--color",
        choices=["auto", "always", "never"],
        default="auto",
        help="colour cards by suit: auto (default) colours a terminal unless NO_COLOR is set",
    )
    p.set_defaults(func=lambda args: cmd_play(args, parse_options(args.option)))


def make_console(color: str) -> Console:
    """The output console: `auto` follows the terminal and NO_COLOR (rich reads both)."""
    if color == "always":
        return Console(highlight=False, force_terminal=True, color_system="standard")
    if color == "never":
        return Console(highlight=False, color_system=None)
    return Console(highlight=False)


def colour(game: str, text: str) -> Text:
    """`text` with each card token styled by its suit (plain where the game has no suits);
    every rendering and notation shown goes through here, so through the one sanitiser."""
    text = terminal(text)
    out = Text(text)
    pattern, styles = SUITS.get(game, (None, {}))
    if pattern is not None:
        for m in pattern.finditer(text):
            token = m.group(0)
            style = styles.get(token, styles.get(token[0], ""))
            out.stylize(style, m.start(), m.end())
    return out


def group_moves(actions: list[kingdoms.Action]) -> list[tuple[str, list[kingdoms.Action]]]:
    """The legal moves grouped by what they share, in order of first appearance: Battle
    Line's `R10@3` under its card `R10`; `deploy U7 b2` under `deploy U7`; one-word moves
    (`pass`, `done`) together under ''."""
    groups: dict[str, list[kingdoms.Action]] = {}
    for a in actions:
        text = str(a)
        if "@" in text:
            key = text.partition("@")[0]
        elif " " in text:
            key = text.rpartition(" ")[0]
        else:
            key = ""
        groups.setdefault(key, []).append(a)
    return list(groups.items())


def _option_label(key: str, action: kingdoms.Action) -> str:
    text = str(action)
    return text[len(key) :].strip() if key else text


def numbered_moves(actions: list[kingdoms.Action]) -> list[kingdoms.Action]:
    """The moves in the order `show_moves` numbers them (1, 2, ...)."""
    return [a for _, group in group_moves(actions) for a in group]


def show_moves(console: Console, game: str, actions: list[kingdoms.Action]) -> None:
    width = len(str(len(actions)))
    n = 0
    for key, group in group_moves(actions):
        line = Text("  ")
        line.append_text(colour(game, f"{key:<12}" if key else f"{'':<12}"))
        for a in group:
            n += 1
            line.append(f" {n:>{width}}:", style="dim")
            line.append_text(colour(game, _option_label(key, a)))
        console.print(line, soft_wrap=True)


def battleline_flags(console: Console, game: kingdoms.Game, seat: int) -> None:
    """Battle Line: each contested flag with both sides' best formations so far (kind and
    strength) and, for `seat`, whether a claim would hold now (an exact proof)."""
    from kingdoms.battleline import best_formation

    flags = game.view(seat)["flags"]
    claimable = []
    for f, flag in enumerate(flags):
        sides = flag["sides"]
        if flag.get("claimed") is not None or not any(sides):
            continue
        fog = any(e.get("card") == "Fog" for e in flag.get("env") or [])
        parts = []
        for p in (seat, 1 - seat):
            cards = sides[p]
            if cards:
                form = best_formation(cards, fog=fog)
                label = f"{form.kind} {form.total}" if len(cards) >= 3 else f"{form.total} so far"
                parts.append(f"{' '.join(cards)} ({label})")
            else:
                parts.append("—")
        line = Text(f"  flag {f}: ", style="bold")
        line.append_text(colour("battleline", f"you {parts[0]}  vs  {parts[1]}"))
        console.print(line, soft_wrap=True)
        proof = game.claim_proof(f, seat)  # type: ignore[attr-defined]
        if proof is not None and proof:
            claimable.append(f)
    if claimable:
        console.print(
            f"  [bold green]claimable now: flag {', '.join(map(str, claimable))}[/] "
            "(your claim is proven whatever the opponent still plays)"
        )


@dataclass
class Table:
    """The game in play with who sits where, and what the players did."""

    game: kingdoms.Game
    seats: list[str]
    agents: dict[int, AgentLike]
    hint_agent: RustAgent
    movers: list[int] = field(default_factory=list)
    # The games replaced by an undo's redraw, at that point, with their movers.
    earlier: list[tuple[kingdoms.Game, list[int]]] = field(default_factory=list)
    hints: int = 0
    undos: int = 0
    # The Python agents' redraws: from the OS, never from the deal's seed.
    rng: random.Random = field(default_factory=lambda: random.Random(secrets.randbits(64)))

    def humans(self) -> list[int]:
        """The seats people play (an agent may well be named "human")."""
        return [p for p in range(len(self.seats)) if p not in self.agents]

    def apply(self, action: kingdoms.Action | str) -> None:
        player = self.game.current_player
        self.game.apply(action)
        self.movers.append(-1 if player is None else player)

    def undo(self) -> bool:
        """Back to the position before the last move a person made (the agents' replies
        go too), then what that person has not seen is drawn afresh. False when no person
        has moved yet."""
        people = set(self.humans())
        while True:
            last = next(
                (i for i in reversed(range(len(self.movers))) if self.movers[i] in people), None
            )
            if last is not None:
                break
            if not self.earlier:
                return False
            self.game, self.movers = self.earlier.pop()
        person = self.movers[last]
        self.game.undo(to_ply=last)
        del self.movers[last:]
        # kept to undo further back, past the redraw
        self.earlier.append((self.game.clone(), list(self.movers)))
        self.undos += 1
        self.redraw(person)
        return True

    def redraw(self, person: int) -> None:
        """Everything `person` has not seen (hidden cards, deck order, future dice) drawn
        afresh from the OS, so that what an undone move showed predicts nothing: the game
        goes on from that position, and its record starts there."""
        seed = secrets.randbits(63)
        drawn = self.game.resample_hidden(person, seed)
        # its saved state: the record starts there, and the last move stays as `person` saw it
        self.game = kingdoms.from_dict(drawn.to_dict())
        self.movers.clear()

    def agent_move(self, player: int) -> kingdoms.Action:
        """The agent's move. A built-in agent reaches hidden cards only by redrawing them;
        a Python agent is handed a copy in which they are already redrawn, as in matches."""
        agent = self.agents[player]
        if isinstance(agent, (kingdoms.agents.Random, kingdoms.agents.Greedy, ISMCTS)):
            return agent.act(self.game)
        seen = self.game.resample_hidden(player, self.rng.randrange(2**63))
        move = agent.act(seen)
        if isinstance(move, int):
            return self.game.id_to_action(move)
        if isinstance(move, str):
            return self.game.parse_action(move)
        return move


def revealed(before: kingdoms.Game, after: kingdoms.Game, viewer: int | None) -> str | None:
    """What a move revealed to `viewer` at once: Zinordia's secret picks, when they are
    shown (None: nothing of the kind)."""
    if viewer is None:
        return None
    was, now = before.view(viewer).get("picks"), after.view(viewer).get("picks")
    if not isinstance(was, list) or not isinstance(now, list):
        return None
    hidden = any(p is None for picks in was for p in picks)
    if not hidden or any(p is None for picks in now for p in picks):
        return None
    return "picks revealed: " + "; ".join(
        f"player {i} {', '.join(map(str, picks))}" for i, picks in enumerate(now)
    )


def show_hint(console: Console, table: Table) -> None:
    """The hint agent's choice for the player to move, with its search statistics."""
    agent = table.hint_agent
    table.hints += 1
    if not isinstance(agent, ISMCTS):
        console.print(Text(f"hint ({agent.name}): {agent.act(table.game)}"))
        return
    search = agent.analyze(table.game)
    stats = sorted(search.actions, key=lambda s: s.visits, reverse=True)
    if not stats:
        console.print("hint: no choice to make here")
        return
    name = table.game.name
    line = Text(f"hint ({agent.name}, {search.iterations} iterations, {search.seconds:.2f} s): ")
    line.append_text(colour(name, str(stats[0].action)))
    console.print(line, soft_wrap=True)
    for s in stats[:5]:
        row = Text("  ")
        row.append_text(colour(name, f"{s.action!s:<16}"))
        row.append(f" visits {s.visits:>6}  value {s.value:+.3f}")
        console.print(row, soft_wrap=True)


def read_move(console: Console, stdin: TextIO, table: Table) -> kingdoms.Action | str | None:
    """The person's move; 'undo' to take one back; None to quit (end of input too)."""
    game = table.game
    actions = numbered_moves(game.legal_actions())
    default = actions[0] if len(actions) == 1 else None
    prompt = f"player {game.current_player}, your move" + (f" [{default}]" if default else "")
    while True:
        console.print(Text(f"{prompt}> "), end="")
        line = stdin.readline()
        if not line:
            return None
        text = line.strip()
        if text in ("quit", "q", "exit"):
            return None
        if text == "undo":
            return "undo"
        if text == "hint":
            try:
                show_hint(console, table)
            except kingdoms.KingdomsError as e:  # e.g. an agent that refuses this game
                console.print(Text(f"no hint: {e}", style="red"))
            continue
        if text == "" and default is not None:
            return default
        if text in ("?", "help", ""):
            console.print(COMMANDS, style="dim")
            show_moves(console, game.name, actions)
            continue
        if text.isdigit() and 1 <= int(text) <= len(actions):
            return actions[int(text) - 1]
        # notation in any case: "r4@0" is R4@0
        by_text = {str(a).casefold(): a for a in actions}
        if text.casefold() in by_text:
            return by_text[text.casefold()]
        try:
            action = game.parse_action(text)
        except kingdoms.KingdomsError as e:
            numbered = f"no move {text[:20]}: the moves are numbered 1 to {len(actions)}"
            console.print(Text(numbered if text.isdigit() else str(e), style="red"))
            continue
        if action in actions:
            return action
        try:  # the rules' reason, from a copy (the game itself never changes here)
            game.clone().apply(action)
            why = ""
        except kingdoms.IllegalActionError as e:
            why = f": {e}"
        console.print(Text(f"{text[:40]} is not legal now{why} ('?' lists the moves)", style="red"))


def person_turn(console: Console, stdin: TextIO, table: Table) -> bool:
    """One decision of a person; False when they quit."""
    game = table.game
    seat = game.current_player
    assert seat is not None
    console.print()
    if len(table.humans()) > 1:
        console.print(f"[bold]player {seat}'s turn[/]")
    console.print(colour(game.name, game.render(seat)), soft_wrap=True)
    if game.name == "battleline":
        battleline_flags(console, game, seat)
    show_moves(console, game.name, numbered_moves(game.legal_actions()))
    move = read_move(console, stdin, table)
    if move is None:
        return False
    if move == "undo":
        if table.undo():
            console.print(
                "undone: back to your earlier move; what you have not seen is drawn afresh"
            )
        else:
            console.print("nothing to undo yet")
        return True
    before = table.game.clone()
    table.apply(move)
    note = revealed(before, table.game, seat)
    if note is not None:
        console.print(Text(note))
    return True


def summary(console: Console, table: Table, seconds: float) -> None:
    """Who sat where, the result, and the game's own tally (Battle Line: flags, points)."""
    game = table.game
    console.print()
    console.print(colour(game.name, game.render()), soft_wrap=True)
    w = game.winner
    people = table.humans()
    # the winner's whole team wins (Zinordia's 2 v 2); a team of one elsewhere
    winners = (
        [] if w is None else [p for p in range(game.num_players) if game.team(p) == game.team(w)]
    )
    if w is None:
        verdict = "a draw"
    elif len(people) == 1 and people[0] in winners:
        verdict = "you win"
    elif len(winners) == 1:
        verdict = f"player {w} ({table.seats[w]}) wins"
    else:
        who = ", ".join(f"{p} ({table.seats[p]})" for p in winners)
        verdict = f"players {who} win"
    console.print(Text(f"Game over: {verdict}.", style="bold"))
    seed = game.seed if table.undos == 0 else None
    if seed is not None:
        console.print(Text(f"  the deal's seed: {seed}"))
    returns = game.returns()
    for p, who in enumerate(table.seats):
        console.print(Text(f"  player {p}: {who:<16} return {returns[p]:+g}"))
    extra = ""
    if game.name == "battleline":
        flags = game.flags_won  # type: ignore[attr-defined]
        points = game.match_points()  # type: ignore[attr-defined]
        extra = f"; flags won {flags[0]}-{flags[1]}, match points {points[0]}-{points[1]}"
    console.print(
        f"  {len(game.record().actions)} moves in {seconds:.0f} s; "
        f"{table.hints} hints, {table.undos} undos{extra}"
    )


def seats_of(args: argparse.Namespace, players: int) -> list[str]:
    if args.seats is not None:
        if len(args.seats) != players:
            raise SystemExit(
                f"kingdoms: --seats needs {players} entries for {args.game}, not {len(args.seats)}"
            )
        return list(args.seats)
    if not 0 <= args.seat < players:
        raise SystemExit(f"kingdoms: --seat must be 0..{players - 1}")
    return [HUMAN if p == args.seat else args.ai for p in range(players)]


def cmd_play(args: argparse.Namespace, options: dict[str, Any], stdin: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    console = make_console(args.color)
    game = kingdoms.new_game(args.game, seed=args.seed, position=args.position, **options)
    seats = seats_of(args, game.num_players)
    agents = {p: load_agent(spec) for p, spec in enumerate(seats) if spec != HUMAN}
    names = [HUMAN if p not in agents else agent_name(agents[p], s) for p, s in enumerate(seats)]
    table = Table(game, names, agents, parse(args.hint_agent))
    # The seed deals the hidden cards: shown only if the user chose it (else at the end).
    given = f", seed {args.seed}" if args.seed is not None else ""
    console.print(
        Text(
            f"{args.game}{given}: " + ", ".join(f"player {p} {who}" for p, who in enumerate(names))
        )
    )
    humans = table.humans()
    # Agents' moves wait for the next person to move, who sees them as their view tells.
    pending: list[tuple[kingdoms.Game, kingdoms.Action, int]] = []

    def narrate(viewer: int | None) -> None:
        for before, move, player in pending:
            after = before.clone()
            after.apply(move)
            line = Text(f"player {player} ({names[player]}) plays ")
            line.append_text(colour(args.game, seen_move(before, move, viewer)))
            console.print(line, soft_wrap=True)
            note = revealed(before, after, viewer)
            if note is not None:
                console.print(Text(note))
        pending.clear()

    start = time.perf_counter()
    forfeit: tuple[int, str] | None = None
    while not table.game.is_terminal:
        player = table.game.current_player
        assert player is not None
        if player not in agents:
            narrate(player)
            if not person_turn(console, stdin, table):
                console.print("stopped.")
                break
            continue
        try:
            move = table.agent_move(player)
        except Forfeit as e:
            forfeit = (player, e.reason)
            break
        pending.append((table.game.clone(), move, player))
        table.apply(move)
        if len(humans) <= 1:
            narrate(humans[0] if humans else None)
    narrate(None if table.game.is_terminal or forfeit else table.game.current_player)
    if forfeit is not None:
        player, reason = forfeit
        console.print(Text(f"Game over: player {player} ({names[player]}) forfeits: {reason}"))
    elif table.game.is_terminal:
        summary(console, table, time.perf_counter() - start)
    if args.record:
        save_record(args.record, table)
    for agent in agents.values():
        close = getattr(agent, "close", None)
        if isinstance(agent, kingdoms.agents.Subprocess) and close is not None:
            close()
    return 0


def save_record(path: str, table: Table) -> None:
    """The game's record: record text with the seats' names (`.txt`), else JSON."""
    if not path.endswith(".txt"):
        with open(path, "w", encoding="utf-8") as f:
            f.write(table.game.record().to_json(indent=2))
        return
    from kingdoms.records import GameRecord, write_records

    rec = GameRecord(
        table.game.record(),
        players=list(table.seats),
        event="kingdoms play",
        date=time.strftime("%Y.%m.%d"),
    )
    write_records([rec], path)
