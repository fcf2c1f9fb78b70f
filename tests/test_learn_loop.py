"""The iteration loop (kingdoms.learn.iterate, `kingdoms train --iterations`): a tiny run
gives the same files when repeated, with another thread count, resumed after an
interruption, and on a Ray cluster of two nodes; bad arguments change nothing."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

from kingdoms import learn, selfplay
from kingdoms._kingdoms import DataError, KingdomsError
from kingdoms.cli import main

# one worker runs this module and tests/test_distributed.py (pytest-xdist's loadgroup): the
# module's reference run is made once, and one Ray cluster runs at a time
pytestmark = pytest.mark.xdist_group("ray-cluster")

# Tiny: 4 games of 20-iteration searches, a 16-unit network, one epoch. A threshold of 0
# keeps every candidate, so the second iteration plays and is matched with a model.
TINY: dict[str, Any] = {
    "games": 4,
    "search": {"iterations": 20},
    "match_games": 4,
    "shard_games": 2,
    "threshold": 0.0,
    "seed": 3,
    "hidden": (16,),
    "epochs": 1,
}


def files(root: Path) -> dict[str, bytes]:
    """Every file of a loop folder but the times, a self-play manifest without its
    finishing time."""
    out = {}
    for p in sorted(root.rglob("*")):
        if not p.is_file() or p.name == learn._loop.TIMES:
            continue
        data = p.read_bytes()
        if p.name == "manifest.json":
            m = json.loads(data)
            m.pop("finished")
            data = json.dumps(m, sort_keys=True).encode()
        out[str(p.relative_to(root))] = data
    return out


def run_at(base: Path, name: str, **kw: Any) -> Path:
    """A run made in ``base/run`` (model paths name the folder in agents' names), then moved
    to ``base/name``."""
    out = base / "run"
    learn.iterate("battleline", out, kw.pop("iterations", 2), **{**TINY, **kw})
    return out.rename(base / name)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    learn.limit_threads(1)
    return tmp_path_factory.mktemp("loop")


@pytest.fixture(scope="module")
def reference(base: Path) -> Path:
    lines: list[str] = []
    ref = run_at(base, "reference", threads=1, progress=lines.append)
    assert len(lines) == 6 and lines[0].startswith("iteration 1/2: self-play: 4 games")
    assert "kept" in lines[2] and "from model-001.safetensors" in lines[4]
    return ref


def test_the_loop_writes_each_iteration(reference: Path) -> None:
    m = json.loads((reference / "loop.json").read_text())
    assert [e["iteration"] for e in m["iterations"]] == [1, 2]
    first, second = m["iterations"]
    assert first["played_by"] == "search" and second["played_by"] == "model-001.safetensors"
    assert second["train"]["data"] == ["data-001", "data-002"]  # the window of 2
    assert second["train"]["init"] == "model-001.safetensors"  # from the current weights
    assert second["kept"] and second["best"] == "model-002.safetensors"
    assert (reference / "best.safetensors").read_bytes() == (
        reference / "model-002.safetensors"
    ).read_bytes()
    match = json.loads((reference / "match-002.json").read_text())
    assert match["games"] == 4 and "model-001.safetensors" in match["names"][1]
    assert 0.0 <= second["score"] <= 1.0 and second["score"] == match["scores"][0]
    assert learn.Model(reference / "model-002.safetensors").hidden == [16]
    times = json.loads((reference / "times.json").read_text())
    assert set(times["2"]) == {"selfplay", "train", "match"}


def test_a_repeated_run_gives_the_same_files_with_any_threads(base: Path, reference: Path) -> None:
    again = run_at(base, "threads2", threads=2)
    assert files(again) == files(reference)
    shutil.rmtree(again)


def test_a_run_resumes_where_it_stopped(base: Path, reference: Path) -> None:
    class Stop(Exception):
        pass

    def stop_in_iteration_2(line: str) -> None:
        if line.startswith("iteration 2/2: train"):
            raise Stop

    out = base / "run"
    learn.iterate("battleline", out, 1, threads=1, **TINY)  # one iteration, then more
    with pytest.raises(Stop):
        learn.iterate("battleline", out, 2, threads=1, progress=stop_in_iteration_2, **TINY)
    m = json.loads((out / "loop.json").read_text())
    assert "model" in m["iterations"][1] and "kept" not in m["iterations"][1]
    (out / "match-002.json").unlink(missing_ok=True)
    lines: list[str] = []
    result = learn.iterate("battleline", out, 2, threads=1, progress=lines.append, **TINY)
    assert [line.split(":")[1] for line in lines] == [" match"]  # only what was left
    assert result.best == out / "best.safetensors" and len(result.iterations) == 2
    assert files(out.rename(base / "resumed")) == files(reference)
    shutil.rmtree(base / "resumed")


def test_resuming_another_run_or_a_changed_model_is_refused(base: Path) -> None:
    out = base / "other"
    learn.iterate("battleline", out, 1, threads=1, **TINY)
    before = files(out)
    with pytest.raises(KingdomsError, match=r"holds another loop \(games: 4, now 6\)"):
        learn.iterate("battleline", out, 2, threads=1, **{**TINY, "games": 6})
    with pytest.raises(KingdomsError, match="holds another loop"):
        learn.iterate("battleline", out, 2, threads=1, **{**TINY, "epochs": 2})
    assert files(out) == before
    (out / "model-001.safetensors").write_bytes(b"junk")
    with pytest.raises(DataError, match="model-001.safetensors: not as the loop wrote it"):
        learn.iterate("battleline", out, 2, threads=1, **TINY)
    m = json.loads((out / "loop.json").read_text())
    m["iterations"][0]["model"] = "../../etc/passwd"  # a manifest opens no other file
    (out / "loop.json").write_text(json.dumps(m))
    with pytest.raises(DataError, match=r"iterations\[0\]\.model: expected model-001"):
        learn.iterate("battleline", out, 2, threads=1, **TINY)
    (out / "loop.json").write_text('{"format": "kingdoms-loop", "version": 9}')
    with pytest.raises(DataError, match="loop.json: version"):
        learn.iterate("battleline", out, 2, threads=1, **TINY)
    shutil.rmtree(out)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"iterations": 0}, "iterations must be"),
        ({"games": 0}, "games must be"),
        ({"games": 2**64}, "games must be from 0 to 1,000,000,000"),
        ({"threshold": float("nan")}, "threshold must be from 0.0 to 1.0, got nan"),
        ({"match_games": 3}, "match_games must be a multiple of 2"),
        ({"threshold": 1.5}, "threshold must be"),
        ({"window": 0}, "window must be"),
        ({"seed": -1}, "seed must be"),
        ({"match_time": 0.0}, "match_time must be"),
        ({"format": "csv"}, "format must be"),
        ({"threads": 0}, "threads must be"),
        ({"search": {"model": "m.safetensors"}}, "search: model is set by the loop"),
        ({"search": {"bogus": 1}}, 'search: ismcts: unknown option "bogus"'),
        ({"search": {"iterations": -1}}, "search: ismcts: option iterations"),
        ({"epochz": 2}, "unknown training option 'epochz'"),
        ({"epochs": 0}, "training option: epochs"),
        ({"hidden": (0,)}, "training option: hidden"),
        ({"policy_target": "moves"}, "policy_target must be"),
        ({"validation": 1.0}, "validation must be"),
    ],
)
def test_bad_arguments_name_themselves_and_change_nothing(
    tmp_path: Path, change: dict[str, Any], named: str
) -> None:
    kw = {**TINY, "iterations": 1, "threads": 1, **change}
    game = kw.pop("game", "battleline")
    out = tmp_path / "loop"
    with pytest.raises(KingdomsError, match=named):
        learn.iterate(game, out, kw.pop("iterations"), **kw)
    assert not out.exists()


@pytest.mark.parametrize(
    ("change", "named"), [({"games": "4"}, "games"), ({"threshold": "1"}, "threshold")]
)
def test_wrong_types_are_type_errors(tmp_path: Path, change: dict[str, Any], named: str) -> None:
    with pytest.raises(TypeError, match=named):
        learn.iterate("battleline", tmp_path / "loop", 1, threads=1, **{**TINY, **change})
    assert not (tmp_path / "loop").exists()


def test_a_seats_loop_writes_the_column_its_networks_read(base: Path) -> None:
    out = base / "seats"
    result = learn.iterate("battleline", out, 2, threads=1, **{**TINY, "input": "seats"})
    for entry in result.iterations:
        assert "seats" in selfplay.load(out / entry["data"])
        assert learn.Model(out / entry["model"]).input == "seats"
    assert result.iterations[1]["played_by"] == "model-001.safetensors"
    with pytest.raises(KingdomsError, match="input='seats'.*locally only"):
        learn.iterate("battleline", base / "seats-ray", 1, ray=True, **{**TINY, "input": "seats"})
    assert not (base / "seats-ray").exists()


def test_a_folder_of_other_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(KingdomsError, match="not an empty folder nor a loop's"):
        learn.iterate("battleline", tmp_path, 1, **TINY)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_the_phase_seeds_are_one_way_and_distinct() -> None:
    seeds = {learn.phase_seed(3, i, p) for i in (1, 2) for p in ("selfplay", "train", "match")}
    assert len(seeds) == 6 and all(0 <= s < 2**63 for s in seeds)
    assert learn.phase_seed(3, 1, "train") == learn.phase_seed(3, 1, "train")
    assert learn.phase_seed(4, 1, "train") != learn.phase_seed(3, 1, "train")


def test_the_loop_command(base: Path, reference: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = base / "run"
    args = ["train", "battleline", "--iterations", "2", "--out", str(out), "--games", "4"]
    args += ["--search", "20", "--match-games", "4", "--shard-games", "2", "--threshold", "0"]
    args += ["--seed", "3", "--hidden", "16", "--epochs", "1", "--threads", "1"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("iteration 1/2: self-play") and lines[-1].endswith(
        "best.safetensors"
    )
    assert files(out.rename(base / "cli")) == files(reference)
    shutil.rmtree(base / "cli")
    assert main(["train", "battleline", "--iterations", "0", "--out", str(out)]) == 2
    assert "iterations must be" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="no --data"):
        main(["train", "battleline", "--iterations", "1", "--out", str(out), "--data", "x"])
    with pytest.raises(SystemExit, match="needs --data"):
        main(["train", "battleline", "--out", str(out)])
    assert not out.exists()


NODE = {"num_cpus": 1, "include_dashboard": False, "object_store_memory": 80 * 1024**2}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A head node and one worker node, one CPU each (as tests/test_distributed.py)."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray = pytest.importorskip("ray")
    cluster_utils = pytest.importorskip("ray.cluster_utils")
    c = cluster_utils.Cluster(initialize_head=True, head_node_args=NODE)
    c.add_node(**{k: v for k, v in NODE.items() if k != "include_dashboard"})
    c.wait_for_nodes()
    yield c
    ray.shutdown()
    c.shutdown()


# Ray starts its processes by fork and exec, so JAX's threads are not a hazard there.
@pytest.mark.filterwarnings("ignore:os.fork:RuntimeWarning")
def test_on_a_ray_cluster_the_files_are_the_local_ones(
    base: Path, reference: Path, cluster: Any
) -> None:
    on_ray = run_at(base, "ray", address=cluster.address)
    assert files(on_ray) == files(reference)
    shutil.rmtree(on_ray)
