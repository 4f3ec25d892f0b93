"""``ctrs translate``: cuTile Python kernel file -> a buildable cuTile Rust port crate, with rules only.

front end (frontend_cutile) -> specialise -> emit (emitters/render: kernel.rs; emitters/render_host:
lib.rs, ffi.rs, Cargo.toml/.lock, wrapper.py, analysis.json; launch_sites mines the file's own
ct.launch calls and config lists). Deterministic: the same input gives byte-identical output. Outputs
carry a ``@generated`` checksum and are written all or nothing (transpiler/outputs.py); on any error
nothing is written, and files ctrs did not generate are never replaced without ``--force``.

Keep-going: a kernel with a blocker does not stop the others. The port holds the kernels that translated and
errors.Refused (CTRS-E240) lists every blocker of the others, raised after the port is written (nothing is
written when no kernel translated). Which pipeline: see :func:`translate_module`.
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


def translate_source(kernel: Path, llm=None, llm_hook=None, cutile: str | None = None) -> dict[str, str]:
    """All output files (relative name -> text) for one kernel file; raises CtrsError (errors.Refused when
    any kernel was refused), writes nothing. ``cutile``: the crate version to spell for (a target profile,
    ctrs.targets; None: the enclosing targets.using, else the default).

    kernel.rs first (callers take ``translate(..)[0]`` as the kernel file), then the port crate's host
    side from emitters/render_host (lib.rs, ffi.rs, Cargo.toml/.lock, wrapper.py, analysis.json).
    """
    files, refused = port_files(kernel, llm, llm_hook, cutile)
    if refused is not None:
        raise refused
    return files


def _raisable(refused: errors.Refused) -> errors.CtrsError:
    """What to raise when no kernel translated: a one-kernel file's lone blocker as itself (one line, as
    before keep-going), else the refusal (every blocker, then the summary)."""
    return refused.blockers[0] if refused.total == 1 and len(refused.blockers) == 1 else refused


def port_files(kernel: Path, llm=None, llm_hook=None, cutile: str | None = None,
               ) -> tuple[dict[str, str], errors.Refused | None]:
    """The port files of the kernels that translated, and the refusal of the others (None: none refused),
    spelled for cutile ``cutile`` (targets.using). Raises when no kernel translated."""
    from . import targets  # noqa: PLC0415

    with targets.using(cutile):
        return _port_files(Path(kernel), llm, llm_hook)


def _port_files(kernel: Path, llm, llm_hook) -> tuple[dict[str, str], errors.Refused | None]:
    if llm is not None:  # `--llm`: NO_RULE constructs resolved by verified LLM answers (llm_fallback.Config)
        return llm.translate_source(kernel), None
    mod = translate_module(kernel, llm_hook)
    if mod.refused is not None and not mod.kernels:
        raise _raisable(mod.refused)
    from ctrs.emitters import render, render_host  # noqa: PLC0415

    from . import launch_sites, targets  # noqa: PLC0415

    kernel_rs = render.render_kernel_rs(mod)
    files = {"kernel.rs": kernel_rs}
    from .frontends.triton import host, source as triton_source  # noqa: PLC0415
    if triton_source.is_triton_file(Path(kernel)):  # the typed lowering's host map (host.py)
        sites = host.typed_sites(Path(kernel), set(mod.refused.kernels) if mod.refused is not None else set(),
                                 llm_hook.typed if getattr(llm_hook, "typed_mode", False) else None)
    else:
        sites = launch_sites.mine_file(Path(kernel))
    if mod.refused is not None:
        sites = _without(sites, set(mod.refused.kernels))
    files.update(render_host.render_port(mod, kernel_rs, Path(kernel), sites, targets.current()))
    return files, mod.refused


def _without(sites: dict, refused: set[str]) -> dict:
    """The file's launch sites and config lists less those of refused kernels (the port has no entry for them)."""
    return {key: ({k: v for k, v in val.items() if k not in refused} if isinstance(val, dict) else
                  [x for x in val if not (isinstance(x, dict) and x.get("kernel") in refused)])
            for key, val in sites.items()}


def translate_module(kernel: Path, llm_hook=None) -> model.Module:
    """The specialised model of one kernel file: every entry (structural variants included) and the
    specialisation decisions (``--explain``). ``llm_hook``: the LLM fallback's hook (``--llm``).

    A cuTile file goes through the typed IR, kernel by kernel. When it refuses a kernel and every blocker is
    one the text-model pipeline may not have (CTRS-E124/E125), that pipeline is tried too, kernel by kernel:
    if it takes every kernel, its module; else the pipeline that translates more kernels (the typed IR on a
    tie) gives the port, and ``refused`` (errors.Refused) the blockers of the kernels it refused: for one both
    refused, the text model's (where it stopped) and every typed one past it (:func:`_merged`); for one only
    a pipeline refused, that pipeline's. ``CTRS_PIPELINE=typed``: no text model, the typed IR's every blocker
    (docs/ir.md). A Triton file goes through the typed IR only (frontends/triton/), keeping going alike."""
    from .frontends.triton.source import is_triton_file  # noqa: PLC0415 - @triton.jit files: the Triton front end
    triton = is_triton_file(kernel)
    if getattr(llm_hook, "typed_mode", False):  # --llm: the typed IR alone, its hook on every gap
        return pipeline.translate_module(kernel, _stem(kernel), on_unsupported=llm_hook.typed)
    if llm_hook is not None and not triton:
        return _text_model(kernel, llm_hook)
    typed_only = triton or os.environ.get("CTRS_PIPELINE") == "typed"  # measures the typed path alone (docs/ir.md)
    refused: dict[str, list[errors.CtrsError]] = {}
    try:
        mod = pipeline.translate_module(kernel, _stem(kernel), refused)
    except errors.CtrsError as e:  # the whole file is outside the typed path: the text model takes it
        if e.code not in pipeline.FALLBACK_CODES or typed_only:
            raise
        return _text_model(kernel, None)
    if not refused:
        return mod
    total = len({k.python_name or k.name for k in mod.kernels}) + len(refused)
    if not typed_only and all(b.code in pipeline.FALLBACK_CODES for bs in refused.values() for b in bs):
        text_refused: dict[str, list[errors.CtrsError]] = {}
        try:
            text = _text_model(kernel, None, text_refused)
        except errors.CtrsError as e:  # the text model cannot read the file at all
            text, text_refused = None, {"": [e]}
        if text is not None and not text_refused:
            return text  # the text model takes the whole file: as before keep-going
        refused = {k: _merged(bs, text_refused[k][0]) if k in text_refused else bs for k, bs in refused.items()}
        if text is not None and len(text_refused) < len(refused):  # it translates more kernels: its port
            text.refused = errors.Refused(kernel, {k: refused.get(k, es) for k, es in text_refused.items()}, total)
            return text
    mod.refused = errors.Refused(kernel, refused, total)
    return mod


def _merged(typed: list[errors.CtrsError], e: errors.CtrsError) -> list[errors.CtrsError]:
    """The blockers of a kernel both pipelines refused: where the text model stopped (its diagnostic: a
    rules-table code and hint), then every typed blocker past that point (constructs neither pipeline got
    through); the typed ones before it, or on its line, are constructs the text model translated or the same."""
    at = (e.loc.line, e.loc.col) if e.loc else (0, 0)
    return [e] + [b for b in typed if b.loc and (b.loc.line, b.loc.col) > at and b.loc.line != at[0]]


def _text_model(kernel: Path, llm_hook, refused: dict | None = None) -> model.Module:
    """The text-model pipeline of a cuTile file (frontend_cutile -> specialise -> mono), whole file; with
    ``refused``: kernel by kernel, a kernel that fails recorded there with its (first) blocker."""
    kernels: list[model.Kernel] = []
    decisions: list[model.Decision] = []
    try:
        if refused is None:
            info, fronts = frontend_cutile.parse_file(kernel, llm_hook)
        else:
            info = frontend_cutile.parse_module(kernel, llm_hook)
            fronts = [f for fn in info.kernels
                      if (f := _kept(refused, fn.name.value, kernel, lambda fn=fn: frontend_cutile.KernelFront(info, fn)))]
        for f in fronts:
            def one(f=f):
                ks, ds = specialise.specialise_variants(f)
                return mono.expand(mono.split_dtypes(ks, f), f.rules), ds  # own dtype generics; per-dtype entries
            got = one() if refused is None else _kept(refused, f.fn.name.value, kernel, one)
            if got:
                kernels += got[0]
                decisions += got[1]
    except RecursionError:  # a backstop: source.check_python bounds the nesting before parsing
        raise _too_deep(kernel) from None
    return model.Module(_stem(kernel), kernel.name, kernels, decisions)


def _too_deep(kernel: Path) -> errors.CtrsError:
    return errors.CtrsError(errors.INPUT_TOO_DEEP, "source too deeply nested for the lowering",
                            f"flatten the nesting (limit: {source.MAX_DEPTH} levels)", errors.Loc(str(kernel)))


def _kept(refused: dict, name: str, kernel: Path, step):
    """``step()``, or None with the kernel's blocker recorded in ``refused`` (the text model keeps going)."""
    try:
        return step()
    except errors.CtrsError as e:
        refused[name] = [e]
    except RecursionError:
        refused[name] = [_too_deep(kernel)]
    return None


def explain_lines(kernel: Path, llm_hook=None) -> list[str]:
    """``file:line: kernel: kind: decision`` for every specialisation decision, in kernel order."""
    mod = translate_module(Path(kernel), llm_hook)
    return [f"{kernel}:{d.line}: {d.kernel}: {d.kind}: {d.text}" for d in mod.decisions]


def translate(kernel: Path, output: Path | None = None, llm=None, force: bool = False,
              cutile: str | None = None) -> list[Path]:
    """Translate and write the port (transpiler/outputs.py: every file carries a ``@generated`` checksum;
    only files ctrs generated are replaced unless ``force``; all or nothing), spelled for cutile ``cutile``.
    When some kernels were refused, the port of the others is written and then errors.Refused raised (its
    ``written``: the paths)."""
    from . import generated, outputs  # noqa: PLC0415

    kernel = Path(kernel)
    _check_name(kernel)
    out = Path(output) if output else default_output(kernel)
    files, refused = port_files(kernel, llm, cutile=cutile)
    data = {name: generated.add_header(name, text, by="ctrs translate") for name, text in files.items()}
    written = outputs.write_set(out, data, force)
    if refused is not None:  # the port of the others is written: now every blocker of the refused ones
        refused.written = written
        raise refused
    return written


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
    """Translate every kernel file under ``root``: one row per file (file, kernels, status, code, message);
    status ok, partial (some kernels refused: the port of the others written), error or crash.

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
        except errors.Refused as e:  # keep-going: the port of the others may be written; every blocker listed
            row.update(status="partial" if e.written else "error", code=e.code, message="\n".join(e.lines()),
                       output=str(e.written[0].parent) if e.written else "")
        except errors.CtrsError as e:
            row.update(status="error", code=e.code, message=e.one_line())
        except Exception as e:  # noqa: BLE001 - one broken file must not stop a directory run
            row.update(status="crash", code="CTRS-INTERNAL", message=f"{f}: {type(e).__name__}: {e}")
        rows.append(row)
    if progress:
        progress(len(files), len(files), None)
    return rows
