"""The `kingdoms` command line: simulate, bench and play (tournament: tests/test_agents.py)."""

from __future__ import annotations

import io
import json
import re
import sys
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


@pytest.mark.parametrize("value", ["[" * 100_000, "9" * 5000], ids=["deep", "long-number"])
def test_an_option_value_json_cannot_read_is_plain_text(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--option KEY=VALUE reads VALUE as JSON when it parses, else as text: deep nesting and
    over-long integers are text too (they raised RecursionError / ValueError)."""
    args = ["simulate", "battleline", "--games", "1", "--option"]
    assert main([*args, f"traitor_troops_only={value}"]) == 2
    err = capsys.readouterr().err
    assert "traitor_troops_only: expected a boolean, got string" in err and len(err) < 1000


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
        "batch steps/s (1024 games, 1 thread, out= buffers, compact)",
        "batch steps/s (1024 games, all cores, out= buffers, compact)",
        "tournament (greedy vs random) speed-up, 2 threads / 1",
    ):
        assert figures[key] > 0, key
    assert main(["bench", "arte", "--seconds", "0.01", "--json", "--no-agents"]) == 0
    figures = json.loads(capsys.readouterr().out)["arte"]
    assert "random games/s, 1 thread" in figures
    assert not any("ISMCTS" in k for k in figures)


# Every mode of every game with more than one (issue 13): label, rules options, seats, teams.
MODES = [
    ("free-for-all, 3 players", {"mode": "free_for_all", "players": 3}, 3, False),
    ("free-for-all, 4 players", {"mode": "free_for_all", "players": 4}, 4, False),
    ("teams, 2 v 2", {"mode": "teams"}, 4, True),
]
needs_zinordia = pytest.mark.skipif(
    "zinordia" not in kingdoms.games(), reason="zinordia is not registered"
)


def option_args(options: dict[str, object]) -> list[str]:
    return [a for k, v in options.items() for a in ("--option", f"{k}={v}")]


@needs_zinordia
def test_bench_measures_every_mode_of_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "zinordia", "--seconds", "0.01", "--json", "--no-agents"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert list(figures) == ["zinordia"] + [f"zinordia ({label})" for label, *_ in MODES]
    for mode in figures.values():
        assert mode["random games/s, 1 thread"] > 0
        assert mode["python-loop steps/s"] > 0
    # A mode picked with --option is the only one measured, under the game's name.
    args = ["bench", "zinordia", "--seconds", "0.01", "--json", "--no-agents"]
    assert main([*args, *option_args({"mode": "teams"})]) == 0
    assert list(json.loads(capsys.readouterr().out)) == ["zinordia"]


@needs_zinordia
@pytest.mark.parametrize("mode", MODES, ids=lambda m: m[0])
def test_bench_agent_figures_in_every_mode(mode: tuple[str, dict[str, object], int, bool]) -> None:
    from kingdoms import _bench
    from kingdoms.agents import ISMCTS, Greedy

    _, options, seats, teams = mode
    search = ISMCTS(iterations=100)
    lineup = _bench.lineup("zinordia", search, [Greedy()], options)
    # The searcher and, in a team game, its partner, then greedy players in every other seat.
    assert lineup == [search] * (2 if teams else 1) + [Greedy()] * (seats - (2 if teams else 1))
    assert _bench.ismcts_iterations_per_second("zinordia", 0.0, options=options) > 0
    assert _bench.greedy_moves_per_second("zinordia", 0.0, options) > 0
    steps = _bench.batch_steps_per_second("zinordia", 8, 0.0, threads=1, options=options)
    assert steps > 0
    scaling = _bench.tournament_scaling("zinordia", 0.0, rounds=1, options=options)
    assert scaling["games/s, 1 thread"] > 0 and scaling["games/s, 2 threads"] > 0


@needs_zinordia
@pytest.mark.parametrize("mode", MODES, ids=lambda m: m[0])
def test_simulate_and_tournament_accept_every_mode(
    mode: tuple[str, dict[str, object], int, bool], capsys: pytest.CaptureFixture[str]
) -> None:
    _, options, seats, teams = mode
    args = ["simulate", "zinordia", "--games", "6", "--seed", "2", "--json"]
    assert main([*args, *option_args(options)]) == 0
    out = json.loads(capsys.readouterr().out)
    api = kingdoms.simulate("zinordia", 6, 2, **options)
    assert (out["wins"], out["plies"]) == (api.wins, api.plies)
    assert len(out["wins"]) == seats
    agents = ["greedy", "random", "random:seed=1", "random:seed=2"][:seats]
    args = ["tournament", "zinordia", "--agents", *agents, "--games", str(2 * seats)]
    args += ["--partners", "fixed", "--bootstrap", "0", "--threads", "1", "--json"]
    assert main([*args, *option_args(options)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["num_players"] == seats
    assert result["teams"] == ([0, 1, 0, 1] if teams else list(range(seats)))
    # Each game not drawn is won by one seat, or by both seats of a team.
    assert sum(result["seat_wins"]) == (2 if teams else 1) * (2 * seats - result["draws"])
    assert [sum(p) for p in result["places"]] == [2 * seats] * seats


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


BOT = '''
class FirstMove:
    """Plays the first legal move (the lowest id)."""

    name = "first-move"

    def act(self, game):
        return game.legal_actions()[0]


class LastId:
    def act(self, game):
        return int(game.legal_action_ids()[-1])


BOT_TEXT = "not an agent"
'''


@pytest.fixture
def bot_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory holding `mybot.py`, not on sys.path (as for the `kingdoms`
    script), with imports and sys.path restored afterwards."""
    (tmp_path / "mybot.py").write_text(BOT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "mybot", raising=False)
    return tmp_path


def test_tournament_takes_python_agents_from_the_working_directory(
    capsys: pytest.CaptureFixture[str], bot_dir: Path
) -> None:
    args = ["tournament", "battleline", "--agents", "mybot:FirstMove", "mybot:LastId", "random"]
    assert main([*args, "--games", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["names"] == ["first-move", "LastId", "random"]
    first = [g for g in out["results"] if 0 in g["seats"]]
    assert first, "the Python agent played"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuchmodule:Bot", "cannot import nosuchmodule"),
        ("mybot:Missing", "has no Missing"),
        ("mybot:BOT_TEXT", "has no act(game) method"),
        ("mybot:First Move", "not a built-in agent"),
        ("ismcts:lots", "ismcts"),
    ],
)
def test_a_bad_agent_is_a_clear_error(
    spec: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
    bot_dir: Path,
) -> None:
    assert main(["tournament", "battleline", "--agents", spec, "random", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_tournament_ranks_rows_by_rating(capsys: pytest.CaptureFixture[str]) -> None:
    from kingdoms._cli_tournament import results_table
    from kingdoms.agents import Greedy, Random
    from rich.console import Console

    args = ["tournament", "battleline", "--agents", "random", "greedy", "--games", "20"]
    assert main([*args, "--seed", "2", "--bootstrap", "0"]) == 0
    assert "rank" in capsys.readouterr().out
    r = kingdoms.tournament("battleline", [Random(), Greedy()], games=20, seed=2, bootstrap=0)
    buffer = io.StringIO()
    Console(file=buffer, width=200).print(results_table(r))
    lines = buffer.getvalue().splitlines()
    header = next(line for line in lines if "agent" in line and "Elo" in line)
    assert header.split()[:4] == ["rank", "#", "agent", "games"]
    rows = [line.split() for line in lines if line.split() and line.split()[0].isdigit()]
    assert [row[0] for row in rows] == ["1", "2"]
    assert [row[2] for row in rows] == ["greedy", "random"]  # greedy is rated higher
    assert r.elo[1].elo > r.elo[0].elo
    assert [int(row[6]) for row in rows] == [round(r.elo[1].elo), round(r.elo[0].elo)]


def _options(parser: object) -> list[tuple[str, object]]:
    import argparse

    assert isinstance(parser, argparse.ArgumentParser)
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out += [(f"{name} {a}", b) for a, b in _options(sub)]
        elif not isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            out.append(("/".join(action.option_strings) or str(action.dest), action))
    return out


def test_every_option_has_help_and_says_its_default() -> None:
    import argparse

    from kingdoms.cli import build_parser

    options = _options(build_parser())
    assert len(options) > 40
    for name, action in options:
        assert isinstance(action, argparse.Action)
        assert action.help, f"{name} has no help"
        if action.option_strings and not action.required and action.default is not False:
            assert "default" in action.help, f"{name}: the help does not give the default"


def test_help_prints_percent_signs_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    out = capsys.readouterr().out
    assert "95%" in out
    assert "%%" not in out


def test_progress_bars_name_what_they_count() -> None:
    from kingdoms._cli_tournament import progress_bar
    from rich.console import Console

    for unit in ("games", "steps"):
        buffer = io.StringIO()
        console = Console(file=buffer, force_terminal=True, width=100)
        with progress_bar(False, unit, console) as bar:
            task = bar.add_task("battleline: random games", total=10)
            bar.advance(task, 3)
            bar.refresh()
        shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buffer.getvalue())  # no colours
        assert f"3/10 {unit}" in shown


def _play(
    args: list[str],
    answers: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    assert main(["play", *args]) == 0
    out: str = capsys.readouterr().out
    return out


def test_play_groups_moves_by_card_with_numbers_in_display_order(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "g.json"
    args = ["battleline", "--seed", "3", "--ai", "random", "--record", str(record)]
    out = _play(args, "11\nquit\n", monkeypatch, capsys)
    hand = kingdoms.new_game("battleline", seed=3).to_dict()["hands"][0]
    lines = [line.split() for line in out.splitlines()]
    grouped = [words for words in lines if words and words[0] in hand]
    assert [words[0] for words in grouped] == sorted(hand, key=hand.index)
    first = grouped[0]
    assert first[1:] == [f"{i + 1}:@{i}" for i in range(9)]
    # 11 is the second card at flag 1, as shown
    assert kingdoms.Record.from_json(record.read_text()).actions == [f"{grouped[1][0]}@1"]


def test_play_colours_cards_by_suit_only_when_asked_or_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["battleline", "--seed", "3", "--ai", "random"]
    plain = _play(args, "quit\n", monkeypatch, capsys)
    assert "\x1b[" not in plain  # not a terminal
    coloured = _play([*args, "--color", "always"], "quit\n", monkeypatch, capsys)
    assert "\x1b[1;31mR4\x1b[0m" in coloured  # R4 in bold red
    assert "\x1b[1;34mB" in coloured or "\x1b[1;35mP" in coloured
    never = _play([*args, "--color", "never"], "quit\n", monkeypatch, capsys)
    assert "\x1b[" not in never
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("FORCE_COLOR", "1")  # a terminal, as rich sees it, yet NO_COLOR wins
    assert "\x1b[1;31m" not in _play(args, "quit\n", monkeypatch, capsys)


def test_play_hint_shows_the_search_statistics(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["battleline", "--seed", "3", "--ai", "random", "--hint-agent", "ismcts:300,seed=1"]
    out = _play(args, "hint\nquit\n", monkeypatch, capsys)
    g = kingdoms.new_game("battleline", seed=3)
    search = kingdoms.agents.ISMCTS(iterations=300, seed=1).analyze(g)
    best = max(search.actions, key=lambda s: s.visits)
    assert "hint (ismcts:300" in out
    assert "300 iterations" in out
    lines = [line.split() for line in out.splitlines() if "visits" in line]
    assert len(lines) == 5
    assert lines[0][0] == str(best.action)
    assert int(lines[0][2]) == best.visits
    visits = [int(words[2]) for words in lines]
    assert visits == sorted(visits, reverse=True)


def test_play_undo_takes_back_the_persons_move_and_the_replies(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "g.json"
    args = ["battleline", "--seed", "3", "--ai", "random", "--record", str(record)]
    # play, draw (the agent replies), undo the draw and the reply, undo the play; then
    # another card, and quit
    out = _play(args, "1\n1\nundo\nundo\n10\nquit\n", monkeypatch, capsys)
    assert "player 1 (random) plays" in out
    assert out.count("undone: back to your earlier move") == 2
    actions = kingdoms.Record.from_json(record.read_text()).actions
    hand = kingdoms.new_game("battleline", seed=3).to_dict()["hands"][0]
    assert actions == [f"{hand[1]}@0"]
    out = _play(
        ["battleline", "--seed", "3", "--ai", "random"], "undo\nquit\n", monkeypatch, capsys
    )
    assert "nothing to undo yet" in out


def test_play_enter_plays_the_only_legal_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Arte, seed 1, first moves throughout: at ply 38 player 0 has one move, place T9 3.
    record = tmp_path / "g.json"
    args = ["arte", "--seats", "human", "human", "--seed", "1", "--record", str(record)]
    out = _play(args, "1\n" * 38 + "\nquit\n", monkeypatch, capsys)
    assert "player 0, your move [place T9 3]>" in out
    actions = kingdoms.Record.from_json(record.read_text()).actions
    assert len(actions) == 39
    assert actions[38] == "place T9 3"


def test_play_battleline_shows_formations_claimable_flags_and_a_summary(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _play(["battleline", "--seed", "8", "--ai", "random"], "1\n" * 3000, monkeypatch, capsys)
    assert "Game over" in out
    assert any(line.strip().startswith("flag 0: you ") for line in out.splitlines())
    assert any(k in out for k in ("(phalanx ", "(wedge ", "(battalion ", "(skirmish ", "(host "))
    assert "claimable now: flag" in out
    summary = out[out.index("Game over") :]
    assert "player 0: human" in summary
    assert "player 1: random" in summary
    assert "flags won" in summary and "match points" in summary
    assert "0 hints, 0 undos" in summary


def test_play_claimable_flags_are_exactly_the_proven_claims(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kingdoms._cli_play import battleline_flags
    from rich.console import Console

    g = kingdoms.battleline.BattleLine(seed=8)
    import random

    rng = random.Random(1)
    checked = 0
    while not g.is_terminal:
        seat = g.current_player
        assert seat is not None
        buffer = io.StringIO()
        battleline_flags(Console(file=buffer, width=200), g, seat)
        text = buffer.getvalue()
        proven = [f for f in range(9) if g.claim_proof(f, seat)]
        if proven:
            assert f"claimable now: flag {', '.join(map(str, proven))} " in text
            checked += 1
        else:
            assert "claimable" not in text
        g.apply(rng.choice(g.legal_actions()))
    assert checked > 0


def test_play_seats_any_mix_of_people_and_agents(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    bot_dir: Path,
) -> None:
    # two people at one terminal: each turn names the seat and shows that seat's view
    out = _play(
        ["battleline", "--seats", "human", "human", "--seed", "3"],
        "1\n1\n1\nquit\n",
        monkeypatch,
        capsys,
    )
    assert "player 0's turn" in out and "player 1's turn" in out
    assert "player 1, your move>" in out
    # agents only, one a Python agent: the game plays through with no input at all
    out = _play(
        ["strifull", "--seats", "mybot:FirstMove", "greedy", "--seed", "2"], "", monkeypatch, capsys
    )
    assert "player 0 (first-move) plays" in out
    assert "Game over" in out
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(SystemExit, match="--seats needs 2 entries"):
        main(["play", "battleline", "--seats", "human", "random", "random"])


def test_tournament_progress_true_draws_a_bar_and_changes_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from kingdoms.agents import Greedy, Random

    agents = [Random(), Greedy()]
    plain = kingdoms.tournament("battleline", agents, games=4, seed=5, bootstrap=10)
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("FORCE_COLOR", "1")  # stderr counts as a terminal for rich
    shown = kingdoms.tournament("battleline", agents, games=4, seed=5, bootstrap=10, progress=True)
    err = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", capsys.readouterr().err)
    assert "battleline: tournament" in err
    assert "4/4 games" in err
    assert shown.to_dict()["elo"] == plain.to_dict()["elo"]
    assert [r.winner for r in shown.results] == [r.winner for r in plain.results]
    calls: list[tuple[int, int]] = []
    kingdoms.tournament(
        "battleline", agents, games=4, seed=5, progress=lambda d, t: calls.append((d, t))
    )
    assert calls[-1] == (4, 4)


def test_the_documented_python_agent_works_from_the_command_line(
    capsys: pytest.CaptureFixture[str], bot_dir: Path
) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "agents.md").read_text(encoding="utf-8")
    source = re.search(r"cat > mybot.py <<'PY'\n(.*?)\nPY\n", doc, re.DOTALL)
    assert source is not None
    (bot_dir / "mybot.py").write_text(source.group(1), encoding="utf-8")
    commands = re.findall(r"^kingdoms (tournament .*mybot:.*)$", doc, re.MULTILINE)
    assert commands
    args = commands[0].replace("--games 100", "--games 2").split()
    assert main([*args, "--json"]) == 0
    assert "highest-card" in json.loads(capsys.readouterr().out)["names"]


SPY = '''
SEEN = []


class Spy:
    """Notes what it is handed, then plays the first legal move."""

    def act(self, game):
        me = game.current_player
        SEEN.append((me, game.view(me), game.to_dict()["hands"][1 - me]))
        return str(game.legal_actions()[0])
'''


def test_play_hands_a_python_agent_a_redrawn_copy_never_the_hidden_cards(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    bot_dir: Path,
    tmp_path: Path,
) -> None:
    (bot_dir / "spybot.py").write_text(SPY, encoding="utf-8")
    monkeypatch.delitem(sys.modules, "spybot", raising=False)
    record = tmp_path / "g.json"
    args = ["battleline", "--seats", "spybot:Spy", "random", "--seed", "4", "--record", str(record)]
    assert "Game over" in _play(args, "", monkeypatch, capsys)
    seen = sys.modules["spybot"].SEEN
    actions = kingdoms.Record.from_json(record.read_text()).actions
    g = kingdoms.new_game("battleline", seed=4)
    turns, redrawn = 0, 0
    for action in actions:
        if g.current_player == 0:
            me, view, their_hand = seen[turns]
            assert me == 0
            assert view == g.view(0), f"ply {len(g.record().actions)}"
            redrawn += their_hand != g.to_dict()["hands"][1]
            turns += 1
        g.apply(action)
    assert turns == len(seen) > 20
    assert redrawn > turns // 2, "the opponent's hand is redrawn, not the real one"


def test_play_starts_from_a_position_and_its_record_replays(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    g = kingdoms.new_game("battleline", seed=6)
    for _ in range(20):
        g.apply(g.legal_actions()[-1])
    start = g.position()
    record = tmp_path / "g.json"
    args = ["battleline", "--position", start, "--seats", "human", "random", "--seed", "1"]
    out = _play([*args, "--record", str(record)], "1\n" * 500 + "undo\n" * 3, monkeypatch, capsys)
    assert "Game over" in out
    saved = kingdoms.Record.from_json(record.read_text())
    assert saved.position == start
    replayed = kingdoms.replay(saved)
    assert replayed.is_terminal
    first = kingdoms.new_game("battleline", position=start)
    first.apply(saved.actions[0])
    assert (
        first.legal_actions()
        == kingdoms.replay(
            kingdoms.Record("battleline", saved.seed, saved.actions[:1], saved.options, start)
        ).legal_actions()
    )


@pytest.mark.parametrize(
    ("mode", "seats"),
    [
        ("free_for_all", ["human", "random", "greedy"]),
        ("teams", ["human", "random", "human", "random"]),
    ],
)
def test_play_seats_every_player_of_a_many_player_game(
    mode: str,
    seats: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    if "zinordia" not in kingdoms.games():
        pytest.fail("Zinordia (2-4 players) is registered")
    record = tmp_path / "g.json"
    args = ["zinordia", "--option", f"mode={mode}", "--option", f"players={len(seats)}"]
    args += ["--seats", *seats, "--seed", "2", "--record", str(record)]
    out = _play(args, "1\n" * 3000, monkeypatch, capsys)
    assert "Game over" in out
    people = [p for p, s in enumerate(seats) if s == "human"]
    for p in people:
        assert f"player {p}, your move" in out
    if len(people) > 1:
        assert "player 2's turn" in out
    g = kingdoms.replay(kingdoms.Record.from_json(record.read_text()))
    assert g.num_players == len(seats) and g.is_terminal
    summary = out[out.index("Game over") :]
    for p, who in enumerate(seats):
        assert f"player {p}: {who}" in summary
    w = g.winner
    if w is not None and mode == "teams":
        mates = [p for p in range(4) if g.team(p) == g.team(w)]
        assert f"players {mates[0]} ({seats[mates[0]]}), {mates[1]} ({seats[mates[1]]}) win" in out


def test_suit_colours_per_game() -> None:
    from kingdoms._cli_play import colour

    def styled(game: str, text: str) -> list[tuple[str, str]]:
        t = colour(game, text)
        return [(text[s.start : s.end], str(s.style)) for s in t.spans]

    assert styled("battleline", "R10@3 B1 P7 Fog@2 R11") == [
        ("R10", "bold red"),
        ("B1", "bold blue"),
        ("P7", "bold magenta"),
    ]
    assert styled("strifull", "(Ea3/4) (Fi5/3) [Wi] Wave [water]") == [
        ("Ea", "bold yellow"),
        ("Fi", "bold red"),
        ("Wi", "bold cyan"),
        ("water", "bold blue"),
    ]
    assert styled("arte", "deploy U7 b2") == []


def test_records_as_text_name_the_players(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from kingdoms.records import read_records

    path = tmp_path / "g.txt"
    args = ["battleline", "--seed", "3", "--ai", "random", "--record", str(path)]
    _play(args, "1\n" * 3000, monkeypatch, capsys)
    [rec] = read_records(path)
    assert rec.players == ["human", "random"]
    assert rec.event == "kingdoms play"
    assert kingdoms.replay(rec.record).is_terminal
    path = tmp_path / "t.txt"
    args = ["tournament", "arte", "--agents", "random", "greedy", "--games", "4"]
    assert main([*args, "--records", str(path), "--json"]) == 0
    games = read_records(path)
    assert len(games) == 4
    assert all(sorted(g.players) == ["greedy", "random"] for g in games)
    assert all(kingdoms.replay(g.record).is_terminal for g in games)


def test_tournament_tables_show_agent_names_as_plain_text() -> None:
    """A name holding rich markup or ESC is shown as written, never read as markup or sent
    to the terminal raw (issue 51: terminal output carries no control characters)."""
    from kingdoms._cli_tournament import pairings_table, results_table
    from kingdoms.agents import Random
    from rich.console import Console

    class Named:
        name = "[bold red]x[/] \x1b]0;pwned\x07"

        def act(self, game: kingdoms.Game) -> kingdoms.Action:
            return game.legal_actions()[0]

    r = kingdoms.tournament("battleline", [Named(), Random()], games=2, seed=1, bootstrap=0)
    buffer = io.StringIO()
    console = Console(file=buffer, width=200, force_terminal=True, color_system=None)
    console.print(results_table(r))
    console.print(pairings_table(r))
    out = buffer.getvalue()
    assert "[bold red]x[/]" in out
    assert "\x1b]" not in out and "\x07" not in out


@pytest.mark.parametrize("seed", range(6))
def test_another_seats_secret_draft_card_is_never_named(seed: int) -> None:
    """Arte's picker hides one of three cards face down: the other seat's screen and page
    never name it, even when no drawn position holds the two cards shown (ART draft)."""
    from kingdoms._seen import seen_move

    g = kingdoms.new_game("arte", seed=seed)
    for a in g.legal_actions():
        seen = seen_move(g, a, 1)
        assert str(a) not in seen and str(a).split(" ")[1] not in seen, seen
