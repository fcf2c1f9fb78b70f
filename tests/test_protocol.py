"""The common game protocol, checked the same way for every game in `kingdoms.games()`.

Each property runs along random playouts from random seeds, so it sees openings, middle
games and finished games. Game-specific rules live in tests/test_<game>.py.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Iterator
from typing import Any

import kingdoms
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from kingdoms.protocol import GameProtocol

GAMES = kingdoms.games()
pytestmark = pytest.mark.skipif(not GAMES, reason="no games registered")

seeds = st.integers(min_value=0, max_value=2**63 - 1)


def playout(name: str, seed: int, walk: int, max_states: int = 400) -> Iterator[kingdoms.Game]:
    """The states of one random game (each yielded before its move is applied)."""
    rng = random.Random(walk)
    g = kingdoms.new_game(name, seed=seed)
    for _ in range(max_states):
        yield g
        if g.is_terminal:
            return
        actions = g.legal_actions()
        g.apply(rng.choice(actions))


def sample_states(name: str, seed: int, walk: int, k: int = 8) -> list[kingdoms.Game]:
    """`k` states spread over a random game, as independent clones, the last one final."""
    states = [g.clone() for g in playout(name, seed, walk, max_states=100_000)]
    rng = random.Random(walk ^ 0x5EED)
    picks = sorted(rng.sample(range(len(states)), min(k - 1, len(states))))
    return [states[i] for i in picks] + [states[-1]]


@pytest.mark.parametrize("name", GAMES)
def test_game_classes_satisfy_protocol(name: str) -> None:
    g = kingdoms.new_game(name, seed=1)
    assert isinstance(g, GameProtocol)
    assert isinstance(g, kingdoms.Game)
    assert g.name == name
    cls = type(g)
    assert cls is not kingdoms.Game, "each game has its own class"
    assert cls(seed=1) == g, "the game's class builds the same game as new_game"
    assert cls(seed=2) != g


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds)
def test_seeded_construction_is_reproducible(name: str, seed: int) -> None:
    a = kingdoms.new_game(name, seed=seed)
    b = kingdoms.new_game(name, seed=seed)
    assert a.to_dict() == b.to_dict()
    assert a.seed == seed


@pytest.mark.parametrize("name", GAMES)
def test_unseeded_games_record_their_seed(name: str) -> None:
    g = kingdoms.new_game(name)
    assert kingdoms.new_game(name, seed=g.seed) == g


@pytest.mark.parametrize("name", GAMES)
def test_unknown_rules_option_is_rejected(name: str) -> None:
    with pytest.raises(kingdoms.RulesOptionError):
        kingdoms.new_game(name, seed=1, no_such_option=True)


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds, walk=st.integers(0, 2**32))
def test_random_games_end_with_consistent_results(name: str, seed: int, walk: int) -> None:
    final = None
    for g in playout(name, seed, walk, max_states=100_000):
        assert (g.current_player is None) == g.is_terminal
        if g.is_terminal:
            final = g
        else:
            assert g.legal_actions(), "a running game always has a legal action"
            assert g.returns() == [0.0] * g.num_players
            assert g.winner is None
    assert final is not None, "the game ended"
    r = final.returns()
    assert len(r) == final.num_players
    if final.winner is None:
        assert len(set(r)) == 1, "a draw pays everyone the same"
    else:
        assert r[final.winner] == max(r) and r.count(max(r)) == 1
    with pytest.raises(kingdoms.IllegalActionError):
        final.apply_id(0)


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds, walk=st.integers(0, 2**32))
def test_action_space_mask_ids_and_notation_agree(name: str, seed: int, walk: int) -> None:
    for g in sample_states(name, seed, walk):
        mask = g.action_mask()
        ids = g.legal_action_ids()
        assert mask.dtype == np.bool_ and mask.shape == (g.num_actions,)
        assert ids.dtype == np.int64
        assert list(np.flatnonzero(mask)) == list(ids)
        actions = g.legal_actions()
        assert [a.id for a in actions] == list(ids)
        for a in actions:
            assert g.action_to_id(a) == a.id
            assert g.id_to_action(a.id) == a
            text = str(a)
            assert g.parse_action(text) == a, f"notation {text!r} round-trips"
            assert g.action_to_id(text) == a.id
            assert isinstance(g.describe_action(a), dict)
            assert g.is_legal(a) and g.is_legal(text) and g.is_legal(a.id)
        assert len({str(a) for a in actions}) == len(actions), "notations are distinct"


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds, walk=st.integers(0, 2**32), probe=st.integers(0, 2**32))
def test_illegal_actions_raise_and_change_nothing(
    name: str, seed: int, walk: int, probe: int
) -> None:
    rng = random.Random(probe)
    for g in sample_states(name, seed, walk, k=5):
        before = g.to_json()
        legal = set(g.legal_action_ids().tolist())
        illegal = [i for i in range(g.num_actions) if i not in legal]
        for i in rng.sample(illegal, min(25, len(illegal))):
            with pytest.raises(kingdoms.IllegalActionError) as info:
                g.apply_id(i)
            assert isinstance(info.value, ValueError)
            assert info.value.rule, "the error names the broken rule"
            assert g.to_json() == before
            with pytest.raises(kingdoms.IllegalActionError):
                g.apply(g.id_to_action(i))
            assert g.to_json() == before
            assert not g.is_legal(i) and not g.is_legal(g.id_to_action(i))
        for bad in ["", "??", "not a move", "\x00", "9" * 40]:
            with pytest.raises(ValueError):
                g.apply(bad)
            assert g.to_json() == before
        for bad_id in [-1, g.num_actions, 2**40]:
            with pytest.raises((ValueError, OverflowError)):
                g.apply_id(bad_id)
            assert g.to_json() == before
            with pytest.raises(kingdoms.KingdomsError, match="out of range"):
                g.is_legal(bad_id)
        with pytest.raises(kingdoms.NotationError):
            g.is_legal("not a move")
        with pytest.raises(TypeError):
            g.is_legal(True)
        assert g.to_json() == before


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds, walk=st.integers(0, 2**32))
def test_copies_serialization_and_replay_are_exact(name: str, seed: int, walk: int) -> None:
    for g in sample_states(name, seed, walk, k=4):
        d = g.to_dict()
        json.dumps(d)  # JSON-safe
        assert type(g).from_dict(d) == g
        assert kingdoms.from_dict(d) == g
        assert type(g).from_json(g.to_json()) == g
        assert type(g).from_json(g.to_json(indent=2)) == g
        assert pickle.loads(pickle.dumps(g)) == g
        assert type(pickle.loads(pickle.dumps(g))) is type(g)
        for c in (g.clone(), copy.copy(g), copy.deepcopy(g)):
            assert c == g and c is not g
            if not c.is_terminal:
                c.apply(c.legal_actions()[0])
                assert c != g and g.to_dict() == d, "copies are independent"
        rec = g.record()
        assert kingdoms.replay(rec).to_dict() == d
        assert kingdoms.replay(rec.to_dict()).to_dict() == d
        assert kingdoms.replay(rec.to_json()).to_dict() == d
        assert pickle.loads(pickle.dumps(rec)) == rec
        assert str(g) and repr(g)


def _hidden_differs(states: list[kingdoms.Game]) -> bool:
    return len({s.to_json() for s in states}) > 1


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds, walk=st.integers(0, 2**32))
def test_views_and_determinization(name: str, seed: int, walk: int) -> None:
    """resample_hidden keeps a player's view, observation and picture, and does redraw the
    rest: so nothing hidden from the player can be in them."""
    for g in sample_states(name, seed, walk, k=4):
        for p in range(g.num_players):
            view = g.view(p)
            json.dumps(view)
            obs = g.observation_tensor(p)
            assert obs.dtype == np.float32 and list(obs.shape) == g.observation_shape
            picture = g.render(p)
            samples = [g.resample_hidden(p, k) for k in range(6)]
            for s in samples:
                assert s.view(p) == view
                assert np.array_equal(s.observation_tensor(p), obs)
                assert s.render(p) == picture
                assert s.legal_action_ids().tolist() == g.legal_action_ids().tolist() or (
                    g.current_player != p
                ), "the player's own choices depend only on what it sees"
            assert g.resample_hidden(p, 3) == g.resample_hidden(p, 3), "seeded"


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds)
def test_determinization_redraws_hidden_information(name: str, seed: int) -> None:
    g = kingdoms.new_game(name, seed=seed)
    for p in range(g.num_players):
        samples = [g.resample_hidden(p, k) for k in range(4)]
        assert _hidden_differs([g, *samples]), "hidden information is redrawn"


# Keys a game derives from the rest of the state: optional, checked when given.
DERIVED_KEYS = {"battleline": ("hand_counts",)}
# Keys added after states were first saved: left out, they read as their default (docs/battleline.md:
# no last troop play), which a fresh game also has.
DEFAULTED_KEYS = {"battleline": ("last_troop_play",)}


@pytest.mark.parametrize("name", GAMES)
def test_bad_serialized_states_raise_value_errors(name: str) -> None:
    g = kingdoms.new_game(name, seed=5)
    cls = type(g)
    with pytest.raises(kingdoms.StateError):
        cls.from_json("{not json")
    with pytest.raises(kingdoms.StateError):
        cls.from_json("[]")
    d = g.to_dict()
    for key in [k for k in d if k not in ("game", "seed", "history")]:
        broken: dict[str, Any] = dict(d)
        broken[key] = {"nonsense": [1, 2, 3]}
        with pytest.raises(ValueError):
            cls.from_dict(broken)
        missing = dict(d)
        del missing[key]
        if key in DERIVED_KEYS.get(name, ()):
            assert cls.from_dict(missing) == g, f"{key} is derived when left out"
            continue
        if key in DEFAULTED_KEYS.get(name, ()):
            assert cls.from_dict(missing) == g, f"{key} has its default when left out"
            continue
        with pytest.raises(ValueError):
            cls.from_dict(missing)


@pytest.mark.parametrize("name", GAMES)
def test_simulate_is_deterministic_for_any_thread_count(name: str) -> None:
    one = kingdoms.simulate(name, 300, 42, threads=1)
    two = kingdoms.simulate(name, 300, 42, threads=2)
    assert (one.wins, one.draws, one.plies) == (two.wins, two.draws, two.plies)
    assert sum(one.wins) + one.draws == one.games == 300
    split_a = kingdoms.simulate(name, 100, 42, threads=2)
    split_b = kingdoms.simulate(name, 200, 42, threads=1, first=100)
    assert split_a.plies + split_b.plies == one.plies
    assert kingdoms.simulate(name, 300, 43, threads=1).plies != one.plies


def test_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(kingdoms.KingdomsError, match="unknown game"):
        kingdoms.new_game("chess")
    assert isinstance(kingdoms.KingdomsError("x"), ValueError)
    assert issubclass(kingdoms.IllegalActionError, kingdoms.KingdomsError)


def test_simulate_refuses_a_batch_past_the_last_game_index() -> None:
    with pytest.raises(kingdoms.KingdomsError, match="first"):
        kingdoms.simulate("battleline", 2, seed=1, first=2**64 - 1)
    assert kingdoms.simulate("battleline", 1, seed=1, first=2**64 - 2).games == 1


@pytest.mark.parametrize("name", GAMES)
def test_every_player_is_a_team_of_one_in_two_player_games(name: str) -> None:
    g = kingdoms.new_game(name, seed=1)
    assert [g.team(p) for p in range(g.num_players)] == list(range(g.num_players))
    with pytest.raises(kingdoms.KingdomsError, match="out of range"):
        g.team(g.num_players)
