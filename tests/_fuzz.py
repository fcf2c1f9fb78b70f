"""Shared pieces of the hostile-input fuzz suite (`tests/test_fuzz_*.py`, issue 11).

Every fuzzed call must return a result or raise `KingdomsError` / `TypeError` - never another
exception, an abort or a hang - with a message of bounded length; a refused call on a game
leaves its state (`to_json()`) unchanged. Each module runs a quick hypothesis test in the
normal suite and a long one marked slow that prints how many calls it made:
``python -m pytest tests/test_fuzz_states.py -m slow -s``.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable
from typing import Any

import kingdoms
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

# Calls per surface so far (the long runs print them).
CALLS: dict[str, int] = {}
# Longest message any refusal may have: inputs are quoted only up to 40 characters.
MAX_MESSAGE = 600
# Any single call using more CPU time than this counts as a hang. CPU time, not wall time:
# on a loaded machine a cheap call may wait seconds for a core (a hex long run failed so,
# on a coordinate call, under load average 25).
SLOW_CALL = 10.0

# No shrinking: a failure is reported as drawn (shrinking these inputs takes minutes).
PHASES = [Phase.explicit, Phase.reuse, Phase.generate]
QUICK = settings(
    max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), phases=PHASES
)


def long_run(examples: int) -> settings:
    """Settings of a long run: `examples` times `KINGDOMS_FUZZ_SCALE` (default 1)."""
    scale = float(os.environ.get("KINGDOMS_FUZZ_SCALE", "1"))
    return settings(
        max_examples=max(1, int(examples * scale)),
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=PHASES,
        database=None,
    )


BOUNDARY = [0, 1, 2, 3, -1, -2, 7, 8, 9, 255, 256, 1024, 1025, 65536, 65537]
BOUNDARY += [2**16, 2**24, 2**24 + 1, 2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**63]
BOUNDARY += [2**64 - 1, 2**64, -(2**63), -(2**64), 10**30, -(10**30)]

ints = st.one_of(st.sampled_from(BOUNDARY), st.integers(-5, 40), st.integers())
floats = st.sampled_from([math.nan, math.inf, -math.inf, 0.5, -0.0, 1e308, 5e-324, 1.0])
texts = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", " ", "\ud800", "\x00", "pass", "None", "-1", "1e9", "é", "𝄞"]),
    st.builds(lambda n: "x" * n, st.sampled_from([41, 1000, 100_000])),
)
junk = st.one_of(
    st.none(),
    st.booleans(),
    ints,
    floats,
    texts,
    st.lists(st.integers(-3, 3), max_size=3),
    st.dictionaries(st.sampled_from(["a", "game", "seed", ""]), st.integers(-2, 2), max_size=2),
    st.builds(object),
    st.just(b"bytes"),
    st.just(1j),
)


# A long run appends its running counts here (`surface calls unix-time`, every 5000 calls),
# so a run stopped early still shows how far it got.
PROGRESS = os.environ.get("KINGDOMS_FUZZ_PROGRESS")


def progress(surface: str, calls: int) -> None:
    if PROGRESS and calls % 5000 == 0:
        with open(PROGRESS, "a", encoding="utf-8") as f:
            f.write(f"{surface} {calls} {time.time():.0f}\n")


def count(surface: str) -> None:
    CALLS[surface] = CALLS.get(surface, 0) + 1
    progress(surface, CALLS[surface])


def call(surface: str, f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run one call: its result, or the KingdomsError / TypeError it raised (returned)."""
    count(surface)
    start = time.process_time()
    try:
        out = f(*args, **kwargs)
    except (kingdoms.KingdomsError, TypeError) as e:
        out = e
        assert len(str(e)) < MAX_MESSAGE, str(e)[:300]
    assert time.process_time() - start < SLOW_CALL, f"{f!r} took too long"
    return out


def on_game(surface: str, g: kingdoms.Game, name: str, *args: Any, **kwargs: Any) -> Any:
    """`call` of method `name` of `g`; a refusal must leave `g` unchanged."""
    before = g.to_json()
    out = call(surface, getattr(g, name), *args, **kwargs)
    if isinstance(out, BaseException):
        assert g.to_json() == before, f"refused {name}{args!r:.80} changed the state"
    return out


def position(name: str, seed: int, plies: int) -> kingdoms.Game:
    """A game of `name` after up to `plies` random moves from `seed`."""
    g = kingdoms.new_game(name, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if g.is_terminal:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


JUNK_VALUES: list[Any] = [
    None,
    True,
    False,
    -1,
    0,
    1,
    2**64,
    -(2**63) - 1,
    10**30,
    0.5,
    math.nan,
    math.inf,
    "",
    "\ud800",
    "x" * 1000,
    "??",
    [],
    [None],
    [-1, 2**70],
    {},
    {"": None},
    {"a": [1, {"b": math.nan}]},
]


def junk_value(rng: random.Random) -> Any:
    """A fresh copy of one of `JUNK_VALUES`: `mutate` edits the tree in place, so handing
    out the shared list or dict itself let later edits change it, until one held itself and
    `slots` walked the cycle without end (the states long run's unbounded memory, issue 11)."""
    return json_copy(rng.choice(JUNK_VALUES))


def mutate(tree: Any, rng: random.Random, edits: int) -> Any:
    """`tree` (JSON data) with `edits` random edits: a node replaced by junk or by another
    node of the tree, a key deleted or added, a list shortened, lengthened or shuffled, a
    number nudged, a string cut or changed."""
    for _ in range(edits):
        nodes = slots(tree)
        if not nodes:
            return junk_value(rng)
        parent, key = rng.choice(nodes)
        value = parent[key]
        kind = rng.randrange(9)
        if kind == 0:
            parent[key] = junk_value(rng)
        elif kind == 1:
            parent[key] = json_copy(rng.choice(nodes)[0])
        elif kind == 2:
            del parent[key]
        elif kind == 3 and isinstance(parent, dict):
            parent[rng.choice(["x", "extra", str(key) + "_", ""])] = junk_value(rng)
        elif kind == 4 and isinstance(value, list) and value:
            rng.shuffle(value)
            if rng.random() < 0.5:
                value.pop()
            else:
                value.append(rng.choice(value))
        elif kind == 5 and isinstance(value, bool):
            parent[key] = not value
        elif kind == 5 and isinstance(value, int):
            parent[key] = value + rng.choice([-(2**64), -1000, -2, -1, 1, 2, 1000, 2**64])
        elif kind == 6 and isinstance(value, str):
            cut = rng.randrange(len(value) + 1)
            parent[key] = value[:cut] + rng.choice(["", "x", "9", "\ud800", "?", value[:cut]])
        elif kind == 7:
            parent[key] = json_copy(value) if rng.random() < 0.5 else [value]
        else:
            parent[key] = junk_value(rng)
    return tree


def slots(tree: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) of a JSON tree, depth first."""
    out: list[tuple[Any, Any]] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        items = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node)
            if isinstance(node, list)
            else ()
        )
        for k, v in items:
            out.append((node, k))
            stack.append(v)
    return out


def json_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


def report(surface: str, seconds: float) -> str:
    return (
        f"\n{surface} fuzz: {CALLS.get(surface, 0)} calls in {seconds:.0f} s, "
        "all results or KingdomsError/TypeError, no refusal changed a state"
    )
