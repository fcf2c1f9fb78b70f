"""Hidden information around agents (issue 51): one-way seeds for agents, out-of-process bots
(`kingdoms.agents.Subprocess`, `cmd:`), their forfeits, and `kingdoms play` showing a person
only what their view holds."""

from __future__ import annotations

import io
import json
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

import kingdoms
import pytest
from kingdoms._cli_play import seen_move
from kingdoms._subprocess import MAX_ANSWER, encode, request
from kingdoms._text import move_text
from kingdoms.agents import Forfeit, Random, Subprocess
from kingdoms.cli import main

ROOT = Path(__file__).resolve().parent.parent
RANDOM_BOT = [sys.executable, str(ROOT / "examples" / "random_bot.py")]
M64 = (1 << 64) - 1


def mix64(z: int) -> int:
    """The SplitMix64 finalizer the agents' seeds used to come from (rng::mix64)."""
    z = (z + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def unmix64(z: int) -> int:
    """mix64 run backwards, as an agent could."""
    z ^= (z >> 31) ^ (z >> 62)
    z = (z * 0x319642B2D24D8EC3) & M64
    z ^= (z >> 27) ^ (z >> 54)
    z = (z * 0x96DE1B173F119089) & M64
    z ^= (z >> 30) ^ (z >> 60)
    return (z - 0x9E3779B97F4A7C15) & M64


class Spy:
    """Plays randomly and keeps what each copy it was handed exposes."""

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    def act(self, game: kingdoms.Game) -> kingdoms.Action:
        self.seen.append({"seed": game.seed, "state": game.to_dict()})
        return random.Random(len(self.seen)).choice(game.legal_actions())


def test_unmix64_inverts_mix64() -> None:
    for z in (0, 1, 99, M64, 0x0123456789ABCDEF):
        assert unmix64(mix64(z)) == z


def test_the_seed_a_python_agent_is_handed_is_not_the_old_invertible_mix() -> None:
    spies = [Spy(), Spy()]
    seed = 1234
    kingdoms.play_match("battleline", spies, seed=seed)
    # the old derivation: salt = mix64(game_seed(seed ^ K, 0) ^ seat), copy seed =
    # mix64(salt ^ mix64(calls)), game_seed(s, i) = mix64(s ^ mix64(i))
    deal = mix64((seed ^ 0x7E57A6E75A17) ^ mix64(0))
    for seat, spy in enumerate(spies):
        salt = mix64(deal ^ seat)
        for calls, seen in enumerate(spy.seen[:5]):
            assert seen["seed"] != mix64(salt ^ mix64(calls))
    # run backwards, two seats' copies of the same call count no longer differ by the seat
    for calls in range(3):
        a, b = (unmix64(spies[s].seen[calls]["seed"]) ^ mix64(calls) for s in (0, 1))
        assert unmix64(a) ^ unmix64(b) != 1
        assert spies[0].seen[calls]["seed"] ^ spies[1].seen[calls]["seed"] != 1


@pytest.mark.parametrize("name", kingdoms.games())
def test_a_copy_handed_to_an_agent_is_built_from_its_view_alone(name: str) -> None:
    """Two games the agent's player cannot tell apart give it identical copies (seed,
    state, RNG), so nothing in a copy tells the hidden cards or the match seed."""
    base = kingdoms.new_game(name, seed=5)
    rng = random.Random(2)
    for _ in range(4):
        base.apply(rng.choice(base.legal_actions()))
    seat = base.current_player
    assert seat is not None
    seen = base.position(seat)
    copies = []
    for deal in (11, 12):
        start = kingdoms.new_game(name, deal, position=seen, **base.options)
        agents: list[Any] = [Random(seed=1) for _ in range(base.num_players)]
        agents[seat] = spy = Spy()
        kingdoms.play_match(start, agents, seed=77)
        copies.append(spy.seen[0])
    assert copies[0] == copies[1]


def test_tournaments_without_a_seed_draw_one_and_report_it() -> None:
    agents = [Random(), Random(seed=1)]
    a = kingdoms.tournament("battleline", agents, games=2, bootstrap=0)
    b = kingdoms.tournament("battleline", agents, games=2, bootstrap=0)
    assert a.seed != b.seed
    again = kingdoms.tournament("battleline", agents, games=2, seed=a.seed, bootstrap=0)
    assert again.results == a.results
    record = kingdoms.play_match("battleline", agents)
    assert kingdoms.play_match("battleline", agents).seed != record.seed


def test_the_cli_tournament_draws_and_prints_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "battleline", "--agents", "random", "random", "--games", "2"]
    assert main([*args, "--json", "--bootstrap", "0"]) == 0
    first = json.loads(capsys.readouterr().out)["seed"]
    assert main([*args, "--json", "--bootstrap", "0"]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] != first
    assert main(args) == 0
    assert "seed " in capsys.readouterr().out


# ---- out-of-process bots ----------------------------------------------------------------


def positions(name: str, count: int, seed: int) -> list[kingdoms.Game]:
    """`count` positions of random games of `name`, at random plies."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = kingdoms.new_game(name, seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(60)):
            if g.is_terminal:
                break
            g.apply(rng.choice(g.legal_actions()))
        if not g.is_terminal:
            out.append(g)
    return out


@pytest.mark.parametrize("name", kingdoms.games())
def test_a_bots_messages_are_the_same_in_every_world_its_seat_cannot_tell_apart(
    name: str, tmp_path: Path
) -> None:
    for i, g in enumerate(positions(name, 12, 3)):
        seat = g.current_player
        assert seat is not None
        sent = encode(request(g))
        for s in range(3):
            assert encode(request(g.resample_hidden(seat, 1000 * i + s))) == sent
        assert json.loads(sent)["view"] == g.view(seat)
    # and the bytes that reach a real process, captured by a bot that keeps its input
    log = tmp_path / "in.txt"
    tee = tmp_path / "tee.py"
    tee.write_text(
        "import json, sys\n"
        f"out = open({str(log)!r}, 'ab')\n"
        "for line in sys.stdin.buffer:\n"
        "    out.write(line); out.flush()\n"
        "    print(json.dumps({'action': json.loads(line)['legal'][0]['id']}), flush=True)\n"
    )
    with Subprocess([sys.executable, str(tee)], time_limit=20) as bot:
        for i, g in enumerate(positions(name, 3, 4)):
            seat = g.current_player
            assert seat is not None
            bot.act(g)
            bot.act(g.resample_hidden(seat, i))
    lines = log.read_bytes().splitlines()
    assert len(lines) == 6
    assert lines[0::2] == lines[1::2]
    assert all(b"seed" not in line.split(b'"view"')[0] for line in lines)


@pytest.mark.parametrize("name", kingdoms.games())
def test_the_example_bot_plays_a_match(name: str) -> None:
    with Subprocess([*RANDOM_BOT, "1"], time_limit=20) as bot:
        agents: list[Any] = [Random(seed=2) for _ in range(kingdoms.new_game(name).num_players)]
        agents[0] = bot
        record = kingdoms.play_match(name, agents, seed=3)
    assert kingdoms.replay(record).is_terminal


def test_the_example_bot_plays_a_tournament_from_python_and_the_cli(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with Subprocess([*RANDOM_BOT, "1"], time_limit=20) as bot:
        r = kingdoms.tournament("battleline", [bot, Random()], games=4, seed=1, bootstrap=0)
    assert r.games == 4
    assert all(g.forfeit is None for g in r.results)
    command = f"cmd:{sys.executable} {ROOT / 'examples' / 'random_bot.py'} 2"
    args = ["tournament", "battleline", "--agents", command, "random", "--games", "2"]
    assert main([*args, "--seed", "1", "--json", "--bootstrap", "0"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2
    assert all(g["forfeit"] is None for g in data["results"])


def test_the_example_bot_plays_in_kingdoms_play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
    command = f"cmd:{sys.executable} {ROOT / 'examples' / 'random_bot.py'} 3"
    record = tmp_path / "g.json"
    assert main(["play", "battleline", "--ai", command, "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Game over" in out
    assert kingdoms.replay(kingdoms.Record.from_json(record.read_text())).is_terminal


def bot_script(tmp_path: Path, name: str, body: str) -> list[str]:
    """A bot program that writes its pid to `name`.pid, then runs `body` (which may read
    `request` from each line)."""
    path = tmp_path / f"{name}.py"
    path.write_text(
        "import json, os, sys, time\n"
        f"open({str(tmp_path / (name + '.pid'))!r}, 'a').write(f'{{os.getpid()}}\\n')\n"
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n" + "".join(f"    {b}\n" for b in body.splitlines())
    )
    return [sys.executable, str(path)]


BAD_BOTS = {
    "crash": ("sys.exit(3)", "closed its output"),
    "sleep": ("time.sleep(30)", "did not answer within"),
    "garbage": ("print('hello \\x1b[31m', flush=True)", "not JSON"),
    "shape": ("print(json.dumps([1, 2]), flush=True)", '"action"'),
    "twice": (
        "a = request['legal'][0]['id']; print(json.dumps({'action': a}), json.dumps({'action': a}), sep='\\n', flush=True)",
        # the second line arrives with the first, or is read as the next (illegal) answer
        "more than one|not a legal action",
    ),
    "quits": (
        "print(json.dumps({'action': request['legal'][0]['id']}), flush=True); sys.exit(0)",
        r"\(exit code 0\)",  # found exited, or closing its output as it exits
    ),
    "illegal": ("print(json.dumps({'action': 10**6}), flush=True)", "not a legal action"),
    "flood": (
        f"sys.stdout.write('x' * {MAX_ANSWER * 2}); sys.stdout.flush(); time.sleep(30)",
        "longer than",
    ),
}


def gone(pid: int) -> bool:
    """The process has exited and been reaped (no zombie left)."""
    return not Path(f"/proc/{pid}").exists()


def dead(pid: int) -> bool:
    """The process has exited (reaped, or a zombie waiting for its new parent, init)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


@pytest.mark.parametrize("kind", BAD_BOTS)
def test_a_bad_bot_forfeits_and_the_tournament_goes_on(kind: str, tmp_path: Path) -> None:
    body, why = BAD_BOTS[kind]
    bot = Subprocess(bot_script(tmp_path, kind, body), time_limit=0.5)
    start = time.monotonic()
    r = kingdoms.tournament("battleline", [bot, Random()], games=2, seed=1, bootstrap=0)
    assert time.monotonic() - start < 20
    assert r.games == 2
    for g in r.results:
        seat = g.seats.index(0)
        assert g.forfeit == seat
        assert g.forfeit_reason is not None and re.search(why, g.forfeit_reason)
        assert "\x1b" not in g.forfeit_reason
        assert g.winning_agent == 1
    assert (r.totals[0].losses, r.totals[1].wins) == (2, 2)
    assert GameResultRoundTrip(r)
    pids = [int(p) for p in (tmp_path / f"{kind}.pid").read_text().split()]
    assert len(pids) == 2  # started afresh for the second game
    assert all(gone(p) for p in pids)
    bot.close()


def GameResultRoundTrip(r: kingdoms.TournamentResult) -> bool:
    return all(kingdoms.GameResult.from_dict(g.to_dict()) == g for g in r.results)


def test_play_match_raises_forfeit_with_the_seat_and_the_record(tmp_path: Path) -> None:
    bot = Subprocess(bot_script(tmp_path, "crash", "sys.exit(1)"), time_limit=5)
    with pytest.raises(Forfeit) as caught:
        kingdoms.play_match("battleline", [Random(), bot], seed=2)
    assert caught.value.player == 1
    assert caught.value.record is not None
    assert len(caught.value.record.actions) >= 1
    assert isinstance(caught.value, kingdoms.KingdomsError)


def test_kingdoms_play_ends_the_game_when_a_bot_forfeits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bot = " ".join(bot_script(tmp_path, "crash", "sys.exit(1)"))
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 10))
    assert main(["play", "battleline", "--seat", "1", "--ai", f"cmd:{bot}"]) == 0
    out = capsys.readouterr().out
    assert "player 0 (" in out and "forfeits" in out


def test_bad_bot_specs_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "battleline", "--games", "2", "--agents", "random"]
    assert main([*args, "cmd:/no/such/program"]) == 2
    assert "no program" in capsys.readouterr().err
    assert main([*args, "cmd,speed=3:/bin/true"]) == 2
    with pytest.raises(kingdoms.KingdomsError):
        Subprocess(["x"], time_limit=0)


def test_a_bot_that_leaves_children_has_its_whole_group_killed(tmp_path: Path) -> None:
    child = tmp_path / "child.pid"
    body = (
        "import subprocess\n"
        "p = subprocess.Popen(['sleep', '60'])\n"
        f"open({str(child)!r}, 'w').write(str(p.pid))\n"
        "time.sleep(30)"
    )
    bot = Subprocess(bot_script(tmp_path, "parent", body), time_limit=0.5)
    with pytest.raises(Forfeit):
        bot.act(kingdoms.new_game("battleline", seed=1))
    pid = int(child.read_text())
    for _ in range(50):
        if dead(pid):
            break
        time.sleep(0.05)
    assert dead(pid)


# ---- kingdoms play shows a person their view only ------------------------------------------


def _play(args: list[str], answers: str, monkeypatch: Any, capsys: Any) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    assert main(["play", *args]) == 0
    out: str = capsys.readouterr().out
    return out


@pytest.mark.parametrize("name", kingdoms.games())
def test_play_shows_the_same_to_a_person_in_every_world_they_cannot_tell_apart(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for g in positions(name, 3, 7):
        seat = g.current_player
        assert seat is not None
        seats = ["random"] * g.num_players
        seats[seat] = "human"
        args = [name, "--position", g.position(seat), "--seats", *seats, "--color", "never"]
        for key, value in g.options.items():
            args += ["--option", f"{key}={json.dumps(value)}"]
        # no --seed: each run deals the hidden parts afresh from the OS
        outs = {_play(args, "?\nquit\n", monkeypatch, capsys) for _ in range(3)}
        assert len(outs) == 1
        assert "seed" not in outs.pop()


def test_play_zinordia_hides_the_agents_secret_picks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    start = kingdoms.new_game("zinordia", seed=5)
    assert start.options["selection"] == "secret"
    args = ["zinordia", "--position", start.position(1), "--seat", "1", "--ai", "random"]
    args += ["--color", "never"]
    outs = {_play(args, "quit\n", monkeypatch, capsys) for _ in range(4)}
    assert len(outs) == 1
    out = outs.pop()
    assert "player 0 (random) plays pick (secret)" in out
    stars = [s["id"] for s in start.view(1)["stars"]] if "stars" in start.view(1) else []
    assert not any(f"pick {s}" in out for s in stars)


@pytest.mark.parametrize("name", kingdoms.games())
def test_a_move_reads_the_same_in_every_world_its_viewer_cannot_tell_apart(name: str) -> None:
    """The rules' answer (`action_seen`) is a function of the viewer's view: it reads the same
    in every world drawn from that view, and a move read as secret reads like every other
    move that leaves the viewer's view the same (so it names no hidden part)."""
    rng = random.Random(11)
    checked = secret = 0
    for g in positions(name, 10, 9):
        mover = g.current_player
        assert mover is not None
        a = rng.choice(g.legal_actions())
        after = g.clone()
        after.apply(a)
        for viewer in range(g.num_players):
            if viewer == mover:  # the mover reads its move in full (Zinordia: with names)
                assert seen_move(g, a, viewer) == move_text(g, a)
                continue
            text = g.action_seen(viewer, a)
            assert seen_move(g, a, viewer) in (text, move_text(g, a))
            for s in range(2):
                other = g.resample_hidden(viewer, s)
                assert other.action_seen(viewer, a) == text
                if not text.endswith("(secret)"):
                    continue
                secret += 1
                for b in other.legal_actions():
                    moved = other.clone()
                    moved.apply(b)
                    if moved.position(viewer) == after.position(viewer):
                        assert other.action_seen(viewer, b) == text
                        checked += 1
    assert checked > 0 or secret == 0


def test_a_secret_pick_and_a_scout_return_read_as_secret() -> None:
    g = kingdoms.new_game("zinordia", seed=1)
    pick = g.legal_actions()[0]
    assert str(pick).startswith("pick ")
    assert seen_move(g, pick, 1) == "pick (secret)"
    assert seen_move(g, pick, 0) == move_text(g, pick)  # e.g. "pick Ignara"
    assert seen_move(g, pick, None) == move_text(g, pick)
    b = kingdoms.new_game("battleline", seed=3)
    card = b.legal_actions()[0]
    assert seen_move(b, card, 1) == str(card)  # a card played is seen by both
    # Battle Line seed 5, random moves (random.Random(1)): a Scout's return at ply 24
    rng = random.Random(1)
    b = kingdoms.new_game("battleline", seed=5)
    while not any(str(a).startswith("return ") for a in b.legal_actions()):
        b.apply(rng.choice(b.legal_actions()))
    back = b.legal_actions()[0]
    mover = b.current_player
    assert mover is not None
    deck = b.describe_action(back)["deck"]
    assert seen_move(b, back, 1 - mover) == f"return {deck} (secret)"  # BL-8.1
    assert seen_move(b, back, mover) == str(back)


def test_play_undo_draws_afresh_what_the_person_has_not_seen(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Play a card and draw, undo, play and draw again: the card drawn after the undo is not
    the one the undone draw showed (on some try; the redraw is uniform over ~40 cards)."""
    differ = 0
    for _ in range(4):
        record = tmp_path / "g.json"
        args = ["battleline", "--seed", "3", "--ai", "random", "--record", str(record)]
        args += ["--color", "never"]
        out = _play(args, "1\n1\nundo\n1\n1\nquit\n", monkeypatch, capsys)
        assert "undone" in out
        hands = [line for line in out.splitlines() if line.startswith("player 0 hand")]
        # the hand shown after the first draw, and after the draw that followed the undo
        differ += hands[1] != hands[-1]
        rec = kingdoms.Record.from_json(record.read_text())
        assert kingdoms.replay(rec).record().actions == rec.actions  # replayable from there
    assert differ >= 2


def test_the_cli_tournament_lists_forfeits(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bot = " ".join(bot_script(tmp_path, "crash", "sys.exit(1)"))
    args = ["tournament", "battleline", "--agents", f"cmd:{bot}", "random", "--games", "2"]
    assert main([*args, "--seed", "4", "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    assert "2 forfeits" in out
    assert "crash.py (player 0) forfeited" in out
    assert "closed its" in out
