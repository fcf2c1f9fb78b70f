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
    parse_agent,
)
from kingdoms._subprocess import Forfeit, Subprocess

__all__ = [
    "ISMCTS",
    "ActionStats",
    "Agent",
    "AgentLike",
    "Forfeit",
    "Greedy",
    "Heuristic",
    "Random",
    "RustAgent",
    "Search",
    "Skill",
    "Subprocess",
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


def parse(text: str) -> RustAgent:
    """A built-in agent from its command-line form.

    ``random``, ``heuristic``, ``greedy``, ``greedy:samples=4``,
    ``greedy:samples=4,settle=heuristic`` (``settle=none``: off), ``ismcts`` (1000 iterations),
    ``ismcts:2000``, ``ismcts:500,c=0.5,depth=8,seed=3``, ``ismcts:time=0.25``.
    """
    agent: RustAgent = parse_agent(text)
    return agent
