"""``ctrs check --html FILE`` / ``--markdown FILE``: the check rows, and for each row that is not EQUIVALENT the
reference and the port side by side at the first divergence.

The first divergence is the diff's first critical finding (else its first warning) that carries a source
location: the frontier op of irdiff (operands equal on both sides, the op itself not) comes before the gate
findings. Each side shows its source lines around that location (cuTile Python / the generated kernel.rs,
located through the bytecode's debug info) and the Tile IR ops compiled from that source line.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from ..verify import irparse

CONTEXT = 2  # source lines either side of the divergence
_LOC_SUFFIX = re.compile(r"\s+loc\(#?[\w.]+\)\s*$")


@dataclass
class Side:
    title: str  # "reference kernel.py:20:5"
    source: list[tuple[int, str, bool]]  # (line number, text, is the divergence line)
    ir: list[str]  # Tile IR ops compiled from that source line


@dataclass
class Divergence:
    finding: str  # "critical IRD-MATH-FTZ mulf: ..."
    ref: Side
    port: Side


def _parse_loc(loc: str) -> tuple[str, int] | None:
    m = re.fullmatch(r"(.+):(\d+):(\d+)", loc or "")
    return (m.group(1), int(m.group(2))) if m else None


def _ir_at(text: str, file: str, line: int) -> list[str]:
    """The IR ops whose debug location is ``file:line`` (file matched by name), in IR text order."""
    try:
        mod = irparse.parse(text)
    except Exception:  # noqa: BLE001 - a report must not fail on IR it cannot parse; the row already says why
        return []
    lines = text.splitlines()
    hits = set()
    for entry in mod.entries:
        for op in entry.walk():
            where = mod.locs.get(op.loc or "")
            if where and Path(where[0]).name == Path(file).name and where[1] == line and 0 < op.line <= len(lines):
                hits.add(op.line)
    return [_LOC_SUFFIX.sub("", lines[i - 1]).strip() for i in sorted(hits)]


def _side(label: str, loc: str, sources: list[Path], ir_text: str) -> Side:
    parsed = _parse_loc(loc)
    if parsed is None:
        return Side(f"{label} (no source location)", [], [])
    file, line = parsed
    src = next((p for p in sources if p.name == Path(file).name and p.exists()), None)
    body: list[tuple[int, str, bool]] = []
    if src is not None:
        text = src.read_text(errors="replace").splitlines()
        lo, hi = max(1, line - CONTEXT), min(len(text), line + CONTEXT)
        body = [(n, text[n - 1], n == line) for n in range(lo, hi + 1)]
    return Side(f"{label} {src or file}:{line}", body, _ir_at(ir_text, file, line))


def first_divergence(row, reference: Path, port_rs: Path) -> Divergence | None:
    """The side-by-side view of a check row's first located critical/warning finding (None if there is none)."""
    ir = getattr(row, "ir", None)
    if not ir:
        return None
    order = {"critical": 0, "warning": 1}
    cands = [f for f in ir["findings"] if f.severity in order]
    cands.sort(key=lambda f: (order[f.severity], not (f.ref_loc or f.gen_loc)))  # stable: frontier first
    if not cands:
        return None
    f = cands[0]
    return Divergence(f"{f.severity} {f.code} {f.op}: {f.message}",
                      _side("reference", f.ref_loc, [reference], ir["ref"]),
                      _side("port", f.gen_loc, [port_rs], ir["port"]))


# ---------------------------------------------------------------------------------------------- renderers


def _summary(rows) -> str:
    ok = sum(r.verdict == "EQUIVALENT" for r in rows)
    crit = sum(r.critical for r in rows)
    return f"{len(rows)} rows, {ok} equivalent, {crit} critical, {len(rows) - ok - crit} other"


def _pre(side: Side) -> str:
    src = "\n".join(f"{'>' if mark else ' '}{n:5d}  {html.escape(t)}" for n, t, mark in side.source) or "(no source)"
    ir = "\n".join(html.escape(x) for x in side.ir) or "(no IR op at this line)"
    return (f"<b>{html.escape(side.title)}</b>\n<pre class=\"src\">{src}</pre>\n"
            f"<i>Tile IR from this line</i>\n<pre class=\"ir\">{ir}</pre>")


def _pairs(rows, reference: Path, port_rs: Path):
    for r in rows:
        if r.verdict != "EQUIVALENT":
            yield r, first_divergence(r, reference, port_rs)


_CSS = ("body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
        "padding:4px 8px;vertical-align:top;text-align:left}pre{margin:2px 0;font-size:12px}"
        ".EQUIVALENT{color:#2e7d32}.CRITICAL,.PORT-ERROR,.REF-ERROR,.NO-ENTRY{color:#c62828}"
        ".side{width:50%}pre.ir{background:#f6f6f6}")


def render_html(rows, kernel: Path, reference: Path, port_rs: Path) -> str:
    out = ["<!doctype html>", "<html><head><meta charset=\"utf-8\">",
           f"<title>ctrs check {html.escape(kernel.name)}</title><style>{_CSS}</style></head><body>",
           f"<h1>ctrs check {html.escape(str(kernel))}</h1>",
           f"<p>port: {html.escape(str(port_rs))}; {_summary(rows)}</p>",
           "<table><tr><th>kernel</th><th>spec</th><th>verdict</th><th>ops</th><th>findings</th></tr>"]
    for r in rows:
        ops = f"{r.matched}/{r.total}" if r.total else "-"
        fnd = "<br>".join(html.escape(f) for f in r.findings) or ""
        out.append(f"<tr><td>{html.escape(r.kernel)}</td><td>{html.escape(r.spec)}</td>"
                   f"<td class=\"{r.verdict}\">{r.verdict}</td><td>{ops}</td><td>{fnd}</td></tr>")
    out.append("</table>")
    for r, d in _pairs(rows, reference, port_rs):
        out.append(f"<h2>{html.escape(r.kernel)} / {html.escape(r.spec)}: <span class=\"{r.verdict}\">{r.verdict}"
                   "</span></h2>")
        if d is None:
            out.append(f"<p>{html.escape(r.findings[0] if r.findings else 'no located finding')}</p>")
            continue
        out.append(f"<p>first divergence: {html.escape(d.finding)}</p>")
        out.append(f"<table><tr><td class=\"side\">{_pre(d.ref)}</td><td class=\"side\">{_pre(d.port)}</td></tr>"
                   "</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def render_markdown(rows, kernel: Path, reference: Path, port_rs: Path) -> str:
    def cell(s: str) -> str:
        return s.replace("|", "\\|").replace("\n", " ")

    out = [f"# ctrs check `{kernel}`", "", f"port: `{port_rs}`; {_summary(rows)}", "",
           "| kernel | spec | verdict | ops | findings |", "|---|---|---|---|---|"]
    for r in rows:
        ops = f"{r.matched}/{r.total}" if r.total else "-"
        out.append(f"| {cell(r.kernel)} | {cell(r.spec)} | {r.verdict} | {ops} | {cell('; '.join(r.findings))} |")
    for r, d in _pairs(rows, reference, port_rs):
        out += ["", f"## {r.kernel} / {r.spec}: {r.verdict}", ""]
        if d is None:
            out.append(cell(r.findings[0] if r.findings else "no located finding"))
            continue
        out += [f"first divergence: {cell(d.finding)}", "",  # GitHub renders this HTML table side by side
                f"<table><tr><td>\n\n{_pre(d.ref)}\n\n</td><td>\n\n{_pre(d.port)}\n\n</td></tr></table>"]
    return "\n".join(out) + "\n"
