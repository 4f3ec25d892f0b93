"""pytest plugin: record every ``ct.launch`` an existing test suite makes, as specs ``ctrs check`` proves.

    pytest -p ctrs.workflow.record --ctrs-specs DIR [tests...]

On a GPU machine the launches are recorded and then made (``passthrough``), so the suite runs as usual;
``--ctrs-record-mode intercept`` records without launching (CPU torch tensors; torch.cuda answers for an
H200, like ``ctrs specs``). The recording code is capture.py's, the one ``ctrs specs`` uses; launches the
JIT would compile once (same kernel, hints and KernelSignature) are recorded once. At the end, DIR holds one
``<kernel file stem>.specs.json`` per file defining a launched kernel and ``index.json`` mapping each specs
file to its kernel file: ``ctrs check KERNEL --spec DIR/<stem>.specs.json``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from . import capture
from .. import errors, spec as specmod

_KEY = "_ctrs_record"


def pytest_addoption(parser) -> None:
    g = parser.getgroup("ctrs", "ctrs: record ct.launch specialisations")
    g.addoption("--ctrs-specs", metavar="DIR", default=None,
                help="record every ct.launch into DIR/<kernel file stem>.specs.json")
    g.addoption("--ctrs-record-mode", choices=["passthrough", "intercept"], default="passthrough",
                help="passthrough (default): record, then launch; intercept: record only (CPU)")
    g.addoption("--ctrs-num-sms", type=int, default=capture.H200_SMS,
                help="intercept mode: the SM count torch.cuda reports (default 132, an H200)")


def pytest_configure(config) -> None:
    out = config.getoption("ctrs_specs", None)
    if not out:
        return
    rec = capture.Recorder(config.getoption("ctrs_record_mode"), config.getoption("ctrs_num_sms"))
    cm = capture.recording(rec)
    cm.__enter__()
    setattr(config, _KEY, (rec, cm, Path(out)))


def write(rec: capture.Recorder, out: Path) -> dict[str, str]:
    """Write the recorded specs per kernel file; returns {specs file name: kernel file}."""
    sources = sorted({la.source for la in rec.launches})
    names: dict[str, str] = {}
    for src in sources:
        stem = Path(src).stem
        name = f"{stem}.specs.json"
        i = 2
        while name in names:
            name, i = f"{stem}_{i}.specs.json", i + 1
        names[name] = src
    index = out / "index.json"
    if out.exists() and any(out.iterdir()) and not index.exists():
        raise errors.CtrsError(errors.OUTPUT_EXISTS, f"{out} is not empty and holds no ctrs index.json",
                               "record into a new or empty directory", errors.Loc(str(out)))
    out.mkdir(parents=True, exist_ok=True)
    for name, src in names.items():
        specs = rec.specs(src)
        specmod.unique_specs([(s, src) for s in specs])
        _atomic(out / name, specmod.dump_specs(specs))
    rel = {n: os.path.relpath(src, out) for n, src in names.items()}  # no absolute paths: same bytes anywhere
    _atomic(index, json.dumps(rel, indent=2, sort_keys=True) + "\n")
    return names


def _atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".ctrs-tmp")
    tmp.write_text(text)
    tmp.replace(path)


def pytest_sessionfinish(session, exitstatus) -> None:
    state = getattr(session.config, _KEY, None)
    if state is None:
        return
    rec, cm, out = state
    cm.__exit__(None, None, None)
    delattr(session.config, _KEY)
    names = write(rec, out)
    line = (f"ctrs.workflow.record: {rec.seen} launch(es), {len(rec.launches)} distinct specialisation(s) in "
            f"{len(names)} specs file(s) under {out}")
    if rec.unsupported:
        line += f"; {len(rec.unsupported)} not describable: {rec.unsupported[0]}"
    session.config._ctrs_record_line = line


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    line = getattr(config, "_ctrs_record_line", None)
    if line:
        terminalreporter.write_line(line)


def pytest_unconfigure(config) -> None:
    state = getattr(config, _KEY, None)  # a session that never finished: undo the patches
    if state is not None:
        state[1].__exit__(None, None, None)
        delattr(config, _KEY)
