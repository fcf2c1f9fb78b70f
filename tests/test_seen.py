"""The last move as each seat saw it (``Game.action_seen``, ``view(p)["last_move"]``): the
same on every ``resample_hidden`` of the seat's view in every channel (the view, the
picture, the CLI and replay text), and never naming a secret part to another seat."""

from __future__ import annotations

import random
from html import escape

import kingdoms
import pytest
from kingdoms._seen import seen_move
from kingdoms._svg import replay

GAMES = kingdoms.games()


def walk(name: str, seed: int, plies: int) -> list[tuple[kingdoms.Game, kingdoms.Action]]:
    """`(state, move played there)` along a random game of `name`, at most `plies` long."""
    rng = random.Random(seed)
    g = kingdoms.new_game(name, seed=seed)
    out = []
    while not g.is_terminal and len(out) < plies:
        a = rng.choice(g.legal_actions())
        out.append((g.clone(), a))
        g.apply(a)
    return out


def mark(text: str) -> str:
    """The picture's last-move mark for `text`, as the SVG writes it."""
    return f">last move: {escape(text, quote=False)}</text>"


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_last_move_reads_the_same_on_every_resample_in_every_channel(
    name: str, seed: int
) -> None:
    """view(p)["last_move"] is action_seen(p, move) played just before; the player's picture
    marks it; resample_hidden(p, s) keeps the view, the picture and the CLI/replay text."""
    rng = random.Random(seed)
    checked = 0
    for before, a in walk(name, seed, 80):
        if rng.random() > 0.15:
            continue
        after = before.clone()
        after.apply(a)
        for p in range(after.num_players):
            seen = before.action_seen(p, a)
            view = after.view(p)
            assert view["last_move"] == seen
            picture = after.svg(p)
            assert mark(seen) in picture
            cli = seen_move(before, a, p)
            for s in range(3):
                copy = after.resample_hidden(p, s)
                assert copy.view(p) == view, "view"
                assert copy.svg(p) == picture, "picture"
                assert seen_move(before.resample_hidden(p, s), a, p) == cli, "CLI/replay text"
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", GAMES)
def test_a_players_replay_page_marks_each_move_as_listed(name: str) -> None:
    """The replay page of a player: each picture's mark is that player's seen text."""
    g = kingdoms.new_game(name, seed=3)
    rng = random.Random(3)
    for _ in range(30):
        if g.is_terminal:
            break
        g.apply(rng.choice(g.legal_actions()))
    game = kingdoms.new_game(name, seed=3)
    for i, (move, svg) in enumerate(replay.positions(g.record(), 1)):
        if i == 0:
            assert "last-move" not in svg
            continue
        action = game.parse_action(g.record().actions[i - 1])
        assert move.endswith(seen_move(game, action, 1))
        assert mark(game.action_seen(1, action)) in svg
        game.apply(action)


# A move's parts that may show in its secret text: STRIFULL's pile swap shows in the pile's
# count (SK-3.3).
PUBLIC_PARTS = {"pile"}


@pytest.mark.parametrize("name", GAMES)
def test_no_secret_part_reaches_another_seats_text_view_or_picture(name: str) -> None:
    """For every legal move another seat does not see whole, its text names none of the
    move's parts (card, Star, cell, row); once played, neither that seat's view nor picture
    names the move."""
    secret = 0
    states = [s for seed in range(6) for s in walk(name, seed, 200)]
    for before, played in states:
        mover = before.current_player
        for a in before.legal_actions():
            for q in range(before.num_players):
                text = before.action_seen(q, a)
                if q == mover:
                    assert text == str(a), "the mover sees its move whole"
                    continue
                if text == str(a):
                    continue
                secret += 1
                assert text.endswith(" (secret)") and text.split()[0] == str(a).split()[0]
                hidden = set(str(a).split()[1:]) - PUBLIC_PARTS
                assert not hidden & set(text.split()), (str(a), text)
                if a == played:
                    after = before.clone()
                    after.apply(a)
                    assert after.view(q)["last_move"] == text
                    assert f"last move: {escape(str(a), quote=False)}<" not in after.svg(q)
    assert secret > 0, "every game has a secret move (BL-8.1, AG-2.2, SK-3.2, ZN-4.2)"


@pytest.mark.parametrize("name", GAMES)
def test_a_python_agent_is_handed_the_last_move_as_its_seat_saw_it(name: str) -> None:
    """The copy a match hands a Python agent names the last move as that agent's seat saw
    it (the game's own at the start, then each move), the same as the game's own view."""
    handed: list[tuple[int, str | None]] = []

    class Watcher:
        def act(self, game: kingdoms.Game) -> kingdoms.Action:
            p = game.current_player
            assert p is not None
            handed.append((p, game.view(p).get("last_move")))
            return random.Random(len(handed)).choice(game.legal_actions())

    start = kingdoms.new_game(name, seed=3)
    start.apply(start.legal_actions()[0])
    record = kingdoms.play_match(start, [Watcher() for _ in range(start.num_players)], seed=4)
    g = kingdoms.new_game(name, seed=3)
    expected = []
    for i, a in enumerate(record.actions):
        if i >= 1:  # the match's moves: the first was played before it
            p = g.current_player
            assert p is not None
            expected.append((p, g.view(p)["last_move"]))
        g.apply(a)
    assert handed == expected
