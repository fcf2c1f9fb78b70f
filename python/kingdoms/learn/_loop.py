"""The iteration loop (issue 56): self-play with the current network, train a candidate on
the latest games, play it against the current network, keep the better; resumable, every
random draw derived from one seed, on this machine or on Ray with the same files
(docs/learn.md, "The iteration loop")."""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import kingdoms
from kingdoms import selfplay
from kingdoms._kingdoms import DataError, KingdomsError, read_data_bytes
from kingdoms.agents import ISMCTS
from kingdoms.learn._data import POLICY_TARGETS
from kingdoms.learn._file import MAX_MODEL_BYTES, read_model, write_model
from kingdoms.learn._train import train

MANIFEST = "loop.json"
TIMES = "times.json"
BEST = "best.safetensors"
LOOP_FORMAT = "kingdoms-loop"
LOOP_VERSION = 1
MAX_LOOP_MANIFEST = 16 << 20
DEFAULT_SEARCH: dict[str, Any] = {"iterations": 200}
# train()'s keywords the loop sets itself.
_RESERVED = {"game", "data", "out", "init", "seed", "progress", "threads", "plot"}
_PHASES = ("selfplay", "train", "match")


def phase_seed(seed: int, iteration: int, phase: str) -> int:
    """The seed of one phase of one iteration, drawn one-way from the run's ``seed``
    (SHA-256): no phase's seed tells another's or the run's."""
    text = f"kingdoms.learn.iterate:{seed}:{iteration}:{phase}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "little") >> 1


def data_name(i: int) -> str:
    return f"data-{i:03d}"


def model_name(i: int) -> str:
    return f"model-{i:03d}.safetensors"


def match_name(i: int) -> str:
    return f"match-{i:03d}.json"


@dataclass
class LoopResult:
    """What :func:`iterate` left in ``out_dir``: the kept network (``best``, a copy of the
    last candidate kept; None while none beat the plain search) and one manifest entry per
    iteration (``iteration``, ``data``, ``model``, ``model_sha256``, ``train``, ``match``,
    ``score``, ``kept``, ``best``)."""

    out_dir: Path
    best: Path | None
    iterations: list[dict[str, Any]]


def _shown(value: float) -> str:
    """A number for a message, bounded: a huge one is not echoed whole."""
    return repr(value) if not abs(value) >= 1e12 else "a number that large"  # nan: shown


def _whole(value: Any, name: str, low: int = 1, high: int = selfplay.MAX_GAMES) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise KingdomsError(f"{name} must be from {low} to {high:,}, got {_shown(value)}")
    return value


def _fraction(value: Any, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if not low <= value <= high:
        raise KingdomsError(f"{name} must be from {low} to {high}, got {_shown(value)}")
    return float(value)


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _train_options(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """``train()``'s other keywords, checked before anything runs (by ``train`` itself, on
    no data: it checks its numbers before it reads any)."""
    known = set(inspect.signature(train).parameters) - _RESERVED
    unknown = sorted(set(options) - known)
    if unknown:
        raise KingdomsError(
            f"unknown training option {unknown[0]!r}: one of {', '.join(sorted(known))}"
        )
    if options.get("policy_target", "action") not in POLICY_TARGETS:
        raise KingdomsError(f"policy_target must be one of {', '.join(POLICY_TARGETS)}")
    if "validation" in options:
        _fraction(options["validation"], "validation", 0.0, 0.99)
    try:
        train(game, [], os.devnull, **options)
    except KingdomsError as e:
        if not str(e).startswith("data:"):
            raise KingdomsError(f"training option: {e}") from None
    except (TypeError, ValueError) as e:
        raise KingdomsError(f"training option: {e}") from None
    return {k: _jsonable(v) for k, v in sorted(options.items())}


def _config(
    game: str,
    iterations: int,
    *,
    games: int,
    search: Mapping[str, Any] | None,
    match_games: int,
    match_time: float | None,
    threshold: float,
    window: int,
    warm_start: bool,
    seed: int,
    shard_games: int,
    format: str,
    train_options: Mapping[str, Any],
) -> dict[str, Any]:
    """Every argument that decides a run's files, checked; a bad one is a KingdomsError
    naming it."""
    if game not in kingdoms.games():
        raise KingdomsError(f"unknown game {game!r}: one of {', '.join(kingdoms.games())}")
    _whole(iterations, "iterations")
    settings = dict(DEFAULT_SEARCH if search is None else search)
    for key in ("model", "seed"):
        if key in settings:
            raise KingdomsError(f"search: {key} is set by the loop, not in search")
    try:
        ISMCTS(**settings)
    except (TypeError, KingdomsError) as e:
        raise KingdomsError(f"search: {e}") from None
    players = kingdoms.new_game(game, 0).num_players
    if _whole(match_games, "match_games") % players:
        raise KingdomsError(f"match_games must be a multiple of {players} (seats are swapped)")
    if match_time is not None:
        _fraction(match_time, "match_time", 1e-3, 3600.0)
    if format not in selfplay.FORMATS:
        raise KingdomsError(f"format must be one of {', '.join(selfplay.FORMATS)}")
    if type(seed) is not int or not 0 <= seed < 2**64:
        raise KingdomsError(f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
    if not isinstance(warm_start, bool):
        raise KingdomsError(f"warm_start must be True or False, got {warm_start!r}")
    selfplay.plan(games, shard_games)  # its bounds, before anything is written
    return {
        "game": game,
        "seed": seed,
        "games": _whole(games, "games"),
        "shard_games": _whole(shard_games, "shard_games"),
        "format": format,
        "search": settings,
        "window": _whole(window, "window"),
        "warm_start": warm_start,
        "match_games": match_games,
        "match_time": match_time,
        "threshold": _fraction(threshold, "threshold", 0.0, 1.0),
        "train": _train_options(game, train_options),
    }


def _reads_seats(config: dict[str, Any]) -> bool:
    """Whether the loop's networks read every seat's observation (their self-play then
    writes the ``seats`` column)."""
    return bool(config["train"].get("input") == "seats")


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _dump(value: Any) -> bytes:
    return (json.dumps(value, indent=1, sort_keys=True) + "\n").encode()


def _read_json(path: Path) -> Any:
    from kingdoms.records import parse_json, read_text_file

    return parse_json(read_text_file(path, path.name, MAX_LOOP_MANIFEST), path.name)


def _checked_manifest(m: Any) -> dict[str, Any]:
    """The loop manifest read back, its fields checked (a DataError names the one at
    fault). Its file names are those of the iteration's number: it opens no other file."""

    def bad(field: str, why: str) -> DataError:
        return DataError(f"{MANIFEST}: {field}: {why}")

    if not isinstance(m, dict) or m.get("format") != LOOP_FORMAT:
        raise bad("format", f"expected {LOOP_FORMAT!r}")
    if m.get("version") != LOOP_VERSION:
        raise bad("version", f"this kingdoms reads version {LOOP_VERSION}")
    if not isinstance(m.get("config"), dict):
        raise bad("config", "expected an object")
    entries = m.get("iterations")
    if not isinstance(entries, list):
        raise bad("iterations", "expected a list")
    for k, e in enumerate(entries):
        at = f"iterations[{k}]"
        if not isinstance(e, dict) or e.get("iteration") != k + 1:
            raise bad(at, f"expected an object of iteration {k + 1}")
        for key, name in (("data", data_name), ("model", model_name), ("match", match_name)):
            if key in e and e[key] != name(k + 1):
                raise bad(f"{at}.{key}", f"expected {name(k + 1)}")
        if "model" in e and not re.fullmatch(r"[0-9a-f]{64}", str(e.get("model_sha256"))):
            raise bad(f"{at}.model_sha256", "expected 64 hex digits")
        if "kept" in e and not isinstance(e["kept"], bool):
            raise bad(f"{at}.kept", "expected true or false")
        if "kept" in e and "model" not in e:
            raise bad(f"{at}.kept", "a match without a model")
    return m


Progress = Callable[[str], object]
"""``progress(line)``: one line of text per step of the loop."""


class _Run:
    """One loop directory: its manifest, its times, and the three phases of an iteration."""

    def __init__(
        self,
        root: Path,
        config: dict[str, Any],
        total: int,
        threads: int | None,
        ray: bool,
        address: str | None,
        progress: Progress | None,
    ) -> None:
        self.root, self.config, self.total = root, config, total
        self.threads, self.ray, self.address, self.progress = threads, ray, address, progress
        self.manifest: dict[str, Any] = {
            "format": LOOP_FORMAT,
            "version": LOOP_VERSION,
            "config": config,
            "iterations": [],
        }
        self.times: dict[str, Any] = {}

    def open(self) -> None:
        """Start a new directory or resume the run in it; another run's is refused before
        anything is written."""
        path = self.root / MANIFEST
        if path.exists():
            old = _checked_manifest(_read_json(path))
            for key, value in self.config.items():
                if old["config"].get(key) != value:
                    raise KingdomsError(
                        f"{str(self.root)[:160]} holds another loop ({key}: "
                        f"{json.dumps(old['config'].get(key))[:60]}, now "
                        f"{json.dumps(value)[:60]}); use a new directory"
                    )
            self.manifest["iterations"] = old["iterations"]
            try:
                times = _read_json(self.root / TIMES)
                self.times = times if isinstance(times, dict) else {}
            except KingdomsError:  # the times are a record, not needed to go on
                self.times = {}
        elif self.root.exists() and (not self.root.is_dir() or any(self.root.iterdir())):
            raise KingdomsError(
                f"{str(self.root)[:160]}: not an empty folder nor a loop's; use a new directory"
            )
        self.root.mkdir(parents=True, exist_ok=True)
        for stray in self.root.glob(".*.tmp"):  # left by an interrupted write
            stray.unlink()

    def say(self, i: int, text: str) -> None:
        if self.progress is not None:
            self.progress(f"iteration {i}/{self.total}: {text}")

    def save(self, i: int, phase: str, began: tuple[float, float]) -> float:
        wall = time.perf_counter() - began[0]
        cpu = time.process_time() - began[1]
        self.times.setdefault(str(i), {})[phase] = {"wall": round(wall, 3), "cpu": round(cpu, 3)}
        _write(self.root / MANIFEST, _dump(self.manifest))
        _write(self.root / TIMES, _dump(self.times))
        return wall

    def best(self) -> str | None:
        """The current network's file name: the last candidate kept (None: none yet)."""
        kept = [e["iteration"] for e in self.manifest["iterations"] if e.get("kept")]
        return model_name(kept[-1]) if kept else None

    def model_bytes(self, name: str) -> bytes:
        """A model file of the run, as the loop wrote it (the SHA-256 its manifest
        recorded), read as the engine reads data files."""
        entry = next(e for e in self.manifest["iterations"] if e.get("model") == name)
        try:
            data = read_data_bytes(self.root / name, MAX_MODEL_BYTES)
        except KingdomsError:
            data = b""
        if hashlib.sha256(data).hexdigest() != entry["model_sha256"]:
            raise DataError(f"{name}: not as the loop wrote it ({MANIFEST} records its SHA-256)")
        return data

    def model_path(self, name: str) -> Path:
        self.model_bytes(name)
        return self.root / name

    def agent(self, settings: dict[str, Any], seed: int, model: str | None) -> Any:
        """ISMCTS with the settings, seed and model; on Ray one whose model file travels."""
        settings = {**settings, "seed": seed}
        if model is None:
            return ISMCTS(**settings)
        if self.ray:
            from kingdoms.distributed import ModelISMCTS

            return ModelISMCTS(settings, self.model_path(model))
        return ISMCTS(**settings, model=str(self.model_path(model)))

    def run(self) -> None:
        entries = self.manifest["iterations"]
        for i in range(1, self.total + 1):
            if len(entries) < i:
                entries.append({"iteration": i})
            entry = entries[i - 1]
            if "data" not in entry:
                self.selfplay(i, entry)
            if "model" not in entry:
                self.train(i, entry)
            if "kept" not in entry:
                self.match(i, entry)

    def selfplay(self, i: int, entry: dict[str, Any]) -> None:
        began = (time.perf_counter(), time.process_time())
        c, best = self.config, self.best()
        agent = self.agent(c["search"], phase_seed(c["seed"], i, "selfplay-agent"), best)
        kw: dict[str, Any] = {
            "seed": phase_seed(c["seed"], i, "selfplay"),
            "shard_games": c["shard_games"],
            "format": c["format"],
        }
        if _reads_seats(c):  # a seats network trains on that column
            kw["seats"] = True
        out = self.root / data_name(i)
        if self.ray:
            from kingdoms import distributed

            distributed.selfplay(c["game"], [agent], c["games"], out, address=self.address, **kw)
        else:
            selfplay.generate(c["game"], [agent], c["games"], out, threads=self.threads, **kw)
        entry.update(data=data_name(i), played_by=best or "search")
        wall = self.save(i, "selfplay", began)
        by = best or "the plain search"
        self.say(i, f"self-play: {c['games']} games by {by} -> {data_name(i)} ({wall:.1f} s)")

    def train(self, i: int, entry: dict[str, Any]) -> None:
        began = (time.perf_counter(), time.process_time())
        c, best = self.config, self.best()
        first = max(1, i - c["window"] + 1)
        data = [self.root / data_name(j) for j in range(first, i + 1)]
        init = read_model(self.model_path(best)) if c["warm_start"] and best else None
        out = self.root / model_name(i)
        result = train(
            c["game"],
            data,
            out,
            init=init,
            seed=phase_seed(c["seed"], i, "train"),
            threads=self.threads,
            **c["train"],
        )
        # The training time goes to times.json: the model file stays the same bytes.
        net = result.network
        net.record.pop("seconds", None)
        write_model(net, out)
        final = result.history[result.best_epoch - 1]
        entry.update(
            model=model_name(i),
            model_sha256=hashlib.sha256(out.read_bytes()).hexdigest(),
            train={
                "data": [p.name for p in data],
                "init": best if init is not None else None,
                "examples": result.train_examples,
                "validation_examples": result.validation_examples,
                "best_epoch": result.best_epoch,
                "val_loss": final.get("val_loss"),
            },
        )
        wall = self.save(i, "train", began)
        start = f"from {best}" if init is not None else "from fresh weights"
        self.say(
            i,
            f"train: {model_name(i)} {start} on {data[0].name}..{data[-1].name} "
            f"({result.train_examples} examples), kept epoch {result.best_epoch} ({wall:.1f} s)",
        )

    def match(self, i: int, entry: dict[str, Any]) -> None:
        began = (time.perf_counter(), time.process_time())
        c, best = self.config, self.best()
        settings = dict(c["search"])
        if c["match_time"] is not None:  # equal time: as fast as each runs on this machine
            settings.update(iterations=None, time_limit=c["match_time"])
        agents = [
            self.agent(settings, phase_seed(c["seed"], i, "match-candidate"), model_name(i)),
            self.agent(settings, phase_seed(c["seed"], i, "match-current"), best),
        ]
        kw: dict[str, Any] = {
            "games": c["match_games"],
            "seed": phase_seed(c["seed"], i, "match"),
            "bootstrap": 200,
        }
        if self.ray:
            from kingdoms import distributed

            result = distributed.tournament(c["game"], agents, address=self.address, **kw)
        else:
            result = kingdoms.tournament(c["game"], agents, threads=self.threads, **kw)
        record = result.to_dict()
        record.pop("seconds", None)
        _write(self.root / match_name(i), _dump(record))
        score = result.score(0)
        kept = score >= c["threshold"]
        entry.update(
            match=match_name(i), score=score, kept=kept, best=model_name(i) if kept else best
        )
        if kept:
            _write(self.root / BEST, self.model_bytes(model_name(i)))
        wall = self.save(i, "match", began)
        verdict = "kept" if kept else f"{best or 'the plain search'} stays"
        self.say(
            i,
            f"match: {model_name(i)} scored {score:.1%} against {best or 'the plain search'} "
            f"in {c['match_games']} games: {verdict} (threshold {c['threshold']:.0%}, "
            f"{wall:.1f} s)",
        )


def iterate(
    game: str,
    out_dir: str | os.PathLike[str],
    iterations: int,
    *,
    games: int = 200,
    search: Mapping[str, Any] | None = None,
    match_games: int = 100,
    match_time: float | None = None,
    threshold: float = 0.55,
    window: int = 2,
    warm_start: bool = True,
    seed: int = 0,
    shard_games: int = 100,
    format: str = "npz",
    threads: int | None = None,
    ray: bool = False,
    address: str | None = None,
    progress: Progress | None = None,
    **train_options: Any,
) -> LoopResult:
    """Run the iteration loop for ``game`` in ``out_dir`` for ``iterations`` iterations, or
    resume it there (docs/learn.md, "The iteration loop").

    Each iteration plays ``games`` self-play games with ISMCTS (``search``: its settings,
    default 200 iterations a move) using the current network (none in the first: the plain
    search), trains a candidate on the data of the last ``window`` iterations (from the
    current network's weights with ``warm_start``, else fresh ones) with :func:`train`
    (``train_options``: its keywords, e.g. ``hidden``, ``epochs``), then plays the candidate
    against the current network in ``match_games`` seat-swapped games (at the search's
    iterations, or ``match_time`` seconds a move each) and keeps it if it scores at least
    ``threshold``. Every random draw comes from ``seed`` (a seed per iteration and phase,
    drawn one-way), so the files are the same whatever ``threads`` and with ``ray`` (or an
    ``address``: a Ray cluster) as on this machine, except with ``match_time``.
    ``progress(line)`` gets a line per step. Bad arguments are a KingdomsError naming them,
    before anything is written; resuming with other arguments is refused."""
    config = _config(
        game,
        iterations,
        games=games,
        search=search,
        match_games=match_games,
        match_time=match_time,
        threshold=threshold,
        window=window,
        warm_start=warm_start,
        seed=seed,
        shard_games=shard_games,
        format=format,
        train_options=train_options,
    )
    if threads is not None:
        _whole(threads, "threads")
    ray = ray or address is not None
    if ray and _reads_seats(config):
        raise KingdomsError("input='seats': its self-play column is written locally only")
    if ray:  # before the folder is touched: no Ray, no change
        from kingdoms import distributed

        distributed.connect(address)
    run = _Run(Path(out_dir), config, iterations, threads, ray, address, progress)
    run.open()
    run.run()
    best = run.best()
    return LoopResult(
        Path(out_dir),
        Path(out_dir) / BEST if best else None,
        run.manifest["iterations"][:iterations],
    )
