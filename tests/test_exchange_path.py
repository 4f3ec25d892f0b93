"""The exchange entries (`ctrs_xc_*`, ffi.rs; docs/porting.md §11 "Launch path"): a launch from Python in one C
call whose arrays the built cdylib reads through a DLPack exchange API table. No GPU and no torch here: the table
is a producer written with cffi callbacks over plain Python objects, so what is checked is the real Rust reader
(descriptors, device, stream, refusals) and the wrapper's use of it (the call, and the validated path after a
refusal)."""

from __future__ import annotations

import importlib.util
import shutil
import sys
import types
from pathlib import Path

import cffi
import pytest

from ctrs import translate
from ctrs.workflow import check

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
NO_GPU = not Path("/dev/nvidia0").exists()

DL_CDEF = """
typedef struct { int32_t device_type; int32_t device_id; } DLDevice;
typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } DLDataType;
typedef struct { void *data; DLDevice device; int32_t ndim; DLDataType dtype; int64_t *shape; int64_t *strides;
                 uint64_t byte_offset; } DLTensor;
typedef struct { uint32_t major; uint32_t minor; void *prev_api; void *allocator; void *to_managed; void *from_managed;
                 int (*dltensor_from_py_object_no_sync)(void *, DLTensor *);
                 int (*current_work_stream)(int, int32_t, void **); } ExchangeApi;
"""
DL = {"float32": (2, 32), "float16": (2, 16), "bfloat16": (4, 16), "int32": (0, 32), "int64": (0, 64),
      "float64": (2, 64), "float8_e4m3fn": (10, 8)}


class Array:
    """What a producer exports for one object: pointer, device, dtype, shape, strides (None: compact)."""

    def __init__(self, shape, dtype="float32", ptr=1 << 24, device=(2, 0), strides=(), byte_offset=0):
        self.shape, self.dtype, self.ptr, self.device = list(shape), dtype, ptr, device
        self.strides = None if strides is None else (list(strides) if strides else None)
        if strides == ():
            acc, st = 1, []
            for d in reversed(self.shape):
                st.append(acc)
                acc *= d
            self.strides = list(reversed(st))
        self.byte_offset = byte_offset


class Producer:
    """A DLPack exchange API table whose functions are cffi callbacks over registered objects."""

    def __init__(self, ffi: cffi.FFI, major: int = 1):
        self.ffi, self.objects, self.keep, self.streams = ffi, {}, [], []

        @ffi.callback("int(void *, DLTensor *)")
        def from_py(obj, out):
            a = self.objects.get(int(ffi.cast("uintptr_t", obj)))
            if a is None:
                return -1
            shape = ffi.new("int64_t[]", a.shape or [0])
            strides = ffi.new("int64_t[]", a.strides) if a.strides is not None else ffi.NULL
            self.keep += [shape, strides]
            out.data = ffi.cast("void *", a.ptr)
            out.device.device_type, out.device.device_id = a.device
            out.ndim = len(a.shape)
            out.dtype.code, out.dtype.bits = DL[a.dtype]
            out.dtype.lanes = 1
            out.shape, out.strides, out.byte_offset = shape, strides, a.byte_offset
            return 0

        @ffi.callback("int(int, int32_t, void **)")
        def stream(device_type, device_id, out):
            self.streams.append((device_type, device_id))
            out[0] = ffi.cast("void *", 0x5000 + device_id)
            return 0

        self.callbacks = (from_py, stream)
        self.table = ffi.new("ExchangeApi *", {"major": major, "minor": 3, "dltensor_from_py_object_no_sync": from_py,
                                               "current_work_stream": stream})
        self.address = int(ffi.cast("uintptr_t", self.table))

    def export(self, obj, array: Array):
        self.objects[id(obj)] = array
        return obj


class Obj:
    """A stand-in tensor object (only its identity matters to the producer)."""


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    base = tmp_path_factory.mktemp("xc")
    out = base / "vector_add"
    translate.translate(FIXTURES / "vector_add" / "kernel.py", out)
    lib = check.build_crate(out)
    keep = base / "libvector_add_xc.so"
    shutil.copy2(lib, keep)
    spec = importlib.util.spec_from_file_location("va_xc_wrapper", out / "wrapper.py")
    w = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(w)
    ffi = cffi.FFI()
    ffi.cdef(w.CDEF + DL_CDEF)
    return out, keep, ffi, ffi.dlopen(str(keep))


def _descs(lib, ffi, producer, objs, n=None):
    out = ffi.new("TensorDesc[]", max(len(objs), 1))
    dev, stream = ffi.new("int32_t *"), ffi.new("uint64_t *")
    t = tuple(objs)
    rc = lib.ctrs_xc_descs(producer.address, id(t), n if n is not None else len(objs), out, dev, stream)
    return rc, out, dev[0], stream[0]


def test_exchange_entries_emitted(port):
    out, *_ = port
    ffi_rs, wrapper = (out / "ffi.rs").read_text(), (out / "wrapper.py").read_text()
    assert "pub unsafe extern \"C\" fn ctrs_xc_vector_add(" in ffi_rs
    assert "int32_t ctrs_xc_vector_add(uint64_t api, uint64_t arrays, int32_t TILE, int32_t grid_x" in wrapper
    # the tuple is bound to a name before its address is taken: it lives for the C call
    assert "_t = (x, y, z, )\n" in wrapper and "_xc(_XC_API, id(_t), TILE, _g[0], _g[1], _g[2])" in wrapper


def test_exchange_api_usable(port):
    _, _, ffi, lib = port
    assert lib.ctrs_xc_usable(Producer(ffi).address) == 1
    assert lib.ctrs_xc_usable(0) == 0
    assert lib.ctrs_xc_usable(Producer(ffi, major=2).address) == 0  # another ABI: not read


def test_exchange_reads_descriptors_device_and_stream(port):
    _, _, ffi, lib = port
    p = Producer(ffi)
    a = p.export(Obj(), Array([4, 6], "bfloat16", ptr=1 << 20, device=(2, 1), byte_offset=64))
    b = p.export(Obj(), Array([6, 4], "float8_e4m3fn", ptr=2 << 20, device=(2, 1), strides=[1, 6]))
    c = p.export(Obj(), Array([3, 5], "float32", ptr=3 << 20, device=(2, 1), strides=None))  # no strides: compact
    rc, out, dev, stream = _descs(lib, ffi, p, [a, b, c])
    assert rc == 0 and dev == 1 and stream == 0x5001 and p.streams == [(2, 1)]
    got = [(d.ptr, d.ndim, list(d.shape)[:d.ndim], list(d.strides)[:d.ndim], d.dtype) for d in out]
    assert got == [((1 << 20) + 64, 2, [4, 6], [6, 1], 2), (2 << 20, 2, [6, 4], [1, 6], 5),
                   (3 << 20, 2, [3, 5], [5, 1], 0)]
    d64 = p.export(Obj(), Array([8], "float64"))
    rc, out, _, _ = _descs(lib, ffi, p, [d64])
    assert rc == 0 and out[0].dtype == -1  # none of ours: the entries answer UNSUPPORTED_DTYPE


@pytest.mark.parametrize(("arrays", "rc"), [
    ([Array([8], device=(1, 0))], -6),  # a CPU array
    ([Array([8]), Array([8], device=(2, 1))], -6),  # two devices
    ([Array([8, 2], strides=[-2, 1])], -6),  # a negative stride
    ([Array([8, 2], strides=[0, 1])], -6),  # a broadcast view
    ([None], -8),  # not an object of the producer: nothing read
])
def test_exchange_refusals(port, arrays, rc):
    _, _, ffi, lib = port
    p = Producer(ffi)
    objs = [p.export(Obj(), a) if a is not None else Obj() for a in arrays]
    assert _descs(lib, ffi, p, objs)[0] == rc


def test_exchange_edge_cases(port):
    _, _, ffi, lib = port
    p = Producer(ffi)
    one = p.export(Obj(), Array([1, 8], strides=[0, 1]))  # a zero stride on an extent 1 is no broadcast
    assert _descs(lib, ffi, p, [one])[0] == 0
    assert _descs(lib, ffi, p, [one], n=2)[0] == -6  # the tuple has another length
    assert lib.ctrs_xc_descs(p.address, 0, 1, ffi.NULL, ffi.NULL, ffi.NULL) == -5


def test_exchange_entry_reaches_the_launch(port):
    """The whole entry: descriptors read, then the TensorDesc entry's checks and its device init."""
    _, _, ffi, lib = port
    p = Producer(ffi)
    x, y, z = (p.export(Obj(), Array([4096], "float16", ptr=k << 20)) for k in (1, 2, 3))
    t = (x, y, z)
    assert lib.ctrs_xc_vector_add(p.address, id(t), 1024, 0, 1, 1) == -6  # an empty grid
    w64 = (p.export(Obj(), Array([4096], "float64")),) * 3
    assert lib.ctrs_xc_vector_add(p.address, id(w64), 1024, 4, 1, 1) == -2  # unsupported dtype
    if NO_GPU:
        assert lib.ctrs_xc_vector_add(p.address, id(t), 1024, 4, 1, 1) == -4  # device init: no driver here


def test_wrapper_takes_the_exchange_path(port, monkeypatch):
    """The generated wrapper calls the exchange entry first; a refusal goes on through the validated path (its
    precise error), and -8 turns the exchange path off for that kernel."""
    out, keep, ffi, _ = port
    spec = importlib.util.spec_from_file_location("va_xc_wrapper2", out / "wrapper.py")
    w = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(w)
    monkeypatch.setenv("CTRS_PORT_LIB", str(keep))
    p = Producer(ffi)
    monkeypatch.setattr(w, "exchange_api", lambda: p.address)
    x, y, z = (p.export(Obj(), Array([4096], "float16", ptr=k << 20)) for k in (1, 2, 3))
    if NO_GPU:
        with pytest.raises(w.DeviceInitFailed):
            w.vector_add(x, y, z, TILE=1024, grid=(4,))
        assert w._XC_API == p.address and p.streams == [(2, 0)]
    # an object the producer does not know: -8, then the validated path reads it as a tensor (and refuses it);
    # the exchange path stays on for a non-tensor, and goes off when torch tensors were refused (a dtype the
    # producer does not export: every call would be refused twice)
    with pytest.raises(AttributeError):
        w.vector_add(object(), y, z, TILE=1024, grid=(4,))
    assert w._xc_vector_add not in (None, w._XC_UNSET)
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(Tensor=Obj))
    with pytest.raises(AttributeError):
        w.vector_add(Obj(), y, z, TILE=1024, grid=(4,))
    assert w._xc_vector_add is None
    assert w.set_exchange_path(True) is True and w._xc_vector_add is w._XC_UNSET
    assert w.set_exchange_path(False) is True and w._xc_vector_add is None and w._XC_API == 0


def test_a_library_without_exchange_entries_keeps_the_validated_path(port, monkeypatch):
    """A wrapper over a library built before its exchange entries (CTRS_PORT_LIB) takes the validated path."""
    out, keep, ffi, _ = port
    spec = importlib.util.spec_from_file_location("va_xc_wrapper3", out / "wrapper.py")
    w = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(w)

    class OldLib:  # the entries of the validated path only
        def __getattr__(self, name):
            if name.startswith("ctrs_xc_"):
                raise AttributeError(name)
            return lambda *args: 0

    monkeypatch.setattr(w, "load", lambda: OldLib())
    monkeypatch.setattr(w, "exchange_api", lambda: Producer(ffi).address)
    assert w._xc_init("vector_add") is None and w._XC_API == 0 and w._xc_vector_add is None
