"""The code's shape, checked: no Rust function over 150 lines outside tests, and no import
circle among the package's modules (issue 52). Run as a script it prints both lists:

    python tests/test_code_shape.py
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
RUST = [ROOT / "rust/core/src", ROOT / "rust/py/src"]
PACKAGE = ROOT / "python/kingdoms"
LIMIT = 150

#: Functions still over the limit, with where the work on them is tracked: the agents' own
#: split (issue 52, agents/ into search, arena and batch) takes these.
KNOWN_LONG = {
    ("search/ismcts.rs", "iterate"),
}

# ---- Rust functions --------------------------------------------------------------------


def _mask(src: str) -> str:
    """`src` with comments and string/char literals blanked (newlines kept)."""
    out = list(src)
    i, n = 0, len(src)

    def blank(a: int, b: int) -> None:
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif (m := re.match(r'b?r(#*)"', src[i : i + 40])) and (
            i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")
        ):
            close = '"' + m.group(1)
            j = src.find(close, i + m.end())
            j = n if j < 0 else j + len(close)
            blank(i, j)
            i = j
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
        elif c == "'":
            if i + 1 < n and src[i + 1] == "\\":
                j = src.find("'", i + 2)
                blank(i, j + 1)
                i = j + 1
            elif i + 2 < n and src[i + 2] == "'":
                blank(i, i + 3)
                i += 3
            else:
                i += 1  # a lifetime
        else:
            i += 1
    return "".join(out)


def _block_end(text: str, open_at: int) -> int:
    depth = 0
    for k in range(open_at, len(text)):
        if text[k] == "{":
            depth += 1
        elif text[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(text) - 1


def functions(path: Path) -> list[tuple[str, int, int]]:
    """(name, first line, line count) of each fn with a body outside `#[cfg(test)]` mods."""
    text = _mask(path.read_text())
    skip: list[tuple[int, int]] = []
    for m in re.finditer(
        r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{", text
    ):
        skip.append((m.start(), _block_end(text, m.end() - 1)))
    found = []
    for m in re.finditer(r"\bfn\s+(\w+)", text):
        if any(a <= m.start() <= b for a, b in skip):
            continue
        depth, k = 0, m.end()
        while k < len(text):
            ch = text[k]
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            elif depth == 0 and ch in "{;":
                break
            k += 1
        if k >= len(text) or text[k] == ";":
            continue
        end = _block_end(text, k)
        first = text.count("\n", 0, m.start()) + 1
        last = text.count("\n", 0, end) + 1
        found.append((m.group(1), first, last - first + 1))
    return found


def is_test_file(path: Path) -> bool:
    return "tests" in path.parts or path.name.endswith("tests.rs") or path.name == "testgame.rs"


def long_functions(roots: list[Path] = RUST, limit: int = LIMIT) -> list[tuple[int, str, str]]:
    rows = []
    for root in roots:
        for path in sorted(root.rglob("*.rs")):
            if is_test_file(path.relative_to(root)):
                continue
            for name, first, count in functions(path):
                if count > limit:
                    rows.append((count, f"{path.relative_to(root)}:{first}", name))
    return sorted(rows, reverse=True)


# ---- Python imports --------------------------------------------------------------------


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import, at module level or deferred inside a function (a deferred import hides
    a circle, it does not remove it), except those under `if TYPE_CHECKING:`."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for b in node.body for n in ast.walk(b))
    return [
        n
        for n in ast.walk(tree)
        if id(n) not in skip and isinstance(n, (ast.Import, ast.ImportFrom))
    ]


def import_graph() -> nx.DiGraph:
    """The package's modules and who imports whom; `from pkg import name` points at
    `pkg.name` when that is a module (the extension `_kingdoms` counts as one)."""
    modules: dict[str, Path | None] = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules.update({_module_name(p): None for p in PACKAGE.rglob("*.pyi")})
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        if path is None:
            continue
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    up = package.split(".")
                    up = up[: len(up) - (node.level - 1)]
                    base = ".".join(up + ([node.module] if node.module else []))
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                targets = subs + ([base] if len(subs) < len(node.names) else [])
            graph.add_edges_from((name, t) for t in targets if t in modules and t != name)
    return graph


def import_cycles() -> list[list[str]]:
    return sorted(nx.simple_cycles(import_graph()), key=lambda c: (len(c), c))


# ---- Rust modules ----------------------------------------------------------------------

CORE = ROOT / "rust/core/src"


def rust_module_graph(root: Path = CORE) -> nx.DiGraph:
    """The crate's top-level modules (a file or a folder of `src/`) and which uses which,
    from every `crate::module` path outside tests."""
    modules = {p.stem for p in root.glob("*.rs")} | {p.name for p in root.iterdir() if p.is_dir()}
    modules -= {"lib"}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for path in root.rglob("*.rs"):
        rel = path.relative_to(root)
        if is_test_file(rel) or rel.name == "lib.rs":
            continue
        text = _mask(path.read_text()).split("#[cfg(test)]")[0]
        here = rel.parts[0].removesuffix(".rs")
        for used in re.findall(r"\bcrate::(\w+)", text):
            if used in modules and used != here:
                graph.add_edge(here, used)
    return graph


# ---- tests -----------------------------------------------------------------------------


def test_no_function_over_the_limit_outside_tests() -> None:
    long = [
        (n, where, name)
        for n, where, name in long_functions()
        if (where.split(":")[0], name) not in KNOWN_LONG
    ]
    assert not long, "\n".join(f"{n} lines: {name} ({where})" for n, where, name in long)


def test_the_known_long_functions_are_still_long() -> None:
    # An entry of KNOWN_LONG that got short leaves the list, so the list only shrinks.
    still = {(where.split(":")[0], name) for _, where, name in long_functions()}
    assert KNOWN_LONG <= still, KNOWN_LONG - still


def test_the_scanner_sees_a_long_function_and_skips_test_modules(tmp_path: Path) -> None:
    body = "\n".join(f"    let x{i} = {i}; // }} {{" for i in range(LIMIT))
    (tmp_path / "a.rs").write_text(
        f'fn long() {{\n{body}\n}}\nfn short() {{ let s = "}}"; }}\n'
        f"#[cfg(test)]\nmod tests {{\n    fn long_test() {{\n{body}\n    }}\n}}\n"
    )
    assert [(name, n) for n, _, name in long_functions([tmp_path])] == [("long", LIMIT + 2)]


def test_the_package_has_no_import_cycles() -> None:
    cycles = import_cycles()
    assert not cycles, "\n".join(" -> ".join([*c, c[0]]) for c in cycles)


def test_the_rust_modules_have_no_cycles() -> None:
    graph = rust_module_graph()
    assert graph.has_edge("simulate", "playout") and graph.has_edge("zinordia", "hex")
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, "\n".join(" -> ".join([*c, c[0]]) for c in cycles)


def test_the_import_graph_sees_deferred_imports() -> None:
    graph = import_graph()
    # cli.py imports its subcommands at the top; _tournament defers its progress bar
    assert graph.has_edge("kingdoms.cli", "kingdoms._cli_play")
    assert graph.has_edge("kingdoms._tournament", "kingdoms._cli_common")
    assert graph.has_edge("kingdoms._cli_agents", "kingdoms._kingdoms")


# ---- Python 3.10 --------------------------------------------------------------------------

#: What the standard library gained after 3.10, the oldest Python supported
#: (pyproject's requires-python): a module, or a name of a module.
NEWER_THAN_310 = {
    "tomllib",
    "typing.Self",
    "typing.Never",
    "typing.LiteralString",
    "typing.NotRequired",
    "typing.Required",
    "typing.TypeVarTuple",
    "typing.Unpack",
    "typing.assert_never",
    "typing.assert_type",
    "typing.reveal_type",
    "typing.dataclass_transform",
}


def _guarded(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether `node` sits under `if sys.version_info ...` or `try: ... except ImportError`."""
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "version_info" in ast.unparse(node.test):
            return True
        if isinstance(node, ast.Try) and any(
            "ImportError" in ast.unparse(h.type) for h in node.handlers if h.type is not None
        ):
            return True
    return False


def imports_newer_than_310(paths: list[Path], root: Path = ROOT) -> list[str]:
    """`file:line name` for each unguarded import of something Python 3.10 lacks."""
    out = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {c: p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            else:
                continue
            for name in names:
                if name in NEWER_THAN_310 and not _guarded(node, parents):
                    out.append(f"{path.relative_to(root)}:{node.lineno} {name}")
    return out


def _python_files() -> list[Path]:
    return sorted(
        p for d in ("python", "tests", "benches") for p in (ROOT / d).rglob("*.py") if p.is_file()
    )


def test_the_python_code_imports_only_what_python_3_10_has() -> None:
    """requires-python is >=3.10: tomllib (3.11) comes with a tomli fallback, and so on."""
    found = imports_newer_than_310(_python_files())
    assert not found, "\n".join(found)


def test_the_3_10_scan_sees_unguarded_imports(tmp_path: Path) -> None:
    f = tmp_path / "m.py"
    f.write_text(
        "import tomllib\n"
        "from typing import Self, Any\n"
        "import sys\n"
        "if sys.version_info >= (3, 11):\n    import tomllib\n"
        "try:\n    from typing import Never\nexcept ImportError:\n    pass\n"
        "def f():\n    import tomllib\n"
    )
    assert imports_newer_than_310([f], tmp_path) == [
        "m.py:1 tomllib",
        "m.py:2 typing.Self",
        "m.py:11 tomllib",
    ]


if __name__ == "__main__":
    print(f"Rust functions over {LIMIT} lines, outside tests:")
    for n, where, name in long_functions():
        print(f"{n:5d}  {name:28s} {where}")
    rust = list(nx.simple_cycles(rust_module_graph()))
    print(f"\nCycles among rust/core/src's modules: {len(rust)}")
    for c in rust:
        print("  " + " -> ".join([*c, c[0]]))
    cycles = import_cycles()
    print(f"\nImport cycles in python/kingdoms: {len(cycles)}")
    for c in cycles:
        print("  " + " -> ".join([*c, c[0]]))
