"""Self-play training data as sharded Parquet (or NPZ) files with a manifest.

>>> import kingdoms.selfplay as sp
>>> from kingdoms.agents import ISMCTS
>>> manifest = sp.generate("battleline", [ISMCTS(iterations=50)], games=4, out=tmp / "data",
...                        shard_games=2)  # doctest: +SKIP
>>> data = sp.load(tmp / "data")  # doctest: +SKIP

Each row is one decision: ``game`` (index in the run), ``seed`` (the game's setup seed),
``ply``, ``player`` (the mover), ``agent`` (index into the agents), ``observation`` (the
mover's observation, flattened), ``mask`` (legal action ids), ``action`` (id), ``visits``
(ISMCTS root visit counts by action id; zeros where the mover did not search) and
``returns`` (the game's final returns, one per player). The games are those of
:func:`kingdoms._kingdoms.selfplay_games`: game ``i`` is set up from the run's seed and
``i`` and plays the same on any machine, so shard ``k`` (games ``k * shard_games`` up to the
next shard) always holds the same rows.

**Resuming.** A shard is written to a temporary file and renamed into place, then recorded
in ``manifest.json`` (also replaced atomically); a run started again on the same directory
with the same arguments skips the shards the manifest lists and plays only the rest, so an
interrupted run never duplicates or half-writes a shard. Different arguments are refused.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import secrets
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kingdoms._kingdoms import KingdomsError, selfplay_games
from kingdoms.agents import AgentLike

MANIFEST = "manifest.json"
FORMATS = ("parquet", "npz")
COLUMNS = (
    "game",
    "seed",
    "ply",
    "player",
    "agent",
    "observation",
    "mask",
    "action",
    "visits",
    "returns",
)
FORMAT_VERSION = 1

Arrays = dict[str, npt.NDArray[Any]]
ShardSpec = tuple[int, int, int]
"""A shard: (index, first game, end game)."""
Runner = Callable[[Sequence[ShardSpec]], Iterator[tuple[ShardSpec, bytes]]]
"""Plays shards (anywhere) and yields each one's encoded file as it finishes."""


def has_parquet() -> bool:
    """Whether pyarrow is installed (Parquet shards need it; NPZ shards do not)."""
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True


def _pyarrow() -> Any:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError(
            "Parquet shards need pyarrow: pip install 'kingdoms[ray]' (or pyarrow), "
            'or use format="npz"'
        ) from e
    return pa, pq


def encode(arrays: Arrays, fmt: str) -> bytes:
    """One shard's file contents in format ``fmt`` ("parquet" or "npz")."""
    if fmt == "npz":
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)  # type: ignore[arg-type]
        return buf.getvalue()
    if fmt != "parquet":
        raise KingdomsError(f"unknown shard format {fmt!r}: use one of {', '.join(FORMATS)}")
    pa, pq = _pyarrow()
    cols = {}
    for name in COLUMNS:
        a = arrays[name]
        if a.ndim == 2:
            cols[name] = pa.FixedSizeListArray.from_arrays(pa.array(a.reshape(-1)), a.shape[1])
        else:
            cols[name] = pa.array(a)
    sink = pa.BufferOutputStream()
    pq.write_table(pa.table(cols), sink, compression="zstd")
    return bytes(sink.getvalue().to_pybytes())


def read_shard(path: str | os.PathLike[str]) -> Arrays:
    """The columns of one shard file as numpy arrays (2-D for observation, mask, visits and
    returns)."""
    p = Path(path)
    if p.suffix == ".npz":
        with np.load(p) as z:
            return {k: z[k] for k in COLUMNS}
    pa, pq = _pyarrow()
    table = pq.read_table(p)
    out: Arrays = {}
    for name in COLUMNS:
        col = table.column(name).combine_chunks()
        if pa.types.is_fixed_size_list(col.type):
            flat = col.flatten().to_numpy(zero_copy_only=False)
            out[name] = flat.reshape(len(col), col.type.list_size)
        else:
            out[name] = col.to_numpy(zero_copy_only=False)
    return out


def load(out: str | os.PathLike[str]) -> Arrays:
    """Every completed shard of a run directory, concatenated in game order."""
    manifest = read_manifest(out)
    parts = [read_shard(Path(out) / s["file"]) for s in manifest["shards"]]
    if not parts:
        return {}
    return {k: np.concatenate([p[k] for p in parts]) for k in COLUMNS}


def read_manifest(out: str | os.PathLike[str]) -> dict[str, Any]:
    with open(Path(out) / MANIFEST, encoding="utf-8") as f:
        manifest: dict[str, Any] = json.load(f)
    return manifest


def plan(games: int, shard_games: int) -> list[ShardSpec]:
    """The shards of a run of ``games`` games, ``shard_games`` games each (the last may be
    smaller)."""
    if games < 0:
        raise KingdomsError(f"games must be >= 0, got {games}")
    if shard_games < 1:
        raise KingdomsError(f"shard_games must be at least 1, got {shard_games}")
    return [
        (k, start, min(start + shard_games, games))
        for k, start in enumerate(range(0, games, shard_games))
    ]


def shard_name(index: int, fmt: str) -> str:
    return f"shard-{index:06d}.{fmt}"


def play_shard(
    game: str,
    agents: Sequence[AgentLike],
    spec: ShardSpec,
    seed: int,
    fmt: str,
    options: dict[str, Any],
    threads: int | None = None,
) -> bytes:
    """Play one shard's games and encode them (what a local run or a Ray task does)."""
    _, start, stop = spec
    arrays = selfplay_games(game, list(agents), start, stop, seed, threads, **options)
    return encode(arrays, fmt)


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _agent_label(a: object) -> str:
    # Rust agents: their repr holds the whole configuration, seed included. Python agents:
    # their name (their repr may carry a memory address).
    from kingdoms.agents import ISMCTS, Greedy, Heuristic, Random

    if isinstance(a, (Random, Heuristic, Greedy, ISMCTS)):
        return repr(a)
    return str(getattr(a, "name", type(a).__name__))


def _config(
    game: str,
    agents: Sequence[AgentLike],
    games: int,
    seed: int,
    shard_games: int,
    fmt: str,
    options: dict[str, Any],
) -> dict[str, Any]:
    return {
        "version": FORMAT_VERSION,
        "game": game,
        "options": options,
        "agents": [_agent_label(a) for a in agents],
        "games": games,
        "seed": seed,
        "shard_games": shard_games,
        "format": fmt,
        "columns": list(COLUMNS),
    }


def local_runner(
    game: str,
    agents: Sequence[AgentLike],
    seed: int,
    fmt: str,
    options: dict[str, Any],
    threads: int | None,
) -> Runner:
    """Plays shards one after another on this machine's cores."""

    def run(specs: Sequence[ShardSpec]) -> Iterator[tuple[ShardSpec, bytes]]:
        for spec in specs:
            yield spec, play_shard(game, agents, spec, seed, fmt, options, threads)

    return run


def run_seed(out: str | os.PathLike[str], seed: int | None) -> int:
    """``seed``, or for None the seed of the run in ``out`` being resumed, else a fresh one
    from the OS."""
    if seed is not None:
        return seed
    if (Path(out) / MANIFEST).exists():
        return int(read_manifest(Path(out))["seed"])
    return secrets.randbits(63)


def generate(
    game: str,
    agents: Sequence[AgentLike],
    games: int,
    out: str | os.PathLike[str],
    *,
    seed: int | None = None,
    shard_games: int = 1000,
    format: str = "parquet",
    threads: int | None = None,
    progress: Callable[[int, int], object] | None = None,
    runner: Runner | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Play ``games`` self-play games and write them to ``out`` as shards with a manifest;
    returns the manifest. Resumes a run interrupted in the same directory (see the module
    docs). ``progress(done, total)`` counts finished games; ``runner`` plays the shards
    elsewhere (:func:`kingdoms.distributed.selfplay` passes a Ray one). Without a ``seed``
    a new run draws one from the OS (a resumed run keeps its own); the manifest records it."""
    seed = run_seed(out, seed)
    if format not in FORMATS:
        raise KingdomsError(f"unknown shard format {format!r}: use one of {', '.join(FORMATS)}")
    specs = plan(games, shard_games)
    # Fails early on a bad game, agent or option, before any file is touched.
    selfplay_games(game, list(agents), 0, 0, seed, threads, **options)
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    config = _config(game, agents, games, seed, shard_games, format, options)
    manifest: dict[str, Any] = {**config, "shards": [], "complete": False}
    path = root / MANIFEST
    if path.exists():
        old = read_manifest(root)
        for key, value in config.items():
            if old.get(key) != value:
                raise KingdomsError(
                    f"{root} holds another run ({key}: {old.get(key)!r}, now {value!r}); "
                    "use a new directory"
                )
        manifest["shards"] = [
            s for s in old.get("shards", []) if _intact(root / str(s.get("file")), s)
        ]
    for stray in root.glob(".shard-*.tmp"):
        stray.unlink()
    done_ids = {s["index"] for s in manifest["shards"]}
    todo = [s for s in specs if s[0] not in done_ids]
    done = sum(stop - start for k, start, stop in specs if k in done_ids)
    if progress is not None:
        progress(done, games)
    run = runner or local_runner(game, agents, seed, format, options, threads)
    for (k, start, stop), data in run(todo):
        name = shard_name(k, format)
        _write_atomic(root / name, data)
        manifest["shards"].append(
            {
                "index": k,
                "file": name,
                "games": [start, stop],
                "bytes": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
            }
        )
        manifest["shards"].sort(key=lambda s: s["index"])
        _write_atomic(path, json.dumps(manifest, indent=1).encode())
        done += stop - start
        if progress is not None:
            progress(done, games)
    manifest["complete"] = True
    manifest["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    _write_atomic(path, json.dumps(manifest, indent=1).encode())
    return manifest


def _intact(path: Path, entry: dict[str, Any]) -> bool:
    """Whether a shard the manifest lists is on disk as written."""
    try:
        data = path.read_bytes()
    except OSError:
        return False
    return len(data) == entry.get("bytes") and hashlib.sha256(data).hexdigest() == entry.get(
        "sha256"
    )


def shards(out: str | os.PathLike[str]) -> Iterable[Path]:
    """The completed shard files of a run, in game order."""
    return [Path(out) / s["file"] for s in read_manifest(out)["shards"]]
