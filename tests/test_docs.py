"""Every Python example in docs/*.md runs as written, as tests/test_readme.py does the README's.

A block runs in a fresh temporary directory (examples may write files); a block written as
an interactive session (`>>>`) is run as a doctest, its printed outputs checked. A block that imports an
optional extra skips only while that extra is not installed, and never in CI (`CI` set), where
every extra is. A block opts out only with a visible marker on the line before its fence,
`<!-- not run: REASON -->`, and the reason is shown as the skip message.
"""

from __future__ import annotations

import doctest
import importlib.util
import os
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
FENCE = re.compile(
    r"(?:<!-- not run: (?P<reason>[^>]*?) -->\n)?```python\n(?P<code>.*?)```", re.DOTALL
)

# The module whose absence means an optional extra is not installed, by what a block imports.
EXTRAS = {
    "kingdoms.distributed": ("ray", "ray"),
    "kingdoms.envs": ("pettingzoo", "rl"),
    "pyspiel": ("pyspiel", "openspiel"),
    "matplotlib": ("matplotlib", "plot"),
    "kingdoms.learn": ("jax", "learn"),
}

# docs/rl.md is run, with its modules' docstrings, by tests/test_envs_docs.py.
RUN_ELSEWHERE = {"rl.md": "test_envs_docs.py"}


def _blocks() -> list[tuple[str, int, str, str | None]]:
    found = []
    for path in sorted(DOCS.glob("*.md")):
        if path.name in RUN_ELSEWHERE:
            continue
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start("code"))
            found.append((path.name, line, m.group("code"), m.group("reason")))
    return found


BLOCKS = _blocks()


def test_docs_have_examples() -> None:
    assert len(BLOCKS) >= 10
    for doc, test in RUN_ELSEWHERE.items():
        assert (DOCS / doc).exists()
        assert doc in (Path(__file__).parent / test).read_text(encoding="utf-8")


def _missing_extra(code: str) -> str | None:
    for needle, (module, extra) in EXTRAS.items():
        if re.search(rf"\b(import|from) {re.escape(needle)}\b", code) and (
            importlib.util.find_spec(module) is None
        ):
            return f"needs the {extra!r} extra ({module} is not installed)"
    return None


@pytest.mark.parametrize(
    ("doc", "line", "code", "reason"),
    BLOCKS,
    ids=[f"{doc}:{line}" for doc, line, _, _ in BLOCKS],
)
def test_doc_example_runs(
    doc: str,
    line: int,
    code: str,
    reason: str | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if reason is not None:
        pytest.skip(f"marked not run: {reason}")
    missing = _missing_extra(code)
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(f"{doc}:{line} {missing}, and CI installs every extra")
        pytest.skip(missing)
    monkeypatch.chdir(tmp_path)
    if code.lstrip().startswith(">>>"):  # a session: each output is checked, as doctest does
        test = doctest.DocTestParser().get_doctest(code, {}, doc, str(DOCS / doc), line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test, out=lambda text: print(text, end=""))
        assert runner.failures == 0, f"{doc}:{line}: {runner.failures} example(s) differ"
        return
    # Line numbers in tracebacks point into the doc itself.
    compiled = compile("\n" * line + code, str(DOCS / doc), "exec")
    exec(compiled, {"__name__": "__docs__"})  # noqa: S102 - running our own docs is the point
