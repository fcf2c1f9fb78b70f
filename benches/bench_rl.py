"""Steps per second of the RL environments next to raw ``Batch.step`` (docs/rl.md quotes it).

    python benches/bench_rl.py [--game battleline] [--seconds 3] [--json]

One step = one move in one game. Random legal ids are chosen in numpy outside the timed
part. Rates are per second of CPU time (``time.process_time``: every thread of the process,
so a two-thread figure counts both cores) and per second of wall time; on a shared machine
the CPU figure is the steadier one.

Choosing the ids is untimed but not free for the step: ``random_ids`` makes two arrays of
``num_games x num_actions`` floats (16 MB each for Battle Line), which push the games and
the output arrays out of the caches, as a policy network's forward pass would. The
"ids replayed" rows time the same steps with ids recorded beforehand and nothing run in
between: the step alone, as ``rust/bench/examples/batch_steps.rs`` times it in Rust.
The "uint8" rows step the compact observation (``obs_dtype="uint8"``, a quarter of the
float32 bytes) on the same games; a game without one (every game but Battle Line) skips them.
The "mask=bits" rows step packed masks (``mask="bits"``, an eighth of the bool mask's
bytes); their chooser is ``kingdoms.batch.random_legal_ids``, which reads the packed bytes
(a few arrays of ``num_games x ceil(num_actions / 8)``, 2 MB in all for Battle Line, instead
of 32 MB), so it evicts less of the caches than ``random_ids``: the row "chooser on unpacked
masks" runs ``random_ids`` on ``Batch.unpack_mask`` of them instead, to tell the two apart.
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from collections.abc import Callable

import numpy as np
from kingdoms.batch import Batch, random_legal_ids
from kingdoms.envs import BatchVectorEnv, SingleAgentEnv, aec_env


def timed(step: Callable[[], int], between: Callable[[], None], seconds: float) -> dict[str, float]:
    """Alternate ``between()`` (untimed: the caller's own work, e.g. choosing ids) and
    ``step()`` (timed; returns the game-steps it made) until ``seconds`` of CPU time."""
    cpu = wall = 0.0
    steps = 0
    while cpu < seconds:
        between()
        c, w = time.process_time(), time.perf_counter()
        steps += step()
        cpu += time.process_time() - c
        wall += time.perf_counter() - w
    return {"steps/s (cpu)": steps / cpu, "steps/s (wall)": steps / wall}


def nothing() -> None:
    pass


def random_ids(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    ids: np.ndarray = np.argmax(rng.random(mask.shape) * mask, axis=1)
    return ids


def chooser(
    env: Batch, unpack: bool = False
) -> Callable[[np.ndarray, np.random.Generator], np.ndarray]:
    """The random legal-id chooser for `env`'s masks: `random_ids` on bool masks (or on
    packed ones unpacked, with `unpack`), `random_legal_ids` on packed ones."""
    if env.mask_format == "bool":
        return random_ids
    if unpack:
        return lambda bits, rng: random_ids(env.unpack_mask(bits), rng)
    return random_legal_ids


def batch(
    game: str,
    n: int,
    threads: int,
    out: bool,
    seconds: float,
    dtype: str = "float32",
    mask: str = "bool",
    unpack: bool = False,
) -> dict[str, float]:
    env = Batch(game, n, seed=1, threads=threads, obs_dtype=dtype, mask=mask)
    buf = env.buffers() if out else None
    rng = np.random.default_rng(0)
    state = {"mask": env.reset().mask, "ids": np.zeros(n, np.int64)}
    pick = chooser(env, unpack)

    def choose() -> None:
        state["ids"] = pick(state["mask"], rng)

    def step() -> int:
        state["mask"] = env.step(state["ids"], out=buf).mask
        return n

    return timed(step, choose, seconds)


def replayed(
    game: str,
    n: int,
    threads: int,
    seconds: float,
    dtype: str = "float32",
    mask_format: str = "bool",
) -> dict[str, float]:
    """``step(out=)`` on ids recorded from a first run (random legal ids); the batch is
    restarted with ``reset(seed=1)`` (untimed) whenever the recording runs out."""
    env = Batch(game, n, seed=1, threads=threads, obs_dtype=dtype, mask=mask_format)
    buf = env.buffers()
    mask = env.reset(seed=1).mask
    rng = np.random.default_rng(0)
    pick = chooser(env)
    recorded = []
    for _ in range(200):
        ids = pick(mask, rng)
        recorded.append(ids)
        mask = env.step(ids, out=buf).mask
    state = {"next": len(recorded)}  # the batch is past the recording: restart it first

    def restart() -> None:
        if state["next"] == len(recorded):
            env.reset(seed=1)
            state["next"] = 0

    def step() -> int:
        env.step(recorded[state["next"]], out=buf)
        state["next"] += 1
        return n

    return timed(step, restart, seconds)


def vector(
    game: str, n: int, threads: int, copy: bool, seconds: float, dtype: str = "float32"
) -> dict[str, float]:
    envs = BatchVectorEnv(game, n, seed=1, threads=threads, copy=copy, obs_dtype=dtype)
    _, infos = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    state = {"mask": infos["action_mask"], "ids": np.zeros(n, np.int64)}

    def choose() -> None:
        state["ids"] = random_ids(state["mask"], rng)

    def step() -> int:
        state["mask"] = envs.step(state["ids"])[4]["action_mask"]
        return n

    return timed(step, choose, seconds)


def pettingzoo(game: str, seconds: float) -> dict[str, float]:
    env = aec_env(game)
    env.reset(seed=1)
    rng = np.random.default_rng(0)

    def step() -> int:
        made = 0
        for _ in range(100):
            if not env.agents:
                env.reset()
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            made += 1
        return made

    return timed(step, nothing, seconds)


def single(game: str, seconds: float) -> dict[str, float]:
    env = SingleAgentEnv(game)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    state = {"info": info}

    def step() -> int:
        action = rng.choice(np.flatnonzero(state["info"]["action_mask"]))
        _, _, term, trunc, state["info"] = env.step(action)
        if term or trunc:
            _, state["info"] = env.reset()
        return 1

    return timed(step, nothing, seconds)


def figures(game: str, seconds: float) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    compact = Batch(game, 1).obs_divisors is not None
    for threads in (1, 2):
        out[f"Batch.step, 1024 games, {threads} thread(s), fresh arrays"] = batch(
            game, 1024, threads, False, seconds
        )
        out[f"Batch.step(out=...), 1024 games, {threads} thread(s)"] = batch(
            game, 1024, threads, True, seconds
        )
        if compact:
            out[f"Batch.step(out=...), 1024 games, {threads} thread(s), uint8"] = batch(
                game, 1024, threads, True, seconds, "uint8"
            )
        out[f"Batch.step(out=...), 1024 games, {threads} thread(s), ids replayed"] = replayed(
            game, 1024, threads, seconds
        )
        if compact:
            out[f"Batch.step(out=...), 1024 games, {threads} thread(s), uint8, ids replayed"] = (
                replayed(game, 1024, threads, seconds, "uint8")
            )
        dtype = "uint8" if compact else "float32"
        out[f"Batch.step(out=...), 1024 games, {threads} thread(s), {dtype}, mask=bits"] = batch(
            game, 1024, threads, True, seconds, dtype, "bits"
        )
        if threads == 1:
            out[
                f"Batch.step(out=...), 1024 games, 1 thread(s), {dtype}, mask=bits, "
                "chooser on unpacked masks"
            ] = batch(game, 1024, threads, True, seconds, dtype, "bits", unpack=True)
        out[
            f"Batch.step(out=...), 1024 games, {threads} thread(s), {dtype}, mask=bits, ids replayed"
        ] = replayed(game, 1024, threads, seconds, dtype, "bits")
    out["BatchVectorEnv.step, 1024 games, 1 thread, copy=False"] = vector(
        game, 1024, 1, False, seconds
    )
    out["BatchVectorEnv.step, 1024 games, 1 thread, copy=True"] = vector(
        game, 1024, 1, True, seconds
    )
    if compact:
        out["BatchVectorEnv.step, 1024 games, 1 thread, copy=True, uint8"] = vector(
            game, 1024, 1, True, seconds, "uint8"
        )
    out["PettingZoo AEC env (aec_env), one game"] = pettingzoo(game, seconds)
    out["SingleAgentEnv against Random, one game (learner moves only)"] = single(game, seconds)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="battleline")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    result = figures(args.game, args.seconds)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print("| what | steps/s (CPU time) | steps/s (wall) |")
    print("| --- | --- | --- |")
    for k, v in result.items():
        print(f"| {k} | {v['steps/s (cpu)']:,.0f} | {v['steps/s (wall)']:,.0f} |")


if __name__ == "__main__":
    main()
