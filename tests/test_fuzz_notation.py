"""Fuzzing actions (issue 11): on random positions of every game, notations (legal ones cut,
extended, with characters changed, other games' notations, junk, very long text), ids
(boundaries, negatives, huge), `Action`s of other games and wrong types, through `apply`,
`is_legal`, `parse_action`, `action_to_id`, `describe_action` and `apply_id`. A refusal
changes nothing; an accepted action is one `legal_actions` lists. Long run: ``python -m
pytest tests/test_fuzz_notation.py -m slow -s``.
"""

from __future__ import annotations

import random
import time
from typing import Any

import kingdoms
import pytest
from _fuzz import BOUNDARY, CALLS, JUNK_VALUES, QUICK, call, long_run, on_game, position
from hypothesis import given
from hypothesis import strategies as st

SURFACE = "notation"
OTHERS = {name: position(name, 3, 5).legal_actions() for name in kingdoms.games()}


def variants(text: str, rng: random.Random) -> list[Any]:
    cut = rng.randrange(len(text) + 1)
    chars = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ -+,:;/>#?\ud800é"
    changed = list(text)
    if changed:
        changed[rng.randrange(len(changed))] = rng.choice(chars)
    return [
        text[:cut],
        text + rng.choice(chars),
        "".join(changed),
        text.upper(),
        text.lower(),
        " " + text,
        text * 3,
        text + "x" * 1000,
        text.replace(" ", ""),
    ]


def run_one(name: str, seed: int, plies: int) -> None:
    g = position(name, seed, plies)
    if g.is_terminal:
        call(SURFACE, g.apply, "pass")
        return
    rng = random.Random(seed)
    legal = g.legal_actions()
    legal_ids = {a.id for a in legal}
    probes: list[Any] = []
    for a in rng.sample(legal, min(4, len(legal))):
        probes += variants(str(a), rng)
    for other in kingdoms.games():
        probes += rng.sample(OTHERS[other], min(2, len(OTHERS[other])))
        probes += [str(a) for a in rng.sample(OTHERS[other], min(2, len(OTHERS[other])))]
    probes += JUNK_VALUES
    for probe in probes:
        for method in ("is_legal", "parse_action", "action_to_id", "describe_action"):
            on_game(SURFACE, g, method, probe)
        h = g.clone()
        out = on_game(SURFACE, h, "apply", probe)
        if not isinstance(out, BaseException):
            assert g.action_to_id(probe) in legal_ids, f"{probe!r} accepted but not listed"
    for i in rng.sample(BOUNDARY, 8) + [g.num_actions, g.num_actions - 1]:
        on_game(SURFACE, g, "is_legal", i)
        on_game(SURFACE, g, "id_to_action", i)
        h = g.clone()
        out = on_game(SURFACE, h, "apply_id", i)
        if not isinstance(out, BaseException):
            assert i in legal_ids


settings_args = {
    "name": st.sampled_from(kingdoms.games()),
    "seed": st.integers(0, 2**32),
    "plies": st.sampled_from([0, 1, 3, 10, 30, 100]),
}


@QUICK
@given(**settings_args)
def test_fuzz_notation(name: str, seed: int, plies: int) -> None:
    run_one(name, seed, plies)


def test_refusals_name_what_is_wrong() -> None:
    g = kingdoms.new_game("battleline", seed=1)
    s = kingdoms.new_game("strifull", seed=1)
    with pytest.raises(kingdoms.ArgumentError, match="strifull action, given to a battleline"):
        g.apply(s.legal_actions()[0])
    with pytest.raises(kingdoms.KingdomsError, match="lone surrogate"):
        g.apply("\ud800")
    with pytest.raises(kingdoms.NotationError) as e:
        g.apply("x" * 1_000_000)
    assert len(str(e.value)) < 200
    with pytest.raises(kingdoms.ArgumentError, match=r"id out of range: must be in 0\.\.="):
        g.apply_id(-1)
    with pytest.raises(TypeError):
        g.apply(1.5)  # type: ignore[arg-type]


def outcome(g: kingdoms.Game, probe: Any) -> Any:
    """What applying `probe` to a copy of `g` gives: accepted, or the refusal's type, rule
    and text."""
    try:
        g.clone().apply(probe)
    except (kingdoms.KingdomsError, TypeError) as e:
        return type(e).__name__, getattr(e, "rule", None), str(e)
    return "accepted"


@pytest.mark.parametrize("name", kingdoms.games())
def test_refusals_read_the_same_on_every_determinization(name: str) -> None:
    """Issue 11: a refusal's type, rule and text depend only on what the mover sees. On
    random positions of every game, each refused action id and action text (cut, changed,
    other games', junk) reads the same on `resample_hidden(mover, seed)` for several seeds,
    and each accepted one is accepted there too. (The conformance suite checks every id in
    the core; this checks the Python errors, notations included.)"""
    checked = 0
    for seed, plies in ((1, 0), (2, 1), (3, 4), (4, 12), (5, 30), (6, 80)):
        g = position(name, seed, plies)
        mover = g.current_player
        if mover is None:
            continue
        rng = random.Random(seed)
        legal = {a.id for a in g.legal_actions()}
        refused = [i for i in range(g.num_actions) if i not in legal]
        probes: list[Any] = [g.id_to_action(i) for i in rng.sample(refused, min(150, len(refused)))]
        for a in rng.sample(g.legal_actions(), min(3, len(legal))):
            probes += variants(str(a), rng)
        for other in kingdoms.games():
            probes += [str(a) for a in OTHERS[other][:3]]
        probes += ["pass", "", "?", "x" * 100]
        here = [outcome(g, p) for p in probes]
        for s in (11, 22, 33):
            d = g.resample_hidden(mover, s)
            for p, want in zip(probes, here, strict=True):
                assert outcome(d, p) == want, f"{p!r} on resample_hidden({mover}, {s})"
                checked += want != "accepted"
    assert checked > 300


@pytest.mark.slow
def test_fuzz_notation_long() -> None:
    CALLS[SURFACE] = 0
    start = time.perf_counter()
    long_run(400)(given(**settings_args)(run_one))()
    print(report_line(time.perf_counter() - start))


def report_line(seconds: float) -> str:
    from _fuzz import report

    return report(SURFACE, seconds)
