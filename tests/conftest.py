"""Shared fixture discovery and a per-session IR cache (each kernel is compiled once per test run)."""

from __future__ import annotations

import functools
import importlib.abc
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ctrs.verify import ir_ref, ir_rs
from ctrs.spec import load_specs

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CORRECT_FIXTURES = sorted(p.name for p in FIXTURES.iterdir()
                          if (p / "kernel.py").exists() and (p / "port.rs").exists() and (p / "specs.json").exists())


def _wrong_ports() -> list[tuple[str, str, str, str]]:
    out = []
    for fx in CORRECT_FIXTURES:
        manifest = FIXTURES / fx / "wrong" / "MANIFEST.json"
        if not manifest.exists():
            continue
        specs = [s.name for s in load_specs(str(FIXTURES / fx / "specs.json"))]
        for fname, meta in sorted(json.loads(manifest.read_text()).items()):
            for spec in meta.get("specs", specs):
                out.append((fx, fname, spec, meta["op"]))
    return out


WRONG_PORTS = _wrong_ports()


@functools.cache
def _spec(fixture: str, name: str):
    return next(s for s in load_specs(str(FIXTURES / fixture / "specs.json")) if s.name == name)


@functools.cache
def ref_ir(fixture: str, spec: str):
    return ir_ref.compile_reference(FIXTURES / fixture / "kernel.py", _spec(fixture, spec))


@functools.cache
def _port_all(fixture: str, port: Path):
    specs = load_specs(str(FIXTURES / fixture / "specs.json"))
    jobs = [(s, s.rust.get("entry") or s.kernel) for s in specs]
    return {s.name: r for s, r in zip(specs, ir_rs.compile_ports(port, jobs))}


def port_ir(fixture: str, spec: str, port: Path | None = None):
    return _port_all(fixture, port or FIXTURES / fixture / "port.rs")[spec]


def ir_pair(fixture: str, spec: str):
    return ref_ir(fixture, spec), port_ir(fixture, spec)


# --- translator tests over small kernels under tests/data (kernel.py + specs .json side by side) ------

DATA = Path(__file__).resolve().parent / "data"


def data_cases(kernels: list[str]):
    """pytest params (kernel name, spec) for every spec of every tests/data/<kernel>.json."""
    import pytest  # noqa: PLC0415

    for name in kernels:
        for s in load_specs(str(DATA / f"{name}.json")):
            yield pytest.param(name, s, id=f"{name}-{s.name}")


def translate_data(base: Path, kernels: list[str]) -> dict[str, Path]:
    """Translate each tests/data/<kernel>.py into base/<kernel>/; returns the kernel.rs paths."""
    from ctrs import translate  # noqa: PLC0415

    out = {}
    for name in kernels:
        files = translate.translate(DATA / f"{name}.py", base / name)
        out[name] = next(p for p in files if p.name == "kernel.rs")
    return out


def assert_port_equivalent(kernel_py: Path, kernel_rs: Path, spec, known: frozenset = frozenset()) -> None:
    """ir-ref of the Python kernel vs ir-rs of the generated port: diff-ir must say EQUIVALENT. ``known``: warning
    codes of a documented gap the port must still show (the test fails once the gap is closed, to be updated)."""
    from ctrs.verify import irdiff  # noqa: PLC0415

    from ctrs.workflow import check  # noqa: PLC0415
    from ctrs import translate  # noqa: PLC0415
    from ctrs.emitters import render_host  # noqa: PLC0415

    ref = ir_ref.compile_reference(kernel_py, spec)
    entry = spec.rust.get("entry")
    if entry is None:  # the entry the wrapper launches for this spec (structural variants, per-dtype entries)
        fk = check.entry_for(spec, render_host.ffi_kernels(translate.translate_module(Path(kernel_py))))
        entry = fk.name if fk is not None else spec.kernel
    (gen,) = ir_rs.compile_ports(kernel_rs, [(spec, entry)])
    assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), kernel_rs, known)


def assert_equivalent_report(report, kernel_rs: Path, known: frozenset = frozenset()) -> None:
    """The diff proves the port by the notion of EQUIVALENT ``ctrs check`` and the LLM fallback share (irdiff
    ``Report.proves``: no critical finding, no warning but IRD-ASSUME-DIV of a raw-pointer port, a one-element
    pointer's alignment the reference derives from the launch; passes/assume.py states an all-literal index's),
    ``known`` the warnings of a documented gap, which the report must still show."""
    assert report.proves(Path(kernel_rs).read_text(), frozenset(known)), report.render()
    shown = {f.code for f in report.findings}
    assert set(known) <= shown, f"the known gap {sorted(set(known) - shown)} is closed: update the test"


# --- model-only tests (`pytest -m model`, docs/layout.md "Testing") -----------------------------------------
# A test marked `model` runs the front ends, the IR, the passes and the emitter only: no cargo, no subprocess,
# no cuda-tile (the reference compiler). The guard below makes the marker honest: such a test that reaches for
# one fails. CTRS_MODEL_PROBE=1 guards every test (to find which ones are model-only).


class _NoReference(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "cuda.tile" or name.startswith("cuda.tile."):
            raise ImportError(f"a model-only test imports {name} (the reference compiler)")
        return None


def _no_subprocess(cmd, *args, **kwargs):
    raise AssertionError(f"a model-only test runs a subprocess: {cmd!r}")


@pytest.fixture(autouse=True)
def _model_only(request, monkeypatch):
    if request.node.get_closest_marker("model") is None and not os.environ.get("CTRS_MODEL_PROBE"):
        yield
        return
    for name in [n for n in sys.modules if n == "cuda.tile" or n.startswith("cuda.tile.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(subprocess, "run", _no_subprocess)
    monkeypatch.setattr(subprocess, "Popen", _no_subprocess)
    finder = _NoReference()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)


TRITON_HEAD = "import triton\nimport triton.language as tl\n"


def write_triton(tmp_path: Path, body: str, name: str = "k.py") -> Path:
    """A Triton kernel file: the two imports, then ``body`` dedented (the small kernels of the Triton tests)."""
    p = tmp_path / name
    p.write_text(TRITON_HEAD + textwrap.dedent(body))
    return p

