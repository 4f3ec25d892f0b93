"""ctrs translate: expression and statement constructs (constant `%`, tuples/unpacking/len, tile .dtype,
scalar comparisons, exp/tanh rounding_mode=APPROX, torch dtypes, host code next to kernels).

Each kernel under tests/data/expr_*.py is translated with rules only and must be IR-equivalent
(diff-ir exit 0) to cuTile Python's reference for every spec next to it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, translate

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data
KERNELS = ["expr_const_mod", "expr_approx", "expr_tuples", "expr_misc", "expr_intarr", "expr_bits", "ir_sinh"]


@pytest.fixture(scope="module")
def translated(tmp_path_factory) -> dict[str, Path]:
    return translate_data(tmp_path_factory.mktemp("expr"), KERNELS)


@pytest.mark.parametrize(("kernel", "spec"), list(data_cases(KERNELS)))
def test_expr_ir_equivalent(translated, kernel, spec):
    assert_port_equivalent(DATA / f"{kernel}.py", translated[kernel], spec)


def test_expr_generated_forms(translated):
    cm = translated["expr_const_mod"].read_text()
    assert "let a_bneg: bool = G < 0i32;" in cm  # folded by cutile to constant <i1: ..> like the JIT's fold
    assert "let b_bneg_s: bool = false;" in cm and "let c_bneg_s: bool = true;" in cm
    ap = translated["expr_approx"].read_text()
    assert ap.count("#[cuda_tile::op(") == 2 and "rounding<approx>" in ap
    assert "exp_approx(" in ap and "tanh_approx(" in ap and "rounding::Approx)" in ap
    tu = translated["expr_tuples"].read_text()
    # big = G != 4: a const-generic if (folded per launch, as cuTile Python folds it); far = a >= n: a runtime if
    assert "if G != 4i32 {" in tu and "let big" not in tu and "if far_s {" in tu
    mi = translated["expr_misc"].read_text()
    assert "constant(true, const_shape![TILE])" in mi
    # gather/gather/scatter, in each of the f32/f16/bf16 entries and the i32/i64 integer element entries
    assert mi.count("if TILE != N {") == 3 * 5
    assert "lse: &Tensor<f32, { [-1] }>," in mi and "pub fn count_k<E: ElementType, const TILE: i32>(" in mi
    assert "Batch: i32," in mi
    ia = translated["expr_intarr"].read_text()
    assert "ids: &Tensor<i32, { [-1] }>," in ia and "cnts: &Tensor<i32, { [-1] }>," in ia
    assert "out: &Tensor<i32, { [-1] }>," in ia and "x: &Tensor<E, { [-1] }>," in ia
    # lse meets f32 tiles only (f32 wins whatever it is): a type generic of its own, apart from x / y (docs/ir.md)
    assert "lse: &Tensor<E, { [-1] }>," in ia.split("pub fn bwd_k")[1] and "x: &Tensor<E1, " in ia.split("pub fn bwd_k")[1]
    bi = translated["expr_bits"].read_text()
    assert "shri(" in bi and "xori(" in bi and "shli_wrap(" in bi and "overflow<none>" in bi


def test_no_approx_declarations_without_use(tmp_path):
    files = translate.translate(DATA / "expr_const_mod.py", tmp_path / "o")
    assert "cuda_tile::op" not in next(p for p in files if p.name == "kernel.rs").read_text()


HOST = '''
import cuda.tile as ct
import torch as th
import numpy as np

ConstInt = ct.Constant[int]
DEVICE = th.device("cuda")
TABLE = np.arange(4)


@ct.kernel
def k(x, y, TILE: ConstInt):
    pid = ct.bid(0)
    r = ct.arange(TILE, dtype=th.int32)
    t = ct.astype(ct.load(x, index=(pid,), shape=(TILE,)), th.float32)
    ct.store(y, index=(pid,), tile=ct.astype(t + ct.astype(r, th.float32), y.dtype))


def launch(x, y):
    out = th.empty_like(x)
    ct.launch(th.cuda.current_stream(), (x.shape[0] // 128,), k, (x, y, 128))
    return out
'''


def test_torch_dtypes_and_host_code(tmp_path):
    src = tmp_path / "host_k.py"
    src.write_text(HOST)
    files = translate.translate(src, tmp_path / "out")
    text = next(p for p in files if p.name == "kernel.rs").read_text()
    assert "let r: Tile<i32, { [TILE] }> = iota(const_shape![TILE]);" in text
    assert "convert_tile(r)" in text and "launch" not in text


def test_len_of_array_diagnostic(tmp_path):
    src = tmp_path / "len_k.py"
    src.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(xs, y):\n    n = len(xs)\n"
                   "    t = ct.load(y, index=(n,), shape=(16,))\n    ct.store(y, index=(0,), tile=t)\n")
    with pytest.raises(errors.CtrsError) as ei:
        translate.translate(src, tmp_path / "out")
    # the typed path names what cutile lacks (no entry parameter type holds a list of tensors), at the len()
    # its lone blocker (len() of a tuple is lowered; of the parameter, it is the list-of-arrays use)
    assert not isinstance(ei.value, errors.Refused)
    e = ei.value
    assert e.code == errors.IR_ARRAY_LIST
    assert (e.loc.line, e.loc.col) == (6, 9) and "'xs' is a list of arrays" in e.message
