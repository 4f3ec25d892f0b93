"""The one loader of ctrs' rules tables (rules/cutile.toml, rules/triton.toml, rules/ir.toml,
rules/targets/cutile-*.toml), each checked against its schema before any front end or emitter reads it.

A schema here is data: a :class:`Table` names its keys, which are required, and the shape of any other key
(a map such as ``[functions."<name>"]``); leaves are value kinds (string, Rust template, bool, list, ...).
A bad file is one diagnostic, ``file:line:col: error[CTRS-E19x]: ... (hint: ...)``, at the offending key:
tomllib keeps no positions, so :func:`key_position` finds the key's line and column in the text.
Codes: E190 not readable / not TOML, E191 a required key is missing, E192 an unknown key, E193 a value of the
wrong kind, E194 a value naming an entry that does not exist. What each table means: docs/rules.md.
"""

from __future__ import annotations

import difflib
import json
import re
import string
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from . import errors, paths

# ---------------------------------------------------------------------------------------------- schema kinds

STR = "a string"
TEMPLATE = "a template string"  # str.format syntax: {operand}, a literal brace doubled
BOOL = "a boolean"
INT = "an integer"


@dataclass(frozen=True)
class List:
    item: object


@dataclass(frozen=True)
class AnyOf:
    kinds: tuple

    @property
    def name(self) -> str:
        return " or ".join(_kind_name(k) for k in self.kinds)


@dataclass(frozen=True)
class Table:
    keys: dict = field(default_factory=dict)
    required: tuple[str, ...] = ()
    rest: object = None  # the kind of every key not in ``keys``; None: such a key is unknown


def Map(value: object) -> Table:  # noqa: N802 (reads like a kind)
    """A table whose keys are names (``[dtypes]``, ``[functions."<name>"]``), every value of kind ``value``."""
    return Table(rest=value)


def _kind_name(kind) -> str:
    if isinstance(kind, Table):
        return "a table"
    if isinstance(kind, List):
        return f"a list of {_kind_name(kind.item).split(' ', 1)[1]}s"
    if isinstance(kind, AnyOf):
        return kind.name
    return kind


# ---------------------------------------------------------------------------------------------- the schemas

_FUNCTION = Table({"lower": STR, "signature": STR, "note": STR}, required=("lower",))

# cuTile Python's own facts only (signatures, dtypes, element entries): no Rust text; that is rules/ir.toml's
CUTILE = Table({
    "functions": Map(_FUNCTION),
    "element_entries": Table({"dtypes": List(STR), "int_dtypes": List(STR), "max_entries": INT,
                              "float_only": List(STR), "int_attrs": List(STR), "int_ops": Map(STR)},
                             required=("dtypes",)),
    "dtypes": Map(STR),
    "host_dtypes": Map(STR),
}, required=("functions", "element_entries", "dtypes", "host_dtypes"))

TRITON = Table({
    "calls": Map(STR),
    "unsupported": Map(Table({"hint": STR}, required=("hint",))),
    "signatures": Map(STR),
}, required=("calls", "signatures"))

IR = Table({
    # rust_ftz / rust_approx: the spelling under flush_to_zero=True / rounding_mode=APPROX (frontends/cutile/tiles.py)
    "math": Map(Table({"rust": TEMPLATE, "rust_ftz": TEMPLATE, "rust_approx": TEMPLATE}, required=("rust",))),
    "rust": Map(TEMPLATE),
    "scalar": Map(TEMPLATE),
    "rounding": Map(STR),
    "predicate": Map(STR),
    "predicate_symbol": Map(STR),  # an i32 comparison of two Rust scalars ([scalar] cmpi)
    "ordering": Map(STR),  # cmpf's ordered / unordered
    "padding": Map(STR),
    "dtypes": Map(STR),
    # ct.gather / ct.scatter / atomics (emitters/ir_rust.py pointer_chain): templates, and the atomic mode /
    # memory order / memory scope spellings
    "pointer": Table({"atomic_mode": Map(STR), "memory_order": Map(STR), "memory_scope": Map(STR)}, rest=TEMPLATE),
    # const generic names kernel.rs spells with a trailing _ (emitters/spelling.const_spelling)
    "reserved_consts": Table({"names": List(STR)}, required=("names",)),
    # module-local op declarations, in kernel.rs order; each names a template (DECLARATIONS)
    "declarations": Table({"names": List(STR)}, required=("names",)),
}, required=("math", "rust", "scalar", "rounding", "predicate", "padding", "dtypes"))

_API = Table({"rust": TEMPLATE, "unsafe": BOOL, "note": STR, "type": STR, "atomic": Map(STR),
              "load": List(STR), "store": List(STR), "atomic_add": List(STR), "scopes": List(STR)})

TARGET = Table({
    "crate": Table({"version": STR, "crates": Map(STR), "reviewed": STR}, required=("version", "crates")),
    "harness": Table({"cargo_toml": STR, "cargo_lock": STR, "main_rs": STR},
                     required=("cargo_toml", "cargo_lock", "main_rs")),
    "bytecode": Table({"write": STR, "writer_supports": List(STR)}, required=("write", "writer_supports")),
    "syntax": Map(AnyOf((STR, BOOL, List(STR)))),
    "api": Map(_API),
}, required=("crate", "harness", "bytecode"))

SCHEMAS = {"cutile": CUTILE, "triton": TRITON, "ir": IR, "target": TARGET}

# What a schema cannot say: a name in rules/ir.toml ``[declarations] names`` must have its template.
DECLARATIONS = ("emitters", "templates", "port", "declarations")
HINT_DOC = "docs/rules.md"

# ---------------------------------------------------------------------------------------------- loading


def load(kind: str, path: Path | str) -> dict:
    """The rules file ``path`` parsed and checked against ``SCHEMAS[kind]``; a bad file is a coded error."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise errors.CtrsError(errors.RULES_TOML, f"cannot read rules file: {e}", "restore the file from the "
                               "repository", errors.Loc(str(path))) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)$", str(e))
        loc = errors.Loc(str(path), int(m.group(1)), int(m.group(2))) if m else errors.Loc(str(path))
        msg = str(e)[:m.start()].strip() if m else str(e)
        raise errors.CtrsError(errors.RULES_TOML, f"rules file is not valid TOML: {msg}",
                               f"fix the TOML syntax ({HINT_DOC})", loc) from None
    problem = check(SCHEMAS[kind], data) or check_references(kind, data)
    if problem is not None:
        code, at, msg, hint = problem
        line, col = key_position(text, at)
        raise errors.CtrsError(code, msg, hint, errors.Loc(str(path), line, col))
    return data


@cache
def shipped(name: str) -> dict:
    """rules/<name>.toml as shipped with ctrs (``cutile``, ``triton``, ``ir``), loaded once."""
    return load(name, paths.data("rules", f"{name}.toml"))


# ---------------------------------------------------------------------------------------------- checking


def dotted(parts) -> str:
    """A key path the way TOML writes it: ``functions."ct.exp".lower``, list items as ``dtypes[1]``."""
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            out += ("." if out else "") + (p if re.fullmatch(r"[A-Za-z0-9_-]+|<name>", p) else json.dumps(p))
    return out


def check(schema: Table, data: dict) -> tuple[str, tuple, str, str] | None:
    """The first problem of ``data`` against ``schema`` in file order: (code, key path, message, hint)."""
    return _check(schema, data, (), ())


def check_references(kind: str, data: dict) -> tuple[str, tuple, str, str] | None:
    """The first value naming an entry that does not exist (CTRS-E194: a declaration without its template),
    after the schema holds."""
    if kind == "ir":
        for i, name in enumerate(data.get("declarations", {}).get("names", [])):
            if not paths.data(*DECLARATIONS, f"{name}.rs.j2").is_file():
                return (errors.RULES_REFERENCE, ("declarations", "names", i), f"declarations.names[{i}] names "
                        f"'{name}', which has no template", f"add {'/'.join(DECLARATIONS)}/{name}.rs.j2 ({HINT_DOC})")
    return None


def _table_name(generic: tuple) -> str:
    return f"[{dotted(generic)}]" if generic else "the top level"


def _check(kind, value, at: tuple, generic: tuple):
    if isinstance(kind, Table):
        if not isinstance(value, dict):
            return _wrong(kind, value, at, generic)
        for key, sub in value.items():
            if key in kind.keys:
                sub_kind, sub_generic = kind.keys[key], (*generic, key)
            elif kind.rest is not None:
                sub_kind, sub_generic = kind.rest, (*generic, "<name>")
            else:
                known = sorted(kind.keys)
                close = difflib.get_close_matches(key, known, n=1)
                hint = (f"did you mean '{close[0]}'? " if close else "") + \
                    f"the keys of {_table_name(generic)} are {', '.join(known)} ({HINT_DOC})"
                return errors.RULES_UNKNOWN, (*at, key), f"unknown key {dotted((*at, key))}", hint
            found = _check(sub_kind, sub, (*at, key), sub_generic)
            if found is not None:
                return found
        for key in kind.required:
            if key not in value:
                if not at:
                    return (errors.RULES_MISSING, at, f"the file lacks the table [{key}]",
                            f"the file needs {', '.join(f'[{k}]' for k in kind.required)} ({HINT_DOC})")
                return (errors.RULES_MISSING, at, f"{_table_name(at)} lacks '{key}'",
                        f"every {_table_name(generic)} needs {', '.join(kind.required)} ({HINT_DOC})")
        return None
    if isinstance(kind, List):
        if not isinstance(value, list):
            return _wrong(kind, value, at, generic)
        for i, item in enumerate(value):
            found = _check(kind.item, item, (*at, i), (*generic, i))
            if found is not None:
                return found
        return None
    if isinstance(kind, AnyOf):
        if all(_check(k, value, at, generic) is not None for k in kind.kinds):
            return _wrong(kind, value, at, generic)
        return None
    ok = {STR: isinstance(value, str), TEMPLATE: isinstance(value, str), BOOL: isinstance(value, bool),
          INT: isinstance(value, int) and not isinstance(value, bool)}[kind]
    if not ok:
        return _wrong(kind, value, at, generic)
    if kind == TEMPLATE:
        try:
            list(string.Formatter().parse(value))
        except ValueError as e:
            return (errors.RULES_TYPE, at, f"{dotted(at)} is not a valid template: {e}",
                    "operands are written {name}; a literal brace is doubled, {{ or }}")
    return None


_TOML_TYPE = {str: "a string", bool: "a boolean", int: "an integer", float: "a float", list: "a list", dict: "a table"}


def _wrong(kind, value, at: tuple, generic: tuple):
    got = _TOML_TYPE.get(type(value), "a date/time")
    return (errors.RULES_TYPE, at, f"{dotted(at) or 'the file'} is {got}, expected {_kind_name(kind)}",
            f"see {dotted(generic) or 'the file'} in {HINT_DOC}")


# ---------------------------------------------------------------------------------------------- positions

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_BASIC = re.compile(r'"(?:[^"\\]|\\.)*"')
_LITERAL = re.compile(r"'[^']*'")


def _key(line: str, i: int) -> tuple[list[tuple[str, int]], int]:
    """The dotted key starting at ``line[i]``: its parts with their columns (0-based), and the index after it."""
    parts = []
    while True:
        while i < len(line) and line[i] in " \t":
            i += 1
        for pat in (_BARE, _BASIC, _LITERAL):
            m = pat.match(line, i)
            if m:
                tok = m.group(0)
                name = json.loads(tok) if tok[0] == '"' else tok.strip("'")
                parts.append((name, i))
                i = m.end()
                break
        else:
            return parts, i
        j = i
        while j < len(line) and line[j] in " \t":
            j += 1
        if j < len(line) and line[j] == ".":
            i = j + 1
            continue
        return parts, j


def key_position(text: str, at: tuple) -> tuple[int, int]:
    """(line, column), both 1-based, of the key path ``at`` in TOML ``text``: the line defining the deepest
    key of ``at`` found (a table header, a dotted key, or a key inside an inline table); (0, 0) if none."""
    want = tuple(p for p in at if not isinstance(p, int))
    best, best_len = (0, 0), -1
    header: tuple = ()
    in_string = ""
    for n, line in enumerate(text.splitlines(), 1):
        if in_string:
            if line.count(in_string) % 2:
                in_string = ""
            continue
        s = line.lstrip()
        start = len(line) - len(s)
        entries: list[tuple[tuple, int]] = []
        if s.startswith("["):
            parts, _ = _key(line, start + (2 if s.startswith("[[") else 1))
            header = tuple(p for p, _ in parts)
            if parts:
                entries.append((header, start))  # a table is shown at its header's `[`
        elif s and s[0] != "#":
            parts, end = _key(line, start)
            if parts and line[end:end + 1] == "=":
                entries.append(((*header, *(p for p, _ in parts)), parts[-1][1]))
                rest = line[end + 1:]
                # keys of an inline table on this line: `crates = { cutile = "0.3.1", ... }`
                for m in re.finditer(r"[{,]\s*", rest):
                    sub, sub_end = _key(rest, m.end())
                    if sub and rest[sub_end:sub_end + 1] == "=":
                        entries.append(((*entries[0][0], *(p for p, _ in sub)), end + 1 + sub[-1][1]))
                for quote in ('"""', "'''"):
                    if rest.count(quote) % 2:
                        in_string = quote
        for path, col in entries:
            if len(path) > best_len and want[:len(path)] == path:
                best, best_len = (n, col + 1), len(path)
                if path == want:
                    return best
    return best
