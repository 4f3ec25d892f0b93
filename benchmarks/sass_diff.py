"""What reaches the GPU, on the CPU: reference vs port cubin for one kernel's specs (not a test).

    .venv/bin/python benchmarks/sass_diff.py KERNEL.py --spec SPECS.json --port PORT_DIR [--only SUBSTR] [-o DIR]

An EQUIVALENT verdict compares canonicalised Tile IR: tokens, assume facts on non-arguments and constant folds are
normalised away (verify/ircanon.py), so two kernels can be EQUIVALENT and still compile to different machine code.
This script compiles both sides the way each runtime does and diffs the result, per spec:

* reference: cuTile Python's bytecode for the spec (verify/ir_ref.py, as ``ctrs ir-ref``);
* port: the bytecode cutile 0.5.0 JITs for the spec's entry (verify/ir_rs.py, the harness ``ctrs check`` uses;
  PORT_DIR is a translated port, e.g. ``ctrs check KERNEL.py -o PORT_DIR`` or ``ctrs translate``);
* both through the kit's tileiras with the runtime's flags (``--gpu-name sm_90 --opt-level 3``; cuTile Python
  adds ``--lineinfo``, cutile's release JIT does not: line info does not change the SASS, checked on bmm and rope),
  then ``cuobjdump -sass`` / ``-res-usage`` (pip ``nvidia-cuda-cuobjdump``; CUOBJDUMP=path, else on PATH or in the
  venv's nvidia/cu13/bin).

Prints per spec: registers, shared memory, SASS instruction count, the memory / MMA instruction histogram of both
sides and whether the normalised SASS (registers, addresses and constants masked) is identical; writes
``<spec>.{ref,rs}.{tileirbc,mlir,cubin,sass}`` under DIR for a closer look. Memory and barrier order differences
(``LDG ... STG`` sequences) are printed too: they are what a different memory-token graph changes.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from ctrs import toolchain, translate
from ctrs.emitters import render_host
from ctrs.spec import load_specs
from ctrs.verify import ir_ref, ir_rs
from ctrs.workflow import check

KEY_OPS = re.compile(r"\b(UTMALDG|UTMASTG|LDGSTS|LDG|STG|LDS|STS|STSM|LDSM|HGMMA|WARPGROUP|BAR|MEMBAR|SYNCS)\b[.\w]*")
ORDER_OPS = re.compile(r"\b(UTMALDG|UTMASTG|LDG|STG|BAR\.SYNC)\b")


def cuobjdump() -> str:
    exe = os.environ.get("CUOBJDUMP") or shutil.which("cuobjdump")
    if not exe:
        cand = Path(sys.prefix) / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / \
            "site-packages" / "nvidia" / "cu13" / "bin" / "cuobjdump"
        exe = str(cand) if cand.exists() else None
    if not exe:
        raise SystemExit("cuobjdump not found: pip install nvidia-cuda-cuobjdump, or set CUOBJDUMP")
    return exe


def cubin(bytecode: Path, out: Path) -> None:
    res = subprocess.run([str(toolchain.tileiras()), "--gpu-name", toolchain.GPU_TARGET, "--opt-level", "3", "-o",
                          str(out), str(bytecode)], capture_output=True, text=True, env=toolchain.tool_env(),
                         timeout=900)
    if res.returncode != 0:
        raise SystemExit(f"tileiras failed on {bytecode}: {res.stderr.strip()[-400:]}")


def sass_lines(cub: Path) -> list[str]:
    text = subprocess.run([cuobjdump(), "-sass", str(cub)], capture_output=True, text=True, check=True).stdout
    out = []
    for line in text.splitlines():
        m = re.match(r"\s+/\*[0-9a-f]{4}\*/\s+(.*?)\s*;", line)
        if m:
            out.append(m.group(1))
    return out


def resources(cub: Path) -> str:
    text = subprocess.run([cuobjdump(), "-res-usage", str(cub)], capture_output=True, text=True, check=True).stdout
    m = re.search(r"REG:(\d+).*?SHARED:(\d+)", text)
    return f"REG {m.group(1)}, SHARED {m.group(2)}" if m else "?"


def normalised(lines: list[str]) -> list[str]:
    """Registers, predicates, addresses and immediates masked: what is left is the instruction stream's shape."""
    subs = [(r"\bU?R\d+\b", "R"), (r"\bU?P\d\b", "P"), (r"0x[0-9a-f]+", "X"), (r"\bB\d\b", "B")]
    out = []
    for line in lines:
        for pat, rep in subs:
            line = re.sub(pat, rep, line)
        out.append(line)
    return out


def histogram(lines: list[str]) -> dict[str, int]:
    return dict(sorted(collections.Counter(m.group(0) for line in lines for m in [KEY_OPS.search(line)] if m).items()))


def order(lines: list[str]) -> str:
    seq = [m.group(1) for line in lines for m in [ORDER_OPS.search(line)] if m]
    runs: list[list] = []
    for op in seq:  # run-length: LDG x10, BAR.SYNC, STG x8
        if runs and runs[-1][0] == op:
            runs[-1][1] += 1
        else:
            runs.append([op, 1])
    return ", ".join(f"{op} x{n}" if n > 1 else op for op, n in runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kernel", type=Path)
    ap.add_argument("--spec", required=True)
    ap.add_argument("--port", required=True, type=Path, help="translated port directory (kernel.rs, analysis.json)")
    ap.add_argument("--only", help="specs whose name contains this")
    ap.add_argument("-o", "--out", type=Path, default=Path("sass-diff"))
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    # the entries of a port translated for these launches (a bundle's port: array dtypes they mix stay apart)
    fks = render_host.ffi_kernels(translate.translate_module(a.kernel, specs=load_specs(a.spec)))
    specs = [s for s in load_specs(a.spec) if not a.only or a.only in s.name]
    if not specs:
        raise SystemExit("no spec matches")
    for s in specs:
        fk = check.entry_for(s, fks)
        if fk is None:
            print(f"{s.name}: no port entry for this launch")
            continue
        ref = ir_ref.compile_reference(a.kernel, s)
        (port,) = ir_rs.compile_ports(a.port / "kernel.rs", [(s, fk.name)])
        sides = {}
        for tag, res in (("ref", ref), ("rs", port)):
            stem = a.out / f"{s.name}.{tag}"
            Path(f"{stem}.tileirbc").write_bytes(res.bytecode)
            Path(f"{stem}.mlir").write_text(res.text)
            cubin(Path(f"{stem}.tileirbc"), Path(f"{stem}.cubin"))
            lines = sass_lines(Path(f"{stem}.cubin"))
            Path(f"{stem}.sass").write_text("\n".join(lines) + "\n")
            sides[tag] = (lines, resources(Path(f"{stem}.cubin")))
        (rl, rres), (pl, pres) = sides["ref"], sides["rs"]
        same = normalised(rl) == normalised(pl)
        print(f"{s.name} (entry {fk.name}): SASS {'same shape' if same else 'DIFFERS'}")
        print(f"  reference: {len(rl)} instructions, {rres}; {histogram(rl)}")
        print(f"  port:      {len(pl)} instructions, {pres}; {histogram(pl)}")
        if order(rl) != order(pl):
            print(f"  memory order, reference: {order(rl)}")
            print(f"  memory order, port:      {order(pl)}")


if __name__ == "__main__":
    main()
