"""A Triton file as the typed front end and the host side read it: the libcst model (:class:`TritonFile`: the
``triton`` / ``triton.language`` aliases, the ``@triton.jit`` functions, source positions), rules/triton.toml, and
the whole-kernel facts read from the source before lowering (pointer / descriptor parameters, constexprs used as
ints, helpers, signatures of ``tl.*`` calls, autotune decorators, launch flags). No lowering here: the typed front
end (this package) lowers; host.py maps launches.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import libcst as cst

from ... import errors, paths, rules_loader
from .. import signatures
from ..pysource import TRITON, SourceFile, attr_chain, check_kernel_file, dotted_text, read_kernel_source
from ...sources import is_triton_source

RULES_PATH = paths.data("rules", "triton.toml")


@cache
def load_rules(path: str = str(RULES_PATH)) -> dict:
    """rules/triton.toml (or another file of its schema, rules_loader.TRITON), checked and loaded once."""
    return rules_loader.load("triton", path)


def is_triton_file(path: Path) -> bool:
    try:
        return is_triton_source(read_kernel_source(path))
    except errors.CtrsError:  # unreadable: the cuTile front end reports it
        return False


def small_statements(stmt):
    if isinstance(stmt, cst.SimpleStatementLine):
        return list(stmt.body)
    if isinstance(stmt, cst.Try):  # try: import triton / except ImportError: (source-only kernel files)
        return [s for st in stmt.body.body for s in small_statements(st)]
    return []


_attr = dotted_text  # a.b.c of a Name / Attribute chain (pysource)


class TritonFile(SourceFile):
    def __init__(self, path: Path, source: str):
        super().__init__(path, source)
        self.tl_names: set[str] = set()
        self.triton_names: set[str] = set()
        self.kernels: list[cst.FunctionDef] = []
        # a @triton.jit def under a module-level `if` ctrs cannot decide (module_conditions.py): name -> (the file,
        # the `if`)
        self.undecided: dict[str, tuple[TritonFile, cst.If]] = {}
        # @triton.jit helpers imported from other modules of the package: name -> (their file, def); filled by
        # imports.resolve (lower_file)
        self.foreign: dict[str, TritonFile] = {}
        for stmt in self.module.body:
            for s in small_statements(stmt):
                self._scan_import(s)
        self._scan_defs(self.module.body)

    def _scan_defs(self, body) -> None:
        """The @triton.jit defs of a module body, and of the arm of a module-level ``if`` the reference Triton
        takes (``if hasattr(tl, "gather"):``; module_conditions.py)."""
        from .module_conditions import taken_arm  # noqa: PLC0415 - it reads this module's TritonFile

        for stmt in body:
            if isinstance(stmt, cst.FunctionDef) and any(self._is_jit(d.decorator) for d in stmt.decorators):
                self.kernels.append(stmt)
            elif isinstance(stmt, cst.If):
                arm = taken_arm(self, stmt)
                if arm is not None:
                    self._scan_defs(arm)
                    continue
                node = stmt
                while node is not None:
                    for sub in node.body.body:  # an If's or an Else's block
                        if isinstance(sub, cst.FunctionDef):
                            self.undecided.setdefault(sub.name.value, (self, stmt))
                    node = node.orelse if isinstance(node, cst.If) else None

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
        chain = attr_chain(node)
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


def load(path: Path) -> TritonFile:
    tf = TritonFile(Path(path), read_kernel_source(path))
    check_kernel_file(path, TRITON, bool(tf.tl_names), tf.kernels)
    return tf


def literal(node):
    try:
        return ast.literal_eval(cst.Module([]).code_for_node(node))
    except (ValueError, SyntaxError, TypeError):
        return None


def code(node) -> str:
    return cst.Module([]).code_for_node(node)


def padding_key(other) -> str | None:
    """The padding a load's ``other=`` value means (zero, neg_inf, pos_inf, nan; rules/triton.toml [padding]), or
    None (shared with the typed-IR front end, frontends/triton/)."""
    v = literal(other)
    text = code(other).replace(" ", "").replace("'", '"')
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


def check_signatures(tf: TritonFile, fn: cst.FunctionDef) -> None:
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


def int_constexprs(tf: TritonFile, fn: cst.FunctionDef) -> set[str]:
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


def builds_rank1(tf: TritonFile, fn: cst.FunctionDef) -> bool:
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


def _pointer_cast(n) -> bool:
    """``x.to(tl.pointer_type(..))``."""
    return isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "to" and \
        bool(n.args) and isinstance(n.args[0].value, cst.Call) and isinstance(n.args[0].value.func, cst.Attribute) \
        and n.args[0].value.func.attr.value == "pointer_type"


def pointer_params(tf: TritonFile, fn: cst.FunctionDef) -> set[str]:
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
            if _pointer_cast(node):  # p.to(tl.pointer_type(T)): p is a pointer (frontends/triton/pointer_casts.py)
                heads.append(node.func.value)

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
        if _pointer_cast(n):
            return roots(n.func.value, depth + 1)
        return set()

    out: set[str] = set()
    for h in heads:
        out |= roots(h)
    return out


_PRAGMA_RE = re.compile(r"#\s*ctrs:\s*(\w+)\.block_shape\s*=\s*[\[(]([^\])]*)[\])]")


def descriptor_params(tf: TritonFile, fn: cst.FunctionDef) -> dict[str, tuple[str, ...] | None]:
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
                key = literal(t.value.slice[0].slice.value)
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


def helper_names(tf: TritonFile) -> set[str]:
    """The ``@triton.jit`` functions of the file another one of them calls by name: helpers (inlined into their
    callers by the typed front end, frontends/triton/inline.py), not kernels of the port."""
    names = {fn.name.value for fn in tf.kernels}
    out: set[str] = set(tf.foreign)  # imported @triton.jit functions are helpers wherever they are called
    for fn in tf.kernels:
        me = fn.name.value

        class V(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                if isinstance(node.func, cst.Name) and node.func.value in names and node.func.value != me:
                    out.add(node.func.value)

        fn.body.visit(V())
    return out


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
            kw = {a.keyword.value: literal(a.value) for a in node.args if a.keyword}
            if kw.get("allow_tf32") is not False and kw.get("input_precision") not in ("ieee",):
                tf32 = True

    fn.body.visit(V())
    return {"tf32": tf32, "autotuned": autotuned}
