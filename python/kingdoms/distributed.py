"""Tournaments, random simulation and self-play data on a Ray cluster, with the same results
as on one machine (optional extra: ``pip install 'kingdoms[ray]'``).

>>> import kingdoms.distributed as kd
>>> from kingdoms.agents import Greedy, Random
>>> r = kd.tournament("battleline", [Greedy(), Random()], games=200, seed=1)  # doctest: +SKIP
>>> r.table() == kingdoms.tournament("battleline", [Greedy(), Random()], games=200, seed=1).table()

Every game of a tournament is fixed by the seed, its index in the schedule and its seats
(docs/distributed.md), so the schedule is cut into contiguous slices, each a Ray task that
plays its games with the Rust arena on the cores Ray gives it; the driver merges the slices
(:func:`kingdoms._kingdoms.merge_tournament`) into exactly the table and Elo a local
:func:`kingdoms.tournament` gives for the same game, agents, games and seed. A task lost with
its worker or node is run again by Ray and plays the same games again, so a fault changes
nothing but the time. ``simulate`` cuts the batch the same way (``first``), and
``selfplay`` plays the shards of :mod:`kingdoms.selfplay` as tasks, the driver writing each
shard and the manifest as tasks finish (no shared file system needed). An ISMCTS with a model
file goes to the tasks as a :class:`ModelISMCTS`, which carries the file's bytes.

Ray is started on this machine when it is not running and no ``address`` is given
(dashboard off; set ``RAY_USAGE_STATS_ENABLED=0`` to keep usage statistics off, which this
module does by default).
"""

from __future__ import annotations

import hashlib
import os
import secrets
import stat
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import kingdoms
from kingdoms import selfplay as _selfplay
from kingdoms._kingdoms import (
    KingdomsError,
    SimulationStats,
    TournamentResult,
    merge_tournament,
    read_data_bytes,
    tournament_games,
    tournament_schedule,
)
from kingdoms.agents import ISMCTS, AgentLike

Progress = Callable[[int, int], object]
RETRIES = 5
MAX_MODEL_BYTES = 64 << 20
"""The largest model file shipped (the engine's limit, ``kingdoms.learn.MAX_MODEL_BYTES``)."""
"""How often Ray runs a task again after its worker or node died."""


def _ray() -> Any:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError as e:
        raise ImportError("kingdoms.distributed needs Ray: pip install 'kingdoms[ray]'") from e
    return ray


def connect(address: str | None = None) -> Any:
    """Ray, connected: to the cluster at ``address``, or to the one this process already
    joined, or to a new local one (on this machine only, no dashboard)."""
    ray = _ray()
    if not ray.is_initialized():
        if address is None:
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
    return ray


def split(total: int, parts: int) -> list[tuple[int, int]]:
    """``0..total`` cut into ``parts`` contiguous ranges of near-equal size (none empty)."""
    parts = max(1, min(parts, total))
    base, extra = divmod(total, parts)
    out, start = [], 0
    for k in range(parts):
        stop = start + base + (1 if k < extra else 0)
        out.append((start, stop))
        start = stop
    return [r for r in out if r[1] > r[0]]


class ModelISMCTS:
    """An :class:`~kingdoms.agents.ISMCTS` with a model file (``ISMCTS(model=path,
    **settings)``) that travels with its Ray tasks: a cluster's machines need not share a
    disk, so the file's bytes go with the task, which writes them once per machine (named by
    their SHA-256, in a folder of its user's own under the temporary directory) and plays
    with that copy. The driver names the agent, and writes manifests, with ``path``."""

    def __init__(self, settings: Mapping[str, Any], path: str | os.PathLike[str]) -> None:
        self.settings = dict(settings)
        self.path = str(path)
        self.data = read_data_bytes(path, MAX_MODEL_BYTES)
        self.agent()  # bad settings fail here, on the driver

    def agent(self, path: str | None = None) -> ISMCTS:
        """The agent, searching with the file at ``path`` (default: the driver's)."""
        return ISMCTS(**self.settings, model=path or self.path)

    def here(self) -> ISMCTS:
        """The agent on this machine, with the file written here if it is not yet."""
        return self.agent(_model_copy(self.data))

    def __repr__(self) -> str:
        return repr(self.agent())


def _model_copy(data: bytes) -> str:
    """The path of a file holding ``data`` on this machine (written once, checked each
    time: a file that does not hold these bytes is replaced)."""
    digest = hashlib.sha256(data).hexdigest()
    root = Path(tempfile.gettempdir()) / f"kingdoms-models-{os.getuid()}"
    root.mkdir(mode=0o700, exist_ok=True)
    info = root.lstat()
    # Someone else's folder, or a link to one, is not trusted with the weights.
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise KingdomsError(f"{root}: not a private folder of this user; remove it")
    path = root / f"{digest}.safetensors"
    try:
        same = hashlib.sha256(read_data_bytes(path, len(data))).hexdigest() == digest
    except KingdomsError:
        same = False
    if not same:
        tmp = root / f".{digest}.{os.getpid()}.tmp"
        tmp.write_bytes(data)
        os.replace(tmp, path)
    return str(path)


def _driver(agents: Sequence[Any]) -> list[AgentLike]:
    return [a.agent() if isinstance(a, ModelISMCTS) else a for a in agents]


def _here(agents: Sequence[Any]) -> list[AgentLike]:
    return [a.here() if isinstance(a, ModelISMCTS) else a for a in agents]


def _tasks(ray: Any, tasks: int | None, cpus_per_task: int) -> int:
    if tasks is not None:
        if tasks < 1:
            raise KingdomsError(f"tasks must be at least 1, got {tasks}")
        return tasks
    cpus = int(ray.cluster_resources().get("CPU", 1))
    # A few tasks per task slot: the slots that finish early take more, and a lost task
    # costs little to replay.
    return max(1, 4 * max(1, cpus // cpus_per_task))


def _gather(ray: Any, refs: Sequence[Any]) -> Iterator[tuple[int, Any]]:
    """(position, value) of each task as it finishes."""
    where = {ref: i for i, ref in enumerate(refs)}
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1, timeout=1.0)
        for ref in ready:
            yield where[ref], ray.get(ref)


def _remote(ray: Any, fn: Callable[..., Any], cpus: int) -> Any:
    # SPREAD: slices go to every node from the start rather than filling the driver's node
    # first.
    return ray.remote(
        num_cpus=cpus, max_retries=RETRIES, retry_exceptions=False, scheduling_strategy="SPREAD"
    )(fn)


def _play_slice(
    game: str,
    agents: list[AgentLike],
    start: int,
    stop: int,
    games: int,
    seed: int,
    threads: int,
    pairing: str,
    records: bool,
    position: str | None,
    options: dict[str, Any],
) -> list[kingdoms.GameResult]:
    return tournament_games(
        game,
        _here(agents),
        start,
        stop,
        games,
        seed,
        threads,
        pairing=pairing,
        records=records,
        position=position,
        **options,
    )


def tournament(
    game: str,
    agents: Sequence[AgentLike | ModelISMCTS],
    games: int = 100,
    seed: int | None = None,
    *,
    pairing: str = "round-robin",
    records: bool = False,
    bootstrap: int = 1000,
    address: str | None = None,
    tasks: int | None = None,
    cpus_per_task: int = 1,
    progress: Progress | None = None,
    position: str | None = None,
    **options: Any,
) -> TournamentResult:
    """:func:`kingdoms.tournament` on a Ray cluster: the same result for the same arguments.
    The schedule is cut into ``tasks`` slices (default: four per ``cpus_per_task`` CPUs of
    the cluster), each played by the Rust arena on ``cpus_per_task`` cores of a worker.
    ``progress(done, total)`` counts finished games. A start ``position`` starts every game
    there, as in :func:`kingdoms.tournament`; it is checked here, before any task starts.
    Without a ``seed`` one is drawn from the OS and reported as the result's ``seed``. An
    agent may be a :class:`ModelISMCTS`, whose model file goes with the tasks."""
    agents = list(agents)
    if seed is None:
        seed = secrets.randbits(64)
    total = len(tournament_schedule(game, len(agents), games, pairing=pairing, **options))
    if position is not None:
        # An empty slice reads the position and the options the way every task will, so a
        # bad one is refused on the driver, with the local message, and no cluster is used.
        tournament_games(
            game,
            _driver(agents),
            0,
            0,
            games,
            seed,
            1,
            pairing=pairing,
            position=position,
            **options,
        )
    ray = connect(address)
    start = time.perf_counter()
    play = _remote(ray, _play_slice, cpus_per_task)
    slices = split(total, _tasks(ray, tasks, cpus_per_task))
    refs = [
        play.remote(
            game, agents, a, b, games, seed, cpus_per_task, pairing, records, position, options
        )
        for a, b in slices
    ]
    results: list[kingdoms.GameResult] = []
    if progress is not None:
        progress(0, total)
    for _, part in _gather(ray, refs):
        results.extend(part)
        if progress is not None:
            progress(len(results), total)
    return merge_tournament(
        game,
        _driver(agents),
        results,
        games,
        seed,
        pairing=pairing,
        bootstrap=bootstrap,
        seconds=time.perf_counter() - start,
        **options,
    )


def _simulate_slice(
    name: str, games: int, seed: int, first: int, threads: int, options: dict[str, Any]
) -> tuple[int, list[int], int, int]:
    s = kingdoms.simulate(name, games, seed, threads, first, **options)
    return s.games, list(s.wins), s.draws, s.plies


def simulate(
    name: str,
    games: int,
    seed: int,
    first: int = 0,
    *,
    address: str | None = None,
    tasks: int | None = None,
    cpus_per_task: int = 1,
    progress: Progress | None = None,
    **options: Any,
) -> SimulationStats:
    """:func:`kingdoms.simulate` on a Ray cluster: games ``first .. first + games`` cut into
    slices; the same totals as one local call."""
    ray = connect(address)
    if games < 0 or first < 0:
        raise KingdomsError("games and first must be >= 0")
    start = time.perf_counter()
    run = _remote(ray, _simulate_slice, cpus_per_task)
    refs = [
        run.remote(name, b - a, seed, first + a, cpus_per_task, options)
        for a, b in split(games, _tasks(ray, tasks, cpus_per_task))
    ]
    count, draws, plies = 0, 0, 0
    wins: list[int] = []
    for _, (g, w, d, p) in _gather(ray, refs):
        count += g
        wins += [0] * (len(w) - len(wins))
        for i, x in enumerate(w):
            wins[i] += x
        draws += d
        plies += p
        if progress is not None:
            progress(count, games)
    return SimulationStats(count, wins, draws, plies, time.perf_counter() - start)


def _play_shard(
    game: str,
    agents: list[Any],
    spec: _selfplay.ShardSpec,
    seed: int,
    fmt: str,
    options: dict[str, Any],
    threads: int,
) -> tuple[bytes, _selfplay.Forfeits]:
    return _selfplay.play_shard(game, _here(agents), spec, seed, fmt, options, threads)


def selfplay(
    game: str,
    agents: Sequence[AgentLike | ModelISMCTS],
    games: int,
    out: str | os.PathLike[str],
    *,
    seed: int | None = None,
    shard_games: int = 1000,
    format: str = "parquet",
    address: str | None = None,
    cpus_per_task: int = 1,
    progress: Progress | None = None,
    **options: Any,
) -> dict[str, Any]:
    """:func:`kingdoms.selfplay.generate` with each shard a Ray task: the same files and
    manifest as a local run, and the same resuming (without a ``seed``: the resumed run's, or
    one drawn from the OS, recorded in the manifest). An agent may be a :class:`ModelISMCTS`,
    whose model file goes with the tasks."""
    seed = _selfplay.run_seed(out, seed)
    ray = connect(address)
    agents = list(agents)
    play = _remote(ray, _play_shard, cpus_per_task)

    def runner(
        specs: Sequence[_selfplay.ShardSpec],
    ) -> Iterator[tuple[_selfplay.ShardSpec, bytes, _selfplay.Forfeits]]:
        refs = [
            play.remote(game, agents, spec, seed, format, options, cpus_per_task) for spec in specs
        ]
        for i, (data, forfeits) in _gather(ray, refs):
            yield specs[i], data, forfeits

    return _selfplay.generate(
        game,
        _driver(agents),
        games,
        out,
        seed=seed,
        shard_games=shard_games,
        format=format,
        progress=progress,
        runner=runner,
        **options,
    )
