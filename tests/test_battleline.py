"""Battle Line through the Python API: hand-built positions, claim proofs against a
brute-force checker, notation, conversion and error cases. Each rule is tested once, in Rust,
by its id (rust/core/src/battleline/tests/, docs/rules/battle-line.md)."""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from typing import Any

import kingdoms
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kingdoms import IllegalActionError, NotationError, StateError
from kingdoms.battleline import (
    BattleLine,
    ClaimProof,
    Formation,
    best_formation,
    match_points,
    prove_claim,
)

COLOURS = "ROYGBP"
TROOPS = [f"{c}{v}" for c in COLOURS for v in range(1, 11)]
TACTICS = [
    "Alexander",
    "Darius",
    "Cavalry",
    "Shield",
    "Fog",
    "Mud",
    "Scout",
    "Redeploy",
    "Deserter",
    "Traitor",
]
CARD_ORDER = {c: i for i, c in enumerate(TROOPS + TACTICS)}


# ---- building positions --------------------------------------------------------------------


def position(
    flags: dict[int, dict[str, Any]] | None = None,
    hands: tuple[list[str], list[str]] = ([], []),
    discard: list[str] | None = None,
    **extra: Any,
) -> BattleLine:
    """A state from the cards that matter; every other card goes to its deck (by id)."""
    discard = discard or []
    flag_list: list[dict[str, Any]] = []
    used = set(hands[0]) | set(hands[1]) | set(discard)
    tactics_by_side = [0, 0]
    for f in range(9):
        spec = dict((flags or {}).get(f, {}))
        sides = spec.get("sides", [[], []])
        env = spec.get("env", [])
        mud = any(e["card"] == "Mud" for e in env)
        size = 4 if mud else 3
        for p, side in enumerate(sides):
            used |= set(side)
            tactics_by_side[p] += sum(c in TACTICS for c in side)
        for e in env:
            used.add(e["card"])
            tactics_by_side[e["side"]] += 1
        complete = [len(s) == size for s in sides]
        first = spec.get("first_complete", 0 if complete[0] else (1 if complete[1] else None))
        flag_list.append(
            {"sides": sides, "env": env, "claimed": spec.get("claimed"), "first_complete": first}
        )
    for c in discard:
        if c in TACTICS:
            p = 1 if tactics_by_side[1] < tactics_by_side[0] else 0
            tactics_by_side[p] += 1
    state: dict[str, Any] = {
        "flags": flag_list,
        "hands": [list(hands[0]), list(hands[1])],
        "troop_deck": [c for c in TROOPS if c not in used],
        "tactics_deck": [c for c in TACTICS if c not in used],
        "discard": discard,
        "to_move": 0,
        "phase": "play",
        "tactics_played": tactics_by_side,
        "leader_played": [False, False],
        "pass_streak": 0,
        "options": {},
        "scout": None,
        "winner": None,
        "scout_known": [
            {"troop_deck": [], "tactics_deck": [], "opponent_hand": []},
            {"troop_deck": [], "tactics_deck": [], "opponent_hand": []},
        ],
        "hand_counts": [
            {"troops": sum(c in TROOPS for c in h), "tactics": sum(c in TACTICS for c in h)}
            for h in hands
        ],
    }
    state.update(extra)
    return BattleLine.from_dict(state)


def illegal(g: BattleLine, action: str, rule: str) -> None:
    before = g.to_dict()
    with pytest.raises(IllegalActionError) as info:
        g.apply(action)
    assert info.value.rule == rule, str(info.value)
    assert g.to_dict() == before
    assert action not in [str(a) for a in g.legal_actions()]


def legal(g: BattleLine) -> list[str]:
    return [str(a) for a in g.legal_actions()]


# ---- setup and turn --------------------------------------------------------------------------


def test_the_class_and_new_game_make_the_same_game() -> None:
    assert kingdoms.new_game("battleline", seed=3).to_dict() == BattleLine(seed=3).to_dict()


def test_bad_options_are_rules_option_errors() -> None:
    with pytest.raises(kingdoms.RulesOptionError):
        BattleLine(seed=1, first_player=2)
    with pytest.raises(kingdoms.RulesOptionError):
        BattleLine(seed=1, traitor_troop_only=True)


def test_an_illegal_action_raises_with_its_rule_and_changes_nothing() -> None:
    # The rules themselves are tested in Rust by id (rust/core/src/battleline/tests/).
    g = position(hands=(["R8", "R9"], ["P1"]))
    illegal(g, "R7@1", "BL-3.3")


# ---- environment and guile ---------------------------------------------------------------


# ---- claims, passing, end ---------------------------------------------------------------------


def test_claim_proofs_reach_python_with_their_counterexample() -> None:
    g = position(
        flags={0: {"sides": [["R7", "O7", "Y7"], ["B9"]]}},
        hands=(["P9"], ["P4"]),
        phase="claim",
    )
    proof = g.claim_proof(0, 0)
    assert isinstance(proof, ClaimProof) and not proof and proof.verdict == "beatable"
    assert proof.counterexample is not None and proof.counterexample.kind == "wedge"
    assert "beat" in str(proof)


def test_bl_12_1_match_points_helper() -> None:
    assert match_points(0, (5, 2)) == (5, 2)
    assert match_points(1, (3, 3)) == (3, 5)
    assert match_points(None, (2, 2)) == (2, 2)
    with pytest.raises(ValueError):
        match_points(2, (1, 1))


# ---- notation, state dict --------------------------------------------------------------------


def test_every_action_notation_round_trips() -> None:
    g = BattleLine(seed=0)
    assert g.num_actions == 1998
    for i in range(g.num_actions):
        a = g.id_to_action(i)
        assert g.parse_action(str(a)).id == i
        assert g.action_to_id(str(a)) == i
    assert str(g.parse_action("R10@3")) == "R10@3"
    assert g.describe_action("Redeploy Mud>discard") == {
        "kind": "redeploy",
        "card": "Mud",
        "to": "discard",
    }


@pytest.mark.parametrize(
    "text", ["", "R11@3", "R10@9", "claim 9", "Scout@1", "Traitor R5>discard", "draw", "x"]
)
def test_bad_notation(text: str) -> None:
    with pytest.raises(NotationError):
        BattleLine(seed=0).parse_action(text)


def test_from_dict_errors_say_where() -> None:
    d = BattleLine(seed=2).to_dict()
    bad = copy.deepcopy(d)
    bad["hands"][0][0] = bad["hands"][1][0]
    with pytest.raises(StateError, match=r"\$\.hands"):
        BattleLine.from_dict(bad)
    bad = copy.deepcopy(d)
    bad["flags"][4]["sides"][0] = ["Scout"]
    with pytest.raises(StateError, match=r"flags\[4\]"):
        BattleLine.from_dict(bad)
    bad = copy.deepcopy(d)
    bad["tactics_played"] = [2, 0]
    with pytest.raises(StateError, match="BL-6.1"):
        BattleLine.from_dict(bad)


def test_hand_counts_are_derived_and_errors_name_the_path() -> None:
    g = BattleLine(seed=3)
    d = g.to_dict()
    del d["hand_counts"]
    assert BattleLine.from_dict(d) == g
    bad = copy.deepcopy(d)
    bad["flags"][3]["sides"][1] = ["R3", 7]
    with pytest.raises(StateError, match=r"\$\.flags\[3\]\.sides\[1\]\[1\]"):
        BattleLine.from_dict(bad)
    bad = copy.deepcopy(d)
    bad["hand_counts"] = [{"troops": 6, "tactics": 1}, {"troops": 7, "tactics": 0}]
    with pytest.raises(StateError, match=r"\$\.hand_counts"):
        BattleLine.from_dict(bad)


def test_best_formation_api() -> None:
    f = best_formation(["Alexander", "R9", "R8"])
    assert isinstance(f, Formation)
    assert (f.kind, f.total, f.resolved) == ("wedge", 27, ["R10", "R9", "R8"])
    assert best_formation(["Shield", "Y1", "Y2"]).resolved == ["Y3", "Y1", "Y2"]
    assert best_formation(["R1", "B5", "G9"], fog=True).kind == "host"
    with pytest.raises(NotationError):
        best_formation(["R11"])
    with pytest.raises(IllegalActionError) as info:
        best_formation(["Alexander", "Darius", "R1"])
    assert info.value.rule == "BL-6.2"
    with pytest.raises(ValueError):
        best_formation([])


def test_prove_claim_api_errors() -> None:
    with pytest.raises(IllegalActionError) as info:
        prove_claim(["R1", "R2"], [], [])
    assert info.value.rule == "BL-9.2"
    with pytest.raises(ValueError, match="completed first"):
        prove_claim(["R1", "R2", "R3"], ["B1", "B2", "B3"], [])
    with pytest.raises(ValueError, match="unseen"):
        prove_claim(["R1", "R2", "R3"], ["B1"], ["R1"])
    with pytest.raises(ValueError, match="tactics"):
        prove_claim(["R1", "R2", "R3"], ["B1"], ["Alexander"])
    p = prove_claim(["R1", "R2", "R3"], ["B1", "B2", "B3"], [], mine_completed_first=True)
    assert isinstance(p, ClaimProof) and p and p.verdict == "wins_tie"


# ---- proofs against brute force ----------------------------------------------------------------


def stand_ins(card: str) -> list[tuple[int, int]]:
    if card in CARD_ORDER and CARD_ORDER[card] < 60:
        return [(COLOURS.index(card[0]), int(card[1:]))]
    if card == "Cavalry":
        return [(c, 8) for c in range(6)]
    if card == "Shield":
        return [(c, v) for c in range(6) for v in (1, 2, 3)]
    return [(c, v) for c in range(6) for v in range(1, 11)]


def classify(cards: tuple[tuple[int, int], ...], fog: bool) -> int:
    total = sum(v for _, v in cards)
    if fog:
        return total
    values = sorted(v for _, v in cards)
    same_colour = len({c for c, _ in cards}) == 1
    run = all(b == a + 1 for a, b in itertools.pairwise(values))
    same_value = len(set(values)) == 1
    kind = 4 if same_colour and run else 3 if same_value else 2 if same_colour else 1 if run else 0
    return kind * 64 + total


def brute_best(cards: list[str], fog: bool) -> int:
    return max(classify(r, fog) for r in itertools.product(*(stand_ins(c) for c in cards)))


def brute_holds(
    mine: list[str], theirs: list[str], pool: list[str], fog: bool, mud: bool, first: bool
) -> bool:
    size = 4 if mud else 3
    s = brute_best(mine, fog)
    if len(theirs) == size:
        t = brute_best(theirs, fog)
        return s > t or (s == t and first)
    best = None
    for extra in itertools.combinations(pool, size - len(theirs)):
        t = brute_best(theirs + list(extra), fog)
        best = t if best is None else max(best, t)
    return best is None or best <= s


@st.composite
def claim_cases(draw: st.DrawFn) -> tuple[list[str], list[str], list[str], bool, bool, bool]:
    mud = draw(st.booleans())
    fog = draw(st.booleans())
    size = 4 if mud else 3
    rnd = random.Random(draw(st.integers(0, 2**32)))
    troops = TROOPS[:]
    if rnd.random() < 0.6:  # concentrate colours and values: strong formations and ties
        keep = set(rnd.sample(COLOURS, 2))
        lo = rnd.randint(1, 7)
        troops = [t for t in troops if t[0] in keep or lo <= int(t[1:]) <= lo + 3]
    rnd.shuffle(troops)
    wilds = ["Cavalry", "Shield"]

    def side(n: int, leader: str) -> list[str]:
        out: list[str] = []
        used_wild = False
        while len(out) < n:
            if not used_wild and rnd.random() < 0.2:
                used_wild = True
                choice = rnd.choice([leader] + wilds)
                if choice in wilds:
                    wilds.remove(choice)
                out.append(choice)
            else:
                out.append(troops.pop())
        return out

    mine = side(size, "Alexander")
    theirs = side(draw(st.integers(0, size)), "Darius")
    pool = troops[: draw(st.integers(0, 7))]
    first = draw(st.booleans()) if len(theirs) == size else True
    return mine, theirs, pool, fog, mud, first


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(claim_cases())
def test_bl_9_prove_claim_matches_brute_force(
    case: tuple[list[str], list[str], list[str], bool, bool, bool],
) -> None:
    mine, theirs, pool, fog, mud, first = case
    size = 4 if mud else 3
    proof = prove_claim(
        mine,
        theirs,
        pool,
        fog=fog,
        mud=mud,
        mine_completed_first=first if len(theirs) == size else None,
    )
    assert bool(proof) == brute_holds(mine, theirs, pool, fog, mud, first), str(proof)
    assert proof.mine.strength == brute_best(mine, fog)
    cex = proof.counterexample
    if cex is not None:
        assert not proof
        assert cex.cards[: len(theirs)] == theirs
        assert set(cex.completion) <= set(pool)
        assert cex.strength == brute_best(cex.cards, fog) >= proof.mine.strength


# ---- random games: protocol properties -------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 300), st.booleans(), st.booleans())
def test_random_positions_keep_the_protocol(
    seed: int, steps: int, traitor_troops_only: bool, claim_at_turn_start: bool
) -> None:
    g = BattleLine(
        seed=seed,
        traitor_troops_only=traitor_troops_only,
        claim_at_turn_start=claim_at_turn_start,
    )
    rnd = random.Random(seed)
    for _ in range(steps):
        if g.is_terminal:
            break
        g.apply(rnd.choice(g.legal_actions()))
    # Round trips.
    assert BattleLine.from_dict(g.to_dict()) == g
    assert pickle.loads(pickle.dumps(g)).to_dict() == g.to_dict()
    assert kingdoms.replay(g.record()).to_dict() == g.to_dict()
    # Illegal actions raise and change nothing.
    before = g.to_dict()
    legal_ids = set(g.legal_action_ids().tolist())
    for i in rnd.sample(range(g.num_actions), 30):
        if i not in legal_ids:
            with pytest.raises(IllegalActionError):
                g.apply_id(i)
            assert g.to_dict() == before
    mask = g.action_mask()
    assert mask.dtype == np.bool_ and mask.sum() == len(legal_ids)
    # Views leak nothing and survive determinization.
    for p in (0, 1):
        view = g.view(p)
        full = g.to_dict()
        o = 1 - p
        known = set(full["scout_known"][p]["opponent_hand"])
        assert [c for c in view["hands"][o] if c is not None] == sorted(
            (c for c in full["hands"][o] if c in known), key=CARD_ORDER.__getitem__
        )
        r = g.resample_hidden(p, seed + p)
        assert r.view(p) == view
        assert np.array_equal(r.observation_tensor(p), g.observation_tensor(p))
        assert r.render(p) == g.render(p)
        secret = [c for c in full["hands"][o] if c not in known]
        shown = g.render(p)
        hand_line = next(line for line in shown.splitlines() if line.startswith(f"player {o} hand"))
        assert not any(c in hand_line.split() for c in secret)
        assert -1.0 <= g.evaluate(p) <= 1.0
    assert g.observation_tensor(0).shape == (1707,)


def test_simulate_counts_are_reproducible() -> None:
    a = kingdoms.simulate("battleline", 200, seed=5, threads=1)
    b = kingdoms.simulate("battleline", 200, seed=5, threads=2)
    assert (a.wins, a.draws, a.plies) == (b.wins, b.draws, b.plies)
    assert sum(a.wins) + a.draws == 200


def test_bench_extras_report_proof_rates() -> None:
    from kingdoms.battleline import bench_extras

    figures = bench_extras(0.01)
    assert set(figures) == {"claim proofs/s, typical", "claim proofs/s, worst case"}
    assert all(v > 1000 for v in figures.values())
