"""``ctrs translate``: cuTile Python kernel file -> a buildable cuTile Rust port crate, with rules only.

typed IR (pipeline.py: front end -> passes -> emitters/ir_rust) -> emit (emitters/render: kernel.rs; emitters/render_host:
lib.rs, ffi.rs, Cargo.toml/.lock, wrapper.py, analysis.json; launch_sites mines the file's own
ct.launch calls and config lists). Deterministic: the same input gives byte-identical output. Outputs
carry a ``@generated`` checksum and are written all or nothing (transpiler/workflow/outputs.py); on any error
nothing is written, and files ctrs did not generate are never replaced without ``--force``.

Keep-going: a kernel with a blocker does not stop the others. The port holds the kernels that translated and
errors.Refused (CTRS-E240) lists every blocker of the others, raised after the port is written (nothing is
written when no kernel translated). See :func:`translate_module`.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import errors, pipeline, source, sources
from .emitters import rust_model as model


def default_output(kernel: Path) -> Path:
    return kernel.parent / f"{kernel.stem}_rs"


def _stem(kernel: Path) -> str:
    s = re.sub(r"\W", "_", kernel.stem)
    return s if s and not s[0].isdigit() else f"k_{s}"


def translate_source(kernel: Path, llm=None, llm_hook=None, cutile: str | None = None, specs=None) -> dict[str, str]:
    """All output files (relative name -> text) for one kernel file; raises CtrsError (errors.Refused when
    any kernel was refused), writes nothing. ``cutile``: the crate version to spell for (a target profile,
    ctrs.targets; None: the enclosing targets.using, else the default).

    kernel.rs first (callers take ``translate(..)[0]`` as the kernel file), then the port crate's host
    side from emitters/render_host (lib.rs, ffi.rs, Cargo.toml/.lock, wrapper.py, analysis.json).
    """
    files, refused = port_files(kernel, llm, llm_hook, cutile, specs)
    if refused is not None:
        raise refused
    return files


def _raisable(refused: errors.Refused) -> errors.CtrsError:
    """What to raise when no kernel translated: a one-kernel file's lone blocker as itself (one line, as
    before keep-going), else the refusal (every blocker, then the summary)."""
    return refused.blockers[0] if refused.total == 1 and len(refused.blockers) == 1 else refused


def port_files(kernel: Path, llm=None, llm_hook=None, cutile: str | None = None, specs=None,
               ) -> tuple[dict[str, str], errors.Refused | None]:
    """The port files of the kernels that translated, and the refusal of the others (None: none refused),
    spelled for cutile ``cutile`` (targets.using), serving the launches ``specs`` (spec.Spec list: see
    :func:`translate_module`). Raises when no kernel translated."""
    from . import targets  # noqa: PLC0415

    with targets.using(cutile):
        return _port_files(Path(kernel), llm, llm_hook, specs)


def launch_dtypes(specs) -> dict[str, list[dict[str, str]]] | None:
    """Kernel name -> per spec (in the order given) its array arguments' IR dtype names (``float32`` -> ``f32``):
    the launches the port must serve (frontends/cutile/dtypes.launch_groups). None without specs."""
    if not specs:
        return None
    from .spec import ArrayArg  # noqa: PLC0415
    from .spec_schema import DTYPES  # noqa: PLC0415

    out: dict[str, list[dict[str, str]]] = {}
    for s in specs:
        out.setdefault(s.kernel, []).append({n: DTYPES[a.dtype][1] for n, a in s.args.items()
                                             if isinstance(a, ArrayArg) and a.dtype in DTYPES})
    return out


def _port_files(kernel: Path, llm, llm_hook, specs=None) -> tuple[dict[str, str], errors.Refused | None]:
    if llm is not None:  # `--llm`: NO_RULE constructs resolved by verified LLM answers (llm_fallback.Config)
        return llm.translate_source(kernel), None
    mod = translate_module(kernel, llm_hook, specs)
    if mod.refused is not None and not mod.kernels:
        raise _raisable(mod.refused)
    from ctrs.emitters import render, render_host  # noqa: PLC0415

    from .frontends import launch_sites  # noqa: PLC0415
    from . import targets  # noqa: PLC0415

    kernel_rs = render.render_kernel_rs(mod)
    files = {"kernel.rs": kernel_rs}
    from .frontends.triton import host, source as triton_source  # noqa: PLC0415
    if triton_source.is_triton_file(Path(kernel)):  # the typed lowering's host map (host.py)
        sites = host.typed_sites(Path(kernel), set(mod.refused.kernels) if mod.refused is not None else set(),
                                 llm_hook.typed if llm_hook is not None else None)
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


def translate_module(kernel: Path, llm_hook=None, specs=None) -> model.Module:
    """The specialised model of one kernel file through the typed IR (pipeline.py): every entry (structural
    variants included) and the specialisation decisions (``--explain``). Keep-going: each kernel is lowered on
    its own; ``refused`` (errors.Refused) holds every blocker of the kernels that did not translate and the
    module the others. ``llm_hook``: the LLM fallback's hook (``--llm``, llm_fallback.splice.Hook): its
    ``typed`` callback is the front ends' ``on_unsupported`` and the first blocker is raised (the fallback asks
    for it). ``CTRS_PIPELINE=typed`` (older scripts) changes nothing: there is one pipeline. ``specs``: the launches
    (spec.Spec) the port must serve: a cuTile kernel's arrays that one passes in different dtypes keep type generics
    of their own (frontends/cutile/dtypes.launch_groups); without, the arrays no use forces apart share one E."""
    kernel = Path(kernel)
    refused: dict[str, list[errors.CtrsError]] | None = None if llm_hook is not None else {}
    try:
        mod = pipeline.translate_module(kernel, _stem(kernel), refused,
                                        on_unsupported=llm_hook.typed if llm_hook is not None else None,
                                        launches=launch_dtypes(specs))
    except RecursionError:  # a backstop: source.check_python bounds the nesting before parsing
        raise _too_deep(kernel) from None
    if refused:
        total = len({k.python_name or k.name for k in mod.kernels}) + len(refused)
        mod.refused = errors.Refused(kernel, refused, total)
    return mod


def _too_deep(kernel: Path) -> errors.CtrsError:
    return errors.CtrsError(errors.INPUT_TOO_DEEP, "source too deeply nested for the lowering",
                            f"flatten the nesting (limit: {source.MAX_DEPTH} levels)", errors.Loc(str(kernel)))


def explain_lines(kernel: Path, llm_hook=None) -> list[str]:
    """``file:line: kernel: kind: decision`` for every specialisation decision, in kernel order."""
    mod = translate_module(Path(kernel), llm_hook)
    return [f"{kernel}:{d.line}: {d.kernel}: {d.kind}: {d.text}" for d in mod.decisions]


def translate(kernel: Path, output: Path | None = None, llm=None, force: bool = False,
              cutile: str | None = None, specs=None) -> list[Path]:
    """Translate and write the port (transpiler/workflow/outputs.py: every file carries a ``@generated`` checksum;
    only files ctrs generated are replaced unless ``force``; all or nothing), spelled for cutile ``cutile``.
    When some kernels were refused, the port of the others is written and then errors.Refused raised (its
    ``written``: the paths). ``specs``: the launches the port must serve (:func:`translate_module`)."""
    from .workflow import generated, outputs  # noqa: PLC0415

    kernel = Path(kernel)
    _check_name(kernel)
    out = Path(output) if output else default_output(kernel)
    files, refused = port_files(kernel, llm, cutile=cutile, specs=specs)
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
