"""The splice point: the front end calls ``lower`` where a ct.* call has no rule (frontend_cutile._call,
only through the ``llm_hook`` callback fallback.py passes to the front end). An answer for this construct's file:line:col
becomes ordinary model ``let``s (op kind ``llm``), so specialisation, per-dtype expansion, rendering,
op stats and the source map treat it like any rule output. Bound names are renamed to fresh names."""

from __future__ import annotations

import re

from ctrs import model

from . import answer

MARK = "ctrs-llm"


def key_of(loc) -> tuple[str, int, int]:
    return (str(loc.file), int(loc.line), int(loc.col))


def scope(front) -> list[dict]:
    """Names in scope at the construct: Python name, Rust name, kind and Rust type (what the front end has)."""
    out = []
    for py, v in sorted(front.env.items()):
        if v.kind in ("tile", "scalar", "array") and v.name:
            typ = v.type.rust() if v.type is not None else ""
            if v.kind == "array" and not typ:
                p = next((p for p in front.params() if p.name == py), None)
                typ = f"&Tensor<{p.dtype}, {{ [{', '.join(['-1'] * max(p.ndim, 1))}] }}>" if p else ""
            out.append({"python": py, "rust": v.name, "kind": v.kind, "type": typ})
        elif v.kind == "literal" and isinstance(v.value, (int, float, bool)):
            out.append({"python": py, "rust": repr(v.value), "kind": "literal", "type": type(v.value).__name__})
    for p in front.params():
        if p.kind == "constant" and not any(s["python"] == p.name for s in out):
            out.append({"python": p.name, "rust": p.name, "kind": "const generic", "type": "i32"})
    return out


def _to_type(text: str) -> model.Type:
    kind, dt, dims = answer.parse_type(text)
    if kind == "tile":
        return model.TileT(dt, dims)
    if kind == "scalar":
        return model.ScalarT(dt)
    return model.OpaqueT(text)


class Hook:
    """The front ends' LLM hook for these answers. Called as ``hook(front, node, hint)`` by the text-model front
    end (frontend_cutile.parse_file(llm_hook=...): a ct.* call without a rule); with ``typed`` set,
    translate.translate_module takes the typed IR pipeline alone and passes ``hook.typed`` to its Lowering
    (on_unsupported): every statement / expression without a rule reaches it."""

    def __init__(self, splices: dict, typed: bool = False):
        self.splices, self.typed_mode = splices, typed

    def __call__(self, front, node, hint: str):
        return lower(front, node, hint, self.splices)

    def typed(self, lw, node, hint: str):
        return lower_typed(lw, node, hint, self.splices)


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


def typed_construct(lw, node, hint: str):
    from ctrs import errors  # noqa: PLC0415
    from ctrs.ir import Sym  # noqa: PLC0415

    from .context import Construct  # noqa: PLC0415

    target = _binds(node) or hint or "llm_value"
    target = re.sub(r"\W", "_", target).lower()
    if not re.match(r"[a-z_]", target):
        target = f"v_{target}"
    triton = hasattr(lw, "tf")
    src = lw.tf if triton else lw.info  # the Triton front end's file, the cuTile front end's module info
    pos = src.positions[node]
    code = src.module.code_for_node(node).strip()
    consts = [v.name for v in lw.env.values() if isinstance(v, Sym)] if triton else \
        [p.name for p in lw.params if p.kind == "constant"]  # Triton: tl.constexpr parameters are symbols
    gens = ["E: ElementType"] + [f"const {n}: i32" for n in dict.fromkeys(consts)]
    kind = "statement" if _binds(node) else "expression"
    return Construct(src.path, src.loc(node), pos.end.line, errors.IR_UNSUPPORTED,
                     f"no typed-IR rule for the {kind} `{' '.join(code.split())[:80]}`", code, target, kind,
                     typed_scope(lw), ", ".join(gens))


def _ir_type(text: str):
    from ctrs.frontends.cutile import ELEMENT  # noqa: PLC0415
    from ctrs.ir import Sym  # noqa: PLC0415
    from ctrs.ir.types import DTYPES, ScalarType, TileType  # noqa: PLC0415

    kind, dt, dims = answer.parse_type(text)
    dtype = ELEMENT if dt == ELEMENT.name else DTYPES.get(dt)
    if dtype is None:
        raise answer.Rejected(f"element type `{dt}` is not E or a cutile element type")
    if kind == "scalar":
        return ScalarType(dtype)
    return TileType(dtype, tuple(int(d) if d.lstrip("-").isdigit() else Sym(d) for d in dims))


def lower_typed(lw, node, hint: str, splices: dict):
    """A RUST_FRAGMENT op for the answer at this construct; without one, CTRS-E251 carrying the Construct (the
    fallback asks the model for it). A statement's answer is bound to the name it assigns."""
    from ctrs import errors  # noqa: PLC0415
    from ctrs.ir import OpKind  # noqa: PLC0415
    from ctrs.ir.values import Value  # noqa: PLC0415

    import libcst as cst  # noqa: PLC0415

    if not isinstance(node, cst.BaseExpression) and _binds(node) is None:
        return None  # a statement that binds no single name: outside what an answer can replace (E124 stands)
    c = typed_construct(lw, node, hint)
    got = splices.get(c.key)
    if got is None:
        e = errors.CtrsError(errors.LLM_CONSTRUCT, c.message, "ctrs translate --llm sends it to the model", c.loc)
        e.construct = c
        raise e
    used = set()
    for st in got["stmts"]:
        used |= set(re.findall(r"\b[A-Za-z_]\w*\b", st.expr))
    inputs = [n for n in sorted(used) if isinstance(lw.env.get(n), Value)]
    mark = f"/* {MARK} {got['model']} {got['hash'][:16]} */ "
    try:
        rtype = _ir_type(got["stmts"][-1].type)
    except answer.Rejected as r:
        raise errors.CtrsError(errors.IR_UNSUPPORTED, f"LLM answer: {r}", "", c.loc) from None
    op = lw.emit(OpKind.RUST_FRAGMENT, [lw.env[n] for n in inputs], [rtype], node, c.target, inputs=inputs,
                 stmts=[(s.name, s.type, s.expr) for s in got["stmts"]], mark=mark)
    v: Value = op.result
    if _binds(node):
        lw.bind(_binds(node), v)
    return v


def lower(front, node, hint: str, splices: dict):
    from ctrs.frontend_cutile import Val  # noqa: PLC0415

    got = splices.get(key_of(front.info.loc(node)))
    if got is None:
        return None
    rename: dict[str, str] = {}
    last = None
    for st in got["stmts"]:
        expr = st.expr
        if rename:
            expr = re.sub(r"\b(" + "|".join(map(re.escape, rename)) + r")\b", lambda m: rename[m.group(1)], expr)
        typ = _to_type(st.type)
        # the expression is the op's operand, so the passes see the names it reads (a let reading a loop value
        # is not hoisted out of the loop)
        tmpl = f"/* {MARK} {got['model']} {got['hash'][:16]} */ " + "{x}"
        name = front.let(st.name if st is not got["stmts"][-1] else hint, typ, front.op("llm", tmpl, node, x=expr),
                         node)
        rename[st.name] = name
        last = (name, typ)
    name, typ = last
    if isinstance(typ, model.TileT):
        return Val("tile", name, typ, typ.dtype, let=front._last_let)
    return Val("scalar", name, typ, typ.dtype, let=front._last_let)
