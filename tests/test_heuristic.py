"""The Heuristic agent (issue 14): each game's rule-based player, and Battle Line's ladder.

The ladder checks (a round robin of the search-free agents, 200 games a pairing, and
ISMCTS@1000 against the heuristic player, 100 games) are marked `slow`.
"""

from __future__ import annotations

import pickle

import kingdoms
import pytest
from kingdoms.agents import ISMCTS, Greedy, Heuristic, Random, parse

GAMES = kingdoms.games()


def test_heuristic_is_a_frozen_configuration() -> None:
    a = Heuristic(seed=4)
    assert (a.seed, a.name, repr(a)) == (4, "heuristic", "Heuristic(seed=4)")
    assert a == Heuristic(seed=4) and a != Heuristic(seed=5) and a != Random(seed=4)
    assert hash(a) == hash(Heuristic(seed=4))
    assert pickle.loads(pickle.dumps(a)) == a
    assert parse("heuristic") == Heuristic()
    assert parse("heuristic:seed=4") == a
    with pytest.raises(kingdoms.KingdomsError, match="heuristic takes only seed"):
        parse("heuristic:samples=2")


@pytest.mark.parametrize("name", GAMES)
def test_heuristic_plays_a_legal_move_or_says_the_game_has_none(name: str) -> None:
    g = kingdoms.new_game(name, seed=2)
    try:
        a = Heuristic().act(g)
    except kingdoms.KingdomsError as e:
        assert f"{name} has no heuristic player" in str(e)
        return
    assert a in g.legal_actions()


def test_battle_line_heuristic_claims_what_it_can_and_beats_random() -> None:
    r = kingdoms.tournament("battleline", [Heuristic(), Random()], games=20, seed=5)
    assert r.score(0) >= 0.9, r.table()


def test_battle_line_heuristic_is_reproducible() -> None:
    def moves(seed: int) -> list[str]:
        g = kingdoms.new_game("battleline", seed=1)
        agent = Heuristic(seed=seed)
        out = []
        while not g.is_terminal and len(out) < 80:
            a = agent.act(g)
            out.append(str(a))
            g.apply(a)
        return out

    assert moves(3) == moves(3)


# ---- Battle Line's ladder (docs/agents.md) -------------------------------------------------


@pytest.mark.slow
def test_battle_line_ladder_order() -> None:
    """Random < Heuristic < Greedy by rating, each rung beating the one below head to head
    (ISMCTS above Greedy: test_agents.py). Greedy (the game's own 3 redraws a move) scored
    122-0-78, 61.0% here against Heuristic with issue 14's seventeenth-round inferred redraw
    (69.9% over 1,000 games on seed 370), 137-0-63, 68.5% before it with the win-probability
    evaluate (118-0-82, 59.0% with the previous one), and 63.0-71.0% over 200 games on each
    of docs/agents.md's seeds 1, 2, 3 and 7; issue 14 asks for 60%, so 55% guards the gain
    over one redraw (55.2% on those seeds) without claiming the target on every deal."""
    agents = [Random(), Heuristic(), Greedy()]
    r = kingdoms.tournament("battleline", agents, games=200, seed=14)
    print(r.table())
    ratings = [x.elo for x in r.elo]
    assert ratings == sorted(ratings), r.table()
    assert r.pairwise(1, 0).score > 0.5 and r.pairwise(2, 1).score >= 0.55, r.table()


def test_battle_line_greedy_scores_on_the_games_own_redraws() -> None:
    """Greedy() in Battle Line scores each move on 3 redraws (docs/agents.md, per-game
    settings): the same moves as Greedy(samples=3), which are not those of one redraw.
    (Deal 5: since the inferred redraw, deal 3's position has one clear move for any sample.)"""
    g = kingdoms.new_game("battleline", seed=5)
    for _ in range(12):
        g.apply(Heuristic(seed=1).act(g))
    moves = [Greedy(seed=seed).act(g) for seed in range(6)]
    assert moves == [Greedy(samples=3, seed=seed).act(g) for seed in range(6)]
    assert moves != [Greedy(samples=1, seed=seed).act(g) for seed in range(6)]


@pytest.mark.slow
def test_battle_line_search_beats_the_heuristic_player() -> None:
    """The rung above: ISMCTS@1000 outscores Heuristic, seats swapped on duplicate deals
    (about half a minute on 2 cores; 84-16 with the thirtieth round's rule-based plies for
    the halving's finalists, 78-22 with the twenty-eighth round's deeper leaves for them,
    70-30 with the twentieth round's 16 candidates at the reply to the root's move, 73-27
    with the seventeenth round's inferred redraw and root halving, 70-30 with the game's
    routine search judging 4 candidates, 66-34 before it with the win-probability evaluate,
    61-39 with the previous one at the game's c = 0.2, 55-45 at c = 0.1).
    docs/agents.md gives the fresh-deal figures (81.25% over 400 games since round 30,
    77.25% over 1,200 for round 28's default; issue 14's 75%); 100 games are too few to
    guard that bar, so this asks above 65%."""
    r = kingdoms.tournament(
        "battleline", [ISMCTS(iterations=1000), Heuristic()], games=100, seed=14
    )
    print(r.table())
    assert r.score(0) > 0.65, r.table()


# ---- STRIFULL's and Arte da Guerra's ladders (docs/agents.md, issue 14) ---------------------

LADDER_GAMES = ["strifull", "arte"]


@pytest.mark.slow
@pytest.mark.parametrize("name", LADDER_GAMES)
def test_ladder_order_below_search(name: str) -> None:
    """Random < Heuristic < Greedy, each rung beating the one below head to head, and Greedy
    (with the game's own number of redraws) at least 60% against the heuristic player."""
    agents = [Random(), Heuristic(), Greedy()]
    r = kingdoms.tournament(name, agents, games=200, seed=14)
    print(r.table())
    ratings = [x.elo for x in r.elo]
    assert ratings == sorted(ratings), r.table()
    assert r.pairwise(1, 0).score > 0.5, r.table()
    assert r.pairwise(2, 1).score >= 0.6, r.table()


@pytest.mark.slow
@pytest.mark.parametrize("name", LADDER_GAMES)
def test_ismcts_beats_the_heuristic_player(name: str) -> None:
    """ISMCTS@1000, with the game's own exploration, clearly above Heuristic: at least 70%
    and the lower end of its Elo interval above the pool average. The issue's target is 75%;
    on this seed STRIFULL scores 86.0% (171-2-27, leaves settled with the heuristic move; 81.8%
    unsettled) and Arte da Guerra 93.5% (187-0-13 since the eighteenth round's root halving
    over 64; 188-0-12 since the thirteenth round, whose redraw
    deals the face-down draft card as a picker would hide it; 85.0% with the twelfth round's
    `evaluate` alone, which values a hand during the draft under its best terrain
    arrangement; 73.0% before both), so 70% guards against a regression without claiming
    the target."""
    r = kingdoms.tournament(name, [ISMCTS(iterations=1000), Heuristic()], games=200, seed=15)
    print(r.table())
    assert r.score(0) >= 0.70 and r.elo[0].lo > 0, r.table()


# ---- Zinordia's ladder (docs/agents.md, issue 14) -------------------------------------------


@pytest.mark.slow
def test_zinordia_ladder() -> None:
    """Zinordia's order as measured: Random < Heuristic < Greedy < ISMCTS@1000 (docs/agents.md,
    issue 14). Greedy settles each move's turn with the rule-based player on 4 redraws, a
    one-step improvement over Heuristic: 71.0% and 75.0% against it over 200 games (seeds 1,
    2). A round robin of the three search-free agents (60 games a pairing, about half a
    minute; Greedy 53-0-7 against Heuristic on this seed) guards each rung head to head;
    then ISMCTS@1000 against Heuristic over 24 games
    (40 CPU-seconds, under a minute on 2 cores), at least 70% (20-0-4 on this seed, 83%, before
    round 13; 22-0-2 with round 13's search, docs/agents.md: 186-0-14 over 200 games)."""
    r = kingdoms.tournament("zinordia", [Random(), Heuristic(), Greedy()], games=60, seed=16)
    print(r.table())
    ratings = [x.elo for x in r.elo]
    assert ratings == sorted(ratings), r.table()
    assert r.pairwise(1, 0).score >= 0.8 and r.pairwise(2, 1).score >= 0.6, r.table()
    s = kingdoms.tournament("zinordia", [ISMCTS(iterations=1000), Heuristic()], games=24, seed=16)
    print(s.table())
    assert s.score(0) >= 0.70, s.table()
