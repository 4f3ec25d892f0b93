"""Which Python files are kernel files, and for which front end: the one answer ``ctrs translate DIR`` and
``ctrs regen`` share, so regen picks up every kernel form translate accepts.

Standard library only (``ast``, ``re``): the pre-commit hook classifies every manifest source on each commit
before it knows whether anything must be translated.

* cuTile Python: module-level functions decorated with the cuda.tile ``kernel`` however the file names it,
  the way the cuTile front end resolves names (frontends/cutile/module.py): ``@ct.kernel`` after ``import cuda.tile as ct`` (any alias),
  ``@cuda.tile.kernel``, ``@tile.kernel`` after ``from cuda import tile``, ``@kernel`` / ``@k`` after
  ``from cuda.tile import kernel [as k]``; a call (``@ct.kernel(...)``) counts too.
* Triton: ``@triton.jit`` / ``@jit`` functions in a file that mentions triton (frontends/triton/source.is_triton_file).

A file that does not parse falls back to a line match of ``@ct.kernel`` / ``@cuda.tile.kernel``, so the
translator, not the scan, reports its syntax error.
"""

from __future__ import annotations

import ast
import re

JIT_RE = re.compile(r"^\s*@\s*(?:triton\.)?jit\b", re.M)
_CT_KERNEL_RE = re.compile(r"^\s*@\s*(?:ct|cuda\.tile)\.kernel\b", re.M)


def is_triton_source(text: str) -> bool:
    return "triton" in text and bool(JIT_RE.search(text))


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else None
    return None


def cutile_kernel_count(text: str) -> int:
    """Module-level functions decorated with cuda.tile's ``kernel`` (any import form)."""
    if "cuda" not in text:
        return 0
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return len(_CT_KERNEL_RE.findall(text))
    names = {"cuda.tile.kernel"}
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            names |= {f"{a.asname}.kernel" for a in stmt.names if a.name == "cuda.tile" and a.asname}
        elif isinstance(stmt, ast.ImportFrom) and stmt.level == 0:
            for a in stmt.names:
                if stmt.module == "cuda" and a.name == "tile":
                    names.add(f"{a.asname or 'tile'}.kernel")
                elif stmt.module == "cuda.tile" and a.name == "kernel":
                    names.add(a.asname or "kernel")
    n = 0
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef):
            decos = [d.func if isinstance(d, ast.Call) else d for d in stmt.decorator_list]
            n += any(_dotted(d) in names for d in decos)
    return n


def kernel_count(text: str) -> int:
    """cuTile kernels of the file, else its Triton ``@jit`` functions; 0: not a kernel file."""
    n = cutile_kernel_count(text)
    return n or (len(JIT_RE.findall(text)) if is_triton_source(text) else 0)
