"""Where each legal move is clicked on the picture.

A move is a list of *steps*, each naming one element of the seat's picture by a data
attribute (``card=R10``, ``flag=3``, ``place=0 aB2``, ``hex=1,-2``): Battle Line's
``R10@3`` is the card R10, then flag 3. The page highlights the first steps of the legal
moves, narrows them as the player clicks, and plays the move whose steps are all clicked
(several moves with the same steps are offered as buttons). A move the picture cannot show
(``pass``, ``done``, Zinordia's picks) has no step and is played from the list beside it.

Steps are built from the move's public description (``describe_action``) and from the
seat's view only (where a Zinordia Star stands), so they tell nothing the view does not.
"""

from __future__ import annotations

from typing import Any

import kingdoms


def _hex(zone: Any) -> str:
    if isinstance(zone, (list, tuple)):
        return f"hex={zone[0]},{zone[1]}"
    return f"hex={zone}"


def _battleline(d: dict[str, Any], text: str, seat: int, view: dict[str, Any]) -> list[str]:
    kind = d.get("kind")
    card = d.get("card")
    if kind == "play":
        return [f"card={card}", f"flag={d['flag']}"]
    if kind == "scout":
        return ["card=Scout"]
    if kind in ("redeploy", "traitor"):
        to = d.get("to")
        where = "place=discard" if to == "discard" or to is None else f"flag={to}"
        tactic = "Redeploy" if kind == "redeploy" else "Traitor"
        return [f"card={tactic}", f"card={card}", where]
    if kind == "deserter":
        return ["card=Deserter", f"card={card}"]
    if kind == "claim":
        return [f"flag={d['flag']}"]
    if kind == "draw":
        return [f"place={d['deck']}_deck"]
    if kind == "return":
        return [f"card={card}"]
    return []


def _strifull(d: dict[str, Any], text: str, seat: int, view: dict[str, Any]) -> list[str]:
    kind = d.get("kind")
    own = f"place={seat} "
    foe = f"place={1 - seat} "
    if kind == "swap":
        return [own + c for c in d["cells"]]
    if kind in ("swap_pile", "replace"):
        return [own + d["cell"]]
    if kind == "move":
        return [own + d["from"], own + d["to"]]
    if kind == "ability":
        return [(foe if d.get("side") == "foe" else own) + d["cell"]]
    if kind == "attack":
        return [own + d["attacker"], foe + d["target"]]
    return []


def _arte(d: dict[str, Any], text: str, seat: int, view: dict[str, Any]) -> list[str]:
    kind = d.get("kind")
    card = d.get("card")
    own = f"place={seat} "
    if kind == "hide":
        return [f"card={card}"]
    if kind == "take":
        if d.get("face_down"):
            draft = view.get("draft") or {}
            slots = draft.get("slots") or []
            taken = draft.get("taken") or [None] * len(slots)
            hidden = draft.get("hidden")
            if isinstance(hidden, int):
                return [f"place=draft {hidden}"]
            free = [i for i, c in enumerate(slots) if c is None and taken[i] is None]
            return [f"place=draft {free[0]}"] if len(free) == 1 else []
        return [f"card={card}"]
    if kind in ("place", "pick"):
        return [f"card={card}", own + f"row {d['row']}"]
    if kind == "deploy":
        return [f"card={card}", own + d["cell"]]
    if kind in ("attack", "defend"):
        return [own + d["cell"]]
    return []


def _zinordia(d: dict[str, Any], text: str, seat: int, view: dict[str, Any]) -> list[str]:
    kind = d.get("kind")
    if kind in ("place", "move", "use"):
        return [_hex(d["zone"])]
    if kind == "play":
        picks = view.get("picks") or []
        stars = view.get("stars") or []
        index = sum(len(picks[q]) for q in range(seat)) + int(d["slot"]) - 1
        if 0 <= index < len(stars) and stars[index].get("zone") is not None:
            return [_hex(stars[index]["zone"])]
    return []


STEPS = {
    "battleline": _battleline,
    "strifull": _strifull,
    "arte": _arte,
    "zinordia": _zinordia,
}


def steps(
    game: kingdoms.Game, action: kingdoms.Action, seat: int, view: dict[str, Any]
) -> list[str]:
    """The picture elements `seat` clicks, in order, to play `action` (none: list only)."""
    make = STEPS.get(game.name)
    if make is None:
        return []
    return make(game.describe_action(action), str(action), seat, view)


__all__ = ["STEPS", "steps"]
