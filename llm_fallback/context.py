"""What the model is told about one construct, besides the construct itself (prompts/construct.j2):

* the signatures and doc comments of the cutile functions an answer may call (api.py: read from the pinned
  crate's own source, cached on first use);
* two or three examples taken from the rules (rules/ir.toml ``[math]``: rule spellings the IR-equivalence
  tests prove), each shown as the Python line and the Rust ``let`` the rules emit for it;
* the reference Tile IR ops whose debug locations fall on the construct's lines (cuTile Python's own
  compilation of the file for the first spec; for a Triton file its cuTile counterpart's lines do not
  match and none are shown);
* the surrounding kernel (the source of the top-level function holding the construct).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

EXAMPLE_RULES = ("ct.exp", "ct.sqrt", "ct.exp2")  # a plain call, rounding + ftz modes, an ftz mode


@dataclass
class Construct:
    """One construct without a rule, as any front end reports it to the fallback."""
    kernel: Path
    loc: object  # errors.Loc (file, line, col) of the construct
    end_line: int  # last source line of the construct
    code: str  # the diagnostic code it stopped at (CTRS-E100, CTRS-E124, ...)
    message: str
    python: str  # the construct's source text
    target: str  # the Rust name the answer's last `let` binds
    kind: str = "expression"  # expression | statement
    scope: list[dict] = field(default_factory=list)  # {"python", "rust", "kind", "type"}
    generics: str = "none"
    result_type: str = ""  # the Rust type the rest of the kernel expects, when the front end knows it
    outputs: tuple = ()  # a statement range: the names its answer defines (kind "statements"; target: the last)

    @property
    def key(self) -> tuple[str, int, int]:
        return (str(self.loc.file), int(self.loc.line), int(self.loc.col))


def _enclosing(kernel: Path, line: int) -> tuple[ast.FunctionDef | None, list[str]]:
    text = Path(kernel).read_text(errors="replace")
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None, []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.lineno <= line <= (node.end_lineno or node.lineno):
            return node, text.splitlines()
    return None, []


def enclosing_function(kernel: Path, line: int) -> str:
    """The name of the top-level function whose lines hold ``line`` ('' when none does)."""
    node, _ = _enclosing(kernel, line)
    return node.name if node is not None else ""


class _Unknown(Exception):
    """A condition that is not a translate-time value."""


_BIN = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
        ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b, ast.BitAnd: lambda a, b: a & b,
        ast.BitOr: lambda a, b: a | b, ast.BitXor: lambda a, b: a ^ b, ast.LShift: lambda a, b: a << b,
        ast.RShift: lambda a, b: a >> b}
_CMP = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
        ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}


def _static(node, env: dict):
    """The value of a condition on translate-time values (names in ``env``, literals, arithmetic, comparisons,
    and / or / not); _Unknown for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool)):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise _Unknown(node.id)
        return env[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        v = _static(node.operand, env)
        return (not v) if isinstance(node.op, ast.Not) else -v
    if isinstance(node, ast.BoolOp):
        vals = [_static(v, env) for v in node.values]
        return all(vals) if isinstance(node.op, ast.And) else any(vals)
    if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
        return _BIN[type(node.op)](_static(node.left, env), _static(node.right, env))
    if isinstance(node, ast.Compare) and all(type(o) in _CMP for o in node.ops):
        left, ok = _static(node.left, env), True
        for o, c in zip(node.ops, node.comparators):
            right = _static(c, env)
            ok, left = ok and _CMP[type(o)](left, right), right
        return ok
    raise _Unknown(type(node).__name__)


def _module_constants(tree: ast.Module) -> dict:
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                v = ast.literal_eval(node.value)
            except (ValueError, SyntaxError, TypeError):
                continue
            if isinstance(v, (int, float, bool)):
                out[node.targets[0].id] = v
    return out


def left_off(kernel: Path, line: int, constants: dict) -> bool:
    """Whether ``line`` of the top-level function holding it lies in the arm of an ``if`` on translate-time values
    (``constants``: a spec's ct.Constant arguments; the file's module-level number constants) that those values
    leave off, so the reference compiles none of it. An ``if`` on anything else counts as taken."""
    text = Path(kernel).read_text(errors="replace")
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return False
    env = {**_module_constants(tree), **constants}
    fn, _ = _enclosing(kernel, line)
    if fn is None:
        return False
    for node in ast.walk(fn):
        if not isinstance(node, ast.If) or not node.lineno <= line <= (node.end_lineno or node.lineno):
            continue
        in_body = any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in node.body)
        in_else = any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in node.orelse)
        try:
            taken = bool(_static(node.test, env))
        except (_Unknown, TypeError, ZeroDivisionError):
            continue
        if (in_body and not taken) or (in_else and taken):
            return True
    return False


def kernel_source(kernel: Path, line: int) -> str:
    """The top-level function (with decorators) whose lines hold ``line``; '' when none does."""
    node, lines = _enclosing(kernel, line)
    if node is None:
        return ""
    start = min([d.lineno for d in node.decorator_list] + [node.lineno])
    return "\n".join(lines[start - 1:node.end_lineno])


def examples() -> list[dict]:
    """{"python", "rust"} pairs spelled by the rules (rules/ir.toml [math]) for a tile ``x`` of ``Tile<E, {[T]}>``."""
    from ctrs.ir_rules import ir_rules  # noqa: PLC0415

    math = ir_rules()["math"]
    return [{"python": f"y = {name}(x)", "rust": f"let y: Tile<E, {{ [T] }}> = {math[name]['rust'].format(x='x')};"}
            for name in EXAMPLE_RULES if name in math]


def reference_ops(ir_text: str, kernel: Path, first: int, last: int) -> list[str]:
    """The reference Tile IR ops (text, locations dropped) whose debug location is a line in [first, last] of
    ``kernel``."""
    from ctrs.verify import irparse  # noqa: PLC0415

    try:
        mod = irparse.parse(ir_text, "reference")
    except Exception:  # noqa: BLE001 - context only: an unparsable dump gives no ops
        return []
    text_lines = ir_text.splitlines()
    out = []
    for entry in mod.entries:
        for op in entry.walk():
            where = mod.locs.get(op.loc or "")
            if op is entry or where is None or Path(where[0]).name != Path(kernel).name:
                continue
            if first <= where[1] <= last and 0 < op.line <= len(text_lines):
                t = text_lines[op.line - 1].strip()
                out.append(t.rsplit(" loc(", 1)[0])
    return out
