"""Fuzzing data files and options (issue 11): the reference card sets of STRIFULL and Arte
da Guerra as TOML text, mutated (lines dropped, duplicated or swapped, values replaced by
junk, text cut), loaded as `cards_toml`, from a file (`cards_file`) and through
`card_set`; rules options of every game with junk names and values (maps and map files:
`tests/test_hex_fuzz.py`). Only results or KingdomsError/TypeError come out.
Long run: ``python -m pytest tests/test_fuzz_datafiles.py -m slow -s``.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import kingdoms
import pytest
from _fuzz import CALLS, JUNK_VALUES, QUICK, call, long_run, report
from hypothesis import given
from hypothesis import strategies as st
from kingdoms import arte, strifull

SURFACE = "datafiles"
STRIFULL_TOML = "\n".join(strifull.reference_files().values())
ARTE_TOML = "\n".join(arte.reference_files().values())
TOML_JUNK = [
    '""',
    "-1",
    "1e999",
    "nan",
    "inf",
    "[]",
    "{}",
    "true",
    '"\\ud800"',
    "999999999999999999999",
    '"' + "x" * 300 + '"',
]


def mutate_text(text: str, rng: random.Random, edits: int) -> str:
    lines = text.splitlines()
    for _ in range(edits):
        if not lines:
            break
        i = rng.randrange(len(lines))
        kind = rng.randrange(6)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == 3 and "=" in lines[i]:
            key = lines[i].split("=", 1)[0]
            lines[i] = f"{key}= {rng.choice(TOML_JUNK)}"
        elif kind == 4:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        else:
            lines[i] = lines[i].replace(
                rng.choice('0123456789abcdefghij"[]'), rng.choice(["", "9", "[", '"', "x"])
            )
    return "\n".join(lines)


OPTION_NAMES = sorted(
    {k for name in kingdoms.games() for k in kingdoms.new_game(name, seed=0).options}
    | {"", "x", "Seed", "cards_file"}
)


def run_one(seed: int, edits: int, tmp: Path) -> None:
    rng = random.Random(seed)
    for module, cls, text in (
        (strifull, strifull.Strifull, STRIFULL_TOML),
        (arte, arte.Arte, ARTE_TOML),
    ):
        bad = mutate_text(text, rng, edits)
        call(SURFACE, module.card_set, cards_toml=bad)
        g = call(SURFACE, cls, seed=seed, cards_toml=bad)
        if isinstance(g, kingdoms.Game):
            call(SURFACE, g.legal_actions)
            back = call(SURFACE, kingdoms.from_json, g.to_json())
            if isinstance(back, kingdoms.Game):
                assert back.to_json() == g.to_json()
        path = tmp / f"cards-{seed % 4}.toml"
        path.write_text(bad, encoding="utf-8", errors="surrogatepass")
        call(SURFACE, cls, seed=seed, cards_file=str(path))
    for name in kingdoms.games():
        options = {
            rng.choice(OPTION_NAMES): rng.choice(JUNK_VALUES) for _ in range(rng.randrange(3))
        }
        call(SURFACE, kingdoms.new_game, name, seed=seed, **options)


settings_args = {"seed": st.integers(0, 2**32), "edits": st.integers(1, 5)}


@QUICK
@given(**settings_args)
def test_fuzz_datafiles(tmp_path_factory: pytest.TempPathFactory, seed: int, edits: int) -> None:
    run_one(seed, edits, tmp_path_factory.getbasetemp())


def test_option_errors_name_the_option() -> None:
    with pytest.raises(
        kingdoms.RulesOptionError,
        match="option traitor_troops_only: expected a boolean, got integer 1",
    ):
        kingdoms.battleline.BattleLine(traitor_troops_only=1)
    with pytest.raises(kingdoms.RulesOptionError, match='unknown option "nope"'):
        kingdoms.battleline.BattleLine(nope=True)
    with pytest.raises(kingdoms.RulesOptionError, match="traitor_troops_only"):
        kingdoms.battleline.BattleLine(traitor_troops_only=float("nan"))


@pytest.mark.parametrize("name", kingdoms.games())
def test_option_errors_name_the_option_for_every_game_and_from_records(name: str) -> None:
    """Issue 11: a bad rules option is named wherever options come in - keyword arguments,
    a record's options (`replay`, `Session::from_options_json`) and a saved state's."""
    g = kingdoms.new_game(name, seed=2)
    for option in g.options:
        bad = 1.5  # no option takes a float
        with pytest.raises(kingdoms.RulesOptionError, match=f"option {option}: expected "):
            kingdoms.new_game(name, seed=2, **{option: bad})
        record = g.record().to_dict()
        record["options"][option] = bad
        # A record naming a file is refused before its options are read (never opens it).
        named = rf"(option {option}: expected |\$\.options\.{option}: )"
        with pytest.raises((kingdoms.RulesOptionError, kingdoms.StateError), match=named):
            kingdoms.replay(record)
        state = g.to_dict()
        state["options"][option] = bad
        with pytest.raises(kingdoms.StateError, match=rf"(\$\.options\.| option ){option}\b"):
            kingdoms.from_dict(state)


@pytest.mark.slow
def test_fuzz_datafiles_long(tmp_path: Path) -> None:
    CALLS[SURFACE] = 0
    start = time.perf_counter()
    long_run(800)(given(**settings_args)(lambda seed, edits: run_one(seed, edits, tmp_path)))()
    print(report(SURFACE, time.perf_counter() - start))


def test_inline_card_sets_have_the_file_size_limit() -> None:
    big = "# " + "x" * (4 << 20) + "\n"
    for cls in (strifull.Strifull, arte.Arte):
        with pytest.raises(kingdoms.DataError, match="at most 4194304") as e:
            cls(seed=1, cards_toml=big)
        assert len(str(e.value)) < 200
