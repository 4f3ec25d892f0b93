"""The dtype policy of the typed IR (frontends/cutile/dtypes.py ``entries``, ir/typing.py ``depends_on``), shared
by both front ends: a typing decision that depends on an array's dtype variable (an index / loop bound read from an
array, a loop-carried name whose type changes once a tile of the variable meets f32, a comparison of its scalars)
lowers the kernel once per concrete dtype of that variable, whatever else failed in the generic lowering; an
entry that does not lower is left out, and when none lowers the blockers are those of the entry that got furthest,
naming it. Model only (no cargo)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, pipeline
from ctrs.frontends.cutile import module as frontend_cutile
from ctrs.frontends import cutile as fe
from ctrs.ir import typing as irtyping
from ctrs.ir.ops import OpKind, walk
from ctrs.ir.types import F32, I32, DTypeParam, ScalarType, TileType

pytestmark = pytest.mark.model  # model-only: no cargo, no cuda-tile (tests/conftest.py guard)


def _cutile(tmp_path: Path, params: str, body: str) -> Path:
    p = tmp_path / "k.py"
    p.write_text(f"import cuda.tile as ct\n\n\n@ct.kernel\ndef k({params}):\n" +
                 "".join(f"    {line}\n" for line in body.strip().splitlines()))
    return p


def _triton(tmp_path: Path, sig: str, body: str) -> Path:
    p = tmp_path / "t.py"
    p.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(" + sig + "):\n" +
                 "".join(f"    {line}\n" for line in body.strip().splitlines()))
    return p


def _lower(path: Path):
    return fe.lower_file(frontend_cutile.ModuleInfo(path, path.read_text())).kernels


def _arrays(k) -> dict[str, str]:
    return {p.name: str(p.value.type.dtype) for p in k.params if p.kind == "array"}


def test_depends_on_names_the_variables():
    e = irtyping.depends_on([ScalarType(DTypeParam("E1")), TileType(F32, (4,))], "a loop bound", I32)
    assert isinstance(e, irtyping.GenericMeetsConcrete)
    assert [p.name for p in e.params] == ["E1"] and e.met == I32
    assert irtyping.depends_on([ScalarType(I32), TileType(F32, (4,))], "x") is None  # no variable: the error stands


def test_a_loop_bound_read_from_an_array_lowers_per_integer_dtype(tmp_path):
    # n = ct.gather(cnt, 0) is a scalar of cnt's variable; as a loop bound it must be an integer: one entry per
    # index dtype, cnt i32 (an i32 loop) and cnt i64 (an i64 loop, cuTile Python's range_ promotion)
    ks = _lower(_cutile(tmp_path, "cnt, x, y, T: ct.Constant[int]",
                        "n = ct.gather(cnt, 0, padding_value=0)\n"
                        "acc = ct.zeros((T,), dtype=ct.float32)\n"
                        "for i in range(n):\n"
                        "    acc = acc + ct.astype(ct.load(x, index=(i,), shape=(T,)), ct.float32)\n"
                        "ct.store(y, index=(0,), tile=ct.astype(acc, y.dtype))"))
    assert [k.name for k in ks] == ["k_i32", "k_i64"]  # the float entries cannot bound a loop: not even tried
    assert _arrays(ks[0]) == {"cnt": "i32", "x": "!E", "y": "!E"}
    assert _arrays(ks[1]) == {"cnt": "i64", "x": "!E", "y": "!E"}
    (loop,) = [o for o in walk(ks[0].body) if o.kind == OpKind.FOR]
    assert str(loop.operands[1].type) == "i32"


def test_a_loop_carried_name_changing_type_with_a_variable_lowers_per_dtype(tmp_path):
    # dd = ct.load(d, ..) then dd -= an f32 tile: f32 in the loop exactly when d is f32 (the reference refuses a
    # loop-carried type change, so the f16 / bf16 launches do not compile there either): one entry, d f32
    ks = _lower(_cutile(tmp_path, "d, x, y, T: ct.Constant[int], N: ct.Constant[int]",
                        "dd = ct.load(d, index=(0,), shape=(T,))\n"
                        "for i in range(N):\n"
                        "    dd -= ct.astype(ct.load(x, index=(i,), shape=(T,)), ct.float32)\n"
                        "ct.store(y, index=(0,), tile=ct.astype(dd, y.dtype))"))
    assert [k.name for k in ks] == ["k_f32"]
    assert _arrays(ks[0])["d"] == "f32" and isinstance(ks[0].params[1].value.type.dtype, DTypeParam)


def test_no_entry_lowers_reports_the_furthest_entry(tmp_path):
    # the loop bound specialises cnt to i32; the entry still fails on a construct outside the subset: that
    # blocker is reported, naming the entry (not the generic lowering's "depends on the specialisation")
    p = _cutile(tmp_path, "cnt, x, y, T: ct.Constant[int]",
                "n = ct.gather(cnt, 0, padding_value=0)\n"
                "for i in range(n):\n"
                "    t = ct.load(x, index=(i,), shape=(T,))\n"
                "    ct.store(y, index=(i,), tile=ct.frobnicate(t))")
    refused: dict = {}
    fe.lower_file(frontend_cutile.ModuleInfo(p, p.read_text()), refused)
    msgs = [b.message for b in refused["k"]]
    assert msgs and all("(entry k_i32:" in m for m in msgs), msgs
    assert not any("depends on the specialisation" in m for m in msgs)


def test_triton_loop_bound_loaded_from_an_index_array(tmp_path):
    # the large-head attention pattern: the key range of a block is read from LO / HI (int32 in every launch that
    # compiles: a loop bound), the loop runs over it; one entry per integer dtype of each (i32)
    p = _triton(tmp_path, "X, Y, LO, HI, T: tl.constexpr",
                "offs = tl.arange(0, T)\n"
                "lo = tl.load(LO + tl.program_id(0))\n"
                "hi = tl.load(HI + tl.program_id(0))\n"
                "acc = tl.zeros([T], tl.float32)\n"
                "for s in range(lo, hi, 1):\n"
                "    acc += tl.load(X + s * T + offs).to(tl.float32)\n"
                "tl.store(Y + tl.program_id(0) * T + offs, acc)")
    ks = pipeline.lower(p)
    assert [k.name for k in ks] == ["k_i32_i32"]
    assert {n: d for n, d in _arrays(ks[0]).items() if n in ("LO", "HI")} == {"LO": "i32", "HI": "i32"}


def test_true_division_of_a_variable_lowers_per_element_type(tmp_path):
    # `/` computes in the operands' float dtype, in f32 for integers: it depends on the variable -> one entry per
    # element dtype, each dividing in its own dtype (divf of f16 tiles in the f16 entry)
    ks = _lower(_cutile(tmp_path, "x, y, T: ct.Constant[int]",
                        "t = ct.load(x, index=(0,), shape=(T,))\n"
                        "ct.store(y, index=(0,), tile=t / t)"))
    assert [k.name for k in ks] == ["k_f32", "k_f16", "k_bf16"]
    (div,) = [o for o in walk(ks[1].body) if o.kind == OpKind.DIVF]
    assert str(div.result.type) == "tile<Txf16>"


def test_triton_if_arms_agree_for_one_dtype_of_a_variable(tmp_path):
    # `if c: d = tl.load(D) else: d = 0.0`: Triton requires one type in both arms (fp32 for the literal), so the
    # kernel compiles exactly when D is f32: the f32 entry of D's variable, the f16 / bf16 ones left out
    p = _triton(tmp_path, "X, Y, D, n, T: tl.constexpr",
                "offs = tl.program_id(0) * T + tl.arange(0, T)\n"
                "if n > 0:\n"
                "    d = tl.load(D)\n"
                "else:\n"
                "    d = 0.0\n"
                "x = tl.load(X + offs).to(tl.float32)\n"
                "tl.store(Y + offs, x * d)")
    ks = pipeline.lower(p)
    assert [k.name for k in ks] == ["k_f32"]
    assert _arrays(ks[0])["D"] == "f32"
