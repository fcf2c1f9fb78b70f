"""The model file: a safetensors file of float32 tensors with the network's shape in its
metadata (format ``kingdoms-mlp``, version 1; docs/learn.md). Written here, read and checked
by the engine (``kingdoms._kingdoms.Model``, with the ``safetensors`` crate), which is also
what :func:`read_model` calls first, so Python and Rust refuse the same files."""

from __future__ import annotations

import itertools
import json
import os
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kingdoms._kingdoms import DataError, Model, read_data_bytes

FORMAT = "kingdoms-mlp"
VERSION = 1
#: The largest model file read (the engine's limit too).
MAX_MODEL_BYTES = 64 << 20
#: Metadata keys the engine reads; the rest is the training record.
SHAPE_KEYS = (
    "format",
    "version",
    "game",
    "observation_size",
    "num_actions",
    "num_players",
    "hidden",
    "input",
)

F32 = npt.NDArray[np.float32]


@dataclass
class Network:
    """A network's weights as numpy arrays, in the file's names and shapes: ``trunk`` is a
    list of ``(weight [out, in], bias [out])``, then the ``policy`` and ``value`` heads."""

    game: str
    trunk: list[tuple[F32, F32]]
    policy: tuple[F32, F32]
    value: tuple[F32, F32]
    record: dict[str, str] = field(default_factory=dict)
    input: str = "observation"
    """What an input row holds: ``"observation"`` (the mover's) or ``"seats"`` (every
    seat's observation, the mover's first)."""

    @property
    def input_size(self) -> int:
        """Length of an input row (the first layer's inputs)."""
        w = self.trunk[0][0] if self.trunk else self.policy[0]
        return int(w.shape[1])

    @property
    def observation_size(self) -> int:
        """The game's observation size (one seat's)."""
        return self.input_size // (self.num_players if self.input == "seats" else 1)

    @property
    def num_actions(self) -> int:
        return int(self.policy[0].shape[0])

    @property
    def num_players(self) -> int:
        return int(self.value[0].shape[0])

    @property
    def hidden(self) -> list[int]:
        return [int(w.shape[0]) for w, _ in self.trunk]

    def tensors(self) -> dict[str, F32]:
        out: dict[str, F32] = {}
        for i, (w, b) in enumerate(self.trunk):
            out[f"trunk.{i}.weight"], out[f"trunk.{i}.bias"] = w, b
        out["policy.weight"], out["policy.bias"] = self.policy
        out["value.weight"], out["value.bias"] = self.value
        return {k: np.ascontiguousarray(v, dtype="<f4") for k, v in out.items()}

    def metadata(self) -> dict[str, str]:
        meta = {k: str(v) for k, v in self.record.items() if k not in SHAPE_KEYS}
        meta.update(
            format=FORMAT,
            version=str(VERSION),
            game=self.game,
            observation_size=str(self.observation_size),
            num_actions=str(self.num_actions),
            num_players=str(self.num_players),
            hidden=",".join(map(str, self.hidden)),
        )
        if self.input != "observation":  # absent: an observation network (older files)
            meta["input"] = self.input
        return meta

    def forward(self, observations: npt.ArrayLike) -> tuple[F32, F32]:
        """The network in numpy (float32): policy logits and values (tanh), as the engine's
        ``Model.forward`` computes them."""
        h = np.asarray(observations, dtype=np.float32)
        for w, b in self.trunk:
            h = np.maximum(h @ w.T + b, 0.0)
        logits = h @ self.policy[0].T + self.policy[1]
        values = np.tanh(h @ self.value[0].T + self.value[1])
        return logits.astype(np.float32), values.astype(np.float32)


_DTYPES = {"float32": "F32", "float64": "F64", "int32": "I32", "int64": "I64"}


def encode(tensors: Mapping[str, npt.NDArray[Any]], metadata: Mapping[str, str]) -> bytes:
    """A safetensors file of ``tensors`` (little-endian) and ``metadata``: an 8-byte
    little-endian header length, a JSON header, the tensors' bytes; keys sorted and tensors
    in name order, so the same input always gives the same bytes (the ``safetensors``
    package orders its metadata by hash)."""
    header: dict[str, Any] = {"__metadata__": dict(sorted(metadata.items()))}
    offset = 0
    blobs = []
    for name in sorted(tensors):
        t = np.ascontiguousarray(tensors[name])
        t = t.astype(t.dtype.newbyteorder("<"))
        header[name] = {
            "dtype": _DTYPES[t.dtype.name],
            "shape": list(t.shape),
            "data_offsets": [offset, offset + t.nbytes],
        }
        offset += t.nbytes
        blobs.append(t.tobytes())
    text = json.dumps(header, separators=(",", ":"), sort_keys=True).encode()
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def to_bytes(net: Network) -> bytes:
    """A model file's contents (the same network, the same bytes)."""
    return encode(net.tensors(), net.metadata())


def write_model(net: Network, path: str | os.PathLike[str]) -> Path:
    """Write ``net`` to ``path`` (replaced atomically) and check that the engine reads it
    back as written."""
    p = Path(path)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    tmp.write_bytes(to_bytes(net))
    os.replace(tmp, p)
    Model(p)  # the engine's check
    return p


def read_model(path: str | os.PathLike[str]) -> Network:
    """The network in a model file, checked by the engine first: a bad file is a
    :class:`kingdoms.DataError` naming it and the part at fault."""
    p = Path(path)
    model = Model(p)
    data = read_data_bytes(p, MAX_MODEL_BYTES)
    try:
        t = _tensors(data)
    except (ValueError, KeyError, TypeError, struct.error) as e:
        # the file changed since the engine read it
        raise DataError(f"{str(p)[:160]}: not a safetensors file ({type(e).__name__})") from None
    meta: Mapping[str, str] = model.metadata

    def pair(name: str) -> tuple[F32, F32]:
        return t[f"{name}.weight"], t[f"{name}.bias"]

    return Network(
        game=model.game,
        trunk=[pair(f"trunk.{i}") for i in range(len(model.hidden))],
        policy=pair("policy"),
        value=pair("value"),
        record={k: v for k, v in meta.items() if k not in SHAPE_KEYS},
        input=model.input,
    )


def _tensors(data: bytes) -> dict[str, F32]:
    """The float32 tensors of a safetensors file the engine has already checked."""
    (n,) = struct.unpack_from("<Q", data)
    header = json.loads(data[8 : 8 + n])
    base = 8 + n
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        a, b = info["data_offsets"]
        out[name] = np.frombuffer(data[base + a : base + b], "<f4").reshape(info["shape"]).copy()
    return out


def row_size(observation_size: int, num_players: int, input: str) -> int:
    """Length of an input row of ``input`` (``"seats"``: one observation per player)."""
    return observation_size * (num_players if input == "seats" else 1)


def init_network(
    game: str,
    observation_size: int,
    num_actions: int,
    num_players: int,
    hidden: Sequence[int],
    seed: int,
    input: str = "observation",
) -> Network:
    """A network of this shape with He-uniform weights and zero biases drawn from ``seed``
    (numpy's PCG64), the starting point of training; ``input="seats"`` reads rows of
    every player's observation."""
    rng = np.random.default_rng(seed)
    widths = [row_size(observation_size, num_players, input), *hidden]

    def dense(n_in: int, n_out: int, gain: float) -> tuple[F32, F32]:
        bound = gain * np.sqrt(6.0 / max(n_in, 1))
        w = rng.uniform(-bound, bound, size=(n_out, n_in)).astype(np.float32)
        return w, np.zeros(n_out, np.float32)

    trunk = [dense(a, b, 1.0) for a, b in itertools.pairwise(widths)]
    return Network(
        game=game,
        trunk=trunk,
        policy=dense(widths[-1], num_actions, 0.1),
        value=dense(widths[-1], num_players, 0.1),
        input=input,
    )
