"""Many games stepped together, for reinforcement learning.

:class:`Batch` holds ``num_games`` games of one kind. Each :meth:`Batch.step` takes one
action id per game (an int array) and returns stacked numpy arrays: the observations of the
players to move, their legal-action masks, who is to move, the returns of games that just
ended and done flags. A game that ends is replaced at once by a new one (auto-reset), so
the observation returned with ``done`` is the new game's first position, and the ended
game's last observation (of the player who moved) is in ``final_obs`` (Gymnasium's
"same-step" autoreset). The stepping and the filling of the arrays run in Rust with the
GIL released, on all cores for large batches; the arrays are handed over without a copy.

For speed, ``step(actions, out=buffers)`` writes into arrays you own (from
:meth:`Batch.buffers`) instead of allocating new ones each call.

>>> import numpy as np
>>> from kingdoms.batch import Batch
>>> env = Batch("battleline", 1024, seed=0)
>>> obs, mask, player = env.reset()
>>> rng = np.random.default_rng(0)
>>> actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
>>> step = env.step(actions)
>>> step.obs.shape[0], step.rewards.shape
(1024, (1024, 2))

Self-play is the default: every move is the learner's and ``player`` says whose turn it
is. With ``opponent=`` (a built-in agent) the learner plays one seat of each game and the
opponent plays every other seat (in a team game, the learner's partners too), its moves
played in Rust inside the same call. The learner's seat is ``seat``, or, when ``seat`` is
None, seat ``(i + finished) % num_players`` in slot ``i`` (``finished``: that slot's games
played to the end), so seats rotate from game to game and across slots.

Any number of players: ``rewards`` has a column per player, each player's return when a
game ends; in a team game partners share their team's return.

Seeding: slot ``i`` draws the seeds of its successive games from a stream of its own
under ``seed``, so a run depends only on ``seed`` and the actions, never on threads.
``reset(seed=s)`` restarts every stream under ``s``: the batch is then exactly as
``Batch(game, n, seed=s)`` starts.

Value ranges of the observations: see each game's documentation (``docs/<game>.md``,
"Observation") and :func:`kingdoms.envs.observation_bounds`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from kingdoms._kingdoms import Batch as _Batch
from kingdoms._kingdoms import Game
from kingdoms.agents import RustAgent

__all__ = ["Batch", "Observation", "Step"]


class Observation(NamedTuple):
    """The current positions: what :meth:`Batch.reset` and :meth:`Batch.observe` return."""

    obs: npt.NDArray[np.float32]
    """``(num_games, *observation_shape)``: each game's player to move's observation."""
    mask: npt.NDArray[np.bool_]
    """``(num_games, num_actions)``: True where an action id is legal."""
    player: npt.NDArray[np.int64]
    """``(num_games,)``: the player to move."""


class Step(NamedTuple):
    """What :meth:`Batch.step` returns."""

    obs: npt.NDArray[np.float32]
    """``(num_games, *observation_shape)``, after the step (of the new game after a done)."""
    mask: npt.NDArray[np.bool_]
    """``(num_games, num_actions)``."""
    player: npt.NDArray[np.int64]
    """``(num_games,)``: the player to move now."""
    rewards: npt.NDArray[np.float32]
    """``(num_games, num_players)``: the final returns of games that ended in this step
    (two players: win 1, loss -1, draw 0; see each game for more seats and teams), zero
    elsewhere."""
    dones: npt.NDArray[np.bool_]
    """``(num_games,)``: True where a game ended in this step (and was restarted)."""
    final_obs: npt.NDArray[np.float32]
    """``(num_games, *observation_shape)``: where ``dones``, the ended game's last
    observation for the player who moved in this step (the learner, with an opponent).
    Other rows: zeros in a fresh result; left as they were in ``out=`` buffers."""


class Batch:
    """``num_games`` games of ``game`` (a name; ``**options`` are its rules options)."""

    def __init__(
        self,
        game: str,
        num_games: int,
        seed: int = 0,
        *,
        opponent: RustAgent | None = None,
        seat: int | None = None,
        threads: int | None = None,
        **options: Any,
    ) -> None:
        self._inner = _Batch(
            game, num_games, seed, opponent=opponent, seat=seat, threads=threads, **options
        )

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def num_games(self) -> int:
        return self._inner.num_games

    def __len__(self) -> int:
        return self._inner.num_games

    @property
    def seed(self) -> int:
        return self._inner.seed

    @property
    def observation_shape(self) -> list[int]:
        return self._inner.observation_shape

    @property
    def num_actions(self) -> int:
        return self._inner.num_actions

    @property
    def num_players(self) -> int:
        return self._inner.num_players

    @property
    def episodes(self) -> int:
        """Games played to their end so far, over all slots (not those ``reset`` abandons)."""
        return self._inner.episodes

    def learner_seats(self) -> npt.NDArray[np.int64]:
        """The learner's seat in each slot's current game (meaningful with an opponent)."""
        return self._inner.learner_seats()

    def reset(self, seed: int | None = None) -> Observation:
        """Start a new game in every slot: continuing each slot's seed stream, or, with
        ``seed``, restarting every stream under it (as a new ``Batch`` with that seed)."""
        return Observation(*self._inner.reset(seed))

    def observe(self) -> Observation:
        """The current positions, unchanged."""
        return Observation(*self._inner.observe())

    def buffers(self) -> Step:
        """Zeroed arrays of the shapes and dtypes :meth:`step` returns, to pass as ``out=``."""
        n, shape = self.num_games, self.observation_shape
        return Step(
            obs=np.zeros((n, *shape), np.float32),
            mask=np.zeros((n, self.num_actions), np.bool_),
            player=np.zeros(n, np.int64),
            rewards=np.zeros((n, self.num_players), np.float32),
            dones=np.zeros(n, np.bool_),
            final_obs=np.zeros((n, *shape), np.float32),
        )

    def step(self, actions: npt.ArrayLike, out: Step | None = None) -> Step:
        """Play ``actions[i]`` (an action id) in game ``i``. Every action is checked first:
        an illegal one raises :class:`~kingdoms.IllegalActionError` naming the game and
        the id, and nothing is played.

        With ``out`` (from :meth:`buffers`, or any C-contiguous arrays of those shapes and
        dtypes) the results are written into it and it is returned: nothing is allocated."""
        ids = np.ascontiguousarray(actions, dtype=np.int64)
        if ids.ndim != 1:
            raise ValueError(f"actions must be one id per game, shape ({len(self)},)")
        if out is None:
            return Step(*self._inner.step(ids))
        if not isinstance(out, Step):
            raise TypeError("out must be a kingdoms.batch.Step of arrays (see Batch.buffers)")
        self._inner.step_into(ids, *out)
        return out

    def game(self, i: int) -> Game:
        """A copy of slot ``i``'s current game, with its history (``record()`` works)."""
        return self._inner.game(i)

    def __repr__(self) -> str:
        return repr(self._inner)
