"""``ctrs translate``: cuTile Python kernel file -> a buildable cuTile Rust port crate, with rules only.

front end (frontend_cutile) -> specialise -> emit (emitters/render: kernel.rs; emitters/render_host:
lib.rs, ffi.rs, Cargo.toml/.lock, wrapper.py, analysis.json; launch_sites mines the file's own
ct.launch calls and config lists). Deterministic: the same input gives byte-identical output. Outputs
carry a ``@generated`` checksum and are written all or nothing (transpiler/outputs.py); on any error
nothing is written, and files ctrs did not generate are never replaced without ``--force``.
"""

from __future__ import annotations

import os

import re
from pathlib import Path

from . import errors, frontend_cutile, model, mono, pipeline, source, sources, specialise


def default_output(kernel: Path) -> Path:
    return kernel.parent / f"{kernel.stem}_rs"


def _stem(kernel: Path) -> str:
    s = re.sub(r"\W", "_", kernel.stem)
    return s if s and not s[0].isdigit() else f"k_{s}"


def translate_source(kernel: Path, llm=None, llm_hook=None) -> dict[str, str]:
    """All output files (relative name -> text) for one kernel file; raises CtrsError, writes nothing.

    kernel.rs first (callers take ``translate(..)[0]`` as the kernel file), then the port crate's host
    side from emitters/render_host (lib.rs, ffi.rs, Cargo.toml/.lock, wrapper.py, analysis.json).
    """
    kernel = Path(kernel)
    if llm is not None:  # `--llm`: NO_RULE constructs resolved by verified LLM answers (llm_fallback.Config)
        return llm.translate_source(kernel)
    mod = translate_module(kernel, llm_hook)
    from ctrs.emitters import render, render_host  # noqa: PLC0415

    from . import launch_sites, toolchain  # noqa: PLC0415

    kernel_rs = render.render_kernel_rs(mod)
    files = {"kernel.rs": kernel_rs}
    from . import frontend_triton  # noqa: PLC0415
    sites = (frontend_triton.mine_sites(Path(kernel)) if frontend_triton.is_triton_file(Path(kernel))
             else launch_sites.mine_file(Path(kernel)))
    files.update(render_host.render_port(mod, kernel_rs, Path(kernel), sites,
                                         toolchain.CUTILE_VERSION))
    return files


def translate_module(kernel: Path, llm_hook=None) -> model.Module:
    """The specialised model of one kernel file: every entry (structural variants included) and the
    specialisation decisions (``--explain``). ``llm_hook``: frontend_cutile.parse_file's (``--llm``)."""
    from . import frontend_triton  # noqa: PLC0415 - @triton.jit files: the Triton front end, same model
    triton = frontend_triton.is_triton_file(kernel)
    if not triton and getattr(llm_hook, "typed_mode", False):  # --llm: the typed IR alone, its hook on every gap
        return pipeline.translate_module(kernel, _stem(kernel), llm_hook.typed)
    if not triton and llm_hook is None:
        try:
            return pipeline.translate_module(kernel, _stem(kernel))
        except errors.CtrsError as e:  # outside the typed-IR subset: the text-model pipeline takes the file
            if e.code not in pipeline.FALLBACK_CODES or os.environ.get("CTRS_PIPELINE") == "typed":
                raise  # CTRS_PIPELINE=typed: no fallback (measures the typed path alone; docs/ir.md)
    try:
        info, fronts = (frontend_triton.parse_file(kernel, llm_hook) if triton
                        else frontend_cutile.parse_file(kernel, llm_hook))
        kernels: list[model.Kernel] = []
        decisions: list[model.Decision] = []
        for f in fronts:
            ks, ds = specialise.specialise_variants(f)
            kernels += mono.expand(mono.split_dtypes(ks, f), f.rules)  # own dtype generics; per-dtype entries
            decisions += ds
    except errors.CtrsError as e:
        if triton:
            frontend_triton.to_source_columns(e, kernel)
        raise
    except RecursionError:  # a backstop: source.check_python bounds the nesting before parsing
        raise errors.CtrsError(errors.INPUT_TOO_DEEP, "source too deeply nested for the lowering",
                               f"flatten the nesting (limit: {source.MAX_DEPTH} levels)", errors.Loc(str(kernel))) from None
    return model.Module(_stem(kernel), kernel.name, kernels, decisions)


def explain_lines(kernel: Path, llm_hook=None) -> list[str]:
    """``file:line: kernel: kind: decision`` for every specialisation decision, in kernel order."""
    mod = translate_module(Path(kernel), llm_hook)
    return [f"{kernel}:{d.line}: {d.kernel}: {d.kind}: {d.text}" for d in mod.decisions]


def translate(kernel: Path, output: Path | None = None, llm=None, force: bool = False) -> list[Path]:
    """Translate and write the port (transpiler/outputs.py: every file carries a ``@generated`` checksum;
    only files ctrs generated are replaced unless ``force``; all or nothing)."""
    from . import generated, outputs  # noqa: PLC0415

    kernel = Path(kernel)
    _check_name(kernel)
    out = Path(output) if output else default_output(kernel)
    files = translate_source(kernel, llm)
    data = {name: generated.add_header(name, text, by="ctrs translate") for name, text in files.items()}
    return outputs.write_set(out, data, force)


def _check_name(kernel: Path) -> None:
    """The file name goes into generated files (analysis.json, wrapper.py): it must be text."""
    try:
        kernel.name.encode("utf-8")
    except UnicodeEncodeError:
        raise errors.CtrsError(errors.INPUT_FILENAME, "kernel file name is not valid UTF-8; it cannot be named in "
                               "the generated files", "rename the file (e.g. with convmv)",
                               errors.Loc(str(kernel))) from None


# ---------------------------------------------------------------------------------------------- --stats / DIR


def stats(kernel: Path) -> list[dict]:
    """Per entry: how many ops each rule produced (``ctrs translate --stats``)."""
    from ctrs.emitters import render_host  # noqa: PLC0415

    mod = translate_module(Path(kernel))
    return [{"kernel": k.name, "rules": render_host.op_stats(k)} for k in mod.kernels]


_SKIP_DIRS = {".git", ".venv", "venv", "__pycache__", "node_modules", "target", ".ctrs-build"}


def kernel_files(root: Path) -> list[Path]:
    """Every *.py under ``root`` with a @ct.kernel or a @triton.jit kernel, sorted (hidden, build and *_rs port
    dirs skipped)."""
    root = Path(root)
    out = []
    for p in sorted(root.rglob("*.py")):
        rel = p.relative_to(root).parts
        if any(part in _SKIP_DIRS or part.startswith(".") or part.endswith("_rs") for part in rel[:-1]):
            continue
        try:
            text = source.read_regular(p, source.MAX_BYTES, "kernel file").decode(errors="replace")
        except errors.CtrsError as e:  # a FIFO or device is skipped; an oversized file gets its E104 row
            if e.code == errors.INPUT_TOO_LARGE:
                out.append(p)
            continue
        if sources.kernel_count(text):
            out.append(p)
    return out


def translate_dir(root: Path, output: Path | None = None, progress=None, llm=None, force: bool = False) -> list[dict]:
    """Translate every kernel file under ``root``: one row per file (file, kernels, status, code, message).

    With ``output`` each port goes to ``output/<relative dir>/<stem>_rs``, else next to its file. A failing
    file does not stop the others. ``progress(i, n, path)`` is called before each file and once at the end.
    """
    root = Path(root)
    files = kernel_files(root)
    rows = []
    for i, f in enumerate(files):
        if progress:
            progress(i, len(files), f)
        rel = f.relative_to(root)
        out = (Path(output) / rel.parent / f"{f.stem}_rs") if output else None
        with open(f, "rb") as fh:
            head = fh.read(source.MAX_BYTES).decode(errors="replace")
        row = {"file": str(rel), "kernels": sources.kernel_count(head),
               "status": "ok", "code": "", "message": "", "output": ""}
        try:
            written = translate(f, out, llm, force)
            row["output"] = str(written[0].parent)
        except errors.CtrsError as e:
            row.update(status="error", code=e.code, message=e.one_line())
        except Exception as e:  # noqa: BLE001 - one broken file must not stop a directory run
            row.update(status="crash", code="CTRS-INTERNAL", message=f"{f}: {type(e).__name__}: {e}")
        rows.append(row)
    if progress:
        progress(len(files), len(files), None)
    return rows
