"""What a viewer can tell of a move: shared by ``kingdoms play`` and the replay page."""

from __future__ import annotations

import kingdoms

WORLDS = 8
"""Positions drawn from a viewer's view to tell which moves that viewer can tell apart."""


def seen_move(before: kingdoms.Game, action: kingdoms.Action, viewer: int | None) -> str:
    """How `viewer` sees `action` played in `before` (None: everyone sees everything).

    The move's notation when the viewer's view after it tells it apart, else its kind and
    "(secret)" (Zinordia's "pick (secret)", a Scout's "return (secret)"). Decided from the
    viewer's views alone: in positions drawn from the view before the move (fixed seeds),
    every legal move that leads to the view after it; when they all read alike, that is
    the move (when none does — a move that shows a card no drawn position held — the move
    shows itself). A move whose mark on the view is not its own (Zinordia: an ability aimed
    at an empty zone leaves no trace of its target) reads as secret too.
    """
    mover = before.current_player
    if viewer is None or mover == viewer:
        return str(action)
    after = before.clone()
    after.apply(action)
    seen, target = before.position(viewer), after.position(viewer)
    fits: set[str] = set()
    for k in range(WORLDS):
        world = kingdoms.new_game(before.name, k, position=seen, **before.options)
        for b in world.legal_actions():
            moved = world.clone()
            moved.apply(b)
            if moved.position(viewer) == target:
                fits.add(str(b))
        if len(fits) > 1:
            break
    if not fits or fits == {str(action)}:
        return str(action)
    kinds = {f.split(" ")[0] for f in fits}
    return f"{kinds.pop()} (secret)" if len(kinds) == 1 else "a secret move"


__all__ = ["WORLDS", "seen_move"]
