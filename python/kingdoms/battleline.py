"""Battle Line: 9 flags, 60 troop cards, 10 tactics cards, and exact claim proofs.

>>> from kingdoms.battleline import BattleLine, prove_claim
>>> g = BattleLine(seed=1)
>>> g.apply(g.legal_actions()[0])
>>> proof = prove_claim(["R7", "O7", "Y7"], ["B9"], ["B10", "B8", "G1"])
>>> bool(proof), proof.counterexample.kind
(False, 'wedge')

Cards are notation strings: troops ``<colour><value>`` with colours ``R O Y G B P`` and
values 1-10 (``"R10"``); tactics cards by name: ``Alexander Darius Cavalry Shield Fog Mud
Scout Redeploy Deserter Traitor``. Flags are numbered 0-8. The rules, with their ids, are in
``docs/rules/battle-line.md``; the state format, the action notation and ids and the
observation layout in ``docs/battleline.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kingdoms._kingdoms import BattleLine, ClaimProof, Formation
from kingdoms._kingdoms import battleline_best_formation as _best_formation
from kingdoms._kingdoms import battleline_proof_rate as _proof_rate
from kingdoms._kingdoms import battleline_prove_claim as _prove_claim
from kingdoms._svg.battleline import draw as DRAW
from kingdoms._types import BattleLineOptions as Options

# ---- the game's Python side (``kingdoms._games``) ----------------------------------------

#: The modes ``kingdoms bench battleline`` measures without ``--option``: label -> rules options.
BENCH_MODES: dict[str, dict[str, Any]] = {"": {}}


def observation_bounds(**options: Any) -> tuple[Any, Any]:
    """``(low, high)``: float32 arrays of the observation's shape bounding every entry under
    these rules options (computed in Rust beside the observation, as
    ``BattleLine(**options).observation_bounds()``)."""
    return BattleLine(seed=0, **options).observation_bounds()


__all__ = [
    "BENCH_MODES",
    "DRAW",
    "BattleLine",
    "ClaimProof",
    "Formation",
    "Options",
    "best_formation",
    "match_points",
    "observation_bounds",
    "prove_claim",
]


def best_formation(cards: Sequence[str], fog: bool = False) -> Formation:
    """The best formation of 1-4 cards, wild cards resolved in their owner's favour.

    Under Fog only the total counts (the kind is reported as ``"host"``).

    >>> best_formation(["Alexander", "R9", "R8"]).resolved
    ['R10', 'R9', 'R8']
    """
    return _best_formation(list(cards), fog)


def prove_claim(
    mine: Sequence[str],
    theirs: Sequence[str],
    unseen: Sequence[str],
    *,
    fog: bool = False,
    mud: bool = False,
    mine_completed_first: bool | None = None,
) -> ClaimProof:
    """Whether the complete side ``mine`` may claim a flag against ``theirs`` (rules BL-9).

    ``unseen``: the troop cards not visible on the table or in the discard pile (the
    claimant's own hand counts as unseen); tactics never enter a proof. Ties go to the side
    that completed first: give ``mine_completed_first`` when both sides are complete (an
    incomplete opposing side would complete later, so then it may stay ``None``).

    The result is truthy exactly when the claim holds; ``.mine`` is the claimant's
    formation, ``.counterexample`` a completion of the opponent's side that beats or ties it
    when the claim fails, and ``str(proof)`` explains the verdict.
    """
    return _prove_claim(
        list(mine),
        list(theirs),
        list(unseen),
        fog=fog,
        mud=mud,
        mine_completed_first=mine_completed_first,
    )


def match_points(winner: int | None, flags_won: tuple[int, int]) -> tuple[int, int]:
    """Match play scoring (BL-12.1): the winner scores 5, the loser 1 per flag it won.

    A drawn game (``winner=None``, BL-11.3) scores each player's flags. For a finished game
    ``g.match_points()`` gives the same from the game itself.
    """
    if winner not in (0, 1, None):
        raise ValueError(f"winner must be 0, 1 or None, not {winner!r}")
    a, b = flags_won
    if not (0 <= a <= 9 and 0 <= b <= 9 and a + b <= 9):
        raise ValueError(f"flags_won {flags_won!r}: two counts of flags, 9 in all at most")
    if winner == 0:
        return (5, b)
    if winner == 1:
        return (a, 5)
    return (a, b)


def bench_extras(seconds: float) -> dict[str, float]:
    """Battle Line's own figures for ``kingdoms bench``: claim proofs per second in Rust on
    one thread, typical (opponent one card short) and worst case (empty side, Mud)."""
    return {
        "claim proofs/s, typical": _proof_rate("typical", seconds),
        "claim proofs/s, worst case": _proof_rate("worst", seconds),
    }
