"""llm_fallback/: constructs without a rule go to an OpenAI-compatible LLM and are accepted only when the
spliced port's Tile IR is equivalent to the reference. A local scripted server (stdlib http.server in a
thread, 127.0.0.1 only) is driven through the real ``openai`` client. Builds are kept few: the same
model + prompt always gives the same kernel.rs (the harness binary is cached by its content)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from ctrs.workflow import cli
from ctrs import errors, translate

pytest.importorskip("openai")
from ctrs.llm_fallback import answer  # noqa: E402
from ctrs.llm_fallback.config import Config  # noqa: E402
from ctrs.llm_fallback.scripted import Server  # noqa: E402 - the scripted local server (127.0.0.1 only)

DATA = Path(__file__).resolve().parent / "data"
ROOT = DATA.parent.parent
KERNEL = DATA / "llm_atan2.py"
SPEC = str(DATA / "llm_atan2.json")
KEY = "sk-test-DO-NOT-LEAK-0123456789"
MODEL = "ctrs-test-model"

GOOD = "Here is the port:\n```rust\nlet a: Tile<E, { [TILE] }> = atan2(t, t);\n```\n"
WRONG = "```rust\nlet a: Tile<E, { [TILE] }> = negf(t);\n```"  # compiles, but negf is not atan2
NOCOMPILE = "```rust\nlet a: Tile<E, { [TILE] }> = atan2(t);\n```"
GARBAGE = "I am not sure what ct.atan2 does, sorry."
OUTSIDE = "```rust\nlet a: Tile<E, { [TILE] }> = atan2(t, t);\nlet _x: i32 = pid + 1;\n```"  # last let is not `a`


def _cfg(server: Server, cache: Path, **kw) -> Config:
    base = dict(model=MODEL, base_url=server.url, api_key=KEY, cache_dir=cache, specs=[SPEC], backoff=0.01,
                timeout=20.0)
    base.update(kw)
    return Config(**base)


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("llm-cache")


def _assert_no_key(*roots: Path) -> None:
    for root in roots:
        for f in [root] if root.is_file() else root.rglob("*"):
            if f.is_file():
                assert KEY not in f.read_text(errors="replace"), f


# ------------------------------------------------------------------------------------------ off by default


def test_off_is_byte_identical_without_module(tmp_path, monkeypatch, capsys):
    fixture = ROOT / "fixtures" / "vector_add" / "kernel.py"
    assert cli.main(["translate", str(fixture), "-o", str(tmp_path / "with")]) == 0
    assert cli.main(["translate", str(KERNEL), "-o", str(tmp_path / "atan2_with")]) == 3
    err_with = capsys.readouterr().err
    for name in [m for m in sys.modules if m == "ctrs.llm_fallback" or m.startswith("ctrs.llm_fallback.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "ctrs.llm_fallback", None)  # `import ctrs.llm_fallback` now raises ImportError
    with pytest.raises(ImportError):
        import ctrs.llm_fallback  # noqa: F401
    assert cli.main(["translate", str(fixture), "-o", str(tmp_path / "without")]) == 0
    assert cli.main(["translate", str(KERNEL), "-o", str(tmp_path / "atan2_without")]) == 3
    assert capsys.readouterr().err == err_with and "CTRS-E124" in err_with
    a = {p.name: p.read_bytes() for p in (tmp_path / "with").iterdir()}
    b = {p.name: p.read_bytes() for p in (tmp_path / "without").iterdir()}
    assert a == b and "kernel.rs" in a
    assert not (tmp_path / "atan2_with").exists() and not (tmp_path / "atan2_without").exists()


# ------------------------------------------------------------------------------------------ vetting (no build)


@pytest.mark.parametrize(("text", "why"), [
    (GARBAGE, "exactly one"),
    ("```rust\nlet a: Tile<E, { [TILE] }> = atan2(t, t);\n```\n```rust\nlet b: i32 = 1;\n```", "exactly one"),
    ("```rust\nlet a: Tile<E, { [TILE] }> = unsafe { atan2(t, t) };\n```", "unsafe"),
    ("```rust\nfn evil() {}\nlet a: Tile<E, { [TILE] }> = atan2(t, t);\n```", "fn"),
    ("```rust\nlet a: Tile<E, { [TILE] }> = std::process::exit(1);\n```", "std"),
    ("```rust\nextern \"C\" { fn f(); }\n```", "not allowed"),
    ("```rust\nlet a: Tile<E, { [TILE] }> = include!(\"/etc/passwd\");\n```", "not allowed"),
    ("```rust\nlet a: Tile<E, { [TILE] }> = println!(t);\n```", "macro"),
    ("```rust\nlet a: Tile<E, { [TILE] }> = print_tko(t);\n```", "print_tko"),
    ("```rust\nlet a: Tile<E, { [TILE] }> = store_tile(t);\n```", "store_tile"),
    ("```rust\nlet a: Tile<E, { [TILE] }> = { let q = 1; atan2(t, t) };\n```", "inside brackets"),
    (OUTSIDE, "last statement must bind `a`"),
    ("Use this: let a = atan2(t, t);\n```rust\nlet a: Tile<E, { [TILE] }> = atan2(t, t);\n```", "outside"),
    ("```rust\nlet a: Tile<E, { [TILE] }> = atan2(t, t)\n```", "after the last"),
    ("```rust\natan2(t, t);\n```", "not a `let"),
])
def test_vetting_rejects(text, why):
    with pytest.raises(answer.Rejected, match=None) as ei:
        answer.parse(text, "a")
    assert why in str(ei.value), str(ei.value)


def test_vetting_accepts_plain_lets():
    st = answer.parse("```rust\nlet m: Tile<E, { [TILE] }> = negf(t);\nlet a: Tile<E, { [TILE] }> = maxf(t, m);\n```",
                      "a")
    assert [s.name for s in st] == ["m", "a"] and st[-1].expr == "maxf(t, m)"


def test_vetting_accepts_the_rules_permutation_literal():
    """`const_array!` is how the rules spell permute's dimension order (`ct.permute(t, (1, 0))`): an answer may use
    it as it uses `const_shape!`; any other macro is still refused."""
    st = answer.parse("```rust\nlet a: Tile<E, { [N, M] }> = permute(t, const_array![1, 0]);\n```", "a")
    assert st[-1].expr == "permute(t, const_array![1, 0])"
    with pytest.raises(answer.Rejected, match="only const_shape! and const_array!"):
        answer.parse("```rust\nlet a: Tile<E, { [N] }> = vec![t];\n```", "a")


# ------------------------------------------------------------------------------------------ end to end


def test_correct_answer_accepted_marked_and_cached(tmp_path, shared_cache, capsys, monkeypatch):
    with Server([GOOD]) as srv:
        out = translate.translate(KERNEL, tmp_path / "port", _cfg(srv, shared_cache))
        assert len(srv.requests) == 1
        req = srv.requests[0]
        assert req["path"].endswith("/chat/completions") and req["body"]["model"] == MODEL
        assert req["auth"] == f"Bearer {KEY}"
        user = req["body"]["messages"][1]["content"]
        assert "a = ct.atan2(t, t)" in user and "Tile<E, { [TILE] }>" in user and "absf" in req["body"]["messages"][0]["content"]
    rs = out[0].read_text()
    line = next(t for t in rs.splitlines() if "atan2(t, t)" in t)
    assert line.strip().startswith("let a: Tile<E, { [TILE] }> = /* ctrs-llm ctrs-test-model ")
    ana = json.loads((tmp_path / "port" / "analysis.json").read_text())
    (c,) = ana["llm_fallback"]["constructs"]
    assert (c["line"], c["col"], c["model"], c["rust"]) == (12, 9, MODEL, ["let a: Tile<E, { [TILE] }> = atan2(t, t);"])
    assert ana["llm_fallback"]["kernel_rs_lines"] == [rs.splitlines().index(line) + 1]
    assert ana["kernels"][0]["op_stats"]["llm"] == 1

    assert c["endpoint"] == srv.url and c["verified_specs"] == ["f32_n4096", "f16_n1000"]
    assert c["prompt_hash"] and c["attempts"] == 1

    # second run, same endpoint and model: the accepted answer is replayed (and verified again), no request
    with Server([GOOD]) as srv2:
        cfg2 = _cfg(srv2, shared_cache, base_url=srv.url)  # srv is gone: a request would fail
        out2 = translate.translate(KERNEL, tmp_path / "port2", cfg2)
        assert srv2.requests == []
    assert {p.name: p.read_bytes() for p in (tmp_path / "port").iterdir()} == \
        {p.name: p.read_bytes() for p in (tmp_path / "port2").iterdir()}
    assert out2[0].read_bytes() == out[0].read_bytes()

    # another endpoint (or model) is another cache key: asked afresh; --llm-refresh ignores the cache
    with Server([GOOD, GOOD]) as srv3:
        translate.translate(KERNEL, tmp_path / "port3", _cfg(srv3, shared_cache))
        assert len(srv3.requests) == 1
        translate.translate(KERNEL, tmp_path / "port4", _cfg(srv3, shared_cache, refresh=True))
        assert len(srv3.requests) == 2

    # the CLI: --llm --stats counts the LLM-produced line, offline from the cache
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", srv.url)  # nothing listens any more: must not be needed
    monkeypatch.setenv("CTRS_LLM_CACHE", str(shared_cache))
    capsys.readouterr()
    rc = cli.main(["translate", str(KERNEL), "-o", str(tmp_path / "cli"), "--llm", "--llm-model", MODEL,
                   "--spec", SPEC, "--stats", "--llm-offline"])
    o = capsys.readouterr()
    assert rc == 0, o.err
    assert "1  llm" in o.out and "llm: 1 LLM-produced line(s)" in o.out
    assert KEY not in o.out + o.err
    _assert_no_key(tmp_path, shared_cache)


def test_429_retried_then_accepted(tmp_path, shared_cache):
    with Server([429, 503, GOOD]) as srv:
        out = translate.translate(KERNEL, tmp_path / "port", _cfg(srv, tmp_path / "c", http_retries=3))
        assert len(srv.requests) == 3
    assert "atan2(t, t)" in out[0].read_text()


def test_429_exhausted_reported(tmp_path):
    with Server([429, 429, 429]) as srv:
        with pytest.raises(errors.CtrsError) as ei:
            translate.translate(KERNEL, tmp_path / "port", _cfg(srv, tmp_path / "c", http_retries=2))
        assert len(srv.requests) == 2
    e = ei.value
    assert e.code == errors.IR_UNSUPPORTED and (e.loc.line, e.loc.col) == (12, 9)
    assert "HTTP 429" in e.hint and KEY not in e.one_line()
    assert not (tmp_path / "port").exists()


def test_timeout_reported(tmp_path):
    with Server([("sleep", 3.0), ("sleep", 3.0)]) as srv:
        t0 = time.monotonic()
        with pytest.raises(errors.CtrsError) as ei:
            translate.translate(KERNEL, tmp_path / "port", _cfg(srv, tmp_path / "c", timeout=0.5, http_retries=2))
        assert time.monotonic() - t0 < 10
        assert len(srv.requests) == 2
    assert ei.value.code == errors.IR_UNSUPPORTED and "timeout" in ei.value.hint
    assert not (tmp_path / "port").exists()


def test_wrong_answer_rejected_by_ir_diff_then_retried(tmp_path):
    with Server([WRONG, GOOD]) as srv:
        out = translate.translate(KERNEL, tmp_path / "port", _cfg(srv, tmp_path / "c"))
        assert len(srv.requests) == 2
        msgs = srv.requests[1]["body"]["messages"]
    assert msgs[2] == {"role": "assistant", "content": WRONG}
    assert "IR diff" in msgs[3]["content"] and "negf" in msgs[3]["content"]
    assert "atan2(t, t)" in out[0].read_text() and "negf" not in out[0].read_text()
    ana = json.loads((tmp_path / "port" / "analysis.json").read_text())
    assert ana["llm_fallback"]["constructs"][0]["attempts"] == 2


def test_noncompiling_garbage_and_outside_code_exhaust_attempts(tmp_path, capsys):
    with Server([NOCOMPILE, GARBAGE, OUTSIDE]) as srv:
        with pytest.raises(errors.CtrsError) as ei:
            translate.translate(KERNEL, tmp_path / "port", _cfg(srv, tmp_path / "c"))
        reqs = srv.requests
    assert len(reqs) == 3
    fb1 = reqs[1]["body"]["messages"][-1]["content"]
    fb2 = reqs[2]["body"]["messages"][-1]["content"]
    assert "does not compile" in fb1 and "error" in fb1
    assert "rejected before building" in fb2 and "exactly one" in fb2
    e = ei.value
    assert e.code == errors.IR_UNSUPPORTED and "no verified answer after 3 attempts" in e.hint
    assert e.one_line().startswith(f"{KERNEL}:12:9: error[CTRS-E124]: typed-IR front end: call 'ct.atan2'")
    assert not (tmp_path / "port").exists()
    _assert_no_key(tmp_path)


def test_splice_renames_bound_names_no_build():
    """Temporaries get fresh names (a shadowing `t` does not clobber the loaded tile); the last binds the target."""
    from ctrs.llm_fallback import fallback, splice

    stmts = answer.parse("```rust\nlet t: Tile<E, { [TILE] }> = negf(t);\nlet a: Tile<E, { [TILE] }> = maxf(t, t);\n```",
                         "a")
    rec = {"model": "m", "hash": "0" * 64, "stmts": stmts, "expr": "ct.atan2(t, t)", "attempts": 1,
           "loc": (str(KERNEL), 12, 9)}
    rs = translate.translate_source(KERNEL, llm_hook=splice.hook({rec["loc"]: rec}))["kernel.rs"]
    assert "let t_1: Tile<E, { [TILE] }> = /* ctrs-llm m 0000000000000000 */ negf(t);" in rs
    assert "let a: Tile<E, { [TILE] }> = /* ctrs-llm m 0000000000000000 */ maxf(t_1, t_1);" in rs
    assert "store_view_tko_mut(&mut py, a," in rs
    assert fallback.count_llm_lines(rs) == 2
    with pytest.raises(errors.CtrsError) as ei:  # the hook is passed in, not left behind in a global
        translate.translate_source(KERNEL)
    assert ei.value.code == errors.IR_UNSUPPORTED


def test_malformed_response_body_reported(tmp_path):
    with Server([("raw", b"{not json"), ("raw", b'{"choices": []}')]) as srv:
        with pytest.raises(errors.CtrsError) as ei:
            translate.translate(KERNEL, tmp_path / "port", _cfg(srv, tmp_path / "c", attempts=1))
        assert len(srv.requests) == 1
    assert ei.value.code == errors.IR_UNSUPPORTED and "LLM fallback" in ei.value.hint
    assert not (tmp_path / "port").exists()


# ------------------------------------------------------------------------------------------ cache and config


def test_rejected_answer_is_not_replayed(tmp_path):
    """A run whose only answer fails the IR diff caches nothing: the rerun asks the server again."""
    cache = tmp_path / "c"
    with Server([WRONG, GOOD]) as srv:
        with pytest.raises(errors.CtrsError) as ei:
            translate.translate(KERNEL, tmp_path / "port", _cfg(srv, cache, attempts=1))
        assert ei.value.code == errors.IR_UNSUPPORTED and "IR diff" in ei.value.hint
        assert not [f for f in cache.rglob("*.json")]  # nothing cached
        out = translate.translate(KERNEL, tmp_path / "port", _cfg(srv, cache, attempts=1))
        assert len(srv.requests) == 2  # the rerun asked again (the same first prompt), got GOOD
        assert srv.requests[0]["body"]["messages"] == srv.requests[1]["body"]["messages"]
    assert "atan2(t, t)" in out[0].read_text()
    (entry,) = [json.loads(f.read_text()) for f in cache.rglob("*.json")]
    assert entry["accepted"] is True and entry["answer"] == GOOD and entry["endpoint"] == srv.url


def test_no_request_when_nothing_is_configured(tmp_path, monkeypatch, capsys):
    """Neither OPENAI_BASE_URL nor OPENAI_API_KEY: CTRS-E250, one line, and the server never hears of it."""
    for v in ("OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(v, raising=False)
    monkeypatch.setenv("CTRS_LLM_CACHE", str(tmp_path / "c"))
    with Server([GOOD]) as srv:
        cfg = Config.from_env(MODEL, specs=[SPEC], cache_dir=tmp_path / "c")
        assert cfg.base_url is None and cfg.api_key is None
        with pytest.raises(errors.CtrsError) as ei:
            translate.translate(KERNEL, tmp_path / "port", cfg)
        rc = cli.main(["translate", str(KERNEL), "-o", str(tmp_path / "cli"), "--llm", "--spec", SPEC])
        assert srv.requests == []
    e = ei.value
    assert e.code == errors.LLM_NOT_CONFIGURED == "CTRS-E250" and (e.loc.line, e.loc.col) == (12, 9)
    assert "OPENAI_BASE_URL" in e.one_line() and "\n" not in e.one_line()
    err = capsys.readouterr().err
    assert rc != 0 and "CTRS-E250" in err and "OPENAI_BASE_URL" in err
    assert not (tmp_path / "port").exists() and not (tmp_path / "cli").exists()


# ------------------------------------------------------------------------------------------ trust


def test_answer_right_for_one_spec_wrong_for_another_is_rejected(tmp_path):
    """An answer written for float32 (its input re-declared as a f32 tile) is right for the float32 spec and has no
    entry for the float16 one: every spec ctrs check uses must be EQUIVALENT, so the answer is rejected."""
    mixed = str(DATA / "llm_abs_mixed.json")
    f32_only = ("Here is the port:\n```rust\nlet t: Tile<f32, { [TILE] }> = t;\n"
                "let a: Tile<f32, { [TILE] }> = atan2(t, t);\n```\n")
    with Server([f32_only]) as srv:
        with pytest.raises(errors.CtrsError) as ei:
            translate.translate(KERNEL, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[mixed], attempts=1))
        assert len(srv.requests) == 1
    e = ei.value
    assert e.code == errors.IR_UNSUPPORTED and "no verified answer after 1 attempts" in e.hint
    assert not (tmp_path / "port").exists() and not list((tmp_path / "c").rglob("*.json"))


# ------------------------------------------------------------------------------------------ context


def test_allowlist_holds_only_real_function_names():
    """Every allowlisted name is a `pub fn` of the pinned cutile crate's own source; header words are not names."""
    from ctrs.llm_fallback import api

    fns = api.functions()
    assert "absf" in fns and fns["absf"]["signature"].startswith("pub fn absf<")
    assert fns["absf"]["doc"] == "Element-wise float absolute value."
    assert answer.ALLOWLIST and answer.ALLOWLIST <= set(fns), sorted(answer.ALLOWLIST - set(fns))
    assert not {"tile", "functions", "cutile::core", "LLM", "word."} & answer.ALLOWLIST
    assert [f["name"] for f in api.allowed()] == sorted(answer.ALLOWLIST)
    assert api.crate_source().parent.name == "cutile-0.5.0"  # the default target profile
    assert api.crate_source("0.3.1").parent.name == "cutile-0.3.1"
    assert api.allowlist_names("# a header: tile functions\nabsf  negf # trailing words\n") == {"absf", "negf"}


def test_prompt_carries_signatures_examples_reference_ops_and_kernel(tmp_path):
    """The context a model needs, checked on the request the server receives (no build: E250-free config and
    one GARBAGE answer, attempts=1)."""
    with Server([GARBAGE]) as srv:
        with pytest.raises(errors.CtrsError):
            translate.translate(KERNEL, tmp_path / "port", _cfg(srv, tmp_path / "c", attempts=1))
        system, user = (m["content"] for m in srv.requests[0]["body"]["messages"])
    assert "`pub fn absf<E: ElementType, const S: [i32; N]>(x: Tile<E, S>) -> Tile<E, S>` — Element-wise float " \
           "absolute value." in system
    assert "`y = ct.sqrt(x)` -> `let y: Tile<E, { [T] }> = sqrt(x, rounding::NearestEven, ftz::Disabled);`" in system
    assert "= atan2 %" in user  # the reference's op at line 12
    assert "def atan2_self(x, y, TILE: TileSize):" in user and "ct.store(y, index=(pid,), tile=a)" in user


# ------------------------------------------------------------------------------------------ reach


NEG = "```rust\nlet n: Tile<E, { [TILE] }> = atan2(t, t);\n```"
ABS_N = "```rust\nlet a: Tile<E, { [TILE] }> = atan2(n, t);\n```"


def test_two_constructs_in_one_file_each_answered_and_composed(tmp_path):
    """`ct.atan2(t, t)` then `ct.atan2(n, t)` (no rule; the tile operators all have rules since the typed front
    end covers them): both reach the model through the typed IR front end's hook; the second answer reads the
    first one's value, and the complete kernel is proven IR-equivalent for every spec before either is accepted."""
    kernel = DATA / "llm_neg_abs.py"
    spec = str(DATA / "llm_neg_abs.json")
    with Server([NEG, ABS_N]) as srv:
        out = translate.translate(kernel, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[spec]))
        users = [r["body"]["messages"][1]["content"] for r in srv.requests]
    assert len(users) == 2
    assert "The expression to translate is `ct.atan2(t, t)` (line 14, column 9); bind its value to `n`" in users[0]
    assert "The expression to translate is `ct.atan2(n, t)` (line 15, column 9); bind its value to `a`" in users[1]
    assert "- n -> `n`: Tile<E, { [TILE] }> (tile)" in users[1]  # the first answer's value is in scope
    rs = out[0].read_text()
    assert "let n: Tile<E, { [TILE] }> = /* ctrs-llm ctrs-test-model " in rs and "*/ atan2(t, t);" in rs
    assert "let a: Tile<E, { [TILE] }> = /* ctrs-llm ctrs-test-model " in rs and "*/ atan2(n, t);" in rs
    ana = json.loads((tmp_path / "port" / "analysis.json").read_text())
    cs = ana["llm_fallback"]["constructs"]
    assert [(c["line"], c["python"], c["verified_specs"]) for c in cs] == [
        (14, "ct.atan2(t, t)", ["f32_n4096", "f16_n1000"]), (15, "ct.atan2(n, t)", ["f32_n4096", "f16_n1000"])]
    assert ana["kernels"][0]["op_stats"]["llm"] == 2


def test_operator_without_a_rule_reaches_the_model(tmp_path):
    """`a @ b` (Python's matmul operator: no typed-IR rule) reaches the model through the front end's hook like a
    call does; an answer that is not Rust is rejected and nothing is written."""
    k = tmp_path / "mm.py"
    k.write_text("import cuda.tile as ct\n\nT = ct.Constant[int]\n\n\n@ct.kernel\ndef mm(x, w, y, TILE: T):\n"
                 "    a = ct.load(x, index=(0, 0), shape=(TILE, TILE))\n"
                 "    b = ct.load(w, index=(0, 0), shape=(TILE, TILE))\n"
                 "    c = a @ b\n    ct.store(y, index=(0, 0), tile=c)\n")
    spec = tmp_path / "mm.json"
    spec.write_text(json.dumps([{"name": "f32_64", "kernel": "mm", "args": {
        "x": {"dtype": "float32", "shape": [64, 64]}, "w": {"dtype": "float32", "shape": [64, 64]},
        "y": {"dtype": "float32", "shape": [64, 64]}, "TILE": 64}}]))
    with Server([GARBAGE]) as srv:
        with pytest.raises(errors.CtrsError) as ei:
            translate.translate(k, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[str(spec)], attempts=1))
        (req,) = srv.requests
    user = req["body"]["messages"][1]["content"]
    assert "The expression to translate is `a @ b` (line 10, column 9); bind its value to `c`" in user
    assert ei.value.code == errors.IR_UNSUPPORTED and (ei.value.loc.line, ei.value.loc.col) == (10, 9)
    assert not (tmp_path / "port").exists()


def test_triton_construct_reaches_the_model(tmp_path):
    """`tl.abs` has no Triton rule: the rewrite leaves a placeholder the cuTile front end hands to the fallback;
    the prompt shows the Triton line, and the answer is proven against the cuTile counterpart (specs.json)."""
    kernel = DATA / "llm_triton" / "kernel.py"
    with Server(["```rust\nlet a: Tile<E, { [TILE] }> = absf(t);\n```"]) as srv:
        out = translate.translate(kernel, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[]))
        (req,) = srv.requests
    user = req["body"]["messages"][1]["content"]
    assert "a = tl.abs(t)" in user and "bind its value to `a`" in user
    assert "*/ absf(t);" in out[0].read_text()
    (c,) = json.loads((tmp_path / "port" / "analysis.json").read_text())["llm_fallback"]["constructs"]
    assert c["line"] == 18 and c["verified_specs"] == ["f32_n4096", "f16_n1000"]


# ------------------------------------------------------------------------------------------ reach, trust


CEIL = DATA / "llm_ceil_div.py"
CEIL_SPEC = str(DATA / "llm_ceil_div.json")  # BLOCK = 16 in one spec, 64 in the other
CEIL_GOOD = "```rust\nlet q: Tile<i32, { [N] }> = divi(q_lhs, b, rounding::NegativeInf);\n```"
CEIL_16 = ("```rust\nlet k: Tile<i32, { [N] }> = constant(16i32, const_shape![N]);\n"
           "let q: Tile<i32, { [N] }> = divi(q_lhs, k, rounding::NegativeInf);\n```")  # BLOCK spelled as 16


def test_tile_operator_that_rules_now_cover_makes_no_request(tmp_path):
    """`(c + (b - 1)) // b` on int32 tiles used to reach the model through the text model's tile-operator hook
    (the typed IR refused the kernel: gathered counts of the array's dtype meeting an int32 tile). Per-array
    dtype variables (frontends/cutile/dtypes.py) make the typed IR take the kernel: the rules translate it, no
    request is made, and the floor division is the reference's `divi {negative_inf}`; ct.maximum of int32 tiles
    is `maxi`."""
    with Server([CEIL_16, CEIL_GOOD]) as srv:
        out = translate.translate(CEIL, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[CEIL_SPEC], attempts=2))
        assert srv.requests == []
    rs = out[0].read_text()
    assert "rounding::NegativeInf);" in rs and " divi(" in rs
    assert " maxi(" in rs  # the int32 entry (a float `cnts` entry promotes to maxf, as the reference)
    assert "llm_fallback" not in json.loads((tmp_path / "port" / "analysis.json").read_text())


def test_construct_that_no_spec_exercises_is_not_asked(tmp_path):
    """ct.atan2 under `if USE_ATAN2:` with every spec at USE_ATAN2=0: the reference compiles none of line 14, so
    any answer would be IR-equivalent; no request, the rules' diagnostic stands with the reason. One spec that
    sets the flag is enough for the construct to be asked for."""
    kernel, off, on = DATA / "llm_gated.py", str(DATA / "llm_gated.json"), str(DATA / "llm_gated_on.json")
    with Server([GOOD, GARBAGE]) as srv:
        with pytest.raises(errors.CtrsError) as ei:
            translate.translate(kernel, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[off]))
        assert srv.requests == []
        with pytest.raises(errors.CtrsError) as e2:
            translate.translate(kernel, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[off, on], attempts=1))
        assert len(srv.requests) == 1  # asked (and the answer, GOOD's `a` for target `t`, rejected unbuilt)
    e = ei.value
    assert e.code == errors.IR_UNSUPPORTED and (e.loc.line, e.loc.col) == (14, 13)
    assert "no spec exercises this construct" in e.hint and "(f32_n4096_off, f16_n1000_off)" in e.hint
    assert "no spec exercises" not in e2.value.hint
    assert not (tmp_path / "port").exists() and not list((tmp_path / "c").rglob("*.json"))


def test_left_off_reads_ifs_on_translate_time_values(tmp_path):
    """context.left_off: an arm of an `if` on ct.Constant values / module constants that the values leave off;
    an `if` on a runtime value, or a condition it cannot read, counts as taken."""
    from ctrs.llm_fallback import context

    k = tmp_path / "k.py"
    k.write_text("import cuda.tile as ct\n\nMODE = 2\n\n\n@ct.kernel\n"
                 "def k(x, n, F: ct.Constant[int], G: ct.Constant[bool]):\n"  # 7
                 "    t = ct.load(x, index=(0,), shape=(4,))\n"  # 8
                 "    if F & 1 and not G:\n"  # 9
                 "        t = -t\n"  # 10
                 "    elif MODE == 2:\n"  # 11
                 "        t = t * 2\n"  # 12
                 "    if n > 0:\n"  # 13
                 "        if F >= 3:\n"  # 14
                 "            t = t + 1\n"  # 15
                 "    ct.store(x, index=(0,), tile=t)\n")  # 16
    def off(line, **consts):
        return context.left_off(k, line, consts)
    assert off(10, F=1, G=True) and not off(10, F=3, G=False)
    assert off(12, F=1, G=False) and not off(12, F=2, G=False)  # elif: the else arm of `if F & 1 and not G`
    assert not off(15, F=3, G=True) and off(15, F=1, G=True)  # `if n > 0` (runtime) counts as taken
    assert not off(8, F=0, G=False) and not off(10, G=True)  # no enclosing if / F unknown: taken


# ------------------------------------------------------------------- statements binding several names

RANGE = DATA / "llm_range.py"
RANGE_SPEC = str(DATA / "llm_range.json")  # angles + angles_tuple, f32 and f16 each
RANGE_AB = ("```rust\nlet a: Tile<E, { [TILE] }> = atan2(t, u);\n"
            "let b: Tile<E, { [TILE] }> = atan2(u, t);\n```")
TUPLE_CD = ("```rust\nlet c: Tile<E, { [TILE] }> = atan2(t, u);\n"
            "let d: Tile<E, { [TILE] }> = atan2(t, t);\n```")
TUPLE_CD_WRONG = ("```rust\nlet c: Tile<E, { [TILE] }> = atan2(t, u);\n"
                  "let d: Tile<E, { [TILE] }> = absf(t);\n```")  # compiles; d is not atan2(t, t)


def test_vetting_a_statement_range_answer_binds_every_name():
    stmts = answer.parse(RANGE_AB, "b", ["a", "b"])
    assert [s.name for s in stmts] == ["a", "b"]
    with pytest.raises(answer.Rejected, match="missing: `b`"):
        answer.parse("```rust\nlet a: Tile<E, { [TILE] }> = atan2(t, u);\n```", "b", ["a", "b"])
    with pytest.raises(answer.Rejected, match="the last statement must bind one of `a`, `b`"):
        answer.parse("```rust\nlet a: Tile<E, { [TILE] }> = atan2(t, u);\nlet b: Tile<E, { [TILE] }> = atan2(u, t);\n"
                     "let x: Tile<E, { [TILE] }> = absf(u);\n```", "b", ["a", "b"])


def test_statement_range_and_tuple_assignment_reach_the_model_and_verify(tmp_path):
    """Two consecutive statements without a rule whose names are both read later (`a = ct.atan2(t, u)`,
    `b = ct.atan2(u, t)`) go to the model as one statement range; `c, d = ct.atan2(t, u), ct.atan2(t, t)` as one
    statement binding two names. Each answer defines those names (one RUST_FRAGMENT op with a result per name).
    The range's answer is held while the tuple is asked for; the tuple's first answer is wrong for `d` (IR diff:
    rejected for every spec of angles_tuple, fed back), its second right; the file (both kernels) is proven
    IR-equivalent for all four specs before either answer is accepted."""
    with Server([RANGE_AB, TUPLE_CD_WRONG, TUPLE_CD]) as srv:
        out = translate.translate(RANGE, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[RANGE_SPEC]))
        users = [r["body"]["messages"][-1]["content"] for r in srv.requests]
    assert len(users) == 3
    assert ("The statements to translate are `a = ct.atan2(t, u); b = ct.atan2(u, t)` (lines 15-16, column 5); "
            "define each of `a`, `b`") in users[0]
    assert ("The statements to translate are `c, d = ct.atan2(t, u), ct.atan2(t, t)` (lines 26-26, column 5); "
            "define each of `c`, `d`") in users[1]
    assert "its Tile IR differs from the reference" in users[2] and "binding each of `c`, `d`" in users[2]
    assert "EQUIVALENT for angles_f32_n4096, angles_f16_n1000" in users[2]  # right for angles, wrong for the tuple
    rs = out[0].read_text()
    assert "let a: Tile<E, { [TILE] }> = /* ctrs-llm ctrs-test-model " in rs and "*/ atan2(t, u);" in rs
    assert "let b: Tile<E, { [TILE] }> = /* ctrs-llm ctrs-test-model " in rs and "*/ atan2(u, t);" in rs
    assert "let d: Tile<E, { [TILE] }> = /* ctrs-llm ctrs-test-model " in rs and "*/ atan2(t, t);" in rs
    assert "absf" not in rs
    cs = json.loads((tmp_path / "port" / "analysis.json").read_text())["llm_fallback"]["constructs"]
    every = ["angles_f32_n4096", "angles_f16_n1000", "angles_tuple_f32_n4096", "angles_tuple_f16_n1000"]
    assert [(c["line"], c["end_line"], c["defines"], c["attempts"], c["verified_specs"]) for c in cs] == [
        (15, 16, ["a", "b"], 1, every), (26, 26, ["c", "d"], 2, every)]
    assert cs[0]["python"] == "a = ct.atan2(t, u); b = ct.atan2(u, t)"


def test_statement_answer_splices_and_its_dtype_assertion_binds_the_array_no_build():
    """A statement stopped inside a rule (`m = ct.max(t, axis=(0,))`, CTRS-E124) is replaced as a whole by its answer
    (the hook's `replaces`); generic, the answer's `E` is the dtype variable of the tile it reads, so the port stays
    generic; re-declaring `t` as f32 states the dtype the answer is written for: the array's dtype variable is
    bound to f32 (a Bind fact the dtype solver applies), and nothing of `E` is left."""
    from ctrs.llm_fallback import splice

    kernel = DATA / "llm_rowmax.py"
    key = (str(kernel), 14, 5)

    def port(text: str) -> str:
        rec = {"model": "m", "hash": "0" * 64, "stmts": answer.parse(text, "m", ["m"]), "outputs": ["m"],
               "end_line": 14, "kind": "statement"}
        return translate.translate_source(kernel, llm_hook=splice.Hook({key: rec}, True))["kernel.rs"]

    rs = port("```rust\nlet m: Tile<E, { [] }> = reduce_max(t, 0i32);\n```")
    assert "pub fn shift_by_max<E: ElementType, const TILE: i32>(" in rs
    assert "let m: Tile<E, { [] }> = /* ctrs-llm m 0000000000000000 */ reduce_max(t, 0i32);" in rs
    rs = port("```rust\nlet t: Tile<f32, { [TILE] }> = t;\nlet m: Tile<f32, { [] }> = reduce_max(t, 0i32);\n```")
    assert "pub fn shift_by_max<const TILE: i32>(" in rs and "x: &Tensor<f32, { [-1] }>," in rs
    assert "let t_1: Tile<f32, { [TILE] }> = /* ctrs-llm m 0000000000000000 */ t;" in rs
    assert "let m: Tile<f32, { [] }> = /* ctrs-llm m 0000000000000000 */ reduce_max(t_1, 0i32);" in rs
    with pytest.raises(errors.CtrsError) as ei:  # without the answer the rules' blocker stands
        translate.translate_source(kernel, llm_hook=splice.Hook({}, True))
    assert ei.value.code == errors.IR_UNSUPPORTED and (ei.value.loc.line, ei.value.loc.col) == (14, 9)


def test_statement_ranges_are_formed_from_stopped_statements_no_build():
    """ranges.ask_for: a statement stopped inside a rule extends over the following statements of its block that
    stopped too, when two or more of the names they bind are read elsewhere; else the statement alone (all the
    names it binds); the construct's text has no comment lines."""
    from ctrs import errors as errs
    from ctrs.llm_fallback import ranges

    loc = errs.Loc(str(RANGE), 15, 9)
    ask = ranges.ask_for(RANGE, loc, errs.IR_UNSUPPORTED, "m", {15, 16})
    assert (ask.key[1:], ask.last_line, ask.outputs) == ((15, 5), 16, ("a", "b"))
    assert ask.python == "a = ct.atan2(t, u); b = ct.atan2(u, t)"
    ask = ranges.ask_for(RANGE, loc, errs.IR_UNSUPPORTED, "m", {15})  # b has a rule: a alone
    assert (ask.last_line, ask.outputs) == (15, ("a",))
    ask = ranges.ask_for(RANGE, errs.Loc(str(RANGE), 26, 12), errs.IR_UNSUPPORTED, "m", {26})
    assert (ask.key[1:], ask.outputs) == ((26, 5), ("c", "d"))
    neg = DATA / "llm_neg_abs.py"  # n = ..; a = ..(n): only `a` is read after the two lines: no range
    ask = ranges.ask_for(neg, errs.Loc(str(neg), 14, 9), errs.IR_UNSUPPORTED, "m", {14, 15})
    assert (ask.last_line, ask.outputs) == (14, ("n",))
    assert ranges.ask_for(RANGE, errs.Loc(str(RANGE), 17, 5), errs.IR_UNSUPPORTED, "m", {17}) is None  # ct.store


# ------------------------------------------------------------------- Triton statements and statement ranges

TRITON_RANGE = DATA / "llm_triton_range" / "kernel.py"  # `a = +t` (no rule), `b = tl.cumsum(t, 0)` (no rule)
TRITON_AB = ("```rust\nlet a: Tile<E, { [TILE] }> = t;\n"
             "let b: Tile<E, { [TILE] }> = scan_sum(t, 0i32, reverse::Forward, E::ZERO);\n```")
TRITON_AB_WRONG = TRITON_AB.replace("reverse::Forward", "reverse::Reverse")  # builds; a suffix sum, not a prefix sum


def test_triton_statement_range_reaches_the_model_and_verifies(tmp_path):
    """Triton statements reach the model as cuTile ones do: `a = +t` stops at the statement (an operator without a
    rule, not a call), `b = tl.cumsum(t, 0)` at a call without a rule; both names are read later, so the two lines
    go to the model as one statement range (ranges.py reads the Triton file; the Triton lowering's `replaced` lets
    the answer bind both names). The first answer builds but scans in reverse: the IR diff against the cuTile
    counterpart (specs.json "reference") rejects it and it is fed back; the second is accepted for both specs and
    spliced as one RUST_FRAGMENT op with a result per name."""
    with Server([TRITON_AB_WRONG, TRITON_AB]) as srv:
        out = translate.translate(TRITON_RANGE, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[], attempts=2))
        users = [r["body"]["messages"][-1]["content"] for r in srv.requests]
    assert len(users) == 2
    assert ("The statements to translate are `a = +t; b = tl.cumsum(t, 0)` (lines 19-20, column 5); "
            "define each of `a`, `b`") in users[0]
    assert "its Tile IR differs from the reference" in users[1]
    rs = out[0].read_text()
    assert "*/ scan_sum(t, 0i32, reverse::Forward, E::ZERO);" in rs and "reverse::Reverse" not in rs
    (c,) = json.loads((tmp_path / "port" / "analysis.json").read_text())["llm_fallback"]["constructs"]
    assert (c["line"], c["end_line"], c["defines"], c["attempts"]) == (19, 20, ["a", "b"], 2)
    assert c["verified_specs"] == ["f32_n4096", "f16_n1000"] and c["python"] == "a = +t; b = tl.cumsum(t, 0)"


def test_triton_file_without_a_reference_makes_no_request(tmp_path):
    """A Triton file whose specs.json names no cuTile counterpart has no reference Tile IR on a CPU (CTRS-E112):
    no answer could be proven, so nothing is asked; the rules' diagnostic stands and says why."""
    import shutil

    kernel = tmp_path / "k" / "kernel.py"
    kernel.parent.mkdir()
    shutil.copy(TRITON_RANGE, kernel)
    doc = json.loads((TRITON_RANGE.parent / "specs.json").read_text())
    (kernel.parent / "specs.json").write_text(json.dumps(doc["spec"]))  # the same specs, no "reference"
    with Server([TRITON_AB]) as srv:
        with pytest.raises(errors.CtrsError) as ei:
            translate.translate(kernel, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[]))
        assert srv.requests == []
    e = ei.value
    assert e.code == errors.IR_UNSUPPORTED and (e.loc.line, e.loc.col) == (19, 9)
    assert f"no reference Tile IR to verify an answer against ({errors.TRITON_NO_REFERENCE}" in e.hint
    assert not (tmp_path / "port").exists()


def test_specs_of_other_kernels_only_make_no_request(tmp_path):
    """Specs that name no kernel of the file (the corpus's spec list of a file whose refused kernel has none of its
    own) cannot prove an answer: nothing is asked, the rules' diagnostic stands."""
    doc = json.loads(Path(RANGE_SPEC).read_text())
    other = tmp_path / "other.json"
    other.write_text(json.dumps([{**s, "kernel": "some_other_kernel"} for s in doc]))
    with Server([RANGE_AB]) as srv:
        with pytest.raises(errors.CtrsError) as ei:
            translate.translate(RANGE, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[str(other)]))
        assert srv.requests == []
    assert "no specialisations of this file's kernels to verify an answer against" in ei.value.hint



# ------------------------------- a real-kernel-shaped construct: a flat id split into row and column by one ct.divmod

GLU = DATA / "llm_glu_divmod.py"  # `row, col = ct.divmod(flat, N)` (no rule) in a flat-indexed GLU kernel
GLU_SPEC = str(DATA / "llm_glu_divmod.json")
_GLU_LETS = ("let n0: Tile<i32, { [] }> = scalar_to_tile(N);",
             "let n1: Tile<i32, { [1] }> = n0.reshape(const_shape![1]);",
             "let n_b: Tile<i32, { [BLOCK_SIZE] }> = n1.broadcast(const_shape![BLOCK_SIZE]);",
             "let row: Tile<i32, { [BLOCK_SIZE] }> = divi(flat, n_b, rounding::NegativeInf);",
             "let rem: Tile<i32, { [BLOCK_SIZE] }> = remi(flat, n_b);",
             "let zero: Tile<i32, { [BLOCK_SIZE] }> = constant(0i32, const_shape![BLOCK_SIZE]);",
             "let fix: Tile<bool, { [BLOCK_SIZE] }> = andi(xori(cmpi(rem, zero, predicate::LessThan), cmpi(n_b, zero, "
             "predicate::LessThan)), cmpi(rem, zero, predicate::NotEqual));",
             "let col: Tile<i32, { [BLOCK_SIZE] }> = select(fix, rem + n_b, rem);")
GLU_FLOOR = "```rust\n" + "\n".join(_GLU_LETS) + "\n```"  # Python's divmod: floor, remainder of the divisor's sign
GLU_TRUNC = GLU_FLOOR.replace("rounding::NegativeInf", "rounding::Zero")  # builds; C's truncating division


def test_real_kernel_shaped_divmod_accepted_end_to_end(tmp_path):
    """The shape of TileGym's flat-indexed GLU kernels (a block of flat element ids split into a row and a column:
    `global_id // N`, `global_id % N`; the gate gathered at the column, the value N columns on), with the split
    written as one `row, col = ct.divmod(flat, N)`, which the typed path has no rule for (CTRS-E124): asked as one
    statement defining both names, against the local scripted server. The first answer divides rounding toward
    zero (C's division, not Python's): it builds, and the IR diff rejects it for both specs and says so on the
    retry; the second floors and fixes the remainder's sign as cuTile Python's divmod does, and is accepted:
    IR-EQUIVALENT for both specs (f32 and f16: the entries the rules lower this kernel into per dtype of its arrays
    each carry the answer), spliced as one RUST_FRAGMENT whose lets are marked in kernel.rs."""
    with Server([GLU_TRUNC, GLU_FLOOR]) as srv:
        out = translate.translate(GLU, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[GLU_SPEC], attempts=2))
        users = [r["body"]["messages"][-1]["content"] for r in srv.requests]
    assert len(users) == 2
    assert "`row, col = ct.divmod(flat, N)` (lines 15-15, column 5); define each of `row`, `col`" in users[0]
    assert "its Tile IR differs from the reference" in users[1] and "not EQUIVALENT for 2 of 2 specs" in users[1]
    rs = out[0].read_text()
    assert "*/ divi(flat, n_b, rounding::NegativeInf);" in rs and "rounding::Zero" not in rs
    assert "*/ select(fix, rem + n_b, rem);" in rs
    assert "pub fn glu_flat_f32<const N: i32, const BLOCK_SIZE: i32>(" in rs and "pub fn glu_flat_f16<" in rs
    (c,) = json.loads((tmp_path / "port" / "analysis.json").read_text())["llm_fallback"]["constructs"]
    assert (c["line"], c["defines"], c["attempts"]) == (15, ["row", "col"], 2)
    assert c["verified_specs"] == ["f32_rows64_N512_block1024", "f16_rows32_N1000_block256"]


# ------------------------------------------------- a name left a compile-time number on one path of a runtime `if`

GATE = DATA / "llm_gate_arm.py"  # `w = 0.0` then `if odd == 0: w = ct.gather(g, ..).item()` (g: a dtype variable)
GATE_SPEC = str(DATA / "llm_gate_arm.json")  # f32 and f16 data, the gate g f32 in both
GATE_W = "```rust\nlet w: Tile<f32, { [] }> = constant(0.0f32, const_shape![]);\n```"
GATE_W_WRONG = GATE_W.replace("0.0f32", "1.0f32")  # builds; not the value the kernel starts with


def test_runtime_if_leaving_a_compile_time_number_asks_for_its_binding_no_build():
    """The typed front end stops at a runtime `if` after which `w` is the number 0.0 on one path and a value of g's
    dtype variable on the other (CTRS-E124 at the `if`: no statement an answer replaces). ranges.ask_for_binding
    asks for the statement that bound the number (`w = 0.0`, line 15) instead; spliced, its answer (a runtime f32
    0-d tile) is merged by the `if` like any other value and binds g's dtype variable to f32 (per-dtype entries)."""
    from ctrs import errors as errs
    from ctrs.llm_fallback import ranges, splice

    with pytest.raises(errors.CtrsError) as ei:  # without an answer the front end's blocker stands
        translate.translate_source(GATE, llm_hook=splice.Hook({}, True))
    e = ei.value
    assert e.code == errors.IR_UNSUPPORTED and (e.loc.line, e.loc.col) == (16, 5)
    assert "runtime if: 'w' is a different compile-time value in each arm" in e.message
    assert ranges.ask_for(GATE, e.loc, e.code, e.message, {16}) is None  # the `if` is no simple assignment
    ask = ranges.ask_for_binding(GATE, e.loc, e.code, e.message)
    assert (ask.key[1:], ask.last_line, ask.outputs, ask.python) == ((15, 5), 15, ("w",), "w = 0.0")
    assert ranges.ask_for_binding(GATE, e.loc, e.code, "runtime if: 'odd' is f32 in one arm and i32 in the other") \
        is None  # another blocker of the `if`: nothing to ask for
    assert ranges.ask_for_binding(GATE, errs.Loc(str(GATE), 15, 5), e.code, e.message) is None  # not an `if`
    rec = {"model": "m", "hash": "0" * 64, "stmts": answer.parse(GATE_W, "w", ["w"]), "outputs": ["w"],
           "end_line": 15, "kind": "statement"}
    rs = translate.translate_source(GATE, llm_hook=splice.Hook({(str(GATE), 15, 5): rec}, True))["kernel.rs"]
    assert "let w: Tile<f32, { [] }> = /* ctrs-llm m 0000000000000000 */ constant(0.0f32, const_shape![]);" in rs
    assert "g: &Tensor<f32, { [-1] }>," in rs and "g: &Tensor<f16" not in rs


def test_runtime_if_compile_time_arm_reaches_the_model_and_verifies(tmp_path):
    """End to end through the local scripted server: the fallback asks for `w = 0.0` (the prompt names the `if`'s
    blocker); the first answer (1.0) builds but its Tile IR differs from the reference for every spec (fed back),
    the second (0.0) is IR-equivalent for both specs and accepted."""
    with Server([GATE_W_WRONG, GATE_W]) as srv:
        out = translate.translate(GATE, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[GATE_SPEC]))
        users = [r["body"]["messages"][-1]["content"] for r in srv.requests]
    assert len(users) == 2
    assert "The statement to translate is `w = 0.0` (line" in users[0]
    assert "'w' is a different compile-time value in each arm" in users[0]
    assert "its Tile IR differs from the reference" in users[1]
    rs = out[0].read_text()
    assert "*/ constant(0.0f32, const_shape![]);" in rs and "1.0f32" not in rs
    cs = json.loads((tmp_path / "port" / "analysis.json").read_text())["llm_fallback"]["constructs"]
    assert [(c["line"], c["python"], c["attempts"], c["verified_specs"]) for c in cs] == [
        (15, "w = 0.0", 2, ["gate_f32_n4096", "gate_f16_n1024"])]


def test_raw_pointer_ports_are_proven_despite_the_assumes_they_cannot_state_no_build():
    """irdiff Report.proves (the bar of an LLM answer, of ``ctrs check`` and of tests/conftest.py): EQUIVALENT proves
    a port; so does a structurally equal graph whose only warning is the specialisation divisor a raw-pointer port
    (`*mut E`: gathers / scatters) cannot state (IRD-ASSUME-DIV); a weaker bounds fact (IRD-ASSUME-WEAKER, stated
    by passes/assume.py) or any other warning does not."""
    from ctrs.verify import irdiff

    def rep(equal: bool, *found: tuple[str, str]) -> irdiff.Report:
        return irdiff.Report("ref", "gen", equal, [irdiff.Finding(sev, code, "assume", "m") for sev, code in found])

    raw, views = "let p: PointerTile<*mut f32, { [] }> = get_tensor_base(x);", "load_view_tko(&px, [pid])"
    assert rep(True).proves(views) and rep(True).proves(raw)
    div = rep(True, (irdiff.WARNING, "IRD-ASSUME-DIV"), (irdiff.INFO, "IRD-ASSUME"))
    assert div.proves(raw)
    assert not div.proves(views)  # a view port states them: a real difference there
    assert div.proves(views, frozenset({"IRD-ASSUME-DIV"}))  # a test's documented gap
    assert not rep(True, (irdiff.WARNING, "IRD-ASSUME-WEAKER"), (irdiff.WARNING, "IRD-ASSUME-DIV")).proves(raw)
    assert not rep(True, (irdiff.WARNING, "IRD-ASSUME-WEAKER")).proves(raw)
    assert not rep(True, (irdiff.WARNING, "IRD-LATENCY")).proves(raw)
    assert not rep(False, (irdiff.WARNING, "IRD-ASSUME-DIV")).proves(raw)
    assert not rep(True, (irdiff.CRITICAL, "IRD-ASSUME-DIV")).proves(raw)


RAW = DATA / "llm_raw_atan2.py"  # `a = ct.atan2(v, v)` (no rule) between a 2-D ct.gather and ct.scatter
RAW_SPEC = str(DATA / "llm_raw_atan2.json")
RAW_A = "```rust\nlet a: Tile<E, { [TN] }> = atan2(v, v);\n```"


def _warned(feedback: str) -> set[str]:
    """The codes of the critical and warning findings an IR-diff rejection fed back lists."""
    import re  # noqa: PLC0415

    return set(re.findall(r"^(?:critical|warning): (IRD-[A-Z-]+)", feedback, re.M))


def test_raw_pointer_answer_accepted_where_the_port_states_the_references_bounds(tmp_path):
    """A raw-pointer port (`x: *mut E` with its extents and strides) states the reference's `>= 0` facts of them
    (passes/assume.py): a right answer is proven (irdiff Report.proves) and accepted."""
    with Server([RAW_A]) as srv:
        out = translate.translate(RAW, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[RAW_SPEC], attempts=1))
        assert len(srv.requests) == 1
    rs = out[0].read_text()
    assert "*mut " in rs and "assume_bounds_lower" in rs and "*/ atan2(v, v);" in rs
    cs = json.loads((tmp_path / "port" / "analysis.json").read_text())["llm_fallback"]["constructs"]
    assert [(c["line"], c["attempts"], c["verified_specs"]) for c in cs] == [(15, 1, ["ra_f32"])]


def test_answer_whose_port_assumes_fewer_bounds_than_the_reference_is_rejected(tmp_path, monkeypatch):
    """The same right answer, spliced into a port that lacks the `>= 0` facts of the raw entry's extents and strides
    (the assume pass made to state none): the IR graphs are equal and the only differences are those weaker
    assumes (IRD-ASSUME-WEAKER). That is not EQUIVALENT by the tests' and ``ctrs check``'s bar, so the answer is
    rejected (it was accepted while llm_fallback/verify.py tolerated IRD-ASSUME-WEAKER for raw-pointer ports)."""
    from ctrs.passes import assume as assume_pass

    states = assume_pass.run

    def no_bounds(kernel):
        kernel = states(kernel)
        for facts in kernel.assumes.values():
            facts.pop("nonneg", None)
        return kernel

    monkeypatch.setattr(assume_pass, "run", no_bounds)
    with Server([RAW_A, GARBAGE]) as srv:  # the second attempt only carries the first one's feedback
        with pytest.raises(errors.CtrsError) as ei:
            translate.translate(RAW, tmp_path / "port", _cfg(srv, tmp_path / "c", specs=[RAW_SPEC], attempts=2))
        reqs = srv.requests
    assert len(reqs) == 2 and reqs[1]["body"]["messages"][-2] == {"role": "assistant", "content": RAW_A}
    fb = reqs[1]["body"]["messages"][-1]["content"]
    assert "its Tile IR differs from the reference (IR diff)" in fb and "spec ra_f32: WARNINGS" in fb
    assert _warned(fb) == {"IRD-ASSUME-WEAKER"}, fb
    assert ei.value.code == errors.IR_UNSUPPORTED and "no verified answer after 2 attempts" in ei.value.hint
    assert not (tmp_path / "port").exists()
