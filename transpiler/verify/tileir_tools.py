"""Thin wrappers over the pip tileiras kit: bytecode -> MLIR text (tileirdisasm), bytecode -> cubin."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from .. import errors, toolchain

BYTECODE_MAGIC = b"\x7fTileIR\x00"


def check_bytecode(data: bytes, origin: str) -> None:
    if not data.startswith(BYTECODE_MAGIC):
        raise errors.CtrsError(errors.IR_INPUT, f"{origin} is not Tile IR bytecode (bad magic)",
                               "pass a .tileirbc written by ir-ref / ir-rs, or its MLIR text")


def disasm(data: bytes, debug_info: bool = True) -> str:
    tool = toolchain.tileirdisasm()
    if tool is None:
        toolchain.require("tileirdisasm")
    with tempfile.NamedTemporaryFile(suffix=".tileirbc") as f:
        f.write(data)
        f.flush()
        cmd = [str(tool), *(["-g"] if debug_info else []), f.name]
        res = subprocess.run(cmd, capture_output=True, text=True, env=toolchain.tool_env(), timeout=120)
    if res.returncode != 0:
        # the first error is the cause (a verifier message: "'cuda_tile.mmaf' op operand #2 must be ..."), the last
        # one only says the read failed
        errs = [ln.rsplit("error: ", 1)[1].strip() for ln in res.stderr.splitlines() if "error: " in ln]
        cause = "; ".join(dict.fromkeys(errs[:1] + errs[-1:])) or res.stderr.strip() or "no output"
        raise errors.CtrsError(errors.IR_INPUT, f"tileirdisasm failed: {cause}",
                               "the bytecode is truncated or of an unsupported version (13.1-13.4), or the "
                               "verifier rejects an op (the message names it)")
    return res.stdout


def cubin(data: bytes, gpu: str = toolchain.GPU_TARGET) -> bytes:
    """Assemble bytecode to a cubin on the CPU (tileiras + ptxas + libnvvm from the pip kit)."""
    tool = toolchain.tileiras()
    if tool is None:
        toolchain.require("tileiras")
    with tempfile.TemporaryDirectory() as d:
        src, dst = Path(d) / "k.tileirbc", Path(d) / "k.cubin"
        src.write_bytes(data)
        res = subprocess.run([str(tool), "--gpu-name", gpu, "--opt-level", "3", "-o", str(dst), str(src)],
                             capture_output=True, text=True, env=toolchain.tool_env(), timeout=600)
        if res.returncode != 0 or not dst.exists():
            msg = (res.stderr or res.stdout).strip().splitlines()
            raise errors.CtrsError(errors.CUBIN, f"tileiras failed for {gpu}: {msg[-1] if msg else res.returncode}",
                                   "check the kit with 'ctrs doctor'")
        return dst.read_bytes()
