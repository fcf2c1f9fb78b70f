"""`kingdoms train`: a policy-and-value network from self-play shards (kingdoms.learn), with
a progress bar, a validation split and a loss plot; with `--iterations K` the iteration loop
(`kingdoms.learn.iterate`): self-play, train, match, keep the better, K times."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import kingdoms
from kingdoms._cli_common import _option_value, add_ray_argument
from kingdoms._kingdoms import KingdomsError

# The flags that are train()'s keywords (unset: train's own default).
TRAIN_FLAGS = {
    "hidden": "hidden",
    "epochs": "epochs",
    "batch_size": "batch_size",
    "lr": "learning_rate",
    "weight_decay": "weight_decay",
    "policy_target": "policy_target",
    "value_weight": "value_weight",
    "root_value_weight": "root_value_weight",
    "validation": "validation",
    "input": "input",
}


def _widths(text: str) -> tuple[int, ...]:
    try:
        widths = tuple(int(p) for p in text.split(",") if p.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected widths such as 256,128, got {text!r}")
    return widths


def _search(text: str) -> dict[str, Any]:
    """ISMCTS settings as `200` (iterations) or `iterations=200,c=0.5`."""
    settings: dict[str, Any] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        key, sep, value = part.partition("=")
        if not sep:
            key, value = "iterations", part
        if not key:
            raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {part!r}")
        settings[key.replace("-", "_")] = _option_value(value)
    return settings


def add_train_parser(sub: Any) -> None:
    """Register the `train` subcommand on the CLI's subparsers."""
    p = sub.add_parser(
        "train",
        help="train a policy-and-value network on self-play data (needs kingdoms[learn])",
        description="Train a small policy-and-value network for GAME on the self-play runs "
        "in DATA (folders written by `kingdoms selfplay`) and write it to OUT as a model file "
        "(safetensors; docs/learn.md) that ISMCTS can use. The same data, arguments and seed "
        "give the same file. With --iterations K, run the iteration loop in the folder OUT "
        "instead (no --data): K times self-play with the current network, train a candidate, "
        "play it against the current one and keep it if it scores at least --threshold; "
        "run again to resume.",
    )
    p.add_argument("game", choices=kingdoms.games(), help="the game")
    p.add_argument(
        "--data",
        nargs="+",
        metavar="DIR",
        help="self-play run folders (default: none: --iterations)",
    )
    p.add_argument(
        "--out", required=True, metavar="MODEL", help="the model file (with --iterations: folder)"
    )
    p.add_argument(
        "--hidden",
        type=_widths,
        default=None,
        help="hidden layer widths, comma-separated (default 256,128)",
    )
    p.add_argument("--epochs", type=int, help="passes over the data (default 10)")
    p.add_argument("--batch-size", type=int, help="examples a step (default 256)")
    p.add_argument("--lr", type=float, help="AdamW learning rate (default 1e-3)")
    p.add_argument("--weight-decay", type=float, help="AdamW weight decay (default 1e-4)")
    p.add_argument(
        "--policy-target",
        choices=("action", "visits"),
        help="what the policy learns: the move the search chose (default) or its root visits",
    )
    p.add_argument("--value-weight", type=float, help="weight of the value loss (default 1)")
    p.add_argument(
        "--root-value-weight",
        type=float,
        help="the value target: this share of the search's root value, the rest the game's "
        "result (default 0; the Arte reference used 1)",
    )
    p.add_argument(
        "--input",
        choices=("observation", "seats"),
        help="what the network reads: the mover's observation (default) or every seat's "
        "(the data's seats column, kingdoms selfplay --seats; searches use it on their "
        "redraws only)",
    )
    p.add_argument(
        "--validation",
        type=float,
        help="fraction of the games held out for validation (default 0.1)",
    )
    p.add_argument(
        "--seed", type=int, default=0, help="seed of the split, weights and order (default 0)"
    )
    p.add_argument(
        "--plot",
        metavar="FILE",
        default=None,
        help="write the loss curves to FILE (.png, .svg; needs matplotlib; default: no plot)",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=None,
        help="CPU threads of training and the loop's games (default: all; 1 when shared)",
    )
    p.add_argument("--json", action="store_true", help="print the history as JSON")
    _add_loop_arguments(p)
    p.set_defaults(func=cmd_train)


def _add_loop_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("the iteration loop (--iterations)")
    g.add_argument(
        "--iterations",
        type=int,
        metavar="K",
        help="run K iterations of the loop (default: train once on --data)",
    )
    g.add_argument(
        "--games", type=int, default=200, help="self-play games an iteration (default 200)"
    )
    g.add_argument(
        "--search",
        type=_search,
        default=None,
        metavar="SETTINGS",
        help="ISMCTS settings of self-play and the match: 200 (iterations) or "
        "iterations=200,c=0.5 (default 200)",
    )
    g.add_argument("--match-games", type=int, default=100, help="match games (default 100)")
    g.add_argument(
        "--match-time",
        type=float,
        default=None,
        metavar="SECONDS",
        help="play the match at SECONDS a move each (default: at the search's iterations, "
        "which keeps the run reproducible)",
    )
    g.add_argument(
        "--threshold", type=float, default=0.55, help="score that keeps a candidate (default 0.55)"
    )
    g.add_argument(
        "--window", type=int, default=2, help="train on the last N iterations' games (default 2)"
    )
    g.add_argument(
        "--fresh",
        action="store_true",
        help="train each candidate from fresh weights (default: from the current network's)",
    )
    g.add_argument("--shard-games", type=int, default=100, help="games a shard (default 100)")
    add_ray_argument(g)  # type: ignore[arg-type]


def cmd_train(args: argparse.Namespace) -> int:
    from kingdoms._cli_tournament import progress_bar

    try:
        from kingdoms import learn
    except ImportError as e:  # pragma: no cover - depends on the install
        raise SystemExit(f"kingdoms: {e}")
    learn.limit_threads(args.threads)
    options = {k: getattr(args, f) for f, k in TRAIN_FLAGS.items() if getattr(args, f) is not None}
    if args.iterations is not None:
        return _cmd_loop(args, options)
    if not args.data:
        raise SystemExit("kingdoms: train needs --data DIR (or --iterations K for the loop)")
    with progress_bar(args.json, unit="steps") as bar:
        task = bar.add_task(f"{args.game} training", total=None)

        def progress(step: int, total: int, metrics: dict[str, float]) -> None:
            loss = metrics.get("val_loss", metrics.get("train_loss", float("nan")))
            bar.update(
                task,
                completed=step,
                total=total,
                description=f"{args.game} epoch {int(metrics['epoch'])} loss {loss:.3f}",
            )

        try:
            result = learn.train(
                args.game,
                args.data,
                args.out,
                seed=args.seed,
                plot=args.plot,
                progress=progress,
                **options,
            )
        except ImportError as e:
            raise SystemExit(f"kingdoms: {e}")
    if args.json:
        json.dump(
            {
                "model": str(result.path),
                "best_epoch": result.best_epoch,
                "seconds": result.seconds,
                "history": result.history,
            },
            sys.stdout,
        )
        print()
        return 0
    for h in result.history:
        line = f"epoch {int(h['epoch']):3d}  train {h['train_loss']:.4f}"
        if "val_loss" in h:
            line += (
                f"  validation {h['val_loss']:.4f} (policy {h['val_policy']:.4f}, "
                f"value {h['val_value']:.4f}, top-1 {h['val_accuracy']:.1%})"
            )
        print(line)
    print(
        f"{result.train_examples} examples ({result.validation_examples} held out), "
        f"{result.seconds:.1f} s; kept epoch {result.best_epoch}: {result.path}"
    )
    if args.plot:
        print(f"loss plot: {args.plot}")
    return 0


def _cmd_loop(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from kingdoms import learn

    if args.data or args.plot:
        raise SystemExit("kingdoms: --iterations runs its own self-play: no --data or --plot")
    result = learn.iterate(
        args.game,
        args.out,
        args.iterations,
        games=args.games,
        search=args.search,
        match_games=args.match_games,
        match_time=args.match_time,
        threshold=args.threshold,
        window=args.window,
        warm_start=not args.fresh,
        seed=args.seed,
        shard_games=args.shard_games,
        threads=args.threads,
        ray=args.ray is not None,
        address=args.ray or None,
        progress=None if args.json else print,
        **options,
    )
    if args.json:
        json.dump(
            {"best": result.best and str(result.best), "iterations": result.iterations}, sys.stdout
        )
        print()
    else:
        print(f"current network: {result.best or 'none kept (the plain search)'}")
    return 0


__all__ = ["KingdomsError", "add_train_parser", "cmd_train"]
