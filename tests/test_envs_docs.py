"""docs/rl.md's examples and the RL modules' docstring examples run as written."""

from __future__ import annotations

import doctest
import importlib
import re
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "rl.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
MODULES = ["kingdoms.batch", "kingdoms.envs.aec", "kingdoms.envs.single", "kingdoms.envs.vector"]
if sys.version_info >= (3, 11):  # OpenSpiel's wheels
    MODULES.append("kingdoms.openspiel")


def test_rl_doc_has_examples() -> None:
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_rl_doc_example_runs(index: int) -> None:
    if "pyspiel" in BLOCKS[index] and sys.version_info < (3, 11):
        pytest.skip("OpenSpiel needs Python 3.11 or later")
    code = compile(BLOCKS[index], f"docs/rl.md[python block {index}]", "exec")
    exec(code, {})  # noqa: S102 - running our own docs is the point


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples_run(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
