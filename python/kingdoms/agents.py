"""Agents that play any kingdoms game, and the protocol for your own.

The built-in agents are written in Rust, generic over the common game protocol, and are
plain frozen configuration objects: pass them to :func:`kingdoms.play_match` or
:func:`kingdoms.tournament`, or call ``act(game)`` directly (the search runs in Rust with
the GIL released).

>>> import kingdoms
>>> from kingdoms.agents import ISMCTS, Greedy, Random
>>> result = kingdoms.tournament("battleline", [ISMCTS(iterations=200), Greedy()], games=4)
>>> print(result.table())  # doctest: +SKIP

- :class:`Random`: a uniformly random legal action.
- :class:`Heuristic`: the game's own rules of thumb, no search: a sparring partner that
  plays like a sensible person (Battle Line: builds the strongest formations the unseen
  cards still allow, draws what it can use, plays tactics when they decide a flag). A game
  without a heuristic player refuses it with a :class:`~kingdoms.KingdomsError`.
- :class:`Greedy`: one ply of look-ahead, each move scored by the game's ``evaluate`` in
  positions where everything the mover cannot see is redrawn (``samples`` redraws); with
  ``settle=True`` a move is scored after the rest of its turn is played by the game's
  rule-based player (Zinordia's default, where a turn is many decisions).
- :class:`ISMCTS`: single-observer information-set Monte Carlo tree search; each
  iteration plays in a fresh determinization (``resample_hidden``), so the search never
  sees hidden cards or future chance.

``Greedy`` and ``ISMCTS`` take their settings as keywords (typed by :class:`GreedyOptions`
and :class:`IsmctsOptions`); each class's docstring lists them, and
:func:`agent_options` gives their names, aliases, types, defaults and docs. A setting left
``None`` is the game's own. The settings read back as attributes
(``ISMCTS(iterations=500).iterations``) under their names or aliases:

>>> ISMCTS(time=0.5, c=0.3)
ISMCTS(iterations=None, time_limit=0.5, exploration=0.3)
>>> ISMCTS(time=0.5).time_limit
0.5
>>> parse("ismcts:500,c=0.3,depth=none").name
'ismcts:500,c=0.3,depth=none'

Any number of players: in a game of three or four seats each searching player maximises
its own result, and in a team game (``Game.team``) partners share their team's value;
:meth:`ISMCTS.analyze` reports every player's expected result per action
(``ActionStats.values``). :func:`kingdoms.tournament` rotates seats (and partnerships) fairly
and rates agents by Elo and by Weng-Lin skill (:class:`Skill`); see docs/agents.md.

Your own agent is any object with ``act(game) -> action`` (an :class:`~kingdoms.Action`,
its notation string or its id); an optional ``name`` attribute labels it in tables. In
matches it receives a copy of the game in which everything its player may not see has
been redrawn, so it cannot peek by accident; it may mutate that copy freely. Its seed (and
everything else random in the copy) comes from the match seed through a keyed one-way
function, so it does not lead back to the deal; between untrusted bots, leave the match
seed unset (drawn from the OS) or make it unguessable.

A bot in another language (or one you do not trust in your process) plays as
:class:`Subprocess`: a separate program speaking JSON lines on its standard input and
output (docs/bots.md), sent only its view and the legal actions, with a time limit per
move. A crash, a late, malformed or illegal answer forfeits the game (:class:`Forfeit`).
"""

from __future__ import annotations

import inspect
from typing import Protocol, TypeAlias, runtime_checkable

from kingdoms._kingdoms import (
    ISMCTS,
    Action,
    ActionStats,
    Game,
    Greedy,
    Heuristic,
    Random,
    Search,
    Skill,
    agent_options,
    parse_agent,
)
from kingdoms._subprocess import Forfeit, Subprocess
from kingdoms._types import GreedyOptions, IsmctsOptions

__all__ = [
    "ISMCTS",
    "ActionStats",
    "Agent",
    "AgentLike",
    "Forfeit",
    "Greedy",
    "GreedyOptions",
    "Heuristic",
    "IsmctsOptions",
    "Random",
    "RustAgent",
    "Search",
    "Skill",
    "Subprocess",
    "agent_options",
    "parse",
]


@runtime_checkable
class Agent(Protocol):
    """Anything that chooses a move: ``act(game)`` returns an action for the player to move."""

    def act(self, game: Game) -> Action | str | int: ...


RustAgent: TypeAlias = Random | Heuristic | Greedy | ISMCTS
"""The built-in agents."""

AgentLike: TypeAlias = RustAgent | Agent
"""What matches and tournaments accept."""


def _signature(kind: str) -> inspect.Signature:
    """The keywords of a Rust agent class, from its settings' declaration."""
    return inspect.Signature(
        [
            inspect.Parameter(o["name"], inspect.Parameter.KEYWORD_ONLY, default=o["default"])
            for o in agent_options(kind)
        ]
    )


# ``help()`` and ``inspect.signature`` show every setting (the classes take ``**options``).
Greedy.__signature__ = _signature("greedy")  # type: ignore[attr-defined]
ISMCTS.__signature__ = _signature("ismcts")  # type: ignore[attr-defined]


def parse(text: str) -> RustAgent:
    """A built-in agent from its command-line form.

    ``random``, ``heuristic``, ``greedy``, ``greedy:4`` (samples),
    ``greedy:samples=4,settle=heuristic`` (``settle=none``: off), ``ismcts`` (1000 iterations),
    ``ismcts:2000``, ``ismcts:500,c=0.5,depth=8,seed=3``, ``ismcts:time=0.25``: the settings by
    name or alias (:func:`agent_options`), ``none`` for an unset one, ``1``/``0`` for a flag.
    """
    agent: RustAgent = parse_agent(text)
    return agent
