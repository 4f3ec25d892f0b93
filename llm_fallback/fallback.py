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

from . import answer, api, client, context, ranges, splice, verify
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


def messages_for(c: context.Construct, ref_ops: list[str]) -> list[dict]:
    """The system + user messages for one construct (prompts/system.j2, construct.j2)."""
    lines = Path(c.kernel).read_text(errors="replace").splitlines()
    ctx = dict(target=c.target, api=api.allowed(), examples=context.examples(), code=c.code, message=c.message,
               where=f"{Path(c.loc.file).name}:{c.loc.line}:{c.loc.col}", slice="\n".join(lines[c.loc.line - 1:c.end_line]),
               expr=c.python, kind=c.kind, line=c.loc.line, col=c.loc.col, scope=c.scope, generics=c.generics,
               result_type=c.result_type, outputs=list(c.outputs), end_line=c.end_line, ref_ops=ref_ops,
               kernel_src=context.kernel_source(c.kernel, c.loc.line))
    return [{"role": "system", "content": _ENV.get_template("system.j2").render(**ctx)},
            {"role": "user", "content": _ENV.get_template("construct.j2").render(**ctx)}]


def _fail(e, why: str):
    from ctrs import errors  # noqa: PLC0415

    hint = f"{e.hint}; " if e.hint else ""
    return errors.CtrsError(e.code, e.message, f"{hint}LLM fallback: {why}", e.loc)


def _remember(cfg: Config, records: list[dict], specs: list[str]) -> None:
    """Cache the answers of a kernel that just verified (every spec EQUIVALENT); replayed ones stay as they are."""
    for r in records:
        r["verified_specs"] = list(specs)
        if not r.get("stored"):
            client.store_accepted(cfg, r["cache_key"], r["text"], r["attempts"], specs)
            r["stored"] = True


def _construct_of(e, kernel: Path, typed: bool, hook=None) -> context.Construct | splice.Ask | None:
    """The construct a diagnostic stopped at, when the fallback can ask for it (else None). On the typed path a
    blocker inside a rule (CTRS-E124 / E125 ...) at a simple assignment is a statement (range) to ask for: a
    splice.Ask, turned into a Construct (with the scope at the statement) by the next lowering (``hook``: the
    lowering's, for the other statements it stopped at). A runtime ``if`` that leaves a name a compile-time number on
    one path asks for the statement that bound the number (ranges.ask_for_binding)."""
    from ctrs import errors  # noqa: PLC0415

    if e.code == errors.LLM_CONSTRUCT and getattr(e, "construct", None) is not None:
        return e.construct
    if typed and e.code in _statement_codes() and e.loc is not None and e.loc.line and \
            Path(str(e.loc.file)).resolve() == Path(kernel).resolve():
        return ranges.ask_for(kernel, e.loc, e.code, e.message, _stopped(kernel, hook)) or \
            ranges.ask_for_binding(kernel, e.loc, e.code, e.message)
    return None


def _statement_codes() -> tuple[str, ...]:
    """The typed front end's "outside the subset" blockers (pipeline.FALLBACK_CODES): a statement stopped by one
    can be asked for as a whole. (A rank >= 2 ``ct.gather``, CTRS-E230 once, has a rule since: nothing raises it.)"""
    from ctrs import pipeline  # noqa: PLC0415

    return tuple(pipeline.FALLBACK_CODES)


def _stopped(kernel: Path, hook) -> set[int]:
    """The lines where the typed lowering of ``kernel`` stopped (every blocker of every kernel, the hook's
    constructs included)."""
    from ctrs import errors, pipeline, translate  # noqa: PLC0415

    refused: dict = {}
    codes = _statement_codes()
    try:
        pipeline.translate_module(kernel, translate._stem(kernel), refused,
                                  on_unsupported=hook.typed if hook is not None else None)
    except errors.CtrsError:
        return set()
    return {int(b.loc.line) for bs in refused.values() for b in bs if b.loc is not None and b.loc.line
            and (b.code == errors.LLM_CONSTRUCT or b.code in codes)}


def _range_of(kernel: Path, c: context.Construct, hook) -> splice.Ask | None:
    """The statement holding expression construct ``c`` as a whole when it binds several names (``a, b = ..``), or
    the range from it when the statements after it stopped too and the range binds two or more names read
    elsewhere (ranges.py); else None (``c`` is asked alone)."""
    if c.kind != "expression" or Path(str(c.loc.file)).resolve() != Path(kernel).resolve():
        return None
    ask = ranges.ask_for(kernel, c.loc, c.code, c.message, _stopped(kernel, hook))
    return ask if ask is not None and len(ask.outputs) > 1 else None


def _solve(kernel: Path, cfg: Config, e, c: context.Construct, accepted: dict, verifier: verify.Verifier,
           typed: bool) -> tuple[dict, bool]:
    """(record, verified) for construct ``c`` (diagnostic ``e``); raises the original diagnostic when no answer
    verifies."""
    from ctrs import errors, translate  # noqa: PLC0415

    messages = messages_for(c, verifier.reference_ops(c))
    target, expr = c.target, c.python
    where = str(c.loc)
    k = c.key
    key = client.cache_key(cfg, messages)  # endpoint + model + the first prompt: only accepted answers stored
    replay = client.cached(cfg, key)
    stage = "no answer"
    attempt = 0
    while attempt < max(1, cfg.attempts):
        if replay is not None:
            text, hit, n = replay["answer"], True, int(replay.get("attempts", 1))
        else:
            attempt += 1
            cfg.require_endpoint(c.loc)  # CTRS-E250 before anything is sent
            try:
                text = client.complete(cfg, messages)
            except client.Unavailable as u:
                _log(cfg, f"{where}: llm: server unavailable: {u}")
                raise _fail(e, f"server unavailable: {u}") from None
            hit, n = False, attempt
        _log(cfg, f"{where}: llm: {'cached answer' if hit else f'attempt {attempt}/{cfg.attempts} ({cfg.model})'}")
        rec = {"model": _model_tag(cfg.model), "endpoint": client.endpoint(cfg), "hash": prompt_hash(messages[:2]),
               "cache_key": key, "text": text, "stored": hit, "target": target, "expr": expr, "attempts": n, "loc": k,
               "kind": c.kind, "code": c.code, "outputs": list(c.outputs), "end_line": c.end_line}
        detail = ""
        try:
            rec["stmts"] = answer.parse(text, target, list(c.outputs))
            hook = splice.Hook({**accepted, k: rec}, typed)
            try:
                files = translate.translate_source(kernel, llm_hook=hook)
                mod = translate.translate_module(kernel, hook)
            except errors.CtrsError as te:
                other = _construct_of(te, kernel, typed, hook)
                if other is not None and other.key != k and other.key not in accepted:
                    return rec, False  # another construct without a rule: verified together later
                raise answer.Rejected(f"the translator could not use it: {te.one_line()}") from None
            try:
                ok, stage, detail = verifier.verify(files, mod)
            except errors.CtrsError as re_:  # the reference itself does not compile: no answer can be proven
                _log(cfg, f"{where}: llm: attempt {n} not accepted: the reference could not be compiled: "
                          f"{_first_line(re_.one_line())}")
                raise
            if ok:
                _log(cfg, f"{where}: llm: accepted ({stage})")
                _remember(cfg, [*accepted.values(), rec], [s.name for s in verifier.specs])
                return rec, True
        except answer.Rejected as r:
            stage, detail = "it was rejected before building", str(r)
        if hit:  # a cached answer that no longer verifies: dropped, the server is asked afresh
            _log(cfg, f"{where}: llm: cached answer no longer verifies ({stage}); dropped")
            client.forget(cfg, key)
            replay = None
            continue
        _log(cfg, f"{where}: llm: attempt {attempt} not accepted: {stage}: {_first_line(detail)}")
        messages = messages + [{"role": "assistant", "content": text},
                               {"role": "user", "content": _ENV.get_template("retry.j2").render(
                                   stage=stage, detail=detail[:4000], target=target, outputs=list(c.outputs))}]
    raise _fail(e, f"no verified answer after {cfg.attempts} attempts (last: {stage}: {_first_line(detail)})") \
        from None


def _first_line(detail: str) -> str:
    return " ".join((detail.strip().splitlines() or [""])[0].split())[:300]


def _require_exercised(cfg: Config, e, c: context.Construct, verifier: verify.Verifier) -> None:
    """No request for a construct that no spec of its kernel runs (it sits in the arm of an ``if`` on ct.Constant
    values that every spec leaves off, so the reference compiles none of it): any answer there would be
    IR-equivalent by default, a wrong one as much as a right one. ``e`` stands, with the reason."""
    specs, used = verifier.exercising(c)
    if specs and not used:
        _log(cfg, f"{c.loc}: llm: not asked: no spec exercises `{c.python}`")
        names = ", ".join(s.name for s in specs)[:240]
        raise _fail(e, f"no spec exercises this construct: line {c.loc.line} is in an `if` arm that the "
                       f"ct.Constant values of all {len(specs)} specs of {specs[0].kernel} ({names}) leave off, so "
                       "the reference compiles none of it and an answer would be compared with nothing: add a spec "
                       "that runs this code") from None


def translate_source(kernel: Path, cfg: Config) -> dict[str, str]:
    """Like transpiler.translate.translate_source, with constructs without a rule resolved by verified LLM answers.

    The rules run first, unchanged (``plain``). When they fail on a cuTile Python file, the typed IR front end runs
    alone with the fallback's hook (``typed``): every statement / expression without a rule (operators,
    subscripts, statements, calls) becomes a construct (CTRS-E251) and its answer a RUST_FRAGMENT op; a simple
    assignment stopped inside a rule (CTRS-E124/E125), a tuple assignment and a range of stopped statements whose
    names are read later are asked for as a whole (ranges.py: an Ask, re-lowered for the scope). A Triton file
    alike (a tl.* call without a rule, or one whose rule refuses its operands: frontends/triton/llm_hook.py). A
    blocker that is no construct (nothing to ask for) stands: the rules' own diagnostic is raised."""
    from ctrs import errors, translate  # noqa: PLC0415
    from ctrs.frontends.triton.source import is_triton_file  # noqa: PLC0415

    kernel = Path(kernel)
    triton = is_triton_file(kernel)
    accepted: dict = {}
    verifier = None
    verified = True
    mode = "plain"
    first = None  # the rules' own diagnostic: it stands when no construct can be asked for
    asks: dict = {}  # statement key -> splice.Ask (a statement range asked for as a whole)
    asked: dict = {}  # statement key -> the blocker that made it a construct (it stands when no answer verifies)
    for _ in range(3 * MAX_CONSTRUCTS + 3):
        typed = mode == "typed"
        try:
            hook = None if mode == "plain" else splice.Hook(dict(accepted), typed, asks)
            files = translate.translate_source(kernel, llm_hook=hook)
            if not verified:  # pragma: no cover - a provisional answer is always followed by a verified one
                raise errors.CtrsError(errors.INTERNAL, "unverified LLM answer", "report this", errors.Loc(str(kernel)))
            cfg.accepted, cfg.typed = dict(accepted), typed  # for --explain / --stats on the same run
            return provenance(files, list(accepted.values()))
        except errors.CtrsError as e:
            c = None if mode == "plain" else _construct_of(e, kernel, typed, hook)
            if typed and c is not None and not isinstance(c, splice.Ask) and c.key not in asks:
                c = _range_of(kernel, c, hook) or c
            if isinstance(c, splice.Ask):  # a statement (range): lowered again, its construct carries the scope
                if c.key in asks or c.key in accepted:
                    raise (first or e) from None
                asks[c.key], asked[c.key] = c, e
                continue
            if c is None:
                if mode == "plain":
                    first = first or e
                    mode = "typed"
                    continue
                raise (first or e) from None
            if c.key in accepted or len(accepted) >= MAX_CONSTRUCTS:
                raise
            same = first is not None and first.loc is not None and splice.key_of(first.loc) == c.key
            stands = first if same else asked.get(c.key, e)  # the diagnostic that stands when no answer is accepted
            if verifier is None:
                # nothing to prove an answer with (no spec names a kernel of this file): no request
                entries = verify.kernel_names(kernel)
                if not [s for s in verify.check_specs(kernel, cfg.specs, {}) if s.kernel in entries]:
                    _log(cfg, f"{c.loc}: llm: not asked, no specs to verify it: `{c.python}`")
                    raise _fail(stands, "no specialisations of this file's kernels to verify an answer against (add "
                                        "specs.json or --spec)") from None
                no_ref = verify.no_reference(kernel)  # a Triton file without its cuTile counterpart: no request
                if no_ref:
                    _log(cfg, f"{c.loc}: llm: not asked, no reference Tile IR to verify it: `{c.python}`")
                    raise _fail(stands, no_ref) from None
                verifier = verify.Verifier(kernel, cfg.specs, cfg.build_timeout)
            _require_exercised(cfg, stands, c, verifier)
            rec, verified = _solve(kernel, cfg, stands, c, accepted, verifier, typed)
            accepted[c.key] = rec
    raise errors.CtrsError(errors.NO_RULE, "too many constructs without a rule for the LLM fallback",
                           f"at most {MAX_CONSTRUCTS} per file", errors.Loc(str(kernel)))


def provenance(files: dict[str, str], records: list[dict]) -> dict[str, str]:
    """Mark LLM-produced lines in analysis.json (kernel.rs carries the inline marker comments)."""
    if not records:
        return files
    from ctrs.emitters import render_host  # noqa: PLC0415

    from ctrs.workflow import generated  # noqa: PLC0415 - stdlib only

    skip = generated.header_lines("kernel.rs")  # lines of the written kernel.rs, after its @generated header
    rs_lines = [i + 1 + skip for i, t in enumerate(files["kernel.rs"].splitlines()) if f"/* {splice.MARK} " in t]
    data = json.loads(files["analysis.json"])
    data["llm_fallback"] = {
        "kernel_rs_lines": rs_lines,
        "constructs": [{"file": Path(r["loc"][0]).name, "line": r["loc"][1], "col": r["loc"][2],
                        "kind": r.get("kind", "expression"), "python": r["expr"], "model": r["model"], "endpoint": r["endpoint"],
                        "prompt_hash": r["hash"], "attempts": r["attempts"],
                        **({"defines": r["outputs"], "end_line": r["end_line"]} if r.get("outputs") else {}),
                        "verified_specs": r.get("verified_specs", []),
                        "rust": [f"let {s.name}: {s.type} = {s.expr};" for s in r["stmts"]]} for r in records],
    }
    return {**files, "analysis.json": render_host.analysis_json(data)}


def count_llm_lines(kernel_rs: str) -> int:
    return sum(f"/* {splice.MARK} " in t for t in kernel_rs.splitlines())


def prompt_hash(messages: list[dict]) -> str:
    return hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()
