"""What a Triton kernel reads from the rest of its file: ``@triton.jit`` helpers (inlined) and module constants.

* A ``@triton.jit`` function another ``@triton.jit`` function of the file calls is a *helper*, not a kernel
  (:func:`helper_names`): Triton compiles it into each caller. The front end does the same: a call
  ``h(a, b)`` lowers ``h``'s body with its parameters bound to the callers' compile-time values (IR values,
  pointers, ranges, masks, constexprs), statement by statement, and its final ``return`` (a value or a tuple)
  is the call's value. A ``return`` before the end is control flow, refused here (CTRS-E124).
* A name a kernel reads that is neither a parameter nor a local is a module global: Triton folds it when it is a
  translate-time constant (``BLOCK = 1024``, ``N: tl.constexpr = 4``, ``K = tl.constexpr(2 ** 31 - 1)``, an
  expression of earlier constants, ``torch.version.hip``: None, as on the CUDA build a port runs on);
  :func:`module_constants` evaluates those (ints, floats, bools). A global that is not one
  (``tl.constexpr(torch.cuda.is_available())``) is refused naming it (CTRS-E340).
"""

from __future__ import annotations

import ast
import operator
from pathlib import Path

import libcst as cst

from ... import errors
from ..pysource import is_docstring
from .imports import imported_constant
from .module_conditions import REFERENCE_TRITON
from .returns import always_returns, value as returns_value
from .source import helper_names as source_helper_names, pointer_params

_MAX_DEPTH = 16  # helpers calling helpers: deeper is a recursion Triton would not compile either

_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow, ast.LShift: operator.lshift,
        ast.RShift: operator.rshift, ast.BitAnd: operator.and_, ast.BitOr: operator.or_}
_UN = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_, ast.Invert: operator.invert}


# what a module global may read of the torch build: a cuTile port runs on CUDA, where torch.version.hip is None
# (``_HIP = tl.constexpr(bool(torch.version.hip))`` folds to False)
_CUDA_BUILD = {"torch.version.hip": None}


class NotConstant(Exception):
    pass


def _eval(node: ast.AST, known: dict):
    """A translate-time constant expression: numbers, bools, + - * / // % ** << >> & |, names of earlier
    constants, ``tl.constexpr(x)`` / ``int(x)`` / ``float(x)`` / ``bool(x)`` of one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool)):
        return node.value
    if ast.unparse(node) in _CUDA_BUILD:  # the port runs on a CUDA build of torch
        return _CUDA_BUILD[ast.unparse(node)]
    if isinstance(node, ast.Name) and node.id in known:
        return known[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
        return _BIN[type(node.op)](_eval(node.left, known), _eval(node.right, known))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UN:
        return _UN[type(node.op)](_eval(node.operand, known))
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        f = ast.unparse(node.func)
        if f.endswith("constexpr") or f in ("int", "float", "bool"):
            v = _eval(node.args[0], known)
            return {"int": int, "float": float, "bool": bool}.get(f, lambda x: x)(v)
    raise NotConstant


def module_constants(tf) -> tuple[dict, set[str]]:
    """(name -> value of every module-level translate-time constant, names assigned at module level that are
    not). A name assigned twice keeps its last constant value (the one a kernel sees at launch)."""
    known: dict = {}
    other: set[str] = set()
    tree = ast.parse(tf.source)
    for st in tree.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            name, value = st.targets[0].id, st.value
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
            name, value = st.target.id, st.value
        else:
            continue
        try:
            known[name] = _eval(value, known)
            other.discard(name)
        except (NotConstant, ArithmeticError, ValueError, TypeError):
            known.pop(name, None)
            other.add(name)
    return known, other


def _constants_of(lw, tf) -> tuple[dict, set[str]]:
    caches = lw.__dict__.setdefault("_module_constants", {})
    if str(tf.path) not in caches:
        caches[str(tf.path)] = module_constants(tf)
    return caches[str(tf.path)]


def global_value(lw, node: cst.Name):
    """The value of module global ``node`` in a kernel (a translate-time constant; in the module of the helper
    being inlined; imported ``from .x import NAME`` of another module's constant), else CTRS-E340."""
    known, other = _constants_of(lw, lw.tf)
    name = node.value
    if name not in known and name not in other:
        found = imported_constant(lw.tf, name)
        if found is not None and found[1] in _constants_of(lw, found[0])[0]:
            known = {name: _constants_of(lw, found[0])[0][found[1]]}
    if name in known:
        lw.note(node, "param", f"module constant '{name}' = {known[name]!r} folded (Triton reads it at compile time)")
        return known[name]
    if name in other:
        raise errors.CtrsError(errors.TRITON_GLOBAL, f"module global '{name}' is not a translate-time constant",
                               "Triton folds module globals at compile time; ctrs folds only numbers, bools and "
                               "expressions of them: pass it as a tl.constexpr parameter", lw.tf.loc(node))
    return None


def helper_names(tf) -> set[str]:
    return source_helper_names(tf)


def helper_defs(tf) -> dict:
    """name -> (its file, def) of every @triton.jit function a function of ``tf`` may call: the file's own, and
    those it imports from other modules of its package (imports.py)."""
    return {fn.name.value: (tf, fn) for fn in tf.kernels} | {
        n: v for n, v in getattr(tf, "foreign", {}).items() if n not in {fn.name.value for fn in tf.kernels}}


def helper_def(lw, name: str):
    found = helper_defs(lw.tf).get(name)
    if found is None and name in getattr(lw.tf, "undecided", {}):
        where, st = lw.tf.undecided[name]
        raise errors.CtrsError(errors.TRITON_UNDECIDED_HELPER,
                               f"helper '{name}' is defined under a module-level `if` ctrs cannot decide",
                               "ctrs decides `hasattr(tl, \"<op>\")` tests for the reference Triton "
                               f"{REFERENCE_TRITON} (module_conditions.py); define the helper unconditionally",
                               where.loc(st))
    return None if found is None else found[1]


def _owner(lw, fn):
    """The file whose def ``fn`` is (the kernel's, or the module a helper was imported from)."""
    return next((f for f, d in helper_defs(lw.tf).values() if d is fn), lw.tf)


def inline(lw, fn: cst.FunctionDef, c) -> object:
    """The value of helper ``fn`` called as ``c`` (a registry Call): its body lowered in the caller's block with
    the parameters bound to the arguments' compile-time values; the caller's names are restored after."""
    depth = lw.__dict__.get("_inline_depth", 0)
    if depth >= _MAX_DEPTH:
        raise lw.err(c.node, f"helper '{fn.name.value}' nested more than {_MAX_DEPTH} deep (recursion)")
    ps = fn.params
    if ps.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or ps.star_kwarg or ps.kwonly_params:
        raise lw.err(fn, f"helper '{fn.name.value}' with *args / **kwargs / keyword-only parameters")
    names = [p.name.value for p in ps.params]
    if len(c.pos) > len(names) or set(c.kw) - set(names):
        raise lw.err(c.node, f"call of helper '{fn.name.value}' does not match its parameters ({', '.join(names)})")
    bound = dict(zip(names, c.pos)) | c.kw
    args = {}
    for p in ps.params:
        n = p.name.value
        if n in bound:
            args[n] = lw.expr(bound[n])
        elif p.default is not None:
            args[n] = lw.expr(p.default)
        else:
            raise lw.err(c.node, f"call of helper '{fn.name.value}' without argument '{n}'")
    outer, outer_tf = lw.env, lw.tf
    lw.env = dict(args)
    lw._inline_depth = depth + 1
    lw.tf = _owner(lw, fn)  # a helper of another module: its aliases, constants, helpers and positions
    if lw.tf is not outer_tf:
        lw.note(c.node, "helper", f"helper '{fn.name.value}' imported from {Path(lw.tf.path).name} inlined")
    result = None
    try:
        stmts = list(fn.body.body)

        if stmts and is_docstring(stmts[0]):
            stmts = stmts[1:]
        for i, s in enumerate(stmts):
            ret = _return_of(s)
            if ret is not None:
                if i != len(stmts) - 1:
                    raise lw.err(s, f"return before the end of helper '{fn.name.value}' (control flow)")
                result = lw.expr(ret.value, c.hint) if ret.value is not None else None
                break
            if i == len(stmts) - 1 and always_returns(s):  # `if c: return x else: return y` (returns.py)
                result = returns_value(lw, s, c.hint)
                break
            _no_nested_return(lw, s, fn)
            lw.stmt(s)
    finally:
        lw.env, lw.tf = outer, outer_tf
        lw._inline_depth = depth
    return result


def _return_of(s):
    if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Return):
        return s.body[0]
    return None


def _no_nested_return(lw, s, fn) -> None:
    found: list = []

    class V(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            found.append(node)

    s.visit(V())
    if found:
        raise lw.err(found[0], f"return inside a block of helper '{fn.name.value}' (control flow)")


def unpack(lw, s: cst.Assign) -> None:
    """``a, b = v`` where ``v`` is a tuple of compile-time values (a helper's ``return x, y``, a tuple display)."""
    names = [e.value for e in s.targets[0].target.elements]
    if not all(isinstance(n, cst.Name) for n in names):
        raise lw.err(s, "tuple assignment to anything but names")
    v = lw.expr(s.value)
    if not isinstance(v, tuple) or len(v) != len(names):
        raise lw.err(s, f"tuple assignment of {len(names)} names from a value that is not a {len(names)}-tuple")
    for n, x in zip(names, v):
        lw.bind(n.value, x)


def imported_alias(lw, name: str) -> str | None:
    """``from .mod import name`` where the sibling module assigns ``name = <dotted>`` at module level (also inside
    a top-level if/else on the Triton version): the first such target with a lowering (``triton_tanh =
    libdevice.tanh``, ``triton_cast = tl.cast``), else None."""
    from pathlib import Path  # noqa: PLC0415

    from .registry import CALLS  # noqa: PLC0415

    tree = ast.parse(lw.tf.source)
    mod = next((n.module for n in tree.body if isinstance(n, ast.ImportFrom) and n.level == 1 and n.module
                and any((a.asname or a.name) == name for a in n.names)), None)
    if mod is None:
        return None
    sibling = Path(lw.tf.path).parent / (mod.replace(".", "/") + ".py")
    if not sibling.exists():
        return None
    other = ast.parse(sibling.read_text())
    heads = {"tl": "tl", "libdevice": "libdevice", "triton.language": "tl"}
    for n in ast.walk(other):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and n.targets[0].id == name and isinstance(n.value, ast.Attribute):
            text = ast.unparse(n.value)
            head, _, rest = text.partition(".")
            dotted = f"{heads[head]}.{rest}" if head in heads else text
            if dotted in CALLS:
                lw.note(lw.fn, "helper", f"'{name}' (from .{mod}) is {dotted}")
                return dotted
    return None


def pointer_args(tf, fn: cst.FunctionDef, depth: int = 0) -> set[str]:
    """Parameters of ``fn`` passed (by name, or as ``p + offsets`` / ``p - k``) where a helper it calls takes a
    pointer (a parameter the helper loads/stores through, transitively): pointers of ``fn`` too."""
    if depth > _MAX_DEPTH:
        return set()
    helpers = {n: d for n, (_f, d) in helper_defs(tf).items()}
    owners = {n: f for n, (f, _d) in helper_defs(tf).items()}
    params = {p.name.value for p in fn.params.params}
    calls: list[cst.Call] = []

    class V(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value in helpers and node.func.value != fn.name.value:
                calls.append(node)

    fn.body.visit(V())
    out: set[str] = set()
    for call in calls:
        h = helpers[call.func.value]
        hp = [p.name.value for p in h.params.params]
        ptrs = pointer_params(owners[call.func.value], h) | pointer_args(owners[call.func.value], h, depth + 1)
        for i, a in enumerate(call.args):
            name = a.keyword.value if a.keyword is not None else (hp[i] if i < len(hp) else None)
            if name in ptrs:
                root = _root(a.value)
                if root in params:
                    out.add(root)
    return out


def _root(node) -> str | None:
    while isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract)):
        node = node.left
    return node.value if isinstance(node, cst.Name) else None

