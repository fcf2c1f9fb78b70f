"""kingdoms: fast, exact rules engines for tactical card and board games.

>>> import kingdoms
>>> g = kingdoms.new_game("battleline", seed=1)
>>> g.apply(g.legal_actions()[0])

Every game implements one protocol (:class:`kingdoms.protocol.GameProtocol`): seeded
construction, legal actions, apply, terminal/winner/returns, copies and pickling, full-state
dicts and JSON, per-player views, determinization, numpy observations and action masks over a
fixed action space, text notation for every action, and records that replay exactly.
"""

from __future__ import annotations

# The game, map, agent, batch and type modules, so `kingdoms.battleline.BattleLine` and
# `kingdoms.agents.ISMCTS()` work after `import kingdoms`.
from kingdoms import agents, arte, batch, battleline, hex, strifull, types, zinordia
from kingdoms._kingdoms import (
    WDL,
    Action,
    ArgumentError,
    DataError,
    EloRating,
    Game,
    GameResult,
    IllegalActionError,
    KingdomsError,
    NotationError,
    Record,
    RulesOptionError,
    SimulationStats,
    StateError,
    TournamentResult,
    __version__,
    from_dict,
    from_json,
    games,
    new_game,
    play_match,
    replay,
    simulate,
)
from kingdoms._tournament import tournament
from kingdoms.records import GameRecord, read_records, write_records

__all__ = [
    "WDL",
    "Action",
    "ArgumentError",
    "DataError",
    "EloRating",
    "Game",
    "GameRecord",
    "GameResult",
    "IllegalActionError",
    "KingdomsError",
    "NotationError",
    "Record",
    "RulesOptionError",
    "SimulationStats",
    "StateError",
    "TournamentResult",
    "__version__",
    "agents",
    "arte",
    "batch",
    "battleline",
    "from_dict",
    "from_json",
    "games",
    "hex",
    "new_game",
    "play_match",
    "read_records",
    "replay",
    "simulate",
    "strifull",
    "tournament",
    "types",
    "write_records",
    "zinordia",
]
