"""The generated wrapper's Python dispatcher (one per Python kernel with several Rust entries) run without a GPU:
fake tensors, a fake C library that records which entry each launch calls. A plan holds its entry's runner, so
a launch calls it without searching the entries (TileGym's recurrent_gated_delta_rule port has 288)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ctrs import translate

ROOT = Path(__file__).resolve().parents[1]


class _Device:
    type, index = "cuda", 0


_CUDA0 = _Device()


class _FakeTensor:
    def __init__(self, shape, dtype="torch.float32", ptr=4096):
        self.shape, self.dtype, self.device, self._ptr = tuple(shape), dtype, _CUDA0, ptr
        strides, acc = [], 1
        for s in reversed(shape):
            strides.insert(0, acc)
            acc *= s
        self._strides = tuple(strides)

    def stride(self):
        return self._strides

    def get_device(self):
        return 0

    def data_ptr(self):
        return self._ptr


class _FakeLib:
    def __init__(self):
        self.calls = []

    def __getattr__(self, symbol):
        if not symbol.startswith("ctrs_"):
            raise AttributeError(symbol)
        return lambda *args: self.calls.append(symbol) or 0


def _wrapper(tmp_path):
    translate.translate(ROOT / "fixtures" / "const_branches" / "kernel.py", tmp_path / "port")
    spec = importlib.util.spec_from_file_location("const_branches_wrapper", tmp_path / "port" / "wrapper.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    lib = _FakeLib()
    mod.load = lambda: lib
    mod.raw_stream_fn = lambda: (lambda index: 0)
    return mod, lib


def test_each_launch_runs_the_entry_its_constants_pick(tmp_path):
    mod, lib = _wrapper(tmp_path)
    assert len(mod._RUN_const_branches) == 2
    x, b, y = _FakeTensor([64, 32]), _FakeTensor([32]), _FakeTensor([64, 32])
    consts = dict(TM=16, TN=32, HAS_BIAS=1, APPLY_RELU=0, USE_EXP2=1, grid=(4,))
    for t in (1, 0, 1, 1, 0):  # new signatures, then the cached ones (the thread's last, then the table)
        mod.const_branches(x, b, y, TRANSPOSE=t, **consts)
    assert lib.calls == [f"ctrs_const_branches__TRANSPOSE_{t}" for t in (1, 0, 1, 1, 0)]
