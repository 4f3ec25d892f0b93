"""``ctrs translate``: cuTile Python kernel file -> cuTile Rust kernel.rs, with rules only.

front end (frontend_cutile) -> specialise -> emit (emitters/render). Deterministic: the same input
gives byte-identical output. Outputs are written atomically (a temp dir, then renamed into place);
on any error nothing is written and existing outputs are left untouched.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from . import errors, frontend_cutile, model, specialise


def default_output(kernel: Path) -> Path:
    return kernel.parent / f"{kernel.stem}_rs"


def _stem(kernel: Path) -> str:
    s = re.sub(r"\W", "_", kernel.stem)
    return s if s and not s[0].isdigit() else f"k_{s}"


def translate_source(kernel: Path) -> dict[str, str]:
    """All output files (relative name -> text) for one kernel file; raises CtrsError, writes nothing."""
    info, fronts = frontend_cutile.parse_file(kernel)
    kernels = [specialise.specialise(f) for f in fronts]
    from emitters import render  # noqa: PLC0415

    shown = kernel.name
    mod = model.Module(_stem(kernel), shown, kernels)
    return {"kernel.rs": render.render_kernel_rs(mod)}


def translate(kernel: Path, output: Path | None = None) -> list[Path]:
    kernel = Path(kernel)
    out = Path(output) if output else default_output(kernel)
    files = translate_source(kernel)
    if out.exists() and not out.is_dir():
        raise errors.CtrsError(errors.OUTPUT_EXISTS, f"{out} exists and is not a directory",
                               "pass -o with a directory path", errors.Loc(str(out)))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.ctrs-", dir=out.parent))
    try:
        for name, text in files.items():
            (tmp / name).write_text(text)
        if out.exists():
            # keep files we do not produce; replace ours atomically one by one
            for name in files:
                os.replace(tmp / name, out / name)
            shutil.rmtree(tmp)
        else:
            os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return [out / n for n in files]
