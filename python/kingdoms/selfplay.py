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
``returns`` (the game's final returns, one per player), and in runs written since the column
was added ``root_value`` (every player's value of the move chosen as the mover's search
estimated it, by player; NaN where the mover did not search; shards without it still load),
and in runs made with ``seats=True`` ``seats`` (every seat's observation of the true state,
the mover's first, then the next seats in turn: the input of a ``seats`` network,
docs/learn.md).
The games are those of
:func:`kingdoms._kingdoms.selfplay_games`: game ``i`` is set up from the run's seed and
``i`` and plays the same on any machine, so shard ``k`` (games ``k * shard_games`` up to the
next shard) always holds the same rows.

**Resuming.** A shard is written to a temporary file and renamed into place, then recorded
in ``manifest.json`` (also replaced atomically); a run started again on the same directory
with the same arguments skips the shards the manifest lists and plays only the rest, so an
interrupted run never duplicates or half-writes a shard. Different arguments are refused.

**Forfeits.** A game a Python agent forfeits (:class:`kingdoms.agents.Forfeit`: a bot that
crashed, timed out or answered badly) is left out of the rows and listed in its shard's
``forfeits`` in the manifest (``{"game": index, "player": seat, "reason": why}``); the run goes on, and the
finished manifest counts them in ``forfeited``.

**Reading a folder one did not write.** ``manifest.json`` is data: it never makes
:func:`load`, :func:`shards` or a resumed run open a file outside its folder. A shard is
named ``shard-NNNNNN.parquet`` / ``.npz`` (a plain name in the folder), is read as the engine
reads data files (a regular file, never a FIFO or device, at most :data:`MAX_SHARD_BYTES`
and the size the manifest records), must match the manifest's SHA-256, and decodes to at most
:data:`MAX_DECODED_BYTES`. A bad manifest or shard is a :class:`kingdoms.DataError` naming
the field or the shard.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import secrets
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kingdoms._kingdoms import DataError, KingdomsError, read_data_bytes, selfplay_games
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
#: Columns a shard may lack (written by later versions; older shards still load).
OPTIONAL_COLUMNS = ("root_value", "seats")
FORMAT_VERSION = 1
#: Largest shard file read (1 GiB; a shard of 1,000 games is a few MB).
MAX_SHARD_BYTES = 1 << 30
#: Most bytes one shard decodes to (4 GiB): a small file that claims to unpack to more
#: (a zip bomb) is refused before it is unpacked.
MAX_DECODED_BYTES = 4 << 30
#: Largest manifest read.
MAX_MANIFEST_BYTES = 16 << 20
# A shard's file name: plain, in its folder.
_SHARD_NAME = re.compile(r"shard-[0-9]{6,12}\.(parquet|npz)")

Arrays = dict[str, npt.NDArray[Any]]
ShardSpec = tuple[int, int, int]
"""A shard: (index, first game, end game)."""
Forfeits = list[dict[str, Any]]
"""A shard's forfeited games: ``{"game": index, "player": seat, "reason": why}`` each."""
Runner = Callable[[Sequence[ShardSpec]], Iterator[tuple[ShardSpec, bytes, Forfeits]]]
"""Plays shards (anywhere) and yields each one's encoded file and forfeits as it finishes."""


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
    for name in _present(arrays):
        a = arrays[name]
        if a.ndim == 2:
            cols[name] = pa.FixedSizeListArray.from_arrays(pa.array(a.reshape(-1)), a.shape[1])
        else:
            cols[name] = pa.array(a)
    sink = pa.BufferOutputStream()
    pq.write_table(pa.table(cols), sink, compression="zstd")
    return bytes(sink.getvalue().to_pybytes())


def _present(arrays: Arrays | Iterable[str]) -> list[str]:
    # The required columns, then the optional ones there are.
    return list(COLUMNS) + [c for c in OPTIONAL_COLUMNS if c in arrays]


def read_shard(path: str | os.PathLike[str]) -> Arrays:
    """The columns of one shard file as numpy arrays (2-D for observation, mask, visits and
    returns). The file is read as the engine reads data files (at most
    :data:`MAX_SHARD_BYTES`); its format is told by its suffix."""
    p = Path(path)
    fmt = "npz" if p.suffix == ".npz" else "parquet"
    return decode(read_data_bytes(p, MAX_SHARD_BYTES), fmt, p.name)


def decode(data: bytes, fmt: str, what: str = "shard") -> Arrays:
    """One shard's columns from its file contents (what :func:`encode` wrote); anything
    else is a :class:`kingdoms.DataError` naming ``what``."""
    try:
        return _decode_npz(data) if fmt == "npz" else _decode_parquet(data)
    except DataError as e:
        raise DataError(f"{what[:80]!r}: {e}") from None
    except ImportError:
        raise
    except Exception as e:  # noqa: BLE001 - whatever numpy, zipfile, pyarrow raise on junk
        raise DataError(f"{what[:80]!r}: not a {fmt} shard ({type(e).__name__})") from None


def _decode_npz(data: bytes) -> Arrays:
    out: Arrays = {}
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        infos = {i.filename: i for i in z.infolist()}
        if sum(i.file_size for i in infos.values()) > MAX_DECODED_BYTES:
            raise DataError(f"unpacks to more than {MAX_DECODED_BYTES} bytes")
        for name in _present([n.removesuffix(".npy") for n in infos]):
            info = infos.get(f"{name}.npy")
            if info is None:
                raise DataError(f"no column {name}")
            with z.open(info) as f:
                version = np.lib.format.read_magic(f)
                if version == (1, 0):
                    shape, _, dtype = np.lib.format.read_array_header_1_0(f)
                else:
                    shape, _, dtype = np.lib.format.read_array_header_2_0(f)
                # The header's shape must fit the member: no allocation beyond the data.
                if dtype.hasobject or int(np.prod(shape)) * dtype.itemsize > info.file_size:
                    raise DataError(f"column {name}: its header does not fit its data")
            with z.open(info) as f:
                out[name] = np.lib.format.read_array(f, allow_pickle=False)
    return out


def _decode_parquet(data: bytes) -> Arrays:
    pa, pq = _pyarrow()
    f = pq.ParquetFile(pa.BufferReader(data))
    meta = f.metadata
    if sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups)) > (
        MAX_DECODED_BYTES
    ):
        raise DataError(f"unpacks to more than {MAX_DECODED_BYTES} bytes")
    names = _present(f.schema_arrow.names)
    table = f.read(columns=names)
    out: Arrays = {}
    for name in names:
        col = table.column(name).combine_chunks()
        if pa.types.is_fixed_size_list(col.type):
            flat = col.flatten().to_numpy(zero_copy_only=False)
            out[name] = flat.reshape(len(col), col.type.list_size)
        else:
            out[name] = col.to_numpy(zero_copy_only=False)
    return out


def load(out: str | os.PathLike[str]) -> Arrays:
    """Every completed shard of a run directory, concatenated in game order. Each shard
    must be as the manifest recorded it (size and SHA-256)."""
    root = Path(out)
    manifest = read_manifest(root)
    fmt = manifest["format"]
    parts = []
    for i, s in enumerate(manifest["shards"]):
        data = _shard_bytes(root, s)
        if data is None:
            raise DataError(f"manifest.json: shards[{i}]: {s['file']} is not as written")
        parts.append(decode(data, fmt, s["file"]))
    if not parts:
        return {}
    # An optional column is kept when every shard has it.
    names = [k for k in _present(parts[0]) if all(k in p for p in parts)]
    return {k: np.concatenate([p[k] for p in parts]) for k in names}


def read_manifest(out: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of a run directory, checked: a :class:`kingdoms.DataError` names the
    field at fault (``manifest.json: shards[3].file: ...``)."""
    from kingdoms.records import parse_json, read_text_file

    text = read_text_file(Path(out) / MANIFEST, MANIFEST, MAX_MANIFEST_BYTES)
    return _checked_manifest(parse_json(text, MANIFEST))


def _checked_manifest(m: Any) -> dict[str, Any]:
    def bad(field: str, why: str) -> DataError:
        return DataError(f"{MANIFEST}: {field}: {why}")

    def whole(v: Any, field: str, top: int) -> int:
        if type(v) is not int or not 0 <= v <= top:
            raise bad(field, f"expected an integer from 0 to {top}")
        return v

    if not isinstance(m, dict):
        raise bad("$", "expected a JSON object")
    fmt = m.get("format")
    if fmt not in FORMATS:
        raise bad("format", f"expected one of {', '.join(FORMATS)}")
    shards = m.get("shards")
    if not isinstance(shards, list):
        raise bad("shards", "expected a list")
    seen: set[int] = set()
    for i, s in enumerate(shards):
        where = f"shards[{i}]"
        if not isinstance(s, dict):
            raise bad(where, "expected an object")
        index = whole(s.get("index"), f"{where}.index", 10**12 - 1)
        if index in seen:
            raise bad(f"{where}.index", "given twice")
        seen.add(index)
        name = s.get("file")
        # A plain name in the folder: no "../", no absolute path, no other file.
        if not isinstance(name, str) or name != shard_name(index, fmt):
            raise bad(f"{where}.file", f"expected {shard_name(index, fmt)}")
        whole(s.get("bytes"), f"{where}.bytes", MAX_SHARD_BYTES)
        digest = s.get("sha256")
        if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
            raise bad(f"{where}.sha256", "expected 64 hex digits")
        games = s.get("games")
        if not (isinstance(games, list) and len(games) == 2):
            raise bad(f"{where}.games", "expected [first, end]")
        first = whole(games[0], f"{where}.games[0]", 2**63)
        end = whole(games[1], f"{where}.games[1]", 2**63)
        forfeits = s.get("forfeits", [])
        if not isinstance(forfeits, list):
            raise bad(f"{where}.forfeits", "expected a list")
        for j, f in enumerate(forfeits):
            at = f"{where}.forfeits[{j}]"
            if not isinstance(f, dict) or not isinstance(f.get("reason"), str):
                raise bad(at, 'expected {"game": index, "player": seat, "reason": text}')
            whole(f.get("player"), f"{at}.player", 1023)
            if type(f.get("game")) is not int or not first <= f["game"] < end:
                raise bad(f"{at}.game", f"expected a game of the shard, {first} to {end - 1}")
    return m


def _shard_bytes(root: Path, entry: dict[str, Any]) -> bytes | None:
    """A listed shard's contents if it is on disk as written (size and SHA-256), else
    None. Read through the engine's one reader: a FIFO or device is refused, not read."""
    try:
        data = read_data_bytes(root / entry["file"], entry["bytes"])
    except KingdomsError:
        return None
    if len(data) != entry["bytes"] or hashlib.sha256(data).hexdigest() != entry["sha256"]:
        return None
    return data


MAX_GAMES = 10**9
"""The most games one run plays (a thousand years of one core at 30 games a second)."""
MAX_SHARDS = 10**6
"""The most shards one run writes (``shard-NNNNNN``): ``games / shard_games`` is checked
before any plan is made."""


def plan(games: int, shard_games: int) -> list[ShardSpec]:
    """The shards of a run of ``games`` games, ``shard_games`` games each (the last may be
    smaller)."""
    for name, value, low in (("games", games, 0), ("shard_games", shard_games, 1)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}")
        if not low <= value <= MAX_GAMES:
            raise KingdomsError(f"{name} must be from {low} to {MAX_GAMES:,}")
    if -(-games // shard_games) > MAX_SHARDS:
        raise KingdomsError(
            f"{games:,} games in shards of {shard_games:,} make more than {MAX_SHARDS:,} "
            "shards: raise shard_games"
        )
    return [
        (k, start, min(start + shard_games, games))
        for k, start in enumerate(range(0, games, shard_games))
    ]


def shard_name(index: int, fmt: str) -> str:
    return f"shard-{index:06d}.{fmt}"


def _rust_agent(a: object) -> bool:
    from kingdoms.agents import ISMCTS, Greedy, Heuristic, Random

    return isinstance(a, (Random, Heuristic, Greedy, ISMCTS))


class _Watched:
    """A Python agent as it plays, with its last forfeit (seat, reason) noted: the engine
    reports a forfeit as a plain :class:`kingdoms.KingdomsError`."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        name = getattr(agent, "name", None)
        self.name = name if isinstance(name, str) else type(agent).__name__
        self.forfeit: tuple[int, str] | None = None

    def act(self, game: Any) -> Any:
        from kingdoms.agents import Forfeit

        try:
            return self.agent.act(game)
        except Forfeit as e:
            self.forfeit = (game.current_player, e.reason)
            raise


def play_shard(
    game: str,
    agents: Sequence[AgentLike],
    spec: ShardSpec,
    seed: int,
    fmt: str,
    options: dict[str, Any],
    threads: int | None = None,
    seats: bool = False,
) -> tuple[bytes, Forfeits]:
    """Play one shard's games and encode them (what a local run or a Ray task does); with
    the encoded shard comes the list of its forfeited games (``{"game", "player",
    "reason"}``), whose rows the shard leaves out. Only a Python agent can forfeit (a
    :class:`~kingdoms.agents.Subprocess` bot that crashes, times out or answers badly raises
    :class:`~kingdoms.agents.Forfeit`), and games with one play one after another on this
    thread anyway, so with a Python agent the shard is played game by game and a forfeit
    loses that game alone. ``seats`` adds the ``seats`` column."""
    _, start, stop = spec
    if all(_rust_agent(a) for a in agents):
        arrays = selfplay_games(
            game, list(agents), start, stop, seed, threads, seats=seats, **options
        )
        return encode(arrays, fmt), []
    players: list[Any] = [a if _rust_agent(a) else _Watched(a) for a in agents]
    watched = [a for a in players if isinstance(a, _Watched)]
    # The empty shard first: the columns' types and widths when every game is forfeited.
    parts = [selfplay_games(game, players, start, start, seed, threads, seats=seats, **options)]
    forfeits: Forfeits = []
    for i in range(start, stop):
        for w in watched:
            w.forfeit = None
        try:
            parts.append(
                selfplay_games(game, players, i, i + 1, seed, threads, seats=seats, **options)
            )
        except KingdomsError:
            gave_up = [w.forfeit for w in watched if w.forfeit is not None]
            if not gave_up:
                raise
            player, reason = gave_up[0]
            forfeits.append({"game": i, "player": player, "reason": reason})
    arrays = {k: np.concatenate([p[k] for p in parts]) for k in _present(parts[0])}
    return encode(arrays, fmt), forfeits


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
    seats: bool = False,
) -> dict[str, Any]:
    # Runs without the seats column keep the configuration they always had (so resume).
    extra: dict[str, Any] = {"seats": True} if seats else {}
    return {
        "version": FORMAT_VERSION,
        "game": game,
        "options": options,
        "agents": [_agent_label(a) for a in agents],
        "games": games,
        "seed": seed,
        "shard_games": shard_games,
        "format": fmt,
        "columns": [*COLUMNS, "root_value", *(["seats"] if seats else [])],
        **extra,
    }


def local_runner(
    game: str,
    agents: Sequence[AgentLike],
    seed: int,
    fmt: str,
    options: dict[str, Any],
    threads: int | None,
    seats: bool = False,
) -> Runner:
    """Plays shards one after another on this machine's cores."""

    def run(specs: Sequence[ShardSpec]) -> Iterator[tuple[ShardSpec, bytes, Forfeits]]:
        for spec in specs:
            yield spec, *play_shard(game, agents, spec, seed, fmt, options, threads, seats)

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
    seats: bool = False,
    **options: Any,
) -> dict[str, Any]:
    """Play ``games`` self-play games and write them to ``out`` as shards with a manifest;
    returns the manifest. Resumes a run interrupted in the same directory (see the module
    docs). ``progress(done, total)`` counts finished games; ``runner`` plays the shards
    elsewhere (:func:`kingdoms.distributed.selfplay` passes a Ray one). Without a ``seed``
    a new run draws one from the OS (a resumed run keeps its own); the manifest records it.
    ``seats=True`` adds the ``seats`` column (every seat's observation of the true state at
    each decision: training data for a ``seats`` network; off by default, the shards are
    then as they always were); a ``runner`` does not carry it."""
    seed = run_seed(out, seed)
    if not isinstance(seats, bool):
        raise TypeError(f"seats must be True or False, got {type(seats).__name__}")
    if seats and runner is not None:
        raise KingdomsError("seats=True: self-play with the seats column runs locally only")
    if format not in FORMATS:
        raise KingdomsError(f"unknown shard format {format!r}: use one of {', '.join(FORMATS)}")
    specs = plan(games, shard_games)
    # Fails early on a bad game, agent or option, before any file is touched.
    selfplay_games(game, list(agents), 0, 0, seed, threads, seats=seats, **options)
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    config = _config(game, agents, games, seed, shard_games, format, options, seats)
    manifest: dict[str, Any] = {**config, "shards": [], "complete": False}
    path = root / MANIFEST
    if path.exists():
        old = read_manifest(root)
        for key, value in config.items():
            if old.get(key) != value:
                raise KingdomsError(
                    f"{str(root)[:160]} holds another run ({key}: {repr(old.get(key))[:60]}, "
                    f"now {repr(value)[:60]}); use a new directory"
                )
        manifest["shards"] = [s for s in old["shards"] if _shard_bytes(root, s) is not None]
    for stray in root.glob(".shard-*.tmp"):
        stray.unlink()
    done_ids = {s["index"] for s in manifest["shards"]}
    todo = [s for s in specs if s[0] not in done_ids]
    done = sum(stop - start for k, start, stop in specs if k in done_ids)
    if progress is not None:
        progress(done, games)
    run = runner or local_runner(game, agents, seed, format, options, threads, seats)
    for (k, start, stop), data, forfeits in run(todo):
        name = shard_name(k, format)
        _write_atomic(root / name, data)
        manifest["shards"].append(
            {
                "index": k,
                "file": name,
                "games": [start, stop],
                "bytes": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
                "forfeits": forfeits,
            }
        )
        manifest["shards"].sort(key=lambda s: s["index"])
        _write_atomic(path, json.dumps(manifest, indent=1).encode())
        done += stop - start
        if progress is not None:
            progress(done, games)
    manifest["forfeited"] = sum(len(s.get("forfeits", [])) for s in manifest["shards"])
    manifest["complete"] = True
    manifest["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    _write_atomic(path, json.dumps(manifest, indent=1).encode())
    return manifest


def shards(out: str | os.PathLike[str]) -> Iterable[Path]:
    """The completed shard files of a run, in game order."""
    return [Path(out) / s["file"] for s in read_manifest(out)["shards"]]  # checked names
