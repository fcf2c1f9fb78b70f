"""OpenSpiel's ISMCTS (through kingdoms.openspiel) against kingdoms.agents.ISMCTS, side by side.

Both search ``--iterations`` iterations per move: OpenSpiel's Python ISMCTSBot (UCT c=2,
one random rollout to the end per leaf, world states from ``resample_from_infostate``)
and the Rust ISMCTS with its defaults. Seats alternate game by game; every game is seeded.
Prints the score and each side's search speed (iterations per second of thinking time).

    python benches/openspiel_ismcts.py --game battleline --games 100 --iterations 25
"""

from __future__ import annotations

import argparse
import json
import math
import time

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
    args = ap.parse_args()
    game = pyspiel.load_game(ko.game_name(args.game), {"seed": args.seed})
    wins = {"openspiel": 0, "kingdoms": 0, "draw": 0}
    spent = {"openspiel": 0.0, "kingdoms": 0.0}
    moves = {"openspiel": 0, "kingdoms": 0}
    for i in range(args.games):
        rng = np.random.RandomState(args.seed * 1000 + i)
        bot = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rng), 2.0, args.iterations, random_state=rng
        )
        ours = ISMCTS(iterations=args.iterations, seed=args.seed * 1000 + i)
        os_seat = i % 2
        state = game.new_initial_state()
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
        if r[os_seat] > 0:
            wins["openspiel"] += 1
        elif r[os_seat] < 0:
            wins["kingdoms"] += 1
        else:
            wins["draw"] += 1
        print(f"game {i + 1}: {wins}", flush=True)
    n = args.games
    score = (wins["kingdoms"] + 0.5 * wins["draw"]) / n
    half_width = 1.96 * math.sqrt(score * (1 - score) / n)
    result = {
        "game": args.game,
        "games": n,
        "iterations": args.iterations,
        "results": wins,
        "kingdoms score": round(score, 3),
        "kingdoms score 95% interval": [round(score - half_width, 3), round(score + half_width, 3)],
        "iterations/s openspiel ISMCTS": round(
            moves["openspiel"] * args.iterations / spent["openspiel"]
        ),
        "iterations/s kingdoms ISMCTS": round(
            moves["kingdoms"] * args.iterations / spent["kingdoms"]
        ),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
