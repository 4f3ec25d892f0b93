"""``tl.make_tensor_descriptor`` whose extents are not the tensor's (issue 18: unsloth's grouped GEMM).

A descriptor's ``shape=`` bounds its loads (zero padding, as TMA reads out-of-bounds lanes) and stores (clipped);
its ``strides=`` address the rows; ``desc.load([o0, o1])`` reads the block at *element* offsets ``o``, any value.

* Every extent a parameter or a constexpr (``shape=[M, K]``): the extent names the tensor's axis (the tensor
  passed must have it, memory.prescan_block_ptrs) and the accesses are partition-view loads / stores at
  ``offset / block`` (a tile index: the offset must be a multiple of the block).
* Any other extent -- a local (``TOTAL_TOKENS = NUM_TOKENS * TOPK``), a per-program value (``m_end`` from a prefix
  sum of loaded sizes), one a loop reassigns (``shape=[m_end, N]`` made inside the per-expert loop) -- bounds
  this descriptor only: taking it as the tensor's extent would read and write past it (the grouped GEMM's expert
  ``e`` would clobber expert ``e + 1``'s rows), and its offsets (``m_start + tile * BLOCK_M``) are rarely whole
  blocks. Such a descriptor is *masked*: each access is a gather / scatter of the flat array (gathers.py) with
  per-lane element offsets ``sum_i (o_i + arange(block_i)) * stride_i`` and the mask ``0 <= o_i + arange(block_i)
  < extent_i`` on every axis, the masked lanes of a load reading 0. That is the descriptor's semantics exactly
  (cutile 0.5.0 could also bound a view per iteration with make_tensor_view, src/_core.rs:3576, but its partition
  is indexed by whole tiles, which these offsets are not). A descriptor of an array that is flat anyway (a
  pointer access of the same parameter, gathers.py) is masked too, whatever its extents.

The extents and strides of a masked descriptor are its source expressions, evaluated at each access: an access
is refused (CTRS-E710) where a name they read may have been reassigned since the descriptor was made (a statement
between the two, or a loop around the access and not around the descriptor that assigns it).
"""

from __future__ import annotations

import libcst as cst

from ... import errors
from ...ir.types import BOOL, I32, DType, ScalarType, Sym, TileType
from ...ir.ops import OpKind
from ...ir.values import Value
from .pointers import Ptr, Range, Term
from .values import Desc, ScalarParam


def _assignments(fn: cst.FunctionDef) -> tuple[dict[str, list], list]:
    """(name -> the nodes that assign it, the for / while loops), over the whole function."""
    where: dict[str, list] = {}
    loops: list = []

    class V(cst.CSTVisitor):
        def visit_For(self, node) -> None:
            loops.append(node)
            for n in names_in(node.target):
                where.setdefault(n, []).append(node)

        def visit_While(self, node) -> None:
            loops.append(node)

        def _target(self, t, node) -> None:
            for n in names_in(t):
                where.setdefault(n, []).append(node)

        def visit_Assign(self, node) -> None:
            for t in node.targets:
                self._target(t.target, node)

        def visit_AnnAssign(self, node) -> None:
            self._target(node.target, node)

        def visit_AugAssign(self, node) -> None:
            self._target(node.target, node)

    fn.body.visit(V())
    return where, loops


def names_in(node) -> list[str]:
    """Every name ``node`` mentions, in order."""
    out: list[str] = []

    class V(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            out.append(n.value)

    node.visit(V())
    return out


def body_local_desc(lw, loop, name: str) -> bool:
    """Descriptor ``name``, made before ``loop`` and made again in its body (unsloth's dW kernel makes x_desc
    once when one flag is set, per expert when another is): the body's is a local of each iteration when the body
    reads ``name`` only after a statement that makes it, and nothing after the loop reads it."""
    made = uses = None
    after = []

    class V(cst.CSTVisitor):
        def visit_Assign(self, node) -> None:
            nonlocal made
            if any(isinstance(t.target, cst.Name) and t.target.value == name for t in node.targets) \
                    and isinstance(node.value, cst.Call) and lw.dotted(node.value.func) == "tl.make_tensor_descriptor":
                line = lw.tf.line(node)
                made = line if made is None else min(made, line)

        def visit_Name(self, node: cst.Name) -> None:
            nonlocal uses
            if node.value == name:
                uses = lw.tf.line(node) if uses is None else min(uses, lw.tf.line(node))

    loop.body.visit(V())

    class A(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            if node.value == name and lw.tf.line(node) > lw.tf.end_line(loop):
                after.append(node)

    lw.fn.body.visit(A())
    return made is not None and uses is not None and made <= uses and not after


def tensors_extent(lw, sh) -> bool:
    """Whether descriptor extent ``sh`` is one the tensor view carries: a scalar parameter or a constexpr."""
    v = lw.env.get(sh.value) if isinstance(sh, cst.Name) else None
    return isinstance(v, (ScalarParam, Sym))


def masked(lw, node, arr: str, shape: list) -> bool:
    """Whether the ``tl.make_tensor_descriptor`` call ``node`` is masked (the module's docstring); remembered for
    its lowering (memory.make_tensor_descriptor)."""
    m = lw.__dict__.setdefault("_desc_masked", {})
    m[id(node)] = arr in lw.flat or not all(tensors_extent(lw, sh) for sh in shape)
    return m[id(node)]


def is_masked(lw, node) -> bool:
    return lw.__dict__.get("_desc_masked", {}).get(id(node), False)


def _check_fresh(lw, d: Desc, use) -> None:
    """CTRS-E710 where a name of ``d``'s extents / strides may be reassigned between ``d.made`` and ``use``."""
    cache = lw.__dict__.get("_desc_assignments")
    if cache is None:
        cache = lw._desc_assignments = _assignments(lw.fn)
    where, loops = cache
    made, at = lw.tf.line(d.made), lw.tf.line(use)
    for e in (*d.shape, *d.strides):
        for name in names_in(e):
            for a in where.get(name, []):
                line = lw.tf.line(a)
                between = made < line < at
                around = any(_inside(lw, a, lp) and _inside(lw, use, lp) and not _inside(lw, d.made, lp)
                             for lp in loops)
                if between or around:
                    raise errors.CtrsError(
                        errors.TRITON_DESC_STALE, f"a tensor descriptor access after '{name}' (an extent or stride "
                        f"of the descriptor made on line {made}) may have been reassigned (line {line})",
                        "the port evaluates a masked descriptor's bounds at each access; make the descriptor after "
                        "the assignment", lw.tf.loc(use))


def _inside(lw, node, loop) -> bool:
    return lw.tf.line(loop) <= lw.tf.line(node) <= lw.tf.end_line(loop)


def _i32_scalar(lw, v, node) -> Value:
    v = lw.value(v, node)
    if isinstance(v, Value) and isinstance(v.type, TileType) and v.type.shape == ():
        v = lw.scalar_0d(v, node)
    if isinstance(v, Value) and isinstance(v.type, ScalarType) and isinstance(v.type.dtype, DType) \
            and v.type.dtype != I32 and v.type.dtype.kind in ("int", "uint"):
        lw.note(node, "gather", f"{v.type.dtype} descriptor offset / bound narrowed to i32 (cuTile gather indices "
                "are i32)")
        v = lw.emit(OpKind.CONVERT, [v], [ScalarType(I32)], node, "doff", no_wrap=True).result
    return lw.i32(v, node)


def masked_access(lw, d: Desc, offs: list, node) -> tuple[Ptr, Value]:
    """The flat pointer and the bounds mask of a masked descriptor's access at element offsets ``offs``."""
    _check_fresh(lw, d, node)
    rank = len(d.block)
    total = mask = None
    for i, (o, b) in enumerate(zip(offs, d.block)):
        start = _i32_scalar(lw, lw.expr(o), o)
        lanes = lw.range_value(Range(size=b, axis=i, ndim=rank), node)
        pos = lw.binary("+", lanes, start, node, "dpos")
        ext = _i32_scalar(lw, lw.expr(d.shape[i]), d.shape[i])
        inb = lw.binary("&", lw.compare("lt", pos, ext, node, "dmask"), lw.compare("ge", pos, 0, node, "dmask"),
                        node, "dmask")
        stride = d.strides[i]
        term = pos if isinstance(stride, cst.Integer) and int(stride.value) == 1 else \
            lw.binary("*", pos, _i32_scalar(lw, lw.expr(stride), stride), node, "doffs")
        if total is None:
            total, mask = term, inb
        else:
            total, term = lw.unify(total, term, node)
            total = lw.binary("+", total, term, node, "doffs")
            mask, inb = lw.unify(mask, inb, node)
            mask = lw.binary("&", mask, inb, node, "dmask")
    if mask.type.dtype != BOOL:
        raise lw.err(node, "a descriptor mask that is not a bool tile")
    return Ptr(d.base, (Term(idx=total, lanes=True),)), mask


def taken_stride(lw, st, arr: str, axis: int, what: str) -> None:
    """A constexpr / computed stride of a view descriptor, taken as the tensor's stride of axis ``axis`` (noted)."""
    text = lw.tf.module.code_for_node(st)
    lw.note(st, "param", f"{what} stride '{text}' is {arr}'s axis-{axis} stride: the tensor passed must have it")
