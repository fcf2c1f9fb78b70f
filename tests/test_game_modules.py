"""Each registered game's Python side is in its module, found from the registry
(``kingdoms._games``): ``kingdoms.<game>`` gives its picture ``DRAW``, its rules-options
``TypedDict`` ``Options``, ``observation_bounds(**options)`` (computed in Rust) and
``BENCH_MODES``; the pictures, the environments and ``kingdoms bench`` use them."""

from __future__ import annotations

import typing
from collections.abc import Callable

import kingdoms
import numpy as np
import pytest
from kingdoms._games import bench_modes, drawer, game_module
from kingdoms.zinordia import reference_files

GAMES = kingdoms.games()

#: Option sets whose observations are checked against the bounds: each mode of a game and
#: the options that change what an observation can hold.
OPTION_SETS: dict[str, list[dict[str, typing.Any]]] = {
    "battleline": [{}, {"traitor_troops_only": True, "claim_at_turn_start": True}],
    "strifull": [{}, {"factions": ["magos", "inquisicao"]}],
    "arte": [{}, {"deployment": "alternating"}],
    "zinordia": [
        {},
        {"mode": "free_for_all", "players": 3},
        {"mode": "free_for_all", "players": 4},
        {"mode": "teams"},
        {"selection": "draft"},
    ],
}


def test_every_registered_game_has_option_sets_here() -> None:
    assert sorted(OPTION_SETS) == sorted(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_the_module_has_every_part(name: str) -> None:
    module = game_module(name)
    assert module.__name__ == f"kingdoms.{name}"
    for part in ("DRAW", "Options", "observation_bounds", "BENCH_MODES"):
        assert hasattr(module, part), f"kingdoms.{name} lacks {part}"
        assert part in module.__all__
    assert callable(module.DRAW) and drawer(name) is module.DRAW
    modes = bench_modes(name)
    assert modes and next(iter(modes.values())) == {}, "the default mode first"


#: Options a game leaves out of its ``options`` while unset (so games without them are written
#: as before the option existed), with a value to give each.
LEFT_OUT_WHEN_UNSET: dict[str, dict[str, Callable[[], object]]] = {
    "zinordia": {"terrain_toml": lambda: reference_files()["terrain.toml"]},
}


@pytest.mark.parametrize("name", GAMES)
def test_the_options_typeddict_matches_the_rust_options(name: str) -> None:
    options = game_module(name).Options
    assert typing.is_typeddict(options)
    keys = options.__required_keys__ | options.__optional_keys__
    shown = set(kingdoms.new_game(name, seed=0).options)
    left_out = {k: v() for k, v in LEFT_OUT_WHEN_UNSET.get(name, {}).items()}
    assert keys == shown | set(left_out)
    for key, value in left_out.items():
        assert key not in shown and key in kingdoms.new_game(name, seed=0, **{key: value}).options


@pytest.mark.parametrize("name", GAMES)
def test_the_drawer_draws_the_game(name: str) -> None:
    g = kingdoms.new_game(name, seed=4)
    for _ in range(6):
        if g.is_terminal:
            break
        g.apply(g.legal_actions()[-1])
    picture = str(g.svg(1))
    assert picture.startswith("<svg")
    assert picture == game_module(name).DRAW(g.view(1), 1, None, [])


@pytest.mark.parametrize("name", GAMES)
def test_bounds_contain_random_games_in_every_option_set(name: str) -> None:
    module = game_module(name)
    rng = np.random.default_rng(5)
    for options in OPTION_SETS[name]:
        low, high = module.observation_bounds(**options)
        g = kingdoms.new_game(name, seed=7, **options)
        a, b = g.observation_bounds()
        assert (a == low).all() and (b == high).all()
        assert low.shape == high.shape == tuple(g.observation_shape)
        assert low.dtype == np.float32 and (low <= high).all() and np.isfinite(high).all()
        for seed in range(3):
            g = kingdoms.new_game(name, seed=seed, **options)
            while True:
                for p in range(g.num_players):
                    obs = g.observation_tensor(p)
                    inside = (low <= obs) & (obs <= high)
                    assert inside.all(), (options, seed, np.argwhere(~inside)[:3].tolist())
                if g.is_terminal:
                    break
                actions = g.legal_actions()
                g.apply(actions[int(rng.integers(len(actions)))])


def test_an_unknown_game_is_an_argument_error() -> None:
    with pytest.raises(kingdoms.ArgumentError, match="unknown game"):
        game_module("chess")
