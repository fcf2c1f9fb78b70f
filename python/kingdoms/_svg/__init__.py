"""Pictures: SVG of every game and of hex maps, the replay page, HTML and plotted tournament
results. Drawn from the objects' public, documented data only (``to_dict()``, ``view(p)``,
``describe_action``, the map's accessors), so a player's picture holds what the player's view
holds and nothing else. The games' ``svg``/``_repr_svg_``, ``HexMap.svg`` and
``TournamentResult._repr_html_``/``plot`` call the functions here (docs/pictures.md).
"""

from __future__ import annotations

from typing import Any

from kingdoms._games import drawer
from kingdoms._kingdoms import KingdomsError
from kingdoms._svg.hexmap import hexmap_svg
from kingdoms._svg.results import plot_ratings, tournament_html
from kingdoms._svg.wrapper import SvgWrapper, record_html


def game_svg(
    game: Any, player: int | None = None, *, action: Any = None, highlight: Any = None
) -> str:
    """The SVG picture of ``game``: the whole state (``player=None``) or ``view(player)``."""
    # each game's picture is its module's DRAW (kingdoms._games), found from the registry
    draw = drawer(game.name)
    if draw is None:
        raise NotImplementedError(f"no picture for the game {game.name!r} yet")
    if player is None:
        state = game.to_dict()
        history = state.get("history")
        if isinstance(history, list) and history:
            # the whole state knows the last move; a player's view names it as seen
            state = {**state, "last_move": str(history[-1])}
    else:
        if isinstance(player, bool) or not isinstance(player, int):
            raise TypeError(f"player must be an int or None, got {type(player).__name__}")
        if not 0 <= player < game.num_players:
            raise KingdomsError(
                f"player {player} out of range: this game has {game.num_players} players"
                if abs(player) < 10**6
                else f"player out of range: this game has {game.num_players} players"
            )
        state = game.view(player)
    described = None
    if action is not None:
        # the action's description, and who would make it (public: the player to move)
        described = {**game.describe_action(action), "player": game.current_player}
    if highlight is None:
        marks: list[Any] = []
    elif isinstance(highlight, (str, int)):
        marks = [highlight]
    else:
        try:
            marks = list(highlight)
        except TypeError:
            raise TypeError(
                f"highlight must be a place or a list of places, got {type(highlight).__name__}"
            ) from None
    return SvgWrapper(draw(state, player, described, marks))


__all__ = [
    "SvgWrapper",
    "game_svg",
    "hexmap_svg",
    "plot_ratings",
    "record_html",
    "tournament_html",
]
