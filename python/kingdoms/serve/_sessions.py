"""The games the server holds: one `Session` per game, in a bounded `Sessions` registry.

A session keeps the true game (with its seed and RNG) and everything else on the server.
What it hands a seat, `Session.state(seat)`, is built from that seat's view only: the
picture `svg(seat)`, the view's legal moves and their click steps when the seat is to move,
the other seats' moves as the rules show them to the seat (`seen_move`), what a move revealed
to the seat (Zinordia's picks). No seed, RNG state or other seat's hidden card reaches it.

Every call that does engine work is synchronous and meant to run in the server's thread pool
(the Rust search releases the GIL), never on the event loop.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import kingdoms
from kingdoms._cli_agents import load_agent
from kingdoms._cli_play import Table, revealed
from kingdoms._seen import seen_move
from kingdoms._text import move_text
from kingdoms.agents import ISMCTS, AgentLike, parse
from kingdoms.serve._targets import steps

#: A seat played by a person at the page.
HUMAN = "human"
#: Moves a session keeps to take back: undo past this many is refused (memory bound).
MAX_UNDOS = 100
#: Moves in one session at most (a Zinordia game ends by its round limit well before).
MAX_PLIES = 5000
#: The hint's search: ISMCTS at its default budget (1000 iterations).
HINT_AGENT = "ismcts"
#: Top moves a hint lists.
HINT_MOVES = 5


class SessionError(kingdoms.KingdomsError):
    """A request the session refuses (not your turn, no such move, ...): HTTP 409."""


@dataclass
class Entry:
    """One move of the game as each person saw it."""

    mover: int
    seen: dict[int, str]  # viewer -> the move as that viewer's view tells it
    notes: dict[int, str] = field(default_factory=dict)  # viewer -> what it revealed
    # viewer -> the picture elements the move touched, for a move the viewer sees in full
    marks: dict[int, list[str]] = field(default_factory=dict)


def agent_for(spec: str, bots: dict[str, str]) -> AgentLike:
    """The agent of a seat: a built-in agent spec (`ismcts:2000`, `heuristic`, ...) or the
    name of a bot given to `kingdoms serve --bot NAME=SPEC`. A page never names a command or
    a Python module itself: that could run any program on the server's machine."""
    if spec in bots:
        return load_agent(bots[spec])
    head = spec.partition(":")[0].split(",")[0].strip()
    if head == "cmd" or (":" in spec and not _builtin(head)):
        raise kingdoms.KingdomsError(
            f"seat agent {spec[:40]!r}: a page names built-in agents or the bots given to "
            "'kingdoms serve --bot NAME=SPEC' only"
        )
    return parse(spec)


def _builtin(head: str) -> bool:
    try:
        parse(head)
    except (kingdoms.KingdomsError, ValueError):
        return False
    return True


class Session:
    """One game with who sits where, the moves as each person saw them, and its lifecycle."""

    def __init__(
        self,
        game: kingdoms.Game,
        seats: list[str],
        bots: dict[str, str],
        *,
        hint_agent: str = HINT_AGENT,
    ) -> None:
        if len(seats) != game.num_players:
            raise kingdoms.KingdomsError(
                f"seats: {game.name} with these options has {game.num_players} players, "
                f"not {len(seats)}"
            )
        agents = {p: agent_for(s, bots) for p, s in enumerate(seats) if s != HUMAN}
        if len(agents) == len(seats):
            raise kingdoms.KingdomsError("seats: at least one seat must be a person ('human')")
        self.id = secrets.token_urlsafe(16)
        self.seats = list(seats)
        self.table = Table(game, list(seats), agents, parse(hint_agent))
        self.log: list[Entry] = []
        self.version = 0
        self.generation = 0  # bumped by undo/resign: a bot's answer to an older one is dropped
        self.over: str | None = None  # a resignation or forfeit (the engine's end aside)
        self.thinking: int | None = None
        self.touched = time.monotonic()
        self.lock = threading.Lock()
        self.rng = random.Random(secrets.randbits(64))

    # ---- what a seat may see -------------------------------------------------------------

    @property
    def game(self) -> kingdoms.Game:
        return self.table.game

    def humans(self) -> list[int]:
        return self.table.humans()

    def finished(self) -> bool:
        return self.over is not None or self.game.is_terminal

    def check_seat(self, seat: int) -> None:
        if seat not in self.humans():
            raise kingdoms.KingdomsError(
                f"seat {seat}: not a person's seat in this game (people: {self.humans()})"
            )

    def state(self, seat: int) -> dict[str, Any]:
        """Everything the page of `seat` is sent: built from `game.view(seat)` only."""
        with self.lock:
            return self._state(seat)

    def _state(self, seat: int) -> dict[str, Any]:
        game = self.game
        view = game.view(seat)
        to_move = None if self.finished() else game.current_player
        moves: list[dict[str, Any]] = []
        if to_move == seat and self.thinking is None:
            for a in game.legal_actions():
                moves.append(
                    {
                        "notation": str(a),
                        "text": move_text(game, a),
                        "steps": steps(game, a, seat, view),
                    }
                )
        log = []
        for e in self.log:
            row: dict[str, Any] = {"player": e.mover, "move": e.seen.get(seat, "a move")}
            if seat in e.notes:
                row["note"] = e.notes[seat]
            log.append(row)
        out: dict[str, Any] = {
            "session": self.id,
            "version": self.version,
            "game": game.name,
            "seat": seat,
            "seats": self.seats,
            "humans": self.humans(),
            "to_move": to_move,
            "thinking": self.thinking,
            "svg": str(game.svg(seat)),
            "moves": moves,
            "log": log,
            "over": self.finished(),
            "result": self._result(seat),
            "can_undo": seat in self.table.movers or bool(self.table.earlier),
            "marks": self._marks(seat),
        }
        return out

    def _marks(self, seat: int) -> list[str]:
        """The picture elements of the other seats' moves since `seat`'s last one."""
        out: list[str] = []
        for e in reversed(self.log):
            if e.mover == seat:
                break
            out.extend(k for k in e.marks.get(seat, []) if k not in out)
        return out

    def _result(self, seat: int) -> str | None:
        if self.over is not None:
            return self.over
        game = self.game
        if not game.is_terminal:
            return None
        w = game.winner
        if w is None:
            return "a draw"
        winners = [p for p in range(game.num_players) if game.team(p) == game.team(w)]
        if seat in winners:
            return "you win" if len(self.humans()) == 1 else f"player {seat} wins"
        names = ", ".join(f"player {p} ({self.seats[p]})" for p in winners)
        return f"{names} win" if len(winners) > 1 else f"{names} wins"

    # ---- changes ---------------------------------------------------------------------------

    def _apply(self, action: kingdoms.Action) -> None:
        """Play `action` and log it as every person sees it. Holds self.lock."""
        game = self.game
        mover = game.current_player
        assert mover is not None
        if len(self.log) >= MAX_PLIES:
            raise SessionError(f"this session has reached its {MAX_PLIES} moves")
        before = game.clone()
        self.table.apply(action)
        entry = Entry(mover, {})
        for viewer in self.humans():
            entry.seen[viewer] = seen = seen_move(before, action, viewer)
            if viewer != mover and seen == move_text(before, action):
                # shown in full: mark where it went, from the viewer's own view
                entry.marks[viewer] = steps(before, action, mover, before.view(viewer))
            note = revealed(before, self.game, viewer)
            if note is not None:
                entry.notes[viewer] = note
        self.log.append(entry)
        self.version += 1

    def play(self, seat: int, notation: str) -> None:
        """A person's move, by its notation; refused unless `seat` is to move and it is legal."""
        with self.lock:
            self.check_seat(seat)
            game = self.game
            if self.finished():
                raise SessionError("the game is over")
            if game.current_player != seat:
                raise SessionError(
                    f"seat {seat}: not your turn (player {game.current_player} moves)"
                )
            if self.thinking is not None:
                raise SessionError("an agent is thinking")
            action = game.parse_action(notation)
            if action not in game.legal_actions():
                raise SessionError(f"{notation[:40]} is not legal now")
            self._apply(action)

    def undo(self, seat: int) -> bool:
        """Back to before `seat`'s people's last move (the agents' replies go too); what the
        people have not seen is drawn afresh. False when there is nothing to undo."""
        with self.lock:
            self.check_seat(seat)
            if self.table.undos >= MAX_UNDOS:
                raise SessionError(f"at most {MAX_UNDOS} undos in one session")
            if not self.table.undo():
                return False
            kept = sum(len(m) for _, m in self.table.earlier) + len(self.table.movers)
            del self.log[kept:]
            self.over = None
            self.thinking = None
            self.generation += 1
            self.version += 1
            return True

    def resign(self, seat: int) -> None:
        with self.lock:
            self.check_seat(seat)
            if self.finished():
                raise SessionError("the game is over")
            self.over = f"player {seat} resigned"
            self.generation += 1
            self.version += 1

    # ---- agents ---------------------------------------------------------------------------

    def bot_turn(self) -> tuple[int, int, kingdoms.Game, AgentLike] | None:
        """The agent to move now, with the generation and a copy of the game to think on;
        None when a person (or nobody) is to move. Marks the seat as thinking."""
        with self.lock:
            if self.finished() or self.thinking is not None:
                return None
            player = self.game.current_player
            if player is None or player not in self.table.agents:
                return None
            self.thinking = player
            self.version += 1
            return player, self.generation, self.game.clone(), self.table.agents[player]

    def think(self, player: int, game: kingdoms.Game, agent: AgentLike) -> kingdoms.Action:
        """The agent's move on `game` (a copy): a built-in agent reaches hidden cards only by
        redrawing them; a Python agent or a bot program is handed a copy redrawn from its
        seat's view, as in matches. Runs in the thread pool."""
        if isinstance(agent, (kingdoms.agents.Random, kingdoms.agents.Greedy, ISMCTS)):
            return agent.act(game)
        seen = game.resample_hidden(player, self.rng.randrange(2**63))
        move = agent.act(seen)
        if isinstance(move, int):
            return game.id_to_action(move)
        if isinstance(move, str):
            return game.parse_action(move)
        return move

    def bot_done(
        self, player: int, generation: int, move: kingdoms.Action | None, failure: str | None
    ) -> None:
        """Play the agent's move, unless an undo or resignation came in the meantime."""
        with self.lock:
            if generation != self.generation:
                return
            self.thinking = None
            if failure is not None:
                self.over = f"player {player} ({self.seats[player]}) forfeits: {failure}"
                self.version += 1
                return
            assert move is not None
            if move not in self.game.legal_actions():
                self.over = f"player {player} ({self.seats[player]}) forfeits: illegal move {move}"
                self.version += 1
                return
            self._apply(move)

    # ---- hints and records ------------------------------------------------------------------

    def hint(self, seat: int, seed: int | None = None) -> dict[str, Any]:
        """The hint agent's top moves for `seat`, searched on a game redrawn from the seat's
        view (so the hint knows what the seat knows, nothing more). Runs in the thread pool."""
        with self.lock:
            self.check_seat(seat)
            game = self.game
            if self.finished() or game.current_player != seat:
                raise SessionError(f"seat {seat}: a hint is for the player to move")
            drawn = seed if seed is not None else self.rng.randrange(2**63)
            mine = kingdoms.new_game(game.name, drawn, position=game.position(seat), **game.options)
            agent = self.table.hint_agent
            self.table.hints += 1
        if not isinstance(agent, ISMCTS):
            move = agent.act(mine)
            return {
                "agent": agent.name,
                "moves": [{"notation": str(move), "text": move_text(mine, move), "share": 1.0}],
            }
        search = agent.analyze(mine)
        stats = sorted(search.actions, key=lambda s: s.visits, reverse=True)
        total = sum(s.visits for s in stats) or 1
        return {
            "agent": agent.name,
            "iterations": search.iterations,
            "moves": [
                {
                    "notation": str(s.action),
                    "text": move_text(mine, s.action),
                    "share": s.visits / total,
                    "visits": s.visits,
                }
                for s in stats[:HINT_MOVES]
            ],
        }

    def record_text(self) -> str:
        """The game's record in the text form, once it is over (before, it would tell the
        deal: the seed and every hidden card)."""
        from kingdoms.records import GameRecord, write_records

        with self.lock:
            if not self.finished():
                raise SessionError("the record is saved once the game is over (it tells the deal)")
            rec = GameRecord(
                self.game.record(),
                players=list(self.seats),
                event="kingdoms serve",
                date=time.strftime("%Y.%m.%d"),
            )
            if self.over is not None:
                rec.headers["Termination"] = self.over
            return write_records([rec])

    def replay_page(self, seat: int) -> str:
        """The replay page of the finished game, as `seat` saw it."""
        from kingdoms._svg.replay import replay_html

        with self.lock:
            self.check_seat(seat)
            if not self.finished():
                raise SessionError("the replay page is for a finished game")
            return replay_html(self.game.record(), player=seat)

    def close(self) -> None:
        """Stop the session's bot programs."""
        for agent in self.table.agents.values():
            if isinstance(agent, kingdoms.agents.Subprocess):
                agent.close()


def load_record(text: str) -> kingdoms.Game:
    """The game at the end of the first record in `text` (the record text form)."""
    from kingdoms.records import read_records

    records = read_records(text)
    if not records:
        raise kingdoms.KingdomsError("record: the text holds no game record")
    return records[0].replay()


class Sessions:
    """The sessions of one server: at most `limit`, each dropped after `idle` seconds
    without a request; when full, the least recently used idle one (quiet for `evict`
    seconds) makes room, else a new one is refused."""

    def __init__(self, limit: int = 64, idle: float = 3600.0, evict: float = 300.0) -> None:
        self.limit = limit
        self.idle = idle
        self.evict = evict
        self.by_id: dict[str, Session] = {}

    def expire(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        for sid, s in list(self.by_id.items()):
            if now - s.touched > self.idle:
                self.drop(sid)

    def drop(self, sid: str) -> None:
        s = self.by_id.pop(sid, None)
        if s is not None:
            s.close()

    def add(self, session: Session) -> None:
        self.expire()
        if len(self.by_id) >= self.limit:
            oldest = min(self.by_id.values(), key=lambda s: s.touched)
            if time.monotonic() - oldest.touched < self.evict:
                session.close()
                raise SessionsFull(
                    f"sessions: all {self.limit} are in use; one frees after "
                    f"{self.evict:.0f} s without requests"
                )
            self.drop(oldest.id)
        self.by_id[session.id] = session

    def get(self, sid: str) -> Session:
        s = self.by_id.get(sid)
        if s is None:
            raise NoSession(f"session {sid[:24]!r}: no such session (it may have expired)")
        s.touched = time.monotonic()
        return s


class SessionsFull(kingdoms.KingdomsError):
    """No room for a new session: HTTP 503."""


class NoSession(kingdoms.KingdomsError):
    """No session of that id: HTTP 404."""


__all__ = [
    "HUMAN",
    "MAX_PLIES",
    "MAX_UNDOS",
    "NoSession",
    "Session",
    "SessionError",
    "Sessions",
    "SessionsFull",
    "agent_for",
    "load_record",
]
