"""Run on the GPU host: verify, fuzz and benchmark every port of a bundle (see transpiler/gpu/bundle.py).

    python3 -m transpiler.gpu_host BUNDLE_DIR --out REPORT_DIR [--fuzz 50] [--reps 50]

The host has torch and the driver but no Rust and no network; the bundle carries each port's cdylib,
generated wrapper.py, reference kernel.py and specs (a Triton port — analysis.json "triton" — carries its
@triton.jit kernel.py: the reference is that kernel run by the host's standard Triton, with the arguments
from the analysis.json parameter map; see ``PortRunner._triton_launchers``), and the environment comes from
``host_env`` (the image's CUDA 13.0 ``CUDA_HOME`` is removed, the carried tileiras kit goes first
on PATH — tileiras 13.4 with a 13.0 ptxas/libnvvm fails with "Return code 5").
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import statistics
import sys
import time
import traceback
import zlib
from pathlib import Path

from . import proof as gpu
from ..verify import ir_ref
from .. import spec as specmod


def host_env(kit: Path) -> None:
    """Make this process (and the tileiras it spawns) use the carried 13.4 kit, never /usr/local/cuda."""
    for k in ("CUDA_HOME", "CUDA_PATH", "CUDA_TOOLKIT_PATH"):
        os.environ.pop(k, None)
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and not p.startswith("/usr/local/cuda")]
    os.environ["PATH"] = os.pathsep.join([str(kit / "bin"), *path])
    os.environ["CUTILE_TILEIRAS_PATH"] = str(kit / "bin" / "tileiras")
    os.environ["CUTILE_BYTECODE_VERSION"] = "13.3"
    for k in [k for k in os.environ if k.startswith("CUTILE_JIT_")]:  # cutile >= 0.5 applies them in its JIT
        os.environ.pop(k)
    os.environ["CTRS_AUTOBUILD"] = "0"


def _import_wrapper(port: Path):
    name = f"_ctrs_wrapper_{port.name}"
    spec = importlib.util.spec_from_file_location(name, port / "wrapper.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def triton_defaults(kernel) -> dict:
    """Parameter name -> default of a @triton.jit function's signature (``acc_dtype=tl.float32``,
    ``FLATTEN=True``): what a launch that leaves the parameter out passes, so a spec may leave it out too."""
    import inspect  # noqa: PLC0415

    try:
        sig = inspect.signature(getattr(kernel, "fn", kernel))  # a JITFunction's .fn is the Python function
    except (TypeError, ValueError):  # nothing inspectable: every constexpr must come from the spec
        return {}
    return {n: q.default for n, q in sig.parameters.items() if q.default is not inspect.Parameter.empty}


class PortRunner:
    """One port: a bundle entry (bundle.json names the prebuilt cdylib) or a `ctrs translate` output
    directory (the wrapper builds the cdylib lazily; reference kernel and specs given explicitly)."""

    def __init__(self, port: Path, kernel: Path | None = None, specs: Path | None = None):
        self.port = port
        meta_file = port / "bundle.json"
        self.meta = json.loads(meta_file.read_text()) if meta_file.exists() else {}
        self.analysis = json.loads((port / "analysis.json").read_text())
        if self.meta.get("lib"):
            os.environ["CTRS_PORT_LIB"] = str(port / self.meta["lib"])
        else:
            os.environ.pop("CTRS_PORT_LIB", None)
        self.wrapper = _import_wrapper(port)
        self.wrapper.load()  # dlopen now, while CTRS_PORT_LIB names this port's library
        if kernel is None and self.meta.get("reference"):  # a kernel file inside its package (ctrs bundle)
            kernel = port / self.meta["reference"]
            self.refmod = ir_ref.reference_module(kernel)  # its kernels and what they use, not the host code
        else:
            kernel = kernel or port / "kernel.py"
            self.refmod = ir_ref.load_module(kernel)
        self.specs = specmod.load_specs(str(specs or (port / "specs.json" if (port / "specs.json").exists()
                                                        else Path(kernel).parent / "specs.json")))

    def launchers(self, spec: specmod.Spec, tensors: dict):
        tmap = gpu.triton_map(self.analysis, spec.kernel)
        if tmap is not None:
            return self._triton_launchers(spec, tensors, tmap)
        import cuda.tile as ct  # noqa: PLC0415
        import torch  # noqa: PLC0415

        kernel = getattr(self.refmod, spec.kernel)
        params = list(__import__("inspect").signature(kernel._pyfunc).parameters)
        grid = spec.grid_for()
        args = gpu.call_args(spec, params, tensors)
        consts = {n: a.value for n, a in spec.args.items() if isinstance(a, specmod.ConstArg)}
        inputs = [tensors[p] if isinstance(spec.args[p], specmod.ArrayArg) else spec.args[p].value
                  for p in params if not isinstance(spec.args[p], specmod.ConstArg)]
        port_fn = getattr(self.wrapper, spec.kernel)
        if spec.hints:  # the launch's compiler hints (an autotune config, replace_hints): both sides take them
            kernel = kernel.replace_hints(**spec.hints)
        set_hints = getattr(self.wrapper, "set_launch_hints", None)  # ports generated before it have none
        hints = dict(spec.hints) if set_hints is not None else {}
        key = tuple(sorted(hints.items()))

        def ref():
            ct.launch(torch.cuda.current_stream(), grid, kernel, args)

        def port():
            if getattr(self, "_hints_now", ()) != key:  # this thread's hints become this spec's (() the entry's):
                set_hints(**hints)  # thread state, set once per configuration, as replace_hints makes one kernel
                self._hints_now = key
            port_fn(*inputs, **consts, grid=grid)

        return ref, port

    def _triton_launchers(self, spec: specmod.Spec, tensors: dict, tmap: dict):
        """A Triton port: the reference is the @triton.jit kernel of the port's kernel.py, run by standard
        Triton as ``kernel[grid](*args, **options)`` with every parameter (constexprs included) positional
        from the analysis.json map. An @triton.autotune (or @triton.heuristics) wrapper is unwrapped to its
        JITFunction (``.fn``): the spec's constants pick the config, passed explicitly (the Autotuner itself
        refuses re-defined tuned symbols and would benchmark every config), with that config's num_warps /
        num_stages. The grid is the spec's (the same tiles as the cuTile counterpart's block ids)."""
        import triton  # noqa: PLC0415
        from triton.runtime.jit import JITFunction  # noqa: PLC0415

        if hasattr(triton, "set_allocator"):  # in-kernel tl.make_tensor_descriptor needs scratch for TMA descriptors
            import torch  # noqa: PLC0415

            triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))

        kernel = getattr(self.refmod, spec.kernel)
        for _ in range(4):
            if isinstance(kernel, JITFunction):
                break
            kernel = kernel.fn
        grid = spec.grid_for()
        defaults = triton_defaults(kernel)
        args = gpu.triton_args(tmap, spec, tensors, defaults=defaults)
        options = gpu.triton_launch_options(self.analysis, spec.kernel, spec)
        inputs, consts = gpu.triton_port_inputs(tmap, spec, tensors, defaults=defaults)
        port_fn = getattr(self.wrapper, spec.kernel)

        def ref():
            kernel[grid](*args, **options)

        def port():
            port_fn(*inputs, **consts, grid=grid)

        return ref, port

    def verify(self, spec: specmod.Spec, seed: int = 0) -> gpu.Check:
        import torch  # noqa: PLC0415

        try:
            a = gpu.make_tensors(spec, seed)
            b = _clone_all(a)
            ref, _ = self.launchers(spec, a)
            _, port = self.launchers(spec, b)
            ref()
            port()
            torch.cuda.synchronize()
            ok, detail, err, bitwise, ulp = gpu.compare(spec, a, b, self.analysis)
            return gpu.Check(self.port.name, spec.name, ok, detail, err, bitwise, None if ok else spec.to_json(),
                             max_ulp=ulp)
        except Exception as e:  # noqa: BLE001 - a failing launch is a result, not a crash of the run
            return gpu.Check(self.port.name, spec.name, False, f"{type(e).__name__}: {e}".splitlines()[0],
                             spec_json=spec.to_json())

    def regressions(self) -> list[specmod.Spec]:
        """Failures saved by earlier runs (fixtures/<name>/regressions.json): replayed before anything else."""
        f = self.port / "regressions.json"
        if not f.exists():
            return []
        return [specmod.parse_spec(r["spec"], str(f)) for r in json.loads(f.read_text())]

    def extra(self, role: str) -> list[specmod.Spec]:
        """The port's ``bench.json`` (benchmark sizes: verified and timed) or ``numerics.json`` (verified only:
        test shapes, shapes drawn on the build machine, where the host code recomputed grid and constants)."""
        f = self.port / f"{role}.json"
        return specmod.load_specs(str(f)) if f.exists() else []

    def fuzz(self, spec: specmod.Spec, examples: int, db: Path) -> list[gpu.Check]:
        from hypothesis import HealthCheck, given, settings  # noqa: PLC0415
        from hypothesis.database import DirectoryBasedExampleDatabase  # noqa: PLC0415

        results: list[gpu.Check] = []

        @settings(max_examples=examples, deadline=None, database=DirectoryBasedExampleDatabase(str(db)),
                  suppress_health_check=list(HealthCheck), derandomize=False)
        @given(gpu.spec_strategy(spec))
        def prop(s):
            c = self.verify(s, seed=zlib.crc32(s.name.encode()))  # same drawn shape -> same data: reproducible
            results.append(c)
            assert c.ok, c.detail

        try:
            prop()
        except Exception:  # noqa: BLE001 - AssertionError or a hypothesis error group: the checks are recorded
            pass  # hypothesis shrank it; the failing example is in `results` and in the database
        return results

    def bench(self, spec: specmod.Spec, reps: int, flush_l2: bool = False) -> gpu.Timing:
        """Device times of ``reps`` interleaved calls per side. ``flush_l2``: a 256 MiB buffer is zeroed before each
        timed call (untimed, as triton.testing.do_bench does), so no call finds its inputs in the L2 cache (50 MiB
        on an H200) that the call before it left there."""
        import torch  # noqa: PLC0415

        # each side its own copy of the same data: an in-place kernel (TileGym's cross-entropy writes its gradient
        # over its logits) would otherwise read the other side's output, each timed call a different input
        ref, _ = self.launchers(spec, gpu.make_tensors(spec, 1))
        _, port = self.launchers(spec, gpu.make_tensors(spec, 1))
        for f in (ref, port, ref, port):  # JIT compile + warm-up
            f()
        scratch = torch.empty(L2_FLUSH_BYTES, dtype=torch.int8, device="cuda") if flush_l2 else None
        r_us, p_us = [], []
        for _ in range(reps):  # interleaved so clocks and caches treat both the same
            for f, acc in ((ref, r_us), (port, p_us)):
                if scratch is not None:
                    scratch.zero_()
                acc.append(device_time_us(f))
        return gpu.Timing(self.port.name, spec.name, r_us, p_us)

    def overhead(self, spec: specmod.Spec, calls: int = 1000) -> tuple[float, float, float | None, float | None]:
        """Host time of one launch (median over ``calls`` calls, us) for ct.launch, for the port's wrapper, for
        the wrapper with the C entries' fast path off (what CTRS_FFI_FAST=0 gives; None for a port built without
        it) and for the wrapper with its exchange path off (CTRS_FFI_XC=0: the validated Python path, the C fast
        path on; None for a port without exchange entries): each call timed alone with perf_counter_ns, nothing
        synchronised inside the timed region; all run interleaved in blocks of BLOCK calls, with a stream
        synchronisation between blocks (untimed) so the launch queue never fills and a long kernel never makes a
        launch wait."""
        import torch  # noqa: PLC0415

        tensors = gpu.make_tensors(spec, 2)
        ref, port = self.launchers(spec, tensors)
        has_fast, has_xc, mode = launch_modes(self.wrapper)
        fns, setup = [ref, port], [None, mode(True, True)]
        if has_fast:  # the same wrapper, the C side's slow path (cutile's launcher on every call)
            fns.append(port)
            setup.append(mode(False, True))
        if has_xc:  # the same wrapper, the validated Python path (a signature key of torch reads per array)
            fns.append(port)
            setup.append(mode(True, False))
        for f, s in zip((*fns, *fns), (*setup, *setup)):  # JIT compile, first-signature validation, warm caches
            if s is not None:
                s()
            f()
        torch.cuda.synchronize()
        try:
            out = median_calls_us(fns, calls, torch.cuda.synchronize, setup)
        finally:
            mode(True, True)()
        slow = out[2] if has_fast else None
        validated = out[-1] if has_xc else None
        return out[0], out[1], slow, validated


def launch_modes(wrapper) -> tuple[bool, bool, object]:
    """(has a C fast path, has exchange entries, mode): ``mode(fast, exchange)`` is a function that sets both of a
    generated wrapper's launch paths (those it has; ports generated before a switch have none), for A/B timings."""
    switch = getattr(wrapper, "set_fast_path", None)
    xc = getattr(wrapper, "set_exchange_path", None)
    has_fast = bool(switch(True)) if switch is not None else False
    has_xc = bool(xc(True)) if xc is not None else False

    def mode(fast: bool, exchange: bool):
        def set_mode():
            if has_fast:
                switch(fast)
            if has_xc:
                xc(exchange)
        return set_mode

    return has_fast, has_xc, mode


def median_calls_us(fns, calls: int, sync, setup=None) -> list[float]:
    """Host time of one call of each of ``fns`` (median of ``calls`` calls each, us): every call timed alone with
    perf_counter_ns, the functions interleaved in blocks of OVERHEAD_BLOCK calls, ``sync()`` (untimed) after each
    block; ``setup[i]`` (untimed, None: nothing) runs before each block of ``fns[i]``."""
    times: list[list[int]] = [[] for _ in fns]
    setup = setup or [None] * len(fns)
    clock = time.perf_counter_ns
    for _ in range(-(-calls // OVERHEAD_BLOCK)):
        for f, s, out in zip(fns, setup, times):
            if s is not None:
                s()
            for _ in range(OVERHEAD_BLOCK):
                t0 = clock()
                f()
                out.append(clock() - t0)
            sync()
    return [statistics.median(ts) / 1e3 for ts in times]


OVERHEAD_BLOCK = 50


def _clone_all(tensors: dict) -> dict:
    """Copies with the same shapes AND strides (non-contiguous layouts survive)."""
    import torch  # noqa: PLC0415

    out = {}
    for k, v in tensors.items():
        extent = 1 + sum((d - 1) * s for d, s in zip(v.shape, v.stride()))
        flat = v.as_strided((extent,), (1,)).clone()
        out[k] = torch.as_strided(flat, v.shape, v.stride())
    return out


L2_FLUSH_BYTES = 256 * 2**20  # bench(flush_l2=True): more than any GPU's L2 (50 MiB on an H200)


def device_time_us(fn) -> float:
    """Kernel time of one call, from CUPTI (torch.profiler); CUDA events if the profiler gives nothing."""
    import torch  # noqa: PLC0415
    from torch.profiler import ProfilerActivity, profile  # noqa: PLC0415

    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    total = 0.0
    for e in prof.events():
        if str(getattr(e, "device_type", "")).endswith("CUDA") and not e.cpu_children:
            total += float(getattr(e, "self_device_time_total", 0.0) or getattr(e, "device_time", 0.0) or 0.0)
    if total > 0:
        return total
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) * 1e3


def port_dirs(paths: list[str]) -> list[Path]:
    """Bundles (a directory with ports/) and single port directories (with wrapper.py)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if (p / "ports").is_dir():
            out += sorted(q for q in (p / "ports").iterdir() if (q / "bundle.json").exists())
        elif (p / "wrapper.py").exists():
            out.append(p)
        else:
            raise SystemExit(f"error[CTRS-E070]: {p} is neither a bundle nor a port directory "
                             "(hint: pass the output of 'ctrs bundle' or 'ctrs translate')")
    return out


def run_port(runner: PortRunner, report: gpu.Report, a, deadline: float) -> None:
    """Regressions, then per spec: verify, hypothesis fuzz (a spec with a fuzz plan), device time; then the
    launch overhead on the smallest spec. Nothing new starts after ``deadline``."""
    port = runner.port
    t0 = time.time()
    for s in runner.regressions():
        report.checks.append(runner.verify(s))
    fuzzable = [s for s in runner.specs if s.fuzz]
    per_spec = -(-a.fuzz // len(fuzzable)) if fuzzable and a.fuzz else 0
    done = getattr(a, "done", None) or Done()
    for s in runner.specs:
        if time.time() > deadline:
            print(f"{port.name}: --budget-s spent, {s.name} and later specs left out", flush=True)
            break
        if done.has(port.name, s.name, timed=bool(a.reps)):
            continue
        report.checks.append(runner.verify(s))
        if per_spec and s.fuzz:
            report.checks.extend(runner.fuzz(s, per_spec, Path(os.environ.get("CTRS_FUZZ_DB", "/tmp/ctrs-fuzz-db")) / port.name))
        if a.reps:
            try:
                report.timings.append(runner.bench(s, a.reps, getattr(a, "flush_l2", False)))
            except Exception as e:  # noqa: BLE001
                print(f"bench {port.name}/{s.name}: {e}", file=sys.stderr)
    if a.overhead_calls and runner.specs and time.time() <= deadline and port.name not in done.overhead:
        s0 = min(runner.specs, key=lambda s: sum(math.prod(x.shape) for x in s.args.values()
                                                 if isinstance(x, specmod.ArrayArg)))  # the smallest input
        try:
            r, p, slow, validated = runner.overhead(s0, a.overhead_calls)
            report.overhead[port.name] = {"ct.launch": r, "port wrapper": p, "calls": a.overhead_calls,
                                          "spec": s0.name, **({"port wrapper, CTRS_FFI_FAST=0": slow}
                                                              if slow is not None else {}),
                                          **({"port wrapper, CTRS_FFI_XC=0": validated}
                                             if validated is not None else {})}
            print(f"{port.name}: launch overhead (median of {a.overhead_calls} calls, {s0.name}): "
                  f"ct.launch {r:.2f} us, port wrapper {p:.2f} us"
                  + (f", port wrapper with CTRS_FFI_FAST=0 {slow:.2f} us" if slow is not None else "")
                  + (f", port wrapper with CTRS_FFI_XC=0 {validated:.2f} us" if validated is not None else ""),
                  flush=True)
        except Exception as e:  # noqa: BLE001
            print(f"overhead {port.name}/{s0.name}: {e}", file=sys.stderr)
    ok = sum(c.ok for c in report.checks if c.port == port.name)
    n = sum(1 for c in report.checks if c.port == port.name)
    meta, analysis = getattr(runner, "meta", {}), getattr(runner, "analysis", {})
    cutile = meta.get("cutile") or analysis.get("cutile") or "0.3.1"
    print(f"{port.name}: {ok}/{n} checks ok (cutile {cutile}; {time.time() - t0:.0f} s)", flush=True)


PHASES = ("proven", "bench", "numerics")


class Done:
    """What earlier runs' reports (``--skip-done gpu_report.json ...``: a device call that the per-call limit cut
    short, continued by the next) already checked, timed and measured the launch of; left out of this run."""

    def __init__(self, files: list[str] = ()):
        self.checked: set[tuple[str, str]] = set()
        self.timed: set[tuple[str, str]] = set()
        self.overhead: set[str] = set()
        for f in files:
            data = json.loads(Path(f).read_text())
            self.checked |= {(c["port"], c["spec"]) for c in data.get("checks", [])}
            self.timed |= {(t["port"], t["spec"]) for t in data.get("timings", [])}
            self.overhead |= set(data.get("overhead_us") or {})

    def has(self, port: str, spec: str, timed: bool) -> bool:
        return (port, spec) in self.checked and (not timed or (port, spec) in self.timed)


def shard(ports: list[Path], index: int, count: int) -> list[Path]:
    """The ``index``-th of ``count`` shards of the port directories (``--shard I/N``: one runner per GPU of a host, or
    several on one GPU for numerics-only checks, which mostly wait on the JIT), balanced by their work before any is
    loaded: ports taken largest first, each to the shard with the least so far (a proven or benchmark-size spec is
    timed, so it weighs three numerics-only checks); the same ports give the same shards on every host."""
    def n(port: Path, name: str) -> int:
        f = port / name
        return len(specmod.load_specs(str(f))) if f.exists() else 0

    def work(port: Path) -> int:
        return 3 * (n(port, "specs.json") + n(port, "bench.json")) + n(port, "numerics.json")

    loads, owner = [0] * count, {}
    for port in sorted(ports, key=lambda p: (-work(p), p.name)):
        i = loads.index(min(loads))
        loads[i] += work(port)
        owner[port] = i
    return [p for p in ports if owner[p] == index]


def run_all(runners: list, report: gpu.Report, a, deadline: float, out: Path) -> None:
    """Phase 1: every port's specs (numerics + device time) and launch overhead; phase 2: benchmark sizes
    (bench.json: numerics + device time); phase 3: numerics only (numerics.json). Phases 2 and 3 take the ports
    round robin, so a budget that runs out leaves every port some of its sizes. Reports are written after every
    port of phase 1 and every 10 specs after, so a run cut short still leaves them; nothing new starts after
    ``deadline``."""
    phases = getattr(a, "phases", None) or PHASES
    for runner in runners if "proven" in phases else []:  # phase 1: every port's specs and launch overhead
        run_port(runner, report, a, deadline)
        gpu.write_reports(report, out)  # after every port: a run cut short still leaves its reports
    for role in [p for p in ("bench", "numerics") if p in phases]:  # phases 2 and 3, while the budget lasts
        done = getattr(a, "done", None) or Done()
        queues = [(runner, [s for s in runner.extra(role)
                            if not done.has(runner.port.name, s.name, timed=role == "bench" and bool(a.reps))])
                  for runner in runners]
        done = {runner.port.name: [] for runner, _ in queues}
        order = [(runner, q[i]) for i in range(max((len(q) for _, q in queues), default=0))
                 for runner, q in queues if i < len(q)]  # round robin: every port gets its first specs early
        for n, (runner, s) in enumerate(order):
            if time.time() > deadline:
                break
            check = runner.verify(s)
            report.checks.append(check)
            done[runner.port.name].append(check)
            if role == "bench" and a.reps:
                try:
                    report.timings.append(runner.bench(s, a.reps, getattr(a, "flush_l2", False)))
                except Exception as e:  # noqa: BLE001
                    print(f"bench {runner.port.name}/{s.name}: {e}", file=sys.stderr)
            if n % 10 == 9:
                gpu.write_reports(report, out)
        for runner, q in queues:
            got = done[runner.port.name]
            if q:
                print(f"{runner.port.name}: {role} specs {sum(c.ok for c in got)}/{len(got)} ok"
                      + (f", {len(q) - len(got)} left out by --budget-s" if len(got) < len(q) else ""), flush=True)
        gpu.write_reports(report, out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="ctrs-gpu-host")
    ap.add_argument("bundle", nargs="+", help="bundle directories (from ctrs bundle) or port directories")
    ap.add_argument("--out", required=True)
    ap.add_argument("--kit", help="unpacked tileiras kit (bin/tileiras, bin/ptxas, lib/libnvvm.so.4); "
                                  "default: the pip kit of this Python")
    ap.add_argument("--kernel", help="reference kernel.py for a single port directory")
    ap.add_argument("--specs", help="specs.json for a single port directory")
    ap.add_argument("--fuzz", type=int, default=50, help="hypothesis-drawn shapes per port, split over its specs")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--flush-l2", action="store_true", help="zero a 256 MiB buffer before each timed call (cold L2, "
                    "as triton.testing.do_bench): no call finds the inputs the previous call left in the cache")
    ap.add_argument("--overhead-calls", type=int, default=1000,
                    help="launch overhead: calls timed per side on each port's smallest spec (0: skip)")
    ap.add_argument("--only", nargs="*", help="port names")
    ap.add_argument("--phases", nargs="+", choices=PHASES, default=list(PHASES),
                    help="what to run: proven (every port's specs, numerics + device time, and the launch overhead), "
                         "bench (benchmark sizes: numerics + device time), numerics (numerics-only shapes)")
    ap.add_argument("--shard", metavar="I/N", help="run the I-th (from 0) of N balanced shards of the ports "
                                                   "(one runner per GPU: CUDA_VISIBLE_DEVICES=I ... --shard I/N)")
    ap.add_argument("--skip-done", nargs="+", metavar="JSON", default=[],
                    help="gpu_report.json of earlier runs: leave out what they checked, timed and measured")
    ap.add_argument("--budget-s", type=float, default=0,
                    help="start nothing new after this many seconds (0: no limit); the reports cover what ran")
    a = ap.parse_args(argv)
    if a.shard:
        try:
            parts = tuple(int(x) for x in a.shard.split("/"))
            if len(parts) != 2 or not 0 <= parts[0] < parts[1]:
                raise ValueError
        except ValueError:
            print(f"error[CTRS-E072]: --shard {a.shard}: expected I/N with 0 <= I < N (hint: --shard 0/4)",
                  file=sys.stderr)
            return 2
    a.done = Done(a.skip_done)
    if a.kit:
        host_env(Path(a.kit))
    else:
        from .. import toolchain  # noqa: PLC0415

        if toolchain.cuda_kit() is not None:
            host_env(toolchain.cuda_kit())
    try:
        import torch  # noqa: PLC0415
    except ImportError:
        torch = None
    if torch is None or not torch.cuda.is_available():
        print("error[CTRS-E071]: no CUDA device visible (hint: run on the GPU host; see README 'GPU proof')",
              file=sys.stderr)
        return 2
    report = gpu.Report(device=torch.cuda.get_device_name())
    out = Path(a.out)
    deadline = time.time() + a.budget_s if a.budget_s else math.inf
    runners: list[PortRunner] = []
    ports = [p for p in port_dirs(a.bundle) if not a.only or p.name in a.only]
    for port in shard(ports, *parts) if a.shard else ports:
        try:
            runners.append(PortRunner(port, Path(a.kernel) if a.kernel else None, Path(a.specs) if a.specs else None))
        except Exception as e:  # noqa: BLE001
            report.checks.append(gpu.Check(port.name, "*", False, f"load failed: {type(e).__name__}: {e}"))
            traceback.print_exc()
    run_all(runners, report, a, deadline, out)
    data = gpu.write_reports(report, out)
    print(f"geomean_ratio={data['geomean_ratio']:.4f}")
    return 0 if all(c.ok for c in report.checks) else 1


if __name__ == "__main__":
    sys.exit(main())
