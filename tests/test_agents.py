"""Agents, matches and tournaments, for every game in `kingdoms.games()`.

The strength checks (hundreds of games each) are marked `slow`; the rest run in seconds.
"""

from __future__ import annotations

import inspect
import json
import pickle
import random
import typing
from typing import Any

import kingdoms
import pytest
from kingdoms.agents import (
    ISMCTS,
    Agent,
    Greedy,
    GreedyOptions,
    IsmctsOptions,
    Random,
    agent_options,
    parse,
)

GAMES = kingdoms.games()
pytestmark = pytest.mark.skipif(not GAMES, reason="no games registered")
GAME = GAMES[0] if GAMES else ""


def midgame(name: str, seed: int = 3, plies: int = 6) -> kingdoms.Game:
    rng = random.Random(seed)
    g = kingdoms.new_game(name, seed=seed)
    for _ in range(plies):
        if g.is_terminal:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


class RandomPy:
    """A Python agent: uniformly random, from its own RNG."""

    name = "py-random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.calls = 0

    def act(self, game: kingdoms.Game) -> kingdoms.Action:
        self.calls += 1
        return self.rng.choice(game.legal_actions())


def without_timing(table: str) -> str:
    """A results table without its last line (seconds and games/s vary run to run)."""
    head, _, tail = table.rpartition("Seats:")
    return head + tail.split(";")[0]


# ---- the agents themselves ---------------------------------------------------------------


def test_agents_are_frozen_configurations() -> None:
    a = ISMCTS(iterations=500, seed=7, exploration=0.5, rollout_depth=8)
    assert (a.iterations, a.seed, a.exploration, a.rollout_depth, a.time_limit) == (
        500,
        7,
        0.5,
        8,
        None,
    )
    assert a.name == "ismcts:500,c=0.5,depth=8"
    assert ISMCTS(500, seed=7, c=0.5, depth=8) == a, "one positional value, aliases"
    assert ISMCTS().iterations == 1000, "1000 iterations when no budget is given"
    timed = ISMCTS(time=0.1)
    assert (timed.iterations, timed.time, timed.time_limit) == (None, 0.1, 0.1)
    assert ISMCTS(time_limit=0.1) == timed, "time_limit is the name of the time alias"
    assert parse("ismcts:time=0.1") == timed
    assert repr(timed) == "ISMCTS(iterations=None, time_limit=0.1)"
    assert repr(ISMCTS()) == "ISMCTS()"
    with pytest.raises(AttributeError):
        a.seed = 3  # type: ignore[misc]
    with pytest.raises(AttributeError, match="no attribute 'colour'"):
        a.colour  # noqa: B018
    settled_leaves = ISMCTS(iterations=300, settle_heuristic=True, settle_turns=1)
    assert (settled_leaves.settle, settled_leaves.settle_turns) == (True, 1)
    assert parse("ismcts:300,settle=turn") == settled_leaves
    assert settled_leaves.name == "ismcts:300,settle=1,settle_heuristic=1,settle_turns=1"
    routed = ISMCTS(iterations=300, expand_samples=4, routine=True)
    assert (routed.routine, ISMCTS().routine) == (True, None)
    assert parse("ismcts:300,expand=4,routine=1") == routed
    assert routed.name == "ismcts:300,expand=4,routine=1"
    halved = ISMCTS(iterations=300, halving=8)
    assert (halved.halving, ISMCTS().halving) == (8, None)
    assert parse("ismcts:300,halving=8") == halved
    assert halved.name == "ismcts:300,halving=8"
    assert repr(halved) == "ISMCTS(iterations=300, halving=8)"
    replied = ISMCTS(iterations=300, first_reply_expand=16)
    assert parse("ismcts:300,first_reply=16") == replied
    assert parse("ismcts:300,first_reply_expand=16") == replied
    assert replied.name == "ismcts:300,first_reply=16"
    with pytest.raises(kingdoms.KingdomsError, match="first_reply_expand"):
        ISMCTS(first_reply_expand=-1)
    deepened = ISMCTS(iterations=300, finalist_depth=2, finalist_expand=4)
    assert (deepened.finalist_depth, deepened.finalist_expand) == (2, 4)
    assert parse("ismcts:300,finalist_depth=2,finalist_expand=4") == deepened
    for bad_finalist in ({"finalist_depth": -1}, {"finalist_expand": 1 << 17}):
        with pytest.raises(kingdoms.KingdomsError, match=next(iter(bad_finalist))):
            ISMCTS(**bad_finalist)  # type: ignore[arg-type]
    ruled = ISMCTS(iterations=300, finalist_depth=2, finalist_heuristic=True)
    assert parse("ismcts:300,finalist_depth=2,finalist_heuristic=1") == ruled != deepened
    assert ruled.name == "ismcts:300,finalist_depth=2,finalist_heuristic=1"
    with pytest.raises(TypeError, match="finalist_heuristic"):
        ISMCTS(finalist_heuristic="yes")  # type: ignore[arg-type]
    with pytest.raises(kingdoms.KingdomsError, match="halving"):
        ISMCTS(halving=-1)
    settled = Greedy(samples=4, seed=2, settle=True)
    assert parse("greedy:samples=4,settle=heuristic,seed=2") == settled
    assert settled.name == "greedy:4,settle=1" and settled.settle
    assert parse("greedy:settle=none") == Greedy(settle=False) != Greedy()
    agents = (Random(seed=4), Greedy(samples=3, seed=2), Greedy(), settled, Greedy(settle=False))
    for agent in (*agents, a, timed, ISMCTS(), settled_leaves, routed, halved, deepened, ruled):
        assert pickle.loads(pickle.dumps(agent)) == agent
        assert eval(repr(agent), {"Random": Random, "Greedy": Greedy, "ISMCTS": ISMCTS}) == agent
        assert isinstance(agent, Agent)
    assert Random(seed=1) != Random(seed=2)
    assert parse("ismcts:500,c=0.5,depth=8,seed=7") == a
    assert parse("greedy:samples=3,seed=2") == Greedy(samples=3, seed=2)
    assert parse("random") == Random()


def test_agent_settings_are_checked_by_name() -> None:
    """A bad setting is an error naming it: a wrong type a TypeError, a bad value a
    KingdomsError, an unknown or retired one a TypeError (the command line: KingdomsError)."""
    with pytest.raises(TypeError, match="iterations"):
        ISMCTS(iterations=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed"):
        Greedy(seed="7")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unknown option 'colour'|unknown option \"colour\""):
        ISMCTS(colour=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="multiple values"):
        ISMCTS(100, iterations=200)  # type: ignore[misc]
    with pytest.raises(TypeError, match="duplicate field time_limit"):
        ISMCTS(time=0.1, time_limit=0.1)  # the same setting twice, under its alias
    with pytest.raises(TypeError, match="at most 1 positional"):
        ISMCTS(100, 3)  # type: ignore[misc]
    with pytest.raises(kingdoms.KingdomsError, match="seed"):
        ISMCTS(seed=-1)
    with pytest.raises(kingdoms.KingdomsError, match="exploration"):
        ISMCTS(exploration=float("nan"))
    with pytest.raises(kingdoms.KingdomsError, match=r"iterations: \"abc\" is not a whole number"):
        parse("ismcts:abc")
    with pytest.raises(kingdoms.KingdomsError, match='c: "x" is not a number'):
        parse("ismcts:c=x")


@pytest.mark.parametrize(
    ("option", "spec"),
    [
        ("pick", "ismcts:500,pick=0.5"),
        ("prior_samples", "ismcts:500,prior_samples=3"),
        ("prior", "ismcts:500,prior=3,pv=10"),
        ("pv", "ismcts:pv=10"),
        ("prior_visits", "ismcts:prior_visits=10"),
        ("prior_settle", "ismcts:prior_settle=1"),
    ],
)
def test_retired_settings_are_refused_as_retired(option: str, spec: str) -> None:
    with pytest.raises(kingdoms.KingdomsError, match=f"{option} was retired"):
        parse(spec)
    if option.startswith(("pick", "prior_")):
        with pytest.raises(TypeError, match="was retired"):
            ISMCTS(**{option: 1})


@pytest.mark.parametrize(("kind", "typed"), [("greedy", GreedyOptions), ("ismcts", IsmctsOptions)])
def test_the_stub_typeddicts_are_the_rust_settings(kind: str, typed: Any) -> None:
    """`GreedyOptions` / `IsmctsOptions` (the stubs' `**options`) name exactly the settings
    the Rust struct declares, with its types; an extra key must be one of its aliases."""
    options = agent_options(kind)
    hints = {
        k: v.__name__ if isinstance(v, type) else str(v)
        for k, v in typing.get_type_hints(typed).items()
    }
    for o in options:
        assert o["name"] in hints, f"add `{o['name']}: {o['type']}` to {typed.__name__}"
        assert hints[o["name"]] == o["type"], (o["name"], hints[o["name"]], o["type"])
        assert o["doc"], o["name"]
    names = {o["name"] for o in options}
    aliases = {a: o for o in options for a in o["aliases"]}
    for key, hint in hints.items():
        if key not in names:
            assert key in aliases, f"{typed.__name__}.{key} is no setting of {kind}"
            assert hint == aliases[key]["type"], key
    cls = {"greedy": Greedy, "ismcts": ISMCTS}[kind]
    doc = cls.__doc__ or ""
    assert all(f"- {o['name']} (" in doc for o in options), doc
    assert list(inspect.signature(cls).parameters) == [o["name"] for o in options]
    defaults = cls()
    for o in options:
        if o["name"] != "iterations":  # 1000 when neither budget is given
            assert getattr(defaults, o["name"]) == o["default"], o["name"]


def test_settings_left_to_the_game_are_the_games_own() -> None:
    """Greedy(samples=None) and ISMCTS(exploration=None, expand_samples=None) ask the game
    (docs/agents.md, per-game settings); STRIFULL's Greedy scores each move on 16 redraws."""
    assert (Greedy().samples, ISMCTS().exploration, ISMCTS().expand_samples) == (None,) * 3
    assert (Greedy().name, ISMCTS().name) == ("greedy", "ismcts:1000")
    g = midgame("strifull", seed=4, plies=40)
    for seed in range(4):
        assert Greedy(seed=seed).act(g) == Greedy(samples=16, seed=seed).act(g)


# Each game's own search settings (docs/agents.md, per-game settings): a position, the
# iterations, settings that search exactly as ISMCTS() with nothing set, and settings that
# do not. STRIFULL halves the root over Greedy's 64 best moves, Battle Line over its 8 best
# (judges 16 candidates at the reply to the root's move, and scores its finalists' leaves
# two plies deeper, each the best of 4 moves),
# Arte da Guerra explores with c = 0.2 and halves over 64, Zinordia plays its routine
# decisions by rule below the root and judges 8 candidates at each expansion.
OWN_SEARCH: list[tuple[str, int, int, list[dict[str, Any]], list[dict[str, Any]]]] = [
    ("strifull", 40, 300, [{"halving": 64}], [{"halving": 0}]),
    ("arte", 12, 300, [{"exploration": 0.2}, {"halving": 64}], [{"halving": 0}]),
    (
        "zinordia",
        6,
        200,
        [{"routine": True, "expand_samples": 8}],
        [{"routine": False}, {"expand_samples": 1}],
    ),
    (
        "battleline",
        10,
        300,
        [{"halving": 8}, {"first_reply_expand": 16}, {"finalist_depth": 2, "finalist_expand": 4}],
        [{"halving": 0}, {"first_reply_expand": 0}],
    ),
]


@pytest.mark.parametrize(("name", "plies", "iterations", "same", "other"), OWN_SEARCH)
def test_search_settings_left_to_the_game_are_the_games_own(
    name: str,
    plies: int,
    iterations: int,
    same: list[dict[str, Any]],
    other: list[dict[str, Any]],
) -> None:
    g = midgame(name, seed=4, plies=plies)

    def visits(**settings: Any) -> list[tuple[str, int]]:
        stats = ISMCTS(iterations=iterations, **settings).analyze(g)
        return [(str(s.action), s.visits) for s in stats.actions]

    own = visits()
    for settings in same:
        assert visits(**settings) == own, settings
    for settings in other:
        assert visits(**settings) != own, settings


@pytest.mark.parametrize(
    "make",
    [
        lambda: ISMCTS(iterations=0),
        lambda: ISMCTS(exploration=-1.0),
        lambda: ISMCTS(time_limit=0.0),
        lambda: ISMCTS(time=0.0),
        lambda: ISMCTS(time=-1.0),
        lambda: ISMCTS(time=float("nan")),
        lambda: Greedy(samples=0),
    ],
)
def test_bad_agent_settings_are_rejected(make: Any) -> None:
    with pytest.raises(kingdoms.KingdomsError):
        make()


def test_parse_rejects_unknown_agents_and_keys() -> None:
    for bad in ("alphazero", "ismcts:abc", "ismcts:1000,foo=1", "greedy:samples=0"):
        with pytest.raises(kingdoms.KingdomsError, match="bad agent"):
            parse(bad)


@pytest.mark.parametrize("name", GAMES)
def test_every_agent_acts_legally_and_reproducibly(name: str) -> None:
    g = midgame(name)
    legal = set(g.legal_actions())
    for make in (lambda: Random(seed=5), lambda: Greedy(seed=5), lambda: ISMCTS(100, seed=5)):
        a, b = make(), make()
        moves = [a.act(g) for _ in range(4)]
        assert all(m in legal for m in moves)
        assert moves == [b.act(g) for _ in range(4)], "same seed, same sequence of choices"
    assert g.legal_actions() == sorted(legal, key=lambda x: x.id), "act() changed nothing"
    rand = Random(seed=1)
    assert len({rand.act(g) for _ in range(40)}) > 1, "successive calls draw afresh"


@pytest.mark.parametrize("name", GAMES)
def test_built_in_agents_choose_alike_in_worlds_their_player_cannot_tell_apart(name: str) -> None:
    # The agents channel of hidden information: an agent's move with a given seed must not
    # depend on what its player cannot see. `resample_hidden` is a function of the view and
    # the seed, so the redrawn twins below are the same game to the mover.
    for seed in (3, 4, 5):
        g = midgame(name, seed=seed, plies=4 + seed)
        me = g.current_player
        if me is None:
            continue
        twins = [g.resample_hidden(me, seed=k) for k in (11, 12)]
        assert all(t.view(me) == g.view(me) for t in twins)
        assert g.resample_hidden(me, seed=9) == twins[0].resample_hidden(me, seed=9)
        for make in (lambda: Greedy(seed=5), lambda: ISMCTS(60, seed=5)):
            move = make().act(g)
            assert [make().act(t) for t in twins] == [move, move]


@pytest.mark.parametrize("name", GAMES)
def test_ismcts_analyze_reports_every_root_action(name: str) -> None:
    g = midgame(name)
    s = ISMCTS(iterations=300, seed=1).analyze(g)
    assert s.iterations == 300
    assert s.nodes > 1 and s.seconds >= 0
    assert sum(a.visits for a in s.actions) == 300
    assert {a.action for a in s.actions} <= set(g.legal_actions())
    visits = [a.visits for a in s.actions]
    assert visits == sorted(visits, reverse=True)
    assert all(-1.0 <= a.value <= 1.0 and a.available >= a.visits for a in s.actions)


def test_act_wants_a_game() -> None:
    with pytest.raises(TypeError, match="kingdoms game"):
        Random().act("battleline")  # type: ignore[arg-type]


# ---- matches -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_play_match_returns_a_replayable_record(name: str) -> None:
    rec = kingdoms.play_match(name, [ISMCTS(iterations=30), Greedy()], seed=11)
    assert isinstance(rec, kingdoms.Record) and rec.game == name and rec.seed == 11
    end = kingdoms.replay(rec)
    assert end.is_terminal
    assert kingdoms.play_match(name, [ISMCTS(iterations=30), Greedy()], seed=11) == rec


@pytest.mark.parametrize("name", GAMES)
def test_python_and_rust_agents_share_a_match(name: str) -> None:
    py = RandomPy(1)
    rec = kingdoms.play_match(name, [py, Random(seed=2)], seed=5)
    assert kingdoms.replay(rec).is_terminal
    assert py.calls > 0


def test_play_match_continues_a_game_object() -> None:
    g = midgame(GAME, plies=4)
    before = g.record()
    rec = kingdoms.play_match(g, [Random(), Random()], seed=1)
    assert rec.actions[: len(before.actions)] == before.actions
    assert kingdoms.replay(rec).is_terminal
    assert g.record() == before, "the game passed in is not changed"
    # A state loaded without its history starts a record of its own from its position.
    loaded = kingdoms.from_dict({k: v for k, v in g.to_dict().items() if k != "history"})
    rec = kingdoms.play_match(loaded, [Random(), Random()], seed=1)
    assert rec.position == g.position()
    assert kingdoms.replay(rec).is_terminal


def test_python_agents_see_only_their_information() -> None:
    g = midgame(GAME, plies=5)
    me = g.current_player
    assert me is not None
    seen: list[kingdoms.Game] = []

    class Spy:
        def act(self, game: kingdoms.Game) -> kingdoms.Action:
            seen.append(game.clone())
            return game.legal_actions()[0]

    handed: set[str] = set()
    for seed in range(4):
        seen.clear()
        kingdoms.play_match(g, [Spy(), Spy()], seed=seed)
        first = seen[0]
        assert first.view(me) == g.view(me), "the agent's own view is exact, last move too"
        assert first.legal_actions() == g.legal_actions()
        state = first.to_dict()
        state.pop("seed", None)
        handed.add(json.dumps(state, sort_keys=True))
    assert len(handed) > 1, "hidden information is redrawn, not handed over"


def test_an_illegal_python_move_names_agent_game_and_move() -> None:
    g = kingdoms.new_game(GAME, seed=2)
    legal = set(g.legal_actions())
    illegal = next(
        g.id_to_action(i) for i in range(g.num_actions) if g.id_to_action(i) not in legal
    )

    class Cheater:
        name = "cheater-bot"

        def act(self, game: kingdoms.Game) -> kingdoms.Action:
            return illegal

    with pytest.raises(kingdoms.IllegalActionError) as err:
        kingdoms.play_match(GAME, [Cheater(), Random()], seed=2)
    msg = str(err.value)
    for part in ("cheater-bot", GAME, str(illegal), "player 0", "ply 0"):
        assert part in msg, f"{part!r} missing from {msg!r}"
    assert isinstance(err.value.rule, str) and err.value.rule

    with pytest.raises(kingdoms.IllegalActionError, match="cheater-bot") as err2:
        kingdoms.tournament(GAME, [Random(), Cheater()], games=2, seed=1)
    assert "game " in str(err2.value) and "seed " in str(err2.value)


@pytest.mark.parametrize(
    "returned",
    ["no such move", 10**9, 2.5, None, True],
)
def test_a_python_agent_returning_a_non_action_is_an_illegal_action(returned: Any) -> None:
    class Broken:
        def act(self, game: kingdoms.Game) -> Any:
            return returned

    with pytest.raises(kingdoms.IllegalActionError, match="Broken"):
        kingdoms.play_match(GAME, [Broken(), Random()], seed=1)


def test_python_agent_ids_and_notations_are_accepted() -> None:
    class ById:
        def act(self, game: kingdoms.Game) -> int:
            return int(game.legal_action_ids()[0])

    class ByText:
        def act(self, game: kingdoms.Game) -> str:
            return str(game.legal_actions()[-1])

    rec = kingdoms.play_match(GAME, [ById(), ByText()], seed=4)
    assert kingdoms.replay(rec).is_terminal


def test_exceptions_from_python_agents_propagate() -> None:
    class Crashes:
        def act(self, game: kingdoms.Game) -> kingdoms.Action:
            raise ZeroDivisionError("agent bug")

    with pytest.raises(ZeroDivisionError, match="agent bug"):
        kingdoms.play_match(GAME, [Random(), Crashes()], seed=1)
    with pytest.raises(ZeroDivisionError, match="agent bug"):
        kingdoms.tournament(GAME, [Random(), Greedy(), Crashes()], games=2, seed=1)


def test_objects_without_act_are_rejected() -> None:
    with pytest.raises(TypeError, match="act"):
        kingdoms.play_match(GAME, [Random(), object()], seed=1)  # type: ignore[list-item]


# ---- tournaments ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_tournament_tables_are_identical_for_any_thread_count(name: str) -> None:
    agents = [Random(), Greedy(), ISMCTS(iterations=20)]
    runs = [
        kingdoms.tournament(name, agents, games=4, seed=9, threads=t, bootstrap=100)
        for t in (1, 2, 3)
    ]
    tables = {without_timing(r.table()) for r in runs}
    assert len(tables) == 1, tables
    assert len({tuple((g.seed, tuple(g.seats), g.winner) for g in r.results) for r in runs}) == 1
    assert len({tuple(e.elo for e in r.elo) for r in runs}) == 1
    other = kingdoms.tournament(name, agents, games=4, seed=10, threads=2, bootstrap=100)
    assert [g.seed for g in other.results] != [g.seed for g in runs[0].results]


def test_a_python_agent_and_rust_agents_meet_in_one_tournament() -> None:
    py = RandomPy(3)
    calls: list[tuple[int, int]] = []
    r = kingdoms.tournament(
        GAME,
        [py, Random(), Greedy()],
        games=4,
        seed=2,
        records=True,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert r.names == ["py-random", "random", "greedy"]
    assert r.games == 12 and py.calls > 0
    assert calls[-1] == (12, 12) and all(t == 12 for _, t in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    # Scores: every game hands out exactly one point.
    assert sum(r.score(i) * r.totals[i].games for i in range(3)) == pytest.approx(12)
    for i in range(3):
        t = r.totals[i]
        assert t.games == 8 and t.wins + t.draws + t.losses == 8
        assert r.score(i) == pytest.approx((t.wins + t.draws / 2) / 8)
        for j in range(3):
            if i != j:
                w, v = r.pairwise(i, j), r.pairwise(j, i)
                assert (w.wins, w.draws, w.losses) == (v.losses, v.draws, v.wins)
                assert w.games == 4
    records = r.records
    assert records is not None and len(records) == 12
    for rec, g in zip(records, r.results):
        assert rec.seed == g.seed
        assert kingdoms.replay(rec).winner == g.winner
    # The same tournament again: Python agents play on this thread in schedule order.
    again = kingdoms.tournament(GAME, [RandomPy(3), Random(), Greedy()], games=4, seed=2)
    assert without_timing(again.table()) == without_timing(r.table())
    text = r.table()
    for part in ("py-random", "greedy", "Elo", "95% interval", "Pairings"):
        assert part in text
    d = r.to_dict()
    assert d["names"] == r.names and len(d["results"]) == 12 and d["results"][0]["record"]


def test_seats_are_swapped_fairly_on_duplicate_deals() -> None:
    r = kingdoms.tournament(GAME, [Random(), Greedy(), Random(seed=1)], games=6, seed=4)
    assert r.names == ["random #1", "greedy", "random #2"]
    for a in range(3):
        seat0 = sum(1 for g in r.results if g.seats[0] == a)
        assert seat0 == 6, "each agent starts half of its 12 games"
    by_pair: dict[tuple[int, ...], list[Any]] = {}
    for g in r.results:
        by_pair.setdefault(tuple(sorted(g.seats)), []).append(g)
    for games in by_pair.values():
        assert len(games) == 6
        for k in range(0, 6, 2):
            a, b = games[k], games[k + 1]
            assert a.seed == b.seed and a.seats == b.seats[::-1], "one deal, both seat orders"


def test_gauntlet_and_argument_checks() -> None:
    r = kingdoms.tournament(
        GAME, [Greedy(), Random(), Random(seed=1)], games=2, pairing="gauntlet", seed=1
    )
    assert r.pairing == "gauntlet" and r.games == 4
    assert r.pairwise(1, 2).games == 0
    with pytest.raises(kingdoms.KingdomsError, match="multiple of 2"):
        kingdoms.tournament(GAME, [Random(), Random()], games=3)
    with pytest.raises(kingdoms.KingdomsError, match="at least 2 agents"):
        kingdoms.tournament(GAME, [Random()], games=2)
    with pytest.raises(kingdoms.KingdomsError, match="unknown game"):
        kingdoms.tournament("chess", [Random(), Random()], games=2)
    with pytest.raises(kingdoms.KingdomsError, match="pairing"):
        kingdoms.tournament(GAME, [Random(), Random()], games=2, pairing="swiss")
    with pytest.raises(kingdoms.KingdomsError, match="threads"):
        kingdoms.tournament(GAME, [Random(), Random()], games=2, threads=0)
    with pytest.raises(IndexError):
        r.score(3)


def test_a_failing_progress_callback_stops_the_tournament() -> None:
    def progress(done: int, total: int) -> None:
        if done >= 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        kingdoms.tournament(
            GAME, [Random(), Greedy()], games=400, seed=1, threads=1, progress=progress
        )


def test_elo_follows_the_scores() -> None:
    r = kingdoms.tournament(GAME, [Greedy(), Random()], games=40, seed=3)
    top, bottom = r.elo
    assert top.elo == pytest.approx(-bottom.elo)
    assert top.lo <= top.elo <= top.hi
    assert (top.elo > 0) == (r.score(0) > 0.5)
    assert r.ranking()[0] == (0 if r.score(0) > 0.5 else 1)


# ---- strength (slow: hundreds of games at 1000 iterations per move) ------------------------

# Games per check: 200, but a Zinordia duel has a hundred-odd searched moves (about 1.5
# CPU-seconds at 1,000 iterations a move, twice that against Greedy), so it plays 60 to keep
# CI's slow run a few minutes longer at most; docs/agents.md has its 200-game figures.
STRENGTH_GAMES = GAMES
GAMES_PER_CHECK = {"zinordia": 60}


def check_games(name: str) -> int:
    return GAMES_PER_CHECK.get(name, 200)


@pytest.mark.slow
@pytest.mark.parametrize("name", STRENGTH_GAMES)
def test_greedy_beats_random(name: str) -> None:
    r = kingdoms.tournament(name, [Greedy(), Random()], games=check_games(name), seed=101)
    print(r.table())
    assert r.score(0) >= 0.65, r.table()


@pytest.mark.slow
@pytest.mark.parametrize("name", STRENGTH_GAMES)
def test_ismcts_beats_random(name: str) -> None:
    r = kingdoms.tournament(
        name, [ISMCTS(iterations=1000), Random()], games=check_games(name), seed=102
    )
    print(r.table())
    assert r.score(0) >= 0.95, r.table()


@pytest.mark.slow
@pytest.mark.parametrize("name", STRENGTH_GAMES)
def test_ismcts_beats_greedy(name: str) -> None:
    r = kingdoms.tournament(
        name, [ISMCTS(iterations=1000), Greedy()], games=check_games(name), seed=103
    )
    print(r.table())
    # Clearly more than half: above 55%, and its 95% Elo interval above the pool average.
    # Zinordia's Greedy settles its turn with the heuristic player (research/issue-14.md,
    # "Zinordia (issue 14)"), which brings it close to the search: before the search settled
    # its own leaves (Zinordia's default since the eleventh round) 38-0-22, 63.3% on these 60
    # deals, an interval whose lower end was 0; with them 39-0-21, 65.0%, Elo +53 [+6, +109];
    # judging 16 candidates an expansion too (the default since the thirteenth round) 41-0-19,
    # 68.3%, Elo +66 [+23, +118]; with the routine decisions played by rule below the root and
    # 8 candidates (the default since the nineteenth) 40-0-20, 66.7%. There the guard asks only for a score above 55%. Battle Line's Greedy shares the
    # search's fitted win-probability evaluate (research/issue-14.md, "Battle Line,
    # before and after"): on these deals the search scored 113-0-87, 56.5%, Elo +23 [-2, +48]
    # before its routine search judging 4 candidates (Battle Line's default since the eighth
    # round), 131-0-69, 65.5%, Elo +55 [+31, +84] with it, 127-0-73, 63.5%, Elo +48 [+24, +75]
    # since the seventeenth round's inferred redraw and root halving (Greedy redraws the same
    # way), 134-0-66, 67.0% with 16 candidates judged at the reply to the root's move (the
    # default since the twentieth), 131-0-69, 65.5%, Elo +55 [+31, +84] with the
    # twenty-eighth round's deeper leaves for the halving's finalists (on the uniform redraw
    # since the twenty-seventh; 69.4% over 22,800 fresh deals), 134-0-66, 67.0%, Elo +61
    # [+39, +88] with the thirtieth round's rule-based plies for them (70.07% over 7,200
    # fresh deals, docs/agents.md); the guard asks above 60% and the interval above the
    # average.
    assert r.score(0) > (0.60 if name == "battleline" else 0.55), r.table()
    if name != "zinordia":
        assert r.elo[0].lo > 0, r.table()


# ---- the command line ----------------------------------------------------------------------


def test_cli_tournament(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    from kingdoms.cli import main

    records = tmp_path / "games.jsonl"
    args = [
        "tournament",
        GAME,
        "--agents",
        "random",
        "greedy",
        "ismcts:20",
        "--games",
        "2",
        "--seed",
        "5",
        "--threads",
        "2",
        "--records",
        str(records),
    ]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["names"] == ["random", "greedy", "ismcts:20"] and data["games"] == 6
    direct = kingdoms.tournament(GAME, [Random(), Greedy(), ISMCTS(20)], games=2, seed=5)
    assert data["scores"] == [direct.score(i) for i in range(3)]
    lines = records.read_text().splitlines()
    assert len(lines) == 6
    again = kingdoms.tournament(
        GAME, [Random(), Greedy(), ISMCTS(20)], games=2, seed=5, records=True
    )
    assert [kingdoms.Record.from_json(line) for line in lines] == again.records
    assert main(args) == 0
    out = capsys.readouterr().out
    for part in ("greedy", "ismcts:20", "Elo", "pairings", "seats"):
        assert part in out
    assert main(["tournament", GAME, "--agents", "random", "wizard", "--games", "2"]) == 2
    assert "bad agent" in capsys.readouterr().err


def test_settings_with_lone_surrogates_are_refused_cleanly() -> None:
    # Found by tests/test_fuzz_arguments.py: a str Rust cannot hold was a UnicodeEncodeError.
    with pytest.raises(kingdoms.KingdomsError, match="seed: text with a lone surrogate"):
        Greedy(seed="\ud800")
    with pytest.raises(TypeError, match="without lone surrogates"):
        ISMCTS(**{"\ud800": 1})
