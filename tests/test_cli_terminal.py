"""The command line in an 80-column terminal (no table cell cut, no title wrapped, counts
with thousands separators), its help, and its error messages (issue 54)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import kingdoms
import pytest
from kingdoms import selfplay
from kingdoms._cli_agents import AGENT_HELP
from kingdoms.cli import main


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    out: str = capsys.readouterr().out
    return out


def test_the_main_help_is_current_and_plain(capsys: pytest.CaptureFixture[str]) -> None:
    out = _help([], capsys)
    assert "`" not in out and "where available" not in out
    for command in ("simulate", "bench", "tournament", "selfplay", "play", "render", "view"):
        assert f"    {command}" in out


@pytest.mark.parametrize("command", ["tournament", "selfplay", "play"])
def test_the_agent_grammar_is_printed_once_and_never_split_mid_token(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _help([command], capsys)
    assert out.count("ismcts:time=SECONDS") == 1
    words = set(out.split())
    assert [w for w in AGENT_HELP.split() if w not in words] == []
    assert max(len(line) for line in out.splitlines()) <= 80


def test_a_bad_positional_agent_field_names_no_empty_field(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["tournament", "battleline", "--agents", "ismcts:abc", "random"]) == 2
    err = capsys.readouterr().err
    assert '"abc" is not a whole number' in err and ": :" not in err


def test_tournament_standings_fit_80_columns_without_cutting_a_cell(
    capsys: pytest.CaptureFixture[str],
) -> None:
    agents = ["ismcts:20,c=1.5", "greedy:4", "random", "heuristic"]
    assert main(["tournament", "battleline", "--agents", *agents, "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    for name in agents:  # every name whole, on one line of the standings
        assert any(name in line for line in lines), name
    # every interval on one line, beside its agent
    intervals = [line for line in lines if re.search(r"\[[+-]\d+, [+-]\d+\]", line)]
    assert len(intervals) == len(agents)
    assert all(any(name in line for name in agents) for line in intervals)


def test_simulate_title_does_not_wrap_and_counts_have_separators(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "battleline", "--games", "2500", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "battleline: 2,500 uniformly random games, seed 1" in out
    stats = kingdoms.simulate("battleline", 2500, 1)
    assert f"{max(stats.wins):,}" in out and "," in f"{max(stats.wins):,}"
    assert "…" not in out and max(len(line) for line in out.splitlines()) <= 80


def test_selfplay_defaults_to_npz_and_refuses_parquet_without_pyarrow_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(selfplay, "has_parquet", lambda: False)
    out = tmp_path / "run"
    args = ["selfplay", "battleline", "--agents", "random", "--games", "2", "--out", str(out)]
    with pytest.raises(SystemExit, match="pyarrow"):
        main([*args, "--format", "parquet", "--shard-games", "1"])
    assert not out.exists()
    assert main([*args, "--shard-games", "1", "--json"]) == 0
    manifest = json.loads(capsys.readouterr().out)
    assert manifest["format"] == "npz" and len(manifest["shards"]) == 2
    assert sorted(p.suffix for p in out.iterdir()) == [".json", ".npz", ".npz"]


def test_render_takes_the_game_from_the_record_and_view_writes_to_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g = kingdoms.new_game("arte", seed=2)
    for _ in range(4):
        g.apply(g.legal_actions()[0])
    path = tmp_path / "g.json"
    path.write_text(g.record().to_json())
    assert main(["render", "--record", str(path)]) == 0
    assert capsys.readouterr().out == str(g.svg())
    with pytest.raises(SystemExit, match="needs GAME"):
        main(["render"])
    assert main(["view", str(path), "-o", "-"]) == 0
    assert capsys.readouterr().out.startswith("<!DOCTYPE html>")
    assert main(["view", str(path)]) == 0  # stdout is the default
    assert capsys.readouterr().out.startswith("<!DOCTYPE html>")


def _play(answers: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    assert main(["play", "battleline", "--seed", "3", "--ai", "random"]) == 0
    out: str = capsys.readouterr().out
    return out


def test_play_names_a_missing_move_number_and_the_rule_an_illegal_move_breaks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _play("999\nR1@0\nquit\n", monkeypatch, capsys)
    assert "no move 999: the moves are numbered 1 to" in out and "notation" not in out
    # R1 is not in player 0's hand (R4 R10 O8 Y9 G6 P1 P2): the rule is named
    assert "R1@0 is not legal now: illegal action (BL-3.3)" in out


def test_play_reads_notation_in_any_case(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("r4@0\nquit\n"))
    args = ["play", "battleline", "--seed", "3", "--ai", "random", "--record", str(record)]
    assert main(args) == 0
    assert kingdoms.Record.from_json(record.read_text()).actions[:1] == ["R4@0"]
