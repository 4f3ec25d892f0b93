"""Memory constructs for the cuTile Python front end (a mixin of frontend_cutile.KernelFront).

* ``ct.load(.., order=(..))`` -> the partition view's ``dim_map`` (docs/porting.md §2): a non-identity
  order is ``make_partition_view(a, shape, padding, const_array![..], token)`` -- the explicit form,
  so the padding mode stays the source's (``partition_permuted`` always pads with zero). Identity
  orders are dropped (the reference IR has no ``dim_map`` then). ``ct.store(.., order=..)`` accepts
  identity orders only: cutile 0.3.1's mutable partition view has no ``dim_map`` parameter.
* Padding / latency / allow_tma given by expressions (docs/porting.md §7 "Hints given by constants"):
  ``ct.PaddingMode.X`` is a translate-time value (:class:`PadMode`) that can be bound to a name,
  a module constant or passed through helpers; ``latency=`` a module constant / fixed flag folds to a
  literal, a ``ct.Constant[int]`` parameter becomes ``Some(L)`` (cutile resolves a const generic
  there); ``allow_tma=`` a ``ct.Constant[bool]`` parameter lowers the kernel once per value and
  merges the bodies into ``if FLAG == 1i32 { .. tma::Enabled .. } else { .. tma::Disabled .. }``
  (tma is a type-level marker in Rust).
* ``ct.gather`` / ``ct.scatter`` with a tuple index on an N-d array -> a raw-pointer entry
  (``x: *mut E`` + ``x_shape_<i>`` / ``x_stride_<i>`` i32s, ``pub unsafe fn``) and the pointer chain
  cuTile Python emits; view ops on such an array go through ``make_tensor_view`` (see below).
* Arrays indexed only inside inlined helpers get their rank from the helper bodies (``helper_ndims``).
"""

from __future__ import annotations

import libcst as cst

from . import errors, model
from .cutile_base import MAX_INLINE_DEPTH, Split, Val

PAD_PREFIX = "ct.PaddingMode."


class PadMode(str):
    """A ``ct.PaddingMode.X`` value (its dotted spelling) known at translate time."""


def pad_mode(dotted: str | None) -> PadMode | None:
    return PadMode(dotted) if dotted and dotted.startswith(PAD_PREFIX) else None


class Mem:
    """Mixin: order / padding / hint values for view loads and stores."""

    # -- order= ----------------------------------------------------------------------------------

    def _dim_map(self, args, arr, kind: str) -> str | None:
        """The partition view's dim_map for ``order=`` (None: identity / absent)."""
        if "order" not in args:
            return None
        node = args["order"]
        elems = node.elements if isinstance(node, (cst.Tuple, cst.List)) else None
        perm = [self._static(e.value) for e in elems] if elems is not None else None
        if perm is None or not all(isinstance(p, int) and not isinstance(p, bool) for p in perm):
            raise self._err(node, f"ct.{kind}(order=..) must be a literal tuple of ints", "write order=(0, 2, 1)",
                            errors.TRANSLATE_TYPE)
        if sorted(perm) != list(range(arr.ndim)):
            raise self._err(node, f"order={tuple(perm)} is not a permutation of the {arr.ndim} axes of '{arr.name}'",
                            "list every axis once", errors.TRANSLATE_TYPE)
        if perm == list(range(arr.ndim)):
            return None
        if kind == "store":
            raise self._err(node, "no rule for ct.store(order=..) with a non-identity order",
                            "cutile 0.3.1's mutable partition view has no dim_map: permute the tile and store it "
                            "with the identity order")
        return self.ops("dim_map").format(perm=", ".join(str(p) for p in perm))

    # -- padding_mode= ---------------------------------------------------------------------------

    def _padding_value(self, node) -> str:
        """``padding_mode=`` given by a name / helper argument / module constant."""
        v = self._expr(node, "pad")
        d = v.value if v.kind == "literal" else None
        if not isinstance(d, PadMode) or d not in self.rules["padding"]:
            raise self._err(node, f"no rule for padding mode '{self.info.module.code_for_node(node)}'",
                            "pass a ct.PaddingMode member (directly, by a name or a module constant); "
                            "see [padding] in rules/cutile.toml")
        return self.rules["padding"][d]

    # -- latency= / allow_tma= -------------------------------------------------------------------

    def _const_hint(self, args, key: str):
        """(value, None) when known at translate time, (None, param) for a ct.Constant parameter."""
        node = args[key]
        v = self._static(node)
        if v is None and isinstance(node, cst.Name) and self.const_kind(node.value) in ("int", "bool"):
            return None, node.value
        if v is None:
            v = self._expr(node, key)
            v = v.value if v.kind == "literal" else None
        return v, None

    def _latency_hint(self, args) -> str:
        """``Some(N)`` / ``Some(L)`` (const generic) / ``None`` for a view load/store."""
        if "latency" not in args:
            return "None"
        v, param = self._const_hint(args, "latency")
        if param is not None and self.const_kind(param) == "int":
            return f"Some({param})"
        if not isinstance(v, int) or isinstance(v, bool):
            raise self._err(args["latency"], "latency must be an int literal, a module constant or a "
                                             "ct.Constant[int] parameter", "constant hints only")
        return f"Some({v}i32)"

    def _tma_hint(self, args) -> str:
        if "allow_tma" not in args:
            return "tma::Enabled"
        return "tma::Enabled" if self._static_flag(args, "allow_tma") else "tma::Disabled"

    def _static_flag(self, args, key: str) -> bool:
        """A keyword flag (allow_tma, check_bounds, flush_to_zero, ..) known at translate time: literal, module
        constant, fixed flag. A ``ct.Constant[bool]`` parameter lowers the kernel once per value and merges
        the bodies under ``if FLAG == 1i32`` (the flag selects a type-level marker or a different op form)."""
        v, param = self._const_hint(args, key)
        if param is not None:

            line = self.info.span(args[key]).line
            why = f"{key}={param} (selects the op form at translate time)"
            self.note("branch", line, f"{key}={param} -> split: {why}")
            raise Split(param, line, why)
        if not isinstance(v, (bool, int)):
            raise self._err(args[key], f"'{key}' must be True/False, a module constant or a ct.Constant[bool] "
                                       "parameter", "constant hints only (a value computed from ct.Constant ints "
                                       "has no rule yet)")
        return bool(v)

    # -- ct.gather / ct.scatter on N-d arrays ----------------------------------------------------
    #
    # cutile's `&Tensor` exposes no strides, so an array that ct.gather/ct.scatter index with a tuple
    # (rank >= 2) becomes the raw form of its Tile IR entry arguments: `x: *mut E, x_shape_0: i32, ..,
    # x_stride_0: i32, ..` (docs/porting.md §2 "array used by ct.gather/ct.scatter"; the entry is
    # `pub unsafe fn`). View ops on such an array go through a tensor view built from those arguments
    # (``raw_views_prologue``). The offsets follow cuTile Python's lowering: per axis the i32 index (a scalar
    # is reshaped + broadcast to the index shape) is widened (exti, u64 like the 1-D rule), bounds-checked
    # unsigned against the axis length (check_bounds) and multiplied by the axis stride; the last axis
    # is multiplied by the constant 1 -- cuTile Python specialises a unit last-axis stride to a
    # constant, and the port assumes it (a row-contiguous array, what TileGym launches). Offsets are
    # summed left to right, masks combined with andi; `x.shape[i]` reads `x_shape_<i>`.

    def mem_calls(self) -> list[tuple[str, str, cst.Call]]:
        """(ct.load|store|num_tiles|gather|scatter, kernel array, call) in the kernel body and, through their
        parameters, in the module helpers it calls (inlined later; arrays passed by position or keyword)."""

        arrays = {p.name for p in self._params if p.kind == "array"}
        info, out, seen = self.info, [], set()
        fns = ("ct.load", "ct.store", "ct.num_tiles", "ct.gather", "ct.scatter")

        def walk(body, names: dict[str, str], depth: int) -> None:
            calls: list[cst.Call] = []

            class V(cst.CSTVisitor):
                def visit_Call(self, node: cst.Call) -> None:
                    calls.append(node)

            body.visit(V())
            for node in calls:
                f = info.dotted(node.func)
                a0 = node.args[0].value if node.args else None
                if f in fns and isinstance(a0, cst.Name) and a0.value in names:
                    out.append((f, names[a0.value], node))
                elif isinstance(node.func, cst.Name) and node.func.value in info.helpers and depth < MAX_INLINE_DEPTH:
                    fn = info.helpers[node.func.value]
                    params = [p.name.value for p in fn.params.params]
                    sub = {}
                    for i, a in enumerate(node.args):
                        key = a.keyword.value if a.keyword else (params[i] if i < len(params) else None)
                        if key in params and isinstance(a.value, cst.Name) and a.value.value in names:
                            sub[key] = names[a.value.value]
                    if sub and (fn.name.value, tuple(sorted(sub.items()))) not in seen:
                        seen.add((fn.name.value, tuple(sorted(sub.items()))))
                        walk(fn.body, sub, depth + 1)

        walk(self.fn.body, {a: a for a in arrays}, 0)
        return out

    def helper_ndims(self, nd: dict[str, int]) -> None:
        """Ranks of kernel arrays that only helpers index (``_infer_ndims`` sees the kernel body)."""
        for f, arr, node in self.mem_calls():
            for i, a in enumerate(node.args):
                key = a.keyword.value if a.keyword else ("index" if i == 1 else "shape" if i == 2 and f == "ct.load" else "")
                if key in ("index", "shape") and isinstance(a.value, cst.Tuple):
                    nd.setdefault(arr, len(a.value.elements))
                elif key == "index" and f in ("ct.gather", "ct.scatter"):
                    nd.setdefault(arr, 1)

    def _find_raw_arrays(self) -> set[str]:
        raw: set[str] = set()
        views: set[str] = set()
        for f, arr, node in self.mem_calls():
            if f in ("ct.gather", "ct.scatter"):
                if len(node.args) > 1 and isinstance(node.args[1].value, cst.Tuple) \
                        and len(node.args[1].value.elements) >= 2:
                    raw.add(arr)
            else:
                views.add(arr)
        self.raw_views = raw & views
        for p in self._params:
            if p.name in raw:
                p.raw = True
        return raw

    def raw_views_prologue(self) -> None:
        """At the top of the body: ``<x>_view = make_tensor_view(pointer_to_tile(x), shape, strides, token)`` for
        each raw array that view ops (ct.load / ct.store / ct.num_tiles) also use -- the Tensor cuTile Rust
        makes itself for a ``&Tensor`` parameter, with the unit last-axis stride of the reference's
        ``tensor_view<.., strides=[?,..,1]>``."""

        self._view_names = {}
        for p in self._params:
            if p.name not in getattr(self, "raw_views", ()):
                continue
            node, a, n = self._param_nodes[p.name], p.name, p.ndim
            dyn = ", ".join(["-1"] * n)
            dims = self.let(f"{a}_dims", model.OpaqueT(f"Shape<{{ [{dyn}] }}>"), self.op(
                "tensor_dims", self.ops("tensor_dims"), node, shape=dyn,
                dims=", ".join(f"{a}_shape_{i}" for i in range(n))), node)
            st = ", ".join(["-1"] * (n - 1) + ["1"])
            strides = self.let(f"{a}_strides", model.OpaqueT(f"Array<{{ [{st}] }}>"), self.op(
                "tensor_strides", self.ops("tensor_strides"), node, shape=st,
                dims=", ".join(f"{a}_stride_{i}" for i in range(n - 1))), node)
            ptr = self.let(f"{a}_vbase", model.OpaqueT(f"PointerTile<*mut {p.dtype}, {{ [] }}>"),
                           self.op("pointer_to_tile", self.ops("pointer_to_tile"), node, array=a), node)
            tok = self.let(f"{a}_vtok", model.OpaqueT("Token"), self.op("new_token", self.ops("new_token"), node), node)
            self._view_names[a] = self.let(f"{a}_view", model.OpaqueT(f"Tensor<{p.dtype}, {{ [{dyn}] }}>"), self.op(
                "tensor_view", self.ops("tensor_view"), node, True, base=ptr, shape=dims, strides=strides, token=tok),
                node)

    def _view_template(self, key: str, arr, node=None, padding: str = "", dim_map: str | None = None) -> str:
        """partition_view / partition_mut template; a raw array's views go through its tensor view. cutile 0.3.1's
        JIT types ``make_partition_view`` only on a ``&Tensor`` parameter, so a local tensor view is read with the
        ``partition`` / ``partition_permuted`` methods (zero padding) and written with ``partition_full_mut``."""
        name = getattr(self, "_view_names", {}).get(arr.name)
        if name is None:
            return self.ops(key)
        if key == "partition_view":
            if padding != self.rules["padding"]["ct.PaddingMode.ZERO"]:
                raise self._err(node, f"no rule for a view of '{arr.name}' without padding_mode=ZERO: ct.gather/"
                                      "ct.scatter index it as an N-d array (a raw pointer in Rust)",
                                "cutile 0.3.1 reads a local tensor view through .partition (zero padding) only")
            return self.ops("raw_view_permuted" if dim_map else "raw_view").replace("{array}", name)
        return self.ops(key).replace("{array}", name)

    def _ptr_template(self, key: str, arr) -> str:
        """load_ptr / store_ptr template; a raw array's uses the token made by its index chain."""
        if arr.name not in getattr(self, "raw_arrays", ()):
            return self.ops(key)
        return self.ops(f"{key}_tok").replace("{token}", self._raw_token)

    def _ptr_index_scalar(self, arr, idx, idx_node, node, hint: str, check: bool):
        """Pointer, mask and the empty shape for ct.gather/ct.scatter of one element of 1-D array ``arr``
        (``ct.gather(x, row)``, ``ct.gather(n, 0)``): cuTile Python's 0-d chain -- the widened index (an int
        literal is a u64 constant), unsigned bounds check against ``x.shape[0]``, times the unit stride,
        offset from the tensor base; no reshape / broadcast."""

        if idx.kind == "scalar" and idx.dtype != "i32" or idx.kind == "literal" and not isinstance(idx.value, int):
            raise self._err(idx_node, "a gather/scatter index must be int32", "index with an int32 scalar or tile",
                            errors.TRANSLATE_TYPE)
        a, u64 = arr.name, model.TileT("u64", ())
        if idx.kind == "literal":
            ix = self.let(f"{a}_idx", u64, self.op("constant", self.ops("constant"), node, value=f"{int(idx.value)}u64",
                                                  shape=""), node)
        else:
            t = self.let(f"{a}_idx_t", model.TileT("i32", ()), self.op("scalar_to_tile", self.ops("scalar_to_tile"),
                                                                        node, x=idx.name), node)
            ix = self.let(f"{a}_idx", u64, self.op("exti", self.ops("exti"), node, x=t), node)
        mask = None
        if check:
            sname = self.let(f"{a}_shape", model.OpaqueT("Shape<{ [-1] }>"),
                             self.op("shape_of", self.ops("shape_of"), node, array=a), node)
            dim = self.let(f"{a}_len", model.TileT("i32", ()), self.op(
                "scalar_to_tile", self.ops("scalar_to_tile"), node, x=self.ops("shape_dim").format(shape=sname, axis="0")),
                node)
            dim64 = self.let(f"{a}_len64", u64, self.op("exti", self.ops("exti"), node, x=dim), node)
            mask = self.let(f"{a}_mask", model.TileT("bool", ()),
                            self.op("compare", self.ops("cmp_unsigned"), node, a=ix, b=dim64), node)
        off = self.let(f"{a}_off", u64, self.op("mul_const", self.ops("mul_const"), node, x=ix, value="1u64", shape=""),
                       node)
        e = arr.dtype
        base = self.let(f"{a}_base", model.OpaqueT(f"PointerTile<*mut {e}, {{ [] }}>"),
                        self.op("tensor_base", self.ops("tensor_base"), node, array=a), node)
        ptrs = self.let(f"{a}_ptrs", model.OpaqueT(f"PointerTile<*mut {e}, {{ [] }}>"),
                        self.op("ptr_offset", self.ops("ptr_offset"), node, ptr=base, off=off), node)
        return ptrs, mask, ()

    def _raw_shape_dim(self, arr, axis: int):

        return Val("scalar", f"{arr.name}_shape_{axis}", model.ScalarT("i32"), "i32")

    def _ptr_index_raw(self, arr, idx_node, node, hint: str, check: bool):
        """Pointer tile, mask and index shape for ct.gather/ct.scatter on raw N-d array ``arr``."""

        elems = idx_node.elements if isinstance(idx_node, cst.Tuple) else None
        if elems is None or len(elems) != arr.ndim:
            raise self._err(idx_node, f"ct.gather/ct.scatter on the {arr.ndim}-d array '{arr.name}' needs a tuple of "
                                      f"{arr.ndim} indices", "index every axis", errors.TRANSLATE_TYPE)
        vals = [self._expr(e.value, f"{hint}_i{k}") for k, e in enumerate(elems)]
        shapes = {v.type.shape for v in vals if v.kind == "tile"} or {()}  # all scalars: a 0-d gather
        shape = _broadcast(shapes)
        if shape is None or any(v.kind == "tile" and v.dtype != "i32" for v in vals) \
                or any(v.kind not in ("tile", "scalar", "literal") for v in vals) \
                or any(v.kind == "scalar" and v.dtype != "i32" for v in vals):
            raise self._err(idx_node, "no rule for these gather/scatter indices",
                            "index with int32 scalars and int32 tiles of one rank that broadcast to one shape",
                            errors.TRANSLATE_TYPE)
        if len(shape) >= 2 and self.info.dotted(node.func) == "ct.gather":
            raise self._err(node, f"no rule for a ct.gather with a rank-{len(shape)} index shape",
                            "cutile 0.3.1 widens load_ptr_tko's padding scalar through a rank-1 reshape, which is "
                            "invalid Tile IR for rank >= 2 tiles: gather 1-D slices (ct.scatter is fine)")
        n = ", ".join(shape)
        ones = ", ".join("1" for _ in shape)
        a = arr.name
        u64 = model.TileT("u64", shape)

        def widen(text: str, h: str, lit: int | None = None) -> str:
            """i32 scalar (Rust text) -> u64 tile of the index shape: scalar_to_tile, exti, reshape, broadcast
            (an int literal is a u64 constant of the index shape, as cuTile Python folds it)."""
            if lit is not None:  # folded to a constant of the index shape
                return self.let(f"{h}_64", u64, self.op("constant", self.ops("constant"), node, value=f"{lit}u64",
                                                        shape=n), node)
            else:
                t = self.let(f"{h}_t", model.TileT("i32", ()), self.op("scalar_to_tile", self.ops("scalar_to_tile"),
                                                                       node, x=text), node)
                w = self.let(f"{h}_64", model.TileT("u64", ()), self.op("exti", self.ops("exti"), node, x=t), node)
            if not shape:
                return w
            r = self.let(f"{h}_1", model.TileT("u64", tuple("1" for _ in shape)),
                         self.op("reshape", self.ops("reshape"), node, x=w, shape=ones), node)
            return self.let(f"{h}_b", u64, self.op("broadcast", self.ops("broadcast"), node, x=r, shape=n), node)

        off = mask = None
        for k, v in enumerate(vals):
            if v.kind == "tile":  # widened at its own shape, then broadcast (rows[:, None], cols[None, :])
                own = model.TileT("u64", v.type.shape)
                ix = self.let(f"{a}_i{k}", own, self.op("exti", self.ops("exti"), node, x=v.name), node)
                if v.type.shape != shape:
                    ix = self.let(f"{a}_i{k}b", u64, self.op("broadcast", self.ops("broadcast"), node, x=ix, shape=n),
                                  node)
            else:
                ix = widen(v.name, f"{a}_i{k}", None if v.kind == "scalar" else int(v.value))
            if check:
                dim = widen(f"{a}_shape_{k}", f"{a}_n{k}")
                m = self.let(f"{a}_m{k}", model.TileT("bool", shape),
                             self.op("compare", self.ops("cmp_unsigned"), node, a=ix, b=dim), node)
                mask = m if mask is None else self.let(f"{a}_mask", model.TileT("bool", shape), self.op(
                    "andi", self.ops("andi"), node, a=mask, b=m), node)
            if k == arr.ndim - 1:
                o = self.let(f"{a}_o{k}", u64, self.op("mul_const", self.ops("mul_const"), node, x=ix, value="1u64",
                                                       shape=n), node)
            else:
                st = widen(f"{a}_stride_{k}", f"{a}_s{k}")
                o = self.let(f"{a}_o{k}", u64, self.op("mul", self.ops("offset_mul"), node, a=ix, b=st), node)
            off = o if off is None else self.let(f"{a}_off", u64, self.op("add", self.ops("add"), node, a=off, b=o), node)
        e = arr.dtype
        base = self.let(f"{a}_base", model.OpaqueT(f"PointerTile<*mut {e}, {{ [] }}>"),
                        self.op("pointer_to_tile", self.ops("pointer_to_tile"), node, array=a), node)
        bb = base
        if shape:
            b1 = self.let(f"{a}_base1", model.OpaqueT(f"PointerTile<*mut {e}, {{ [{ones}] }}>"),
                          self.op("reshape", self.ops("reshape"), node, x=base, shape=ones), node)
            bb = self.let(f"{a}_baseb", model.OpaqueT(f"PointerTile<*mut {e}, {{ [{n}] }}>"),
                          self.op("broadcast", self.ops("broadcast"), node, x=b1, shape=n), node)
        ptrs = self.let(f"{a}_ptrs", model.OpaqueT(f"PointerTile<*mut {e}, {{ [{n}] }}>"),
                        self.op("ptr_offset", self.ops("ptr_offset"), node, ptr=bb, off=off), node)
        self._raw_token = self.let(f"{a}_tok0", model.OpaqueT("Token"),
                                   self.op("new_token", self.ops("new_token"), node), node)
        return ptrs, mask, shape


def _broadcast(shapes: set) -> tuple | None:
    """The common shape of index tiles of one rank (a dim is equal or "1"), else None."""
    ranks = {len(s) for s in shapes}
    if len(ranks) != 1:
        return None
    out = []
    for dims in zip(*sorted(shapes)):
        big = {d for d in dims if d != "1"}
        if len(big) > 1:
            return None
        out.append(big.pop() if big else "1")
    return tuple(out)
