"""A readable MLIR-like printer of the typed tile IR (``ctrs translate --emit model``).

One op per line: ``%results = mnemonic %operands {attrs} : result types  loc(file:line:col)``; ``for`` and
``if`` print their regions indented, each ending in ``yield``. Value names are the front end's hints made
unique per kernel (``%acc``, ``%acc_1``), so the same input prints the same text.
"""

from __future__ import annotations

from .ops import Block, Kernel, Module, Op, OpKind
from .values import Value


class _Names:
    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.taken: set[str] = set()

    def __call__(self, v: Value) -> str:
        if v.id not in self.names:
            base = v.hint or "v"
            name, n = base, 0
            while name in self.taken:
                n += 1
                name = f"{base}_{n}"
            self.taken.add(name)
            self.names[v.id] = name
        return "%" + self.names[v.id]


def _attr(v) -> str:
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(_attr(x) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _loc(op: Op) -> str:
    return f"loc({op.loc.file.rsplit('/', 1)[-1]}:{op.loc.line}:{op.loc.col})"


def _op(op: Op, names: _Names, ind: str, out: list[str]) -> None:
    res = ", ".join(names(r) for r in op.results)
    lhs = f"{res} = " if res else ""
    attrs = {k: v for k, v in sorted(op.attrs.items())}
    attr_text = (" {" + ", ".join(f"{k} = {_attr(v)}" for k, v in attrs.items()) + "}") if attrs else ""
    types = ", ".join(str(r.type) for r in op.results)
    if op.kind == OpKind.FOR:
        start, stop, step, *init = op.operands
        body = op.regions[0]
        iv, *carried = body.args
        it = ""
        if carried:
            it = " iter_args(" + ", ".join(f"{names(a)} = {names(b)}" for a, b in zip(carried, init)) + ")"
        out.append(f"{ind}{lhs}for {names(iv)} = {names(start)} to {names(stop)} step {names(step)}{it}"
                   f"{' -> (' + types + ')' if types else ''} {{  {_loc(op)}")
        _block(body, names, ind + "  ", out)
        out.append(f"{ind}}}")
        return
    if op.kind == OpKind.WHILE:
        cond, body = op.regions
        it = ", ".join(f"{names(a)} = {names(b)}" for a, b in zip(cond.args, op.operands))
        out.append(f"{ind}{lhs}while iter_args({it}){' -> (' + types + ')' if types else ''} {{  {_loc(op)}")
        _block(cond, names, ind + "  ", out)
        out.append(f"{ind}}} do ({', '.join(names(a) for a in body.args)}) {{")
        _block(body, names, ind + "  ", out)
        out.append(f"{ind}}}")
        return
    if op.kind == OpKind.IF:
        cmp = " {} {}".format(*op.attrs["test"]) if "test" in op.attrs else ""
        test = f"const {op.attrs['flag']}{cmp}" if "flag" in op.attrs else names(op.operands[0])
        out.append(f"{ind}{lhs}if {test}{' -> (' + types + ')' if types else ''} {{  {_loc(op)}")
        _block(op.regions[0], names, ind + "  ", out)
        out.append(f"{ind}}} else {{")
        _block(op.regions[1], names, ind + "  ", out)
        out.append(f"{ind}}}")
        return
    args = ", ".join(names(v) for v in op.operands)
    if op.kind == OpKind.YIELD:
        out.append(f"{ind}yield {args}" + (" : " + ", ".join(str(v.type) for v in op.operands) if args else ""))
        return
    out.append(f"{ind}{lhs}{op.kind.mnemonic}{' ' + args if args else ''}{attr_text}"
               f"{' : ' + types if types else ''}  {_loc(op)}")


def _block(block: Block, names: _Names, ind: str, out: list[str]) -> None:
    for op in block.ops:
        _op(op, names, ind, out)


def print_kernel(k: Kernel) -> str:
    names = _Names()
    gens = ", ".join(f"{g.name}: {'dtype' if g.kind == 'type' else 'const'}"
                     f"{' = ' + g.expr.python() if getattr(g, 'expr', None) is not None else ''}" for g in k.generics)
    params = ", ".join(f"{names(p.value)}: {p.value.type}" for p in k.params if p.value is not None)
    hints = (" hints {" + ", ".join(f"{a} = {b}" for a, b in sorted(k.hints.items())) + "}") if k.hints else ""
    variant = (" variant {" + ", ".join(f"{a} = {b}" for a, b in k.variant) + "}") if k.variant else ""
    out = [f"kernel @{k.name}<{gens}>({params}){hints}{variant} {{"]
    _block(k.body, names, "  ", out)
    out.append("}")
    return "\n".join(out) + "\n"


def print_module(m: Module) -> str:
    return "\n".join(print_kernel(k) for k in [*m.functions, *m.kernels])
