"""The module import graph of the ``ctrs`` package has no cycle (function-local imports included).

Built with ``ast`` from the source folders pyproject maps into ``ctrs`` (transpiler/ -> ctrs,
emitters/ -> ctrs.emitters, ...), so ``from ctrs.emitters import render`` and ``from . import x`` are
both edges. ``ALLOWED`` lists cycles tolerated for now; it may only shrink (a cycle not listed fails,
and a listed cycle that no longer exists fails too, so the list is kept exact).
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALLOWED: set[frozenset[str]] = set()


def _modules() -> dict[str, Path]:
    dirs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    mods: dict[str, Path] = {}
    for pkg, folder in dirs.items():
        for p in sorted((ROOT / folder).rglob("*.py")):
            rel = p.relative_to(ROOT / folder).with_suffix("").parts
            name = ".".join([pkg, *rel]).removesuffix(".__init__")
            if rel and rel[0].startswith("."):
                continue
            mods.setdefault(name, p)
    return mods


def _resolve(mod: str, is_pkg: bool, node: ast.AST, mods: dict[str, Path]) -> set[str]:
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = mod.split(".")
            base = base if is_pkg else base[:-1]
            base = base[: len(base) - (node.level - 1)]
            name = ".".join(base + ([node.module] if node.module else []))
        else:
            name = node.module or ""
        cands = [name, *(f"{name}.{a.name}" for a in node.names)]
    else:
        cands = [a.name for a in node.names]
    out = set()
    for c in cands:
        while c and c not in mods:  # `import ctrs.emitters.render` -> the deepest module that exists
            c = c.rpartition(".")[0]
        if c:
            out.add(c)
    return out


def import_graph() -> dict[str, set[str]]:
    mods = _modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                graph[m] |= {t for t in _resolve(m, p.name == "__init__.py", node, mods) if t != m}
    # a package's __init__ is imported on the way to any of its modules; that edge is not a cycle source
    for m in graph:
        graph[m] = {t for t in graph[m] if not m.startswith(t + ".")}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.add(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(frozenset(comp))
    return out


def test_graph_sees_relative_absolute_and_local_imports():
    g = import_graph()
    assert "ctrs.pipeline" in g["ctrs.translate"]  # from . import pipeline (module level)
    assert "ctrs.emitters.render" in g["ctrs.translate"]  # from ctrs.emitters import render (function-local)
    assert "ctrs.ir.types" in g["ctrs.ir.verify"]  # from .types import ... inside a subpackage


def test_no_import_cycles():
    found = set(cycles(import_graph()))
    new = found - ALLOWED
    assert not new, "import cycles: " + "; ".join(" -> ".join(sorted(c)) for c in new)
    gone = ALLOWED - found
    assert not gone, "allowed cycles that no longer exist (remove them from ALLOWED): " + \
        "; ".join(" ".join(sorted(c)) for c in gone)


def test_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset({"a", "b", "c"})]
