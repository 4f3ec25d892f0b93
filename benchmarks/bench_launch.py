"""Launch overhead on the GPU host: ct.launch (or Triton's launcher) vs the port's generated wrapper, and where
the wrapper's time goes. Prints one row per port; run from an unpacked bundle (stage 2) after stage 1:

    PYTHONPATH=/tmp/ctrs-site:/tmp/ctrs-bundle/runner python3 bench_launch.py /tmp/ctrs-bundle --kit /tmp/ctrs-kit

Per port, on its smallest spec, the host time of one call (median of --calls calls per side, each call timed
alone, blocks of 50 with an untimed synchronisation between them; ctrs.gpu.host.PortRunner.overhead):
reference launcher, wrapper, the wrapper with its C entries' fast path off (what CTRS_FFI_FAST=0 gives: cutile's
launcher on every call), the wrapper with its exchange path off (CTRS_FFI_XC=0: the validated Python path, a
signature key of torch reads per array), and the Python side alone of both paths (the exchange entry, or each
cached plan's C function, replaced by a no-op); wrapper minus its Python side is the cdylib + driver launch.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_launch")
    ap.add_argument("bundle")
    ap.add_argument("--kit")
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args(argv)
    from ctrs.gpu import proof as gpu, host as gpu_host  # noqa: PLC0415 - the runner the bundle carries
    from ctrs import spec as specmod  # noqa: PLC0415 - the runner the bundle carries

    if a.kit:
        gpu_host.host_env(Path(a.kit))
    import torch  # noqa: PLC0415

    def _median_us(fn, calls, sync):
        return gpu_host.median_calls_us([fn], calls, sync)[0]

    x = torch.empty(1000, device="cuda")
    sync = torch.cuda.synchronize
    for what, f in (("x.shape", lambda: x.shape), ("x.stride()", lambda: x.stride()), ("x.device", lambda: x.device),
                    ("x.dtype", lambda: x.dtype), ("x.data_ptr()", lambda: x.data_ptr()),
                    ("raw stream", lambda: torch._C._cuda_getCurrentRawStream(0))):
        print(f"{what}: {_median_us(f, a.calls, lambda: None) * 1e3:.0f} ns")
    print("| port | spec | reference launcher | wrapper | wrapper, CTRS_FFI_FAST=0 | wrapper, CTRS_FFI_XC=0 "
          "| Python side | C side | Python side, CTRS_FFI_XC=0 | wrapper / reference |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ratios = []
    for port in gpu_host.port_dirs([a.bundle]):
        if a.only and port.name not in a.only:
            continue
        runner = gpu_host.PortRunner(port)
        s0 = min(runner.specs, key=lambda s: sum(math.prod(v.shape) for v in s.args.values()
                                                 if isinstance(v, specmod.ArrayArg)))
        ref, fn = runner.launchers(s0, gpu.make_tensors(s0, 2))
        w = runner.wrapper
        _, _, mode = gpu_host.launch_modes(w)
        fns, setup = [ref, fn, fn, fn], [None, mode(True, True), mode(False, True), mode(True, False)]
        for f, st in zip((*fns, *fns), (*setup, *setup)):
            if st is not None:
                st()
            f()
        sync()
        t_ref, t_port, t_slow, t_val = gpu_host.median_calls_us(fns, a.calls, sync, setup)
        mode(True, True)()
        fn()  # binds the exchange entries again
        # the Python side alone, exchange path: its entries replaced by a no-op
        bound = {n: getattr(w, n) for n in dir(w) if n.startswith("_xc_") and callable(getattr(w, n))
                 and n not in ("_xc_init", "_xc_grid", "_xc_failed") and getattr(w, n) is not None}
        for n in bound:
            setattr(w, n, lambda *args: 0)
        t_py = _median_us(fn, a.calls, sync) if bound else float("nan")
        for n, f in bound.items():
            setattr(w, n, f)
        # the Python side alone, validated path: every cached plan's C function replaced by a no-op
        mode(True, False)()
        fn()
        saved = {}
        for name in dir(w):
            tls = getattr(w, name)
            if name.startswith("_PLANS_") and hasattr(tls, "by_signature"):
                last = getattr(tls, "last", None)  # the thread's last plan (compared before the table)
                for k, p in tls.by_signature.items():
                    saved[(name, k)] = (p, last)
                    tls.by_signature[k] = noop = ((lambda *args: 0), *p[1:])
                    if last is not None and last[1] is p:
                        tls.last = (last[0], noop)
        t_py_val = _median_us(fn, a.calls, sync) if saved else float("nan")
        for (name, k), (p, last) in saved.items():
            tls = getattr(w, name)
            tls.by_signature[k] = p
            if last is not None:
                tls.last = last
        mode(True, True)()
        ratios.append(t_port / t_ref)
        print(f"| {port.name} | {s0.name} | {t_ref:.2f} | {t_port:.2f} | {t_slow:.2f} | {t_val:.2f} | {t_py:.2f} | "
              f"{t_port - t_py:.2f} | {t_py_val:.2f} | {t_port / t_ref:.3f} |", flush=True)
    print(f"geomean wrapper/reference {gpu.geomean(ratios):.4f} over {len(ratios)} ports; "
          f"wrapper <= reference: {sum(r <= 1 for r in ratios)}/{len(ratios)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
