"""A ``tl.constexpr`` parameter used where Triton takes a dtype (``acc.to(OUT_DTYPE)``, ``tl.zeros(.., dtype=
acc_dtype)``): refused with its own code. The port's element types are its arrays' (one entry per dtype of their
dtype variables, element_types.py), and neither a spec nor the Triton launch map carries a dtype value for a
constexpr, so the cast target is unknown when the kernel is lowered. A dtype read from an array
(``out_ptr.dtype.element_ty``, ``x.dtype``) or a literal ``tl.float32`` is lowered.

A dtype constexpr with a literal default (``acc_dtype: tl.constexpr = tl.float32``, unsloth's grouped GEMM) that
no call of its file passes by keyword is that dtype (:func:`defaulted`): the port drops the parameter, a note
says so. A file that passes it (``acc_dtype=tl.float16``) keeps it a parameter, refused where used as a dtype."""

from __future__ import annotations

import libcst as cst

from ... import errors
from ...ir.types import Sym
from .values import DT


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
