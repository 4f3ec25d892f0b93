"""Parse and vet an LLM answer before anything is built: one fenced ```rust block holding only
``let <name>: <type> = <expr>;`` statements, the last binding the construct's target name; no unsafe, no
items, no macros other than const_shape! / const_array! (the rules' shape and permutation literals), no
std::/extern/include!, and calls only to allowlisted
cutile::core names. The answer is never executed; a rejected answer never reaches the compiler."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .api import ALLOWLIST_FILE, allowlist_names

ALLOWLIST = allowlist_names(ALLOWLIST_FILE.read_text())  # function names only (its comments are not names)
# enum-like modules the rules emit as `mode::Variant` arguments
MODE_MODULES = frozenset({"ftz", "rounding", "padding", "ordering", "scope", "tma", "dim_map", "nan", "overflow",
                          "signedness", "predicate", "cmp_ordering", "reverse"})
SCALARS = frozenset({"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32", "f64", "bool"})
KEYWORDS = frozenset({"let", "mut", "as", "true", "false"})
FORBIDDEN_WORDS = ("unsafe", "extern", "fn", "impl", "mod", "use", "static", "struct", "enum", "trait", "loop",
                   "while", "for", "return", "break", "continue", "async", "await", "asm", "macro_rules", "type",
                   "where", "move", "ref", "dyn", "crate", "self", "super", "std", "alloc", "match", "if", "else")
MACROS = frozenset({"const_shape", "const_array"})  # what the rules emit: shapes, permute's dimension order
MAX_ANSWER = 16000
_FENCE = re.compile(r"```([A-Za-z0-9_+-]*)[ \t]*\n(.*?)```", re.S)
_LET = re.compile(r"^let\s+(?:mut\s+)?([a-z_][A-Za-z0-9_]*)\s*:\s*([^=]+?)\s*=(?!=)\s*(.+)$", re.S)
_TILE = re.compile(r"^Tile<\s*([A-Za-z_]\w*)\s*,\s*\{\s*\[([^\]]*)\]\s*\}\s*>$")


class Rejected(Exception):
    """The answer is malformed or hostile; the message is fed back to the model on retry."""


@dataclass(frozen=True)
class Stmt:
    name: str
    type: str
    expr: str


def parse_type(text: str):
    """``("tile", dtype, dims)`` / ``("scalar", dtype, ())`` / ``("opaque", text, ())``."""
    t = " ".join(text.split())
    m = _TILE.match(t)
    if m:
        dims = tuple(d.strip() for d in m.group(2).split(",") if d.strip())
        return ("tile", m.group(1), dims)
    if t in SCALARS:
        return ("scalar", t, ())
    return ("opaque", t, ())


def _split_statements(code: str) -> list[str]:
    out, depth, cur = [], 0, []
    for ch in code:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                raise Rejected("unbalanced brackets")
        if ch == ";" and depth == 0:
            out.append("".join(cur).strip())
            cur = []
            continue
        if ch == ";":
            raise Rejected("a ';' inside brackets: only plain `let` statements are allowed (no blocks)")
        cur.append(ch)
    if depth != 0:
        raise Rejected("unbalanced brackets")
    if "".join(cur).strip():
        raise Rejected("text after the last ';' in the rust block (every statement must end with ';')")
    return [s for s in out if s]


def vet_code(code: str) -> None:
    """Reject anything the rules would never emit for one construct."""
    if any(c in code for c in "\"'#`\\$@"):
        raise Rejected("strings, chars, attributes and escapes are not allowed in the snippet")
    if "//" in code or "/*" in code:
        raise Rejected("comments are not allowed inside the snippet")
    for w in FORBIDDEN_WORDS:
        if re.search(rf"\b{w}\b", code):
            raise Rejected(f"'{w}' is not allowed: answer with `let` statements for this one construct only")
    if re.search(r"\b(?:core|include|include_str|include_bytes|env|concat)\b", code) and \
            not re.search(r"\bcutile::core::", code):
        raise Rejected("std/core paths and include!/env! are not allowed")
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*!(?!=)", code):
        if m.group(1) not in MACROS:
            raise Rejected(f"macro '{m.group(1)}!' is not allowed (only const_shape! and const_array!)")
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*::(?!<)", code):
        if m.group(1) == "E" and re.match(r"\s*ZERO\b", code[m.end():]):
            continue  # the element type's zero (ElementType::ZERO): the identity of a scan / reduction
        if m.group(1) not in MODE_MODULES and m.group(1) not in ("cutile", "core"):
            raise Rejected(f"path '{m.group(1)}::' is not allowed (only cutile::core names and mode enums)")
    for m in re.finditer(r"(\.?)\b([A-Za-z_]\w*)\s*(?:::\s*<[^;()]*>\s*)?\(", code):
        name = m.group(2)
        if name not in ALLOWLIST:
            raise Rejected(f"call to '{name}' is outside the allowed cutile::core API")


def parse(text: str, target: str, outputs: list[str] | None = None) -> list[Stmt]:
    """The vetted statements of an answer, or Rejected with a reason. ``outputs``: the names a statement range's
    answer must define (several; the last ``let`` binds one of them), else the one ``target`` its last ``let``
    binds."""
    if not isinstance(text, str) or not text.strip():
        raise Rejected("empty answer")
    if len(text) > MAX_ANSWER:
        raise Rejected(f"answer too long ({len(text)} characters; at most {MAX_ANSWER})")
    fences = _FENCE.findall(text)
    if len(fences) != 1:
        raise Rejected(f"expected exactly one ```rust fenced block, found {len(fences)}")
    lang, code = fences[0]
    if lang not in ("rust", "rs"):
        raise Rejected("the fenced block must be tagged rust")
    outside = _FENCE.sub("", text)
    if re.search(r"[;{}]|\blet\b|\bfn\b", outside):
        raise Rejected("code outside the ```rust block: put only the construct's `let` statements in the block")
    vet_code(code)
    stmts = []
    for s in _split_statements(code):
        m = _LET.match(s)
        if not m:
            raise Rejected(f"not a `let <name>: <type> = <expr>;` statement: {' '.join(s.split())[:80]}")
        stmts.append(Stmt(m.group(1), " ".join(m.group(2).split()), " ".join(m.group(3).split())))
    if not stmts:
        raise Rejected("no `let` statement in the rust block")
    if len(stmts) > 8:
        raise Rejected("too many statements for one construct (at most 8)")
    if outputs and len(outputs) > 1:
        bound = {s.name: s for s in stmts}  # the last `let` of a name (shadowing) is its value
        missing = [n for n in outputs if n not in bound]
        if missing:
            raise Rejected(f"the rust block must bind every one of {', '.join(f'`{n}`' for n in outputs)}; "
                           f"missing: {', '.join(f'`{n}`' for n in missing)}")
        if stmts[-1].name not in outputs:
            raise Rejected(f"the last statement must bind one of {', '.join(f'`{n}`' for n in outputs)}, not "
                           f"`{stmts[-1].name}` (a value nothing reads)")
        finals = [bound[n] for n in outputs]
    else:
        if stmts[-1].name != target:
            raise Rejected(f"the last statement must bind `{target}`, not `{stmts[-1].name}`")
        finals = [stmts[-1]]
    for st in finals:
        if parse_type(st.type)[0] == "opaque":
            raise Rejected(f"`{st.name}` must be a Tile<..> or a scalar, not `{st.type}`")
    return stmts
