"""Position strings, undo and history checks, for every registered game (issue 17)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import kingdoms
import pytest
from kingdoms.agents import Greedy, Random

GAMES = kingdoms.games()


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_position_format(name: str) -> None:
    text = kingdoms.new_game(name, seed=1).position()
    assert isinstance(text, str) and "\n" not in text


def random_game(name: str, seed: int, plies: int) -> tuple[kingdoms.Game, list[dict[str, Any]]]:
    """A game after up to `plies` random actions, with `to_dict()` at every ply."""
    rng = random.Random(seed)
    g = kingdoms.new_game(name, seed=seed)
    states = [g.to_dict()]
    for _ in range(plies):
        if g.is_terminal:
            break
        g.apply(rng.choice(g.legal_actions()))
        states.append(g.to_dict())
    return g, states


def state_only(d: dict[str, Any]) -> dict[str, Any]:
    # how the state came to be (its last move too) goes beside a position, as in a record
    return {k: v for k, v in d.items() if k not in ("seed", "history", "start", "last_move")}


@pytest.mark.parametrize("name", GAMES)
def test_positions_round_trip_exactly_for_random_states(name: str) -> None:
    for seed in range(12):
        g, _ = random_game(name, seed, random.Random(seed).randrange(0, 250))
        text = g.position()
        back = kingdoms.new_game(name, position=text, **g.options)
        assert back.position() == text
        assert state_only(back.to_dict()) == state_only(g.to_dict())
        assert back.record().position == text
        assert back.ply == 0


@pytest.mark.parametrize("name", GAMES)
def test_view_positions_hide_what_the_player_may_not_see_and_load_determinized(
    name: str,
) -> None:
    for seed in range(8):
        g, _ = random_game(name, seed, 10 + 17 * seed)
        for p in range(g.num_players):
            text = g.position(p)
            loaded = [kingdoms.new_game(name, position=text, seed=s, **g.options) for s in (1, 2)]
            for h in loaded:
                assert h.view(p) == g.view(p), "the view survives"
                assert h.position(p) == text
            if not g.is_terminal and g.to_dict() != loaded[0].to_dict():
                assert "?" in text
    # Hidden cards differ between two seeds somewhere (they are drawn, not copied).
    g, _ = random_game(name, 3, 6)
    drawn = {
        kingdoms.new_game(name, position=g.position(0), seed=s, **g.options).position()
        for s in range(4)
    }
    assert len(drawn) > 1


@pytest.mark.parametrize("name", GAMES)
def test_bad_positions_name_the_field_and_clip_the_input(name: str) -> None:
    g, _ = random_game(name, 5, 20)
    fields = g.position().split(" ")
    with pytest.raises(kingdoms.StateError, match="fields"):
        kingdoms.new_game(name, position=" ".join(fields[:-3]))
    huge = "Z" * 100_000
    for i in range(len(fields)):
        bad = " ".join(fields[:i] + [huge] + fields[i + 1 :])
        with pytest.raises(kingdoms.StateError) as err:
            kingdoms.new_game(name, position=bad)
        assert len(str(err.value)) < 400
        assert "position" in str(err.value)
    with pytest.raises(TypeError):
        kingdoms.new_game(name, position=3)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_undo_to_every_ply_restores_the_exact_state(name: str) -> None:
    for seed in range(3):
        g, states = random_game(name, seed, 400)
        for k in range(len(states) - 1, -1, -1):
            h = g.clone()
            h.undo(to_ply=k)
            assert h.to_dict() == states[k]
            assert h.ply == k
        last = g.record().actions[-1]
        before = g.ply
        assert before is not None
        assert str(g.pop()) == last
        assert g.to_dict() == states[-2]
        g.undo(2)
        assert g.to_dict() == states[-4]
        first = g.pop(before - 3)
        assert str(first) == g.record().actions[0] if g.record().actions else True
        assert g.to_dict() == states[0]
        with pytest.raises(kingdoms.KingdomsError, match="only 0"):
            g.undo()
        assert g.to_dict() == states[0], "a refused undo changes nothing"


def test_undo_from_a_position_stops_at_the_position() -> None:
    g, _ = random_game("battleline", 4, 30)
    start = kingdoms.new_game("battleline", position=g.position())
    for a in start.legal_actions()[:1]:
        start.apply(a)
    start.undo()
    assert start.position() == g.position()
    with pytest.raises(kingdoms.KingdomsError, match="cannot take back 1"):
        start.undo()
    with pytest.raises(kingdoms.KingdomsError, match="cannot go to ply 5"):
        start.undo(to_ply=5)


def test_a_determinized_copy_has_no_undo() -> None:
    g, _ = random_game("battleline", 4, 10)
    d = g.resample_hidden(0, 1)
    assert d.ply is None
    with pytest.raises(kingdoms.KingdomsError, match="no history"):
        d.undo()


@pytest.mark.parametrize("name", GAMES)
def test_from_dict_refuses_a_history_or_seed_that_does_not_produce_the_state(name: str) -> None:
    g, _ = random_game(name, 7, 30)
    d = g.to_dict()
    assert kingdoms.from_dict(d) == g
    with pytest.raises(kingdoms.StateError, match=r"\$\.history"):
        kingdoms.from_dict({**d, "seed": 8})
    with pytest.raises(kingdoms.StateError, match=r"\$\.history.*do not produce"):
        kingdoms.from_dict({**d, "history": d["history"][:-1]})
    # Another legal action at ply 3: the rest then fails at some index or ends elsewhere.
    h = kingdoms.new_game(name, seed=7, **g.options)
    for a in d["history"][:3]:
        h.apply(a)
    other = next(str(a) for a in h.legal_actions() if str(a) != d["history"][3])
    bad = d["history"][:3] + [other] + d["history"][4:]
    with pytest.raises(kingdoms.StateError, match=r"\$\.history(\[\d+\]|.*do not produce)"):
        kingdoms.from_dict({**d, "history": bad})


def test_a_bad_record_names_the_action_index() -> None:
    rec = kingdoms.play_match("battleline", [Random(seed=1), Random(seed=2)], seed=3)
    actions = rec.actions
    broken = kingdoms.Record(rec.game, rec.seed, actions[:12] + ["Z9@9"] + actions[13:])
    with pytest.raises(kingdoms.StateError, match=r"actions\[12\]"):
        kingdoms.replay(broken)
    illegal = kingdoms.Record(rec.game, rec.seed, actions[:12] + [actions[12]] * 2)
    with pytest.raises(kingdoms.StateError, match=r"actions\[13\]"):
        kingdoms.replay(illegal)


# Player 0 to play with one flag each claimed, Fog on flag 4; written by hand (a view).
FLAGS = "R10,R9,R8:^0#0/:/:/:/G1:B1~F0/:/:/:/B2,B3,B4:Y5,Y6,Y7^1#1"
HANDS = "R1,R2,R3,O1,O2,O3,Scout/O4,O5,O6,G2,G3,G4,Traitor"
HAND_SET = f"{FLAGS} {HANDS} ?37 ?7 - 0 play 1/0 00 0 - - @0"


def test_a_hand_set_battleline_position_plays_to_the_end_and_its_record_replays() -> None:
    text = HAND_SET
    # A view: the hidden cards are dealt from the seed, so the same seed is the same game.
    with pytest.raises(kingdoms.StateError, match="viewer field"):
        kingdoms.new_game("battleline", position=text.removesuffix(" @0"))
    with pytest.raises(kingdoms.StateError, match="more hidden troop places"):
        kingdoms.new_game("battleline", position=text.replace("?37", "?38"))
    g = kingdoms.new_game("battleline", position=text, seed=1)
    assert g.to_dict() == kingdoms.new_game("battleline", position=text, seed=1).to_dict()
    assert g.position(0).split(" ")[1].startswith("R1,R2,R3,O1,O2,O3,Scout/")
    rec = kingdoms.play_match(g, [Random(seed=1), Random(seed=2)], seed=9)
    assert rec.position == g.position()
    end = kingdoms.replay(rec)
    assert end.is_terminal
    [back] = kingdoms.read_records(kingdoms.write_records(rec))
    assert back.record == rec
    assert kingdoms.replay(back.record).to_dict() == end.to_dict()


def test_a_tournament_from_a_hand_set_position_plays_it_out_and_its_records_replay() -> None:
    result = kingdoms.tournament(
        "battleline", [Random(), Greedy()], games=4, seed=2, records=True, position=HAND_SET
    )
    assert result.games == 4 and result.records is not None
    starts = set()
    for game, rec in zip(result.results, result.records):
        assert rec.position is not None
        start = kingdoms.new_game("battleline", position=rec.position)
        assert start.view(0) == kingdoms.new_game("battleline", position=HAND_SET).view(0)
        starts.add(rec.position)
        end = kingdoms.replay(rec)
        assert end.is_terminal and end.ply == len(rec.actions) == game.plies
        assert end.returns() == game.returns
    # Two deals (two seat orders each): the hidden cards are dealt afresh for each.
    assert len(starts) == 2
    # The same tournament again is the same (seeded), and the text records carry the start.
    again = kingdoms.tournament(
        "battleline", [Random(), Greedy()], games=4, seed=2, records=True, position=HAND_SET
    )
    assert [r.actions for r in again.records or []] == [r.actions for r in result.records]
    [first, *_] = kingdoms.read_records(kingdoms.write_records(result))
    assert first.record == result.records[0]
    assert kingdoms.replay(first.record).is_terminal


DICE_GAMES = [n for n in GAMES if kingdoms.new_game(n, seed=1).to_dict().get("rng")]


def open_dice(g: kingdoms.Game) -> tuple[str, int]:
    """`g`'s whole position with its dice field written `?`, and that field's index."""
    fields = g.position().split(" ")
    i = fields.index(g.to_dict()["rng"])
    fields[i] = "?"
    return " ".join(fields), i


@pytest.mark.parametrize("name", DICE_GAMES)
def test_a_whole_position_may_leave_its_dice_to_the_seed(name: str) -> None:
    g, _ = random_game(name, 4, 30)
    text, i = open_dice(g)
    a, b, again = (kingdoms.new_game(name, position=text, seed=s) for s in (1, 2, 1))
    assert a.to_dict()["rng"] != b.to_dict()["rng"]
    assert a.position() == again.position()
    # Everything but the dice is the position's, exactly.
    for h in (a, b):
        assert state_only({**h.to_dict(), "rng": None}) == state_only({**g.to_dict(), "rng": None})
        assert h.position().split(" ")[:i] == text.split(" ")[:i]


def test_a_tournament_from_a_whole_position_with_open_dice_rolls_each_deals_own() -> None:
    g, _ = random_game("strifull", 5, 40)
    assert not g.is_terminal
    text, _ = open_dice(g)
    starts = {
        kingdoms.new_game("strifull", position=rec.position).to_dict()["rng"]
        for rec in kingdoms.tournament(
            "strifull", [Random(), Random()], games=4, seed=3, records=True, position=text
        ).records
        or []
        if rec.position is not None
    }
    assert len(starts) == 2  # two deals, each played from both seats
    fixed = kingdoms.tournament(
        "strifull", [Random(), Random()], games=4, seed=3, records=True, position=g.position()
    )
    assert {rec.position for rec in fixed.records or []} == {g.position()}


def test_a_tournament_refuses_a_bad_or_finished_position() -> None:
    with pytest.raises(kingdoms.StateError, match="position"):
        kingdoms.tournament("battleline", [Random(), Random()], games=2, position="R1 nonsense")
    g, _ = random_game("battleline", 3, 1000)
    assert g.is_terminal
    with pytest.raises(kingdoms.KingdomsError, match="finished game"):
        kingdoms.tournament("battleline", [Random(), Random()], games=2, position=g.position())


def test_the_tournament_command_starts_from_a_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kingdoms.cli import main

    path = tmp_path / "games.txt"
    args = ["tournament", "battleline", "--agents", "random", "greedy", "--games", "4"]
    assert main([*args, "--position", HAND_SET, "--records", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 4
    games = kingdoms.read_records(path)
    assert len(games) == 4
    for g in games:
        assert g.record.position is not None
        assert kingdoms.replay(g.record).is_terminal
    assert main([*args, "--position", "R1 nonsense"]) == 2
    err = capsys.readouterr().err
    assert "position" in err and "Traceback" not in err


@pytest.mark.parametrize("name", GAMES)
def test_mutated_positions_raise_a_clear_error_or_load_a_playable_game(name: str) -> None:
    """Hostile position text (issue 11's standard): a character changed, a field replaced by
    junk, a piece cut out. Either a `KingdomsError` of bounded length, or a game that plays."""
    rng = random.Random(17)
    junk = ["-", "?", "?999", "99999999999", "-1", "@", ":", "/", ",", ";", ".", "*", ">", ""]
    junk += ["T0", "U0", "a9", "1000,1000", "@9", "@1", "65536", "=", "?1000"]
    for seed in range(5):
        g, _ = random_game(name, seed, rng.randrange(0, 120))
        for viewer in [None, *range(g.num_players)]:
            text = g.position(viewer)
            for _ in range(12):
                i = rng.randrange(len(text) + 1)
                kind = rng.randrange(3)
                if kind == 0:
                    bad = text[:i] + rng.choice(":/,;.*>=?-@0123456789 TUa") + text[i + 1 :]
                elif kind == 1:
                    fields = text.split(" ")
                    fields[rng.randrange(len(fields))] = rng.choice(junk)
                    bad = " ".join(fields)
                else:
                    bad = text[:i] + text[rng.randrange(i, len(text) + 1) :]
                try:
                    h = kingdoms.new_game(name, position=bad, seed=1, **g.options)
                except kingdoms.KingdomsError as e:
                    assert len(str(e)) < 400, str(e)
                    continue
                for _ in range(50):
                    if h.is_terminal:
                        break
                    h.apply(rng.choice(h.legal_actions()))


def test_a_distributed_tournament_reads_its_position_before_any_cluster(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Ray tournament takes a start position (issue 17), read on the driver before any
    cluster is reached: a bad one is the local StateError naming the position, never an
    "unknown rules option"."""
    import kingdoms.distributed as kd

    def no_cluster(address: str | None = None) -> None:
        raise AssertionError("the cluster was reached")

    monkeypatch.setattr(kd, "connect", no_cluster)
    g = kingdoms.new_game("battleline", seed=3)
    cut = g.position()[:-9]
    with pytest.raises(kingdoms.StateError, match="position"):
        kd.tournament("battleline", [Random(), Random()], games=2, position=cut)
    with pytest.raises(AssertionError, match="cluster was reached"):
        kd.tournament("battleline", [Random(), Random()], games=2, position=g.position())
