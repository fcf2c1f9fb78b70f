"""Learned evaluation (issue 56): train a small policy-and-value network on self-play
shards and write it as a model file that the engine evaluates in Rust (docs/learn.md).

>>> from kingdoms import learn, selfplay
>>> from kingdoms.agents import ISMCTS
>>> _ = selfplay.generate("battleline", [ISMCTS(iterations=20)], games=4, out=tmp / "sp",
...                       seed=1, format="npz", shard_games=2)  # doctest: +SKIP
>>> result = learn.train("battleline", tmp / "sp", tmp / "bl.safetensors", hidden=(32,),
...                      epochs=2, seed=0)  # doctest: +SKIP
>>> learn.Model(result.path).hidden  # doctest: +SKIP
[32]

:func:`iterate` runs the iteration loop (self-play with the current network, train, match,
keep the better; ``kingdoms train GAME --iterations K``).

Training needs the ``learn`` extra (``pip install 'kingdoms[learn]'``: JAX and optax); reading and evaluating a model file needs nothing beyond kingdoms.
"""

from kingdoms._kingdoms import Model
from kingdoms.learn._data import Examples, examples, load_examples, split
from kingdoms.learn._file import (
    FORMAT,
    MAX_MODEL_BYTES,
    VERSION,
    Network,
    encode,
    init_network,
    read_model,
    to_bytes,
    write_model,
)
from kingdoms.learn._loop import LoopResult, iterate, phase_seed
from kingdoms.learn._train import DEFAULT_HIDDEN, TrainResult, limit_threads, plot_history, train

__all__ = [
    "DEFAULT_HIDDEN",
    "FORMAT",
    "MAX_MODEL_BYTES",
    "VERSION",
    "Examples",
    "LoopResult",
    "Model",
    "Network",
    "TrainResult",
    "encode",
    "examples",
    "init_network",
    "iterate",
    "limit_threads",
    "load_examples",
    "phase_seed",
    "plot_history",
    "read_model",
    "split",
    "to_bytes",
    "train",
    "write_model",
]
