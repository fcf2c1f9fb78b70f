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
from typing import Any, TypeAlias

from kingdoms._kingdoms import (
    DataError,
    Game,
    GameResult,
    KingdomsError,
    Record,
    StateError,
    TournamentResult,
    read_data_bytes,
    replay,
)

__all__ = ["GameRecord", "read_records", "write_records"]

# Headers written from the record itself, in this order, before the free-form ones.
_OWN = ("Game", "Event", "Date", "Seed", "Position", "Options")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_RESULT = re.compile(r"1-0|0-1|1/2-1/2|\*|draw|winner [0-9]{1,4}")
_PLAYER = re.compile(r"Player(0|[1-9][0-9]{0,3})")
# A backslash escape: a code point (as write_records escapes what is not printable) or any
# one character standing for itself (\" \\ \}). Each match starts at a backslash: linear.
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U(?:000[0-9a-fA-F]|0010)[0-9a-fA-F]{4}|.)", re.DOTALL)
_PAIR = re.compile(r"\\.", re.DOTALL)
# An error quotes at most this much of a bad line.
_ECHO = 60
#: Most characters of record text read at once (a string, or a file's bytes): 64 MiB, room
#: for records carrying their own content (each card set or content file at most 4 MiB).
MAX_TEXT = 64 << 20


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


def _escape(value: str, special: str) -> str:
    """``value`` on one line: ``\\`` and ``special`` escaped with a backslash, and every
    character that is not printable (line breaks of any kind, controls) as ``\\uXXXX``."""
    value = value.replace("\\", "\\\\").replace(special, "\\" + special)
    if value.isprintable():
        return value
    return "".join(c if c.isprintable() else _code(c) for c in value)


def _code(c: str) -> str:
    n = ord(c)
    return f"\\u{n:04x}" if n <= 0xFFFF else f"\\U{n:08x}"


def _quote(value: str) -> str:
    return _escape(value, '"')


def _comment(text: str) -> str:
    return _escape(text, "}")


def _unescape(value: str, close: str) -> str | None:
    """The text of an escaped value, or None if it holds an unescaped ``close`` or ends in
    a lone backslash (which would escape its closing mark)."""
    bare = _PAIR.sub("", value)
    if close in bare or "\\" in bare:
        return None
    return _ESCAPE.sub(_char, value)


def _char(m: re.Match[str]) -> str:
    e = m.group(1)
    return chr(int(e[1:], 16)) if len(e) > 1 else e


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
        if k in _OWN or k == "Result" or _PLAYER.fullmatch(k) or not _NAME.fullmatch(k):
            raise StateError(f"header {k[:_ECHO]!r}: reserved or not a header name")
        head[k] = v
    head["Result"] = result
    lines = [f'[{k} "{_quote(v)}"]' for k, v in head.items()]
    lines.append("")
    for i, a in enumerate(r.actions):
        c = rec.comments.get(i)
        lines.append(f"{i + 1}. {a}" + (f" {{{_comment(c)}}}" if c is not None else ""))
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
    """Read records in the text form: ``source`` is the text itself (a ``str``, never taken
    for a file name) or a path (an ``os.PathLike`` such as ``pathlib.Path``), read as the
    engine reads data files: a regular file only, at most :data:`MAX_TEXT` bytes, UTF-8.

    Every record is checked by replaying it; a bad one raises ``StateError`` naming the
    line (and the action index for an action the rules refuse). Parsing takes time and
    memory in proportion to the text.
    """
    if isinstance(source, str):
        text = source
    elif isinstance(source, os.PathLike):
        text = read_text_file(source, "records")
    else:
        raise TypeError(f"expected the records' text or a path, got {type(source).__name__}")
    if len(text) > MAX_TEXT:
        raise StateError(f"{len(text)} characters of record text; at most {MAX_TEXT}")
    return _parse(text)


def read_text_file(path: str | os.PathLike[str], what: str, limit: int = MAX_TEXT) -> str:
    """The UTF-8 text of a user's file, through the engine's one reader of data files
    (regular files only, never blocking on a FIFO, at most ``limit`` bytes)."""
    data = read_data_bytes(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DataError(f"{what}: not UTF-8 text (invalid byte at offset {e.start})") from None


def parse_json(text: str, what: str, error: type[KingdomsError] = DataError) -> Any:
    """JSON from a user's text; what :mod:`json` cannot read is ``error`` naming ``what``
    and, for a syntax error, the line and column (never a ``RecursionError``)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise error(f"{what} is not JSON ({e.msg}, line {e.lineno} column {e.colno})") from None
    except RecursionError:
        raise error(f"{what} is nested too deeply") from None
    except ValueError:  # an integer of more digits than Python converts
        raise error(f"{what} holds a number too long to read") from None


def _header(line: str) -> tuple[str, str] | None:
    """``[Name "value"]`` as (name, value), or None if the line is not one."""
    if not line.endswith('"]'):
        return None
    space = line.find(" ")
    name = line[1:space] if space > 0 else ""
    rest = line[space:].lstrip() if space > 0 else ""
    if not _NAME.fullmatch(name) or len(rest) < 3 or not rest.startswith('"'):
        return None
    value = _unescape(rest[1:-2], '"')
    return None if value is None else (name, value)


def _move(line: str) -> tuple[str, str, str | None] | None:
    """``N. notation {comment}`` as (N, notation, comment or None), or None."""
    dot = line.find(".")
    number, rest = line[:dot], line[dot + 1 :]
    if dot < 1 or not number.isascii() or not number.isdigit():
        return None
    if not rest[:1].isspace():
        return None
    brace = rest.find("{")
    if brace < 0:
        return number, rest.strip(), None
    if not rest.endswith("}"):
        return None
    comment = _unescape(rest[brace + 1 : -1], "}")
    return None if comment is None else (number, rest[:brace].strip(), comment)


def _parse(text: str) -> list[GameRecord]:
    out: list[GameRecord] = []
    head: dict[str, str] = {}
    moves: list[str] = []
    comments: dict[int, str] = {}
    start = 0

    def fail(n: int, line: str, why: str) -> StateError:
        return StateError(f"line {n}: {why}: {_clip(line)!r}")

    # Lines end at "\n" only (a "\r" before it is dropped): values and comments hold any
    # other character escaped, so no separator inside them can split a line.
    for n, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if not line:
            continue
        if not head and not line.startswith("["):
            raise fail(n, line, 'expected a [Header "value"] to start a record')
        if line.startswith("["):
            if moves:
                raise fail(n, line, "header after the actions (a record ends with its result)")
            h = _header(line)
            if h is None:
                raise fail(n, line, 'bad header (expected [Name "value"])')
            if h[0] in head:
                raise fail(n, line, f"header {h[0][:_ECHO]} given twice")
            head[h[0]] = h[1]
            start = start or n
            continue
        if _RESULT.fullmatch(line):
            out.append(_build(head, moves, comments, line, start))
            head, moves, comments, start = {}, [], {}, 0
            continue
        m = _move(line)
        if m is None:
            raise fail(n, line, "expected a numbered action, a result or a header")
        number, notation, comment = m
        if number != str(len(moves) + 1):
            raise fail(n, line, f"expected action number {len(moves) + 1}")
        if not notation:
            raise fail(n, line, "no action")
        if comment is not None:
            comments[len(moves)] = comment
        moves.append(notation)
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
    options = parse_json(h.pop("Options", "{}"), f"{where}: Options", StateError)
    if not isinstance(options, dict):
        raise StateError(f"{where}: Options must be a JSON object")
    players: dict[int, str] = {}
    for k in [k for k in h if _PLAYER.fullmatch(k)]:
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
