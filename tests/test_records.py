"""Record text (PGN-like): write, read back, refuse bad text clearly (docs/records.md)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import kingdoms
import pytest
from kingdoms.agents import Random
from kingdoms.records import result_of

GAMES = kingdoms.games()


def a_record(name: str, seed: int = 4) -> kingdoms.Record:
    return kingdoms.play_match(name, [Random(seed=1), Random(seed=2)], seed=seed)


@pytest.mark.parametrize("name", GAMES)
def test_records_of_every_game_round_trip_through_text(name: str) -> None:
    records = [a_record(name, s) for s in range(3)]
    games = [
        kingdoms.GameRecord(
            r,
            players=['Ann "the bold"', "Bob\\2"],
            event="Test",
            date="2026.11.30",
            comments={0: "opening {brace} \\ back", len(r.actions) - 1: "last"},
            headers={"Round": str(i + 1)},
        )
        for i, r in enumerate(records)
    ]
    back = kingdoms.read_records(kingdoms.write_records(games))
    for b, r in zip(back, records, strict=True):
        assert b.result == result_of(kingdoms.replay(r))
    assert [dataclasses.replace(b, result=None) for b in back] == games


def test_results_follow_the_game() -> None:
    rec = a_record("battleline")
    end = kingdoms.replay(rec)
    text = kingdoms.write_records(rec)
    want = {0: "1-0", 1: "0-1", None: "1/2-1/2"}[end.winner]
    assert f'[Result "{want}"]' in text and text.rstrip().endswith(want)
    unfinished = kingdoms.Record(rec.game, rec.seed, rec.actions[:10], rec.options)
    assert kingdoms.write_records(unfinished).rstrip().endswith("\n*")


def test_tournament_records_carry_agent_names_and_rounds(tmp_path: Path) -> None:
    result = kingdoms.tournament(
        "battleline", [Random(seed=1), Random(seed=2)], games=4, seed=3, records=True
    )
    path = tmp_path / "t.txt"
    text = kingdoms.write_records(result, path)
    assert path.read_text(encoding="utf-8") == text
    back = kingdoms.read_records(path)
    assert len(back) == 4
    for game, r in zip(back, result.results, strict=True):
        assert game.players == [result.names[s] for s in r.seats]
        assert game.headers["Round"] == str(r.index + 1)
        assert game.event == "kingdoms tournament"
        assert kingdoms.replay(game.record).winner == r.winner
    with pytest.raises(kingdoms.StateError, match="records=True"):
        kingdoms.write_records(kingdoms.tournament("battleline", [Random(), Random()], games=2))


def test_records_from_positions_keep_their_position() -> None:
    g = kingdoms.new_game("battleline", seed=2)
    for _ in range(2):
        g.apply(g.legal_actions()[0])
    start = kingdoms.new_game("battleline", position=g.position())
    rec = kingdoms.play_match(start, [Random(seed=1), Random(seed=2)], seed=5)
    [back] = kingdoms.read_records(kingdoms.write_records(rec))
    assert back.record.position == g.position()
    assert back.record == rec


GOOD = kingdoms.write_records(a_record("battleline"))


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("1. R4@8\n*\n", "line 1: expected a \\[Header"),
        (GOOD.replace('[Game "battleline"]', "[Game battleline]"), "line 1: bad header"),
        (GOOD.replace("\n2. ", "\n3. "), "expected action number 2"),
        (GOOD.replace('[Game "battleline"]', '[Game "chess"]'), "unknown game"),
        (GOOD.replace('[Seed "4"]', '[Seed "-1"]'), "Seed must be an integer"),
        (GOOD.replace('[Options "{', '[Options "[{'), "Options is not JSON"),
        (re.sub(r"\n3\. [^\n]*", "\n3. Z9@9 {x}", GOOD), "actions\\[2\\]"),
        (re.sub(r"\n3\. [^\n]*", "\n3. pass", GOOD), "actions\\[2\\]"),
        (GOOD.rsplit("\n", 2)[0] + "\n", "has no result line"),
        (GOOD.replace('[Seed "4"]', '[Seed "4"]\n[Seed "5"]'), "given twice"),
        (GOOD.replace('[Seed "4"]', '[Seed "4"]\n[Player1 "x"]'), "without gaps"),
        (GOOD + "garbage\n", "expected a \\[Header"),
        ("[Game " + "x" * 5000, "bad header"),
    ],
)
def test_bad_record_text_names_the_line_or_action(text: str, match: str) -> None:
    with pytest.raises(kingdoms.StateError, match=match) as err:
        kingdoms.read_records(text)
    assert len(str(err.value)) < 500


def test_a_result_that_does_not_match_the_game_is_refused() -> None:
    for fake in ["1-0", "0-1", "1/2-1/2"]:
        if GOOD.rstrip().endswith(fake):
            continue
        lines = GOOD.rstrip().split("\n")
        lines[-1] = fake
        with pytest.raises(kingdoms.StateError, match="result"):
            kingdoms.read_records("\n".join(lines) + "\n")


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        kingdoms.write_records([3])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        kingdoms.read_records(3)  # type: ignore[arg-type]
    with pytest.raises(kingdoms.StateError, match="reserved"):
        kingdoms.write_records(kingdoms.GameRecord(a_record("battleline"), headers={"Seed": "1"}))


def test_render_and_view_read_text_records_and_json_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`kingdoms render --record` and `kingdoms view` tell JSON, JSON lines and the text form
    apart by their content, and draw the same pictures from each."""
    from kingdoms.cli import main

    records = [a_record("battleline", s) for s in (4, 5)]
    text = tmp_path / "games.pgn"  # the content decides, not the name
    kingdoms.write_records(records, text, event="CLI")
    one = tmp_path / "game.json"
    one.write_text(records[1].to_json(indent=2), encoding="utf-8")
    lines = tmp_path / "games.jsonl"
    lines.write_text("".join(r.to_json() + "\n" for r in records), encoding="utf-8")

    def render(path: Path, *more: str) -> str:
        out = tmp_path / "out.svg"
        assert main(["render", "battleline", "--record", str(path), "-o", str(out), *more]) == 0
        return out.read_text(encoding="utf-8")

    expected = kingdoms.replay(records[1]).svg(0)
    assert render(one, "--player", "0") == expected
    assert render(text, "--player", "0", "--index", "1") == expected
    assert render(lines, "--player", "0", "--index", "1") == expected
    assert render(text, "--ply", "3") != render(text, "--index", "1", "--ply", "3")
    for path in (text, one, lines):
        page = tmp_path / "page.html"
        index = "0" if path == one else "1"
        assert main(["view", str(path), "--index", index, "-o", str(page)]) == 0
        assert f"seed {records[1].seed}: {len(records[1].actions)} actions" in page.read_text(
            encoding="utf-8"
        )
    with pytest.raises(SystemExit, match="--index 2 is not in .* holds 2 record"):
        main(["view", str(text), "--index", "2", "-o", str(tmp_path / "x.html")])
    bad = tmp_path / "bad.txt"
    bad.write_text("hello", encoding="utf-8")
    assert main(["view", str(bad), "-o", str(tmp_path / "x.html")]) == 2
    assert "not a record" in capsys.readouterr().err


def test_render_and_view_start_a_record_from_its_position(tmp_path: Path) -> None:
    g = kingdoms.new_game("battleline", seed=3)
    for a in g.legal_actions()[:1]:
        g.apply(a)
    start = kingdoms.new_game("battleline", position=g.position())
    rec = kingdoms.play_match(start, [Random(seed=1), Random(seed=2)], seed=1)
    path = tmp_path / "game.txt"
    kingdoms.write_records(rec, path)
    from kingdoms.cli import main

    out = tmp_path / "out.svg"
    assert main(["render", "battleline", "--record", str(path), "--ply", "0", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == start.svg()
    page = tmp_path / "page.html"
    assert main(["view", str(path), "-o", str(page)]) == 0
    assert start.svg() in page.read_text(encoding="utf-8")


# ---- untrusted text and paths (issue 51) ----


def test_a_string_is_always_text_never_a_path(tmp_path: Path) -> None:
    """A one-line string is record text: it names no file to read (issue 51)."""
    secret = tmp_path / "secret.txt"
    secret.write_text('[Game "battleline"]\n[Seed "1"]\n\n*\n', encoding="utf-8")
    for text in [str(secret), "/proc/self/environ", "/dev/zero", "missing.txt"]:
        with pytest.raises(kingdoms.StateError, match="expected a \\[Header"):
            kingdoms.read_records(text)
    assert len(kingdoms.read_records(secret)) == 1


def test_a_path_is_read_as_a_data_file(tmp_path: Path) -> None:
    import os

    with pytest.raises(kingdoms.DataError, match="not a regular file"):
        kingdoms.read_records(Path("/dev/zero"))
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    with pytest.raises(kingdoms.DataError, match="not a regular file"):
        kingdoms.read_records(fifo)
    with pytest.raises(kingdoms.DataError, match="cannot read"):
        kingdoms.read_records(tmp_path / "missing.txt")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b'[Game "battleline"]\xff\n')
    with pytest.raises(kingdoms.DataError, match="not UTF-8"):
        kingdoms.read_records(bad)


@pytest.mark.parametrize(
    "text",
    [
        # Each took seconds or hundreds of MB before (a backtracking pattern, a regex over
        # a 5 MB header), or raised RecursionError / ValueError.
        '[Game "battleline"]\n\n1. a' + " " * 20000 + "b {" + "\\" * 20000 + "\n*\n",
        '[Game "battleline"]\n[Event "' + "x" * 5_000_000 + '"]\n[Seed "-1"]\n\n*\n',
        '[Game "battleline"]\n[Options "' + "[" * 100_000 + '"]\n\n*\n',
        '[Game "battleline"]\n\n' + "9" * 20000 + ". draw\n*\n",
        '[Game "battleline"]\n[Player' + "1" * 5000 + ' "x"]\n[Seed "' + "9" * 9000 + '"]\n\n*\n',
    ],
    ids=["backtracking", "big-header", "deep-options", "long-number", "long-digits"],
)
def test_hostile_text_is_refused_in_linear_time_and_memory(text: str) -> None:
    import resource
    import time

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.process_time()
    with pytest.raises(kingdoms.StateError) as err:
        kingdoms.read_records(text)
    assert time.process_time() - t < 1.0
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 20 * len(text) / 2**20 + 50, grown_mb
    assert len(str(err.value)) < 500


def test_text_over_the_limit_is_refused_before_parsing() -> None:
    from kingdoms.records import MAX_TEXT

    with pytest.raises(kingdoms.StateError, match="at most"):
        kingdoms.read_records(" " * (MAX_TEXT + 1))


def test_every_string_round_trips_through_the_text() -> None:
    """Names, headers and comments with any character (\\r, \\u2028, \\x85, ESC, a lone
    surrogate) are written on one line and read back unchanged."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    rec = a_record("battleline")
    names = st.text(max_size=12)

    @settings(max_examples=300, deadline=None)
    @given(names, names, st.lists(names, max_size=3), names, names)
    def check(event: str, date: str, players: list[str], comment: str, extra: str) -> None:
        game = kingdoms.GameRecord(
            rec,
            players=players,
            event=event,
            date=date,
            comments={0: comment, 3: comment + "}{\\"},
            headers={"Round": extra},
            result=result_of(kingdoms.replay(rec)),
        )
        [back] = kingdoms.read_records(kingdoms.write_records(game))
        assert back == game

    check()
    for odd in ["\r", "\u2028", "\x85", "\x1b[2J", "\ud800", "\U0001f600", "\\u0041", "\x00"]:
        game = kingdoms.GameRecord(rec, players=[odd, odd], event=odd, comments={1: odd})
        [back] = kingdoms.read_records(kingdoms.write_records(game))
        assert (back.players, back.event, back.comments) == ([odd, odd], odd, {1: odd})


@pytest.mark.parametrize(
    ("game", "options", "match"),
    [
        ("arte", {"cards_file": "SECRET"}, "never names a file"),
        ("strifull", {"cards_file": "SECRET"}, "never names a file"),
        ("battleline", {"seed": 3}, 'unknown option "seed"'),
        ("battleline", {"name": "arte"}, 'unknown option "name"'),
        ("battleline", {"position": "x"}, 'unknown option "position"'),
    ],
)
def test_view_builds_the_game_only_through_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, options: dict, match: str
) -> None:
    """`kingdoms view` refuses what `replay` refuses: a record naming a file to read is
    never read (its content never reaches the page or the error), and options standing for
    other arguments are no traceback (issue 51)."""
    from kingdoms.cli import main

    secret = tmp_path / "SECRET"
    secret.write_text("password = 'hunter2'\n", encoding="utf-8")
    rec = {"game": game, "seed": 1, "actions": [], "options": options}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    page = tmp_path / "page.html"
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.chdir(tmp_path)
    try:
        assert main(["view", str(path), "-o", str(page)]) == 2
    finally:
        monkeypatch.undo()
    err = capsys.readouterr().err
    assert re.search(match, err) and "hunter2" not in err, err
    assert not page.exists()
    from kingdoms._svg.replay import replay_html

    with pytest.raises(kingdoms.KingdomsError, match=match):
        replay_html(kingdoms.Record(game, 1, [], options))


def test_an_options_number_too_long_for_python_is_a_state_error() -> None:
    """Found by tests/test_fuzz_files.py: json.loads raised ValueError on 5000 digits."""
    text = '[Game "battleline"]\n[Options "{\\"a\\":' + "9" * 5000 + '}"]\n\n*\n'
    with pytest.raises(kingdoms.StateError, match="too long"):
        kingdoms.read_records(text)


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("[" * 100_000, "is nested too deeply"),
        ("{", r"is not JSON \(.*, line 1 column 2\)"),
        ('{"a":' + "9" * 5000 + "}", "holds a number too long to read"),
    ],
    ids=["deep", "syntax", "long-number"],
)
def test_records_and_selfplay_manifests_report_bad_json_alike(
    value: str, why: str, tmp_path: Path
) -> None:
    """One reader of users' JSON (records.parse_json): the same words for the same fault,
    an Options header naming its record, a manifest naming its file."""
    import sys

    import kingdoms.selfplay as sp

    if why.startswith("holds") and not hasattr(sys, "get_int_max_str_digits"):
        pytest.skip("Python < 3.11 converts integers of any length")
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    text = f'[Game "battleline"]\n[Options "{escaped}"]\n\n*\n'
    with pytest.raises(kingdoms.StateError, match=f"^record at line 1: Options {why}"):
        kingdoms.read_records(text)
    (tmp_path / sp.MANIFEST).write_text(value, encoding="utf-8")
    with pytest.raises(kingdoms.DataError, match=f"^{sp.MANIFEST} {why}"):
        sp.read_manifest(tmp_path)
