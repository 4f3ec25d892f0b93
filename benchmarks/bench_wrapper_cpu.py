"""CPU-side cost of one launch through a generated fmha-like wrapper.py (no GPU: not a test).

    .venv/bin/python benchmarks/bench_wrapper_cpu.py WRAPPER.py [WRAPPER.py ...]   # needs torch (ctrs[specs]), cc

The wrapper's C entries are replaced by a stub cdylib compiled from its own CDEF (every function returns 0), its
device check and raw-stream accessor by constants (CPU tensors), so what is timed is the Python side: signature
key, plan lookup, scalar checks, data pointers, the cffi call. Calls ``_fmha_kernel`` (TileGym attention.py's
dispatcher over CAUSAL x EVEN_K) with four bf16 (2, 32, 1024, 128) arrays. Several wrappers (say, generated before
and after a template change) are timed interleaved in one process, 15 rounds of 20000 calls each, so a busy
machine slows them alike; prints each one's median and minimum over the rounds (us per call).
"""

import importlib.util
import os
import re
import statistics
import subprocess
import sys
import time

import torch


def load(path: str, tag: str = "bench_wrapper"):
    src = open(path).read()
    cdef = re.search(r'CDEF = """\n(.*?)"""', src, re.S).group(1)
    stub = path + ".stub"
    with open(stub + ".c", "w") as fh:
        fh.write("#include <stdint.h>\n" + re.sub(r"\);", ") { return 0; }", cdef))
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", stub + ".so", stub + ".c"], check=True)
    os.environ["CTRS_PORT_LIB"] = stub + ".so"
    spec = importlib.util.spec_from_file_location(tag, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    m._device_of = lambda where, tensors: (None, 0)
    m._RAW_STREAM = lambda index: 0
    return m


def main() -> None:
    q, k, v, o = (torch.empty(2, 32, 1024, 128, dtype=torch.bfloat16) for _ in range(4))
    consts = dict(TILE_D=128, H=32, TILE_M=256, TILE_N=128, QUERY_GROUP_SIZE=1, CAUSAL=False, EVEN_K=True)
    g = (1, 64, 8)
    fns = []
    for i, path in enumerate(sys.argv[1:]):
        f = load(path, f"bench_wrapper_{i}")._fmha_kernel
        f(q, k, v, o, 0.125, 0, **consts, grid=g)  # first call: validation, plan
        fns.append(f)

    def run(f, n=20000):
        t0 = time.perf_counter_ns()
        for _ in range(n):
            f(q, k, v, o, 0.125, 0, **consts, grid=g)
        return (time.perf_counter_ns() - t0) / n / 1e3

    times = [[] for _ in fns]
    for _ in range(15):
        for f, ts in zip(fns, times):
            ts.append(run(f))
    for path, ts in zip(sys.argv[1:], times):
        print(f"{path}: median {statistics.median(ts):.2f} us/call, min {min(ts):.2f} (15 rounds x 20000 calls)")


if __name__ == "__main__":
    main()
