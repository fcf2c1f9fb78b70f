"""Game records people can read: a PGN-like text form (docs/records.md).

A record is a block of ``[Name "value"]`` headers (game, seed or starting position, options,
players, result, event, date, ...) followed by the actions, one numbered ply per line in the
game's own notation (``12. draw troop``), each with an optional ``{comment}``, and ends with
its result (``1-0``, ``0-1``, ``1/2-1/2``, ``*``). Files hold any number of records separated
by blank lines. The JSON form (``Record.to_json``) stays the machine format; this one is for
people, archives and tournaments.

>>> import kingdoms
>>> from kingdoms.agents import Random
>>> rec = kingdoms.play_match("battleline", [Random(seed=1), Random(seed=2)], seed=7)
>>> text = kingdoms.write_records([kingdoms.GameRecord(rec, players=["Ann", "Bob"])])
>>> [back] = kingdoms.read_records(text)
>>> back.record == rec and back.players == ["Ann", "Bob"]
True
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from kingdoms._kingdoms import (
    Game,
    GameResult,
    KingdomsError,
    Record,
    StateError,
    TournamentResult,
    replay,
)

__all__ = ["GameRecord", "read_records", "write_records"]

# Headers written from the record itself, in this order, before the free-form ones.
_OWN = ("Game", "Event", "Date", "Seed", "Position", "Options")
_HEADER = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_MOVE = re.compile(r"^(\d+)\.\s+(.*?)\s*(?:\{((?:[^}\\]|\\.)*)\})?$")
_RESULT = re.compile(r"^(1-0|0-1|1/2-1/2|\*|draw|winner \d+)$")
_PLAYER = re.compile(r"^Player(\d+)$")
# An error quotes at most this much of a bad line.
_ECHO = 60


@dataclass
class GameRecord:
    """A :class:`kingdoms.Record` with what people write around it.

    ``players`` names who played each seat; ``comments`` maps an action's index (0-based) to
    the comment written after it; ``result`` is ``None`` to compute it by replaying;
    ``headers`` holds any other header (``Round``, ``Site``, ...). ``date`` is free text
    (PGN writes ``2026.11.30``).
    """

    record: Record
    players: list[str] = field(default_factory=list)
    event: str | None = None
    date: str | None = None
    result: str | None = None
    comments: dict[int, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)

    def replay(self) -> Game:
        """The game at the end of the record."""
        return replay(self.record)


RecordLike: TypeAlias = "Record | GameRecord | GameResult | TournamentResult"


def result_of(game: Game) -> str:
    """The result text of a game: ``1-0`` / ``0-1`` / ``1/2-1/2`` for two players,
    ``winner N`` / ``draw`` for more, ``*`` while it runs."""
    if not game.is_terminal:
        return "*"
    w = game.winner
    if game.num_players == 2:
        return {0: "1-0", 1: "0-1"}.get(w, "1/2-1/2") if w is not None else "1/2-1/2"
    return "draw" if w is None else f"winner {w}"


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _comment(text: str) -> str:
    return text.replace("\\", "\\\\").replace("}", "\\}").replace("\n", " ")


def _clip(line: str) -> str:
    return line if len(line) <= _ECHO else line[:_ECHO] + "…"


def _game_records(item: RecordLike, event: str | None) -> list[GameRecord]:
    if isinstance(item, GameRecord):
        return [item]
    if isinstance(item, Record):
        return [GameRecord(item, event=event)]
    if isinstance(item, GameResult):
        if item.record is None:
            raise StateError(f"game {item.index} has no record (play with records=True)")
        return [GameRecord(item.record, event=event, headers={"Round": str(item.index + 1)})]
    if isinstance(item, TournamentResult):
        out = []
        for r in item.results:
            if r.record is None:
                raise StateError("this tournament kept no records (play it with records=True)")
            out.append(
                GameRecord(
                    r.record,
                    players=[item.names[s] for s in r.seats],
                    event=event or "kingdoms tournament",
                    headers={"Round": str(r.index + 1)},
                )
            )
        return out
    raise TypeError(
        "expected Records, GameRecords, GameResults or a TournamentResult, "
        f"got {type(item).__name__}"
    )


def format_record(rec: GameRecord) -> str:
    """One record in the text form."""
    r = rec.record
    result = rec.result if rec.result is not None else result_of(replay(r))
    head: dict[str, str] = {"Game": r.game}
    if rec.event is not None:
        head["Event"] = rec.event
    if rec.date is not None:
        head["Date"] = rec.date
    head["Seed"] = str(r.seed)
    if r.position is not None:
        head["Position"] = r.position
    head["Options"] = json.dumps(r.options, sort_keys=True, separators=(",", ":"))
    for i, name in enumerate(rec.players):
        head[f"Player{i}"] = name
    for k, v in rec.headers.items():
        if k in _OWN or k == "Result" or _PLAYER.match(k) or not _HEADER.match(f'[{k} ""]'):
            raise StateError(f"header {k[:_ECHO]!r}: reserved or not a header name")
        head[k] = v
    head["Result"] = result
    lines = [f'[{k} "{_quote(v)}"]' for k, v in head.items()]
    lines.append("")
    for i, a in enumerate(r.actions):
        c = rec.comments.get(i)
        lines.append(f"{i + 1}. {a}" + (f" {{{_comment(c)}}}" if c else ""))
    lines.append(result)
    return "\n".join(lines) + "\n"


def write_records(
    records: RecordLike | Iterable[RecordLike],
    path: str | os.PathLike[str] | None = None,
    *,
    event: str | None = None,
) -> str:
    """Write records in the text form and return the text; with ``path``, also save it there.

    ``records``: Records, :class:`GameRecord` s, tournament ``GameResult`` s or a whole
    ``TournamentResult`` (each game with its agents' names and round), or one of these.
    """
    items: Iterable[RecordLike]
    if isinstance(records, (Record, GameRecord, GameResult, TournamentResult)):
        items = [records]
    else:
        items = records
    text = "\n".join(format_record(g) for item in items for g in _game_records(item, event))
    if path is not None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return text


def read_records(source: str | os.PathLike[str]) -> list[GameRecord]:
    """Read records in the text form from a file path or from the text itself (a string
    with a line break or starting with ``[``).

    Every record is checked by replaying it; a bad one raises ``StateError`` naming the
    line (and the action index for an action the rules refuse).
    """
    # Text is what holds a line break or starts with a header; any other string is a path.
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and not source.lstrip().startswith("[")
    ):
        with open(source, encoding="utf-8") as f:
            text = f.read()
    elif isinstance(source, str):
        text = source
    else:
        raise TypeError(f"expected a path or the records' text, got {type(source).__name__}")
    return _parse(text)


def _parse(text: str) -> list[GameRecord]:
    out: list[GameRecord] = []
    head: dict[str, str] = {}
    moves: list[str] = []
    comments: dict[int, str] = {}
    start = 0

    def fail(n: int, line: str, why: str) -> StateError:
        return StateError(f"line {n}: {why}: {_clip(line)!r}")

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if not head and not line.startswith("["):
            raise fail(n, line, 'expected a [Header "value"] to start a record')
        if line.startswith("["):
            if moves:
                raise fail(n, line, "header after the actions (a record ends with its result)")
            m = _HEADER.match(line)
            if not m:
                raise fail(n, line, 'bad header (expected [Name "value"])')
            if m.group(1) in head:
                raise fail(n, line, f"header {m.group(1)} given twice")
            head[m.group(1)] = _unquote(m.group(2))
            start = start or n
            continue
        m = _MOVE.match(line)
        if m:
            if int(m.group(1)) != len(moves) + 1:
                raise fail(n, line, f"expected action number {len(moves) + 1}")
            if not m.group(2):
                raise fail(n, line, "no action")
            if m.group(3) is not None:
                comments[len(moves)] = _unquote(m.group(3))
            moves.append(m.group(2))
            continue
        if _RESULT.match(line):
            out.append(_build(head, moves, comments, line, start))
            head, moves, comments, start = {}, [], {}, 0
            continue
        raise fail(n, line, "expected a numbered action, a result or a header")
    if head:
        raise StateError(f"line {start}: the record starting here has no result line")
    return out


def _build(
    head: Mapping[str, str], moves: list[str], comments: dict[int, str], result: str, line: int
) -> GameRecord:
    where = f"record at line {line}"
    h = dict(head)
    if "Game" not in h:
        raise StateError(f"{where}: no Game header")
    try:
        seed = int(h.pop("Seed", "0"))
        if seed < 0:
            raise ValueError
    except ValueError:
        raise StateError(f"{where}: Seed must be an integer >= 0") from None
    try:
        options = json.loads(h.pop("Options", "{}"))
    except json.JSONDecodeError as e:
        raise StateError(f"{where}: Options is not JSON ({e.msg})") from None
    if not isinstance(options, dict):
        raise StateError(f"{where}: Options must be a JSON object")
    players: dict[int, str] = {}
    for k in [k for k in h if _PLAYER.match(k)]:
        players[int(k[6:])] = h.pop(k)
    if sorted(players) != list(range(len(players))):
        raise StateError(f"{where}: players must be Player0, Player1, ... without gaps")
    try:
        # From data, as a loaded record: an unknown game is a StateError at `$.game`.
        fields = {"game": h.pop("Game"), "seed": seed, "actions": moves, "options": options}
        if "Position" in h:
            fields["position"] = h.pop("Position")
        record = Record.from_dict(fields)
        game = replay(record)
    except KingdomsError as e:
        raise StateError(f"{where}: {e}") from None
    if h.pop("Result", result) != result:
        raise StateError(f"{where}: the Result header and the result line differ")
    if result != result_of(game):
        raise StateError(f"{where}: ends with {result} but the game's result is {result_of(game)}")
    return GameRecord(
        record,
        players=[players[i] for i in range(len(players))],
        event=h.pop("Event", None),
        date=h.pop("Date", None),
        result=result,
        comments=comments,
        headers=h,
    )
