"""Mine a kernel file's own launch code for the specialisations a port must be verified at.

Two sources, both read statically with libcst (nothing is imported or run):

* ``ct.launch(stream, grid, kernel, (args...))`` calls: the kernel's name, the grid expression text and,
  for each ``ct.Constant`` parameter, its value when the argument is a literal or a module-level
  constant (``TILE = 128`` at module level, simple arithmetic on those folds too);
* module-level autotune-style config lists: ``CONFIGS = [dict(TILE=128), {"TILE": 256}, ...]`` (also
  ``ct.Config(...)`` / ``SimpleNamespace(...)`` items), attributed to every kernel whose constant
  names cover the config's keys that are constants.

The result is plain, sorted data for analysis.json: ``launches``, ``configs`` and ``specialisations``
(``{"kernel", "origin", "line", "constants", "complete", "missing"}``). Specialisations carry no
shapes; ``ctrs check`` takes those from a spec file next to the kernel.
"""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

_LAUNCH_NAMES = {"ct.launch", "cuda.tile.launch", "launch"}
_CONFIG_CALLS = {"dict", "ct.Config", "Config", "SimpleNamespace", "types.SimpleNamespace"}


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr.value}" if base else ""
    return ""


class _Eval:
    """Fold literals, module constants and + - * // % ** on them; None when not static."""

    def __init__(self, env: dict[str, object]):
        self.env = env

    def __call__(self, node: cst.BaseExpression):
        if isinstance(node, cst.Name):
            if node.value in ("True", "False"):
                return node.value == "True"
            return self.env.get(node.value)
        if isinstance(node, (cst.Integer, cst.Float)):
            return ast.literal_eval(node.value)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            v = self(node.expression)
            return -v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
        if isinstance(node, cst.BinaryOperation):
            a, b = self(node.left), self(node.right)
            if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
                return None
            ops = {cst.Add: lambda: a + b, cst.Subtract: lambda: a - b, cst.Multiply: lambda: a * b,
                   cst.FloorDivide: lambda: a // b if b else None, cst.Modulo: lambda: a % b if b else None,
                   cst.Power: lambda: a ** b if abs(b) < 64 else None}
            fn = ops.get(type(node.operator))
            return fn() if fn else None
        return None


def _kernels(module: cst.Module) -> dict[str, list[tuple[str, bool]]]:
    """@ct.kernel functions at module level -> [(param name, is ct.Constant)] in order."""
    out: dict[str, list[tuple[str, bool]]] = {}
    aliases: set[str] = set()
    for stmt in module.body:  # ConstInt = ct.Constant[int]
        if isinstance(stmt, cst.SimpleStatementLine):
            for s in stmt.body:
                if (isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name)
                        and isinstance(s.value, cst.Subscript) and _dotted(s.value.value).endswith("Constant")):
                    aliases.add(s.targets[0].target.value)
    for stmt in module.body:
        if not isinstance(stmt, cst.FunctionDef):
            continue
        decos = [_dotted(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator)
                 for d in stmt.decorators]
        if not any(d in ("ct.kernel", "kernel", "cuda.tile.kernel") for d in decos):
            continue
        params = []
        for p in stmt.params.params:
            ann = p.annotation.annotation if p.annotation else None
            is_const = False
            if ann is not None:
                base = ann.value if isinstance(ann, cst.Subscript) else ann
                name = _dotted(base)
                is_const = name.endswith("Constant") or name in aliases
            params.append((p.name.value, is_const))
        out[stmt.name.value] = params
    return out


def _module_constants(module: cst.Module) -> dict[str, object]:
    env: dict[str, object] = {}
    ev = _Eval(env)
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for s in stmt.body:
                if isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name):
                    v = ev(s.value)
                    if v is not None:
                        env[s.targets[0].target.value] = v
                elif isinstance(s, cst.AnnAssign) and isinstance(s.target, cst.Name) and s.value is not None:
                    v = ev(s.value)
                    if v is not None:
                        env[s.target.value] = v
    return env


def _config_item(node: cst.BaseExpression, ev: _Eval) -> dict[str, object] | None:
    if isinstance(node, cst.Call) and _dotted(node.func) in _CONFIG_CALLS:
        out = {}
        for a in node.args:
            if a.keyword is None:
                return None
            v = ev(a.value)
            if v is None:
                return None
            out[a.keyword.value] = v
        return out
    if isinstance(node, cst.Dict):
        out = {}
        for el in node.elements:
            if not isinstance(el, cst.DictElement) or not isinstance(el.key, cst.SimpleString):
                return None
            v = ev(el.value)
            if v is None:
                return None
            out[ast.literal_eval(el.key.value)] = v
        return out
    return None


class _LaunchVisitor(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, module: cst.Module):
        super().__init__()
        self.module = module
        self.calls: list[tuple[cst.Call, int, cst.FunctionDef | None]] = []
        self.funcs: list[cst.FunctionDef] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.funcs.append(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.funcs.pop()

    def visit_Call(self, node: cst.Call) -> None:
        if _dotted(node.func) in _LAUNCH_NAMES:
            self.calls.append((node, self.get_metadata(PositionProvider, node).start.line,
                               self.funcs[-1] if self.funcs else None))


class _Locals(cst.CSTVisitor):
    """Names assigned exactly once (``name = expr``) in one function, and every Name it reads."""

    def __init__(self):
        super().__init__()
        self.assigned: dict[str, list[cst.BaseExpression]] = {}
        self.used: set[str] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                self.assigned.setdefault(t.target.value, []).append(node.value)

    def visit_Name(self, node: cst.Name) -> None:
        self.used.add(node.value)


def _locals(fn: cst.FunctionDef | None) -> _Locals:
    lv = _Locals()
    if fn is not None:
        fn.body.visit(lv)
    return lv


def _resolve(node: cst.BaseExpression, lv: _Locals, depth: int = 0) -> cst.BaseExpression:
    """Follow a local name assigned once in the launching function to its expression."""
    while isinstance(node, cst.Name) and len(lv.assigned.get(node.value, [])) == 1 and depth < 8:
        node = lv.assigned[node.value][0]
        depth += 1
    return node


def mine_source(text: str, origin: str = "<kernel>") -> dict:
    """Launch sites, config lists and specialisations of one kernel file (plain sorted data)."""
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError:
        return {"launches": [], "configs": [], "specialisations": [], "kernels": {}}
    kernels = _kernels(module)
    env = _module_constants(module)
    ev = _Eval(env)
    wrapper = MetadataWrapper(module)
    visitor = _LaunchVisitor(wrapper.module)
    wrapper.visit(visitor)
    code = wrapper.module.code_for_node

    launches: list[dict] = []
    specs: list[dict] = []
    used_by: dict[str, set[str]] = {}  # module name -> kernels launched from functions that read it
    for call, line, fn in visitor.calls:
        args = [a for a in call.args if a.keyword is None]
        if len(args) < 4:
            continue
        kname = _dotted(args[2].value).rsplit(".", 1)[-1]
        if kname not in kernels:
            continue
        lv = _locals(fn)
        for n in lv.used:
            used_by.setdefault(n, set()).add(kname)
        grid = " ".join(code(_resolve(args[1].value, lv)).split())
        launch = {"kernel": kname, "line": line, "grid": grid, "args": []}
        values = args[3].value
        items = list(values.elements) if isinstance(values, (cst.Tuple, cst.List)) else []
        consts: dict[str, object] = {}
        missing: list[str] = []
        for (pname, is_const), el in zip(kernels[kname], items):
            text_ = " ".join(code(el.value).split())
            launch["args"].append({"param": pname, "expr": text_})
            if is_const:
                v = ev(_resolve(el.value, lv))
                if v is None:
                    missing.append(pname)
                else:
                    consts[pname] = v
        launches.append(launch)
        specs.append({"kernel": kname, "origin": f"launch:{line}", "line": line, "constants": consts,
                      "complete": not missing, "missing": missing, "grid": grid,
                      "function": fn.name.value if fn is not None else ""})

    configs: list[dict] = []
    positions = wrapper.resolve(PositionProvider)
    for stmt in wrapper.module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for s in stmt.body:
            target = value = None
            if isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name):
                target, value = s.targets[0].target.value, s.value
            elif isinstance(s, cst.AnnAssign) and isinstance(s.target, cst.Name) and s.value is not None:
                target, value = s.target.value, s.value
            if target is None or not isinstance(value, (cst.List, cst.Tuple)) or not value.elements:
                continue
            items = [_config_item(el.value, ev) for el in value.elements]
            if any(i is None or not i for i in items):
                continue
            line = positions[stmt].start.line
            configs.append({"name": target, "line": line, "items": items})
            users = used_by.get(target)  # read by launch code: only the kernels it launches
            for kname, params in sorted(kernels.items()):
                if users and kname not in users:
                    continue
                cnames = [p for p, c in params if c]
                for i, item in enumerate(items):
                    keys = [k for k in item if k in cnames]
                    if not keys:
                        continue
                    consts = {k: item[k] for k in keys}
                    missing = [c for c in cnames if c not in consts]
                    specs.append({"kernel": kname, "origin": f"config:{target}[{i}]", "line": line,
                                  "constants": consts, "complete": not missing, "missing": missing, "grid": ""})
    specs.sort(key=lambda s: (s["kernel"], s["line"], s["origin"]))
    # identical constant sets from several places: keep the first, note the others
    seen: dict[tuple, dict] = {}
    uniq = []
    for s in specs:
        key = (s["kernel"], tuple(sorted(s["constants"].items())))
        if key in seen:
            seen[key].setdefault("also", []).append(s["origin"])
            continue
        seen[key] = s
        uniq.append(s)
    for s in uniq:
        s["name"] = "site_" + "_".join(f"{k}{_fmt(v)}" for k, v in sorted(s["constants"].items())) if s["constants"] \
            else f"site_{s['origin'].replace(':', '').replace('[', '_').replace(']', '')}"
    return {"launches": launches, "configs": configs, "specialisations": uniq,
            "kernels": {k: [[p, c] for p, c in v] for k, v in sorted(kernels.items())}}


def _fmt(v: object) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(v).replace("-", "m").replace(".", "p")


def mine_file(path: Path) -> dict:
    from .. import source  # noqa: PLC0415

    return mine_source(source.read_python(Path(path)), str(path))
