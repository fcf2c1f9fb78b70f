"""Out-of-process bots: a program in any language plays through a JSON-lines protocol on its
standard input and output (docs/bots.md), seeing only its player's view.

A bot that crashes, exceeds its time limit, or answers with something malformed or illegal
forfeits: :class:`Subprocess` kills and reaps its process and raises :class:`Forfeit`, and
matches and tournaments score the game as lost by that seat.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import signal
import subprocess
import time
import weakref
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing_extensions import Self

from kingdoms._kingdoms import Action, Game, KingdomsError, Record

__all__ = ["MAX_ANSWER", "PROTOCOL", "Forfeit", "Subprocess", "encode", "request"]

PROTOCOL = 1
"""The protocol's version, sent in every request."""

MAX_ANSWER = 64 * 1024
"""The longest answer line a bot may send, in bytes (a longer one forfeits)."""


class Forfeit(KingdomsError):
    """An agent gave up the game: a bot crashed, ran out of time, or answered with something
    malformed or illegal. ``player`` is its seat and ``record`` the game up to the forfeit
    (both set by :func:`kingdoms.play_match`, None until then)."""

    def __init__(self, reason: str, player: int | None = None, record: Record | None = None):
        super().__init__(reason)
        self.reason = reason
        self.player = player
        self.record = record


def request(game: Game) -> dict[str, Any]:
    """The message a bot receives for the player to move in ``game``: built from that
    player's view, the legal actions and the rules alone, so it is the same for every state
    the player cannot tell from this one."""
    seat = game.current_player
    if seat is None:
        raise KingdomsError(f"{game.name}: the game is over, no one to move")
    return {
        "type": "act",
        "protocol": PROTOCOL,
        "game": game.name,
        "options": game.options,
        "seat": seat,
        "view": game.view(seat),
        "legal": [{"id": a.id, "notation": str(a)} for a in game.legal_actions()],
    }


def encode(message: dict[str, Any]) -> bytes:
    """One protocol line: compact JSON, ASCII only, ending in a newline."""
    return (json.dumps(message, ensure_ascii=True, separators=(",", ":")) + "\n").encode()


def _short(data: bytes | str) -> str:
    """A bounded, printable quote of what a bot sent (never control characters)."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    quoted = ascii(text[:40])
    return quoted + ("..." if len(text) > 40 else "")


def _name(args: list[str]) -> str:
    """A short printable name for tables: the command with folders left out."""
    text = " ".join(os.path.basename(a) or a for a in args)
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= 40 else text[:37] + "..."


def _stop(proc: subprocess.Popen[bytes], grace: float) -> None:
    """End a bot's process group and reap it: after `grace` seconds for it to exit on its
    own (its input closed), then killed."""
    for pipe in (proc.stdin, proc.stdout):
        try:
            if pipe is not None:
                pipe.close()
        except OSError:
            pass
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        pass
    try:
        # The bot's own session: its children go too.
        if hasattr(os, "killpg"):
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows
            proc.kill()
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


class Subprocess:
    """A bot run as a separate program (``command``: a list of arguments, or one string
    split as a shell would), speaking the JSON-lines protocol of docs/bots.md.

    Each move it is sent the game's name, rules options, its seat, its view and the legal
    actions, and answers with one action (notation or id) within ``time_limit`` seconds.
    A crash, a late, malformed, oversized or illegal answer kills the process and raises
    :class:`Forfeit` (matches and tournaments score the game as lost by that seat); the next
    game starts the program afresh. ``stderr`` is where the bot's error output goes (default:
    discarded; None: this process's). Use it as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        command: Sequence[str] | str,
        *,
        time_limit: float = 10.0,
        name: str | None = None,
        cwd: str | None = None,
        stderr: int | IO[Any] | None = subprocess.DEVNULL,
    ) -> None:
        args = shlex.split(command) if isinstance(command, str) else list(command)
        if not args or not all(isinstance(a, str) for a in args):
            raise TypeError("command must be a non-empty list of strings, or a string")
        if not (isinstance(time_limit, (int, float)) and 0 < time_limit <= 86400):
            raise KingdomsError(f"time_limit must be seconds in (0, 86400], not {time_limit!r}")
        self.command = args
        self.time_limit = float(time_limit)
        self.name = name if name is not None else _name(args)
        self.cwd = cwd
        self.stderr = stderr
        self._proc: subprocess.Popen[bytes] | None = None
        self._stopper: weakref.finalize | None = None  # type: ignore[type-arg]
        self._pending = b""

    def __repr__(self) -> str:
        return f"Subprocess({self.command!r}, time_limit={self.time_limit})"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the bot's input (it should exit), then kill and reap it after a second."""
        self._end(grace=1.0)

    def _end(self, grace: float) -> None:
        proc, stopper = self._proc, self._stopper
        self._proc, self._stopper, self._pending = None, None, b""
        if stopper is not None:
            stopper.detach()
        if proc is not None:
            _stop(proc, grace)

    def _start(self) -> subprocess.Popen[bytes]:
        if self._proc is not None:
            if self._proc.poll() is None:
                return self._proc
            raise self._forfeit(self._gone("exited between moves"))
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                cwd=self.cwd,
                start_new_session=True,
            )
        except OSError as e:
            raise Forfeit(f"bot {self.name!r} could not start: {e.strerror or e}") from None
        assert proc.stdin is not None and proc.stdout is not None
        os.set_blocking(proc.stdin.fileno(), False)
        os.set_blocking(proc.stdout.fileno(), False)
        self._proc = proc
        # Killed and reaped when this object goes, or at exit.
        self._stopper = weakref.finalize(self, _stop, proc, 0.0)
        return proc

    def _forfeit(self, why: str) -> Forfeit:
        self._end(grace=0.0)
        return Forfeit(f"bot {self.name!r} {why}")

    def act(self, game: Game) -> Action:
        """The bot's move for the player to move in ``game`` (raises :class:`Forfeit`)."""
        message = request(game)
        legal = game.legal_actions()
        line = self._exchange(encode(message))
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError):
            raise self._forfeit(f"answered {_short(line)}, not JSON") from None
        choice = answer.get("action") if isinstance(answer, dict) else None
        if isinstance(choice, int) and not isinstance(choice, bool):
            found = [a for a in legal if a.id == choice]
        elif isinstance(choice, str):
            found = [a for a in legal if str(a) == choice]
        else:
            raise self._forfeit(f'answered {_short(line)}, not {{"action": notation or id}}')
        if not found:
            raise self._forfeit(f"chose {_short(str(choice))}, not a legal action")
        return found[0]

    def _exchange(self, data: bytes) -> bytes:
        """Send one request and read one answer line within the time limit."""
        if self._pending:
            raise self._forfeit("sent more than one answer line")
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        out, inp = proc.stdin.fileno(), proc.stdout.fileno()
        deadline = time.monotonic() + self.time_limit
        buffer = b""
        with selectors.DefaultSelector() as sel:
            sel.register(inp, selectors.EVENT_READ)
            if data:
                sel.register(out, selectors.EVENT_WRITE)
            while b"\n" not in buffer:
                if len(buffer) > MAX_ANSWER:
                    raise self._forfeit(f"sent an answer longer than {MAX_ANSWER} bytes")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._forfeit(f"did not answer within {self.time_limit:g} s")
                for key, _ in sel.select(left):
                    if key.fd == out:
                        try:
                            data = data[os.write(out, data[:65536]) :]
                        except BlockingIOError:
                            continue
                        except OSError:
                            raise self._forfeit(self._gone("stopped reading")) from None
                        if not data:
                            sel.unregister(out)
                        continue
                    try:
                        chunk = os.read(inp, 65536)
                    except BlockingIOError:
                        continue
                    except OSError:
                        chunk = b""
                    if not chunk:
                        raise self._forfeit(self._gone("closed its output"))
                    buffer += chunk
        line, _, self._pending = buffer.partition(b"\n")
        if len(line) > MAX_ANSWER:
            raise self._forfeit(f"sent an answer longer than {MAX_ANSWER} bytes")
        return line

    def _gone(self, what: str) -> str:
        """`what`, with the bot's exit code once it has one."""
        proc = self._proc
        code = None if proc is None else proc.poll()
        if code is None and proc is not None:
            try:
                code = proc.wait(0.1)
            except subprocess.TimeoutExpired:
                code = None
        return f"{what} (exit code {code})" if code is not None else what
