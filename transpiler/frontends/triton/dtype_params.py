"""A ``tl.constexpr`` parameter used where Triton takes a dtype (``acc.to(OUT_DTYPE)``, ``tl.zeros(.., dtype=
acc_dtype)``): one more dtype variable of the solver (element_types.py, :func:`used_as_dtype`), named after the
parameter; converting to it is a cast to that variable. A tile of it stored into an array unifies it with that
array's variable (element_types.stored): the port has no parameter for it, the launch map feeds it from the array's
dtype (kind ``dtype``) and the port wrapper never takes it. One never tied to an array makes the lowering depend on
its value: an entry per dtype (``<kernel>_<dtype>``), the spec naming the dtype (``"tl.bfloat16"``).

A dtype constexpr with a literal default (``acc_dtype: tl.constexpr = tl.float32``, unsloth's grouped GEMM) that
no call of its file passes by keyword is that dtype (:func:`defaulted`): the port drops the parameter, a note
says so. A file that passes it (``acc_dtype=tl.float16``) keeps it a parameter, refused where used as a dtype."""

from __future__ import annotations

import libcst as cst

from ... import errors
from ...ir.types import Sym
from .values import DT


def used_as_dtype(tf, fn) -> list[str]:
    """The constexpr parameters of ``fn`` used as a dtype (``x.to(D)``, ``dtype=D``), in parameter order."""
    consts = [p.name.value for p in fn.params.params
              if p.annotation and tf.dotted(p.annotation.annotation) == "tl.constexpr"]
    used: set[str] = set()

    class V(cst.CSTVisitor):
        def visit_Call(self, c: cst.Call) -> None:
            to = isinstance(c.func, cst.Attribute) and c.func.attr.value == "to"
            for i, a in enumerate(c.args):
                if isinstance(a.value, cst.Name) and (
                        a.keyword is not None and a.keyword.value == "dtype" or to and a.keyword is None and i == 0):
                    used.add(a.value.value)

    fn.body.visit(V())
    return [n for n in consts if n in used]


def tied_array(lw, name: str):
    """The array a tile cast to the dtype constexpr ``name`` is stored into (the constexpr is its element type), else
    None."""
    el = lw.element if isinstance(lw.element, dict) else {}
    if name in lw.dtype_stores and el.get(lw.dtype_stores[name]) == el.get(name):
        return lw.dtype_stores[name]
    return None


def refuse_dtype_constexpr(lw, dt, node, what: str) -> None:
    """Raise CTRS-E720 when ``dt`` (a lowered dtype argument) is a constexpr parameter's symbol."""
    if isinstance(dt, Sym):
        raise errors.CtrsError(
            errors.TRITON_DTYPE_CONSTEXPR,
            f"{what} of '{dt.name}', a tl.constexpr parameter used as a dtype: the port's element types are its "
            "arrays' (an entry per dtype of their dtype variables) and a spec or launch map carries no dtype value",
            "name the dtype through an array (x.to(out_ptr.dtype.element_ty)) or a literal tl dtype",
            lw.tf.loc(node))


def defaulted(lw, p: cst.Param):
    """The dtype of constexpr parameter ``p`` when its default is a literal ``tl.<dtype>`` and no call of the
    file passes it by keyword (module doc), else None."""
    if p.default is None or not (lw.dotted(p.default) or "").startswith("tl."):
        return None
    try:
        v = lw.expr(p.default)
    except errors.CtrsError:
        return None
    if not isinstance(v, DT):
        return None
    name = p.name.value
    passed: list = []

    class V(cst.CSTVisitor):
        def visit_Arg(self, a: cst.Arg) -> None:
            if a.keyword is not None and a.keyword.value == name:
                passed.append(a)

    lw.tf.module.visit(V())
    if passed:
        return None
    lw.note(p, "param", f"'{name}' (a tl.constexpr dtype no call of the file passes) is its default "
            f"{lw.tf.module.code_for_node(p.default)}: parameter dropped")
    return v
