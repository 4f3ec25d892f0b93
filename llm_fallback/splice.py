"""The splice points: ``Hook.typed`` is the front ends' ``on_unsupported`` (``lower_typed``: an expression or a
one-name statement without a rule) and its ``replaces`` runs before every statement (``replace_statements``: a
statement or statement range answered as a whole, several names bound by one RUST_FRAGMENT op)."""

from __future__ import annotations

import re
from dataclasses import dataclass


from . import answer

MARK = "ctrs-llm"


def key_of(loc) -> tuple[str, int, int]:
    return (str(loc.file), int(loc.line), int(loc.col))


class Hook:
    """The front ends' LLM hook for these answers: translate.translate_module passes ``hook.typed`` to the Lowering
    (on_unsupported): every statement / expression without a rule reaches it, and every statement passes its
    ``replaces`` first (a statement or statement range answered as a whole, or one the fallback asks for:
    ``asks``, statement key -> :class:`Ask`)."""

    def __init__(self, splices: dict, typed: bool = False, asks: dict | None = None):
        self.splices, self.typed_mode = splices, typed
        self.asks = dict(asks or {})
        self.typed = TypedHook(self)


class TypedHook:
    """``Lowering(on_unsupported=...)``: called as ``(lw, node, hint)`` for a construct without a rule;
    ``replaces(lw, stmt)`` before every statement."""

    def __init__(self, owner: Hook):
        self.owner = owner

    def __call__(self, lw, node, hint: str):
        return lower_typed(lw, node, hint, self.owner.splices)

    def replaces(self, lw, s) -> bool:
        return replace_statements(lw, s, self.owner.splices, self.owner.asks)


def hook(splices: dict, typed: bool = False):
    """The front ends' LLM hook for these answers; None if there are none (and the typed path is not asked for)."""
    if not splices and not typed:
        return None
    return Hook(splices, typed)


# ---------------------------------------------------------------------------------------------- typed IR


def _binds(node) -> str | None:
    """The one name a statement without a rule binds (``x //= y``, ``x: T = e``), else None."""
    import libcst as cst  # noqa: PLC0415

    if isinstance(node, (cst.AugAssign, cst.AnnAssign)) and isinstance(node.target, cst.Name):
        return node.target.value
    return None


def typed_scope(lw) -> list[dict]:
    """Names in scope at a typed construct: the Rust name is the Python name (the emitter renames)."""
    from ctrs.emitters.ir_rust import type_rust  # noqa: PLC0415
    from ctrs.frontends.cutile import ArrayRef  # noqa: PLC0415
    from ctrs.ir import Sym  # noqa: PLC0415
    from ctrs.ir.values import Value  # noqa: PLC0415

    out = []
    for py, v in sorted(lw.env.items()):
        if isinstance(v, Value):
            try:
                typ = type_rust(v.type)
            except Exception:  # noqa: BLE001 - a type with no Rust spelling (views, tokens): not offered
                continue
            out.append({"python": py, "rust": py, "kind": "tile" if "Tile<" in typ else "scalar", "type": typ})
        elif isinstance(v, Sym):
            out.append({"python": py, "rust": v.name, "kind": "const generic", "type": "i32"})
        elif isinstance(v, ArrayRef):
            out.append({"python": py, "rust": py, "kind": "array (not usable in the answer)", "type": "&Tensor<E>"})
        elif isinstance(v, (bool, int, float)):
            out.append({"python": py, "rust": repr(v), "kind": "literal", "type": type(v).__name__})
    return out


def _generics(lw) -> str:
    """The answer's generics: E and the kernel's compile-time constants (Triton: its tl.constexpr parameters,
    symbols in the front end's environment)."""
    from ctrs.ir import Sym  # noqa: PLC0415

    consts = [v.name for v in lw.env.values() if isinstance(v, Sym)] if hasattr(lw, "tf") else \
        [p.name for p in lw.params if p.kind == "constant"]
    return ", ".join(["E: ElementType"] + [f"const {n}: i32" for n in dict.fromkeys(consts)])


def _rust_name(name: str) -> str:
    name = re.sub(r"\W", "_", name).lower()
    return name if re.match(r"[a-z_]", name) else f"v_{name}"


def typed_construct(lw, node, hint: str):
    from ctrs import errors  # noqa: PLC0415

    from .context import Construct  # noqa: PLC0415

    target = _rust_name(_binds(node) or hint or "llm_value")
    src = _source(lw)
    pos = src.positions[node]
    code = src.module.code_for_node(node).strip()
    kind = "statement" if _binds(node) else "expression"
    return Construct(src.path, src.loc(node), pos.end.line, errors.IR_UNSUPPORTED,
                     f"no typed-IR rule for the {kind} `{' '.join(code.split())[:80]}`", code, target, kind,
                     typed_scope(lw), _generics(lw))


def _ir_type(text: str, known: dict | None = None):
    """The IR type of an answer's ``let`` type; ``known``: the Rust spelling -> dtype of the values the answer
    reads (an array's own dtype variable keeps its identity: `E` there is that variable, not the kernel's E)."""
    from ctrs.frontends.cutile import ELEMENT  # noqa: PLC0415
    from ctrs.ir import Sym  # noqa: PLC0415
    from ctrs.ir.types import DTYPES, ScalarType, TileType  # noqa: PLC0415

    kind, dt, dims = answer.parse_type(text)
    known = known or {}
    generic = {d for d in known.values() if not isinstance(d, type(DTYPES["f32"]))}
    if dt not in known and dt not in DTYPES and len(generic) == 1:  # the one dtype variable the answer reads
        dtype = next(iter(generic))  # (the prompt's scope may come from a lowering round that named it otherwise)
    else:
        dtype = known.get(dt) or (ELEMENT if dt == ELEMENT.name else DTYPES.get(dt))
    if dtype is None:
        raise answer.Rejected(f"element type `{dt}` is not E or a cutile element type")
    if kind == "scalar":
        return ScalarType(dtype)
    return TileType(dtype, tuple(int(d) if d.lstrip("-").isdigit() else Sym(d) for d in dims))


def _fragment(lw, node, got: dict, c_loc, names: list[str], hint: str):
    """The RUST_FRAGMENT op of an accepted answer at ``node``: operands are the scope values its expressions read,
    results the values of ``names`` (each the type of its last ``let``)."""
    from ctrs import errors  # noqa: PLC0415
    from ctrs.emitters.ir_rust import dtype_rust  # noqa: PLC0415
    from ctrs.ir import OpKind  # noqa: PLC0415
    from ctrs.ir.values import Value  # noqa: PLC0415

    used = set()
    for st in got["stmts"]:
        used |= set(re.findall(r"\b[A-Za-z_]\w*\b", st.expr))
    inputs = [n for n in sorted(used) if isinstance(lw.env.get(n), Value)]
    mark = f"/* {MARK} {got['model']} {got['hash'][:16]} */ "
    last = {st.name: st for st in got["stmts"]}
    known = {}
    for n in inputs:
        dt = getattr(lw.env[n].type, "dtype", None)
        try:
            known.setdefault(dtype_rust(dt), dt)
        except Exception:  # noqa: BLE001, S112 - a dtype without a Rust spelling: not one an answer can name
            continue
    try:
        rtypes = [_ir_type(last[n].type, known) for n in names]
    except (answer.Rejected, KeyError) as r:
        raise errors.CtrsError(errors.IR_UNSUPPORTED, f"LLM answer: {r}", "", c_loc) from None
    _assert_dtypes(lw, got["stmts"], inputs, c_loc)
    extra = {"outputs": list(names)} if len(names) > 1 else {}
    op = lw.emit(OpKind.RUST_FRAGMENT, [lw.env[n] for n in inputs], rtypes, node, hint, inputs=inputs,
                 stmts=[(s.name, s.type, s.expr) for s in got["stmts"]], mark=mark, **extra)
    for r, n in zip(op.results, names):
        r.hint = n
    return op.results


def _assert_dtypes(lw, stmts, inputs: list[str], loc) -> None:
    """An input the answer re-declares with a concrete element type (``let t: Tile<i32, { [1] }> = t;``, ``t``'s
    dtype a variable of an array) states the dtype the answer is written for, as cuTile Python's JIT sees one per
    launch: a Bind fact (frontends/cutile/dtypes.py binds the array's dtype and lowers again). The specs decide
    whether that holds: an array passed with another dtype has no entry, and the answer is rejected."""
    from ctrs import errors  # noqa: PLC0415
    from ctrs.ir import typing as irtyping  # noqa: PLC0415
    from ctrs.ir.types import DTypeParam  # noqa: PLC0415

    for st in stmts:
        if st.expr not in inputs:
            continue
        have = getattr(lw.env[st.expr].type, "dtype", None)
        kind, dt, _ = answer.parse_type(st.type)
        want = _ir_type(st.type) if kind != "opaque" and dt != "E" else None
        if isinstance(have, DTypeParam) and want is not None and not isinstance(want.dtype, DTypeParam):
            fact = irtyping.Bind(have, want.dtype, f"the LLM answer reads `{st.expr}` as {want.dtype}")
            raise errors.CtrsError(errors.IR_UNSUPPORTED, f"typed-IR front end: {fact}", "", loc) from fact


def lower_typed(lw, node, hint: str, splices: dict):
    """A RUST_FRAGMENT op for the answer at this construct; without one, CTRS-E251 carrying the Construct (the
    fallback asks the model for it). A statement's answer is bound to the name it assigns."""
    from ctrs import errors  # noqa: PLC0415

    import libcst as cst  # noqa: PLC0415

    if not isinstance(node, cst.BaseExpression) and _binds(node) is None:
        return None  # a statement that binds no single name: outside what an answer can replace (E124 stands)
    c = typed_construct(lw, node, hint)
    got = splices.get(c.key)
    if got is None:
        e = errors.CtrsError(errors.LLM_CONSTRUCT, c.message, "ctrs translate --llm sends it to the model", c.loc)
        e.construct = c
        raise e
    (v,) = _fragment(lw, node, got, c.loc, [got["stmts"][-1].name], c.target)
    if _binds(node):
        lw.bind(_binds(node), v)
    return v


# -------------------------------------------------------------------------- statements and statement ranges


@dataclass(frozen=True)
class Ask:
    """A statement range the fallback asks the model for (statements ``first``..``last`` lines of one block,
    starting at ``key``): the answer defines ``outputs``, the names it binds that the kernel reads elsewhere."""
    key: tuple
    last_line: int
    outputs: tuple
    python: str
    code: str  # the diagnostic code that stopped the range's first statement (CTRS-E124, E125, E251)
    message: str


def _source(lw):
    """The parsed file a lowering reads: the Triton front end's TritonFile, the cuTile front end's module info."""
    return lw.tf if hasattr(lw, "tf") else lw.info


def _in_range(loc, key: tuple, last_line: int) -> bool:
    return str(loc.file) == key[0] and key[1] < int(loc.line) <= last_line


def replace_statements(lw, s, splices: dict, asks: dict) -> bool:
    """Before statement ``s``: the fragment of an accepted statement (range) answer starting at ``s`` (binds its
    outputs; True), True for a later statement of such a range (its names are bound already), CTRS-E251 with the
    Construct for a statement range the fallback asks for (``asks``: the scope is the one at ``s``), else False."""
    from ctrs import errors  # noqa: PLC0415

    from .context import Construct  # noqa: PLC0415

    if not splices and not asks:
        return False
    src = _source(lw)
    loc = src.loc(s)
    if not loc.line:  # a statement of another file (a Triton helper imported from a sibling file): not asked for
        return False
    key = key_of(loc)
    got = splices.get(key)
    if got is not None and got.get("outputs"):
        outs = list(got["outputs"])
        vals = _fragment(lw, s, got, loc, outs, outs[-1])
        for n, v in zip(outs, vals):
            lw.bind(n, v)
        return True
    for k, rec in splices.items():
        if rec.get("outputs") and _in_range(loc, k, rec["end_line"]):
            return True
    ask = asks.get(key)
    if ask is not None and got is None:
        c = Construct(src.path, loc, ask.last_line, ask.code, ask.message, ask.python,
                      _rust_name(ask.outputs[-1]), "statements" if len(ask.outputs) > 1 else "statement",
                      typed_scope(lw), _generics(lw),
                      outputs=tuple(ask.outputs))
        e = errors.CtrsError(errors.LLM_CONSTRUCT, c.message, "ctrs translate --llm sends it to the model", c.loc)
        e.construct = c
        raise e
    return False
