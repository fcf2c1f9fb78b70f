"""OpenSpiel's ISMCTS (through kingdoms.openspiel) against kingdoms.agents.ISMCTS, side by side.

Both search ``--iterations`` iterations per move: OpenSpiel's Python ISMCTSBot (UCT c=2,
one random rollout to the end per leaf, world states from ``resample_from_infostate``)
and the Rust ISMCTS with its defaults. Seats alternate game by game; every game is seeded.
Prints the score and each side's search speed (iterations per second of thinking time).

    python benches/openspiel_ismcts.py --game battleline --games 100 --iterations 50

Game ``i`` depends only on ``--seed`` and ``i``, so ``--first``/``--games`` split a run
over processes: ``--merge`` adds up their ``--log`` files (one JSON line per game).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import kingdoms.openspiel as ko
import numpy as np
import pyspiel
from kingdoms.agents import ISMCTS
from open_spiel.python.algorithms import ismcts, mcts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="battleline")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--iterations", type=int, default=25)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="index of the first game")
    ap.add_argument(
        "--rollouts",
        action="store_true",
        help="our ISMCTS with random rollouts to the end (rollout_depth=None), as OpenSpiel's",
    )
    ap.add_argument("--log", help="append one JSON line per game to this file")
    ap.add_argument("--merge", nargs="+", help="merge these logs and print the summary")
    args = ap.parse_args()
    if args.merge:
        lines = []
        for name in args.merge:
            with open(name, encoding="utf-8") as f:
                lines += [json.loads(x) for x in f]
        print(json.dumps(summary(lines, args.game, args.iterations), indent=2))
        return
    lines = []
    for i in range(args.first, args.first + args.games):
        game = pyspiel.load_game(ko.game_name(args.game), {"seed": args.seed * 1000 + i})
        spent = {"openspiel": 0.0, "kingdoms": 0.0}
        moves = {"openspiel": 0, "kingdoms": 0}
        rng = np.random.RandomState(args.seed * 1000 + i)
        bot = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rng), 2.0, args.iterations, random_state=rng
        )
        depth = None if args.rollouts else 0
        ours = ISMCTS(iterations=args.iterations, seed=args.seed * 1000 + i, rollout_depth=depth)
        os_seat = i % 2
        state = game.new_initial_state()
        state.apply_action(0)  # the deal: outcome 0 is the first deal of the seed's stream
        while not state.is_terminal():
            who = "openspiel" if state.current_player() == os_seat else "kingdoms"
            start = time.process_time()
            if who == "openspiel":
                action = bot.step(state)
            else:
                action = ours.act(state.inner).id
            spent[who] += time.process_time() - start
            moves[who] += 1
            state.apply_action(action)
        r = state.returns()
        winner = "openspiel" if r[os_seat] > 0 else "kingdoms" if r[os_seat] < 0 else "draw"
        line = {"game": i, "winner": winner, "spent": spent, "moves": moves}
        lines.append(line)
        print(json.dumps(line), flush=True)
        if args.log:
            with open(args.log, "a", encoding="utf-8") as f:
                f.write(json.dumps(line) + "\n")
    print(json.dumps(summary(lines, args.game, args.iterations), indent=2))


def summary(lines: list[dict[str, Any]], game: str, iterations: int) -> dict[str, Any]:
    """Score and search speed over the games in ``lines``."""
    wins = {"openspiel": 0, "kingdoms": 0, "draw": 0}
    spent = {"openspiel": 0.0, "kingdoms": 0.0}
    moves = {"openspiel": 0, "kingdoms": 0}
    for line in lines:
        wins[line["winner"]] += 1
        for k in spent:
            spent[k] += line["spent"][k]
            moves[k] += line["moves"][k]
    n = len(lines)
    score = (wins["kingdoms"] + 0.5 * wins["draw"]) / n
    # Wilson's interval: unlike score ± 1.96 sd it does not shrink to a point at 0% or 100%.
    z = 1.96
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half_width = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return {
        "game": game,
        "games": n,
        "iterations": iterations,
        "results": wins,
        "kingdoms score": round(score, 3),
        "kingdoms score 95% interval": [
            round(centre - half_width, 3),
            round(centre + half_width, 3),
        ],
        "iterations/s openspiel ISMCTS": round(
            moves["openspiel"] * iterations / spent["openspiel"]
        ),
        "iterations/s kingdoms ISMCTS": round(moves["kingdoms"] * iterations / spent["kingdoms"]),
    }


if __name__ == "__main__":
    main()
