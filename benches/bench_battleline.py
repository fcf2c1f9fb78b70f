"""Battle Line through Python: claim proofs per second and apply/legal_actions steps per
second. Run with ``pytest benches/bench_battleline.py --benchmark-enable`` (benches are not
part of the test run)."""

from __future__ import annotations

import random

import kingdoms
from kingdoms.battleline import BattleLine, best_formation, prove_claim
from pytest_benchmark.fixture import BenchmarkFixture

COLOURS = "ROYGBP"
TROOPS = [f"{c}{v}" for c in COLOURS for v in range(1, 11)]


def _unseen(*visible: str) -> list[str]:
    return [t for t in TROOPS if t not in visible]


def test_prove_claim_typical(benchmark: BenchmarkFixture) -> None:
    unseen = _unseen("R7", "O7", "Y7", "B9", "B8", "G1", "G2", "P5", "P6")
    proof = benchmark(prove_claim, ["R7", "O7", "Y7"], ["B9", "B8"], unseen)
    assert not proof


def test_prove_claim_worst_case_empty_side_mud(benchmark: BenchmarkFixture) -> None:
    unseen = _unseen("R1", "O3", "Y5", "G9")
    proof = benchmark(prove_claim, ["R1", "O3", "Y5", "G9"], [], unseen, mud=True)
    assert not proof


def test_best_formation(benchmark: BenchmarkFixture) -> None:
    f = benchmark(best_formation, ["Alexander", "R9", "R8"])
    assert f.kind == "wedge"


def test_game_claim_proof(benchmark: BenchmarkFixture) -> None:
    g = BattleLine(seed=1)
    rnd = random.Random(1)
    for _ in range(60):
        g.apply(rnd.choice(g.legal_actions()))
    benchmark(lambda: [g.claim_proof(f, p) for f in range(9) for p in (0, 1)])


def _random_game_steps(seed: int) -> int:
    g = BattleLine(seed=seed)
    rnd = random.Random(seed)
    steps = 0
    while not g.is_terminal:
        g.apply(rnd.choice(g.legal_actions()))
        steps += 1
    return steps


def test_python_loop_legal_actions_apply(benchmark: BenchmarkFixture) -> None:
    """One random game driven from Python (legal_actions + apply per step)."""
    seeds = iter(range(10**9))
    steps = benchmark(lambda: _random_game_steps(next(seeds)))
    assert steps > 0


def test_python_loop_ids_and_masks(benchmark: BenchmarkFixture) -> None:
    """The same with the id interface a training loop uses (legal_action_ids + apply_id)."""

    def run(seed: int) -> int:
        g = BattleLine(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not g.is_terminal:
            ids = g.legal_action_ids()
            g.apply_id(int(ids[rng.randrange(len(ids))]))
            steps += 1
        return steps

    seeds = iter(range(10**9))
    assert benchmark(lambda: run(next(seeds))) > 0


def test_simulate_one_thread(benchmark: BenchmarkFixture) -> None:
    stats = benchmark(kingdoms.simulate, "battleline", 2000, 1, threads=1)
    assert stats.games == 2000
