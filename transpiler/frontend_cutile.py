"""cuTile Python front end: libcst -> the tile IR model (transpiler/model.py).

Resolves ``import cuda.tile as ct`` / ``from cuda import tile as ct``, aliases such as
``ConstInt = ct.Constant[int]`` and module-level numeric constants, then lowers every ``@ct.kernel``
into typed model statements. Tile shapes are tuples of const-generic names / integer literals, so
every value gets a typed ``let``. What each ``ct.*`` call becomes is read from rules/cutile.toml;
a construct without a rule raises errors.CtrsError(NO_RULE) located at its file:line:col.
"""

from __future__ import annotations

import decimal
import struct
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from . import controlflow, errors, kernel_hints, mem_cutile, model, ops_cutile, signatures, source, specialise, targets
from .cutile_base import (RULES_PATH, Split, Structural, Val, _Block, const_generic_names, declaration,  # noqa: F401
                          float_literal, literal_text, _is_docstring, literal_value, load_rules, scalar_only_names)

# ---------------------------------------------------------------------------------------------- module scan


class SourceFile:
    """A Python file parsed by libcst with source positions (shared by the cuTile and Triton front ends)."""

    def __init__(self, path: Path, source: str):
        self.path = Path(path)
        self.source = source
        try:
            self.wrapper = MetadataWrapper(cst.parse_module(source))
        except cst.ParserSyntaxError as e:
            raise errors.CtrsError(errors.TRANSLATE_INPUT, f"not valid Python: {e.message}", "fix the syntax",
                                   errors.Loc(str(path), e.raw_line, e.raw_column + 1)) from e
        self.positions = self.wrapper.resolve(PositionProvider)
        self.module = self.wrapper.module


def attr_chain(node: cst.BaseExpression) -> tuple[str, list[str]] | None:
    """``a.b.c`` -> ("a", ["b", "c"]); None unless the expression is a plain dotted name."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.reverse()
    return node.value, parts


class ModuleInfo(SourceFile):
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
        self.llm_hook = None  # --llm: (front, call / tile-operator node, hint) -> Val | None (llm_fallback.splice.hook)
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
                lit = ops_cutile.const_eval(v, self.consts.get, self.dotted)  # 1.0 / math.log(2), -math.inf
                if lit is not None:
                    self.consts[name] = lit

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


# ---------------------------------------------------------------------------------------------- kernel


class KernelFront(controlflow.ControlFlow, ops_cutile.Ops, mem_cutile.Mem):
    """One ``@ct.kernel``: signature analysis up front, body lowering per flag assignment."""

    def __init__(self, info: ModuleInfo, fn: cst.FunctionDef):
        self.info = info
        self.fn = fn
        self.name = fn.name.value
        self.span = info.span(fn)
        self.rules = load_rules()
        self._params = self._read_params()
        self._ndims = self._infer_ndims()
        for p in self._params:
            if p.kind == "array":
                p.ndim = self._ndims.get(p.name, 0)  # 0 = unknown: reported after the body (its real error first)
                if not p.ndim and p.name in self._scalar_only_params():
                    p.kind, p.dtype = "scalar", "i32"  # unannotated, used only in integer arithmetic (`Batch`)
                    self.note("demotion", self._param_nodes[p.name], f"unannotated '{p.name}' is used only as an "
                              "integer -> runtime i32 parameter (launch it with an int)")
        self.const_rust = const_generic_names(self._params)  # how kernel.rs names each const generic
        self.raw_arrays = self._find_raw_arrays()  # N-d ct.gather/ct.scatter arrays: raw pointers (mem_cutile.py)
        self._tests = self._find_dtype_tests()
        self.hints = self._read_hints()

    # -- @ct.kernel(...) hints ------------------------------------------------------------------

    ENTRY_HINTS = kernel_hints.ENTRY_HINTS

    def _read_hints(self) -> tuple[tuple[str, int], ...]:
        """The kernel-level hints of ``@ct.kernel(...)`` for the port's target (transpiler/kernel_hints.py)."""
        deco = next(d.decorator for d in self.fn.decorators if self.info._is_kernel_deco(d.decorator))
        return kernel_hints.read_hints(self.info, deco, lambda node, msg, hint: self._err(node, msg, hint,
                                                                                          errors.KERNEL_HINT),
                                       lambda node, text: self.note("hint", node, text))

    # -- signature --------------------------------------------------------------------------

    def params(self) -> list[model.Param]:
        return self._params

    def dtype_tests(self) -> list[specialise.DtypeTest]:
        return list(self._tests.values())

    def _err(self, node, msg: str, hint: str, code: str = errors.NO_RULE) -> errors.CtrsError:
        e = errors.CtrsError(code, msg, hint, self.info.loc(node))
        e.front, e.node = self, node  # llm_fallback/: the construct and the typed scope (self.env) at this point
        return e

    def _read_params(self) -> list[model.Param]:
        out = []
        self._param_nodes = {}
        ps = self.fn.params
        if ps.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or ps.star_kwarg or ps.kwonly_params or ps.posonly_params:
            raise self._err(self.fn.params, "only plain positional kernel parameters are supported", "drop *args/**kwargs")
        for p in ps.params:
            name = p.name.value
            self._param_nodes[name] = p
            span = self.info.span(p)
            ann = p.annotation.annotation if p.annotation else None
            if ann is None:
                out.append(model.Param(name, "array", specialise.ELEMENT_GENERIC, 0, span))
                continue
            kind = None
            if isinstance(ann, cst.Name) and ann.value in self.info.const_aliases:
                kind = self.info.const_aliases[ann.value]
            elif isinstance(ann, cst.Subscript) and self.info.dotted(ann.value) == "ct.Constant":
                inner = ann.slice[0].slice
                if isinstance(inner, cst.Index) and isinstance(inner.value, cst.Name):
                    kind = inner.value.value
            if kind in ("int", "bool"):
                out.append(model.Param(name, "constant", "i32", 0, span))
            elif kind == "float":  # docs/porting.md §7: no float const generics -> runtime f32 (demoted)
                out.append(model.Param(name, "scalar", "f32", 0, span))
                self.note("demotion", p, f"ct.Constant[float] {name} -> runtime f32 parameter "
                                         "(not a const generic on stable Rust; the reference folds the value)")
            elif kind is not None:
                raise self._err(p, f"no rule for ct.Constant[{kind}] parameter '{name}'",
                                "ct.Constant[float] cannot be a const generic: make it a runtime float parameter")
            elif isinstance(ann, cst.Name) and ann.value in ("int", "float"):
                out.append(model.Param(name, "scalar", "i32" if ann.value == "int" else "f32", 0, span))
            else:
                raise self._err(ann, f"no rule for the annotation of parameter '{name}'",
                                "annotate with int, float, ct.Constant[int]/[bool], or leave arrays unannotated")
        return out

    def _scalar_only_params(self) -> set[str]:
        """Unannotated parameters used only as numbers (cutile_base.scalar_only_names)."""
        return scalar_only_names(self.fn, {p.name for p in self._params if p.kind == "array"})

    def _infer_ndims(self) -> dict[str, int]:
        nd: dict[str, int] = {}
        arrays = {p.name for p in self._params if p.kind == "array"}
        info = self

        class V(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                fname = info.info.dotted(node.func)
                if fname not in ("ct.load", "ct.store", "ct.num_tiles", "ct.gather", "ct.scatter") or not node.args:
                    return
                a0 = node.args[0].value
                if not (isinstance(a0, cst.Name) and a0.value in arrays):
                    return
                for i, a in enumerate(node.args):
                    key = a.keyword.value if a.keyword else ("index" if i == 1 else "shape" if i == 2 and fname == "ct.load" else "")
                    if key in ("index", "shape") and isinstance(a.value, cst.Tuple):
                        nd.setdefault(a0.value, len(a.value.elements))
                    elif key == "index" and fname in ("ct.gather", "ct.scatter"):
                        nd.setdefault(a0.value, 1)  # a single index tile: a 1-D array

        self.fn.body.visit(V())
        self.helper_ndims(nd)  # arrays indexed inside inlined helpers (mem_cutile.py)
        return nd

    def _find_dtype_tests(self) -> dict[int, specialise.DtypeTest]:
        tests: dict[int, specialise.DtypeTest] = {}
        front = self

        class V(cst.CSTVisitor):
            def visit_IfExp(self, node: cst.IfExp) -> None:
                t = front._dtype_test(node)
                if t is not None:
                    tests[id(node)] = t

        self.fn.body.visit(V())
        return tests

    def _dtype_test(self, node: cst.IfExp) -> specialise.DtypeTest | None:
        test = node.test
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
                and isinstance(test.comparisons[0].operator, cst.Equal)):
            return None
        left, right = test.left, test.comparisons[0].comparator
        if not (isinstance(left, cst.Attribute) and left.attr.value == "dtype" and isinstance(left.value, cst.Name)):
            return None
        dt = self.rules["dtypes"].get(self.info.dotted(right) or "")
        then = self.rules["dtypes"].get(self.info.dotted(node.body) or "", "?")
        if dt is None:
            return None
        arr = left.value.value
        return specialise.DtypeTest(specialise.dtype_flag_name(arr, dt, then), arr, dt, then, self.info.span(node))

    # -- lowering ---------------------------------------------------------------------------

    def lower(self, flags: dict[str, bool]) -> list:
        """Lower the body; an array that receives tiles of a concrete dtype (cuTile Python never casts a stored
        tile implicitly, so the launch must pass that dtype) gets it instead of ``E``, and the body is lowered again."""
        while True:
            try:
                return self._lower_body(flags)
            except _ArrayDtype as e:
                p = next(p for p in self._params if p.name == e.array)
                p.dtype = e.dtype
                self.note("generic", self._param_nodes[p.name], f"array '{p.name}' receives {e.dtype} tiles -> "
                          f"&Tensor<{e.dtype}, ..> (cuTile Python does not cast stored tiles implicitly)")

    def _retype_mixed(self, tiles: list[Val], ints_only: bool = True) -> None:
        """``idx_i32 + ct.gather(ids, ..)``: an ``E`` array whose loaded tiles meet a concrete integer tile is an
        array of that integer type (cuTile Python would not mix them either), so it is retyped (see lower)."""
        concrete = {t.dtype for t in tiles if t.dtype != specialise.ELEMENT_GENERIC}
        if len(concrete) != 1 or ints_only and not next(iter(concrete)).startswith(("i", "u")) \
                or "bool" in concrete:
            return
        for t in tiles:
            if t.dtype == specialise.ELEMENT_GENERIC and t.origin and any(
                    p.name == t.origin and p.kind == "array" and p.dtype == t.dtype for p in self._params):
                raise _ArrayDtype(t.origin, next(iter(concrete)))

    def _retype_check(self, arr: Val, t: Val, node) -> None:
        if t.kind == "tile" and t.dtype != arr.dtype and arr.dtype == specialise.ELEMENT_GENERIC \
                and t.dtype not in (specialise.ELEMENT_GENERIC, "bool") and any(
                    p.name == arr.name and p.kind == "array" and p.dtype == arr.dtype for p in self._params):
            raise _ArrayDtype(arr.name, t.dtype)

    def _lower_body(self, flags: dict[str, bool]) -> list:
        self.flags = flags
        self.used: set[str] = ({p.name for p in self._params} | set(self.const_rust.values())
                               | {specialise.ELEMENT_GENERIC} | set(flags))
        self._fresh_next: dict[str, int] = {}
        self.env: dict[str, Val] = {}
        for p in self._params:
            if p.kind == "array":
                t = model.OpaqueT(f"&Tensor<{p.dtype}, {{ [{', '.join(['-1'] * p.ndim)}] }}>")
                self.env[p.name] = Val("array", p.name, t, p.dtype, ndim=p.ndim)
            else:
                self.env[p.name] = Val("scalar", self.const_rust.get(p.name, p.name), model.ScalarT(p.dtype), p.dtype)
            if p.name in getattr(self, "fixed", {}):  # structural variant: the flag is a literal here
                self.env[p.name] = Val("literal", value=self.fixed[p.name])
        self.block = _Block()
        self.loop_depth = 0
        self.hoisted: list = []
        self.raw_views_prologue()  # tensor views of raw-pointer arrays that view ops also read (mem_cutile.py)
        self.loop_entry_env: list[dict[str, Val]] = []
        self.carried: list[list[str]] = []
        body = self.fn.body
        if not isinstance(body, cst.IndentedBlock):
            raise self._err(body, "one-line kernel bodies are not supported", "put the body on its own lines")
        for i, stmt in enumerate(body.body):
            if i == 0 and _is_docstring(stmt):
                continue
            self._stmt(stmt)
        for p in self._params:
            if p.kind == "array" and not p.ndim:
                raise errors.CtrsError(errors.NO_RULE, f"cannot tell the rank of array '{p.name}'",
                                       "use it in ct.load/ct.store/ct.num_tiles with an index tuple",
                                       self.info.loc(self._param_nodes[p.name]))
        return ops_cutile.fuse_fma(self.block.stmts, self.rules, self.const_names())

    # helpers -----------------------------------------------------------------------------

    def fresh(self, hint: str) -> str:
        """The first of ``hint``, ``hint_1``, ``hint_2``... not used yet. The search resumes where the last one
        for this hint stopped (names are never released), so N rebinds of one name cost O(N), not O(N^2)."""
        n = self._fresh_next.get(hint, 0)
        name = f"{hint}_{n}" if n else hint
        while name in self.used:
            n += 1
            name = f"{hint}_{n}"
        self._fresh_next[hint] = n
        self.used.add(name)
        return name

    def emit(self, stmt) -> None:
        self.block.stmts.append(stmt)

    def op(self, kind: str, template: str, node, unsafe: bool = False, **operands: str) -> model.Op:
        return model.Op(kind, template, tuple(sorted(operands.items())), self.info.span(node), unsafe,
                        declaration(template))

    def let(self, hint: str, typ: model.Type, op: model.Op, node, *, hoist: bool = False, mutable: bool = False) -> str:
        name = self.fresh(hint)
        stmt = model.Let(name, typ, op, self.info.span(node), mutable)
        if hoist and self.loop_depth:
            self.hoisted.append(stmt)
        else:
            self.emit(stmt)
        self._last_let = stmt
        return name

    def tile(self, hint: str, dtype: str, shape: tuple[str, ...], op: model.Op, node) -> Val:
        t = model.TileT(dtype, shape)
        name = self.let(hint, t, op, node)
        return Val("tile", name, t, dtype, let=self._last_let)

    def scalar(self, hint: str, dtype: str, op: model.Op, node) -> Val:
        t = model.ScalarT(dtype)
        name = self.let(hint, t, op, node)
        return Val("scalar", name, t, dtype, let=self._last_let)

    def ops(self, key: str) -> str:
        return self.rules["ops"][key]

    # statements ---------------------------------------------------------------------------

    def _stmt(self, stmt: cst.BaseStatement) -> None:
        if isinstance(stmt, cst.SimpleStatementLine):
            for s in stmt.body:
                self._small(s)
        elif isinstance(stmt, cst.For):
            self._for(stmt)
        elif isinstance(stmt, cst.If):
            self._if(stmt)
        else:
            kind = type(stmt).__name__
            raise self._err(stmt, f"no rule for a '{kind}' statement in a kernel",
                            "only assignments, ct.store calls and 'for .. in range(..)' loops are translated so far")

    def _small(self, s: cst.BaseSmallStatement) -> None:
        self.info.fallback = self.info.span(s)
        if isinstance(s, cst.Assign):
            if len(s.targets) == 1 and isinstance(s.targets[0].target, (cst.Tuple, cst.List)):
                return self._assign_unpack(s.targets[0].target, s.value, s)
            if len(s.targets) != 1 or not isinstance(s.targets[0].target, cst.Name):
                raise self._err(s, "no rule for this assignment target", "assign to a single name or a tuple of names")
            self._assign(s.targets[0].target.value, s.value, s)
        elif isinstance(s, cst.AugAssign) and isinstance(s.target, cst.Name):
            op = _AUG.get(type(s.operator))
            if op is None:
                raise self._err(s, f"no rule for augmented assignment '{s.operator.__class__.__name__}'", "write x = x op y")
            synth = cst.BinaryOperation(left=s.target, operator=op(), right=s.value)
            self._assign(s.target.value, synth, s)
        elif isinstance(s, cst.Expr) and isinstance(s.value, cst.Call):
            self._expr(s.value, "_unused")
        elif isinstance(s, cst.Pass) or (isinstance(s, cst.Expr) and isinstance(s.value, cst.SimpleString)):
            return
        else:
            raise self._err(s, f"no rule for a '{type(s).__name__}' statement in a kernel",
                            "only assignments, ct.store calls and for-range loops are translated so far")

    def _assign(self, target: str, value: cst.BaseExpression, node) -> None:
        carried_from = None
        if self.loop_depth:
            outer = self.loop_entry_env[-1].get(target)
            if outer is not None and outer.kind in ("tile", "scalar") and outer.let is not None \
                    and self.env.get(target) is outer:
                carried_from = outer
        if carried_from is not None:  # `a0 = c0; c0 = f(c0); use(a0)`: a0 keeps the value from before the update
            for name, other in list(self.env.items()):
                if name != target and getattr(other, "name", None) == carried_from.name and other.kind in ("tile", "scalar"):
                    snap = self.let(name, other.type, self.op("value", self.ops("value"), node, x=other.name), node)
                    self.env[name] = Val(other.kind, snap, other.type, other.dtype, let=self._last_let)
        n_before = len(self.block.stmts)
        v = self._expr(value, target)
        if carried_from is None:
            self.env[target] = v
            return
        if v.type != carried_from.type:
            if v.kind == "tile" and isinstance(carried_from.type, model.TileT) and v.type.shape == carried_from.type.shape:
                self._retype_mixed([carried_from, v], ints_only=False)  # a loop-carried dtype is fixed
            raise self._err(node, f"loop-carried '{target}' changes type from {carried_from.type.rust()} to "
                                  f"{v.type.rust() if v.type else v.kind}",
                            "keep a loop-carried value's dtype and shape fixed (cast explicitly)", errors.TRANSLATE_TYPE)
        carried_from.let.mutable = True
        last = self.block.stmts[-1] if len(self.block.stmts) > n_before else None
        if isinstance(last, model.Let) and last.name == v.name:
            self.block.stmts[-1] = model.Assign(carried_from.name, last.op, last.span)
        else:
            self.emit(model.Assign(carried_from.name, self.op("value", self.ops("value"), node, x=v.name),
                                   self.info.span(node)))
        if target not in self.carried[-1]:
            self.carried[-1].append(target)
        # the name keeps referring to the carried variable

    def _for(self, node: cst.For) -> None:
        if node.orelse is not None or node.asynchronous is not None:
            raise self._err(node, "no rule for 'for .. else' / 'async for'", "use a plain for loop")
        it = node.iter
        if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range"
                and 1 <= len(it.args) <= 3 and all(a.keyword is None for a in it.args)):
            raise self._err(it, "no rule for this loop iterable", "loop over range(stop) or range(start, stop)")
        if not isinstance(node.target, cst.Name):
            raise self._err(node.target, "no rule for this loop target", "use a single loop variable")
        step = self.range_step(it.args) if len(it.args) == 3 else ""
        bounds = [self._index_text(a.value) for a in it.args[:2]]
        start, stop = (["0i32"] + bounds) if len(bounds) == 1 else bounds
        var = self.fresh(node.target.value)
        outer_block, outer_env = self.block, dict(self.env)
        self.block = _Block()
        self.loop_entry_env.append(outer_env)
        self.carried.append([])
        self.loop_depth += 1
        self.env[node.target.value] = Val("scalar", var, model.ScalarT("i32"), "i32")
        body = node.body.body if isinstance(node.body, cst.IndentedBlock) else []
        for st in body:
            self._stmt(st)
        self.loop_depth -= 1
        carried = self.carried.pop()
        self.loop_entry_env.pop()
        loop = model.For(var, start, stop, self.block.stmts, self.info.span(node), tuple(carried), step=step)
        self.block = outer_block
        if self.loop_depth == 0 and self.hoisted:
            self.block.stmts.extend(self.hoisted)
            self.hoisted = []
        self.emit(loop)
        # names first bound inside the loop do not escape it; carried ones keep their variable
        self.env = {k: v for k, v in self.env.items() if k in outer_env}

    # expressions --------------------------------------------------------------------------

    def _expr(self, node: cst.BaseExpression, hint: str) -> Val:
        lit = literal_value(node)
        if lit is None and isinstance(node, (cst.Attribute, cst.BinaryOperation, cst.UnaryOperation, cst.Call)):
            lit = ops_cutile.const_eval(node, lambda n: None if n in self.env else self.info.consts.get(n),
                                        self.info.dotted)  # -math.inf, 2 * BLOCK: folded like the JIT
        if lit is not None:
            return Val("literal", value=lit)
        if isinstance(node, cst.Name):
            if node.value in self.env:
                return self.env[node.value]
            if node.value in self.info.consts:
                return Val("literal", value=self.info.consts[node.value])
            raise self._err(node, f"unknown name '{node.value}'", "define it in the kernel or at module level",
                            errors.TRANSLATE_INPUT)
        if isinstance(node, cst.Attribute):
            d = self.info.dotted(node)
            if d in self.rules["dtypes"] or d in self.rules.get("host_dtypes", {}):
                return Val("dtype", dtype=self.rules["dtypes"].get(d) or self.rules["host_dtypes"][d])
            base = self._expr(node.value, hint) if not (d or "").startswith("ct.") else None
            if base is not None and base.kind == "array" and node.attr.value == "dtype":
                return Val("dtype", name=base.name, dtype=base.dtype)  # name: whose dtype (ops_cutile / mono)
            if base is not None and base.kind == "tile" and node.attr.value == "dtype":
                return Val("dtype", dtype=base.dtype)  # x_tile.dtype: the tile's element type
            if base is not None and base.kind == "array" and node.attr.value == "shape":
                return Val("shape", name=base.name, ndim=base.ndim)
            raise self._err(node, f"no rule for attribute '{d or node.attr.value}'", "see rules/cutile.toml")
        if isinstance(node, cst.Subscript):
            return self._subscript(node, hint)
        if isinstance(node, cst.Tuple):
            return self._tuple_val(node, hint)
        if isinstance(node, cst.IfExp):
            t = self._tests.get(id(node))
            if t is None:  # `a if CONST else b`: a constant branch (controlflow.py)
                return self.if_expr(node, hint)
            return self._expr(node.body if self.flags[t.flag] else node.orelse, hint)
        if isinstance(node, cst.BinaryOperation):
            return self._binop(node, hint)
        if isinstance(node, cst.Comparison):
            return self._compare(node, hint)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            return self._negate(node, hint)
        if isinstance(node, cst.Call):
            return self._call(node, hint)
        raise self._err(node, f"no rule for expression '{type(node).__name__}'", "see rules/cutile.toml")

    # -- tuples (helper results, tuple unpacking, len) ------------------------------------------

    def _tuple_val(self, node: cst.Tuple, hint: str) -> Val:
        """``(a, b)`` / ``return a, b``: a translate-time tuple of values (unpacked or indexed later)."""
        vals = []
        for i, e in enumerate(node.elements):
            if isinstance(e, cst.StarredElement):
                raise self._err(e, "no rule for a starred tuple element", "list the elements")
            vals.append(self._expr(e.value, f"{hint}_{i}"))
        return Val("tuple", value=vals)

    def _shape_dim(self, base: Val, k: int, node, hint: str) -> Val:
        axis = k % base.ndim
        shape_t = model.OpaqueT(f"Shape<{{ [{', '.join(['-1'] * base.ndim)}] }}>")
        sname = self.let(f"{base.name}_shape", shape_t, self.op("shape_of", self.ops("shape_of"), node, array=base.name),
                         node)
        return self.scalar(hint, "i32", self.op("shape_dim", self.ops("shape_dim"), node, shape=sname, axis=str(axis)),
                           node)

    def _assign_unpack(self, target, value: cst.BaseExpression, node) -> None:
        """``a, b = f(..)`` / ``M, N = A.shape`` / ``a, b = b, a``: every value first, then each name bound
        like a plain assignment (so loop-carried names stay carried)."""
        names = []
        for e in target.elements:
            if not isinstance(e.value, cst.Name) or isinstance(e, cst.StarredElement):
                raise self._err(e, "no rule for this unpacking target", "unpack into plain names")
            names.append(e.value.value)
        v = self._expr(value, "_".join(names))
        if v.kind == "shape":
            if len(names) != v.ndim:
                raise self._err(node, f"cannot unpack the shape of a {v.ndim}-d array into {len(names)} names",
                                "match the array rank", errors.TRANSLATE_TYPE)
            vals = [self._shape_dim(v, i, node, n) for i, n in enumerate(names)]
        elif v.kind == "tuple":
            vals = v.value
        else:
            raise self._err(value, f"cannot unpack a {v.kind}", "unpack a tuple, a helper's tuple result or A.shape",
                            errors.TRANSLATE_TYPE)
        if len(vals) != len(names):
            raise self._err(node, f"cannot unpack {len(vals)} values into {len(names)} names", "match the counts",
                            errors.TRANSLATE_TYPE)
        temps = []
        for i, (n, val) in enumerate(zip(names, vals)):
            tmp = f"__ctrs_unpack_{i}"
            self.env[tmp] = val
            temps.append(tmp)
        try:
            for n, tmp in zip(names, temps):
                self._assign(n, cst.Name(tmp), node)
        finally:
            for tmp in temps:
                self.env.pop(tmp, None)

    def _scalar_compare(self, node, sym: str, a: Val, b: Val, hint: str) -> Val:
        """A comparison of scalars outside an ``if``: literals fold to a bool literal (like the JIT); i32 scalars
        and const generics -> ``let c: bool = a != b;`` (cutile folds exact constants, as the JIT does)."""
        import operator  # noqa: PLC0415

        py = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
              "!=": operator.ne}[sym]
        if a.kind == "literal" and b.kind == "literal" and a.value is not None and b.value is not None:
            return Val("literal", value=bool(py(a.value, b.value)))
        ok = all(v.kind == "literal" and isinstance(v.value, int) and not isinstance(v.value, bool)
                 or v.kind == "scalar" and v.dtype == "i32" for v in (a, b))
        if not ok:
            raise self._err(node, f"no rule for comparison '{sym}' of a {a.kind} and a {b.kind} outside an if",
                            "compare tiles, i32 scalars or constants", errors.NO_RULE)
        txt = [f"{v.value}i32" if v.kind == "literal" else v.name for v in (a, b)]
        out = self.scalar(hint, "bool", self.op("scalar_compare", self.ops("scalar_compare"), node, a=txt[0],
                                                b=txt[1], sym=sym), node)
        if all(v.kind == "literal" or self._is_const_generic(v) for v in (a, b)):
            out.value = ("const_test", f"{txt[0]} {sym} {txt[1]}")  # a flag of const generics (_const_kw_branch)
        return out

    _CONST_KWS = ("check_bounds", "allow_tma", "keepdims", "flush_to_zero", "propagate_nan")

    def _const_kw_branch(self, node: cst.Call, hint: str) -> Val | None:
        """``ct.gather(.., check_bounds=flag)`` with ``flag = TILE != N`` (const generics): the JIT folds the
        flag and lowers one form; the port lowers both forms in ``if TILE != N { .. } else { .. }``, which cutile
        folds the same way (exact bounds), so only the taken arm reaches the IR."""
        for i, a in enumerate(node.args):
            if a.keyword is None or a.keyword.value not in self._CONST_KWS or not isinstance(a.value, cst.Name):
                continue
            v = self.env.get(a.value.value)
            if v is None or v.kind != "scalar" or not (isinstance(v.value, tuple) and v.value[:1] == ("const_test",)):
                continue
            self.info.fallback = self.info.span(node)
            arms = []
            for lit in ("True", "False"):
                args = list(node.args)
                args[i] = a.with_changes(value=cst.Name(lit))
                arms.append(node.with_changes(args=args))
            tmp = f"{hint}_sel"
            while tmp in self.env:
                tmp += "_"

            def arm(call):
                def run():
                    self.env[tmp] = self._expr(call, hint)
                return run

            self._branch(("rt", v.value[1]), arm(arms[0]), arm(arms[1]), node)
            return self.env.pop(tmp)
        return None

    def _lower_typed(self, node, rule, fname, hint) -> Val:
        """A ct.* function only the typed-IR front end lowers (rules/cutile.toml ``lower = "typed"``)."""
        raise self._err(node, f"no rule for '{fname}' in the text-model pipeline",
                        f"the typed-IR front end lowers it ({rule.get('note', 'transpiler/frontends/cutile/')}); "
                        "a construct elsewhere in the file keeps the file off that path")

    def _lower_len(self, node, rule, fname, hint) -> Val:
        args = self._args(node, ["obj"])
        v = self._expr(args["obj"], hint)
        if v.kind == "tuple":
            return Val("literal", value=len(v.value))
        if v.kind == "shape":
            return Val("literal", value=v.ndim)
        return self._len_err(node, v)

    def _len_err(self, node, v: Val):
        what = "an array parameter (a list of arrays?)" if v.kind == "array" else f"a {v.kind}"
        raise self._err(node, f"no rule for len() of {what}",
                        "len() is translated for tuples and A.shape; lists of arrays are not kernel parameters in cutile")

    def _subscript(self, node: cst.Subscript, hint: str) -> Val:
        base = self._expr(node.value, hint)
        idx = node.slice[0].slice if len(node.slice) == 1 else None
        k = literal_value(idx.value) if isinstance(idx, cst.Index) else None
        if base.kind == "shape" and isinstance(k, int):
            if not base.ndim:
                raise self._err(node, f"cannot tell the rank of array '{base.name}' at its .shape[{k}]",
                                "use the array in ct.load/ct.store with an index tuple", errors.TRANSLATE_TYPE)
            axis = k % base.ndim
            if base.name in self.raw_arrays:  # a raw-pointer array's shape is an entry parameter
                return self._raw_shape_dim(base, axis)
            shape_t = model.OpaqueT(f"Shape<{{ [{', '.join(['-1'] * base.ndim)}] }}>")
            sname = self.let(f"{base.name}_shape", shape_t, self.op("shape_of", self.ops("shape_of"), node, array=base.name), node)
            return self.scalar(hint, "i32", self.op("shape_dim", self.ops("shape_dim"), node, shape=sname, axis=str(axis)), node)
        if base.kind == "tile":
            out = self._tile_subscript(base, node, hint)
            if out.kind == "tile" and out.dtype == base.dtype and out is not base:
                out.origin = base.origin  # lse[None, :] still holds LSE's values (_retype_mixed)
            return out
        raise self._err(node, "no rule for this subscript", "only A.shape[i] with a literal i is translated so far")

    def _args(self, call: cst.Call, names: list[str]) -> dict[str, cst.BaseExpression]:
        out: dict[str, cst.BaseExpression] = {}
        for i, a in enumerate(call.args):
            if a.star:
                raise self._err(a, "no rule for *args in a ct call", "pass arguments explicitly")
            if a.keyword is not None:
                out[a.keyword.value] = a.value
            elif i < len(names):
                out[names[i]] = a.value
            else:
                raise self._err(a, "too many positional arguments", "use keywords")
        return out

    def _call(self, node: cst.Call, hint: str) -> Val:
        fname = self.info.dotted(node.func) or ""
        if self.is_helper(node):
            return self.inline_helper(node, hint)
        rule = self.rules["functions"].get(fname)
        if rule is None and isinstance(node.func, cst.Attribute) and not fname.startswith("ct."):
            meth = self._method_call(node, hint)
            if meth is not None:
                return meth
        if rule is not None and (bad := signatures.check_call(fname, rule.get("signature"), node)):
            raise self._err(node, bad, f"cuTile Python signature: {signatures.usage(fname, rule['signature'])}",
                            errors.CALL_SIGNATURE)
        if rule is not None and fname.startswith("ct.") and any(
                a.keyword is not None and a.keyword.value in self._CONST_KWS and isinstance(a.value, cst.Name)
                for a in node.args):
            branched = self._const_kw_branch(node, hint)
            if branched is not None:
                return branched
        if rule is None and self.info.llm_hook is not None:  # ctrs translate --llm: a candidate/verified snippet
            got = self.info.llm_hook(self, node, hint)
            if got is not None:
                return got
        if rule is None:
            what = fname or type(node.func).__name__
            raise self._err(node, f"no rule for '{what}'",
                            f"add an entry for {what} to rules/cutile.toml or port this kernel by hand")
        out = getattr(self, f"_lower_{rule['lower']}")(node, rule, fname, hint)
        if fname in ("ct.load", "ct.gather") and out.kind == "tile" and out.dtype == specialise.ELEMENT_GENERIC \
                and node.args and isinstance(node.args[0].value, cst.Name):
            src = self.env.get(node.args[0].value.value)
            out.origin = src.name if src is not None and src.kind == "array" else ""
        elif fname in _SHAPE_FNS and out.kind == "tile" and node.args and isinstance(node.args[0].value, cst.Name):
            src = self.env.get(node.args[0].value.value)  # reshaped values keep their array of origin
            if src is not None and src.kind == "tile" and src.dtype == out.dtype and src is not out:
                out.origin = src.origin
        return out

    # -- text helpers

    def _index_text(self, node: cst.BaseExpression) -> str:
        v = self._expr(node, "idx")
        if v.kind == "literal" and isinstance(v.value, int) and not isinstance(v.value, bool):
            return f"{v.value}i32"
        if v.kind == "scalar" and v.dtype == "i32":
            return v.name
        raise self._err(node, "an index must be an i32 scalar or an int literal", "use ct.bid(..), a loop variable or a literal",
                        errors.TRANSLATE_TYPE)

    def _shape_dims(self, node: cst.BaseExpression) -> tuple[str, ...]:
        elems = node.elements if isinstance(node, cst.Tuple) else None
        if elems is None:
            raise self._err(node, "a tile shape must be a tuple", "write shape=(A, B)", errors.TRANSLATE_TYPE)
        dims = []
        for e in elems:
            v = e.value
            if isinstance(v, cst.Name) and v.value in self.env and (
                    v.value not in self._param_nodes or v.value in getattr(self, "fixed", {})):
                bound = self.env[v.value]  # a helper parameter bound to a const generic or a literal
                if bound.kind == "scalar" and bound.name in self.const_rust.values():
                    dims.append(bound.name)
                    continue
                if bound.kind == "literal" and isinstance(bound.value, int) and not isinstance(bound.value, bool):
                    dims.append(str(bound.value))
                    continue
            if isinstance(v, cst.Name) and v.value in self.const_rust:
                dims.append(self.const_rust[v.value])
                continue
            lit = literal_value(v)
            if lit is None and isinstance(v, cst.Name):
                lit = self.info.consts.get(v.value)
            if isinstance(lit, int) and not isinstance(lit, bool):
                dims.append(str(lit))
                continue
            raise self._err(v, "a tile dimension must be a ct.Constant parameter or an int literal",
                            "shape arithmetic on const generics needs literal specialisation (docs/porting.md §7)",
                            errors.TRANSLATE_TYPE)
        return tuple(dims)

    def _kw_bool(self, args, key: str, default: bool) -> bool:
        if key not in args:
            return default
        v = literal_value(args[key])
        if not isinstance(v, bool):
            return self._static_flag(args, key)  # a module constant / ct.Constant[bool] (mem_cutile.py)
        return v

    def _modes(self, args, node, template: str) -> tuple[dict[str, str], bool]:
        ftz = self._kw_bool(args, "flush_to_zero", False)
        if "rounding_mode" in args:
            rm = self.info.dotted(args["rounding_mode"]) or ""
            if not (rm == "ct.RoundingMode.APPROX" and ftz and "{a}" in template and "{b}" in template):
                raise self._err(args["rounding_mode"], f"no rule for rounding_mode={rm}",
                                "only ct.truediv(.., rounding_mode=APPROX, flush_to_zero=True) -> true_div")
        if ftz and "{ftz}" not in template:
            raise self._err(node, "no rule for flush_to_zero on this op", "add a template with {ftz} to rules/cutile.toml")
        if self._kw_bool(args, "propagate_nan", False):
            raise self._err(args["propagate_nan"], "no rule for propagate_nan=True",
                            "ct.maximum/ct.minimum are translated with nan::Disabled only")
        return {"ftz": "ftz::Enabled" if ftz else "ftz::Disabled", "rounding": "rounding::NearestEven"}, ftz

    def _array(self, node) -> Val:
        v = self._expr(node, "a")
        if v.kind != "array":
            raise self._err(node, "expected an array parameter", "pass the kernel's array argument", errors.TRANSLATE_TYPE)
        return v

    def _as_tile(self, node, hint: str) -> Val:
        v = self._expr(node, hint)
        if v.kind != "tile":
            raise self._err(node, f"expected a tile, got a {v.kind}", "tiles come from ct.load / ct.full / tile ops",
                            errors.TRANSLATE_TYPE)
        return v

    # -- lowerings (selected by rules' `lower`)

    def _lower_bid(self, node, rule, fname, hint) -> Val:
        args = self._args(node, ["axis"])
        axis = literal_value(args.get("axis")) if "axis" in args else None
        if axis not in (0, 1, 2):
            raise self._err(node, "ct.bid needs a literal axis 0, 1 or 2", "write ct.bid(0)", errors.TRANSLATE_TYPE)
        tup = self.let(f"{hint}_bid", model.OpaqueT("(i32, i32, i32)"), self.op("bid", rule["template"], node), node)
        return self.scalar(hint, "i32", self.op("block_id_field", self.ops("block_id_field"), node, tuple=tup, axis=str(axis)), node)

    def _view(self, node, arr: Val, dims, padding: str, hint: str, dim_map: str | None = None) -> str:
        t = model.OpaqueT(f"Partition<{arr.dtype}, {{ [{', '.join(dims)}] }}>")
        tmpl = self._view_template("partition_view", arr, node, padding, dim_map)
        # the free function make_partition_view is an unsafe fn from cutile 0.5.0 (a tensor view's .partition is not)
        unsafe = tmpl == self.ops("partition_view") and targets.current().is_unsafe("partition_view")
        op = self.op("partition_view", tmpl, node, unsafe,
                     array=arr.name, shape=", ".join(dims), padding=padding, dim_map=dim_map or self.ops("dim_map_identity"))
        return self.let(hint, t, op, node, hoist=True)

    def _padding(self, args) -> str:
        if "padding_mode" not in args:
            return self.rules["padding"]["default"]
        d = self.info.dotted(args["padding_mode"]) or ""
        if d not in self.rules["padding"] and not d.startswith(mem_cutile.PAD_PREFIX):
            return self._padding_value(args["padding_mode"])  # a name / helper argument / module constant
        if d not in self.rules["padding"]:
            raise self._err(args["padding_mode"], f"no rule for padding mode '{d}'", "see [padding] in rules/cutile.toml")
        return self.rules["padding"][d]

    def _hints(self, args) -> tuple[str, str]:
        return self._latency_hint(args), self._tma_hint(args)  # mem_cutile.py: literals, constants, params

    def _lower_load(self, node, rule, fname, hint) -> Val:
        args = self._args(node, ["array", "index", "shape"])
        for k in args:
            if k not in ("array", "index", "shape", "padding_mode", "latency", "allow_tma", "order"):
                raise self._err(args[k], f"no rule for ct.load({k}=..)", "see docs/porting.md §2")
        arr = self._array(args["array"])
        dims = self._shape_dims(args["shape"])
        index = [self._index_text(e.value) for e in _tuple(args["index"], self)]
        if len(dims) != arr.ndim or len(index) != arr.ndim:
            raise self._err(node, f"ct.load of a {arr.ndim}-d array needs {arr.ndim} index and shape entries",
                            "match the array rank", errors.TRANSLATE_TYPE)
        view = self._view(node, arr, dims, self._padding(args), f"p{arr.name}", self._dim_map(args, arr, "load"))
        lat, tma = self._hints(args)
        op = self.op("load_view", self.ops("load_view"), node, view=view, index=", ".join(index), latency=lat, tma=tma)
        return self.tile(hint, arr.dtype, dims, op, node)

    def _lower_store(self, node, rule, fname, hint) -> Val:
        args = self._args(node, ["array", "index", "tile"])
        for k in args:
            if k not in ("array", "index", "tile", "latency", "allow_tma", "order"):
                raise self._err(args[k], f"no rule for ct.store({k}=..)", "see docs/porting.md §2")
        arr = self._array(args["array"])
        self._dim_map(args, arr, "store")  # identity orders only (a mutable view has no dim_map in cutile 0.3.1)
        index = [self._index_text(e.value) for e in _tuple(args["index"], self)]
        t = self._as_tile(args["tile"], "out")
        self._retype_check(arr, t, args["tile"])
        if t.dtype != arr.dtype:
            raise self._err(args["tile"], f"stored tile has dtype {t.dtype}, array '{arr.name}' has {arr.dtype}",
                            f"cast explicitly: ct.astype(tile, {arr.name}.dtype)", errors.TRANSLATE_TYPE)
        if len(t.type.shape) != arr.ndim or len(index) != arr.ndim:
            raise self._err(node, f"ct.store into a {arr.ndim}-d array needs a rank-{arr.ndim} tile and index",
                            "reshape the tile to the array rank", errors.TRANSLATE_TYPE)
        dims = t.type.shape
        pt = model.OpaqueT(f"PartitionMut<{arr.dtype}, {{ [{', '.join(dims)}] }}>")
        view = self.let(f"p{arr.name}", pt, self.op("partition_mut", self._view_template("partition_mut", arr), node, True,
                                                    array=arr.name, shape=", ".join(dims)), node, hoist=True, mutable=True)
        lat, tma = self._hints(args)
        op = self.op("store_view", self.ops("store_view"), node, True, view=view, tile=t.name, index=", ".join(index),
                     latency=lat, tma=tma)
        self.let("_done", model.OpaqueT("Token"), op, node)
        return Val("literal", value=None)

    def _lower_num_tiles(self, node, rule, fname, hint) -> Val:
        args = self._args(node, ["array", "axis", "shape"])
        arr = self._array(args["array"])
        axis = literal_value(args.get("axis"))
        dims = self._shape_dims(args["shape"])
        if not isinstance(axis, int) or len(dims) != arr.ndim:
            raise self._err(node, "ct.num_tiles needs a literal axis and a full-rank shape", "see docs/porting.md §2",
                            errors.TRANSLATE_TYPE)
        view = self._view(node, arr, dims, self.rules["padding"]["default"], f"p{arr.name}_tiles")
        space = self.let(f"{hint}_space", model.OpaqueT(f"[i32; {arr.ndim}]"),
                         self.op("index_space", self.ops("index_space"), node, view=view), node)
        return self.scalar(hint, "i32", self.op("index_space_dim", self.ops("index_space_dim"), node, space=space,
                                                axis=str(axis % arr.ndim)), node)

    def _lower_full(self, node, rule, fname, hint) -> Val:
        args = self._args(node, ["shape", "fill_value", "dtype"] if "fill" not in rule else ["shape", "dtype"])
        dims = self._shape_dims(args["shape"])
        dt = self._expr(args["dtype"], hint) if "dtype" in args else None
        fill = self._expr(args["fill_value"], hint) if "fill_value" in args else Val("literal", value=rule["fill"])
        if dt is None or dt.kind != "dtype" or dt.dtype == specialise.ELEMENT_GENERIC and not (
                fill.kind == "literal" and ops_cutile.constant_text(fill.value, dt.dtype) is not None):  # E::ZERO ok
            raise self._err(node, f"{fname} needs a concrete dtype=ct.<type>", "e.g. dtype=ct.float32", errors.TRANSLATE_TYPE)
        spelled = ops_cutile.constant_spelling(fill.value, dt.dtype) if fill.kind == "literal" else None
        if spelled is not None:
            op = self.op("constant", self.ops(spelled[0]), node, value=spelled[1], shape=", ".join(dims))
        elif fill.kind == "scalar" and fill.dtype == dt.dtype:
            op = self.op("broadcast_scalar", self.ops("broadcast_scalar"), node, value=fill.name, shape=", ".join(dims))
        else:
            raise self._err(node, f"no rule for {fname} with this fill value", "use a literal or a same-typed scalar",
                            errors.TRANSLATE_TYPE)
        return self.tile(hint, dt.dtype, dims, op, node)

    def _cast_operands(self, args, node, hint: str, what: str, scalar_dtypes) -> tuple[Val, Val]:
        """(tile, dtype) operands of ct.astype / ct.bitcast: a runtime scalar (of ``scalar_dtypes``; None: any)
        is a 0-d tile in cuTile Python."""
        x = self._expr(args["x"], f"{hint}_in")
        if x.kind == "scalar" and (scalar_dtypes is None or x.dtype in scalar_dtypes):
            x = self.tile(f"{hint}_t", x.dtype, (), self.op("scalar_to_tile", self.ops("scalar_to_tile"), node,
                                                           x=x.name), node)
        elif x.kind != "tile":
            x = self._as_tile(args["x"], f"{hint}_in")
        return x, self._expr(args["dtype"], hint)

    def _lower_bitcast(self, node, rule, fname, hint) -> Val:
        """``ct.bitcast(x, dtype)``: same-width reinterpretation (a runtime scalar is a 0-d tile)."""
        args = self._args(node, ["x", "dtype"])
        x, dt = self._cast_operands(args, node, hint, "bitcast", None)
        if dt.kind != "dtype":
            raise self._err(args["dtype"], "ct.bitcast needs a dtype", "ct.uint32 / ct.int32", errors.TRANSLATE_TYPE)
        width = {"i8": 8, "u8": 8, "i16": 16, "u16": 16, "f16": 16, "bf16": 16, "i32": 32, "u32": 32, "f32": 32,
                 "i64": 64, "u64": 64, "f64": 64}
        if x.dtype not in width or width[x.dtype] != width.get(dt.dtype):
            raise self._err(node, f"no rule for ct.bitcast from {x.dtype} to {dt.dtype}",
                            "bitcast between concrete types of one width", errors.TRANSLATE_TYPE)
        if x.dtype == dt.dtype:  # cuTile Python folds a same-type bitcast
            return x
        return self.tile(hint, dt.dtype, x.type.shape, self.op("bitcast", self.ops("bitcast"), node, x=x.name), node)

    def _lower_astype(self, node, rule, fname, hint) -> Val:
        args = self._args(node, ["x", "dtype"])
        x, dt = self._cast_operands(args, node, hint, "astype", ("i32", "f32"))
        if dt.kind != "dtype":
            raise self._err(args["dtype"], "ct.astype needs a dtype", "ct.float32 / A.dtype", errors.TRANSLATE_TYPE)
        if dt.dtype == x.dtype:
            if dt.dtype == specialise.ELEMENT_GENERIC and dt.name in self.stored_arrays():
                # E -> an output's dtype: kept (cutile drops a same-type convert) so mono.split_dtypes can give
                # a read-only array whose values are written out this way its own element generic
                return self.tile(hint, dt.dtype, x.type.shape, self.op(ops_cutile.CONVERT_ELEM_KIND, self.ops(
                    "convert_tile"), node, x=x.name, to=dt.name), node)
            return x
        bits = {"i8": 8, "u8": 8, "i16": 16, "u16": 16, "i32": 32, "u32": 32, "i64": 64, "u64": 64}
        if x.dtype in bits and dt.dtype in bits and bits[x.dtype] > bits[dt.dtype]:  # integer narrowing
            if not _shifted_into_range(args["x"], bits[x.dtype] - bits[dt.dtype]) or not x.dtype.startswith("u"):
                raise self._err(node, f"no rule for ct.astype from {x.dtype} to {dt.dtype} (a wrapping truncation)",
                                "cutile 0.3.1 writes trunci only with an overflow flag; narrow `(x >> k)` with k >= "
                                f"{bits[x.dtype] - bits[dt.dtype]} on an unsigned tile (it fits, no wrap)")
            return self.tile(hint, dt.dtype, x.type.shape, self.op("trunci", self.ops("trunci"), node, x=x.name), node)
        if x.dtype in bits and dt.dtype in bits and bits[x.dtype] < bits[dt.dtype]:  # widening: exti (signedness of x)
            return self.tile(hint, dt.dtype, x.type.shape, self.op("exti", self.ops("exti"), node, x=x.name), node)
        return self.tile(hint, dt.dtype, x.type.shape, self.op("convert_tile", self.ops("convert_tile"), node, x=x.name), node)

    def _lower_mma(self, node, rule, fname, hint) -> Val:
        args = self._args(node, ["a", "b", "acc"])
        a, b, acc = (self._as_tile(args[k], f"{hint}_{k}") for k in ("a", "b", "acc"))
        sa, sb, sc = a.type.shape, b.type.shape, acc.type.shape
        if len(sa) != 2 or len(sb) != 2 or sa[1] != sb[0] or sc != (sa[0], sb[1]):
            raise self._err(node, f"ct.mma shapes do not line up: {sa} x {sb} + {sc}", "use (M,K) x (K,N) + (M,N)",
                            errors.TRANSLATE_TYPE)
        return self.tile(hint, acc.dtype, sc, self.op("mma", rule["template"], node, a=a.name, b=b.name, acc=acc.name), node)

    def _lower_reduce(self, node, rule, fname, hint) -> Val:
        args = self._args(node, ["x", "axis", "keepdims"])
        x = self._as_tile(args["x"], f"{hint}_in")
        axis = literal_value(args["axis"]) if "axis" in args else None
        if "axis" not in args and len(x.type.shape) == 1:
            axis = 0  # axis=None on a 1-d tile: the one axis
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise self._err(node, f"no rule for {fname} without a literal axis", "pass axis=<int>")
        rank = len(x.type.shape)
        axis %= rank
        keep = self._kw_bool(args, "keepdims", False)
        red_shape = x.type.shape[:axis] + x.type.shape[axis + 1:]
        generic = any(not d.isdigit() for d in red_shape)
        r = self.tile(f"{hint}_raw" if generic else f"{hint}_red" if keep else hint, x.dtype, red_shape,
                      self.op("reduce", rule["template"], node, x=x.name, axis=f"{axis}i32"), node)
        if generic:
            # cutile 0.3.1 types a reduce result with the instantiated shape (`[4]`) and every other tile with the
            # declared one (`[BLOCK_N]`), then rejects mixing them in one op: a same-shape broadcast re-types it
            r = self.tile(f"{hint}_red" if keep else hint, x.dtype, red_shape, self.op(
                "broadcast", self.ops("broadcast"), node, x=r.name, shape=", ".join(red_shape)), node)
        if not keep:
            return r
        keep_shape = x.type.shape[:axis] + ("1",) + x.type.shape[axis + 1:]
        return self.tile(hint, x.dtype, keep_shape, self.op("reshape", self.ops("reshape"), node, x=r.name,
                                                             shape=", ".join(keep_shape)), node)

    def _lower_unary(self, node, rule, fname, hint) -> Val:
        args = self._args(node, ["x"])
        x = self._as_tile(args["x"], f"{hint}_in")
        if "rounding_mode" in args and "flush_to_zero" not in args:
            return self._unary_approx(node, rule, fname, hint, x, args)
        modes, _ = self._modes(args, node, rule["template"])
        return self.tile(hint, x.dtype, x.type.shape, self.op("unary", rule["template"], node, x=x.name, **modes), node)

    def _unary_approx(self, node, rule, fname, hint, x: Val, args) -> Val:
        """ct.exp / ct.tanh(x, rounding_mode=APPROX): cutile 0.3.1 has no rounding operand on these ops, so the
        port declares module-local ops with one (emitters/templates/port/declarations/, named by rules [declarations])."""
        rm = self.info.dotted(args["rounding_mode"]) or ""
        if rm.rsplit(".", 1)[-1] != "APPROX" or "template_approx" not in rule or not ops_cutile.is_float(x.dtype):
            raise self._err(args["rounding_mode"], f"no rule for {fname}(rounding_mode={rm})",
                            "only ct.exp/ct.tanh(.., rounding_mode=APPROX) on float tiles")
        return self.tile(hint, x.dtype, x.type.shape, self.op("unary", rule["template_approx"], node, x=x.name), node)

    def _lower_binary(self, node, rule, fname, hint) -> Val:
        args = self._args(node, ["x", "y"])
        a, b = self._expr(args["x"], f"{hint}_lhs"), self._expr(args["y"], f"{hint}_rhs")
        return self._binary(node, rule, fname, hint, a, b, args, args["x"], args["y"])

    def _binary(self, node, rule, fname, hint, a: Val, b: Val, args, lnode, rnode) -> Val:
        modes, ftz = self._modes(args, node, rule.get("template_modes", rule["template"]))
        template = rule["template_modes"] if ftz else rule["template"]
        if "rounding_mode" in args:  # APPROX + ftz, checked by _modes
            if "template_approx" not in rule:
                raise self._err(args["rounding_mode"], f"no rule for {fname}(rounding_mode=APPROX)",
                                "add template_approx to its rules/cutile.toml entry")
            template = rule["template_approx"]
        tiles = [v for v in (a, b) if v.kind == "tile"]
        if not tiles:
            return self._scalar_binary_fn(node, rule, fname, hint, a, b, modes)  # ct.maximum(pid, n) -> maxi
        dtype = tiles[0].dtype
        if any(t.dtype != dtype for t in tiles):
            self._retype_mixed(tiles, ints_only=False)
            raise self._err(node, f"{fname} mixes tile dtypes {tiles[0].dtype} and {tiles[-1].dtype}",
                            "cast one side with ct.astype", errors.TRANSLATE_TYPE)
        if template == rule["template"] and "template_int" in rule and dtype != specialise.ELEMENT_GENERIC \
                and not ops_cutile.is_float(dtype):
            template = rule["template_int"]  # ct.maximum / ct.minimum of integer tiles: maxi / mini, as cuTile emits
        shape = self._broadcast_shape([t.type.shape for t in tiles], node)
        an = self._to_tile(a, dtype, shape, f"{hint}_a", lnode)
        bn = self._to_tile(b, dtype, shape, f"{hint}_b", rnode)
        return self.tile(hint, dtype, shape, self.op("binary", template, node, a=an, b=bn, **modes), node)

    def _broadcast_shape(self, shapes, node) -> tuple[str, ...]:
        rank = max(len(s) for s in shapes)
        padded = [("1",) * (rank - len(s)) + tuple(s) for s in shapes]
        out = []
        for dims in zip(*padded):
            real = {d for d in dims if d != "1"}
            if len(real) > 1:
                raise self._err(node, f"cannot broadcast shapes {' and '.join(str(list(s)) for s in shapes)}",
                                "make the tile shapes compatible", errors.TRANSLATE_TYPE)
            out.append(real.pop() if real else "1")
        return tuple(out)

    def _to_tile(self, v: Val, dtype: str, shape: tuple[str, ...], hint: str, node) -> str:
        """Make ``v`` a Tile<dtype, shape>: scalar -> 0-d tile, then rank-extend (reshape) and broadcast."""
        if v.kind == "literal":
            # like cuTile Python: a 0-d constant, then reshape + broadcast to the operand shape
            spelled = ops_cutile.constant_spelling(v.value, dtype)  # E::ZERO, f32::NEG_INFINITY, 2.0f32
            if spelled is None:
                raise self._err(node, f"no rule for this literal operand of element type {dtype}",
                                "cast the tile to a concrete dtype (f32) first", errors.TRANSLATE_TYPE)
            if dtype in ("u32", "u64") and int(v.value) >= 2 ** (int(dtype[1:]) - 1):
                # cutile 0.3.1 parses an integer literal as the signed type of its width (a larger u32 reads as 0):
                # the same bits as a signed constant, bitcast (the identity in Tile IR, where ints are signless)
                sdt, bits = "i" + dtype[1:], int(dtype[1:])
                k = self.let(f"{hint}_s", model.TileT(sdt, shape), self.op(
                    "constant", self.ops("constant"), node, value=f"{int(v.value) - 2 ** bits}{sdt}",
                    shape=", ".join(shape)), node)
                return self.let(hint, model.TileT(dtype, shape), self.op("bitcast", self.ops("bitcast"), node, x=k), node)
            if not ops_cutile.is_float(dtype) and dtype != specialise.ELEMENT_GENERIC:
                # integer constants are materialised at the operand shape (cuTile's dataflow folds the splat)
                return self.let(hint, model.TileT(dtype, shape), self.op("constant", self.ops(spelled[0]), node,
                                                                         value=spelled[1], shape=", ".join(shape)), node)
            cur = self.tile(f"{hint}_k", dtype, (), self.op("constant", self.ops(spelled[0]), node, value=spelled[1],
                                                          shape=""), node)
        elif v.kind == "scalar":
            name = v.name
            if v.dtype != dtype:
                if dtype == specialise.ELEMENT_GENERIC:
                    raise self._err(node, f"no rule to convert a {v.dtype} scalar to the element type",
                                    "cast the tile to a concrete dtype first", errors.TRANSLATE_TYPE)
                name = self.let(f"{v.name}_{dtype}", model.ScalarT(dtype),
                                self.op("convert_scalar", self.ops("convert_scalar"), node, x=name), node)
            cur = self.tile(f"{v.name}_tile", dtype, (), self.op("scalar_to_tile", self.ops("scalar_to_tile"), node, x=name), node)
        elif v.kind == "tile":
            cur = v
        else:
            raise self._err(node, f"no rule for a {v.kind} operand in tile arithmetic", "use tiles or scalars",
                            errors.TRANSLATE_TYPE)
        cs = cur.type.shape
        if len(cs) < len(shape):
            cs = ("1",) * (len(shape) - len(cs)) + cs
            cur = self.tile(f"{hint}_r", dtype, cs, self.op("reshape", self.ops("reshape"), node, x=cur.name,
                                                               shape=", ".join(cs)), node)
        if cs != shape:
            cur = self.tile(f"{hint}_b", dtype, shape, self.op("broadcast", self.ops("broadcast"), node, x=cur.name,
                                                                  shape=", ".join(shape)), node)
        return cur.name

    def _binop(self, node: cst.BinaryOperation, hint: str) -> Val:
        sym = _OPS.get(type(node.operator))
        a, b = self._expr(node.left, f"{hint}_lhs"), self._expr(node.right, f"{hint}_rhs")
        if a.kind != "tile" and b.kind != "tile":
            fv = self._scalar_float_binop(node, sym or "", a, b, hint)
            if fv is not None:
                return fv
            if sym in ("//", "%"):
                return self._floor_divmod(node, sym, a, b, hint)
            tmpl = self.rules["scalar_operators"].get(sym or "")
            if tmpl is None or not all(v.kind == "literal" or (v.kind == "scalar" and v.dtype == "i32") for v in (a, b)):
                raise self._err(node, f"no rule for scalar operator '{sym or type(node.operator).__name__}'",
                                "scalar math supports + - * // % on i32", errors.NO_RULE)
            txt = [f"{v.value}i32" if v.kind == "literal" else v.name for v in (a, b)]
            return self.scalar(hint, "i32", self.op("scalar_binary", tmpl, node, a=txt[0], b=txt[1]), node)
        fname = self.rules["operators"].get(sym or "")
        if fname is None and self.info.llm_hook is not None:  # ctrs translate --llm: a candidate/verified snippet
            self.llm_operands = (node, a, b)  # the lowered operands: in the prompt's scope (llm_fallback/fallback.py)
            got = self.info.llm_hook(self, node, hint)
            if got is not None:
                return got
        if fname is None:
            raise self._err(node, f"no rule for tile operator '{sym or type(node.operator).__name__}'",
                            "see [operators] in rules/cutile.toml")
        rule = self.rules["functions"][fname]
        return self._binary(node, rule, fname, hint, a, b, {}, node.left, node.right)


_SHAPE_FNS = ("ct.reshape", "ct.expand_dims", "ct.broadcast_to", "ct.transpose", "ct.permute")


def _shifted_into_range(node, k: int) -> bool:
    """``(x >> n)`` / ``ct.bitwise_rshift(x, n)`` with a literal n >= k: the value fits k fewer bits."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.RightShift):
        n = literal_value(node.right)
    elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "bitwise_rshift" \
            and len(node.args) == 2:
        n = literal_value(node.args[1].value)
    else:
        return False
    return isinstance(n, int) and not isinstance(n, bool) and n >= k


class _ArrayDtype(Exception):
    """An ``E`` array parameter receives tiles of a concrete dtype: KernelFront.lower retypes it and retries."""

    def __init__(self, array: str, dtype: str):
        super().__init__(f"{array}: {dtype}")
        self.array, self.dtype = array, dtype


_OPS = {cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//", cst.Modulo: "%",
        cst.Power: "**", cst.MatrixMultiply: "@", cst.BitAnd: "&", cst.BitOr: "|", cst.BitXor: "^",
        cst.LeftShift: "<<", cst.RightShift: ">>"}
_AUG = {cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
        cst.DivideAssign: cst.Divide}


def _tuple(node, front: KernelFront):
    if isinstance(node, cst.Tuple):
        return node.elements
    raise front._err(node, "an index must be a tuple", "write index=(i,) or index=(i, j)", errors.TRANSLATE_TYPE)




def read_kernel_source(path: Path) -> str:
    """The text of a kernel file (either front end); an unreadable, undecodable, oversized or too deeply
    nested file is one coded error (transpiler/source.py)."""
    return source.read_python(Path(path))


def parse_file(path: Path, llm_hook=None) -> tuple[ModuleInfo, list[KernelFront]]:
    """``llm_hook(front, node, hint)``: a Val for a call without a rule, or None (``ctrs translate --llm``)."""
    info = parse_module(path, llm_hook)
    return info, [KernelFront(info, fn) for fn in info.kernels]


def parse_module(path: Path, llm_hook=None) -> ModuleInfo:
    """The parsed file, before any kernel is lowered (translate.py lowers them one by one to keep going)."""
    info = ModuleInfo(path, read_kernel_source(path))
    info.llm_hook = llm_hook
    if not info.ct_names:
        raise errors.CtrsError(errors.TRANSLATE_INPUT, "no 'import cuda.tile as ct' in the file",
                               "cuTile Python kernels import cuda.tile", errors.Loc(str(path)))
    if not info.kernels:
        raise errors.CtrsError(errors.KERNEL_NOT_FOUND, "no @ct.kernel function in the file",
                               "decorate the kernel with @ct.kernel", errors.Loc(str(path)))
    return info
