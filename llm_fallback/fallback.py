"""``ctrs translate --llm``: resolve NO_RULE constructs with an LLM, accepting only IR-equivalent answers.

Loop per construct: prompt (prompts/*.j2: Python slice, typed scope, rules excerpt, allowed API) -> answer
(cached) -> vet (answer.py) -> splice into the model (splice.py) -> render kernel.rs -> build + IR diff
against the reference for every specialisation (verify.py). A rejected / non-compiling / non-equivalent
answer is fed back (bounded, Config.attempts); after the last failure the original diagnostic stands and
nothing is written. A construct whose candidate leaves another NO_RULE construct is held provisionally;
the complete kernel is always verified before anything is accepted.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import jinja2
import libcst as cst

from . import answer, client, splice, verify
# `cfg: Config` annotations name llm_fallback.config.Config (not imported: Config loads this module lazily)

PROMPTS = Path(__file__).with_name("prompts")
MAX_CONSTRUCTS = 4
_ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(str(PROMPTS)), keep_trailing_newline=True,
                          undefined=jinja2.StrictUndefined, autoescape=False)


def _log(cfg: Config, msg: str) -> None:
    if cfg.log:
        cfg.log(msg)


def _model_tag(model: str) -> str:
    return re.sub(r"[^A-Za-z0-9._:/-]", "_", model)[:64] or "model"


def messages_for(e, kernel: Path) -> tuple[list[dict], str, str]:
    """(messages, target name, python expression) for one NO_RULE diagnostic with front-end context."""
    front, node = e.front, e.node
    lines = kernel.read_text().splitlines()
    pos = front.info.positions[node]
    stmt_lines = lines[pos.start.line - 1:pos.end.line]
    expr = front.info.module.code_for_node(node)
    target = _target(front, node)
    params = front.params()
    gens = sorted({p.dtype for p in params if p.kind == "array" and p.dtype and p.dtype[0].isupper()})
    gens = [f"{g}: ElementType" for g in gens] + [f"const {p.name}: i32" for p in params if p.kind == "constant"]
    ctx = dict(target=target, allowed=sorted(answer.ALLOWLIST), code=e.code, message=e.message,
               where=f"{Path(e.loc.file).name}:{e.loc.line}:{e.loc.col}", slice="\n".join(stmt_lines), expr=expr,
               line=e.loc.line, col=e.loc.col, scope=splice.scope(front), generics=", ".join(gens) or "none")
    return ([{"role": "system", "content": _ENV.get_template("system.j2").render(**ctx)},
             {"role": "user", "content": _ENV.get_template("construct.j2").render(**ctx)}], target, expr)


def _target(front, node) -> str:
    hint = "llm_value"
    # the name the front end would give the value: the assignment target when the call is a whole RHS
    parent = _parent_assign(front.info.module, node)
    if parent:
        hint = parent
    return re.sub(r"\W", "_", hint).lower() or "llm_value"


def _parent_assign(module, node) -> str | None:
    found: list[str] = []

    class V(cst.CSTVisitor):
        def visit_Assign(self, a: cst.Assign) -> None:
            if a.value is node and len(a.targets) == 1 and isinstance(a.targets[0].target, cst.Name):
                found.append(a.targets[0].target.value)

    module.visit(V())
    return found[0] if found else None


def _fail(e, why: str):
    from ctrs import errors  # noqa: PLC0415

    hint = f"{e.hint}; " if e.hint else ""
    return errors.CtrsError(e.code, e.message, f"{hint}LLM fallback: {why}", e.loc)


def _solve(kernel: Path, cfg: Config, e, accepted: dict, verifier: verify.Verifier) -> tuple[dict, bool]:
    """(record, verified) for the construct of NO_RULE diagnostic ``e``; raises the original diagnostic."""
    from ctrs import errors, translate  # noqa: PLC0415

    messages, target, expr = messages_for(e, kernel)
    where = str(e.loc)
    k = splice.key_of(e.loc)
    stage = "no answer"
    for attempt in range(1, max(1, cfg.attempts) + 1):
        try:
            text, key, hit = client.complete(cfg, messages)
        except client.Unavailable as u:
            _log(cfg, f"{where}: llm: server unavailable: {u}")
            raise _fail(e, f"server unavailable: {u}") from None
        _log(cfg, f"{where}: llm: attempt {attempt}/{cfg.attempts} ({'cache' if hit else cfg.model})")
        rec = {"model": _model_tag(cfg.model), "hash": key, "target": target, "expr": expr, "attempts": attempt,
               "loc": k}
        detail = ""
        try:
            rec["stmts"] = answer.parse(text, target)
            hook = splice.hook({**accepted, k: rec})
            try:
                files = translate.translate_source(kernel, llm_hook=hook)
                mod = translate.translate_module(kernel, hook)
            except errors.CtrsError as te:
                if te.code == errors.NO_RULE and getattr(te, "front", None) is not None \
                        and splice.key_of(te.loc) != k and isinstance(te.node, cst.Call):
                    return rec, False  # another construct without a rule: verified together later
                raise answer.Rejected(f"the translator could not use it: {te.one_line()}") from None
            ok, stage, detail = verifier.verify(files["kernel.rs"], mod)
            if ok:
                _log(cfg, f"{where}: llm: accepted ({stage})")
                return rec, True
        except answer.Rejected as r:
            stage, detail = "it was rejected before building", str(r)
        _log(cfg, f"{where}: llm: attempt {attempt} not accepted: {stage}")
        messages = messages + [{"role": "assistant", "content": text},
                               {"role": "user", "content": _ENV.get_template("retry.j2").render(
                                   stage=stage, detail=detail[:4000], target=target)}]
    raise _fail(e, f"no verified answer after {cfg.attempts} attempts (last: {stage})") from None


def translate_source(kernel: Path, cfg: Config) -> dict[str, str]:
    """Like transpiler.translate.translate_source, with NO_RULE constructs resolved by verified LLM answers."""
    from ctrs import errors, translate  # noqa: PLC0415

    kernel = Path(kernel)
    accepted: dict = {}
    verifier = None
    verified = True
    for _ in range(MAX_CONSTRUCTS + 1):
        try:
            files = translate.translate_source(kernel, llm_hook=splice.hook(accepted))
            if not verified:  # pragma: no cover - a provisional answer is always followed by a verified one
                raise errors.CtrsError(errors.INTERNAL, "unverified LLM answer", "report this", errors.Loc(str(kernel)))
            cfg.accepted = dict(accepted)  # for --explain / --stats on the same run (splice.hook(cfg.accepted))
            return provenance(files, list(accepted.values()))
        except errors.CtrsError as e:
            if e.code != errors.NO_RULE or getattr(e, "front", None) is None or not isinstance(e.node, cst.Call) \
                    or splice.key_of(e.loc) in accepted or len(accepted) >= MAX_CONSTRUCTS:
                raise
            if verifier is None:
                specs = verify.load_specs(kernel, cfg.specs)
                if not specs:
                    raise _fail(e, "no specialisations to verify an answer against (add specs.json or --spec)") \
                        from None
                verifier = verify.Verifier(kernel, specs, cfg.cache_path() / "work")
            rec, verified = _solve(kernel, cfg, e, accepted, verifier)
            accepted[splice.key_of(e.loc)] = rec
    raise errors.CtrsError(errors.NO_RULE, "too many constructs without a rule for the LLM fallback",
                           f"at most {MAX_CONSTRUCTS} per file", errors.Loc(str(kernel)))


def provenance(files: dict[str, str], records: list[dict]) -> dict[str, str]:
    """Mark LLM-produced lines in analysis.json (kernel.rs carries the inline marker comments)."""
    if not records:
        return files
    from ctrs.emitters import render_host  # noqa: PLC0415

    from ctrs import generated  # noqa: PLC0415 - stdlib only

    skip = generated.header_lines("kernel.rs")  # lines of the written kernel.rs, after its @generated header
    rs_lines = [i + 1 + skip for i, t in enumerate(files["kernel.rs"].splitlines()) if f"/* {splice.MARK} " in t]
    data = json.loads(files["analysis.json"])
    data["llm_fallback"] = {
        "kernel_rs_lines": rs_lines,
        "constructs": [{"file": Path(r["loc"][0]).name, "line": r["loc"][1], "col": r["loc"][2],
                        "python": r["expr"], "model": r["model"], "prompt_hash": r["hash"],
                        "attempts": r["attempts"],
                        "rust": [f"let {s.name}: {s.type} = {s.expr};" for s in r["stmts"]]} for r in records],
    }
    return {**files, "analysis.json": render_host.analysis_json(data)}


def count_llm_lines(kernel_rs: str) -> int:
    return sum(f"/* {splice.MARK} " in t for t in kernel_rs.splitlines())


def prompt_hash(messages: list[dict]) -> str:
    return hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()
