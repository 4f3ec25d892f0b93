"""``tl.make_tensor_descriptor`` extents and strides that are not parameters (issue 18: unsloth's grouped GEMM).

A descriptor's ``shape=`` bounds its loads (zero padding) and stores (clipping); its ``strides=`` address the
rows. The port's partition view has the tensor's own extents and strides (memory.prescan_block_ptrs), so an
entry that is neither a parameter nor a constexpr is taken as the tensor's, with a note saying that the tensor
passed must have it, when it is one fixed value for the whole kernel: a local assigned exactly once, outside any
loop (``TOTAL_TOKENS = NUM_TOKENS * TOPK``, ``expert_stride = N * K``), or an arithmetic expression of
parameters, constexprs and such locals (``N * K``). A constexpr stride is likewise the tensor's stride. A local a
loop reassigns (``shape=[m_end, N]`` inside the per-expert loop) bounds each descriptor differently: the view of
the whole tensor would read and write past it, so it stays refused.
"""

from __future__ import annotations

import libcst as cst

from ... import errors
from .values import ScalarParam


def _assignments(fn: cst.FunctionDef) -> tuple[dict[str, int], set[str]]:
    """(name -> how many times the function assigns it, names assigned inside a for / while loop)."""
    count: dict[str, int] = {}
    in_loop: set[str] = set()
    depth = [0]

    class V(cst.CSTVisitor):
        def visit_For(self, node) -> None:
            depth[0] += 1
            if isinstance(node.target, cst.Name):
                in_loop.add(node.target.value)

        def leave_For(self, node) -> None:
            depth[0] -= 1

        def visit_While(self, node) -> None:
            depth[0] += 1

        def leave_While(self, node) -> None:
            depth[0] -= 1

        def _target(self, t) -> None:
            if isinstance(t, cst.Name):
                count[t.value] = count.get(t.value, 0) + 1
                if depth[0]:
                    in_loop.add(t.value)

        def visit_Assign(self, node) -> None:
            for t in node.targets:
                self._target(t.target)

        def visit_AnnAssign(self, node) -> None:
            self._target(node.target)

        def visit_AugAssign(self, node) -> None:
            self._target(node.target)

    fn.body.visit(V())
    return count, in_loop


def fixed(lw, node) -> bool:
    """Whether ``node`` (a descriptor extent / stride) is one value for the whole kernel: parameters, constexprs,
    ints and locals assigned once outside loops, combined by + - * //."""
    if isinstance(node, cst.Integer):
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract, cst.Multiply,
                                                                           cst.FloorDivide)):
        return fixed(lw, node.left) and fixed(lw, node.right)
    if not isinstance(node, cst.Name):
        return False
    if isinstance(lw.env.get(node.value), ScalarParam) or node.value in {p.name.value for p in lw.fn.params.params}:
        return True
    cache = lw.__dict__.get("_desc_assignments")
    if cache is None:
        cache = lw._desc_assignments = _assignments(lw.fn)
    count, in_loop = cache
    return count.get(node.value) == 1 and node.value not in in_loop


def taken_extent(lw, sh, arr: str, axis: int, what: str) -> None:
    """An extent expression taken as ``arr.shape[axis]`` (noted), else the blocker."""
    if not fixed(lw, sh):
        raise errors.CtrsError(errors.TRITON_DESC_VARYING, f"a {what} extent that a loop reassigns "
                               f"('{lw.tf.module.code_for_node(sh)}')", "each descriptor has its own bounds; the "
                               "port's partition view (make_partition_view of the tensor) has the tensor's extents. "
                               "cutile 0.5.0 could bound one per iteration (make_tensor_view, src/_core.rs:3576, of "
                               "the tensor's get_tensor_base with the runtime extent, then .partition): not lowered "
                               "yet", lw.tf.loc(sh))
    text = lw.tf.module.code_for_node(sh)
    lw.note(sh, "param", f"{what} extent '{text}' is {arr}.shape[{axis}]: the tensor passed must have that extent")


def taken_stride(lw, st, arr: str, axis: int, what: str) -> None:
    """A constexpr / computed stride taken as the tensor's stride of axis ``axis`` (noted), else the blocker."""
    if not fixed(lw, st):
        raise errors.CtrsError(errors.TRITON_DESC_VARYING, f"a {what} stride that a loop reassigns "
                               f"('{lw.tf.module.code_for_node(st)}')", "the port's partition view has the tensor's "
                               "strides", lw.tf.loc(st))
    text = lw.tf.module.code_for_node(st)
    lw.note(st, "param", f"{what} stride '{text}' is {arr}'s axis-{axis} stride: the tensor passed must have it")
