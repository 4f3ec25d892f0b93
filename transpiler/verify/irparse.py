"""Parse Tile IR text (grammars/tileir.lark) into a small op tree with operands, attributes and locations."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

import lark

from .. import errors, paths

GRAMMAR = paths.data("grammars", "tileir.lark")


@dataclass
class Op:
    name: str
    results: list[str]
    uses: list[str]  # operand values, in textual order (token operands included)
    defs: list[str]  # values defined inside the op (region args, loop index, iter args)
    sig: str  # the op text with every value replaced by a placeholder, locations removed
    regions: list[list["Op"]] = field(default_factory=list)
    loc: str | None = None  # "#locN"
    line: int = 0  # line in the IR text
    token_uses: list[int] = field(default_factory=list)  # positions in ``uses`` that are `token = %x`

    def walk(self):
        yield self
        for r in self.regions:
            for op in r:
                yield from op.walk()


@dataclass
class Module:
    entries: list[Op]
    locs: dict[str, tuple[str, int, int]]  # "#locN" -> (file, line, col)


@functools.cache
def _parser() -> lark.Lark:
    return lark.Lark(GRAMMAR.read_text(), parser="lalr", propagate_positions=True, maybe_placeholders=False)


_REGION_HEADER = re.compile(r"^\s*\(%.*\)\s*\{\s*$")


def _preprocess(text: str) -> str:
    """Join region-argument lines ``(%a: t, %b: t) {`` onto the op line they belong to."""
    out: list[str] = []
    for line in text.splitlines():
        if _REGION_HEADER.match(line) and out:
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out) + "\n"


class _Builder:
    """Turns the generic parse tree into Ops."""

    def op(self, tree: lark.Tree) -> Op:
        results: list[str] = []
        children = list(tree.children)
        if children and isinstance(children[0], lark.Tree) and children[0].data == "results":
            for r in children.pop(0).children:
                tok = r.children[0]
                if r.data == "value_result":
                    n = int(r.children[1]) if len(r.children) > 1 else 1
                    results.extend([str(tok)] if n == 1 else [f"{tok}#{i}" for i in range(n)])
                else:
                    results.append(str(tok))
        name = str(children.pop(0).children[0])
        uses: list[str] = []
        defs: list[str] = []
        regions: list[list[Op]] = []
        token_uses: list[int] = []
        sig_parts: list[str] = [name]
        loc: list[str | None] = [None]

        def unwrap(items: list) -> list:
            return [it.children[0] if isinstance(it, lark.Tree) and it.data == "value" else it for it in items]

        # An explicit stack, not recursion: a type may nest thousands of levels (tile<tile<...>>).
        # Frame: [items, next index, in_header, closer to append when the group ends].
        stack: list[list] = [[unwrap(children), 0, False, None]]
        while stack:
            frame = stack[-1]
            items, i, in_header, closer_of_frame = frame
            if i >= len(items):
                stack.pop()
                if closer_of_frame is not None:
                    sig_parts.append(closer_of_frame)
                continue
            frame[1] = i + 1
            it = items[i]
            nxt = items[i + 1] if i + 1 < len(items) else None
            if isinstance(it, lark.Token):
                if it.type == "VALUE":
                    if nxt is not None and isinstance(nxt, lark.Tree) and nxt.data == "eq" and not in_header:
                        defs.append(str(it))
                        sig_parts.append("%def")
                    elif in_header or (nxt is not None and isinstance(nxt, lark.Tree) and nxt.data == "atom"
                                       and str(nxt.children[0]) == "in"):
                        defs.append(str(it))
                        sig_parts.append("%def")
                    else:
                        prev = items[i - 1] if i > 0 else None
                        prev2 = items[i - 2] if i > 1 else None
                        if (isinstance(prev, lark.Tree) and prev.data == "eq" and isinstance(prev2, lark.Tree)
                                and prev2.data == "atom" and str(prev2.children[0]) == "token"):
                            token_uses.append(len(uses))
                        uses.append(str(it))
                        sig_parts.append("%")
                continue
            kind = it.data
            if kind in ("value", "atom", "string", "symbol", "locref", "eq", "comma", "colon", "arrow"):
                if kind == "atom" and str(it.children[0]) == "loc" and isinstance(nxt, lark.Tree) \
                        and nxt.data == "paren":
                    refs = [c for c in nxt.children if isinstance(c, lark.Tree) and c.data == "locref"]
                    if refs:
                        loc[0] = str(refs[0].children[0])
                    items[i + 1] = lark.Tree("skip", [])
                    continue
                tok = {"eq": "=", "comma": ",", "colon": ":", "arrow": "->"}.get(kind)
                sig_parts.append(tok if tok else str(it.children[0]))
            elif kind == "skip":
                continue
            elif kind == "region":
                regions.append([self.op(c) for c in it.children if isinstance(c, lark.Tree) and c.data == "op"])
                sig_parts.append("{R}")
            else:
                opener, closer = {"angle": ("<", ">"), "square": ("[", "]"), "paren": ("(", ")"),
                                  "dict": ("{", "}")}[kind]
                header = kind == "paren" and isinstance(nxt, lark.Tree) and nxt.data == "region" and \
                    any(isinstance(c, lark.Tree) and c.data == "value" for c in it.children)
                # entry signatures `entry @f(%a: t, ...)` also declare values
                header = header or (kind == "paren" and name == "entry")
                sig_parts.append(opener)
                stack.append([unwrap(list(it.children)), 0, in_header or header, closer])

        sig = " ".join(sig_parts)
        if name != "entry":
            sig = _norm_op_hints(sig)
        line = tree.meta.line if hasattr(tree, "meta") and not tree.meta.empty else 0
        return Op(name, results, uses, defs, sig, regions, loc[0], line, token_uses)


# Per-op optimization hints (not the entry's): an empty ``<default = {}>`` (cuTile Python writes it for an
# explicit ``allow_tma=True``) is no hint, and cutile, compiling for one target, files an op's hints under
# ``sm_NN`` where cuTile Python's target-free export writes ``default``: the same hint for that target.
_OP_HINTS_EMPTY = re.compile(r" optimization_hints = < default = \{ \} >")
_OP_HINTS_ARCH = re.compile(r"optimization_hints = < sm_\d+ = ")


def _norm_op_hints(sig: str) -> str:
    return _OP_HINTS_ARCH.sub("optimization_hints = < default = ", _OP_HINTS_EMPTY.sub("", sig))


_LOC_FILE = re.compile(r'^(#\w+)\s*=\s*loc\("([^"]*)":(\d+):(\d+)\)')
_LOC_DI = re.compile(r"^(#\w+)\s*=\s*#cuda_tile\.di_loc<(#\w+) in")
_LOC_CALL = re.compile(r"^(#\w+)\s*=\s*loc\(callsite\((#\w+) at")
_LOC_ALIAS = re.compile(r"^(#\w+)\s*=\s*loc\((#\w+)\)")


def _resolve_locs(text: str) -> dict[str, tuple[str, int, int]]:
    direct: dict[str, tuple[str, int, int]] = {}
    alias: dict[str, str] = {}
    for line in text.splitlines():
        if not line.startswith("#"):
            continue
        if m := _LOC_FILE.match(line):
            direct[m.group(1)] = (m.group(2), int(m.group(3)), int(m.group(4)))
        elif m := (_LOC_DI.match(line) or _LOC_CALL.match(line) or _LOC_ALIAS.match(line)):
            alias[m.group(1)] = m.group(2)
    out = dict(direct)
    for k in alias:
        seen, cur = set(), k
        while cur in alias and cur not in seen:
            seen.add(cur)
            cur = alias[cur]
        if cur in direct:
            out[k] = direct[cur]
    return out


def parse(text: str, origin: str = "<ir>") -> Module:
    if not text.strip():
        raise errors.CtrsError(errors.IR_PARSE, "empty Tile IR text", "pass the output of ir-ref / ir-rs",
                               errors.Loc(origin))
    try:
        tree = _parser().parse(_preprocess(text))
    except lark.exceptions.UnexpectedInput as e:
        line = getattr(e, "line", 0) or 0
        col = getattr(e, "column", 0) or 0
        what = "unexpected end of input (truncated?)" if isinstance(e, lark.exceptions.UnexpectedEOF) or (
            isinstance(e, lark.exceptions.UnexpectedToken) and e.token.type == "$END") else "unexpected input"
        raise errors.CtrsError(errors.IR_PARSE, f"cannot parse Tile IR: {what}",
                               "regenerate the dump with ir-ref / ir-rs (tileirdisasm output)",
                               errors.Loc(origin, line, col)) from e
    b = _Builder()
    try:
        top = [b.op(c) for c in tree.children if isinstance(c, lark.Tree) and c.data == "op"]
    except RecursionError:  # regions nested thousands deep (types are handled without recursion)
        raise errors.CtrsError(errors.IR_PARSE, f"regions nested deeper than the parser handles (limit "
                               f"{MAX_REGION_DEPTH})", "pass the output of ir-ref / ir-rs", errors.Loc(origin)) from None
    entries = []
    for t in top:
        _check_depth(t, origin)
        entries += [op for op in t.walk() if op.name == "entry"]
    if not entries:
        raise errors.CtrsError(errors.IR_PARSE, "no 'entry' function in the Tile IR",
                               "pass the output of ir-ref / ir-rs (tileirdisasm text)", errors.Loc(origin))
    for e in entries:
        _check_well_formed(e, origin)
    return Module(entries, _resolve_locs(text))


# ---------------------------------------------------------------------------------------------- well-formedness

MAX_REGION_DEPTH = 64  # nested regions (loops / ifs); real kernels nest < 10

# Ops whose operands and result all have the one type written after ``:`` (the elementwise arithmetic the
# diff compares); an operand defined with another type is ill-formed IR.
SAME_TYPE_OPS = {"addf", "subf", "mulf", "divf", "remf", "maxf", "minf", "negf", "absf", "fma", "addi", "subi",
                 "muli", "divi", "remi", "maxi", "mini", "negi", "absi", "andi", "ori", "xori", "shli", "shri",
                 "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "tanh", "sin", "cos", "floor", "ceil", "pow"}


def _short(t: str) -> str:
    t = t.replace(" ", "")
    return t if len(t) <= 60 else t[:57] + "..."


def _check_depth(top: Op, origin: str) -> None:
    stack = [(top, 0)]
    while stack:
        op, depth = stack.pop()
        if depth > MAX_REGION_DEPTH:
            raise errors.CtrsError(errors.IR_PARSE, f"regions nested deeper than {MAX_REGION_DEPTH}",
                                   "pass the output of ir-ref / ir-rs", errors.Loc(origin, op.line, 1))
        stack.extend((o, depth + 1) for r in op.regions for o in r)


def _delta(tok: str) -> int:
    """Bracket depth change of one signature token (``->`` is an arrow, not a closing ``>``)."""
    if tok == "->":
        return 0
    return tok.count("<") + tok.count("(") + tok.count("[") + tok.count("{") \
        - tok.count(">") - tok.count(")") - tok.count("]") - tok.count("}")


def _types_of(sig: str) -> tuple[list[str], list[str]]:
    """(operand-side types, result types) written after the op's ``:`` (``a, b -> c`` or one type for all)."""
    toks = (sig.rsplit(" {R}", 1)[0] if sig.endswith("{R}") else sig).split(" ")
    depth, colon = 0, -1
    for i, tok in enumerate(toks):  # the last ``:`` outside brackets (``constant <f32: 1.0> : tile<f32>``)
        if tok == ":" and depth == 0:
            colon = i
        depth += _delta(tok)
    if colon < 0:
        return [], []
    depth = 0
    for tok in toks[colon + 1:]:  # a region header ``(%a: t, ...)`` after the types: types unknown, no check
        if depth == 0 and tok.startswith(("(", "{")):
            return [], []
        depth += _delta(tok)
    tail = " ".join(toks[colon + 1:])
    lhs, arrow, rhs = tail.partition(" -> ")

    return split_top(lhs), split_top(rhs) if arrow else split_top(lhs)


def split_top(text: str) -> list[str]:
    """Split a space-separated signature on its top-level ``,`` (not inside brackets)."""
    out, depth, cur = [], 0, []
    for tok in text.split(" "):
        depth += _delta(tok)
        if tok == "," and depth == 0:
            out.append(" ".join(cur))
            cur = []
        else:
            cur.append(tok)
    if cur:
        out.append(" ".join(cur))
    return [t for t in out if t]


def _check_well_formed(entry: Op, origin: str) -> None:
    """Every used value is defined before, in an enclosing scope (SSA dominance, textually); the operands of
    elementwise ops have the op's type. Iterative: deep IR is not a recursion problem."""
    types: dict[str, str] = {}
    arg_types = re.findall(r"%def : (.*?)(?= , %def| \))", entry.sig.split("(", 1)[1] if "(" in entry.sig else "")
    for a, t in zip(entry.defs, arg_types):
        types[a] = t.strip()
    # (ops of one block, index, visible values)
    stack: list[tuple[list[Op], int, set[str]]] = [(r, 0, set(entry.defs)) for r in reversed(entry.regions)]
    while stack:
        ops, i, scope = stack.pop()
        if i >= len(ops):
            continue
        op = ops[i]
        stack.append((ops, i + 1, scope))
        for u in op.uses:
            if u not in scope:
                raise errors.CtrsError(errors.IR_PARSE, f"use of undefined value {u} in '{op.name}'",
                                       "the IR is ill-formed: regenerate it with ir-ref / ir-rs",
                                       errors.Loc(origin, op.line, 1))
        ins, outs = _types_of(op.sig)
        if op.name in SAME_TYPE_OPS and len(set(ins)) == 1 and not any(i in op.token_uses for i in range(len(op.uses))):
            want = ins[0]
            for u in op.uses:
                if u in types and types[u] != want:
                    raise errors.CtrsError(errors.IR_PARSE, f"type mismatch in '{op.name}': operand {u} is "
                                           f"{_short(types[u])}, the op is {_short(want)}",
                                           "the IR is ill-formed: regenerate it with ir-ref / ir-rs",
                                           errors.Loc(origin, op.line, 1))
        for r in op.results:  # a name reused in a sibling region (the printer numbers per region) is a new value
            types.pop(r, None)
        if len(outs) == len(op.results):
            for r, t in zip(op.results, outs):
                types[r] = t
        inner = scope | set(op.defs)
        for r in reversed(op.regions):
            stack.append((r, 0, inner))
        scope.update(op.results)
