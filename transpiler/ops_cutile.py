"""Operations for the cuTile Python front end: masks, select, gather/scatter, shape ops, fma contraction.

A mixin of frontend_cutile.KernelFront (like controlflow.ControlFlow): it lowers expressions to typed
model lets through the front end's helpers (``tile``, ``scalar``, ``let``, ``op``, ``_to_tile``) and
reads every Rust form from rules/cutile.toml ([functions], [comparisons], [predicates], [methods],
[ops]). See docs/porting.md §2, §8, §9.

* comparisons on tiles -> ``cmpi`` (integer element types; signedness follows the element type) or
  ``cmpf(.., cmp_ordering::Ordered)``; ``&`` / ``|`` on masks -> ``andi`` / ``ori``; ``ct.where`` ->
  ``select`` with every operand made a tile of the common shape;
* ``ct.gather`` / ``ct.scatter`` on a 1-D array -> the pointer-tile chain of fixtures/masked_gather/port.rs:
  ``get_tensor_base`` + u64 offsets (``exti``) + an unsigned ``cmpi`` bounds mask against the array's
  runtime length; the gather's zero padding is a scalar of the element type, which cutile 0.3.1 can
  only make for a concrete type (``tile_to_scalar`` rejects ``Tile<E, {[]}>``): such a kernel is
  emitted once per element type (transpiler/mono.py); ``mask=`` (a bool tile / scalar) is broadcast to the
  index shape and combined as ``andi(bounds, mask)`` (the mask alone with check_bounds=False), like cuTile
  Python's ``_process_custom_mask`` (:meth:`Ops._custom_mask`; 1-D, 0-d and raw N-d arrays alike);
* ``ct.reshape`` / ``ct.expand_dims`` / ``x[:, None]`` -> ``.reshape``; ``ct.broadcast_to`` ->
  ``.broadcast``; ``ct.transpose`` / ``ct.permute`` -> ``permute(x, const_array![..])``;
* ``a * b + c`` on floats -> ``fma`` where cuTile Python contracts it (:func:`fuse_fma`).
"""

from __future__ import annotations

import dataclasses
import re

import libcst as cst

from . import cutile_defects, errors, mem_cutile, model, specialise
from .cutile_base import Val, literal_text, literal_value

_CMP = {cst.LessThan: "<", cst.LessThanEqual: "<=", cst.GreaterThan: ">", cst.GreaterThanEqual: ">=",
        cst.Equal: "==", cst.NotEqual: "!="}
_FLOATS = ("f16", "bf16", "f32", "f64", "tf32")
_UNRESTRICTED_FLOATS = ("f16", "bf16", "f32", "f64")
ELEM_SCALAR_KIND = "elem_scalar"  # an op needing a scalar of the element type (mono.py expands the kernel)
CONVERT_ELEM_KIND = "convert_elem"  # ct.astype(x, OUT.dtype) with x already of type E (mono.split_dtypes)


def is_float(dtype: str) -> bool:
    return dtype in _FLOATS


class Ops:
    """Mixin: tile operations beyond elementwise arithmetic."""

    def stored_arrays(self) -> set[str]:
        """Arrays the kernel writes (first argument of ct.store / ct.scatter)."""
        if "_stored" not in self.__dict__:
            out, info = set(), self.info

            class V(cst.CSTVisitor):
                def visit_Call(self, node: cst.Call) -> None:
                    if info.dotted(node.func) in ("ct.store", "ct.scatter") and node.args \
                            and isinstance(node.args[0].value, cst.Name):
                        out.add(node.args[0].value.value)

            self.fn.body.visit(V())
            self._stored = out
        return self._stored

    def dtype_named_arrays(self) -> set[str]:
        """Arrays whose ``.dtype`` the kernel reads."""
        if "_dtype_named" not in self.__dict__:
            out = set()

            class V(cst.CSTVisitor):
                def visit_Attribute(self, node: cst.Attribute) -> None:
                    if node.attr.value == "dtype" and isinstance(node.value, cst.Name):
                        out.add(node.value.value)

            self.fn.body.visit(V())
            self._dtype_named = out
        return self._dtype_named

    # -- comparisons / masks / select --------------------------------------------------------

    def _compare(self, node: cst.Comparison, hint: str):
        if len(node.comparisons) != 1:
            raise self._err(node, "no rule for a chained comparison", "split it: (a < b) & (b < c)")
        c = node.comparisons[0]
        sym = _CMP.get(type(c.operator))
        if sym is None:
            raise self._err(node, f"no rule for comparison '{type(c.operator).__name__}'", "use < <= > >= == !=")
        a, b = self._expr(node.left, f"{hint}_lhs"), self._expr(c.comparator, f"{hint}_rhs")
        return self._compare_vals(node, sym, a, b, node.left, c.comparator, hint)

    def _lower_compare_fn(self, node, rule, fname, hint):
        """ct.greater(x, y) & co. -> the comparison operator ``rule['op']``."""
        args = self._only(self._args(node, ["x", "y"]), ("x", "y"), fname)
        a, b = self._expr(args["x"], f"{hint}_lhs"), self._expr(args["y"], f"{hint}_rhs")
        return self._compare_vals(node, rule["op"], a, b, args["x"], args["y"], hint)

    def _lower_divmod_fn(self, node, rule, fname, hint):
        """ct.floordiv / ct.mod on i32 scalars (Python floor semantics)."""
        args = self._only(self._args(node, ["x", "y"]), ("x", "y"), fname)
        a, b = self._expr(args["x"], f"{hint}_lhs"), self._expr(args["y"], f"{hint}_rhs")
        if a.kind == "tile" or b.kind == "tile":
            raise self._err(node, f"no rule for {fname} on tiles", "only i32 scalars are translated so far")
        return self._floor_divmod(node, rule["op"], a, b, hint)

    def _compare_vals(self, node, sym: str, a, b, lnode, rnode, hint: str):
        tiles = [v for v in (a, b) if v.kind == "tile"]
        if not tiles:
            return self._scalar_compare(node, sym, a, b, hint)  # frontend_cutile: literals fold, i32 -> bool let
        dtype = tiles[0].dtype
        if any(t.dtype != dtype for t in tiles):
            self._retype_mixed(tiles)
            raise self._err(node, f"comparison mixes tile dtypes {tiles[0].dtype} and {tiles[-1].dtype}",
                            "cast one side with ct.astype", errors.TRANSLATE_TYPE)
        if dtype == specialise.ELEMENT_GENERIC or dtype == "bool":
            raise self._err(node, f"no rule to compare tiles of element type {dtype}",
                            "cast to a concrete dtype first (cmpi vs cmpf depends on it)", errors.TRANSLATE_TYPE)
        shape = self._broadcast_shape([t.type.shape for t in tiles], node)
        an = self._to_tile(a, dtype, shape, f"{hint}_a", lnode)
        bn = self._to_tile(b, dtype, shape, f"{hint}_b", rnode)
        tmpl = self.rules["comparisons"]["float" if is_float(dtype) else "int"]
        op = self.op("compare", tmpl, node, a=an, b=bn, pred=self.rules["predicates"][sym])
        return self.tile(hint, "bool", shape, op, node)

    def _only(self, args: dict, allowed: tuple, fname: str) -> dict:
        for k in args:
            if k not in allowed:
                raise self._err(args[k], f"no rule for {fname}({k}=..)", "see docs/porting.md §2")
        return args

    def _lower_where(self, node, rule, fname, hint):
        args = self._only(self._args(node, ["cond", "x", "y"]), ("cond", "x", "y"), fname)
        cond = self._as_tile(args["cond"], f"{hint}_cond")
        if cond.dtype != "bool":
            raise self._err(args["cond"], "ct.where needs a boolean mask tile", "build it with a comparison",
                            errors.TRANSLATE_TYPE)
        a, b = self._expr(args["x"], f"{hint}_x"), self._expr(args["y"], f"{hint}_y")
        tiles = [v for v in (a, b) if v.kind == "tile"]
        lits = [v.value for v in (a, b) if v.kind == "literal"]
        if not tiles and len(lits) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in lits):
            # ct.where(mask, 0.0, -math.inf): the literals' default dtype (f32 if any is a float, else i32)
            tiles = [Val("tile", "", model.TileT("f32" if any(isinstance(x, float) for x in lits) else "i32", ()),
                         "f32" if any(isinstance(x, float) for x in lits) else "i32")]
        if not tiles:
            raise self._err(node, "no rule for ct.where on two scalars", "make one side a tile", errors.TRANSLATE_TYPE)
        dtype = tiles[0].dtype
        if any(t.dtype != dtype for t in tiles):
            raise self._err(node, f"ct.where mixes tile dtypes {tiles[0].dtype} and {tiles[-1].dtype}",
                            "cast one side with ct.astype", errors.TRANSLATE_TYPE)
        shape = self._broadcast_shape([cond.type.shape] + [t.type.shape for t in tiles], node)
        cn = self._to_tile(cond, "bool", shape, f"{hint}_m", args["cond"])
        an = self._to_tile(a, dtype, shape, f"{hint}_a", args["x"])
        bn = self._to_tile(b, dtype, shape, f"{hint}_b", args["y"])
        return self.tile(hint, dtype, shape, self.op("select", rule["template"], node, cond=cn, a=an, b=bn), node)

    def _negate(self, node: cst.UnaryOperation, hint: str):
        v = self._expr(node.expression, f"{hint}_in")
        if v.kind == "tile":
            rule = self.rules["functions"]["ct.negative"]
            tmpl = rule["template"] if is_float(v.dtype) else rule["template_int"]
            return self.tile(hint, v.dtype, v.type.shape, self.op("unary", tmpl, node, x=v.name), node)
        if v.kind == "scalar" and v.dtype in ("i32", "f32"):  # negi / negf on a 0-d tile, as cuTile Python
            rule = self.rules["functions"]["ct.negative"]
            t0 = model.TileT(v.dtype, ())
            xt = self.let(f"{hint}_t", t0, self.op("scalar_to_tile", self.ops("scalar_to_tile"), node, x=v.name), node)
            nt = self.let(f"{hint}_neg", t0, self.op("unary", rule["template"] if is_float(v.dtype)
                                                     else rule["template_int"], node, x=xt), node)
            return self.scalar(hint, v.dtype, self.op("tile_to_scalar", self.ops("tile_to_scalar"), node, x=nt), node)
        raise self._err(node, "no rule for unary minus here", "negate a tile or a scalar", errors.TRANSLATE_TYPE)

    # -- scalars ---------------------------------------------------------------------------

    def _lower_scalar_fn(self, node, rule, fname, hint):
        args = self._args(node, ["a", "b"])
        vals = [self._expr(args[k], f"{hint}_{k}") for k in ("a", "b")]
        if not all(v.kind == "literal" and isinstance(v.value, int) or (v.kind == "scalar" and v.dtype == "i32")
                   for v in vals):
            raise self._err(node, f"no rule for {fname} on these operands", "both operands must be i32 scalars",
                            errors.TRANSLATE_TYPE)
        txt = [f"{v.value}i32" if v.kind == "literal" else v.name for v in vals]
        return self.scalar(hint, "i32", self.op("scalar_fn", rule["template"], node, a=txt[0], b=txt[1]), node)

    def _scalar_float_binop(self, node, sym: str, a, b, hint: str):
        """f32 scalar arithmetic (``qk_scale * INV_LOG_2``); None when the operands are not f32/literals."""
        tmpl = self.rules.get("scalar_float_operators", {}).get(sym)
        if tmpl is None or not any(v.kind == "scalar" and v.dtype == "f32" for v in (a, b)):
            return None
        if not all(v.kind == "literal" and isinstance(v.value, (int, float)) and not isinstance(v.value, bool)
                   or (v.kind == "scalar" and v.dtype == "f32") for v in (a, b)):
            return None
        txt = [literal_text(v.value, "f32") if v.kind == "literal" else v.name for v in (a, b)]
        return self.scalar(hint, "f32", self.op("scalar_binary", tmpl, node, a=txt[0], b=txt[1]), node)

    def _floor_divmod(self, node, sym: str, a, b, hint: str):
        """Python ``a // b`` / ``a % b`` on i32 scalars (floor semantics) in the form cuTile Python emits."""
        if not all(v.kind == "literal" and isinstance(v.value, int) and not isinstance(v.value, bool)
                   or (v.kind == "scalar" and v.dtype == "i32") for v in (a, b)):
            raise self._err(node, f"no rule for scalar operator '{sym}' on these operands", "use i32 scalars",
                            errors.TRANSLATE_TYPE)
        t0 = model.TileT("i32", ())
        bt = model.TileT("bool", ())

        def as_tile(v, h):
            if v.kind == "literal":
                return self.let(h, t0, self.op("constant", self.ops("constant"), node, value=f"{v.value}i32", shape=""),
                                node)
            return self.let(h, t0, self.op("scalar_to_tile", self.ops("scalar_to_tile"), node, x=v.name), node)

        at, btile = as_tile(a, f"{hint}_a"), as_tile(b, f"{hint}_b")
        if sym == "//":
            q = self.let(f"{hint}_q", t0, self.op("floordiv", self.ops("floordiv"), node, a=at, b=btile), node)
            return self.scalar(hint, "i32", self.op("tile_to_scalar", self.ops("tile_to_scalar"), node, x=q), node)
        r = self.let(f"{hint}_rem", t0, self.op("remi", self.ops("remi"), node, a=at, b=btile), node)
        z = self.let(f"{hint}_zero", t0, self.op("constant", self.ops("constant"), node, value="0i32", shape=""), node)
        rneg = self.let(f"{hint}_rneg", bt, self.op("compare", self.ops("cmp_scalar"), node, a=r, b=z,
                                                    pred="LessThan"), node)
        if b.kind == "literal" or self._is_const_generic(b):
            # cuTile Python folds `divisor < 0` to an i1 constant. cutile 0.3.1 writes `constant(false, ..)` as
            # true (its dense attribute encodes any literal text but "0" as 0xFF), but a `bool` scalar let is
            # encoded from its value: `false` / `G < 0i32` (folded from G's exact bounds) -> constant <i1: false>.
            sign = (("true" if b.value < 0 else "false") if b.kind == "literal"
                    else self.ops("const_negative").format(x=b.name))
            bs = self.let(f"{hint}_bneg_s", model.ScalarT("bool"), self.op("value", self.ops("value"), node, x=sign), node)
            bneg = self.let(f"{hint}_bneg", bt, self.op("scalar_to_tile", self.ops("scalar_to_tile"), node, x=bs), node)
        else:
            bneg = self.let(f"{hint}_bneg", bt, self.op("compare", self.ops("cmp_scalar"), node, a=btile, b=z,
                                                        pred="LessThan"), node)
        sgn = self.let(f"{hint}_sgn", bt, self.op("xori", self.ops("xori"), node, a=rneg, b=bneg), node)
        nz = self.let(f"{hint}_nz", bt, self.op("compare", self.ops("cmp_scalar"), node, a=r, b=z, pred="NotEqual"), node)
        fix = self.let(f"{hint}_fix", bt, self.op("andi", self.ops("andi"), node, a=sgn, b=nz), node)
        rb = self.let(f"{hint}_rb", t0, self.op("addi", self.ops("add"), node, a=r, b=btile), node)
        m = self.let(f"{hint}_mod", t0, self.op("select", self.ops("select"), node, cond=fix, a=rb, b=r), node)
        return self.scalar(hint, "i32", self.op("tile_to_scalar", self.ops("tile_to_scalar"), node, x=m), node)

    def const_names(self) -> set[str]:
        """Names a constant ``if`` may test: const generics and dtype flags (for fuse_fma)."""
        return set(self.const_rust.values()) | set(getattr(self, "flags", {}))

    def _is_const_generic(self, v) -> bool:
        return v.kind == "scalar" and v.name in self.const_rust.values()

    def _scalar_binary_fn(self, node, rule, fname, hint, a, b, modes):
        """``ct.maximum`` / ``ct.minimum`` / ``max`` / ``min`` on scalars: the tile op on 0-d tiles (maxi for
        i32, maxf for f32), as cuTile Python emits it; scalar_to_tile / tile_to_scalar emit no op."""
        vals = (a, b)
        if "template_int" not in rule or not all(
                v.kind == "scalar" and v.dtype in ("i32", "f32")
                or v.kind == "literal" and isinstance(v.value, (int, float)) and not isinstance(v.value, bool)
                for v in vals):
            raise self._err(node, f"no rule for {fname} on scalars here",
                            "scalar math supports + - * // % on i32 and ct.maximum/ct.minimum", errors.TRANSLATE_TYPE)
        dtype = "f32" if any(v.dtype == "f32" for v in vals if v.kind == "scalar") \
            or any(isinstance(v.value, float) for v in vals if v.kind == "literal") else "i32"
        t0 = model.TileT(dtype, ())
        names = []
        for v, h in zip(vals, ("a", "b")):
            if v.kind == "literal":
                op = self.op("constant", self.ops("constant"), node, value=constant_text(v.value, dtype), shape="")
            elif v.dtype != dtype:
                raise self._err(node, f"{fname} mixes i32 and f32 scalars", "convert explicitly", errors.TRANSLATE_TYPE)
            else:
                op = self.op("scalar_to_tile", self.ops("scalar_to_tile"), node, x=v.name)
            names.append(self.let(f"{hint}_{h}", t0, op, node))
        tmpl = rule["template_int"] if dtype == "i32" else rule["template"]
        r = self.let(f"{hint}_t", t0, self.op("binary", tmpl, node, a=names[0], b=names[1], **modes), node)
        return self.scalar(hint, dtype, self.op("tile_to_scalar", self.ops("tile_to_scalar"), node, x=r), node)

    # -- iota -------------------------------------------------------------------------------

    def _lower_arange(self, node, rule, fname, hint):
        args = self._only(self._args(node, ["size"]), ("size", "dtype"), fname)
        dims = self._shape_dims(cst.Tuple([cst.Element(args["size"])]))
        dt = self._expr(args["dtype"], hint) if "dtype" in args else None
        dtype = dt.dtype if dt is not None and dt.kind == "dtype" else None
        if dtype not in ("i32",):
            raise self._err(node, "no rule for ct.arange without dtype=ct.int32", "write ct.arange(N, dtype=ct.int32)",
                            errors.TRANSLATE_TYPE)
        return self.tile(hint, dtype, dims, self.op("iota", rule["template"], node, n=dims[0]), node)

    # -- shape ops --------------------------------------------------------------------------

    def _reshaped(self, x, shape: tuple[str, ...], node, hint: str):
        if tuple(shape) == tuple(x.type.shape):
            return x
        return self.tile(hint, x.dtype, tuple(shape), self.op("reshape", self.ops("reshape"), node, x=x.name,
                                                              shape=", ".join(shape)), node)

    def _lower_reshape(self, node, rule, fname, hint):
        args = self._only(self._args(node, ["x", "shape"]), ("x", "shape"), fname)
        x = self._as_tile(args["x"], f"{hint}_in")
        shape = args["shape"]
        dims = () if isinstance(shape, cst.Tuple) and not shape.elements else self._shape_dims(shape)
        return self._reshaped(x, dims, node, hint)

    def _lower_expand_dims(self, node, rule, fname, hint):
        args = self._only(self._args(node, ["x", "axis"]), ("x", "axis"), fname)
        x = self._as_tile(args["x"], f"{hint}_in")
        axis = self._literal_int(args.get("axis"), node, "ct.expand_dims needs a literal axis")
        shape = list(x.type.shape)
        axis = axis % (len(shape) + 1)
        shape.insert(axis, "1")
        return self._reshaped(x, tuple(shape), node, hint)

    def _lower_broadcast_to(self, node, rule, fname, hint):
        args = self._only(self._args(node, ["x", "shape"]), ("x", "shape"), fname)
        x = self._as_tile(args["x"], f"{hint}_in")
        dims = self._shape_dims(args["shape"])
        self._broadcast_shape([x.type.shape, dims], node)
        name = self._to_tile(x, x.dtype, dims, hint, node)
        return x if name == x.name else self._val_of(name, x.dtype, dims)

    def _val_of(self, name: str, dtype: str, shape):
        let = getattr(self, "_last_let", None)
        return Val("tile", name, model.TileT(dtype, tuple(shape)), dtype, let=let if let and let.name == name else None)

    def _lower_permute(self, node, rule, fname, hint):
        if fname == "ct.transpose":
            args = self._only(self._args(node, ["x", "axis0", "axis1"]), ("x", "axis0", "axis1"), fname)
            x = self._as_tile(args["x"], f"{hint}_in")
            rank = len(x.type.shape)
            if "axis0" in args or "axis1" in args:
                a0 = self._literal_int(args.get("axis0"), node, "ct.transpose needs literal axes") % rank
                a1 = self._literal_int(args.get("axis1"), node, "ct.transpose needs literal axes") % rank
            elif rank == 2:
                a0, a1 = 0, 1
            else:
                raise self._err(node, "ct.transpose of a tile that is not 2-D needs axis0/axis1", "pass the axes",
                                errors.TRANSLATE_TYPE)
            perm = list(range(rank))
            perm[a0], perm[a1] = perm[a1], perm[a0]
        else:
            args = self._only(self._args(node, ["x", "axes"]), ("x", "axes"), fname)
            x = self._as_tile(args["x"], f"{hint}_in")
            rank = len(x.type.shape)
            axes = args.get("axes")
            if not isinstance(axes, (cst.Tuple, cst.List)):
                raise self._err(node, "ct.permute needs a literal axes tuple", "write ct.permute(x, (1, 0))",
                                errors.TRANSLATE_TYPE)
            perm = [self._literal_int(e.value, node, "ct.permute needs literal axes") % rank for e in axes.elements]
            if sorted(perm) != list(range(rank)):
                raise self._err(node, f"{perm} is not a permutation of the tile's {rank} axes", "fix the axes",
                                errors.TRANSLATE_TYPE)
        if perm == list(range(rank)):
            return x
        shape = tuple(x.type.shape[p] for p in perm)
        op = self.op("permute", self.ops("permute"), node, x=x.name, perm=", ".join(str(p) for p in perm))
        return self.tile(hint, x.dtype, shape, op, node)

    def _literal_int(self, node, call, msg: str) -> int:
        v = self._expr(node, "lit") if node is not None else None
        if v is None or v.kind != "literal" or not isinstance(v.value, int) or isinstance(v.value, bool):
            raise self._err(node if node is not None else call, msg, "use an int literal", errors.TRANSLATE_TYPE)
        return v.value

    def _tile_subscript(self, base, node: cst.Subscript, hint: str):
        """``x[:, None]`` / ``x[None, :]`` (``None`` inserts a size-1 axis, ``:`` keeps one) -> reshape."""
        shape = list(base.type.shape)
        out, i = [], 0
        for el in node.slice:
            s = el.slice
            if isinstance(s, cst.Index) and isinstance(s.value, cst.Name) and s.value.value == "None":
                out.append("1")
            elif isinstance(s, cst.Slice) and s.lower is None and s.upper is None and s.step is None:
                if i >= len(shape):
                    raise self._err(node, "too many ':' for the tile's rank", "match the rank", errors.TRANSLATE_TYPE)
                out.append(shape[i])
                i += 1
            else:
                raise self._err(node, "no rule for this tile subscript", "only ':' and None (x[:, None]) index tiles")
        out.extend(shape[i:])
        return self._reshaped(base, tuple(out), node, hint)

    # -- method calls ------------------------------------------------------------------------

    def _method_call(self, node: cst.Call, hint: str):
        """``t.astype(T)`` / ``t.reshape(s)`` / ``t.transpose()``: the ct function with the tile first."""
        if not isinstance(node.func, cst.Attribute):
            return None
        meth = node.func.attr.value
        fname = self.rules.get("methods", {}).get(meth)
        if fname is None:
            return None
        recv = node.func.value
        base = self._expr(recv, f"{hint}_in")
        if base.kind != "tile":
            return None
        tmp = None
        if not isinstance(recv, cst.Name):  # lower the receiver once: bind it to a synthetic name meanwhile
            tmp = "__recv"
            while tmp in self.env:
                tmp += "_"
            self.env[tmp] = base
            recv = cst.Name(tmp)
        call = node.with_changes(args=[cst.Arg(recv), *node.args])
        rule = self.rules["functions"][fname]
        try:
            return getattr(self, f"_lower_{rule['lower']}")(call, rule, fname, hint)
        finally:
            if tmp is not None:
                self.env.pop(tmp, None)

    # -- gather / scatter ---------------------------------------------------------------------

    def _ptr_index(self, arr, idx_node, node, hint: str, check: bool):
        """u64 offsets, pointer tile and (check_bounds) mask for a 1-D gather/scatter of ``arr``."""
        if arr.name in getattr(self, "raw_arrays", ()):  # N-d: mem_cutile.py
            return self._ptr_index_raw(arr, idx_node, node, hint, check)
        if arr.ndim != 1:
            raise self._err(node, f"no rule for ct.gather/ct.scatter on a {arr.ndim}-d array",
                            "only 1-D arrays with a tile index are translated so far")
        idx = self._expr(idx_node, f"{hint}_idx")
        if idx.kind in ("scalar", "literal"):  # one element: a 0-d gather/scatter (mem_cutile.py)
            return self._ptr_index_scalar(arr, idx, idx_node, node, hint, check)
        if idx.kind == "tile" and idx.dtype == specialise.ELEMENT_GENERIC:
            self._retype_mixed([idx, Val_i32()])  # indices loaded from an E array: that array holds int32
        if idx.kind != "tile" or idx.dtype != "i32" or len(idx.type.shape) != 1:
            raise self._err(idx_node, "a gather/scatter index must be a 1-D int32 tile", "build it with ct.arange",
                            errors.TRANSLATE_TYPE)
        shape = idx.type.shape
        n = ", ".join(shape)
        a = arr.name
        off64 = self.let(f"{a}_idx", model.TileT("u64", shape), self.op("exti", self.ops("exti"), node, x=idx.name), node)
        mask = None
        if check:
            st = model.OpaqueT("Shape<{ [-1] }>")
            sname = self.let(f"{a}_shape", st, self.op("shape_of", self.ops("shape_of"), node, array=a), node)
            dim = self.let(f"{a}_len", model.TileT("i32", ()), self.op("scalar_to_tile", self.ops("scalar_to_tile"), node,
                           x=self.ops("shape_dim").format(shape=sname, axis="0")), node)
            dim64 = self.let(f"{a}_len64", model.TileT("u64", ()), self.op("exti", self.ops("exti"), node, x=dim), node)
            dim1 = self.let(f"{a}_len1", model.TileT("u64", ("1",)), self.op("reshape", self.ops("reshape"), node,
                            x=dim64, shape="1"), node)
            dimb = self.let(f"{a}_lenb", model.TileT("u64", shape), self.op("broadcast", self.ops("broadcast"), node,
                            x=dim1, shape=n), node)
            mask = self.let(f"{a}_mask", model.TileT("bool", shape),
                            self.op("compare", self.ops("cmp_unsigned"), node, a=off64, b=dimb), node)
        off = self.let(f"{a}_off", model.TileT("u64", shape),
                       self.op("mul_const", self.ops("mul_const"), node, x=off64, value="1u64", shape=n), node)
        e = arr.dtype
        base = self.let(f"{a}_base", model.OpaqueT(f"PointerTile<*mut {e}, {{ [] }}>"),
                        self.op("tensor_base", self.ops("tensor_base"), node, array=a), node)
        b1 = self.let(f"{a}_base1", model.OpaqueT(f"PointerTile<*mut {e}, {{ [1] }}>"),
                      self.op("reshape", self.ops("reshape"), node, x=base, shape="1"), node)
        bb = self.let(f"{a}_baseb", model.OpaqueT(f"PointerTile<*mut {e}, {{ [{n}] }}>"),
                      self.op("broadcast", self.ops("broadcast"), node, x=b1, shape=n), node)
        ptrs = self.let(f"{a}_ptrs", model.OpaqueT(f"PointerTile<*mut {e}, {{ [{n}] }}>"),
                        self.op("ptr_offset", self.ops("ptr_offset"), node, ptr=bb, off=off), node)
        return ptrs, mask, shape

    def _custom_mask(self, args, bounds, shape: tuple, arr, node, hint: str):
        """``mask=`` of ct.gather / ct.scatter combined with the bounds mask ``bounds`` (None: check_bounds=False)
        the way cuTile Python's ``_process_custom_mask`` does: a bool tile (or bool scalar, a 0-d tile there)
        broadcast to the index shape ``shape`` (no-op when equal; reshape + broadcast otherwise), then
        ``andi(bounds, mask)``; without bounds checks the user mask alone. ``mask=None`` is no mask."""
        if "mask" not in args:
            return bounds
        mnode = args["mask"]
        if isinstance(mnode, cst.Name) and mnode.value == "None":
            return bounds
        fname = self.info.dotted(node.func) or "ct.gather"
        m = self._expr(mnode, f"{arr.name}_cmask")
        if m.kind == "literal" and m.value is None:
            return bounds
        if m.kind in ("tile", "scalar") and m.dtype != "bool":
            raise self._err(mnode, f"{fname} mask must be bool, got a {m.kind} of type {m.dtype}",
                            "compare to make a mask (e.g. offs < n)", errors.TRANSLATE_TYPE)
        if m.kind not in ("tile", "scalar"):
            what = f"the constant {m.value!r}" if m.kind == "literal" else f"a {m.kind}"
            raise self._err(mnode, f"no rule for {fname}(mask=..) given {what}",
                            "pass a bool tile broadcastable to the index shape (e.g. offs < n) or a bool scalar; "
                            "drop a constant True mask", errors.NO_RULE)
        ms = m.type.shape if m.kind == "tile" else ()
        if len(ms) > len(shape) or any(d not in ("1", s) for d, s in zip(ms[::-1], shape[::-1])):
            raise self._err(mnode, f"{fname} mask of shape ({', '.join(ms)}) does not broadcast to the index shape "
                                   f"({', '.join(shape)})", "build the mask from the index tile (e.g. offs < n)",
                            errors.TRANSLATE_TYPE)
        user = self._to_tile(m, "bool", tuple(shape), f"{arr.name}_umask", mnode)
        if bounds is None:
            return user
        return self.let(f"{arr.name}_mask", model.TileT("bool", tuple(shape)),
                        self.op("andi", self.ops("andi"), node, a=bounds, b=user), node)

    def _latency(self, args) -> str:
        if "latency" not in args:
            return "0"
        v = self._expr(args["latency"], "lat")
        if v.kind != "literal" or not isinstance(v.value, int):
            raise self._err(args["latency"], "latency must be an int literal", "constant hints only")
        return str(v.value)

    def _lower_gather(self, node, rule, fname, hint):
        args = self._args(node, ["array", "indices"])
        for k in args:
            if k not in ("array", "indices", "mask", "check_bounds", "padding_value", "latency"):
                raise self._err(args[k], f"no rule for ct.gather({k}=..)", "see docs/porting.md §2")
        arr = self._array(args["array"])
        check = self._kw_bool(args, "check_bounds", True)
        e = arr.dtype
        pad = 0
        if "padding_value" in args:
            pv = self._expr(args["padding_value"], "pad")
            pad = pv.value if pv.kind == "literal" else None
        # a generic E becomes concrete per entry (mono.expand); its +-inf is spelled through constant_f32
        spelled = _pad_spelling(pad, e)
        if spelled is None:
            raise self._err(args["padding_value"], "no rule for this gather padding value",
                            "pad with 0 or +-inf (the literals cutile 0.3.1 can spell for every element type), "
                            "then ct.where")
        ptrs, mask, shape = self._ptr_index(arr, args["indices"], node, hint, check)
        mask = self._custom_mask(args, mask, shape, arr, node, hint)
        pad_op = self.op("constant", self.ops(spelled[0]), node, value=spelled[1], shape="")
        if spelled[0] == cutile_defects.CONST_DECL and e == specialise.ELEMENT_GENERIC:
            pad_op = dataclasses.replace(pad_op, literal=pad)  # mono.expand spells it for each concrete E
        zt = self.let(f"{arr.name}_zero_t" if pad == 0 else f"{arr.name}_pad_t", model.TileT(e, ()), pad_op, node)
        zero = self.let(f"{arr.name}_zero" if pad == 0 else f"{arr.name}_pad", model.ScalarT(e),
                        self.op(ELEM_SCALAR_KIND, self.ops("tile_to_scalar"), node, x=zt), node)
        v = self.fresh(hint)
        tok = self.fresh(f"_{hint}_tok")
        typ = model.OpaqueT(f"(Tile<{e}, {{ [{', '.join(shape)}] }}>, Token)")
        mask = self.ops("some").format(x=mask) if mask else self.ops("none")
        op = self.op("load_ptr", self._ptr_template("load_ptr", arr), node, True, ptrs=ptrs, mask=mask, pad=zero, array=arr.name,
                     latency=self._latency(args))
        self.emit(model.Let(f"({v}, {tok})", typ, op, self.info.span(node)))
        return Val("tile", v, model.TileT(e, shape), e)

    def _lower_scatter(self, node, rule, fname, hint):
        args = self._args(node, ["array", "indices", "value"])
        for k in args:
            if k not in ("array", "indices", "value", "mask", "check_bounds", "latency"):
                raise self._err(args[k], f"no rule for ct.scatter({k}=..)", "see docs/porting.md §2")
        arr = self._array(args["array"])
        check = self._kw_bool(args, "check_bounds", True)
        t = self._expr(args["value"], f"{hint}_val")
        ptrs, mask, shape = self._ptr_index(arr, args["indices"], node, hint, check)
        mask = self._custom_mask(args, mask, shape, arr, node, hint)
        self._retype_check(arr, t, args["value"])
        if t.kind == "tile" and t.dtype != arr.dtype:
            raise self._err(args["value"], f"scattered tile has dtype {t.dtype}, array '{arr.name}' has {arr.dtype}",
                            f"cast explicitly: ct.astype(tile, {arr.name}.dtype)", errors.TRANSLATE_TYPE)
        tn = self._to_tile(t, arr.dtype, shape, f"{hint}_v", args["value"])
        mask = self.ops("some").format(x=mask) if mask else self.ops("none")
        op = self.op("store_ptr", self._ptr_template("store_ptr", arr), node, True, ptrs=ptrs, tile=tn, mask=mask, array=arr.name,
                     latency=self._latency(args))
        self.let("_done", model.OpaqueT("Token"), op, node)
        return Val("literal", value=None)


def Val_i32():
    """A stand-in int32 tile (for _retype_mixed: an E index tile meets int32)."""
    return Val("tile", "_i32", model.TileT("i32", ()), "i32")


def _pad_spelling(value, dtype: str) -> tuple[str, str] | None:
    """(``[ops]`` template, value) of the 0-d constant for a gather padding value (0 / +-inf work for a generic
    E made concrete)."""
    if dtype == specialise.ELEMENT_GENERIC and isinstance(value, float) and value in (float("inf"), float("-inf")):
        return cutile_defects.CONST_DECL, cutile_defects.f32_constant(value, dtype, generic=True)
    if dtype == specialise.ELEMENT_GENERIC:
        return ("constant", f"{dtype}::ZERO") if value == 0 and not isinstance(value, bool) else None
    if value == 0 and not isinstance(value, bool) and dtype in ("f16", "bf16", "f32", "f64", "tf32"):
        return "constant", f"{dtype}::ZERO" if dtype in ("f16", "bf16", "tf32") else f"0.0{dtype}"
    return constant_spelling(value, dtype) if value is not None else None


# ---------------------------------------------------------------------------------------------- fma


_WORD = re.compile(r"[A-Za-z_]\w*")


def fuse_fma(stmts: list, rules: dict, const_names=frozenset()) -> list:
    """Contract ``m = a * b; s = m + c`` (or ``c + m``, ``m - c``, ``c - m``) into ``fma`` the way cuTile
    Python's rewrite does: float tiles of an unrestricted float type (or f32 scalars, on 0-d tiles), equal
    rounding/ftz modes on both ops, and ``m`` used by nothing but the add/sub. ``c - m`` becomes
    ``fma(negf(a), b, c)``, ``m - c`` ``fma(a, b, negf(c))``. Applied to the whole kernel body.

    An ``if`` on constants (``const_names``: const generics, dtype flags) is folded by the JIT before
    cuTile Python rewrites, so uses count per arm (the larger arm) and each arm fuses on its own; ``m``
    itself is dropped only when every use of it was fused."""
    funcs = rules["functions"]
    mul_t = {funcs["ct.mul"]["template"], funcs["ct.mul"]["template_modes"]}
    add_t = {funcs["ct.add"]["template"]: "add", funcs["ct.add"]["template_modes"]: "add",
             funcs["ct.sub"]["template"]: "sub", funcs["ct.sub"]["template_modes"]: "sub"}
    fma_t = rules["ops"]["fma"]
    sfo = rules.get("scalar_float_operators", {})
    smul_t = sfo.get("*")
    sadd_t = {sfo.get("+"): "add", sfo.get("-"): "sub"}
    neg_t = funcs["ct.negative"]["template"]

    total: dict[str, int] = {}  # every textual use (and every defined name, reserved for _fresh)
    defs: dict[str, model.Let] = {}

    def const_if(s) -> bool:
        return isinstance(s, model.IfConst) and all(w in const_names or w in ("i32", "true", "false")
                                                   for w in _WORD.findall(s.cond))

    def count(block) -> dict[str, int]:
        eff: dict[str, int] = {}

        def use(text: str) -> None:
            for w in _WORD.findall(text):
                eff[w] = eff.get(w, 0) + 1
                total[w] = total.get(w, 0) + 1

        for s in block:
            op = getattr(s, "op", None)
            if isinstance(op, model.Op):
                for _, v in op.operands:
                    use(v)
            for attr in ("start", "stop", "step", "cond"):
                v = getattr(s, attr, None)
                if isinstance(v, str):
                    use(v)
            if isinstance(s, model.Assign):
                use(s.name)
            if isinstance(s, model.Let):
                total.setdefault(s.name, 0)
                if s.op.kind in ("binary", "scalar_binary"):
                    defs[s.name] = s
            if const_if(s):
                a, b = count(s.then), count(s.otherwise)
                for w in set(a) | set(b):
                    eff[w] = eff.get(w, 0) + max(a.get(w, 0), b.get(w, 0))
                continue
            for attr in ("body", "then", "otherwise"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    for w, n in count(sub).items():
                        eff[w] = eff.get(w, 0) + n
        return eff

    eff = count(stmts)
    fused: dict[str, int] = {}

    def mul_of(name: str, consumed: set):
        d = defs.get(name)
        if d is None or name in consumed or eff.get(name, 0) != 1 or d.mutable:
            return None
        if d.op.kind == "scalar_binary":
            return d if d.op.template == smul_t and d.type == model.ScalarT("f32") else None
        if d.op.template not in mul_t or not isinstance(d.type, model.TileT):
            return None
        return d if d.type.dtype in _UNRESTRICTED_FLOATS else None

    def modes_of(op) -> tuple[str, str]:
        o = dict(op.operands)
        return o.get("rounding", "rounding::NearestEven"), o.get("ftz", "ftz::Disabled")

    def addsub(s) -> tuple[str, bool] | None:
        """('add'|'sub', scalar?) when ``s`` is a float add/sub that may absorb a mul."""
        op = getattr(s, "op", None)
        if not isinstance(op, model.Op):
            return None
        if op.kind == "scalar_binary" and op.template in sadd_t and (
                isinstance(s, model.Assign) or getattr(s, "type", None) == model.ScalarT("f32")):
            return sadd_t[op.template], True
        if op.kind == "binary" and op.template in add_t and (
                isinstance(s, model.Assign) or isinstance(getattr(s, "type", None), model.TileT)
                and s.type.dtype in _UNRESTRICTED_FLOATS):
            return add_t[op.template], False
        return None

    def rewrite(block, consumed: set) -> list:
        out = []
        for s in block:
            if const_if(s):
                c1, c2 = set(consumed), set(consumed)
                s = dataclasses.replace(s, then=rewrite(s.then, c1), otherwise=rewrite(s.otherwise, c2))
                consumed |= c1 | c2
            else:
                for attr in ("body", "then", "otherwise"):
                    sub = getattr(s, attr, None)
                    if isinstance(sub, list):
                        s = dataclasses.replace(s, **{attr: rewrite(sub, consumed)})
            kind = addsub(s)
            if kind is None:
                out.append(s)
                continue
            fn, scalar = kind
            op = s.op
            o = dict(op.operands)
            lhs, rhs = o["a"], o["b"]
            m, rhs_is_mul = mul_of(lhs, consumed), False
            if m is None:
                m = mul_of(rhs, consumed)
                rhs_is_mul = m is not None
            if m is None or (m.op.kind == "scalar_binary") != scalar or modes_of(m.op) != modes_of(op) \
                    or (isinstance(s, model.Let) and m.type != s.type):
                out.append(s)
                continue
            mo = dict(m.op.operands)
            ma, mb = mo["a"], mo["b"]
            acc = lhs if rhs_is_mul else rhs
            rnd, ftz = modes_of(op)
            ftype = m.type
            if scalar:  # f32 scalars: fma on 0-d tiles (scalar_to_tile / tile_to_scalar emit no op)
                ftype = model.TileT("f32", ())
                ma, mb, acc = (_lift(x, out, total, s.span, rules) for x in (ma, mb, acc))
            if fn == "sub":
                target = ma if rhs_is_mul else acc
                neg = _fresh(target + "_neg", total)
                out.append(model.Let(neg, ftype, model.Op("unary", neg_t, (("x", target),), s.span), s.span))
                if rhs_is_mul:
                    ma = neg
                else:
                    acc = neg
            fop = model.Op("fma", fma_t, tuple(sorted({"a": ma, "b": mb, "c": acc, "rounding": rnd,
                                                       "ftz": ftz}.items())), op.span, op.unsafe)
            consumed.add(m.name)
            fused[m.name] = fused.get(m.name, 0) + 1
            if scalar:
                ft = _fresh(f"{getattr(s, 'name', 'fma')}_fma", total)
                out.append(model.Let(ft, ftype, fop, s.span))
                fop = model.Op("tile_to_scalar", rules["ops"]["tile_to_scalar"], (("x", ft),), s.span)
            out.append(_with_op(s, fop))
        return out

    body = rewrite(stmts, set())
    dropped = {n for n, k in fused.items() if k == total.get(n, 0)}
    if not fused:
        return stmts

    def drop(block) -> list:
        res = []
        for s in block:
            if isinstance(s, model.Let) and s.name in dropped:
                continue
            for attr in ("body", "then", "otherwise"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    s = dataclasses.replace(s, **{attr: drop(sub)})
            res.append(s)
        return res

    return drop(body)


_FLOAT_LIT = re.compile(r"^-?[0-9][0-9.]*(f32)$")


def _lift(text: str, out: list, uses: dict, span, rules) -> str:
    """A 0-d f32 tile for a scalar operand text (a name or an f32 literal)."""
    t = model.TileT("f32", ())
    if _FLOAT_LIT.match(text):
        name = _fresh("lit_t", uses)
        out.append(model.Let(name, t, model.Op("constant", rules["ops"]["constant"], (("shape", ""), ("value", text)),
                                               span), span))
    else:
        name = _fresh(f"{text}_t", uses)
        out.append(model.Let(name, t, model.Op("scalar_to_tile", rules["ops"]["scalar_to_tile"], (("x", text),), span),
                             span))
    return name


def _fresh(hint: str, uses: dict) -> str:
    name, n = hint, 0
    while name in uses:
        n += 1
        name = f"{hint}_{n}"
    uses[name] = 0
    return name


def _with_op(s, op):
    return dataclasses.replace(s, op=op)


# ---------------------------------------------------------------------------------------------- constants

_MATH_CONSTS = {"math.inf": float("inf"), "math.pi": __import__("math").pi, "math.e": __import__("math").e}
_MATH_FNS = {"math.log": "log", "math.log2": "log2", "math.sqrt": "sqrt", "math.exp": "exp"}
_BIN = {cst.Add: lambda a, b: a + b, cst.Subtract: lambda a, b: a - b, cst.Multiply: lambda a, b: a * b,
        cst.Divide: lambda a, b: a / b, cst.FloorDivide: lambda a, b: a // b, cst.Modulo: lambda a, b: a % b,
        cst.Power: lambda a, b: a ** b}


def const_eval(node, lookup, dotted):
    """Fold a Python constant expression (``1.0 / math.log(2)``, ``-math.inf``, ``2 * BLOCK``) at
    translate time; ``lookup(name)`` gives module constants (None if unknown), ``dotted`` spells
    attributes. None when the expression is not constant."""
    import math  # noqa: PLC0415


    def ev(n):
        lit = literal_value(n)
        if lit is not None:
            return lit
        if isinstance(n, cst.Name):
            return lookup(n.value)
        if isinstance(n, cst.Attribute):  # math.pi; ct.PaddingMode.X -> a translate-time marker (mem_cutile.py)
            return _MATH_CONSTS.get(dotted(n) or "", mem_cutile.pad_mode(dotted(n)))
        if isinstance(n, cst.UnaryOperation) and isinstance(n.operator, cst.Minus):
            v = ev(n.expression)
            return -v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
        if isinstance(n, cst.BinaryOperation) and type(n.operator) in _BIN:
            a, b = ev(n.left), ev(n.right)
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)):
                return None
            try:
                return _BIN[type(n.operator)](a, b)
            except (ZeroDivisionError, OverflowError, ValueError):
                return None
        if isinstance(n, cst.Call) and (dotted(n.func) or "") in _MATH_FNS and len(n.args) == 1 \
                and n.args[0].keyword is None:
            v = ev(n.args[0].value)
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                return None
            try:
                return float(getattr(math, _MATH_FNS[dotted(n.func)])(v))
            except (ValueError, OverflowError):
                return None
        return None

    return ev(node)


def constant_text(value, dtype: str, generic: bool | None = None) -> str | None:
    """The ``constant(value, ..)`` argument for a literal of element type ``dtype``; None if cutile 0.3.1
    cannot spell it. ``±inf`` -> ``f32::NEG_INFINITY`` (an exact infinity, as the reference IR has; a
    -FLT_MAX decimal differs), half types only 0 / 1 / ±inf (``f16::ZERO``/``ONE``), a generic ``E`` only 0."""

    if isinstance(value, bool) and value and dtype == "bool":
        return "true"  # `true` encodes as 0xFF; `false` cannot be a constant() in cutile 0.3.1 (it is 0xFF too)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if (dtype == specialise.ELEMENT_GENERIC if generic is None else generic):  # E, E1 ...: a type generic
        return f"{dtype}::ZERO" if value == 0 else None
    if is_float(dtype) and value in (float("inf"), float("-inf")):
        return f"{dtype}::{'INFINITY' if value > 0 else 'NEG_INFINITY'}"
    if dtype in ("f16", "bf16", "tf32"):
        return {0: f"{dtype}::ZERO", 1: f"{dtype}::ONE"}.get(value)
    try:
        return literal_text(value, dtype)
    except ValueError:
        return None


def constant_spelling(value, dtype: str, generic: bool | None = None) -> tuple[str, str] | None:
    """How a ``constant(value, shape)`` of element type ``dtype`` is spelled: the template key (rules ``[ops]`` /
    ir.toml ``[rust]``) and its value, ``("constant", "2.0f32")``; ``("constant_f32", "f32::NEG_INFINITY")``
    where cutile 0.3.1 would mis-encode the crate's own spelling (cutile_defects.f32_constant). ``generic``:
    ``dtype`` names a generic element type (default: the text model's ``E``). None if it cannot be spelled."""
    text = constant_text(value, dtype, generic)
    if text is None:
        return None
    f32 = cutile_defects.f32_constant(value, dtype, dtype == specialise.ELEMENT_GENERIC if generic is None else generic)
    return (cutile_defects.CONST_DECL, f32) if f32 is not None else ("constant", text)
