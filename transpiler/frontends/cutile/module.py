"""The module scan of a cuTile Python file (``import cuda.tile as ct`` and its aliases, module constants, kernels,
helpers) and the signal of a constant branch whose arms cannot share one body."""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from ... import errors
from ...emitters import rust_model as model
from ..pysource import SourceFile, attr_chain, const_eval


class Structural(Exception):
    """A constant branch whose arms cannot share one Rust body (tile types/ranks differ): lowered once per
    flag value (``lower_file``)."""

    def __init__(self, flag: str, line: int, why: str):
        super().__init__(f"{flag}: {why}")
        self.flag, self.line, self.why = flag, line, why


class ModuleInfo(SourceFile):
    """A cuTile Python file scanned once: the ``cuda.tile`` aliases, ``ct.Constant`` aliases, module constants,
    ``@ct.kernel`` functions and plain helper functions (inlined at their calls)."""

    def __init__(self, path: Path, source: str):
        super().__init__(path, source)
        self.ct_names: set[str] = set()
        self.host_names: dict[str, str] = {}  # `import torch as th` / `import numpy as np`: alias -> module
        self.from_ct: dict[str, str] = {}  # `from cuda.tile import RoundingMode as RMd`: RMd -> ct.RoundingMode
        self.const_aliases: dict[str, str] = {}  # alias -> int|bool|float
        self.consts: dict[str, object] = {}
        self.kernels: list[cst.FunctionDef] = []
        self.helpers: dict[str, cst.FunctionDef] = {}  # module-level plain defs (inlined)
        self.fallback = model.Span()
        self._scan()

    def span(self, node: cst.CSTNode) -> model.Span:
        try:
            p = self.positions[node].start
        except KeyError:  # a node the front end synthesised (x += y): located at its statement
            return self.fallback
        return model.Span(p.line, p.column + 1)

    def loc(self, node: cst.CSTNode | None) -> errors.Loc:
        if node is None:
            return errors.Loc(str(self.path))
        s = self.span(node)
        return errors.Loc(str(self.path), s.line, s.col)

    def dotted(self, node: cst.BaseExpression) -> str | None:
        """``ct.X.Y`` with the module alias normalised to ``ct``; None for anything else."""
        chain = attr_chain(node)
        if chain is None:
            return None
        head, parts = chain
        if head in self.host_names:
            head = self.host_names[head]
        if head in self.from_ct:
            return ".".join([self.from_ct[head], *parts])
        if head in self.ct_names:
            return ".".join(["ct", *parts])
        if head == "cuda" and parts[:1] == ["tile"]:
            return ".".join(["ct", *parts[1:]])
        return ".".join([head, *parts])

    def _scan(self) -> None:
        for stmt in self.module.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for s in stmt.body:
                    self._scan_small(s)
            elif isinstance(stmt, cst.FunctionDef) and any(self._is_kernel_deco(d.decorator) for d in stmt.decorators):
                self.kernels.append(stmt)
            elif isinstance(stmt, cst.FunctionDef) and not stmt.decorators:
                self.helpers[stmt.name.value] = stmt

    def _scan_small(self, s: cst.BaseSmallStatement) -> None:
        if isinstance(s, cst.Import):
            for a in s.names:
                full = self._attr_text(a.name)
                if full == "cuda.tile":
                    if a.asname is not None and isinstance(a.asname.name, cst.Name):
                        self.ct_names.add(a.asname.name.value)
            for a in s.names:
                if self._attr_text(a.name) in ("torch", "numpy"):  # their dtypes may name a kernel dtype
                    self.host_names[a.asname.name.value if a.asname is not None and isinstance(a.asname.name, cst.Name)
                                    else self._attr_text(a.name)] = self._attr_text(a.name)
        elif isinstance(s, cst.ImportFrom) and s.module is not None and not isinstance(s.names, cst.ImportStar):
            if self._attr_text(s.module) == "cuda":
                for a in s.names:
                    if isinstance(a.name, cst.Name) and a.name.value == "tile":
                        self.ct_names.add(a.asname.name.value if a.asname else "tile")
            elif self._attr_text(s.module) == "cuda.tile":
                for a in s.names:
                    if isinstance(a.name, cst.Name):
                        local = a.asname.name.value if a.asname and isinstance(a.asname.name, cst.Name) else a.name.value
                        self.from_ct[local] = f"ct.{a.name.value}"
        elif isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name):
            name = s.targets[0].target.value
            v = s.value
            if isinstance(v, cst.Subscript) and self.dotted(v.value) == "ct.Constant" and len(v.slice) == 1:
                inner = v.slice[0].slice
                if isinstance(inner, cst.Index) and isinstance(inner.value, cst.Name):
                    self.const_aliases[name] = inner.value.value
            else:
                lit = const_eval(v, self.consts.get, self.dotted)  # 1.0 / math.log(2), -math.inf
                if lit is not None:
                    self.consts[name] = lit

        elif isinstance(s, cst.AnnAssign) and isinstance(s.target, cst.Name) and s.value is not None:
            # `LOG2E: float = 1.44..`: cuTile Python reads a module global a kernel names as its value at compile
            # time, annotated or not (the annotation is Python's, not a kernel type)
            lit = const_eval(s.value, self.consts.get, self.dotted)
            if lit is not None:
                self.consts[s.target.value] = lit

    def _attr_text(self, node) -> str:
        if isinstance(node, cst.Name):
            return node.value
        if isinstance(node, cst.Attribute):
            return f"{self._attr_text(node.value)}.{node.attr.value}"
        return ""

    def _is_kernel_deco(self, d: cst.BaseExpression) -> bool:
        if isinstance(d, cst.Call):
            d = d.func
        return self.dotted(d) == "ct.kernel"
