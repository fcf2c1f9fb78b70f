"""`kingdoms.tournament`: the Rust arena, with `progress=True` drawing a progress bar."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

from kingdoms import _kingdoms
from kingdoms._kingdoms import Game, TournamentResult
from kingdoms.agents import AgentLike


def tournament(
    game: str | Game,
    agents: Sequence[AgentLike],
    games: int = 100,
    seed: int | None = None,
    threads: int | None = None,
    *,
    pairing: str = "round-robin",
    records: bool = False,
    bootstrap: int = 1000,
    progress: bool | Callable[[int, int], object] | None = None,
    position: str | None = None,
    **options: Any,
) -> TournamentResult:
    """Play `agents` against each other and rate them (docs/agents.md).

    `games` per pairing (a multiple of the number of players), seats swapped fairly, each deal
    replayed in every seat order, on `threads` cores (None: all). `progress=True` shows a
    progress bar counting games (on stderr, or as a widget in a notebook); a callable is
    called with `(games done, games in all)` as games finish. `position` (a position string,
    `g.position()`) starts every game there instead of from the seed's setup (a view
    position has its hidden parts dealt afresh for each game). Everything else is exactly
    `kingdoms._kingdoms.tournament`. Without a `seed` one is drawn from the OS (as play
    between untrusted bots needs: a guessable seed gives away the deals) and reported as
    the result's `seed`, which replays the same games.
    """
    if seed is None:
        seed = secrets.randbits(64)

    def run(callback: Callable[[int, int], object] | None) -> TournamentResult:
        return _kingdoms.tournament(
            game,
            agents,
            games,
            seed,
            threads,
            pairing=pairing,
            records=records,
            bootstrap=bootstrap,
            progress=callback,
            position=position,
            **options,
        )

    if progress is not True:
        return run(progress or None)
    from kingdoms._cli_common import progress_bar

    name = game if isinstance(game, str) else game.name
    with progress_bar(False, "games") as bar:
        task = bar.add_task(f"{name}: tournament", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return run(advance)
