"""`kingdoms train`: a policy-and-value network from self-play shards (kingdoms.learn), with
a progress bar, a validation split and a loss plot."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import kingdoms
from kingdoms._kingdoms import KingdomsError


def _widths(text: str) -> tuple[int, ...]:
    try:
        widths = tuple(int(p) for p in text.split(",") if p.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected widths such as 256,128, got {text!r}")
    return widths


def add_train_parser(sub: Any) -> None:
    """Register the `train` subcommand on the CLI's subparsers."""
    p = sub.add_parser(
        "train",
        help="train a policy-and-value network on self-play data (needs kingdoms[learn])",
        description="Train a small policy-and-value network for GAME on the self-play runs "
        "in DATA (folders written by `kingdoms selfplay`) and write it to OUT as a model file "
        "(safetensors; docs/learn.md) that ISMCTS can use. The same data, arguments and seed "
        "give the same file.",
    )
    p.add_argument("game", choices=kingdoms.games(), help="the game")
    p.add_argument("--data", nargs="+", required=True, metavar="DIR", help="self-play run folders")
    p.add_argument("--out", required=True, metavar="MODEL", help="the model file to write")
    p.add_argument(
        "--hidden",
        type=_widths,
        default=None,
        help="hidden layer widths, comma-separated (default 256,128)",
    )
    p.add_argument("--epochs", type=int, default=10, help="passes over the data (default 10)")
    p.add_argument("--batch-size", type=int, default=256, help="examples a step (default 256)")
    p.add_argument("--lr", type=float, default=1e-3, help="AdamW learning rate (default 1e-3)")
    p.add_argument(
        "--weight-decay", type=float, default=1e-4, help="AdamW weight decay (default 1e-4)"
    )
    p.add_argument(
        "--policy-target",
        choices=("action", "visits"),
        default="action",
        help="what the policy learns: the move the search chose (default) or its root visits",
    )
    p.add_argument(
        "--value-weight", type=float, default=1.0, help="weight of the value loss (default 1)"
    )
    p.add_argument(
        "--validation",
        type=float,
        default=0.1,
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
        help="CPU threads for training (default: JAX's choice; 1 for a shared machine)",
    )
    p.add_argument("--json", action="store_true", help="print the history as JSON")
    p.set_defaults(func=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    from kingdoms._cli_tournament import progress_bar

    try:
        from kingdoms import learn
    except ImportError as e:  # pragma: no cover - depends on the install
        raise SystemExit(f"kingdoms: {e}")
    learn.limit_threads(args.threads)
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
                hidden=args.hidden if args.hidden is not None else learn.DEFAULT_HIDDEN,
                epochs=args.epochs,
                batch_size=args.batch_size,
                learning_rate=args.lr,
                weight_decay=args.weight_decay,
                value_weight=args.value_weight,
                policy_target=args.policy_target,
                validation=args.validation,
                seed=args.seed,
                plot=args.plot,
                progress=progress,
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


__all__ = ["KingdomsError", "add_train_parser", "cmd_train"]
