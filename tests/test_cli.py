"""The `kingdoms` command line: simulate, bench and play (tournament: tests/test_agents.py)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import kingdoms
import pytest
from kingdoms.cli import main


def test_simulate_prints_the_same_totals_as_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "battleline", "--games", "300", "--seed", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    api = kingdoms.simulate("battleline", 300, 4)
    assert (out["wins"], out["draws"], out["plies"]) == (api.wins, api.draws, api.plies)
    assert main(["simulate", "battleline", "--games", "50", "--seed", "4"]) == 0
    assert "player 0 wins" in capsys.readouterr().out


def test_simulate_passes_rules_options_and_reports_bad_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["simulate", "battleline", "--games", "20", "--json"]
    assert main([*args, "--option", "traitor_troops_only=true"]) == 0
    capsys.readouterr()
    assert main([*args, "--option", "no_such_option=1"]) == 2
    assert "no_such_option" in capsys.readouterr().err


def test_bench_reports_every_measure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "battleline", "--seconds", "0.02", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["battleline"]
    assert figures["random games/s, 1 thread"] > 0
    assert figures["python-loop steps/s"] > 0
    assert any("proofs" in k for k in figures), "Battle Line adds its proof rates"
    for key in (
        "ISMCTS iterations/s (1 thread)",
        "batch steps/s (1024 games, 1 thread, fresh arrays)",
        "batch steps/s (1024 games, 1 thread, out= buffers)",
        "batch steps/s (1024 games, all cores, fresh arrays)",
        "batch steps/s (1024 games, all cores, out= buffers)",
        "tournament (greedy vs random) speed-up, 2 threads / 1",
    ):
        assert figures[key] > 0, key
    assert main(["bench", "arte", "--seconds", "0.01", "--json", "--no-agents"]) == 0
    figures = json.loads(capsys.readouterr().out)["arte"]
    assert "random games/s, 1 thread" in figures
    assert not any("ISMCTS" in k for k in figures)


@pytest.mark.parametrize("name", kingdoms.games())
def test_play_a_whole_game_against_an_agent(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The person answers with a bad move, a help request, then always the first move.
    monkeypatch.setattr("sys.stdin", io.StringIO("nonsense\n?\n" + "1\n" * 5000))
    record = tmp_path / "game.json"
    args = ["play", name, "--ai", "ismcts:20", "--seed", "8", "--record", str(record)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Game over" in out
    game = kingdoms.replay(kingdoms.Record.from_json(record.read_text()))
    assert game.is_terminal


def test_play_stops_on_quit_and_hides_the_opponents_hand(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "battleline", "--seed", "3", "--ai", "random"]) == 0
    out = capsys.readouterr().out
    assert "stopped." in out
    g = kingdoms.new_game("battleline", seed=3)
    theirs = g.to_dict()["hands"][1]
    hand_line = next(line for line in out.splitlines() if line.startswith("player 1 hand"))
    assert not any(card in hand_line.split() for card in theirs)
