"""What a viewer can tell of a move: shared by ``kingdoms play`` and the replay page."""

from __future__ import annotations

import kingdoms
from kingdoms._text import move_text

WORLDS = 8
"""Positions drawn from a viewer's view to tell which moves that viewer can tell apart."""
MORE_WORLDS = 32
"""Positions drawn at most when the first ``WORLDS`` hold no move that fits the view after
(a move that shows a card few drawn positions hold)."""


def seen_move(before: kingdoms.Game, action: kingdoms.Action, viewer: int | None) -> str:
    """How `viewer` sees `action` played in `before` (None: everyone sees everything).

    A move shown in full reads as a person reads it (`move_text`: Zinordia's names).
    Decided from the viewer's views alone, never from the move itself: in positions drawn
    from the view before the move (fixed seeds), every legal move that leads to the view
    after it. When those all read alike, that notation is the move; when they differ, the
    move reads as its kind and "(secret)" (Zinordia's "pick (secret)", Arte's "hide
    (secret)"); when no drawn position holds a fitting move, "a secret move" — a move is
    never shown because the drawing missed it. A move whose mark on the view is not its own
    (Zinordia: an ability aimed at an empty zone leaves no trace of its target) reads as
    secret too.
    """
    mover = before.current_player
    if viewer is None or mover == viewer:
        return move_text(before, action)
    after = before.clone()
    after.apply(action)
    seen, target = before.position(viewer), after.position(viewer)
    fits: set[str] = set()
    for k in range(MORE_WORLDS):
        if k >= WORLDS and fits:
            break
        world = kingdoms.new_game(before.name, k, position=seen, **before.options)
        for b in world.legal_actions():
            moved = world.clone()
            moved.apply(b)
            if moved.position(viewer) == target:
                fits.add(str(b))
        if len(fits) > 1:
            break
    if fits == {str(action)}:
        return move_text(before, action)
    kinds = {f.split(" ")[0] for f in fits}
    return f"{kinds.pop()} (secret)" if len(kinds) == 1 and len(fits) > 1 else "a secret move"


__all__ = ["MORE_WORLDS", "WORLDS", "seen_move"]
