"""What a viewer can tell of a move: shared by ``kingdoms play``, the replay page and
``kingdoms serve``. The rules decide it (``Game.action_seen``, from each game's information
section); this module only dresses a move seen whole as a person reads it."""

from __future__ import annotations

import kingdoms
from kingdoms._text import move_text


def seen_move(before: kingdoms.Game, action: kingdoms.Action, viewer: int | None) -> str:
    """How `viewer` sees `action` played in `before` (None: everyone sees everything).

    A move the viewer sees whole (``before.action_seen(viewer, action)`` is its notation; the
    mover always does) reads as a person reads it (`move_text`: Zinordia's names); any other
    reads as the rules' public part of it, "pick (secret)", "return troop (secret)".
    """
    if viewer is None:
        return move_text(before, action)
    seen = before.action_seen(viewer, action)
    return move_text(before, action) if seen == str(action) else seen


__all__ = ["seen_move"]
