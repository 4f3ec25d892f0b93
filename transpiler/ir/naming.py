"""The names of the entries one kernel becomes (shared by both front ends and the specialise pass)."""

from __future__ import annotations


def variant_entry(kernel: str, fixed: list[tuple[str, int]]) -> str:
    """The entry of ``kernel`` with the constant flags ``fixed`` set: ``<kernel>__<FLAG>_<v>`` per flag."""
    return kernel + "".join(f"__{f}_{int(v)}" for f, v in fixed)


def dtype_flag_name(array: str, dtype: str, then: str) -> str:
    """The host-computed flag of ``<then> if <array>.dtype == <dtype> else ..``: ``IS_<ARRAY>_<DTYPE>``, and
    ``CAST_TF32`` for the f32 -> tf32 cast of a matmul operand."""
    if dtype == "f32" and then == "tf32":
        return "CAST_TF32"
    return f"IS_{array.upper()}_{dtype.upper()}"
