"""A small user script, checked with `mypy --strict` by tests/test_typing.py (and run by it):
the specific game classes, typed rules options and typed states."""

from __future__ import annotations

import kingdoms
from kingdoms.agents import Greedy, Random
from kingdoms.arte import Arte
from kingdoms.battleline import BattleLine, ClaimProof
from kingdoms.strifull import Strifull
from kingdoms.types import (
    ArteView,
    BattleLineOptions,
    BattleLineState,
    BattleLineView,
    ZinordiaStar,
    ZinordiaView,
)
from kingdoms.zinordia import Zinordia
from typing_extensions import assert_type


def flags_to_claim(g: BattleLine, player: int) -> list[int]:
    """The flags `player` could claim now: a Battle Line method, no cast needed."""
    out = []
    for flag in range(9):
        proof = g.claim_proof(flag, player)
        assert_type(proof, ClaimProof | None)
        if proof:
            out.append(flag)
    return out


def main() -> None:
    bl = kingdoms.new_game("battleline", seed=3, traitor_troops_only=True)
    assert_type(bl, BattleLine)
    sf = kingdoms.new_game(
        "strifull", seed=3, mutual_wipeout="attacker_wins", decks=["random", "recommended"]
    )
    assert_type(sf, Strifull)
    ag = kingdoms.new_game("arte", seed=3, deployment="alternating")
    assert_type(ag, Arte)
    zn = kingdoms.new_game("zinordia", seed=3, mode="teams", players=4, selection="draft")
    assert_type(zn, Zinordia)
    print([zn.team(p) for p in range(zn.num_players)])
    name: str = "battleline"
    assert_type(kingdoms.new_game(name), kingdoms.Game)

    while not bl.is_terminal:
        bl.apply(bl.legal_actions()[0])
    print(flags_to_claim(bl, 0), bl.flags_won, bl.match_points())

    state: BattleLineState = bl.to_dict()
    hand: list[str] = state["hands"][0]
    first_flag = state["flags"][0]
    claimed: int | None = first_flag["claimed"]
    rules: BattleLineOptions = {"claim_at_turn_start": True}
    view: BattleLineView = BattleLine(seed=3, **rules).view(1)
    theirs: list[str | None] = view["hands"][0]  # the opponent's cards are None
    assert all(card is None for card in theirs)
    copy = BattleLine.from_dict(state)
    assert copy == bl and isinstance(hand, list) and claimed in (0, 1, None)

    side = sf.to_dict()["sides"][0]
    print(side["faction"], side["leader"], sorted(side["field"])[:3])
    arte_view: ArteView = ag.view(0)
    players = arte_view["players"]
    print(len(players), ag.options["deployment"])

    while zn.to_dict()["phase"] != "main":
        zn.apply(zn.legal_actions()[0])
    zview: ZinordiaView = zn.view(0)
    stars: list[ZinordiaStar] = zview["stars"]
    where: list[str | None] = [s["zone"] for s in stars]
    print(zview["phase"], len(where), zn.to_dict()["resume"]["kind"])

    result = kingdoms.tournament("arte", [Greedy(), Random()], games=2, seed=1)
    print(result.table())


if __name__ == "__main__":
    main()
