"""The typed API: a user script passes `mypy --strict` with the specific classes, typed
options and typed states; mistakes are type errors; the types match the running engine."""

from __future__ import annotations

import itertools
import random
import runpy
import typing
from pathlib import Path
from typing import Any

import kingdoms
import pytest
from kingdoms import _types, types

mypy_api = pytest.importorskip("mypy.api", reason="mypy is in the test extra")

SCRIPT = Path(__file__).parent / "typing" / "user_script.py"
ROOT = Path(__file__).resolve().parent.parent


def _mypy(path: Path, cache: Path) -> tuple[str, int]:
    out, err, status = mypy_api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(cache), "--config-file", "", str(path)]
    )
    return out + err, status


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mypy-cache")


def test_the_user_script_type_checks_strictly(cache: Path) -> None:
    out, status = _mypy(SCRIPT, cache)
    assert status == 0, out


def test_the_user_script_runs(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(SCRIPT), run_name="__main__")
    assert "arte" in capsys.readouterr().out


# A misspelt option or a wrong value: the class constructors refuse it outright; new_game
# (which also takes any game name as a plain str) then no longer promises the specific class.
MISTAKES = {
    "kingdoms.battleline.BattleLine(traitor_troop_only=True)": '"traitor_troop_only"',
    'kingdoms.arte.Arte(deployment="sideways")': 'incompatible type "Literal',
    'kingdoms.battleline.BattleLine(first_player="0")': 'incompatible type "str"',
    'b: kingdoms.battleline.BattleLine = kingdoms.new_game("battleline", traitor_troop_only=1)': (
        "Incompatible types in assignment"
    ),
    'kingdoms.new_game("strifull").claim_proof(0, 0)': '"Strifull" has no attribute "claim_proof"',
    'kingdoms.new_game("battleline").to_dict()["handz"]': '"handz"',
    'x: int = kingdoms.new_game("battleline").view(0)["to_move"]': "incompatible types in assignment",
}


def test_mistakes_are_type_errors(tmp_path: Path, cache: Path) -> None:
    script = tmp_path / "mistakes.py"
    lines = ["import kingdoms", "import kingdoms.arte", "import kingdoms.battleline"]
    lines += [f"def case_{i}() -> None:\n    {code}" for i, code in enumerate(MISTAKES)]
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, status = _mypy(script, cache)
    assert status == 1
    for i, (code, message) in enumerate(MISTAKES.items()):
        errors = [line for line in out.splitlines() if line.startswith(f"{script}:{i * 2 + 5}:")]
        assert any(message.lower() in e.lower() for e in errors), f"{code}: {errors or out}"


OPTIONS = {
    "battleline": types.BattleLineOptions,
    "strifull": types.StrifullOptions,
    "arte": types.ArteOptions,
    "zinordia": types.ZinordiaOptions,
}
STATES = {
    "battleline": (types.BattleLineState, types.BattleLineView),
    "strifull": (types.StrifullState, types.StrifullView),
    "arte": (types.ArteState, types.ArteView),
    "zinordia": (types.ZinordiaState, types.ZinordiaView),
}
# Options under which a game's state takes shapes the defaults never give: every Zinordia
# mode, and the resolution suspended at a reaction window (ZN-9.5).
SHAPES: dict[str, list[dict[str, Any]]] = {
    "zinordia": [
        {},
        {"mode": "free_for_all"},
        {"mode": "teams"},
        {"reactions_interrupt": True, "selection": "draft"},
    ],
}


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_options_types_name_every_option(name: str) -> None:
    # Zinordia's own terrain kinds are left out of `options` unless given, so saved games of
    # the reference content stay as they were (tests/test_game_modules.py checks it is kept
    # when given).
    left_out = {"terrain_toml"} if name == "zinordia" else set()
    hints = set(typing.get_type_hints(OPTIONS[name]))
    assert hints - left_out == set(kingdoms.new_game(name).options)
    assert left_out <= hints


def _check(value: Any, hint: Any, path: str) -> None:
    """`value` has exactly the keys of the TypedDict `hint` (recursively through lists, dicts
    and optional values)."""
    origin = typing.get_origin(hint)
    if typing.is_typeddict(hint):
        assert isinstance(value, dict), path
        hints = typing.get_type_hints(hint)
        required = hint.__required_keys__
        assert required <= set(value) <= set(hints), (
            f"{path}: {sorted((required - set(value)) | (set(value) - set(hints)))}"
        )
        for key, sub in hints.items():
            if key in value:
                _check(value[key], sub, f"{path}.{key}")
    elif origin is typing.Literal:
        assert value in typing.get_args(hint), f"{path}: {value!r} is not one of {hint}"
    elif origin is list and isinstance(value, list):
        (item,) = typing.get_args(hint)
        for i, v in enumerate(value):
            _check(v, item, f"{path}[{i}]")
    elif origin is dict and isinstance(value, dict):
        _, item = typing.get_args(hint)
        for k, v in value.items():
            _check(v, item, f"{path}.{k}")
    elif origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        options = [a for a in typing.get_args(hint) if typing.is_typeddict(a)]
        if value is not None and options:
            # A tagged union: the value must fit one of its shapes.
            errors = []
            for option in options:
                try:
                    _check(value, option, path)
                    return
                except AssertionError as e:
                    errors.append(str(e).splitlines()[0])
            raise AssertionError(f"{path}: fits none of its shapes: {errors}")


@pytest.mark.parametrize("name", sorted(STATES))
def test_state_types_match_the_engine(name: str) -> None:
    state_type, view_type = STATES[name]
    for seed, options in itertools.product(range(3), SHAPES.get(name, [{}])):
        rng = random.Random(seed)
        g = kingdoms.new_game(name, seed=seed, **options)
        ply = 0
        while not g.is_terminal:
            if ply % 7 == 0:
                _check(g.to_dict(), state_type, f"{name} seed {seed} ply {ply}")
                for p in range(g.num_players):
                    _check(g.view(p), view_type, f"{name} seed {seed} ply {ply} view {p}")
            g.apply(rng.choice(g.legal_actions()))
            ply += 1
        _check(g.to_dict(), state_type, f"{name} seed {seed} end")


def test_the_types_are_public_in_kingdoms_types() -> None:
    """Every TypedDict is importable from `kingdoms.types` (the private module only holds
    them), and the module's example runs."""
    import doctest

    assert types.__all__ == _types.__all__
    for name in _types.__all__:
        assert getattr(types, name) is getattr(_types, name), name
    assert kingdoms.types is types
    assert doctest.testmod(types).failed == 0
