"""rules/*.toml and rules/targets/*.toml go through one loader with a checked schema (transpiler/rules_loader.py):
the shipped files load; a malformed copy of each is one diagnostic with a stable code at the offending key."""

from __future__ import annotations

import pytest

from ctrs import errors, ir_rules, paths, rules_loader, targets
from ctrs.frontends.triton import source as triton_source
from ctrs.ir_rules import cutile_rules as load_rules

pytestmark = pytest.mark.model  # model-only: no cargo, no cuda-tile (tests/conftest.py guard)

RULES = paths.data("rules")


def test_shipped_rules_load_through_the_schema():
    assert load_rules() is load_rules()  # loaded once
    assert load_rules()["functions"]["ct.exp"]["lower"] == "unary"
    assert triton_source.load_rules()["calls"]["tl.exp"] == "ct.exp"
    assert ir_rules.ir_rules()["rust"]["addf"] == "{a} + {b}"
    assert list(targets.profiles()) == ["0.3.1", "0.5.0"]
    for kind, path in (("cutile", "cutile.toml"), ("triton", "triton.toml"), ("ir", "ir.toml")):
        assert rules_loader.check(rules_loader.SCHEMAS[kind], rules_loader.load(kind, RULES / path)) is None
    for path in sorted((RULES / "targets").glob("cutile-*.toml")):
        assert rules_loader.check(rules_loader.TARGET, rules_loader.load("target", path)) is None


def _broken(tmp_path, kind: str, rel: str, old: str, new: str, nth: int = 1) -> str:
    """The one-line diagnostic of a copy of rules/<rel> with the ``nth`` occurrence of ``old`` replaced."""
    text = (RULES / rel).read_text()
    at = -1
    for _ in range(nth):
        at = text.index(old, at + 1)
    bad = tmp_path / rel.replace("/", "_")
    bad.write_text(text[:at] + new + text[at + len(old):])
    with pytest.raises(errors.CtrsError) as e:
        rules_loader.load(kind, bad)
    return e.value.one_line().replace(str(bad), "FILE")


def _line_col(rel: str, needle: str, nth: int = 1) -> str:
    """line:col (1-based) of the ``nth`` occurrence of ``needle`` in rules/<rel>."""
    text = (RULES / rel).read_text()
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return f"{line}:{at - text.rfind(chr(10), 0, at)}"


def test_cutile_unknown_key(tmp_path):
    # a typo in a function entry would be silently ignored by the front end: the schema names it
    got = _broken(tmp_path, "cutile", "cutile.toml", 'signature = "x, /, *, rounding_mode=..."\nlower = "unary"',
                  'signature = "x, /, *, rounding_mode=..."\nlowr = "unary"')
    line = int(_line_col("cutile.toml", 'signature = "x, /, *, rounding_mode=..."\nlower = "unary"').split(":")[0])
    where = f"{line + 1}:1"  # the misspelt key, the line after the signature
    assert got == (f"FILE:{where}: error[CTRS-E192]: unknown key functions.\"ct.exp\".lowr (hint: did you mean "
                   "'lower'? the keys of [functions.<name>] are lower, note, signature (docs/rules.md))")


def test_cutile_missing_key(tmp_path):
    got = _broken(tmp_path, "cutile", "cutile.toml", 'signature = "x, /"\nlower = "unary"\n', 'signature = "x, /"\n')
    where = _line_col("cutile.toml", '[functions."ct.log"]')
    assert got == (f"FILE:{where}: error[CTRS-E191]: [functions.\"ct.log\"] lacks 'lower' (hint: every "
                   "[functions.<name>] needs lower (docs/rules.md))")


def test_ir_bad_template(tmp_path):
    got = _broken(tmp_path, "ir", "ir.toml", 'iota = "iota(const_shape![{shape}])"',
                  'iota = "iota(const_shape![{shape])"')
    where = _line_col("ir.toml", 'iota = "iota(')
    assert got == (f"FILE:{where}: error[CTRS-E193]: rust.iota is not a valid template: expected '}}' before end "
                   "of string (hint: operands are written {name}; a literal brace is doubled, {{ or }})")


def test_cutile_wrong_type_in_a_list(tmp_path):
    got = _broken(tmp_path, "cutile", "cutile.toml", 'dtypes = ["f32", "f16", "bf16"]', 'dtypes = ["f32", 16, "bf16"]')
    where = _line_col("cutile.toml", 'dtypes = ["f32"')
    assert got == (f"FILE:{where}: error[CTRS-E193]: element_entries.dtypes[1] is an integer, expected a string "
                   "(hint: see element_entries.dtypes[1] in docs/rules.md)")


def test_cutile_not_toml(tmp_path):
    got = _broken(tmp_path, "cutile", "cutile.toml", '"ct.float16" = "f16"', '"ct.float16" = f16')
    where = _line_col("cutile.toml", '"ct.float16" = "f16"')
    line, col = where.split(":")
    assert got == (f"FILE:{line}:{int(col) + 15}: error[CTRS-E190]: rules file is not valid TOML: Invalid value "
                   "(hint: fix the TOML syntax (docs/rules.md))")


def test_triton_wrong_type(tmp_path):
    got = _broken(tmp_path, "triton", "triton.toml", 'hint = "no histogram op', 'hint = 3 # "no histogram op')
    where = _line_col("triton.toml", 'hint = "no histogram op')
    assert got == (f"FILE:{where}: error[CTRS-E193]: unsupported.\"tl.histogram\".hint is an integer, expected a "
                   "string (hint: see unsupported.<name>.hint in docs/rules.md)")


def test_triton_missing_hint(tmp_path):
    got = _broken(tmp_path, "triton", "triton.toml", '[unsupported."tl.histogram"]\nhint =',
                  '[unsupported."tl.histogram"]\nhnit =')
    where = _line_col("triton.toml", '[unsupported."tl.histogram"]')
    line = int(where.split(":")[0]) + 1
    assert got == (f"FILE:{line}:1: error[CTRS-E192]: unknown key unsupported.\"tl.histogram\".hnit (hint: did you "
                   "mean 'hint'? the keys of [unsupported.<name>] are hint (docs/rules.md))")


def test_ir_missing_table(tmp_path):
    got = _broken(tmp_path, "ir", "ir.toml", "[scalar]\n", "[scalars]\n")
    where = _line_col("ir.toml", "[scalar]\n")
    line = int(where.split(":")[0])
    # [scalars] is not a table of ir.toml: an unknown key at its header
    assert got == (f"FILE:{line}:1: error[CTRS-E192]: unknown key scalars (hint: did you mean 'scalar'? the keys of "
                   "the top level are declarations, dtypes, math, ordering, padding, pointer, predicate, predicate_symbol, "
                   "reserved_consts, rounding, rust, scalar (docs/rules.md))")


def test_ir_math_entry_needs_rust(tmp_path):
    got = _broken(tmp_path, "ir", "ir.toml", '[math."ct.log2"]\nrust = "log2({x})"', '[math."ct.log2"]\nrust = 2')
    where = _line_col("ir.toml", 'rust = "log2')
    assert got == (f"FILE:{where}: error[CTRS-E193]: math.\"ct.log2\".rust is an integer, expected a template string "
                   "(hint: see math.<name>.rust in docs/rules.md)")


def test_target_inline_table_key(tmp_path):
    # a key inside an inline table is located at its own column
    got = _broken(tmp_path, "target", "targets/cutile-0.5.0.toml", 'f32 = "AtomicF32"', "f32 = 32")
    where = _line_col("targets/cutile-0.5.0.toml", 'f32 = "AtomicF32"')
    assert got == (f"FILE:{where}: error[CTRS-E193]: api.global_type.atomic.f32 is an integer, expected a string "
                   "(hint: see api.<name>.atomic.<name> in docs/rules.md)")


def test_target_syntax_value(tmp_path):
    got = _broken(tmp_path, "target", "targets/cutile-0.3.1.toml", "break_in_for = false", "break_in_for = 1.5")
    where = _line_col("targets/cutile-0.3.1.toml", "break_in_for = false")
    assert got == (f"FILE:{where}: error[CTRS-E193]: syntax.break_in_for is a float, expected a string or a boolean "
                   "or a list of strings (hint: see syntax.<name> in docs/rules.md)")


def test_a_malformed_shipped_file_stops_translate(tmp_path):
    """The front end reads rules/cutile.toml through the loader: a bad copy is the loader's diagnostic."""
    bad = tmp_path / "cutile.toml"
    bad.write_text((RULES / "cutile.toml").read_text().replace('[host_dtypes]\n', '[host_dtype]\n'))
    with pytest.raises(errors.CtrsError) as e:
        load_rules(str(bad))
    assert e.value.code == errors.RULES_UNKNOWN and e.value.loc.line == _line_num("cutile.toml", "[host_dtypes]\n")


def _line_num(rel: str, needle: str) -> int:
    return int(_line_col(rel, needle).split(":")[0])


def test_ir_declaration_without_template(tmp_path):
    got = _broken(tmp_path, "ir", "ir.toml", '"shli_wrap", ', '"shli_wrap", "exp2_approx", ')
    where = _line_col("ir.toml", 'names = ["exp_approx"')
    assert got == (f"FILE:{where}: error[CTRS-E194]: declarations.names[3] names 'exp2_approx', which has no "
                   "template (hint: add emitters/templates/port/declarations/exp2_approx.rs.j2 (docs/rules.md))")


def test_cutile_rules_hold_no_rust_text():
    """rules/cutile.toml is cuTile Python's facts only; every Rust spelling is rules/ir.toml's (issue 11)."""
    text = (RULES / "cutile.toml").read_text()
    code = "\n".join(line.partition("#")[0] for line in text.splitlines())
    for rust in ("::", "&", "![", "Tile<", "_tko"):
        assert rust not in code, rust


def test_every_typed_only_rule_has_a_typed_handler():
    """`lower = "typed"`: the typed-IR front end's registry (frontends/cutile/registry.py CALLS) lowers the call;
    an entry without a handler would hide a missing construct from the corpus scan (benchmarks/corpus.py)."""
    from ctrs.frontends.cutile.registry import CALLS
    import ctrs.frontends.cutile  # noqa: F401 - registers every handler

    typed = {name for name, f in load_rules()["functions"].items() if f["lower"] == "typed"}
    assert {"ct.extract", "ct.cumsum", "ct.abs", "ct.atomic_add", "ct.static_assert"} <= typed
    assert typed - set(CALLS) == set()
