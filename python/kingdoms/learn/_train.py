"""Training a policy-and-value network on self-play examples with JAX and optax (CPU)."""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import kingdoms
from kingdoms._kingdoms import KingdomsError
from kingdoms.learn._data import INPUTS, Examples, load_examples, split
from kingdoms.learn._file import MAX_MODEL_BYTES, Network, init_network, row_size, write_model

Progress = Callable[[int, int, dict[str, float]], object]
"""``progress(step, total_steps, metrics)``: called after each training step (metrics of
the epoch so far) and after each epoch's validation."""

DEFAULT_HIDDEN = (256, 128)


@dataclass
class TrainResult:
    """What :func:`train` did: the model file written, the loss per epoch (``history``:
    dicts with ``epoch``, ``train_loss``, ``train_policy``, ``train_value`` and, with a
    validation split, ``val_loss``, ``val_policy``, ``val_value``, ``val_accuracy``), the
    epoch kept (the best by validation loss; the last without a split), the examples used
    and the seconds taken."""

    path: Path
    history: list[dict[str, float]]
    best_epoch: int
    train_examples: int
    validation_examples: int
    seconds: float
    network: Network = field(repr=False)


def _jax() -> tuple[Any, Any, Any]:
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError("training needs JAX and optax: pip install 'kingdoms[learn]'") from e
    return jax, jnp, optax


def limit_threads(threads: int | None) -> None:
    """Ask XLA for ``threads`` CPU threads (1: single-threaded). Only effective before JAX is
    first imported in the process; a no-op for ``None``."""
    if threads is None:
        return
    if threads < 1:
        raise KingdomsError(f"threads must be at least 1, got {threads}")
    if threads == 1:
        flags = os.environ.get("XLA_FLAGS", "")
        if "xla_cpu_multi_thread_eigen" not in flags:
            os.environ["XLA_FLAGS"] = (
                flags + " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
            ).strip()
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))


def _params(net: Network, jnp: Any) -> dict[str, Any]:
    return {
        "trunk": [(jnp.asarray(w), jnp.asarray(b)) for w, b in net.trunk],
        "policy": tuple(jnp.asarray(a) for a in net.policy),
        "value": tuple(jnp.asarray(a) for a in net.value),
    }


def _network(params: dict[str, Any], like: Network) -> Network:
    def host(pair: Any) -> tuple[Any, Any]:
        return tuple(np.asarray(a, dtype=np.float32) for a in pair)  # type: ignore[return-value]

    return Network(
        game=like.game,
        trunk=[host(p) for p in params["trunk"]],
        policy=host(params["policy"]),
        value=host(params["value"]),
        record=dict(like.record),
        input=like.input,
    )


MAX_WIDTH = 4096
"""The widest hidden layer ``train`` makes (a network is a leaf evaluation: small)."""


def _row_size(probe: Any, input: str) -> int:
    """Length of an input row of ``input`` for ``probe``'s game."""
    return row_size(int(np.prod(probe.observation_shape)), probe.num_players, input)


def _fits_a_model_file(game: str, hidden: Sequence[int], input: str) -> None:
    """Refuse, before any weight exists, a network whose file would pass the engine's cap."""
    probe = kingdoms.new_game(game, 0)
    widths = [_row_size(probe, input), *hidden]
    weights = sum((a + 1) * b for a, b in itertools.pairwise(widths))
    weights += (widths[-1] + 1) * (probe.num_actions + probe.num_players)
    if 4 * weights > MAX_MODEL_BYTES:
        raise KingdomsError(
            f"hidden: {weights:,} weights would not fit a model file "
            f"(at most {MAX_MODEL_BYTES:,} bytes)"
        )


def train(
    game: str,
    data: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    out: str | os.PathLike[str],
    *,
    hidden: Sequence[int] = DEFAULT_HIDDEN,
    epochs: int = 10,
    batch_size: int = 256,
    learning_rate: float = 1e-3,
    weight_decay: float = 1e-4,
    value_weight: float = 1.0,
    policy_target: str = "action",
    root_value_weight: float = 0.0,
    validation: float = 0.1,
    seed: int = 0,
    init: Network | None = None,
    plot: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    threads: int | None = None,
    input: str = "observation",
) -> TrainResult:
    """Train a policy-and-value network for ``game`` on the self-play runs in ``data`` (one
    run directory or several) and write it to ``out`` (a model file, docs/learn.md).

    The policy head learns the move the search chose (``policy_target="action"``) or its
    root visit distribution (``"visits"``; see :func:`kingdoms.learn.examples`) by
    cross-entropy over the legal actions, the value head the game's returns seen from the
    mover, mixed with the search's root value by ``root_value_weight`` (see
    :func:`kingdoms.learn.examples`; mean squared error, weighted by ``value_weight``), with
    AdamW. A fraction ``validation`` of the games is
    held out; the epoch with the lowest validation loss is kept. ``init`` starts from a
    network (the iteration loop's previous one) instead of fresh weights. Everything random
    (the split, the initial weights, the order of the examples) is drawn from ``seed``: the
    same data and arguments give the same file. ``plot`` writes the loss curves as a picture
    (needs matplotlib, ``kingdoms[plot]``).

    ``input``: what the network reads, ``"observation"`` (the mover's; the default) or
    ``"seats"`` (every seat's observation, the mover's first: the whole state, trained on
    the shards' ``seats`` column of the true state and used by ISMCTS on its redraws only;
    written in the file's metadata)."""
    if input not in INPUTS:
        raise KingdomsError(f"input must be one of {', '.join(INPUTS)}, got {input!r}")
    if game not in kingdoms.games():
        raise KingdomsError(f"unknown game {game!r}: one of {', '.join(kingdoms.games())}")
    if epochs < 1 or batch_size < 1:
        raise KingdomsError("epochs and batch_size must be at least 1")
    if not (learning_rate > 0 and weight_decay >= 0 and value_weight >= 0):
        raise KingdomsError("learning_rate must be > 0, weight_decay and value_weight >= 0")
    if any(not 1 <= h <= MAX_WIDTH for h in hidden) or len(hidden) > 16:
        raise KingdomsError(f"hidden: at most 16 layers, each of 1 to {MAX_WIDTH} units")
    if not 0.0 <= root_value_weight <= 1.0:
        raise KingdomsError("root_value_weight must be a number from 0 to 1")
    if init is None:
        _fits_a_model_file(game, hidden, input)
    dirs = [data] if isinstance(data, (str, os.PathLike)) else list(data)
    if not dirs:
        raise KingdomsError("data: give at least one self-play run directory")
    parts, sources = [], []
    for d in dirs:
        ex, manifest = load_examples(d, policy_target, root_value_weight, input)
        if manifest.get("game") != game:
            raise KingdomsError(
                f"{str(d)[:160]}: self-play of {manifest.get('game')!r}, not {game}"
            )
        parts.append(ex)
        sources.append(f"{Path(d).name}:seed={manifest.get('seed')},games={manifest.get('games')}")
    offset = 0
    for p in parts:  # game indices unique across runs, for the split
        p.games = p.games + offset
        offset = int(p.games.max()) + 1
    ex = Examples(
        *(
            np.concatenate([getattr(p, k) for p in parts])
            for k in ("observations", "masks", "policy", "values", "games")
        )
    )
    probe = kingdoms.new_game(game, 0)
    obs_size = int(np.prod(probe.observation_shape))
    width = _row_size(probe, input)
    if ex.observations.shape[1] != width or ex.masks.shape[1] != probe.num_actions:
        raise KingdomsError(
            f"data: {input} rows or masks do not fit the game's default options "
            f"({ex.observations.shape[1]} x {ex.masks.shape[1]}, expected "
            f"{width} x {probe.num_actions})"
        )
    if ex.values.shape[1] != probe.num_players:
        raise KingdomsError("data: returns do not fit the game's players")

    limit_threads(threads)
    jax, jnp, optax = _jax()
    start = time.perf_counter()
    tr, va = split(ex, validation, seed)
    batch = min(batch_size, len(tr))
    net0 = init or init_network(
        game, obs_size, probe.num_actions, probe.num_players, hidden, seed, input
    )
    if init is not None and (
        init.input_size != width or init.num_actions != probe.num_actions or init.input != input
    ):
        raise KingdomsError("init: a network of another shape or input")
    params = _params(net0, jnp)
    opt = optax.adamw(learning_rate, weight_decay=weight_decay)
    opt_state = opt.init(params)

    def forward(p: dict[str, Any], x: Any) -> tuple[Any, Any]:
        h = x
        for w, b in p["trunk"]:
            h = jax.nn.relu(h @ w.T + b)
        logits = h @ p["policy"][0].T + p["policy"][1]
        values = jnp.tanh(h @ p["value"][0].T + p["value"][1])
        return logits, values

    def losses(p: dict[str, Any], x: Any, m: Any, pi: Any, z: Any) -> tuple[Any, Any]:
        logits, v = forward(p, x)
        logp = jax.nn.log_softmax(jnp.where(m, logits, -1e9))
        pol = -jnp.sum(pi * jnp.where(m, logp, 0.0), axis=1)
        val = jnp.mean((v - z) ** 2, axis=1)
        hit = jnp.argmax(jnp.where(m, logits, -jnp.inf), axis=1) == jnp.argmax(pi, axis=1)
        return pol.mean() + value_weight * val.mean(), (pol.mean(), val.mean(), hit.mean())

    def _step(p: Any, s: Any, x: Any, m: Any, pi: Any, z: Any) -> tuple[Any, Any, Any, Any]:
        (loss, aux), grads = jax.value_and_grad(losses, has_aux=True)(p, x, m, pi, z)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, loss, aux

    step: Any = jax.jit(_step)

    evaluate = jax.jit(losses)
    rng = np.random.default_rng(seed + 1)
    steps = max(len(tr) // batch, 1)
    total = epochs * steps
    history: list[dict[str, float]] = []
    best: tuple[float, int, Any] = (float("inf"), 0, params)
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(tr))
        sums = np.zeros(3)
        for i in range(steps):
            rows = order[i * batch : (i + 1) * batch]
            params, opt_state, loss, (pol, val, _) = step(
                params,
                opt_state,
                tr.observations[rows],
                tr.masks[rows],
                tr.policy[rows],
                tr.values[rows],
            )
            sums += (float(loss), float(pol), float(val))
            if progress is not None:
                done = i + 1
                progress(
                    (epoch - 1) * steps + done,
                    total,
                    {
                        "epoch": epoch,
                        "train_loss": sums[0] / done,
                    },
                )
        row = {
            "epoch": float(epoch),
            "train_loss": sums[0] / steps,
            "train_policy": sums[1] / steps,
            "train_value": sums[2] / steps,
        }
        if len(va):
            loss, (pol, val, acc) = evaluate(
                params, va.observations, va.masks, va.policy, va.values
            )
            row.update(
                val_loss=float(loss),
                val_policy=float(pol),
                val_value=float(val),
                val_accuracy=float(acc),
            )
        history.append(row)
        score = row.get("val_loss", -float(epoch))
        if score < best[0] or not len(va):
            best = (score, epoch, params)
        if progress is not None:
            progress(epoch * steps, total, row)
    seconds = time.perf_counter() - start
    net = _network(best[2], net0)
    final = history[best[1] - 1]
    net.record = {
        "trained_on": ";".join(sources),
        "examples": str(len(tr)),
        "validation_examples": str(len(va)),
        "epochs": str(epochs),
        "best_epoch": str(best[1]),
        "batch_size": str(batch),
        "learning_rate": repr(learning_rate),
        "weight_decay": repr(weight_decay),
        "value_weight": repr(value_weight),
        "policy_target": policy_target,
        "root_value_weight": repr(root_value_weight),
        "seed": str(seed),
        "seconds": f"{seconds:.1f}",
        "history": json.dumps([{k: round(v, 5) for k, v in h.items()} for h in history]),
        "val_loss": f"{final.get('val_loss', float('nan')):.5f}",
        "framework": f"jax {jax.__version__}, optax {optax.__version__}",
        "kingdoms": kingdoms.__version__,
    }
    path = write_model(net, out)
    if plot is not None:
        plot_history(history, plot, title=f"{game}: {Path(out).name}")
    return TrainResult(path, history, best[1], len(tr), len(va), seconds, net)


def plot_history(
    history: Sequence[dict[str, float]], path: str | os.PathLike[str], title: str = ""
) -> Path:
    """The loss curves of :func:`train` (policy and value, training and validation, per
    epoch) as a picture at ``path`` (PNG, SVG or PDF by its suffix; needs matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError("the loss plot needs matplotlib: pip install 'kingdoms[plot]'") from e
    epochs = [h["epoch"] for h in history]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    for ax, part in zip(axes, ("policy", "value")):
        ax.plot(epochs, [h[f"train_{part}"] for h in history], "o-", label="training")
        if history and f"val_{part}" in history[0]:
            ax.plot(epochs, [h[f"val_{part}"] for h in history], "s-", label="validation")
        ax.set_xlabel("epoch")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.set_ylabel("cross-entropy" if part == "policy" else "mean squared error")
        ax.set_title(f"{part} loss")
        ax.grid(alpha=0.3)
        ax.legend()
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    p = Path(path)
    fig.savefig(p, dpi=100)
    plt.close(fig)
    return p
