"""What the page offers: the games, their modes and options (Zinordia's modes and maps,
STRIFULL's factions and leaders, Arte da Guerra's card set and readings, all from the
reference data), and the agents a seat may take. `options_of` checks a page's choice
against this list, so a page can only ask for what is offered (no file options)."""

from __future__ import annotations

import functools
import sys
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the serve extra installs tomli there
    import tomli as tomllib

import kingdoms

#: Built-in agents offered for a seat (any built-in spec is accepted, e.g. `ismcts:5000`).
AGENTS = [
    ("ismcts", "ISMCTS search (1000 iterations, the default)"),
    ("ismcts:4000", "ISMCTS search, 4000 iterations"),
    ("ismcts:300", "ISMCTS search, 300 iterations (quick)"),
    ("heuristic", "heuristic (instant)"),
    ("greedy", "greedy"),
    ("random", "random"),
]


def _choice(key: str, label: str, values: list[tuple[Any, str]]) -> dict[str, Any]:
    return {"key": key, "label": label, "choices": [{"value": v, "label": t} for v, t in values]}


@functools.lru_cache(maxsize=1)
def _options() -> dict[str, list[dict[str, Any]]]:
    from kingdoms import strifull, zinordia

    cards = strifull.card_set()
    factions = [(f["id"], f["name"]) for f in cards["factions"]]
    leaders: list[tuple[Any, str]] = [(None, "the faction's first leader")]
    leaders += [(ld["id"], f"{ld['name']} ({ld.get('faction', '')})") for ld in cards["leaders"]]
    files = zinordia.reference_files()
    modes = tomllib.loads(files["modes.toml"])["modes"]
    mode_choices: list[tuple[Any, str]] = []
    for m in modes:
        for n in m["players"]:
            mode_choices.append((f"{m['id']}/{n}", f"{m['name']}: {n} players — {m['text']}"))
    maps: list[tuple[Any, str]] = [(None, "the mode's map")]
    for path, text in sorted(files.items()):
        if path.startswith("maps/"):
            data = tomllib.loads(text)
            maps.append((data.get("id", path[5:-5]), data.get("name", path[5:-5])))
    yes_no: list[tuple[Any, str]] = [(False, "no"), (True, "yes")]
    return {
        "battleline": [
            _choice("traitor_troops_only", "Traitor takes troops only", yes_no),
            _choice("claim_at_turn_start", "claims at the start of the turn", yes_no),
        ],
        "strifull": [
            _choice("faction0", "player 0's faction", [(None, "default"), *factions]),
            _choice("faction1", "player 1's faction", [(None, "default"), *factions]),
            _choice("leader0", "player 0's leader", leaders),
            _choice("leader1", "player 1's leader", leaders),
            _choice(
                "deck", "decks", [("recommended", "recommended"), ("random", "random from the set")]
            ),
        ],
        "arte": [
            _choice(
                "deployment",
                "deployment",
                [("simultaneous", "simultaneous, secret"), ("alternating", "alternating, open")],
            ),
            _choice(
                "sudden_death_row", "sudden-death row", [("chosen", "chosen"), ("front", "front")]
            ),
        ],
        "zinordia": [
            _choice("mode", "mode", mode_choices),
            _choice("map", "map", maps),
            _choice(
                "selection",
                "Star selection",
                [("secret", "secret, then revealed"), ("draft", "open draft")],
            ),
            _choice("placement", "placement", [("alternate", "alternate"), ("blocks", "blocks")]),
            _choice(
                "max_rounds",
                "game length",
                [(None, "30 rounds (the default)"), (16, "16 rounds"), (8, "8 rounds (quick)")],
            ),
        ],
    }


def catalogue(bots: dict[str, str]) -> dict[str, Any]:
    """The games with their options and seats, and the agents a seat may take."""
    games = []
    for name in kingdoms.games():
        games.append({"name": name, "options": _options().get(name, [])})
    agents = [{"spec": s, "label": t} for s, t in AGENTS]
    agents += [{"spec": name, "label": f"bot {name}"} for name in sorted(bots)]
    return {"games": games, "agents": agents}


def options_of(name: str, given: Any) -> dict[str, Any]:
    """The rules options for `name` from a page's choices: each key must be offered and
    each value one of its choices; a `KingdomsError` naming the key otherwise."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise kingdoms.KingdomsError("options: an object of choices expected")
    offered = {o["key"]: [c["value"] for c in o["choices"]] for o in _options().get(name, [])}
    chosen: dict[str, Any] = {}
    for key, value in given.items():
        if key not in offered:
            raise kingdoms.KingdomsError(f"options: {name} has no choice {str(key)[:40]!r}")
        if value not in offered[key] or isinstance(value, bool) != isinstance(
            offered[key][0], bool
        ):
            raise kingdoms.KingdomsError(f"options: {str(value)[:40]!r} is not a choice of {key}")
        chosen[key] = value
    if name == "strifull":
        out: dict[str, Any] = {}
        factions = [chosen.pop("faction0", None), chosen.pop("faction1", None)]
        leaders = [chosen.pop("leader0", None), chosen.pop("leader1", None)]
        if any(f is not None for f in factions):
            out["factions"] = factions
        if any(ld is not None for ld in leaders):
            out["leaders"] = leaders
        deck = chosen.pop("deck", None)
        if deck is not None:
            out["decks"] = [deck, deck]
        return out
    if name == "zinordia":
        mode = chosen.pop("mode", None)
        if mode is not None:
            mode_id, _, players = mode.partition("/")
            chosen["mode"] = mode_id
            chosen["players"] = int(players)
        for key in ("map", "max_rounds"):  # None: the game's default
            if chosen.get(key) is None:
                chosen.pop(key, None)
    return chosen


__all__ = ["AGENTS", "catalogue", "options_of"]
