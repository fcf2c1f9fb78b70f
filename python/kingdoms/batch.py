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

Compact observations: ``Batch("battleline", n, obs_dtype="uint8")`` writes each
observation element as the whole number it is a fraction of (every Battle Line element is
a count over a fixed divisor: a flag over 1, the troop deck over 60, ...), a quarter of
the float32 bytes. :attr:`Batch.obs_divisors` holds the divisors, and
``obs / env.obs_divisors`` (:meth:`Batch.decode`) is the float32 observation, bit for bit.

>>> env8 = Batch("battleline", 1024, seed=0, obs_dtype="uint8")
>>> obs8, mask8, _ = env8.reset()
>>> obs8.dtype, bool((env8.decode(obs8) == obs).all()), bool((mask8 == mask).all())
(dtype('uint8'), True, True)

Packed masks: ``Batch(..., mask="bits")`` writes each game's mask as bits, eight action
ids a byte, laid out as ``np.packbits(mask, axis=-1, bitorder="little")`` (id ``a`` is bit
``a % 8`` of byte ``a // 8``): uint8 arrays of shape ``(num_games, ceil(num_actions / 8))``,
an eighth of the bool mask's bytes. :meth:`Batch.unpack_mask` restores the bool mask and
:func:`random_legal_ids` draws a uniformly random legal id per game from the packed bytes.

>>> envb = Batch("battleline", 1024, seed=0, mask="bits")
>>> bits = envb.reset().mask
>>> bits.dtype, bits.shape, bool((envb.unpack_mask(bits) == mask).all())
(dtype('uint8'), (1024, 250), True)
>>> ids = random_legal_ids(bits, rng)
>>> bool(mask[np.arange(1024), ids].all())
True
"""

from __future__ import annotations

from typing import Any, NamedTuple, cast

import numpy as np
import numpy.typing as npt

from kingdoms._kingdoms import Batch as _Batch
from kingdoms._kingdoms import Game
from kingdoms.agents import RustAgent

__all__ = ["Batch", "Observation", "Step", "random_legal_ids"]

# Set bits of each byte value, and the position (0-7, from the least significant bit) of
# each byte value's j-th set bit: the tables `random_legal_ids` reads.
_POPCOUNT = np.array([b.bit_count() for b in range(256)], np.int16)
_NTH_BIT = np.zeros((256, 8), np.int64)
for _b in range(256):
    _ones = [j for j in range(8) if _b >> j & 1]
    _NTH_BIT[_b, : len(_ones)] = _ones


def random_legal_ids(
    bits: npt.NDArray[np.uint8], rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """One uniformly random legal id per row of packed masks (``Batch(..., mask="bits")``),
    read from the packed bytes alone: per row, the ``k``-th legal id for a uniform ``k``,
    found through running counts of set bits per byte. Raises ``ValueError`` for a row
    with no legal id."""
    bits = np.asarray(bits, np.uint8)
    counts = _POPCOUNT[bits]  # legal ids in each byte
    ends = counts.cumsum(axis=1, dtype=np.int16)  # legal ids up to each byte, inclusive
    total = ends[:, -1]
    if (total == 0).any():
        raise ValueError(f"row {int(np.argmax(total == 0))} of the mask has no legal id")
    k = (rng.random(len(bits)) * total).astype(np.int16)  # which legal id of its row
    byte = (ends <= k[:, None]).sum(axis=1)  # the byte holding it
    rows = np.arange(len(bits))
    rank = k - (ends[rows, byte] - counts[rows, byte])  # its rank among its byte's bits
    ids: npt.NDArray[np.int64] = byte * 8 + _NTH_BIT[bits[rows, byte], rank]
    return ids


class Observation(NamedTuple):
    """The current positions: what :meth:`Batch.reset` and :meth:`Batch.observe` return."""

    obs: npt.NDArray[Any]
    """``(num_games, *observation_shape)``: each game's player to move's observation
    (float32, or uint8 with ``obs_dtype="uint8"``)."""
    mask: npt.NDArray[Any]
    """``(num_games, num_actions)`` bool: True where an action id is legal; with
    ``mask="bits"``, ``(num_games, ceil(num_actions / 8))`` uint8, those flags packed."""
    player: npt.NDArray[np.int64]
    """``(num_games,)``: the player to move."""


class Step(NamedTuple):
    """What :meth:`Batch.step` returns."""

    obs: npt.NDArray[Any]
    """``(num_games, *observation_shape)``, after the step (of the new game after a done);
    of the batch's ``obs_dtype``."""
    mask: npt.NDArray[Any]
    """``(num_games, num_actions)`` bool, or packed (``mask="bits"``): as in
    :class:`Observation`."""
    player: npt.NDArray[np.int64]
    """``(num_games,)``: the player to move now."""
    rewards: npt.NDArray[np.float32]
    """``(num_games, num_players)``: the final returns of games that ended in this step
    (two players: win 1, loss -1, draw 0; see each game for more seats and teams), zero
    elsewhere."""
    dones: npt.NDArray[np.bool_]
    """``(num_games,)``: True where a game ended in this step (and was restarted)."""
    final_obs: npt.NDArray[Any]
    """``(num_games, *observation_shape)``: where ``dones``, the ended game's last
    observation for the player who moved in this step (the learner, with an opponent).
    Other rows: zeros in a fresh result; left as they were in ``out=`` buffers."""


class Batch:
    """``num_games`` games of ``game`` (a name; ``**options`` are its rules options).

    ``obs_dtype``: ``np.float32`` (the default), or ``np.uint8`` for the compact
    observation of a game that has one (Battle Line). ``mask``: ``"bool"`` (the default, a
    flag per action id) or ``"bits"`` (packed eight ids a byte, every game).
    ``illegal_action``: ``"raise"`` (the default: an illegal id refuses the whole step) or
    ``"lose"`` (that game ends as a loss for its mover, return -1, and restarts). See the
    module's docstring."""

    def __init__(
        self,
        game: str,
        num_games: int,
        seed: int = 0,
        *,
        opponent: RustAgent | None = None,
        seat: int | None = None,
        threads: int | None = None,
        obs_dtype: npt.DTypeLike = np.float32,
        mask: str = "bool",
        illegal_action: str = "raise",
        **options: Any,
    ) -> None:
        try:
            dtype = np.dtype(obs_dtype).name
        except TypeError:
            raise ValueError(f"obs_dtype must be float32 or uint8, not {obs_dtype!r}") from None
        self._inner = _Batch(
            game,
            num_games,
            seed,
            opponent=opponent,
            seat=seat,
            threads=threads,
            obs_dtype=dtype,
            mask=mask,
            illegal_action=illegal_action,
            **options,
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
    def obs_dtype(self) -> np.dtype[Any]:
        """The observations' dtype: float32, or uint8 (the compact observation)."""
        return np.dtype(self._inner.obs_dtype)

    @property
    def obs_divisors(self) -> npt.NDArray[np.float32] | None:
        """float32, of shape ``observation_shape``: the compact observation divided by it is
        the float32 one, exactly (None for a game without a compact observation)."""
        return self._inner.obs_divisors

    def decode(self, obs: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
        """Observations of this batch (``(..., *observation_shape)``) as float32: a copy of
        float32 ones, compact ones divided by :attr:`obs_divisors` (the float32 observation,
        bit for bit)."""
        divisors = self.obs_divisors
        if obs.dtype == np.float32 or divisors is None:
            return np.array(obs, np.float32)
        return cast(npt.NDArray[np.float32], np.divide(obs, divisors, dtype=np.float32))

    @property
    def mask_format(self) -> str:
        """``"bool"`` (a flag per action id) or ``"bits"`` (packed: see the module's
        docstring)."""
        return self._inner.mask_format

    @property
    def mask_shape(self) -> tuple[int, int]:
        """The masks' shape: ``(num_games, num_actions)``, or with ``mask="bits"``
        ``(num_games, ceil(num_actions / 8))``."""
        per_game = self.num_actions
        if self.mask_format == "bits":
            per_game = -(-per_game // 8)
        return (self.num_games, per_game)

    def unpack_mask(self, mask: npt.NDArray[Any]) -> npt.NDArray[np.bool_]:
        """Masks of this batch (``(..., per_game)``) as bool flags ``(..., num_actions)``:
        packed ones unpacked (``np.unpackbits(mask, axis=-1, count=num_actions,
        bitorder="little")``), bool ones copied."""
        if mask.dtype == np.bool_:
            return np.array(mask)
        flags = np.unpackbits(mask, axis=-1, count=self.num_actions, bitorder="little")
        return flags.view(np.bool_)

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
        n, shape, dtype = self.num_games, self.observation_shape, self.obs_dtype
        return Step(
            obs=np.zeros((n, *shape), dtype),
            mask=np.zeros(self.mask_shape, np.uint8 if self.mask_format == "bits" else np.bool_),
            player=np.zeros(n, np.int64),
            rewards=np.zeros((n, self.num_players), np.float32),
            dones=np.zeros(n, np.bool_),
            final_obs=np.zeros((n, *shape), dtype),
        )

    def step(self, actions: npt.ArrayLike, out: Step | None = None) -> Step:
        """Play ``actions[i]`` (an action id) in game ``i``. Every action is checked first:
        an illegal one raises :class:`~kingdoms.IllegalActionError` naming the game and
        the id, and nothing is played (with ``illegal_action="lose"``, that game ends as a
        loss for its mover instead). Float ids raise ``TypeError``.

        With ``out`` (from :meth:`buffers`, or any C-contiguous arrays of those shapes and
        dtypes) the results are written into it and it is returned: nothing is allocated."""
        ids = np.asarray(actions)
        if ids.dtype.kind not in "iu":  # a float id is refused, never truncated
            raise TypeError(f"actions must be integer ids, got dtype {ids.dtype}")
        ids = np.ascontiguousarray(ids, dtype=np.int64)
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
