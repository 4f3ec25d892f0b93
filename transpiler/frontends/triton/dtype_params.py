"""A ``tl.constexpr`` parameter used where Triton takes a dtype (``acc.to(OUT_DTYPE)``, ``tl.zeros(.., dtype=
acc_dtype)``): refused with its own code. The port's element types are its arrays' (one entry per dtype of their
dtype variables, element_types.py), and neither a spec nor the Triton launch map carries a dtype value for a
constexpr, so the cast target is unknown when the kernel is lowered. A dtype read from an array
(``out_ptr.dtype.element_ty``, ``x.dtype``) or a literal ``tl.float32`` is lowered."""

from __future__ import annotations

from ... import errors
from ...ir.types import Sym


def refuse_dtype_constexpr(lw, dt, node, what: str) -> None:
    """Raise CTRS-E720 when ``dt`` (a lowered dtype argument) is a constexpr parameter's symbol."""
    if isinstance(dt, Sym):
        raise errors.CtrsError(
            errors.TRITON_DTYPE_CONSTEXPR,
            f"{what} of '{dt.name}', a tl.constexpr parameter used as a dtype: the port's element types are its "
            "arrays' (an entry per dtype of their dtype variables) and a spec or launch map carries no dtype value",
            "name the dtype through an array (x.to(out_ptr.dtype.element_ty)) or a literal tl dtype",
            lw.tf.loc(node))
