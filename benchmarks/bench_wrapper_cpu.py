"""CPU-side cost of one launch through a generated fmha-like wrapper.py (no GPU: not a test).

    .venv/bin/python benchmarks/bench_wrapper_cpu.py PORT_DIR/wrapper.py      # needs torch (ctrs[specs]) and cc

The wrapper's C entries are replaced by a stub cdylib compiled from its own CDEF (every function returns 0), its
device check and raw-stream accessor by constants (CPU tensors), so what is timed is the Python side: signature
key, plan lookup, scalar checks, data pointers, the cffi call. Calls ``_fmha_kernel`` (TileGym attention.py's
dispatcher over CAUSAL x EVEN_K) with four bf16 (2, 32, 1024, 128) arrays; prints the median of 7 x 20000 calls.
"""

import importlib.util
import os
import re
import statistics
import subprocess
import sys
import time

import torch


def load(path: str):
    src = open(path).read()
    cdef = re.search(r'CDEF = """\n(.*?)"""', src, re.S).group(1)
    stub = path + ".stub"
    with open(stub + ".c", "w") as fh:
        fh.write("#include <stdint.h>\n" + re.sub(r"\);", ") { return 0; }", cdef))
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", stub + ".so", stub + ".c"], check=True)
    os.environ["CTRS_PORT_LIB"] = stub + ".so"
    spec = importlib.util.spec_from_file_location("bench_wrapper", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    m._device_of = lambda where, tensors: (None, 0)
    m._RAW_STREAM = lambda index: 0
    return m


def main() -> None:
    m = load(sys.argv[1])
    q, k, v, o = (torch.empty(2, 32, 1024, 128, dtype=torch.bfloat16) for _ in range(4))
    consts = dict(TILE_D=128, H=32, TILE_M=256, TILE_N=128, QUERY_GROUP_SIZE=1, CAUSAL=False, EVEN_K=True)
    f, g = m._fmha_kernel, (1, 64, 8)
    f(q, k, v, o, 0.125, 0, **consts, grid=g)

    def run(n=20000):
        t0 = time.perf_counter_ns()
        for _ in range(n):
            f(q, k, v, o, 0.125, 0, **consts, grid=g)
        return (time.perf_counter_ns() - t0) / n / 1e3

    ts = [run() for _ in range(7)]
    print(f"{sys.argv[1]}: median {statistics.median(ts):.2f} us/call (min {min(ts):.2f}), 7 x 20000 calls")


if __name__ == "__main__":
    main()
