"""Types of the games' rules options and saved states, for type checkers.

The options are the keyword arguments of ``kingdoms.new_game(name, ...)`` and of each game's
class (``**options: Unpack[BattleLineOptions]``), so a misspelt option or a wrong value type
is an error before the code runs. The states are what ``to_dict()`` and ``view(player)``
return (their formats: ``docs/<game>.md``); in a view, what the player may not see is
``None``. Tests check every key against the running engine (``tests/test_typing.py``).
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

__all__ = [
    "ArteOptions",
    "ArtePlayer",
    "ArteState",
    "ArteView",
    "BattleLineFlag",
    "BattleLineOptions",
    "BattleLineState",
    "BattleLineView",
    "GreedyOptions",
    "IsmctsOptions",
    "StrifullOptions",
    "StrifullSide",
    "StrifullState",
    "StrifullView",
    "ZinordiaEffect",
    "ZinordiaOptions",
    "ZinordiaStar",
    "ZinordiaState",
    "ZinordiaView",
]

# ---- the last move (docs/protocol.md, "Hidden information") ----


class SavedLastMove(TypedDict):
    """A state without a history keeps its last move as each player saw it."""

    seen: list[str]
    public: str


class _SeenLastMove(TypedDict, total=False):
    """``view(p)["last_move"]``: the last move as player ``p`` saw it (once there is one)."""

    last_move: str


class _SavedLast(TypedDict, total=False):
    """``to_dict()["last_move"]``: only in a state without a history (a determinization)."""

    last_move: SavedLastMove


# ---- the agents' settings (kingdoms.agents; agent_options(kind) lists them) ----


class GreedyOptions(TypedDict, total=False):
    """``Greedy``'s keywords (``kingdoms.agents.agent_options("greedy")``)."""

    samples: int | None
    settle: bool | None
    seed: int


class IsmctsOptions(TypedDict, total=False):
    """``ISMCTS``'s keywords (``kingdoms.agents.agent_options("ismcts")``); ``time`` is
    ``time_limit`` and ``c`` is ``exploration`` under their short names."""

    iterations: int | None
    time_limit: float | None
    exploration: float | None
    rollout_depth: int | None
    expand_samples: int | None
    widening: float | None
    settle: bool | None
    settle_heuristic: bool
    settle_turns: int | None
    routine: bool | None
    halving: int | None
    first_reply_expand: int | None
    finalist_depth: int | None
    finalist_expand: int | None
    finalist_heuristic: bool | None
    model: str | None
    model_prior: bool
    model_blend: float
    seed: int
    time: float | None


# ---- Battle Line (docs/battleline.md) ----


class BattleLineOptions(TypedDict, total=False):
    """Battle Line's rules options (docs/rules/battle-line.md)."""

    traitor_troops_only: bool
    claim_at_turn_start: bool
    first_player: int


class BattleLineEnv(TypedDict):
    """Fog or Mud beside a flag, and the side that played it."""

    card: str
    side: int


class BattleLineFlag(TypedDict):
    """One flag: each side's cards in play order, Fog/Mud beside it, who claimed it."""

    sides: list[list[str]]
    env: list[BattleLineEnv]
    claimed: int | None
    first_complete: int | None


class BattleLineHandCount(TypedDict):
    troops: int
    tactics: int


class BattleLineKnown(TypedDict):
    """What a player knows through Scout (BL-8.1)."""

    troop_deck: list[int]
    tactics_deck: list[int]
    opponent_hand: list[str]


class BattleLinePlay(TypedDict):
    """A troop put on a flag: a player's latest turn, when it was one."""

    card: str
    flag: int


class _BattleLinePosition(TypedDict):
    game: str
    options: BattleLineOptions
    flags: list[BattleLineFlag]
    hand_counts: list[BattleLineHandCount]
    discard: list[str]
    to_move: int | None
    phase: Literal["play", "claim", "draw", "scout_draw", "scout_return", "over"]
    scout: dict[str, int] | None
    tactics_played: list[int]
    leader_played: list[bool]
    pass_streak: int
    winner: int | None
    scout_known: list[BattleLineKnown]
    last_troop_play: list[BattleLinePlay | None]


class BattleLineState(_BattleLinePosition, _SavedLast):
    """``BattleLine.to_dict()``: the full state."""

    seed: int
    history: list[str] | None
    hands: list[list[str]]
    troop_deck: list[str]
    tactics_deck: list[str]


class BattleLineView(_BattleLinePosition, _SeenLastMove):
    """``BattleLine.view(player)``: unseen cards are ``None`` (lists keep their length)."""

    hands: list[list[str | None]]
    troop_deck: list[str | None]
    tactics_deck: list[str | None]


# ---- STRIFULL (docs/strifull.md) ----

DeckChoice = Literal["recommended", "random"] | list[str] | dict[str, int]


class StrifullOptions(TypedDict, total=False):
    """STRIFULL's setup and rules options (docs/strifull.md)."""

    factions: list[str | None]
    leaders: list[str | None]
    decks: list[DeckChoice]
    cards_file: str | None
    cards_toml: str | None
    tie_is_defeat: bool
    dead_cells_open_flanks: bool
    moves_in_leader_row_only: bool
    mutual_wipeout: Literal["draw", "attacker_wins"]


class _StrifullCellGrowth(TypedDict, total=False):
    #: SK-9.1: each growth source's own [atk, def] counters (left out when there are none).
    growth: dict[str, list[int]]


class StrifullCell(_StrifullCellGrowth):
    """A troop on the field (``card`` is ``None`` in a view when it is face down)."""

    card: str | None
    revealed: bool
    counters: list[int]


class StrifullSide(TypedDict):
    faction: str
    leader: str
    element: str | None
    leader_row: int | None
    live_rows: list[bool]
    field: dict[str, StrifullCell]
    pile: list[str | None]
    pile_known: int
    graveyard: list[str]
    deck: dict[str, int]
    changes: int
    ability_uses: int


class StrifullFirst(TypedDict):
    player: int
    dice: list[int]
    rerolls: int


class _StrifullPosition(TypedDict):
    game: str
    options: StrifullOptions
    step: str
    player: int | None
    turn: int
    turn_player: int
    first: StrifullFirst | None
    pending: list[dict[str, Any]]
    ability_used: bool
    turn_mod: dict[str, Any] | None
    last_combat: dict[str, Any] | None
    winner: int | None
    draw: bool
    rng: str | None
    sides: list[StrifullSide]


class StrifullState(_StrifullPosition, _SavedLast):
    """``Strifull.to_dict()``: the full state."""

    seed: int
    history: list[str] | None


class StrifullView(_StrifullPosition, _SeenLastMove):
    """``Strifull.view(player)``: the opponent's face-down cards and the RNG are ``None``."""


# ---- Arte da Guerra (docs/arte.md) ----


class ArteOptions(TypedDict, total=False):
    """Arte da Guerra's rules options (docs/arte.md, ``kingdoms.arte``)."""

    cards_file: str | None
    cards_toml: str | None
    draft_order: Literal["continuous", "restart"]
    deployment: Literal["simultaneous", "alternating"]
    ranged_scoring: Literal["exception", "ranged_defender"]
    sudden_death_row: Literal["chosen", "front"]


class ArtePlayer(TypedDict):
    """One player's cards: hand, rows, field, secret orders, victory and defeated piles."""

    terrains: list[str | None]
    units: list[str | None]
    secret: list[str | None]
    rows: list[str | None]
    field: dict[str, str | None]
    placing: list[dict[str, Any]]
    deploying: list[dict[str, Any]]
    victory: list[str]
    defeated: list[str]
    pick: dict[str, Any] | None


class _ArtePosition(TypedDict):
    game: str
    options: ArteOptions
    cards: dict[str, Any]
    rng: str | None
    phase: Literal["draft", "terrain", "deploy", "combat", "sudden_death", "over"]
    round: int
    first_attacker: int | None
    piles: dict[str, list[str | None]]
    draft: dict[str, Any] | None
    discard: list[str]
    players: list[ArtePlayer]
    combat: dict[str, Any] | None
    winner: int | None


class ArteState(_ArtePosition, _SavedLast):
    """``Arte.to_dict()``: the full state."""

    seed: int
    history: list[str] | None


class ArteView(_ArtePosition, _SeenLastMove):
    """``Arte.view(player)``: what the player may not see is ``None``."""


# ---- Zinordia (docs/zinordia.md) ----


class ZinordiaOptions(TypedDict, total=False):
    """Zinordia's mode, table and content options (docs/zinordia.md, ``kingdoms.zinordia``)."""

    mode: str
    players: int | None
    map: str | None
    selection: Literal["secret", "draft"]
    placement: Literal["alternate", "blocks"]
    max_rounds: int
    roster_toml: str | None
    maps_toml: dict[str, str] | None
    modes_toml: str | None
    terrain_toml: str | None
    unique_stars: Literal["team", "game"]
    lines: Literal["axis", "drawn"]
    durations_tick: Literal["turn_start", "turn_end"]
    split_movement: bool
    reaction_order: Literal["event", "initiative"]
    untimed_buffs: Literal["turn", "round"]
    marks_stack: bool
    reactions_interrupt: bool
    ally_defeat: Literal["lost", "pays"]


class ZinordiaEffectStat(TypedDict):
    """A buff (``amount > 0``) or debuff of one stat (ZN-11)."""

    kind: Literal["stat"]
    stat: str
    amount: int
    stacks: bool


class ZinordiaEffectMark(TypedDict):
    kind: Literal["mark"]
    mark: str


class ZinordiaEffectSilence(TypedDict):
    kind: Literal["silence"]
    scope: Literal["all", "attacks", "instants", "reactions"]
    passives: bool


# Functional form: ``class`` is a keyword.
ZinordiaEffectImmune = TypedDict(
    "ZinordiaEffectImmune",
    {
        "kind": Literal["immune"],
        "class": Literal["damage", "forced_move", "debuff", "mark", "silence", "amago_loss"],
    },
)


class ZinordiaEffectDot(TypedDict):
    """Damage over time: ``amount`` at each of the applier's Second Maintenances."""

    kind: Literal["dot"]
    amount: int


ZinordiaStatus = (
    ZinordiaEffectStat
    | ZinordiaEffectMark
    | ZinordiaEffectSilence
    | ZinordiaEffectImmune
    | ZinordiaEffectDot
)


class ZinordiaEffect(TypedDict):
    """A lasting effect on a Star: who counts it down, who applied it, turns left."""

    status: ZinordiaStatus
    applier: int
    by: int
    turns: int | None


class ZinordiaStar(TypedDict):
    """Star slot ``p * K + i`` (``picks[p][i]``); ``zone`` ``"q,r"`` or ``None``."""

    star: str
    zone: str | None
    vida: int
    amago: int
    armadura: int
    renown: int
    defeated: bool
    played: bool
    effects: list[ZinordiaEffect]
    uses: list[int]


class ZinordiaPlay(TypedDict):
    """The play in progress (ZN-6)."""

    star: int
    moved: int
    activated: bool
    activations: int


class ZinordiaOffer(TypedDict):
    """An open reaction window (ZN-9.4): the Star asked, its trigger and its cause."""

    star: int
    trigger: str
    source: int | None


class ZinordiaResumeMain(TypedDict):
    kind: Literal["main", "end_turn"]


class ZinordiaResumeActivation(TypedDict):
    """A declared activation waiting for its ``targeted`` reactions."""

    kind: Literal["activation"]
    star: int
    ability: int
    target: str


# An effect list of a suspended resolution still to apply (functional form: a key named
# ``list`` would hide the builtin in a class body).
ZinordiaStep = TypedDict(
    "ZinordiaStep",
    {
        "star": int,
        "list": Literal["effects", "on_miss", "self_effects"],
        "path": list[int],
        "next": int,
        "hits": int,
    },
)


class ZinordiaResumeResolution(TypedDict):
    """The rest of an ability's resolution, suspended at a reaction window (ZN-9.5)."""

    kind: Literal["resolution"]
    star: int
    ability: int
    target: str | None
    steps: list[ZinordiaStep]


ZinordiaResume = ZinordiaResumeMain | ZinordiaResumeActivation | ZinordiaResumeResolution


class ZinordiaDefence(TypedDict):
    star: int
    die: int
    total: int
    hit: bool


class ZinordiaRoll(TypedDict):
    """The last attack's dice: the attacker's two dice and total, each defence's roll."""

    dice: list[int]
    total: int
    defences: list[ZinordiaDefence]


class _ZinordiaPosition(TypedDict):
    game: str
    options: ZinordiaOptions
    rng: str | None
    phase: Literal["select", "place", "main", "over"]
    picks: list[list[str | None]]
    order: list[int]
    rolls: list[list[list[int]]]
    stars: list[ZinordiaStar]
    markers: list[str]
    round: int
    turn: int
    play: ZinordiaPlay | None
    offers: list[ZinordiaOffer]
    resume: ZinordiaResume
    last_roll: ZinordiaRoll | None
    winner: int | None


class ZinordiaState(_ZinordiaPosition, _SavedLast):
    """``Zinordia.to_dict()``: the full state (``winner`` is a team)."""

    seed: int
    history: list[str] | None


class ZinordiaView(_ZinordiaPosition, _SeenLastMove):
    """``Zinordia.view(player)``: ``rng`` is ``None``, and during a secret selection so are
    the other team's picks."""
