"""Triton front end: ``@triton.jit`` kernels -> the same tile IR model as cuTile Python kernels.

Static (libcst; Triton is never imported). Each kernel is rewritten, statement by statement and on the
same source line, into the cuTile Python construct it means (tl.* spellings from rules/triton.toml),
and the result goes through the cuTile Python front end (frontend_cutile.KernelFront), so the model,
the specialisation pass, the emitters and every check are shared. Diagnostics keep the Triton file's
path and line numbers.

What is converted (docs/porting.md §3 and §5; README "Triton front end"):

* ``tl.program_id/num_programs`` -> ``ct.bid/num_blocks``; ``tl.constexpr`` -> ``ct.Constant[int]`` (a const
  generic; ``Constant[float]`` when only used as a float); other scalars -> runtime ``int``/``float``;
* pointers are abstract values (:class:`Ptr`: a base parameter + summands, each a tile :class:`Rng` placed on
  a Triton axis or a scalar, times a stride parameter); an access whose summands group into one tile or
  scalar per stride is a partition-view load/store (stride-parameter dims first, the unit-stride dim last,
  scalar dims of size 1 reshaped away); masks ``offs < n`` bind ``n`` to the extent ``A.shape[k]``;
* ``tl.make_block_ptr`` / ``tl.make_tensor_descriptor`` / descriptor parameters -> partition views at tile
  index ``offset / block``; ``tl.advance`` and ``p += BLOCK * stride`` in a loop -> the loop index;
* everything else -> ``ct.gather`` / ``ct.scatter`` of the flat tensor (:meth:`KernelRewrite._fallback`);
* ``tl.dot`` -> ``ct.mma`` (tf32 for f32 inputs), reductions, ``tl.where``, math, casts, promotion;
* ``@triton.autotune`` configs -> analysis.json; ``num_warps`` dropped, ``tl.range(num_stages=S)`` -> latency;
* whole algorithms (``tl.rand``: Philox) -> cuTile Python helpers from rules/triton_helpers.py.

Everything else is reported with a coded one-line diagnostic (CTRS-E110 construct outside the subset,
CTRS-E111 access that cannot be converted); ``check_subset`` lists all of them at once.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import libcst as cst

from . import errors, frontend_cutile, paths, rules_loader, signatures
from .cutile_base import dotted_text, slice_kinds
from .sources import is_triton_source

RULES_PATH = paths.data("rules", "triton.toml")


@cache
def load_rules(path: str = str(RULES_PATH)) -> dict:
    """rules/triton.toml (or another file of its schema, rules_loader.TRITON), checked and loaded once."""
    return rules_loader.load("triton", path)


def is_triton_file(path: Path) -> bool:
    try:
        return is_triton_source(frontend_cutile.read_kernel_source(path))
    except errors.CtrsError:  # unreadable: the cuTile front end reports it
        return False


# ---------------------------------------------------------------------------------------------- abstract values


@dataclass(frozen=True)
class Rng:
    """``base * size + tl.arange(0, size)`` (base "" = 0): a contiguous tile at tile index ``base``, placed
    on ``axis`` of an ``ndim``-d Triton tile (``offs[:, None]`` -> axis 0 of 2, ``offs[None, :]`` -> 1 of 2)."""
    size: str
    base: str = ""
    axis: int = 0
    ndim: int = 1

    def placed(self, axis: int, ndim: int) -> "Rng":
        return Rng(self.size, self.base, axis, ndim)

    def shifted(self, by: str) -> "Rng":
        return Rng(self.size, _add(self.base, by), self.axis, self.ndim)


@dataclass(frozen=True)
class Scaled:
    """``idx * block`` (a scalar element offset that is a whole number of blocks)."""
    idx: str
    block: str


@dataclass(frozen=True)
class MaskPart:
    """``offs < bound``: ``kind`` "param" (a runtime extent), "const" (a constexpr) or "expr" (anything else);
    ``shift`` a tile shift folded out of the bound (``offs < K - k * BLOCK`` is ``offs + k * BLOCK < K``)."""
    rng: Rng
    bound: str
    kind: str
    shift: str = ""


@dataclass(frozen=True)
class Mask:
    parts: tuple  # MaskPart, ... (``m0 & m1``)

    def placed(self, axis: int, ndim: int) -> "Mask":
        return Mask(tuple(MaskPart(p.rng.placed(axis, ndim), p.bound, p.kind, p.shift) for p in self.parts))


@dataclass(frozen=True)
class Term:
    """One summand of a pointer offset: a tile ``rng`` or a scalar ``idx`` (text), times ``stride`` (a stride
    parameter; "" = unit stride)."""
    rng: Rng | None
    idx: str
    stride: str
    tile: bool = False  # idx is a tile expression (not a view offset: the gather/scatter fallback)
    tiles: str = ""  # idx is also ``tiles`` whole blocks of this size (idx * block, a stepped loop variable)
    block: str = ""


@dataclass(frozen=True)
class Ptr:
    """``base + sum(terms)`` (base "" = an offset not yet added to a pointer)."""
    base: str
    terms: tuple = ()


@dataclass(frozen=True)
class BlockPtr:
    base: str
    index: tuple[str, ...]
    block: tuple[str, ...]


@dataclass(frozen=True)
class Desc:
    """A tensor descriptor (``tl.make_tensor_descriptor`` or a descriptor parameter) over array ``base``."""
    base: str
    block: tuple[str, ...]


@dataclass(frozen=True)
class Moved:
    """A pointer after the loop that advances it (its value there is not a tile at a block offset)."""
    name: str


def _add(a: str, b: str) -> str:
    if a in ("", "0"):
        return b
    if b in ("", "0"):
        return a
    return f"{a} + {b}"


def _times(it: str, n: str) -> str:
    if n in ("", "0") or it in ("", "0"):
        return "0"
    if n == "1":
        return it
    return f"({it}) * {n}"


class _NotView(Exception):
    """A pointer access that is not a tile at a block offset (why)."""

    def __init__(self, ptr, why: str):
        super().__init__(why)
        self.ptr, self.why = ptr, why


def _same_axis(a: Rng, b: Rng) -> bool:
    return (a.size, a.axis, a.ndim) == (b.size, b.axis, b.ndim)


class _Problem(Exception):
    def __init__(self, err: errors.CtrsError):
        super().__init__(err.message)
        self.err = err


_OPS = {cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//",
        cst.Modulo: "%", cst.BitAnd: "&", cst.BitOr: "|", cst.BitXor: "^", cst.LeftShift: "<<",
        cst.RightShift: ">>"}
_CMP = {cst.LessThan: "<", cst.LessThanEqual: "<=", cst.GreaterThan: ">", cst.GreaterThanEqual: ">=",
        cst.Equal: "==", cst.NotEqual: "!="}


# ---------------------------------------------------------------------------------------------- module


class TritonFile(frontend_cutile.SourceFile):
    def __init__(self, path: Path, source: str):
        super().__init__(path, source)
        self.tl_names: set[str] = set()
        self.triton_names: set[str] = set()
        self.kernels: list[cst.FunctionDef] = []
        for stmt in self.module.body:
            for s in _small_statements(stmt):
                self._scan_import(s)
        for stmt in self.module.body:
            if isinstance(stmt, cst.FunctionDef) and any(self._is_jit(d.decorator) for d in stmt.decorators):
                self.kernels.append(stmt)

    def _scan_import(self, s) -> None:
        if isinstance(s, cst.Import):
            for a in s.names:
                full = _attr(a.name)
                local = a.asname.name.value if a.asname and isinstance(a.asname.name, cst.Name) else full
                if full == "triton.language":
                    self.tl_names.add(local)
                elif full == "triton":
                    self.triton_names.add(local)
        elif isinstance(s, cst.ImportFrom) and s.module is not None and not isinstance(s.names, cst.ImportStar):
            if _attr(s.module) == "triton":
                for a in s.names:
                    if isinstance(a.name, cst.Name) and a.name.value == "language":
                        self.tl_names.add(a.asname.name.value if a.asname else "language")

    def dotted(self, node) -> str | None:
        """``tl.X.Y`` / ``triton.X`` with the module aliases normalised; None for anything else."""
        chain = frontend_cutile.attr_chain(node)
        if chain is None:
            return None
        head, parts = chain
        if head in self.tl_names:
            head = "tl"
        elif head in self.triton_names:
            head = "triton"
            if parts[:1] == ["language"]:
                head, parts = "tl", parts[1:]
        return ".".join([head, *parts])

    def _is_jit(self, d) -> bool:
        if isinstance(d, cst.Call):
            d = d.func
        return self.dotted(d) in ("triton.jit", "jit")

    def line(self, node) -> int:
        try:
            return self.positions[node].start.line
        except KeyError:
            return 0

    def loc(self, node) -> errors.Loc:
        try:
            p = self.positions[node].start
        except KeyError:
            return errors.Loc(str(self.path))
        return errors.Loc(str(self.path), p.line, p.column + 1)

    def end_line(self, node) -> int:
        return self.positions[node].end.line


def _int_constexprs(tf: TritonFile, fn: cst.FunctionDef) -> set[str]:
    """Constexpr parameters used where only an int fits: range / tl.arange / shapes / tl.cdiv / block pointers /
    descriptors / reshape arguments, ``//`` and ``%`` operands, comparisons (masks, flags)."""
    consts = {p.name.value for p in fn.params.params
              if p.annotation and tf.dotted(p.annotation.annotation) == "tl.constexpr"}
    out: set[str] = set()

    def names(node) -> None:
        class N(cst.CSTVisitor):
            def visit_Name(self, n):
                if n.value in consts:
                    out.add(n.value)
        node.visit(N())

    int_calls = ("range", "tl.range", "tl.static_range", "tl.arange", "tl.cdiv", "tl.zeros", "tl.full",
                 "tl.make_block_ptr", "tl.make_tensor_descriptor", "tl.advance", "tl.reshape", "tl.program_id")

    class V(cst.CSTVisitor):
        def visit_Call(self, node):
            f = tf.dotted(node.func) or (node.func.attr.value if isinstance(node.func, cst.Attribute) else "")
            if f in int_calls or f in ("reshape", "load", "store"):
                for a in node.args:
                    if f in ("tl.full",) and a.keyword is None and a is not node.args[0]:
                        continue  # the fill value
                    if f == "store" and a is not node.args[0]:
                        continue  # the stored value
                    names(a.value)

        def visit_BinaryOperation(self, node):
            if isinstance(node.operator, (cst.FloorDivide, cst.Modulo)):
                names(node)

        def visit_Comparison(self, node):
            names(node)

        def visit_Subscript(self, node):
            for el in node.slice:
                names(el)

    fn.body.visit(V())
    return out


def _is_method(node, name: str) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == name


def _builds_rank1(tf: TritonFile, fn: cst.FunctionDef) -> bool:
    """The kernel makes a 1-D tile with tl.zeros / tl.full (shape [N] or (N,))."""
    found = []

    class V(cst.CSTVisitor):
        def visit_Call(self, node):
            if tf.dotted(node.func) in ("tl.zeros", "tl.full") and node.args:
                sh = node.args[0].value
                if isinstance(sh, (cst.List, cst.Tuple)) and len(sh.elements) == 1:
                    found.append(node)

    fn.body.visit(V())
    return bool(found)


def _is_guard_return(st) -> bool:
    """``if cond: return`` (no else)."""
    if not isinstance(st, cst.If) or st.orelse is not None:
        return False
    body = st.body.body
    return (len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1
            and isinstance(body[0].body[0], cst.Return) and body[0].body[0].value is None)


def _small_statements(stmt):
    if isinstance(stmt, cst.SimpleStatementLine):
        return list(stmt.body)
    if isinstance(stmt, cst.Try):  # try: import triton / except ImportError: (source-only kernel files)
        return [s for st in stmt.body.body for s in _small_statements(st)]
    return []


_attr = dotted_text  # a.b.c of a Name / Attribute chain (cutile_base)


def _lit(node):
    try:
        return ast.literal_eval(cst.Module([]).code_for_node(node))
    except (ValueError, SyntaxError, TypeError):
        return None


# ---------------------------------------------------------------------------------------------- kernel rewrite


class KernelRewrite:
    """One @triton.jit kernel -> cuTile Python source lines (same line numbers), notes and problems."""

    def __init__(self, tf: TritonFile, fn: cst.FunctionDef, prior: KernelRewrite | None = None,
                 collect: bool = False):
        self.tf = tf
        self.fn = fn
        self.name = fn.name.value
        self.rules = load_rules()
        self.collect = collect
        self.problems: list[errors.CtrsError] = []
        self.lines: dict[int, list[tuple[int, str]]] = {}
        self.notes: dict[tuple[int, str, str], None] = {}
        self.env: dict[str, object] = {}
        self.tile_vars: set[str] = set()
        self._tile_memo: dict[tuple, tuple] = {}
        self.lifted: set[str] = set()
        # facts from a previous pass: parameter substitutions, dropped parameters, float scalars
        self.subst: dict[str, str] = dict(prior.subst) if prior else {}
        self.dropped: dict[str, str] = dict(prior.dropped) if prior else {}
        self.floats: set[str] = set(prior.floats) if prior else set()
        self.extents: dict[str, tuple[str, int, tuple[str, ...]]] = dict(prior.extents) if prior else {}
        self.pointers: set[str] = set(prior.pointers) if prior else set()
        self.strides: dict[str, tuple[str, int]] = dict(prior.strides) if prior else {}  # param -> (array, dim)
        self.params: list[tuple[str, str, cst.Param]] = []  # (name, kind constexpr|scalar|pointer, node)
        self.origins: dict[str, str] = {}
        self._noted: set[str] = set()
        self._in_loop = 0
        self.stepped: dict[str, str] = {}  # loop variable -> its constexpr step (range(0, N, BLOCK))
        self.lifted_loads: set[str] = set()  # load texts of one row of a 2-D array seen as a 1-D Triton tile
        self.ties: dict[tuple[str, str], dict] = {}  # (mask bound, kind) -> {(array, axis)}: one extent
        self.flat: set[str] = set(prior.flat) if prior else set()  # arrays accessed by gather/scatter (1-D, flat)
        self.descs: dict[str, tuple[str, ...]] = dict(prior.descs) if prior else {}  # descriptor param -> block
        self._latency = ""  # tl.range(num_stages=S): latency of the loads in that loop
        self.dtypes: dict[str, str] = {}  # local name -> the cuTile dtype it holds (dtype = X.dtype.element_ty)
        self.helpers: set[str] = set()  # rules/triton_helpers.py functions this kernel calls
        self.shapes: dict[str, tuple[str, ...]] = {}  # local tile -> its Triton shape (for tl.dot without acc)
        self._load_shape: tuple[str, ...] | None = None
        self.f32_vars: set[str] = set()  # locals that hold f32 values (Triton promotion; tl.store casts them back)
        self.float_consts: set[str] = set(prior.float_consts) if prior else set()  # constexprs used as floats
        self.int_consts: set[str] = _int_constexprs(tf, fn)  # constexprs in index / shape / loop positions
        self._carried: dict[str, tuple] = {}  # pointers advanced by the enclosing loops -> (value, one step)
        # a row of a 2-D array stays a (1, N) tile (the cuTile idiom) unless the kernel builds 1-D tiles of its own
        # (tl.zeros([N]) accumulators), which the row then meets: then it is reshaped to (N,)
        self.lift_rows = not _builds_rank1(tf, fn)

    # -- diagnostics --------------------------------------------------------------------------

    def problem(self, node, code: str, msg: str, hint: str) -> _Problem:
        return _Problem(errors.CtrsError(code, msg, hint, self.tf.loc(node)))

    def note(self, node, kind: str, text: str) -> None:
        self.notes.setdefault((self.tf.line(node) if not isinstance(node, int) else node, kind, text), None)

    # -- output -------------------------------------------------------------------------------

    def put(self, node_or_line, indent: int, text: str) -> None:
        line = node_or_line if isinstance(node_or_line, int) else self.tf.line(node_or_line)
        self.lines.setdefault(line, []).append((indent, text))

    # -- driver -------------------------------------------------------------------------------

    def run(self) -> None:
        self._signature()
        self._block(self.fn.body.body, 1, self.fn)

    def _signature(self) -> None:
        ps = self.fn.params
        if ps.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or ps.star_kwarg or ps.kwonly_params:
            self._report(self.problem(ps, errors.TRITON_UNSUPPORTED, "only plain positional kernel parameters "
                                      "are supported", "drop *args/**kwargs"))
        for p in ps.params:
            ann = p.annotation.annotation if p.annotation else None
            kind = "scalar"
            if ann is not None and self.tf.dotted(ann) == "tl.constexpr":
                kind = "constexpr"
            elif p.name.value in self.pointers:
                kind = "pointer"
            if p.default is not None and kind != "constexpr":
                self._report(self.problem(p, errors.TRITON_UNSUPPORTED, f"default value of parameter '{p.name.value}'",
                                          "pass the value at launch"))
            if ann is not None and kind == "scalar":
                t = self.tf.dotted(ann) or _attr(ann)
                if t in ("float", "tl.float32"):
                    self.floats.add(p.name.value)
            self.params.append((p.name.value, kind, p))

    def _report(self, prob: _Problem) -> None:
        if not self.collect:
            raise prob.err
        self.problems.append(prob.err)

    def _block(self, stmts, indent: int, owner) -> None:
        before = sum(len(v) for v in self.lines.values())
        stmts = list(stmts)
        for i, st in enumerate(stmts):
            if owner is self.fn and _is_guard_return(st):  # `if c: return` -> the rest of the kernel under `if not c:`
                try:
                    self.put(st, indent, f"if not {self._paren(st.test)}:")
                    self.note(st, "control", "early return -> the rest of the kernel runs under the negated condition")
                except _Problem as p:
                    self._report(p)
                self._block(stmts[i + 1:], indent + 1, st)
                break
            try:
                self._stmt(st, indent)
            except _Problem as p:
                self._report(p)
        if sum(len(v) for v in self.lines.values()) == before:
            first = stmts[0] if stmts else owner
            self.put(first, indent, "pass")

    def _stmt(self, st, indent: int) -> None:
        if isinstance(st, cst.SimpleStatementLine):
            for s in st.body:
                self._small(s, indent)
            return
        if isinstance(st, cst.For):
            self._for(st, indent)
            return
        if isinstance(st, cst.If):
            self._if(st, indent)
            return
        raise self.problem(st, errors.TRITON_UNSUPPORTED, f"'{type(st).__name__}' statement in a Triton kernel",
                           "use for-range loops and if statements only")

    def _for(self, st: cst.For, indent: int) -> None:
        if not isinstance(st.target, cst.Name) or not isinstance(st.iter, cst.Call):
            raise self.problem(st, errors.TRITON_UNSUPPORTED, "for loop over something other than range()",
                               "write `for k in range(..)` or `tl.range(..)`")
        fname = self.tf.dotted(st.iter.func)
        if fname not in ("range", "tl.range", "tl.static_range"):
            raise self.problem(st.iter, errors.TRITON_UNSUPPORTED, f"for loop over '{fname}'",
                               "write `for k in range(..)` or `tl.range(..)`")
        args, latency = [], ""
        for a in st.iter.args:
            if a.keyword is None:
                args.append(self.ex(a.value))
            elif a.keyword.value == "num_stages":
                n = _lit(a.value)
                if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                    raise self.problem(a.value, errors.TRITON_UNSUPPORTED, f"tl.range(num_stages={_code(a.value)})",
                                       "give num_stages as an int literal")
                latency = str(n)
                self.note(st, "hint", f"tl.range(num_stages={n}) -> latency={n} on the loads of this loop "
                          "(Triton-TileIR maps num_stages 1:1 to load latency)")
            else:
                self.note(st, "hint", f"tl.range({a.keyword.value}=..) dropped (no cuTile counterpart)")
        if st.orelse is not None:
            raise self.problem(st.orelse, errors.TRITON_UNSUPPORTED, "for-else", "drop the else clause")
        raw = [a.value for a in st.iter.args if a.keyword is None]
        var = st.target.value
        if len(raw) == 3 and _lit(raw[0]) == 0:  # for j in range(0, N, BLOCK): j is a whole number of blocks
            self.stepped[var] = _code(raw[2]).strip()
        start = _code(raw[0]).strip() if len(raw) >= 2 else "0"
        step = _code(raw[2]).strip() if len(raw) == 3 else "1"
        it = var if start == "0" and step == "1" else f"({var} // {step})" if start == "0" else \
            f"(({var} - {self._paren(raw[0])}) // {step})"
        carried = self._carried_pointers(st.body.body, it)
        self.put(st, indent, f"for {var} in range({', '.join(args)}):")
        self._in_loop += 1
        outer_latency, self._latency = self._latency, latency or self._latency
        outer_carried, self._carried = self._carried, {**self._carried, **carried}
        for name, (at_start, _step) in carried.items():
            self.env[name] = at_start
        self._block(st.body.body, indent + 1, st)
        self._latency, self._carried = outer_latency, outer_carried
        self._in_loop -= 1
        for name in carried:
            self.env[name] = Moved(name)

    def _carried_pointers(self, body, it: str) -> dict:
        """Pointers advanced once per iteration at the top level of a loop body (``p += BLOCK * stride``,
        ``bp = tl.advance(bp, ..)``): name -> (pointer at iteration ``it``, one step). The loop index becomes
        the tile index (docs/porting.md §3 "tl.advance in a loop"): no loop-carried pointer in the port."""
        out = {}
        for st in body:
            for s in _small_statements(st):
                name = step = None
                if isinstance(s, cst.AugAssign) and isinstance(s.target, cst.Name) and isinstance(s.operator, cst.AddAssign):
                    name = s.target.value
                    cur = self.env.get(name)
                    if isinstance(cur, Ptr) and cur.base:
                        step = self._ptr_step(cur, s.value)
                elif (isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name)
                      and isinstance(s.value, cst.Call) and self.tf.dotted(s.value.func) == "tl.advance"):
                    name = s.targets[0].target.value
                    cur = self.env.get(name)
                    if isinstance(cur, BlockPtr):
                        step = tuple(self._tile_index(o.value, b) for o, b in zip(s.value.args[1].value.elements, cur.block)) \
                            if len(s.value.args) == 2 and isinstance(s.value.args[1].value, (cst.Tuple, cst.List)) else None
                if name is None or step is None:
                    continue
                if name in out:
                    raise self.problem(s, errors.TRITON_ACCESS, f"pointer '{name}' advanced twice in one loop body",
                                       "advance it once per iteration")
                out[name] = (self._shift(cur, step, it), step)
        return out

    def _ptr_step(self, ptr: Ptr, inc) -> dict:
        """``p += BLOCK_K * stride_k`` (+ ..): stride -> tiles per step (the axis of that stride moves by whole blocks)."""
        steps: dict[str, str] = {}
        for t in self._terms(inc):
            stride, amount = "", _code(t).strip()
            if isinstance(t, cst.BinaryOperation) and isinstance(t.operator, cst.Multiply):
                for x, y in ((t.left, t.right), (t.right, t.left)):
                    if isinstance(y, cst.Name) and y.value in self._scalar_params():
                        stride, amount = y.value, _code(x).strip()
                        break
            rng = next((tm.rng for tm in ptr.terms if tm.stride == stride and tm.rng is not None), None)
            if rng is None:
                raise self.problem(t, errors.TRITON_ACCESS, f"pointer step '{_code(t)}' moves an axis without tile offsets",
                                   "step along an axis that has tl.arange offsets")
            if amount == rng.size:
                n = "1"
            else:
                sc = self.abstract(cst.parse_expression(amount)) if amount else None
                if not (isinstance(sc, Scaled) and sc.block == rng.size):
                    raise self.problem(t, errors.TRITON_ACCESS, f"pointer step '{_code(t)}' is not a whole number of "
                                       f"{rng.size}-blocks", f"step by {rng.size} * stride")
                n = sc.idx
            steps[stride] = _add(steps.get(stride, ""), n)
        return steps

    def _shift(self, cur, step, times: str):
        """``cur`` moved by ``times`` steps."""
        if isinstance(cur, BlockPtr):
            return BlockPtr(cur.base, tuple(_add(i, _times(times, d)) for i, d in zip(cur.index, step)), cur.block)
        terms = tuple(Term(t.rng.shifted(_times(times, step[t.stride])), t.idx, t.stride, t.tile)
                      if t.rng is not None and t.stride in step else t for t in cur.terms)
        return Ptr(cur.base, terms)

    def _if(self, st: cst.If, indent: int, kw: str = "if") -> None:
        self.put(st, indent, f"{kw} {self.ex(st.test)}:")
        self._block(st.body.body, indent + 1, st)
        orelse = st.orelse
        if orelse is not None:
            if isinstance(orelse, cst.If):
                self._if(orelse, indent, "elif")
                return
            self.put(orelse, indent, "else:")
            self._block(orelse.body.body, indent + 1, orelse)

    def _small(self, s, indent: int) -> None:
        if isinstance(s, cst.Expr):
            v = s.value
            if isinstance(v, (cst.SimpleString, cst.ConcatenatedString)):
                return
            if isinstance(v, cst.Call) and self.tf.dotted(v.func) == "tl.store":
                self.put(s, indent, self._store(v))
                return
            desc = self._desc_call(v, "store")
            if desc is not None:
                self.put(s, indent, self._desc_access(v, desc, store=True))
                return
            if isinstance(v, cst.Call):
                self.ex(v)  # diagnoses unsupported calls (tl.device_print, ...)
            raise self.problem(s, errors.TRITON_UNSUPPORTED, "expression statement without effect",
                               "remove it")
        if isinstance(s, cst.Pass):
            return
        if isinstance(s, cst.Return) and s.value is None:
            raise self.problem(s, errors.TRITON_UNSUPPORTED, "early return",
                               "guard the rest of the kernel with an if instead of returning")
        if isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name):
            self._assign(s.targets[0].target.value, s.value, s, indent)
            return
        if isinstance(s, cst.AnnAssign) and isinstance(s.target, cst.Name) and s.value is not None:
            self._assign(s.target.value, s.value, s, indent)  # `x: tl.constexpr = ..`: the annotation is dropped
            return
        if isinstance(s, cst.AugAssign) and isinstance(s.target, cst.Name):
            self._augassign(s, indent)
            return
        raise self.problem(s, errors.TRITON_UNSUPPORTED, f"'{type(s).__name__}' statement in a Triton kernel",
                           "assign one name per statement")

    def _assign(self, name: str, value, s, indent: int) -> None:
        if isinstance(value, cst.Name) and (isinstance(self.env.get(value.value), Desc) or value.value in self.descs
                                            and value.value not in self.env):
            self.env[name] = self.env.get(value.value) or Desc(value.value, self.descs[value.value])  # alias
            return
        if isinstance(value, cst.Attribute) and (value.attr.value in ("element_ty", "dtype")
                                                 or self.tf.dotted(value) in self.rules["dtypes"]):
            try:
                self.dtypes[name] = self._dtype(value)
                return
            except _Problem:
                pass
        self.dtypes.pop(name, None)
        absval = self.abstract(value)
        if absval is not None:
            self.env[name] = absval
            return
        self.env.pop(name, None)
        if isinstance(value, cst.Call) and self.tf.dotted(value.func) == "tl.dot":
            text = self._dot(value, s)
        else:
            text = self.ex(value)
        self._track(name, value, text)
        shape = self._shape_of(value) or self._last_load_shape(value)
        if shape:
            self.shapes[name] = shape
        else:
            self.shapes.pop(name, None)
        m = re.search(r"\bct\.(?:load|gather)\((\w+),", text)
        if m and isinstance(value, cst.Call) and (self.tf.dotted(value.func) == "tl.load" or _is_method(value, "to")
                                                  or _is_method(value, "load")):
            self.origins[name] = m.group(1)  # the array a tile was loaded from (tl.dot's tf32 choice)
        self.put(s, indent, f"{name} = {text}")

    def _track(self, name: str, value, text: str) -> None:
        if self._f32_text(text):
            self.f32_vars.add(name)
        else:
            self.f32_vars.discard(name)
        if self._is_tile_expr(value):
            self.tile_vars.add(name)
        else:
            self.tile_vars.discard(name)
        if self._lifted_text(text):
            self.lifted.add(name)
        else:
            self.lifted.discard(name)

    def _augassign(self, s: cst.AugAssign, indent: int) -> None:
        name = s.target.value
        if name in self._carried and isinstance(self.env.get(name), Ptr) and isinstance(s.operator, cst.AddAssign):
            self.env[name] = self._shift(self.env[name], self._carried[name][1], "1")  # the next iteration's tile
            return
        if ((name in self.pointers or isinstance(self.env.get(name), Ptr)) and isinstance(s.operator, cst.AddAssign)
                and not isinstance(self.env.get(name), BlockPtr) and not self._in_loop):
            # X += row * stride (a pointer parameter moved to its row once, before any loop): a Ptr rebinding
            moved = self.abstract(cst.BinaryOperation(left=cst.Name(name), operator=cst.Add(), right=s.value))
            if isinstance(moved, Ptr):
                self.env[name] = moved
                return
        if isinstance(self.env.get(name), (Ptr, BlockPtr)):
            raise self.problem(s, errors.TRITON_ACCESS, f"pointer increment '{name} {_code(s.operator)}'",
                               "recompute the pointer from the loop index (x + k * BLOCK + tl.arange(0, BLOCK))")
        v = s.value
        op = type(s.operator).__name__
        if isinstance(v, cst.Call) and self.tf.dotted(v.func) == "tl.dot" and op == "AddAssign":
            text = self._dot(v, s, acc=name)
        else:
            sym = {"AddAssign": "+", "SubtractAssign": "-", "MultiplyAssign": "*", "DivideAssign": "/"}.get(op)
            if sym is None:
                raise self.problem(s, errors.TRITON_UNSUPPORTED, f"augmented assignment '{_code(s.operator)}'",
                                   "write name = name op value")
            text = f"{name} {sym} {self._paren(v)}"
        self.put(s, indent, f"{name} = {text}")

    # -- abstract values (offsets, masks, pointers) ------------------------------------------

    def abstract(self, node):
        """The offset / mask / pointer this expression denotes, or None for an ordinary value."""
        if isinstance(node, cst.Name):
            v = self.env.get(node.value)
            if isinstance(v, Moved):
                raise self.problem(node, errors.TRITON_ACCESS, f"pointer '{v.name}' used after the loop that advances it",
                                   "recompute the pointer after the loop from the base and the loop count")
            return v
        if isinstance(node, cst.Call):
            f = self.tf.dotted(node.func)
            if f == "tl.arange":
                a = [x.value for x in node.args]
                if len(a) == 2 and _lit(a[0]) == 0:
                    return Rng(self.ex(a[1]))
                return None
            if f == "tl.make_block_ptr":
                return self._block_ptr(node)
            if f == "tl.advance":
                return self._advance(node)
            if f == "tl.make_tensor_descriptor":
                return self._make_desc(node)
            return None
        if isinstance(node, cst.Subscript):
            v = self.abstract(node.value)
            if isinstance(v, (Rng, Mask)):
                placed = self._placement(node)
                if placed is None:
                    raise self.problem(node, errors.TRITON_ACCESS, f"subscript '{_code(node)}' of offsets",
                                       "broadcast offsets with x[:, None] / x[None, :]")
                if isinstance(v, Rng) and v.ndim != 1 or isinstance(v, Mask) and any(p.rng.ndim != 1 for p in v.parts):
                    raise self.problem(node, errors.TRITON_ACCESS, f"subscript '{_code(node)}' of 2-D offsets",
                                       "broadcast 1-D offsets")
                return v.placed(*placed)
            return None
        if isinstance(node, cst.BinaryOperation):
            op = type(node.operator)
            if op is cst.Multiply:
                left, right = self.abstract(node.left), self.abstract(node.right)
                for rng, other in ((left, node.right), (right, node.left)):
                    if isinstance(rng, Rng) and isinstance(other, cst.Name) and other.value in self._scalar_params():
                        return Ptr("", (Term(rng, "", other.value),))  # offs * stride
                if left is None and right is None and not self._is_tile_expr(node):
                    # idx * BLOCK with BLOCK a constexpr: keep it symbolic (rendered back when used as a value)
                    r = _code(node.right).strip()
                    if r in self._constexprs():
                        return Scaled(self.ex(node.left), r)
                    st = self._stride_of(node)  # row * stride_x: a row offset (rendered back when used as a value)
                    if st is not None:
                        return Ptr("", (Term(None, st[0], st[1]),))
                return None
            if op is cst.Add:
                terms = self._terms(node)
                vals = [self.abstract(t) for t in terms]
                ptrish = any(isinstance(v, Ptr) for v in vals) or any(self._is_pointer(t) for t in terms)
                rngs = [v for v in vals if isinstance(v, Rng)]
                if not ptrish and len(rngs) == 1 and len(terms) == 2:
                    other = terms[0] if vals[1] is rngs[0] else terms[1]
                    ov = self.abstract(other)
                    if isinstance(ov, Scaled) and ov.block == rngs[0].size:
                        return rngs[0].shifted(ov.idx)
                    if isinstance(other, cst.Name) and self.stepped.get(other.value) == rngs[0].size:
                        return rngs[0].shifted(f"({other.value} // {rngs[0].size})")
                    return None
                if ptrish or rngs and len(rngs) > 1:
                    return self._ptr(node, terms, vals)
                return None
            if op is cst.BitAnd:
                left, right = self.abstract(node.left), self.abstract(node.right)
                if isinstance(left, Mask) and isinstance(right, Mask):
                    return Mask(left.parts + right.parts)
                if isinstance(left, Mask) or isinstance(right, Mask):
                    raise self.problem(node, errors.TRITON_ACCESS, "mask combined with a non-offset condition",
                                       "combine `offs < n` masks only (or use tl.where on the loaded value)")
            return None
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            c = node.comparisons[0]
            left = self.abstract(node.left)
            if isinstance(left, Rng) and isinstance(c.operator, cst.LessThan):
                return Mask((self._mask_part(left, c.comparator),))
            if isinstance(left, Rng):
                raise self.problem(node, errors.TRITON_ACCESS, "mask other than `offs < n`",
                                   "write the bound check as `offs < n`")
        return None

    def _placement(self, node: cst.Subscript):
        """``[:, None]`` -> (0, 2); ``[None, :]`` -> (1, 2); ``[:]`` -> (0, 1); else None."""
        kinds = slice_kinds(node)
        if kinds is None or kinds.count(":") != 1:
            return None
        return kinds.index(":"), len(kinds)

    def _mask_part(self, rng: Rng, b) -> MaskPart:
        if isinstance(b, cst.Name) and b.value in self._scalar_params():
            return MaskPart(rng, b.value, "param")
        if isinstance(b, cst.Name) and b.value in self._constexprs():
            return MaskPart(rng, b.value, "const")
        if (isinstance(b, cst.BinaryOperation) and isinstance(b.operator, cst.Subtract) and isinstance(b.left, cst.Name)
                and b.left.value in self._scalar_params() | self._constexprs()):
            sh = self.abstract(b.right)
            if isinstance(sh, Scaled) and sh.block == rng.size:  # offs < K - k * BLOCK  ==  offs + k * BLOCK < K
                kind = "param" if b.left.value in self._scalar_params() else "const"
                return MaskPart(rng, b.left.value, kind, sh.idx)
        return MaskPart(rng, self.ex(b), "expr")

    def _terms(self, node) -> list:
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            return self._terms(node.left) + self._terms(node.right)
        return [node]

    def _is_pointer(self, node) -> bool:
        return isinstance(node, cst.Name) and node.value in self.pointers and node.value not in self.env

    def _ptr(self, node, terms, vals) -> Ptr:
        """A pointer (or offset) expression: its base parameter and its summands."""
        base, out = "", []
        for t, v in zip(terms, vals):
            if self._is_pointer(t):
                if base:
                    raise self.problem(node, errors.TRITON_ACCESS, "two pointers added", "add offsets to one pointer")
                base = t.value
            elif isinstance(v, Ptr):
                if base and v.base:
                    raise self.problem(node, errors.TRITON_ACCESS, "two pointers added", "add offsets to one pointer")
                base = base or v.base
                out.extend(v.terms)
            elif isinstance(v, Rng):
                out.append(Term(v, "", ""))
            elif isinstance(v, (Mask, BlockPtr, Desc)):
                raise self.problem(t, errors.TRITON_ACCESS, f"'{_code(t)}' added to a pointer",
                                   "add integer offsets to a pointer")
            elif isinstance(v, Scaled):
                out.append(Term(None, f"({v.idx} * {v.block})", "", tiles=v.idx, block=v.block))
            elif isinstance(t, cst.Name) and t.value in self.stepped:
                st = self.stepped[t.value]
                out.append(Term(None, t.value, "", tiles=f"({t.value} // {st})", block=st))
            else:
                out.append(Term(None, self.ex(t), "", self._is_tile_expr(t)))
        if base:
            self.pointers.add(base)
        return Ptr(base, tuple(out))

    def _stride_of(self, t: cst.BinaryOperation):
        scal = self._scalar_params()
        for idx, st in ((t.left, t.right), (t.right, t.left)):
            if isinstance(st, cst.Name) and st.value in scal:
                return (self.ex(idx), st.value)
        return None

    def _view_args(self, call: cst.Call, names: list[str], what: str) -> tuple[str, dict]:
        """Base parameter and literal-tuple arguments of tl.make_block_ptr / tl.make_tensor_descriptor; the
        extents become ``A.shape[k]`` and the stride parameters are dropped (the tensor view carries them)."""
        args = {}
        for i, a in enumerate(call.args):
            args[a.keyword.value if a.keyword else names[i]] = a.value
        if set(names) - set(args):
            raise self.problem(call, errors.TRITON_ACCESS, f"{what} without "
                               + ", ".join(sorted(set(names) - set(args))), f"pass every {what} argument")
        base = args["base"]
        if not isinstance(base, cst.Name):
            raise self.problem(base, errors.TRITON_ACCESS, f"{what} base is not a kernel parameter",
                               "pass the tensor itself as the base")
        self.pointers.add(base.value)
        tup = {}
        for k in names[1:]:
            if not isinstance(args[k], (cst.Tuple, cst.List)):
                raise self.problem(args[k], errors.TRITON_ACCESS, f"{what} {k} is not a tuple",
                                   "write it as a literal tuple")
            tup[k] = [e.value for e in args[k].elements]
        block = tuple(_code(e).strip() for e in tup["block_shape"])
        for k, sh in enumerate(tup["shape"]):
            if isinstance(sh, cst.Name) and sh.value in self._scalar_params():
                self.extents.setdefault(sh.value, (base.value, k, block))
                self._bind(sh.value, f"{base.value}.shape[{k}]", sh)
                self.ties.setdefault((sh.value, "param"), {}).setdefault((base.value, k), None)
            elif isinstance(sh, cst.Name) and sh.value in self._constexprs():  # a constexpr extent: checked
                self.ties.setdefault((sh.value, "const"), {}).setdefault((base.value, k), None)
                self.note(sh, "param", f"{what} extent '{sh.value}' (a constexpr) is {base.value}.shape[{k}]: the "
                          "tensor passed must have that extent")
            else:
                raise self.problem(sh, errors.TRITON_ACCESS, f"{what} extent '{_code(sh)}' is not a parameter",
                                   "pass the extent as a kernel parameter (it becomes the tensor's shape)")
        for k, st in enumerate(tup["strides"]):
            if isinstance(st, cst.Name) and st.value in self._scalar_params():
                self.strides.setdefault(st.value, (base.value, k))
                self._drop(st.value, f"a {what} stride: the tensor view carries its strides", st)
            elif _lit(st) != 1:
                raise self.problem(st, errors.TRITON_ACCESS, f"{what} stride '{_code(st)}'",
                                   "pass strides as kernel parameters (or 1)")
        return base.value, {**tup, "block": block, "args": args}

    def _block_ptr(self, call: cst.Call) -> BlockPtr:
        base, t = self._view_args(call, ["base", "shape", "strides", "offsets", "block_shape", "order"],
                                  "block pointer")
        nd = len(t["shape"])
        order = [_lit(e) for e in t["order"]]
        if order != list(range(nd - 1, -1, -1)):
            raise self.problem(t["args"]["order"], errors.TRITON_ACCESS, f"block pointer order {order} is not row-major",
                               f"use order={tuple(range(nd - 1, -1, -1))} and tl.trans the loaded tile")
        index = tuple(self._tile_index(off, b) for off, b in zip(t["offsets"], t["block"]))
        return BlockPtr(base, index, t["block"])

    def _make_desc(self, call: cst.Call) -> Desc:
        base, t = self._view_args(call, ["base", "shape", "strides", "block_shape"], "tensor descriptor")
        self.note(call, "view", f"tl.make_tensor_descriptor({base}) -> a partition view of {base} with tile "
                  f"{_tup(list(t['block']))}, zero padding")
        return Desc(base, t["block"])

    def _advance(self, call: cst.Call) -> BlockPtr:
        """``tl.advance(bp, (o0, o1))``: each offset a whole number of blocks -> the tile index moves by it."""
        a = [x.value for x in call.args]
        bp = self.abstract(a[0]) if a else None
        if not isinstance(bp, BlockPtr) or len(a) != 2 or not isinstance(a[1], (cst.Tuple, cst.List)):
            raise self.problem(call, errors.TRITON_ACCESS, "tl.advance of something other than a block pointer",
                               "advance a tl.make_block_ptr by a literal tuple of offsets")
        offs = [e.value for e in a[1].elements]
        if len(offs) != len(bp.index):
            raise self.problem(a[1], errors.TRITON_ACCESS, "tl.advance offsets do not match the block pointer rank",
                               "give one offset per dimension")
        steps = tuple(self._tile_index(o, b) for o, b in zip(offs, bp.block))
        return BlockPtr(bp.base, tuple(_add(i, d) for i, d in zip(bp.index, steps)), bp.block)

    def _tile_index(self, off, block: str) -> str:
        """Element offset -> tile index (docs/porting.md §5): ``e * block`` -> e, ``0`` -> 0, block 1 -> e."""
        if _lit(off) == 0:
            return "0"
        if _code(off).strip() == block:
            return "1"
        if block == "1":
            return self.ex(off)
        v = self.abstract(off)
        if isinstance(v, Scaled) and v.block == block:
            return v.idx
        raise self.problem(off, errors.TRITON_ACCESS, f"offset '{_code(off)}' is not a multiple of the block {block}",
                           f"write the offset as idx * {block}")

    def _bind(self, param: str, text: str, node) -> None:
        self.subst.setdefault(param, text)
        if param in self._noted:
            return
        self._noted.add(param)
        self.note(node, "param", f"'{param}' is the extent {self.subst[param]}: parameter dropped, read from the tensor")
        self.dropped.setdefault(param, f"the extent {self.subst[param]}")

    def _drop(self, param: str, why: str, node) -> None:
        self.dropped.setdefault(param, why)
        if param not in self._noted:
            self._noted.add(param)
            self.note(node, "param", f"'{param}' is {self.dropped[param]}: parameter dropped")

    # -- loads / stores ---------------------------------------------------------------------

    def _kw(self, call: cst.Call, names: list[str]) -> dict:
        out = {}
        for i, a in enumerate(call.args):
            key = a.keyword.value if a.keyword else (names[i] if i < len(names) else f"#{i}")
            out[key] = a.value
        return out

    def _padding_from_other(self, other) -> str:
        key = self._padding_key(other)
        if key is None:
            raise self.problem(other, errors.TRITON_ACCESS, f"other={_code(other)} has no padding mode",
                               "use other=0, -float('inf'), float('inf') or float('nan')")
        return self.rules["padding"][key]

    def _padding_key(self, other) -> str | None:
        return padding_key(other)

    def _view(self, call: cst.Call, ptr_node, mask_node, store: bool):
        """(array, tile index texts, view shape texts, Triton tile shape texts) of a pointer / block-pointer access
        converted to a partition view (docs/porting.md §5). Raises :class:`_NotView` when the pointer is not a
        tile at a block offset (the caller falls back to gather/scatter)."""
        p = self.abstract(ptr_node)
        if isinstance(p, BlockPtr):
            return p.base, list(p.index), list(p.block), list(p.block)
        if not isinstance(p, Ptr) or not p.base:
            raise self.problem(ptr_node, errors.TRITON_ACCESS, f"'{_code(ptr_node)}' is not a pointer into a kernel "
                               "parameter", "add offsets to a pointer parameter")
        dims = self._dims(p, ptr_node)
        masks = self.abstract(mask_node) if mask_node is not None else None
        if mask_node is not None and not isinstance(masks, Mask):
            raise _NotView(p, f"mask '{_code(mask_node)}' is not `offs < n`")
        binds = []
        for part in (masks.parts if masks else ()):
            hit = [k for k, d in enumerate(dims) if d[1] is not None and _same_axis(d[1], part.rng)]
            if not hit or dims[hit[0]][1].base != _add(part.rng.base, part.shift):
                raise _NotView(p, f"mask '{_code(mask_node)}' is not on this access's offsets")
            if part.kind == "expr":
                raise _NotView(p, f"mask bound '{part.bound}' is not a tensor extent")
            binds.append((part, hit[0]))
        if p.base in self.flat:
            raise _NotView(p, f"'{p.base}' is accessed element-wise elsewhere in the kernel")
        for part, k in binds:
            self.ties.setdefault((part.bound, part.kind), {}).setdefault((p.base, k), None)
            if part.kind == "param":
                self._bind(part.bound, f"{p.base}.shape[{k}]", mask_node)
                self.extents.setdefault(part.bound, (p.base, k, tuple(d[1].size if d[1] is not None else "1"
                                                                      for d in dims)))
            else:
                self.note(mask_node, "param", f"mask bound '{part.bound}' (a constexpr) is the extent {p.base}."
                          f"shape[{k}]: the tensor passed must have that extent")
        for k, (stride, _rng, _idx) in enumerate(dims):
            if stride:
                self.strides.setdefault(stride, (p.base, k))
                self._drop(stride, f"the axis-{k} stride of {p.base}: the tensor view carries its strides", ptr_node)
        index = [(d[1].base or "0") if d[1] is not None else d[2] for d in dims]
        shape = [d[1].size if d[1] is not None else "1" for d in dims]
        rngs = sorted((d[1] for d in dims if d[1] is not None), key=lambda r: r.axis)
        return p.base, index, shape, [r.size for r in rngs]

    def _dims(self, p: Ptr, node) -> list:
        """Array dimensions of a pointer: [(stride, Rng | None, scalar index text)], stride-parameter dims first
        (scalar ones, then tiles in Triton axis order), the unit-stride dim last."""
        groups: dict[str, list[Term]] = {}
        for t in p.terms:
            if t.tile:
                raise _NotView(p, f"offset '{t.idx}' is a computed tile")
            groups.setdefault(t.stride, []).append(t)
        dims = []
        for stride, ts in groups.items():
            rng = [t.rng for t in ts if t.rng is not None]
            if len(rng) == 1:  # whole blocks of the tile's size fold into its tile index
                for t in ts:
                    if t.rng is None and t.tiles and t.block == rng[0].size:
                        rng = [rng[0].shifted(t.tiles)]
                ts = [t for t in ts if t.rng is not None or not (t.tiles and t.block == rng[0].size)]
            scal = [t.idx for t in ts if t.rng is None]
            if len(rng) > 1:
                raise _NotView(p, f"two tile offsets on one axis (stride '{stride or 1}')")
            if rng and scal:
                raise _NotView(p, f"offset '{' + '.join(scal)}' is not a whole number of {rng[0].size}-blocks")
            dims.append((stride, rng[0] if rng else None, " + ".join(scal) if scal else ""))
        nd = {d[1].ndim for d in dims if d[1] is not None}
        if len(nd) > 1:
            raise _NotView(p, "offsets of different ranks")
        if nd and sorted(d[1].axis for d in dims if d[1] is not None) != list(range(nd.pop())):
            raise _NotView(p, "a tile axis without offsets")
        unit = [d for d in dims if not d[0]]
        rest = [d for d in dims if d[0]]
        rest.sort(key=lambda d: (d[1] is not None, d[1].axis if d[1] is not None else 0))
        axes = [d[1].axis for d in rest + unit if d[1] is not None]
        if axes != sorted(axes):  # the unit-stride axis is not the last tile axis: a transposed access
            raise _NotView(p, "the contiguous axis is not the tile's last axis (a transposed access: load the "
                              "row-major tile and tl.trans it)")
        return rest + unit

    def _flat_offsets(self, p: Ptr) -> str:
        """The element offset of every lane (gather/scatter fallback), as a cuTile Python int32 tile text."""
        parts = []
        for t in p.terms:
            v = self._render(t.rng, None) if t.rng is not None else t.idx
            parts.append(f"({v}) * {t.stride}" if t.stride else f"({v})")
        return " + ".join(parts) if parts else "0"

    def _padding(self, call, a) -> str:
        if "mask" in a and "other" in a:
            return self._padding_from_other(a["other"])
        if "padding_option" in a:
            opt = _lit(a["padding_option"])
            if opt == "zero":
                return self.rules["padding"]["zero"]
            if opt == "nan":
                return self.rules["padding"]["nan"]
            if opt not in ("", None):
                raise self.problem(a["padding_option"], errors.TRITON_ACCESS, f"padding_option={opt!r}",
                                   "use 'zero' or 'nan'")
        return ""

    def _load(self, call: cst.Call) -> str:
        a = self._kw(call, ["pointer", "mask", "other", "boundary_check", "padding_option"])
        ptr = a.get("pointer")
        if ptr is None:
            raise self.problem(call, errors.TRITON_UNSUPPORTED, "tl.load without a pointer", "pass the pointer")
        for k in a:
            if k in ("cache_modifier", "eviction_policy", "volatile"):
                self.note(call, "hint", f"tl.load({k}=..) dropped (no cuTile counterpart)")
            elif k not in ("pointer", "mask", "other", "boundary_check", "padding_option"):
                raise self.problem(a[k], errors.TRITON_UNSUPPORTED, f"tl.load({k}=..)", "drop the argument")
        try:
            arr, index, shape, tshape = self._view(call, ptr, a.get("mask"), store=False)
        except _NotView as nv:
            return self._gather(call, nv, a)
        self._load_shape = tuple(tshape)
        if not tshape:  # one element: a 0-d gather (cuTile Python's element access)
            return f"ct.gather({arr}, {index[0] if len(index) == 1 else _tup(index)})"
        pad = self._padding(call, a)
        text = f"ct.load({arr}, index={_tup(index)}, shape={_tup(shape)}"
        if pad:
            text += f", padding_mode={pad}"
        if self._latency:
            text += f", latency={self._latency}"
        text += ")"
        return self._to_triton_shape(text, shape, tshape)

    def _to_triton_shape(self, text: str, shape: list, tshape: list) -> str:
        """A view tile -> the Triton tile: a single row of a 2-D array stays a (1, N) tile (reductions over it
        keep the row axis); other unit view dims are reshaped away."""
        if shape == tshape:
            return text
        if len(tshape) == 1 and len(shape) == 2 and shape[0] == "1" and self.lift_rows:
            self.lifted_loads.add(text)
            return text
        return f"ct.reshape({text}, {_tup(tshape)})"

    def _store(self, call: cst.Call) -> str:
        a = self._kw(call, ["pointer", "value", "mask", "boundary_check"])
        if "pointer" not in a or "value" not in a:
            raise self.problem(call, errors.TRITON_UNSUPPORTED, "tl.store without pointer and value",
                               "pass both")
        for k in a:
            if k in ("cache_modifier", "eviction_policy"):
                self.note(call, "hint", f"tl.store({k}=..) dropped (no cuTile counterpart)")
            elif k not in ("pointer", "value", "mask", "boundary_check"):
                raise self.problem(a[k], errors.TRITON_UNSUPPORTED, f"tl.store({k}=..)", "drop the argument")
        try:
            arr, index, shape, tshape = self._view(call, a["pointer"], a.get("mask"), store=True)
        except _NotView as nv:
            return self._scatter(call, nv, a)
        val = self._stored(a["value"], arr)
        if not tshape:  # one element: a 0-d scatter
            return f"ct.scatter({arr}, {index[0] if len(index) == 1 else _tup(index)}, {val})"
        if shape != tshape:
            lifted_row = len(tshape) == 1 and len(shape) == 2 and shape[0] == "1" and self.lift_rows
            if not (lifted_row and self._lifted_text(val)):
                val = f"ct.reshape({val}, {_tup(shape)})"
        return f"ct.store({arr}, index={_tup(index)}, tile={val})"

    def _fallback(self, call: cst.Call, nv: "_NotView", a: dict, store: bool) -> tuple[str, str]:
        """(array, flat offsets) of a pointer access that is not a tile at a block offset: the array is read
        element-wise (ct.gather / ct.scatter on the flat 1-D tensor; docs/porting.md §3 "tl.load(p + offs, mask)")."""
        p = nv.ptr
        if not isinstance(p, Ptr) or not p.base:
            raise self.problem(a["pointer"], errors.TRITON_ACCESS, f"'{_code(a['pointer'])}' is not a pointer",
                               "add offsets to a pointer parameter")
        if any(t.rng is not None and t.rng.ndim > 1 for t in p.terms) and not store:
            raise self.problem(a["pointer"], errors.TRITON_ACCESS, f"'{_code(a['pointer'])}' is not a tile at a block "
                               f"offset ({nv.why}) and 2-D element-wise loads have no rule (cutile 0.3.1)",
                               "write the pointer as x + pid * BLOCK + tl.arange(0, BLOCK), "
                               "x + row * stride + tl.arange(0, N), or use tl.make_block_ptr / a tensor descriptor")
        if p.base in self.descs:
            raise self.problem(a["pointer"], errors.TRITON_ACCESS, f"descriptor '{p.base}' used as a pointer",
                               "use desc.load / desc.store")
        if p.base not in self.flat:
            self.flat.add(p.base)
        self.note(call, "view", f"'{_code(a['pointer'])}' is not a tile at a block offset ({nv.why}): "
                  f"{p.base} is read element-wise as a flat 1-D tensor ({'ct.scatter' if store else 'ct.gather'})")
        return p.base, self._flat_offsets(p)

    def _stored(self, node, arr: str) -> str:
        """A stored value: tl.store converts it to the pointer's element type (an explicit cast unless the value
        already is one to that type)."""
        text = self.ex(node)
        if self._is_tile_expr(node) and self._f32_text(text) and not text.endswith(f", {arr}.dtype)"):
            return f"ct.astype({text}, {arr}.dtype)"
        return text

    def _f32_text(self, text: str) -> bool:
        """The value is (or may be) f32 by Triton's promotion: a cast to f32, an f32 variable, an f32 argument."""
        return "ct.float32" in text or any(re.search(rf"\b{re.escape(v)}\b", text)
                                           for v in self.f32_vars | self.floats | self.helpers)

    def _gather(self, call: cst.Call, nv: "_NotView", a: dict) -> str:
        arr, offs = self._fallback(call, nv, a, store=False)
        text = f"ct.gather({arr}, {offs}"
        if "mask" in a:
            text += f", mask={self.ex(a['mask'])}"
            if "other" in a:
                text += f", padding_value={self.ex(a['other'])}"
        if self._latency:
            text += f", latency={self._latency}"
        return text + ")"

    def _scatter(self, call: cst.Call, nv: "_NotView", a: dict) -> str:
        arr, offs = self._fallback(call, nv, a, store=True)
        text = f"ct.scatter({arr}, {offs}, {self._stored(a['value'], arr)}"
        if "mask" in a:
            text += f", mask={self.ex(a['mask'])}"
        return text + ")"

    def _desc_call(self, node, meth: str) -> Desc | None:
        """The descriptor of ``d.<meth>(..)`` (a tl.make_tensor_descriptor value or a descriptor parameter)."""
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == meth
                and isinstance(node.func.value, cst.Name)):
            return None
        name = node.func.value.value
        v = self.env.get(name)
        if isinstance(v, Desc):
            return v
        if name in self.descs and v is None:
            return Desc(name, self.descs[name])
        return None

    def _desc_access(self, node: cst.Call, desc: Desc, store: bool) -> str:
        """``desc.load([o0, ..])`` / ``desc.store([o0, ..], v)``: element offsets -> tile indices
        (docs/porting.md §5); out-of-bounds lanes read zero (TMA)."""
        a = [x.value for x in node.args]
        if not a or not isinstance(a[0], (cst.List, cst.Tuple)) or len(a) != (2 if store else 1):
            raise self.problem(node, errors.TRITON_ACCESS, f"descriptor {'store' if store else 'load'} arguments",
                               "write desc.load([o0, o1]) / desc.store([o0, o1], value)")
        offs = [e.value for e in a[0].elements]
        if len(offs) != len(desc.block):
            raise self.problem(a[0], errors.TRITON_ACCESS, "descriptor offsets do not match its block rank",
                               "give one offset per dimension")
        index = [self._tile_index(o, b) for o, b in zip(offs, desc.block)]
        self._load_shape = tuple(desc.block)
        if store:
            return f"ct.store({desc.base}, index={_tup(index)}, tile={self.ex(a[1])})"
        text = f"ct.load({desc.base}, index={_tup(index)}, shape={_tup(list(desc.block))}, " \
               f"padding_mode={self.rules['padding']['zero']}"
        if self._latency:
            text += f", latency={self._latency}"
        return text + ")"

    def _dot(self, call: cst.Call, s, acc: str | None = None) -> str:
        a = self._kw(call, ["input", "other", "acc"])
        for k in a:
            if k == "input_precision":
                prec = _lit(a[k])
                if prec not in ("tf32", None):
                    raise self.problem(a[k], errors.TRITON_UNSUPPORTED, f"tl.dot(input_precision={prec!r})",
                                       "only the default tf32 precision has a cuTile counterpart")
            elif k == "allow_tf32":
                if _lit(a[k]) is not True:
                    raise self.problem(a[k], errors.TRITON_UNSUPPORTED, "tl.dot(allow_tf32=False)",
                                       "only the default tf32 precision has a cuTile counterpart")
            elif k == "out_dtype":
                if self.tf.dotted(a[k]) != "tl.float32":
                    raise self.problem(a[k], errors.TRITON_UNSUPPORTED, "tl.dot(out_dtype) other than tl.float32",
                                       "accumulate in tl.float32")
            elif k not in ("input", "other", "acc"):
                raise self.problem(a[k], errors.TRITON_UNSUPPORTED, f"tl.dot({k}=..)", "drop the argument")
        if "acc" in a:
            if acc is not None:
                raise self.problem(call, errors.TRITON_UNSUPPORTED, "acc += tl.dot(.., acc)", "write acc = tl.dot(a, b, acc)")
            acc = self.ex(a["acc"])
        if acc is None:  # tl.dot(a, b): a zero f32 accumulator of the product's shape
            sa, sb = self._shape_of(a["input"]), self._shape_of(a["other"])
            if not (sa and sb and len(sa) == 2 and len(sb) == 2):
                raise self.problem(call, errors.TRITON_UNSUPPORTED, "tl.dot without an accumulator, operand shapes "
                                   "unknown", "write acc = tl.dot(a, b, acc) with acc = tl.zeros(.., dtype=tl.float32)")
            acc = f"ct.full(({sa[0]}, {sb[1]}), 0, dtype=ct.float32)"
        lhs, rhs = self.ex(a["input"]), self.ex(a["other"])
        src = self._origin_array(a["input"])
        self.note(call, "dot", "tl.dot -> ct.mma with an f32 accumulator; f32 inputs go through tf32 "
                  "(Triton's default input_precision)")
        dt = f"(ct.tfloat32 if {src}.dtype == ct.float32 else {src}.dtype)" if src else None
        if dt is None:
            raise self.problem(call, errors.TRITON_UNSUPPORTED, "tl.dot operand not loaded from a kernel parameter",
                               "tl.dot the tiles loaded from the input tensors")
        return f"ct.mma(ct.astype({lhs}, {dt}), ct.astype({rhs}, {dt}), {acc})"

    def _origin_array(self, node) -> str:
        """The kernel array a tile's values come from (through .to(), tl.trans / .trans(), copies)."""
        if isinstance(node, cst.Name):
            return self.origins.get(node.value, "")
        if isinstance(node, cst.Call):
            f = self.tf.dotted(node.func)
            if f in ("tl.trans", "tl.permute") and node.args:
                return self._origin_array(node.args[0].value)
            if _is_method(node, "to") and node.args:  # x.to(v.dtype): the values are v's type now
                d = node.args[0].value
                if isinstance(d, cst.Attribute) and d.attr.value == "dtype" and isinstance(d.value, cst.Name):
                    return self._origin_array(d.value) or (d.value.value if d.value.value in self.pointers else "")
                return self._origin_array(node.func.value)
            if _is_method(node, "trans"):
                return self._origin_array(node.func.value)
        return ""

    def _last_load_shape(self, value) -> tuple[str, ...] | None:
        """x = tl.load(..) / desc.load(..) (optionally .to(..)): the shape that load produced."""
        while _is_method(value, "to"):
            value = value.func.value
        if isinstance(value, cst.Call) and (self.tf.dotted(value.func) == "tl.load" or _is_method(value, "load")):
            return self._load_shape
        return None

    def _shape_of(self, node) -> tuple[str, ...] | None:
        """The Triton tile shape of a value the rewrite can see (loads, zeros/full, .to(), transposes)."""
        if isinstance(node, cst.Name):
            return self.shapes.get(node.value)
        if isinstance(node, cst.Call):
            f = self.tf.dotted(node.func)
            if f == "tl.trans" and node.args:
                sh = self._shape_of(node.args[0].value)
                return tuple(reversed(sh)) if sh else None
            if _is_method(node, "trans"):
                sh = self._shape_of(node.func.value)
                return tuple(reversed(sh)) if sh else None
            if _is_method(node, "to"):
                return self._shape_of(node.func.value)
            if f in ("tl.zeros", "tl.full") and node.args and isinstance(node.args[0].value, (cst.Tuple, cst.List)):
                return tuple(self.ex(e.value) for e in node.args[0].value.elements)
        return None

    # -- expressions ---------------------------------------------------------------------------

    def _constexprs(self) -> set[str]:
        return {n for n, k, _ in self.params if k == "constexpr"}

    def _scalar_params(self) -> set[str]:
        return {n for n, k, _ in self.params if k == "scalar" and n not in self.pointers}

    def _is_tile_expr(self, node) -> bool:
        """Memoised per node and set of tile variables: the scalar/float checks ask it for every sub-expression
        of an operator chain, which re-walked each subtree (cubic in the chain's length)."""
        key = (id(node), frozenset(self.tile_vars))
        hit = self._tile_memo.get(key)
        if hit is not None and hit[0] is node:
            return hit[1]
        if isinstance(node, cst.BinaryOperation):  # compositional: each link of a chain is looked at once
            out = self._is_tile_expr(node.left) or self._is_tile_expr(node.right)
        elif isinstance(node, cst.UnaryOperation):
            out = self._is_tile_expr(node.expression)
        else:
            out = self._is_tile_expr_walk(node)
        self._tile_memo[key] = (node, out)  # (the node is kept alive: its id cannot be reused)
        return out

    def _is_tile_expr_walk(self, node) -> bool:
        found = []
        tf = self.tf
        tiles = self.tile_vars

        class V(cst.CSTVisitor):
            def visit_Call(self, n):
                f = tf.dotted(n.func)
                if f and f.startswith("tl.") and f not in ("tl.program_id", "tl.num_programs", "tl.cdiv"):
                    found.append(f)
                if isinstance(n.func, cst.Attribute) and n.func.attr.value == "to":
                    r = n.func.value  # pid.to(tl.int64) / n.to(tl.float32): a scalar stays a scalar
                    scalar = (isinstance(r, cst.Name) and r.value not in tiles or isinstance(r, cst.Call)
                              and tf.dotted(r.func) in ("tl.program_id", "tl.num_programs"))
                    if not scalar:
                        found.append("to")

            def visit_Name(self, n):
                if n.value in tiles:
                    found.append(n.value)

        node.visit(V())
        return bool(found)

    def _lifted_text(self, text: str) -> bool:
        return any(t in text for t in self.lifted_loads) or any(re.search(rf"\b{re.escape(v)}\b", text) for v in self.lifted)

    def _paren(self, node) -> str:
        t = self.ex(node)
        return t if isinstance(node, (cst.Name, cst.Call, cst.Integer, cst.Float, cst.Attribute)) else f"({t})"

    def ex(self, node) -> str:
        """The cuTile Python text of an ordinary (tile or scalar) value (``ctrs translate --llm``: an expression
        without a rule becomes LLM_PLACEHOLDER, a ct.* call the cuTile front end hands to the fallback's hook)."""
        if not getattr(self.tf, "llm", False):
            return self._ex(node)
        try:
            return self._ex(node)
        except _Problem as p:
            if p.err.code not in (errors.TRITON_UNSUPPORTED, errors.NO_RULE):
                raise
            return LLM_PLACEHOLDER

    def _ex(self, node) -> str:
        if isinstance(node, cst.Name):
            n = node.value
            if n in self.subst:
                return self.subst[n]
            v = self.env.get(n)
            if v is not None:
                return self._render(v, node)
            return n
        if isinstance(node, (cst.Integer, cst.Float)):
            return node.value
        if isinstance(node, cst.SimpleString):
            return node.value
        if isinstance(node, cst.UnaryOperation):
            if isinstance(node.operator, cst.Minus):
                return f"-{self._paren(node.expression)}"
            if isinstance(node.operator, cst.Not):
                return f"not {self._paren(node.expression)}"
            raise self.problem(node, errors.TRITON_UNSUPPORTED, f"unary '{_code(node.operator)}'", "rewrite it")
        if isinstance(node, cst.BinaryOperation):
            sym = _OPS.get(type(node.operator))
            if sym is None:
                raise self.problem(node, errors.TRITON_UNSUPPORTED, f"operator '{_code(node.operator)}'", "rewrite it")
            self._float_scalars(node)
            left, right = self._paren(node.left), self._paren(node.right)
            if sym in "+-*/" and len(sym) == 1:  # Triton promotes a tile meeting an f32 scalar argument to f32
                if self._is_float_param(node.right) and self._is_tile_expr(node.left):
                    left = f"ct.astype({left}, ct.float32)"
                elif self._is_float_param(node.left) and self._is_tile_expr(node.right):
                    right = f"ct.astype({right}, ct.float32)"
            return f"{left} {sym} {right}"
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            c = node.comparisons[0]
            sym = _CMP.get(type(c.operator))
            for side, other in ((node.left, c.comparator), (c.comparator, node.left)):  # rand > p: p is a float
                if (isinstance(side, cst.Name) and side.value in self._scalar_params() and side.value not in self.subst
                        and self._is_tile_expr(other) and self._f32_text(self.ex(other))):
                    self.floats.add(side.value)
            if sym is None:
                raise self.problem(node, errors.TRITON_UNSUPPORTED, f"comparison '{_code(node)}'",
                                   "use < <= > >= == != (optional pointers: split the kernel per variant)")
            return f"{self._paren(node.left)} {sym} {self._paren(c.comparator)}"
        if isinstance(node, cst.BooleanOperation):
            op = "and" if isinstance(node.operator, cst.And) else "or"
            return f"{self._paren(node.left)} {op} {self._paren(node.right)}"
        if isinstance(node, (cst.Tuple, cst.List)):  # shapes: (M, N) or [M, N]
            items = [self.ex(e.value) for e in node.elements]
            return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
        if isinstance(node, cst.Attribute):
            return self._attribute(node)
        if isinstance(node, cst.Call):
            return self._call(node)
        if isinstance(node, cst.Subscript):
            v = self.abstract(node)
            if v is not None:
                return self._render(v, node)
            if self._placement(node) is None:
                raise self.problem(node, errors.TRITON_UNSUPPORTED, f"subscript '{_code(node)}'",
                                   "only x[:, None] / x[None, :] broadcasting is supported")
            sl = ", ".join(":" if isinstance(e.slice, cst.Slice) else "None" for e in node.slice)
            return f"{self._paren(node.value)}[{sl}]"
        if isinstance(node, cst.IfExp):
            return f"({self.ex(node.body)} if {self.ex(node.test)} else {self.ex(node.orelse)})"
        raise self.problem(node, errors.TRITON_UNSUPPORTED, f"expression '{_code(node)}'", "rewrite it")

    def _is_float_param(self, node) -> bool:
        """An f32 scalar argument, or scalar arithmetic on one (``1 - p``)."""
        if isinstance(node, cst.Name):
            return node.value in self.floats and node.value not in self.subst
        if isinstance(node, cst.BinaryOperation) and not self._is_tile_expr(node):
            return self._is_float_param(node.left) or self._is_float_param(node.right)
        return False

    def _float_scalars(self, node: cst.BinaryOperation) -> None:
        """A scalar parameter meeting a tile (or a float literal) in arithmetic is a runtime float."""
        for side, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(side, cst.BinaryOperation) and not self._is_tile_expr(side) and self._is_tile_expr(other):
                self._float_scalars(cst.BinaryOperation(side.left, cst.Add(), other))  # x / (1 - p): p is a float
                self._float_scalars(cst.BinaryOperation(side.right, cst.Add(), other))
            if isinstance(side, cst.Name) and side.value in self._scalar_params() and side.value not in self.subst:
                if isinstance(other, cst.Float) or self._is_tile_expr(other):
                    self.floats.add(side.value)
            elif isinstance(side, cst.Name) and side.value in self._constexprs() and side.value not in self.int_consts:
                if (isinstance(other, cst.Float) or self._is_tile_expr(other) and self._f32_text(self.ex(other))
                        or self._is_float_param(other)):
                    self.float_consts.add(side.value)  # a float constexpr (eps, scales): Constant[float]

    def _render(self, v, node) -> str:
        if isinstance(v, Scaled):
            return f"({v.idx} * {v.block})"
        if isinstance(v, Rng):
            r = f"ct.arange({v.size}, dtype=ct.int32)"
            if v.base:
                b = v.base if re.fullmatch(r"\w+", v.base) else f"({v.base})"
                r = f"({b} * {v.size} + {r})"
            if v.ndim == 2:
                r = f"{r}[:, None]" if v.axis == 0 else f"{r}[None, :]"
            return r
        if isinstance(v, Ptr) and not v.base:  # an offset used as a value
            return f"({self._flat_offsets(v)})"
        if isinstance(v, Mask):  # a mask used as a value (tl.where(mask, ..)): the bound checks as a tile
            out = []
            for part in v.parts:
                bound = self.subst.get(part.bound, part.bound) if part.kind != "expr" else part.bound
                out.append(f"({self._render(part.rng.shifted(part.shift), node)} < {bound})")
            return " & ".join(out) if len(out) == 1 else "(" + " & ".join(out) + ")"
        what = node if node is not None else v
        raise self.problem(node, errors.TRITON_ACCESS, f"'{_code(what) if node is not None else v}' "
                           f"({type(v).__name__.lower()}) used as a value",
                           "use pointers and descriptors only in tl.load / tl.store / .load / .store")

    def _dtype(self, node) -> str:
        d = self.tf.dotted(node)
        if d in self.rules["dtypes"]:
            return self.rules["dtypes"][d]
        if isinstance(node, cst.Name) and node.value in self.dtypes:
            return self.dtypes[node.value]
        if isinstance(node, cst.Attribute) and node.attr.value == "dtype" and isinstance(node.value, cst.Name):
            d = self.env.get(node.value.value)
            if isinstance(d, Desc) or node.value.value in self.descs and d is None:
                return f"{d.base if d else node.value.value}.dtype"  # a descriptor's element type: its tensor's
        if (isinstance(node, cst.Attribute) and node.attr.value == "dtype" and isinstance(node.value, cst.Name)
                and (node.value.value in self.tile_vars or node.value.value in self.pointers)):
            return f"{self.ex(node.value)}.dtype"  # the dtype of a tile (or of the tensor a pointer points into)
        if (isinstance(node, cst.Attribute) and node.attr.value == "element_ty" and isinstance(node.value, cst.Attribute)
                and node.value.attr.value == "dtype" and isinstance(node.value.value, cst.Name)):
            return f"{node.value.value.value}.dtype"  # y.dtype.element_ty -> y.dtype
        chain = frontend_cutile.attr_chain(node)
        if chain and len(chain[1]) == 3 and chain[1] == ["type", "block_type", "element_ty"] and chain[0] in self.descs:
            return f"{chain[0]}.dtype"  # a descriptor's element type: the tensor's dtype
        raise self.problem(node, errors.TRITON_UNSUPPORTED, f"dtype '{_code(node)}'",
                           "use a tl.<dtype> name or <pointer>.dtype.element_ty")

    def _attribute(self, node: cst.Attribute) -> str:
        d = self.tf.dotted(node)
        if d in self.rules["dtypes"] or node.attr.value == "element_ty":
            return self._dtype(node)
        if node.attr.value == "dtype" and isinstance(node.value, cst.Name) and node.value.value in self.descs:
            return f"{node.value.value}.dtype"
        raise self.problem(node, errors.TRITON_UNSUPPORTED, f"attribute '{_code(node)}'", "rewrite it")

    def _call(self, node: cst.Call) -> str:
        f = self.tf.dotted(node.func)
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "to" and (f is None or not f.startswith("tl.")):
            if len(node.args) != 1:
                raise self.problem(node, errors.TRITON_UNSUPPORTED, ".to() with extra arguments",
                                   "write x.to(dtype)")
            dt = self._dtype(node.args[0].value)
            if dt in ("ct.int64", "ct.int32") and not self._is_tile_expr(node.func.value):
                self.note(node, "hint", f"scalar .to({dt.replace('ct.', 'tl.')}) dropped: index arithmetic stays i32 "
                          "(views address by tile index)")
                return self.ex(node.func.value)
            return f"ct.astype({self.ex(node.func.value)}, {dt})"
        desc = self._desc_call(node, "load")
        if desc is not None:
            return self._desc_access(node, desc, store=False)
        if self._desc_call(node, "store") is not None:
            raise self.problem(node, errors.TRITON_UNSUPPORTED, "descriptor store inside an expression",
                               "call desc.store(..) as a statement")
        if isinstance(node.func, cst.Attribute) and (f is None or not f.startswith("tl.")):
            meth = node.func.attr.value
            if meth == "reshape":
                shape = node.args[0].value if len(node.args) == 1 else cst.Tuple([cst.Element(a.value) for a in node.args])
                return f"ct.reshape({self.ex(node.func.value)}, {self.ex(shape)})"
            if meth in ("trans", "T"):
                return f"ct.transpose({self.ex(node.func.value)})"
        helper = self.rules.get("helpers", {}).get(f)
        if helper is not None:
            a = self._kw(node, list(helper["args"]) + ["n_rounds"])
            if "n_rounds" in a and _lit(a["n_rounds"]) != 10:
                raise self.problem(a["n_rounds"], errors.TRITON_UNSUPPORTED, f"{f}(n_rounds={_code(a['n_rounds'])})",
                                   "use the default 10 rounds")
            missing = [k for k in helper["args"] if k not in a]
            if missing:
                raise self.problem(node, errors.TRITON_UNSUPPORTED, f"{f} without {', '.join(missing)}",
                                   f"call {f}({', '.join(helper['args'])})")
            self.helpers.add(helper["name"])
            self.note(node, "helper", helper["note"])
            return f"{helper['name']}({', '.join(self.ex(a[k]) for k in helper['args'])})"
        unsupported = self.rules.get("unsupported", {})
        if f in unsupported:
            raise self.problem(node, errors.TRITON_UNSUPPORTED, f"'{f}' is outside the supported Triton subset",
                               unsupported[f]["hint"])
        if f == "tl.load":
            return self._load(node)
        if f == "tl.dot":
            return self._dot(node, None)
        if f == "tl.cast":
            a = self._kw(node, ["input", "dtype"])
            return f"ct.astype({self.ex(a['input'])}, {self._dtype(a['dtype'])})"
        if f in ("tl.zeros", "tl.full"):
            a = self._kw(node, ["shape", "value", "dtype"] if f == "tl.full" else ["shape", "dtype"])
            fill = self.ex(a["value"]) if f == "tl.full" else "0"
            return f"ct.full({self.ex(a['shape'])}, {fill}, dtype={self._dtype(a['dtype'])})"
        if f == "tl.cdiv":
            a = [x.value for x in node.args]
            if len(a) == 2 and isinstance(a[0], cst.Name) and a[0].value in self.extents:
                arr, axis, block = self.extents[a[0].value]
                if block[axis] == _code(a[1]).strip():
                    self.note(node, "loop", f"tl.cdiv({a[0].value}, {block[axis]}) -> ct.num_tiles({arr}, axis={axis})")
                    return f"ct.num_tiles({arr}, axis={axis}, shape={_tup(list(block))})"
        if f == "tl.where" and len(node.args) == 3 and not any(self._is_tile_expr(a.value) for a in node.args):
            c, a, b = (self.ex(x.value) for x in node.args)  # all scalars: a scalar select
            return f"({a} if {c} else {b})"
        if f in self.rules["reductions"]:
            a = self._kw(node, ["input", "axis"])
            x = a["input"]
            xt = self.ex(x)
            if "axis" not in a or _lit(a["axis"]) is None:
                raise self.problem(node, errors.TRITON_UNSUPPORTED, f"{f} without a literal axis", "pass axis=<int>")
            axis = _lit(a["axis"])
            keep = bool(_lit(a["keep_dims"])) if "keep_dims" in a else False
            if self._lifted_text(xt):
                if axis != 0:
                    raise self.problem(node, errors.TRITON_UNSUPPORTED, f"{f} over axis {axis} of a row tile",
                                       "reduce a row with axis=0")
                axis, keep = 1, True  # the row is a (1, N) tile: reduce axis 1, keep (1, 1) (broadcasts like a scalar)
            return f"{self.rules['reductions'][f]}({xt}, axis={axis}, keepdims={keep})"
        if f in self.rules.get("composite", {}):
            return self.rules["composite"][f].format(x=self.ex(node.args[0].value))
        if f in self.rules["calls"]:
            args = []
            for a in node.args:
                if a.keyword is not None and a.keyword.value == "axis" and f in ("tl.program_id", "tl.num_programs"):
                    args.append(self.ex(a.value))
                    continue
                if a.keyword is not None:
                    raise self.problem(a, errors.TRITON_UNSUPPORTED, f"{f}({a.keyword.value}=..)", "drop the argument")
                args.append(self.ex(a.value))
            return f"{self.rules['calls'][f]}({', '.join(args)})"
        if f == "tl.arange":
            v = self.abstract(node)
            if v is not None:
                return self._render(v, node)
        if f and f.startswith("tl."):
            raise self.problem(node, errors.NO_RULE, f"no rule for '{f}'",
                               f"add an entry for {f} to rules/triton.toml or port this kernel by hand")
        if f == "float" and len(node.args) == 1 and _lit(node.args[0].value) in ("inf", "-inf"):
            return "math.inf" if _lit(node.args[0].value) == "inf" else "-math.inf"
        if f in ("min", "max") and len(node.args) == 2:
            return f"{f}({self.ex(node.args[0].value)}, {self.ex(node.args[1].value)})"
        raise self.problem(node, errors.TRITON_UNSUPPORTED, f"call to '{_code(node.func)}'",
                           "inline the helper (only tl.* calls are supported in a Triton kernel)")


def padding_key(other) -> str | None:
    """The padding a load's ``other=`` value means (zero, neg_inf, pos_inf, nan; rules/triton.toml [padding]), or
    None (shared with the typed-IR front end, frontends/triton/)."""
    v = _lit(other)
    text = _code(other).replace(" ", "").replace("'", '"')
    key = None
    if v is not None and v == 0:
        key = "zero"
    elif text in ('-float("inf")', "float(\"-inf\")", "-math.inf", "-tl.inf"):
        key = "neg_inf"
    elif text in ('float("inf")', "math.inf"):
        key = "pos_inf"
    elif text in ('float("nan")', "math.nan"):
        key = "nan"
    return key


def _tup(items) -> str:
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def _code(node) -> str:
    return cst.Module([]).code_for_node(node)


# ---------------------------------------------------------------------------------------------- passes


def _check_signatures(tf: TritonFile, fn: cst.FunctionDef) -> None:
    """Every tl.* call of the kernel binds to its signature (rules/triton.toml [signatures]) before any pass
    reads its arguments: CTRS-E107 with Python's TypeError text otherwise."""
    table = load_rules().get("signatures", {})
    calls: list[cst.Call] = []

    class V(cst.CSTVisitor):
        def visit_Call(self, node):
            calls.append(node)

    fn.visit(V())
    for call in calls:
        f = tf.dotted(call.func)
        bad = signatures.check_call(f, table.get(f), call, "triton") if f else None
        if bad:
            raise errors.CtrsError(errors.CALL_SIGNATURE, bad, f"Triton signature: {signatures.usage(f, table[f])}",
                                   tf.loc(call))


def _rewrite(tf: TritonFile, fn: cst.FunctionDef, collect: bool = False) -> KernelRewrite:
    """Two passes: the first learns pointer parameters, extents and dropped parameters; the second emits."""
    _check_signatures(tf, fn)
    prior = None
    descs = _descriptor_params(tf, fn)
    pointers = _pointer_params(tf, fn) | set(descs)
    unknown = sorted(n for n, b in descs.items() if b is None)
    for _ in range(4):
        kr = KernelRewrite(tf, fn, prior, collect=True)
        kr.pointers |= pointers
        kr.descs = {n: b for n, b in descs.items() if b is not None}
        for n in unknown:
            p = next(p for p in fn.params.params if p.name.value == n)
            kr._report(kr.problem(p, errors.TRITON_ACCESS, f"tensor descriptor parameter '{n}': block shape unknown",
                                  f"add a comment `# ctrs: {n}.block_shape = (BLOCK_M, BLOCK_N)` (constexpr names) "
                                  "to the kernel file"))
        kr.origins = _origins(tf, fn)
        kr.run()
        if prior is not None and kr.flat != prior.flat:  # arrays now accessed element-wise: relearn their facts
            prior = KernelRewrite(tf, fn, None, collect=True)
            prior.flat, prior.pointers, prior.floats = set(kr.flat), set(kr.pointers), set(kr.floats)
            continue
        if prior is not None and (kr.subst, kr.dropped, kr.pointers, kr.floats, kr.flat, kr.float_consts) == \
                (prior.subst, prior.dropped, prior.pointers, prior.floats, prior.flat, prior.float_consts):
            break
        prior = kr
    if not collect and kr.problems:
        raise kr.problems[0]
    for name, kind, p in kr.params:
        if name in kr.subst or name in kr.dropped:
            continue
        used = any(re.search(rf"\b{re.escape(name)}\b", t) for v in kr.lines.values() for _, t in v)
        if kind == "scalar" and name not in kr.pointers and not used:
            kr.note(p, "param", f"'{name}' is unused after the conversion: kept as a runtime parameter")
    return kr


def _pointer_params(tf: TritonFile, fn: cst.FunctionDef) -> set[str]:
    """Parameters used as the base of a tl.load / tl.store / tl.atomic_* pointer or of a block pointer."""
    params = {p.name.value for p in fn.params.params
              if not (p.annotation and tf.dotted(p.annotation.annotation) == "tl.constexpr")}
    local: dict[str, list] = {}
    heads: list = []

    class V(cst.CSTVisitor):
        def visit_Assign(self, node):
            if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
                local.setdefault(node.targets[0].target.value, []).append(node.value)

        def visit_Call(self, node):
            f = tf.dotted(node.func)
            if (f in ("tl.load", "tl.store", "tl.make_block_ptr") or (f or "").startswith("tl.atomic_")) and node.args:
                heads.append(node.args[0].value)

    fn.body.visit(V())

    def roots(n, depth=0) -> set[str]:
        if depth > 16:
            return set()
        if isinstance(n, cst.Name):
            if n.value in params:
                return {n.value}
            return set().union(*[roots(v, depth + 1) for v in local.get(n.value, [])])
        if isinstance(n, cst.BinaryOperation) and isinstance(n.operator, cst.Add):  # p + offs / offs + p
            return roots(n.left, depth + 1) or roots(n.right, depth + 1)
        if isinstance(n, cst.BinaryOperation) and isinstance(n.operator, cst.Subtract):  # p - k: only p
            return roots(n.left, depth + 1)
        if isinstance(n, cst.Call) and tf.dotted(n.func) == "tl.make_block_ptr" and n.args:
            return roots(n.args[0].value, depth + 1)
        return set()

    out: set[str] = set()
    for h in heads:
        out |= roots(h)
    return out


_PRAGMA_RE = re.compile(r"#\s*ctrs:\s*(\w+)\.block_shape\s*=\s*[\[(]([^\])]*)[\])]")


def _descriptor_params(tf: TritonFile, fn: cst.FunctionDef) -> dict[str, tuple[str, ...] | None]:
    """Parameters used as tensor descriptors (``P.load([..])`` / ``P.store([..], v)``) -> their block shape, from
    (1) a ``# ctrs: P.block_shape = (A, B)`` comment, (2) an autotune pre_hook ``nargs["P"].block_shape = [..]``,
    (3) the ``TensorDescriptor(.., block_shape=[..])`` / ``TensorDescriptor.from_tensor(t, [..])`` passed as P
    at a launch ``kernel[grid](..)`` in the same file. Entries must be int literals or the kernel's constexpr
    names (None: not found)."""
    names = [p.name.value for p in fn.params.params]
    consts = {p.name.value for p in fn.params.params
              if p.annotation and tf.dotted(p.annotation.annotation) == "tl.constexpr"}
    used: set[str] = set()
    alias: dict[str, str] = {}

    class Use(cst.CSTVisitor):
        def visit_Assign(self, node):
            if (len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name) and isinstance(node.value, cst.Name)
                    and node.value.value in names):
                alias[node.targets[0].target.value] = node.value.value

        def visit_Call(self, node):
            f = node.func
            if isinstance(f, cst.Attribute) and f.attr.value in ("load", "store") and isinstance(f.value, cst.Name):
                r = alias.get(f.value.value, f.value.value)
                if r in names:
                    used.add(r)

    fn.body.visit(Use())
    if not used:
        return {}

    def shape_of(node) -> tuple[str, ...] | None:
        if not isinstance(node, (cst.List, cst.Tuple)):
            return None
        out = []
        for e in node.elements:
            v = e.value
            if isinstance(v, (cst.Integer, cst.Name)):  # a host name: resolved through the launch (as_consts)
                out.append(v.value)
            else:
                return None
        return tuple(out)

    def as_consts(sh: tuple[str, ...], call) -> tuple[str, ...] | None:
        """Block-shape entries as the kernel's constexprs: an int, a constexpr name, or a host name the launch
        passes as a constexpr (``from_tensor(A, [BM, block_k])`` with ``kernel[grid](.., BLOCK_SIZE_K=block_k)``)."""
        passed = {} if call is None else {a.value.value: a.keyword.value for a in call.args if a.keyword
                                          and a.keyword.value in consts and isinstance(a.value, cst.Name)}
        out = tuple(e if e.isdigit() or e in consts and passed.get(e, e) == e else passed.get(e) for e in sh)
        return out if all(out) else None

    found: dict[str, tuple[str, ...]] = {}
    for m in _PRAGMA_RE.finditer(tf.source):
        if m.group(1) in used:
            found.setdefault(m.group(1), tuple(x.strip() for x in m.group(2).split(",") if x.strip()))
    hooks: dict[str, tuple[str, ...]] = {}
    descs: dict[str, tuple[str, ...]] = {}  # host variable -> block shape of its TensorDescriptor
    launches: list[cst.Call] = []
    kname = fn.name.value

    class Host(cst.CSTVisitor):
        def visit_Assign(self, node):
            t = node.targets[0].target if len(node.targets) == 1 else None
            if (isinstance(t, cst.Attribute) and t.attr.value == "block_shape" and isinstance(t.value, cst.Subscript)
                    and len(t.value.slice) == 1 and isinstance(t.value.slice[0].slice, cst.Index)):
                key = _lit(t.value.slice[0].slice.value)
                sh = shape_of(node.value)
                if isinstance(key, str) and sh is not None:
                    hooks.setdefault(key, sh)
            v = node.value
            if isinstance(t, cst.Name) and isinstance(v, cst.Call):
                f = _attr(v.func)
                if f.endswith("TensorDescriptor") or f.endswith("TensorDescriptor.from_tensor"):
                    kw = {a.keyword.value: a.value for a in v.args if a.keyword}
                    pos = [a.value for a in v.args if a.keyword is None]
                    node_sh = kw.get("block_shape") or (pos[3] if f.endswith("TensorDescriptor") and len(pos) > 3
                                                        else pos[1] if len(pos) > 1 else None)
                    sh = shape_of(node_sh) if node_sh is not None else None
                    if sh is not None:
                        descs.setdefault(t.value, sh)

        def visit_Call(self, node):
            if isinstance(node.func, cst.Subscript) and _attr(node.func.value) == kname:
                launches.append(node)

    tf.module.visit(Host())
    for name in sorted(used):
        if name in found:
            continue
        if name in hooks and as_consts(hooks[name], None):
            found[name] = as_consts(hooks[name], None)
            continue
        for call in launches:
            pos = [a.value for a in call.args if a.keyword is None]
            kw = {a.keyword.value: a.value for a in call.args if a.keyword}
            i = names.index(name)
            arg = kw.get(name, pos[i] if i < len(pos) else None)
            if isinstance(arg, cst.Name) and arg.value in descs and as_consts(descs[arg.value], call):
                found[name] = as_consts(descs[arg.value], call)
                break
    return {n: found.get(n) for n in sorted(used)}


def _origins(tf: TritonFile, fn: cst.FunctionDef) -> dict[str, str]:
    """name -> the pointer parameter a tile was loaded from (for tl.dot's tf32 cast), through .to() and copies."""
    out: dict[str, str] = {}

    class V(cst.CSTVisitor):
        def visit_Assign(self, node):
            if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
                return
            name = node.targets[0].target.value
            v = node.value
            if isinstance(v, cst.Call) and tf.dotted(v.func) == "tl.load" and v.args:
                p = v.args[0].value
                while isinstance(p, cst.BinaryOperation):
                    p = p.left
                if isinstance(p, cst.Name):
                    src = blocks.get(p.value, p.value)
                    out[name] = src
            elif isinstance(v, cst.Call) and tf.dotted(v.func) == "tl.make_block_ptr" and v.args:
                b = v.args[0].value
                if isinstance(b, cst.Name):
                    blocks[name] = b.value

    blocks: dict[str, str] = {}
    fn.body.visit(V())
    return out


def _kernel_text(kr: KernelRewrite) -> tuple[int, dict[int, str]]:
    """cuTile Python lines of one kernel: decorator + signature + body, keyed by source line."""
    fn = kr.fn
    tf = kr.tf
    first = tf.line(fn.decorators[0]) if fn.decorators else tf.line(fn)
    def_line = tf.line(fn.name)
    out: dict[int, str] = {}
    params = []
    for name, kind, _p in kr.params:
        if name in kr.subst or name in kr.dropped:
            continue
        if kind == "constexpr":
            params.append(f"{name}: ct.Constant[{'float' if name in kr.float_consts else 'int'}]")
        elif name in kr.pointers:
            params.append(name)
        else:
            params.append(f"{name}: {'float' if name in kr.floats else 'int'}")
    out[first] = "@ct.kernel"
    if def_line == first:
        raise errors.CtrsError(errors.TRITON_UNSUPPORTED, "decorator and def on one line", "split them",
                               tf.loc(fn))
    out[def_line] = f"def {kr.name}({', '.join(params)}):"
    for line, items in kr.lines.items():
        indent = items[0][0]
        out[line] = "    " * indent + "; ".join(t for _, t in items)
    return first, out


def cutile_source(tf: TritonFile, rewrites: list[KernelRewrite]) -> str:
    n = len(tf.source.splitlines()) + 1
    lines = [""] * (n + 1)
    taken: set[int] = set()
    for kr in rewrites:
        first, out = _kernel_text(kr)
        last = tf.end_line(kr.fn)
        taken.update(range(first, last + 1))
        for line, text in out.items():
            lines[line] = text
    free = next((i for i in range(1, n) if i not in taken), None)
    if free is None:
        raise errors.CtrsError(errors.TRANSLATE_INPUT, "no free line for the cuTile import", "add a blank line",
                               errors.Loc(str(tf.path), 1, 1))
    lines[free] = "import cuda.tile as ct; import math"
    used = sorted(set().union(*[kr.helpers for kr in rewrites])) if rewrites else []
    return "\n".join(lines[1:]) + "\n" + "".join("\n\n" + helper_source(h) for h in used)


HELPERS_PATH = RULES_PATH.parent / "triton_helpers.py"


@cache
def helper_source(name: str) -> str:
    """The source of one function of rules/triton_helpers.py."""
    mod = cst.parse_module(HELPERS_PATH.read_text())
    fn = next((st for st in mod.body if isinstance(st, cst.FunctionDef) and st.name.value == name), None)
    if fn is None:
        raise errors.CtrsError(errors.INTERNAL, f"rules/triton_helpers.py has no function '{name}'",
                               "restore the helper named in rules/triton.toml", errors.Loc(str(HELPERS_PATH)))
    return mod.code_for_node(fn.with_changes(leading_lines=[])).rstrip() + "\n"


def _load(path: Path) -> TritonFile:
    tf = TritonFile(Path(path), frontend_cutile.read_kernel_source(path))
    if not tf.tl_names:
        raise errors.CtrsError(errors.TRANSLATE_INPUT, "no 'import triton.language as tl' in the file",
                               "Triton kernels import triton.language", errors.Loc(str(path)))
    if not tf.kernels:
        raise errors.CtrsError(errors.KERNEL_NOT_FOUND, "no @triton.jit function in the file",
                               "decorate the kernel with @triton.jit", errors.Loc(str(path)))
    return tf


def autotune_notes(tf: TritonFile, fn: cst.FunctionDef) -> list[tuple[int, str, str]]:
    out = []
    for d in fn.decorators:
        dd = d.decorator
        f = tf.dotted(dd.func) if isinstance(dd, cst.Call) else tf.dotted(dd)
        if f == "triton.autotune":
            out.append((tf.line(d), "hint", "@triton.autotune: configs -> analysis.json specialisations; num_warps "
                        "dropped (Triton-TileIR ignores it), num_stages noted (latency only where the reference IR "
                        "has it)"))
        elif f == "triton.heuristics":
            out.append((tf.line(d), "hint", "@triton.heuristics dropped: pass the computed constants at launch"))
        elif f == "triton.jit" and isinstance(dd, cst.Call):
            out.append((tf.line(d), "hint", "@triton.jit(..) options dropped"))
    return out


LLM_PLACEHOLDER = "ct.ctrs_llm_construct()"  # no rule: the fallback's answer is spliced here (--llm only)


def parse_file(path: Path, llm_hook=None):
    """(ModuleInfo, [KernelFront]) of the cuTile rewrite of a Triton file; decisions carry the Triton notes."""
    tf = _load(path)
    tf.llm = llm_hook is not None
    rewrites = [_rewrite(tf, fn) for fn in tf.kernels]
    text = cutile_source(tf, rewrites)
    info = frontend_cutile.ModuleInfo(Path(path), text)
    info.llm_hook = llm_hook
    fronts = []
    for kr, fn in zip(rewrites, info.kernels):
        front = frontend_cutile.KernelFront(info, fn)
        book = front.__dict__.setdefault("decisions", {})
        for key in [*autotune_notes(tf, kr.fn), *kr.notes]:
            book.setdefault(key, None)
        fronts.append(front)
    return info, fronts


def to_source_columns(err: errors.CtrsError, path: Path) -> None:
    """An error of the shared cuTile lowering has the line of the Triton source (the rewrite keeps lines) but a
    column of the rewritten text: past the Triton line's end it becomes the line's first non-blank column."""
    loc = err.loc
    if loc is None or not loc.line or Path(loc.file) != Path(path):
        return
    lines = Path(path).read_text(errors="replace").splitlines()
    if loc.line > len(lines):
        return
    text = lines[loc.line - 1]
    if loc.col > len(text):
        err.loc = errors.Loc(loc.file, loc.line, len(text) - len(text.lstrip()) + 1)


def rewrite_source(path: Path) -> str:
    """The cuTile Python text a Triton file is lowered through (``ctrs translate --show-cutile``; tests)."""
    tf = _load(path)
    return cutile_source(tf, [_rewrite(tf, fn) for fn in tf.kernels])


def check_subset(path: Path, lower=None) -> list[errors.CtrsError]:
    """Every construct outside the supported subset (``ctrs translate --dry-run``), in source order.

    ``lower(path)`` (translate.translate_module) runs when the rewrite is clean: the shared cuTile lowering
    may still reject something."""
    tf = _load(path)
    out = []
    for fn in tf.kernels:
        try:
            out += _rewrite(tf, fn, collect=True).problems
        except errors.CtrsError as e:  # a call that does not bind to its signature
            out.append(e)
    if not out and lower is not None:
        try:
            lower(Path(path))
        except errors.CtrsError as e:
            out.append(e)
    seen = {}
    for e in out:
        seen.setdefault(e.one_line(), e)
    return sorted(seen.values(), key=lambda e: (e.loc.line if e.loc else 0, e.loc.col if e.loc else 0))


# ---------------------------------------------------------------------------------------------- autotune


def mine_sites(path: Path, kernel_map=None) -> dict:
    """analysis.json sites of a Triton file: @triton.autotune configs (constants + num_warps/num_stages).

    The port's parameter map of a kernel: ``kernel_map(tf, fn)`` (a typed port: the typed front end's
    (kernels entry, launch map), frontends/triton/host.py; None: the kernel is not in the port), else what its
    cuTile rewrite keeps."""
    tf = _load(path)
    tf.llm = True  # only the kept parameters matter here: an expression without a rule (--llm) is no obstacle
    configs, specs, kernels, maps = [], [], {}, {}
    helpers = helper_names(tf)  # inlined into their callers (frontends/triton/inline.py): not kernels of the port
    for fn in (f for f in tf.kernels if f.name.value not in helpers):
        kname = fn.name.value
        consts = [p.name.value for p in fn.params.params
                  if p.annotation and tf.dotted(p.annotation.annotation) == "tl.constexpr"]
        got = kernel_map(tf, fn) if kernel_map is not None else None
        if got is not None:
            kernels[kname], maps[kname] = got
        elif kernel_map is None:
            kr = _rewrite(tf, fn)  # the port's parameters: what the cuTile rewrite keeps, in signature order
            kernels[kname] = [[n, kind == "constexpr"] for n, kind, _p in kr.params
                              if n not in kr.subst and n not in kr.dropped]
            maps[kname] = launch_map(tf, fn, kr)
        for d in fn.decorators:
            dd = d.decorator
            if not (isinstance(dd, cst.Call) and tf.dotted(dd.func) == "triton.autotune"):
                continue
            args = {a.keyword.value: a.value for a in dd.args if a.keyword}
            items, hints = [], []
            cfgs = args.get("configs")
            for el in (cfgs.elements if isinstance(cfgs, (cst.List, cst.Tuple)) else []):
                c = el.value
                if not (isinstance(c, cst.Call) and tf.dotted(c.func) == "triton.Config" and c.args):
                    continue
                kw = _lit(c.args[0].value)
                if not isinstance(kw, dict):
                    continue
                items.append(kw)
                hints.append({a.keyword.value: _lit(a.value) for a in c.args[1:] if a.keyword})
            key = _lit(args["key"]) if "key" in args else []
            line = tf.line(d)
            configs.append({"name": f"{kname}.autotune", "line": line, "items": items, "hints": hints,
                            "key": key})
            for i, item in enumerate(items):
                cs = {k: v for k, v in item.items() if k in consts}
                missing = [c for c in consts if c not in cs]
                specs.append({"kernel": kname, "origin": f"autotune:{kname}[{i}]", "line": line, "constants": cs,
                              "complete": not missing, "missing": missing, "grid": "",
                              "name": "site_" + "_".join(f"{k}{v}" for k, v in sorted(cs.items())),
                              "hints": hints[i]})
    return {"launches": [], "configs": configs, "specialisations": specs, "kernels": kernels, "triton": maps}


def helper_names(tf: TritonFile) -> set[str]:
    """The ``@triton.jit`` functions of the file another one of them calls by name: helpers (inlined into their
    callers by the typed front end, frontends/triton/inline.py), not kernels of the port."""
    names = {fn.name.value for fn in tf.kernels}
    out: set[str] = set()
    for fn in tf.kernels:
        me = fn.name.value

        class V(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                if isinstance(node.func, cst.Name) and node.func.value in names and node.func.value != me:
                    out.add(node.func.value)

        fn.body.visit(V())
    return out


# ---------------------------------------------------------------------------------------------- launch map


_SHAPE_RE = re.compile(r"^(\w+)\.shape\[(\d+)\]$")


def launch_map(tf: TritonFile, fn: cst.FunctionDef, kr: KernelRewrite | None = None) -> dict:
    """How each Triton parameter is fed from a spec of the cuTile counterpart (analysis.json "triton"):
    ``array`` (the tensor), ``shape``/``stride`` (``X.shape[k]`` / ``X.stride(k)``), ``constexpr`` (a
    constant), ``scalar`` (a runtime scalar), in the Triton signature's order. ``grid`` "spec": the
    spec's grid is the Triton launch grid too (program ids cover the same tiles as the counterpart's
    block ids). ``tf32``: a tl.dot on f32 inputs rounds them to tf32 (Triton's default input_precision).
    ``ties``: [bound, kind, [[array, axis], ..]] -- the axes a mask bound limits (the wrapper checks their extents)."""
    kr = kr or _rewrite(tf, fn)
    params = []
    for name, kind, _p in kr.params:
        m = _SHAPE_RE.match(kr.subst.get(name, ""))
        if kind == "constexpr" and name in kr.float_consts:  # a float constexpr: a runtime f32 of the port
            params.append({"name": name, "kind": "constexpr", "const": name, "port": "scalar"})
        elif kind == "constexpr":
            params.append({"name": name, "kind": "constexpr", "const": name})
        elif m:
            params.append({"name": name, "kind": "shape", "array": m.group(1), "dim": int(m.group(2))})
        elif name in kr.strides:
            arr, dim = kr.strides[name]
            params.append({"name": name, "kind": "stride", "array": arr, "dim": dim})
        elif name in kr.subst or name in kr.dropped:
            params.append({"name": name, "kind": "unmapped", "why": kr.dropped.get(name) or kr.subst[name]})
        elif name in kr.descs:
            params.append({"name": name, "kind": "descriptor", "array": name, "block": list(kr.descs[name])})
        elif name in kr.pointers:
            params.append({"name": name, "kind": "array", "array": name})
        else:
            params.append({"name": name, "kind": "scalar", "arg": name})
    ties = [[b, kind, [list(x) for x in axes]] for (b, kind), axes in sorted(kr.ties.items()) if kind in ("param", "const")]
    return {"kernel": fn.name.value, "params": params, "grid": "spec", **launch_flags(tf, fn), "ties": ties}


def launch_flags(tf: TritonFile, fn: cst.FunctionDef) -> dict:
    """``tf32``: a tl.dot on f32 inputs rounds them to tf32 (Triton's default input_precision); ``autotuned``."""
    tf32 = False
    autotuned = any(isinstance(d.decorator, cst.Call) and tf.dotted(d.decorator.func) == "triton.autotune"
                    for d in fn.decorators)

    class V(cst.CSTVisitor):
        def visit_Call(self, node):
            nonlocal tf32
            if tf.dotted(node.func) != "tl.dot":
                return
            kw = {a.keyword.value: _lit(a.value) for a in node.args if a.keyword}
            if kw.get("allow_tf32") is not False and kw.get("input_precision") not in ("ieee",):
                tf32 = True

    fn.body.visit(V())
    return {"tf32": tf32, "autotuned": autotuned}
