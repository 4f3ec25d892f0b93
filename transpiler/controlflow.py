"""Control flow for the cuTile Python front end: ``if`` on constants / runtime scalars, grid-stride
``range(a, b, step)`` loops and inlined helper functions (docs/porting.md §7).

A mixin of frontend_cutile.KernelFront; it works on the front end's state (``env``, ``block``,
``emit``, ``_expr``, ``_stmt``) and only adds model statements (``IfConst``, ``Assign``, ``For.step``).

* ``if C:`` where ``C`` is known at translate time (module constants, a flag fixed by a structural
  variant) lowers only the taken arm, like the cuTile JIT does;
* ``if FLAG:`` on a ``ct.Constant[bool]/[int]`` parameter -> ``if FLAG == 1i32 { .. } else { .. }``
  (``FLAG != 0i32`` for ints, ``FLAG == 2i32`` for ``FLAG == 2``); cutile folds an exact condition, so
  only the taken arm reaches the IR. Every name re-bound in either arm becomes one ``let mut`` assigned
  in BOTH arms (``x = x;`` in an arm that does not touch it); ``not C`` swaps the arms;
  ``A and B`` / ``A or B`` nest the ifs (``if A { if B { then } else { else } } else { else }``);
* arms that give a name different tile types (or ranks) cannot share one Rust body: the flag becomes
  STRUCTURAL and :class:`Structural` is raised; specialise.py then emits one entry per value;
* runtime conditions (``i32`` scalar comparisons) -> a runtime Rust ``if`` with the same both-arm rule.
"""

from __future__ import annotations

import re

import libcst as cst

from . import errors, model
from .cutile_base import (MAX_INLINE_DEPTH, Split, Structural, Val, _Block, _is_docstring, assigned_names,  # noqa: F401
                          compared_literals, literal_text, literal_value)

_CMP = {cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.LessThanEqual: "<=", cst.GreaterThan: ">",
        cst.GreaterThanEqual: ">="}
_PY = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
       ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
class ControlFlow:
    """Mixin: statement-level control flow and helper inlining for KernelFront."""

    # -- decisions (for --explain) ------------------------------------------------------------

    def note(self, kind: str, node_or_line, text: str) -> None:
        line = node_or_line if isinstance(node_or_line, int) else self.info.span(node_or_line).line
        book = self.__dict__.setdefault("decisions", {})
        book.setdefault((line, kind, text), None)

    # -- constant parameters ------------------------------------------------------------------

    def const_kind(self, name: str) -> str | None:
        """'bool' / 'int' for a ct.Constant parameter, 'float' for a demoted Constant[float], else None."""
        p = getattr(self, "_param_nodes", {}).get(name)
        ann = p.annotation.annotation if p is not None and p.annotation else None
        if ann is None:
            return None
        if isinstance(ann, cst.Name) and ann.value in self.info.const_aliases:
            return self.info.const_aliases[ann.value]
        if isinstance(ann, cst.Subscript) and self.info.dotted(ann.value) == "ct.Constant":
            inner = ann.slice[0].slice
            if isinstance(inner, cst.Index) and isinstance(inner.value, cst.Name):
                return inner.value.value
        return None

    def flag_values(self, flag: str) -> list[int]:
        """Values one structural variant per value is emitted for: bool -> 0, 1; int -> the literals the
        kernel compares it with, plus one more (the value standing for 'any other')."""
        if self.const_kind(flag) == "bool":
            return [0, 1]
        lits = compared_literals([self.fn.body], flag, self._static)
        if not lits:
            return [0, 1]
        return sorted(lits) + [max(lits) + 1]

    def _static(self, node) -> object | None:
        """Value of ``node`` if known at translate time (literal, module constant, fixed flag)."""

        v = literal_value(node)
        if v is not None:
            return v
        if isinstance(node, cst.Name):
            fixed = getattr(self, "fixed", {})
            if node.value in fixed:
                return fixed[node.value]
            if node.value in self.env:
                val = self.env[node.value]
                return val.value if val.kind == "literal" else None
            return self.info.consts.get(node.value)
        return None

    # -- conditions ---------------------------------------------------------------------------

    def _cond(self, node) -> tuple:
        """('const', bool) | ('flag', rust, flag) | ('rt', rust) | ('not', c) | ('and'|'or', a, b)."""
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            return ("not", self._cond(node.expression))
        if isinstance(node, cst.BooleanOperation):
            op = "and" if isinstance(node.operator, cst.And) else "or"
            return (op, self._cond(node.left), self._cond(node.right))
        s = self._static(node)
        if s is not None:
            return ("const", bool(s), self.info.module.code_for_node(node))
        if isinstance(node, cst.Name):
            kind = self.const_kind(node.value)
            others = getattr(self, "other", {})
            if node.value in others and 0 in others[node.value]:  # the "other values" entry: never 0
                return ("const", True, self.info.module.code_for_node(node))
            if kind == "bool":
                return ("flag", f"{node.value} == 1i32", node.value, "==", 1)
            if kind == "int":
                return ("flag", f"{node.value} != 0i32", node.value, "!=", 0)
            v = self._expr(node, "cond")
            if v.kind == "scalar" and v.dtype == "i32":
                return ("rt", f"{v.name} != 0i32")
            if v.kind == "scalar" and v.dtype == "bool":
                return ("rt", v.name)
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            sym = _CMP.get(type(node.comparisons[0].operator))
            left, right = node.left, node.comparisons[0].comparator
            if sym is not None:
                ls, rs = self._static(left), self._static(right)
                if ls is not None and rs is not None:
                    return ("const", bool(_PY[sym](ls, rs)), self.info.module.code_for_node(node))
                for a, b, op in ((left, right, sym), (right, left, _FLIP[sym])):
                    if (isinstance(a, cst.Name) and self.const_kind(a.value) in ("bool", "int")
                            and isinstance(self._static(b), (int, bool))):
                        v = int(self._static(b))
                        others = getattr(self, "other", {})
                        if a.value in others and op in ("==", "!=") and v in others[a.value]:
                            return ("const", op == "!=", self.info.module.code_for_node(node))
                        return ("flag", f"{a.value} {op} {v}i32", a.value, op, v)
                lt, rt = self._scalar_text(left), self._scalar_text(right)
                if lt is not None and rt is not None:
                    return ("rt", f"{lt} {sym} {rt}")
        raise self._err(node, "no rule for this if-condition",
                        "test a ct.Constant parameter, a module constant, `not`/`and`/`or` of those, "
                        "or compare i32 scalars")

    def _scalar_text(self, node) -> str | None:
        s = self._static(node)
        if isinstance(s, int) and not isinstance(s, bool):
            return f"{s}i32"
        v = self._expr(node, "cmp")
        if v.kind == "scalar" and v.dtype == "i32":
            return v.name
        return None

    @staticmethod
    def _cond_text(c: tuple) -> str:
        if c[0] == "const":
            return str(c[1])
        if c[0] in ("flag", "rt"):
            return c[1]
        if c[0] == "not":
            return f"not ({ControlFlow._cond_text(c[1])})"
        return f"({ControlFlow._cond_text(c[1])}) {c[0]} ({ControlFlow._cond_text(c[2])})"

    # -- if -------------------------------------------------------------------------------------

    def _if(self, node: cst.If) -> None:
        self.info.fallback = self.info.span(node)
        cond = self._cond(node.test)

        def arm(stmts):
            def run():
                for st in stmts:
                    self._stmt(st)
            return run

        then_body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
        orelse = node.orelse
        if orelse is None:
            else_body: tuple = ()
        elif isinstance(orelse, cst.If):  # elif
            else_body = (orelse,)
        else:
            else_body = orelse.body.body if isinstance(orelse.body, cst.IndentedBlock) else ()
        self._branch(cond, arm(then_body), arm(else_body), node, one_armed=orelse is None)

    def _branch(self, c: tuple, then_fn, else_fn, node, one_armed: bool = False) -> None:
        line = self.info.span(node).line
        if c[0] == "const":
            if not getattr(self, "_quiet", False):
                fixed = [f for f in getattr(self, "fixed", {}) if re.search(rf"\b{f}\b", c[2])]
                split = [f for f in fixed if f in getattr(self, "split", ())]
                why = (f"lowered once per value of {', '.join(split)}" if split else
                       f"fixed by the variant ({', '.join(fixed)})" if fixed else "known at translate time")
                self.note("branch", line, f"if {c[2]} -> {c[1]}, {why}: folded, {'then' if c[1] else 'else'} arm kept")
            (then_fn if c[1] else else_fn)()
        elif c[0] == "not":
            if c[1][0] == "flag" and not getattr(self, "_quiet", False):
                self.note("branch", line, f"not {c[1][2]} -> arms swapped (no unary ! on a const generic)")
            self._branch(c[1], else_fn, then_fn, node, one_armed)
        elif c[0] == "and":
            self._branch(c[1], lambda: self._branch(c[2], then_fn, else_fn, node, one_armed), else_fn, node, one_armed)
        elif c[0] == "or":
            self._branch(c[1], then_fn, lambda: self._branch(c[2], then_fn, else_fn, node, one_armed), node, one_armed)
        else:
            self._two_arms(c, then_fn, else_fn, node, one_armed)

    def _two_arms(self, c: tuple, then_fn, else_fn, node, one_armed: bool) -> None:

        flag = c[2] if c[0] == "flag" else None
        line = self.info.span(node).line
        pre_env = dict(self.env)
        outer = self.block
        arms = []
        for fn in (then_fn, else_fn):
            self.env = dict(pre_env)
            self.block = _Block()
            fn()
            arms.append((self.block.stmts, self.env))
        self.block = outer
        (t_stmts, t_env), (e_stmts, e_env) = arms
        self.env = dict(pre_env)
        rebound = []
        for name in list(t_env) + [n for n in e_env if n not in t_env]:
            tv, ev, pv = t_env.get(name), e_env.get(name), pre_env.get(name)
            if tv is pv and ev is pv:
                continue
            if tv is None or ev is None:  # bound in one arm only: local to it, unless used later
                if flag is not None and pv is None and self._used_after(name, node):
                    why = f"'{name}' is bound in one arm only and used after the if"
                    self.note("branch", line, f"if {c[1]} -> split: {why}")
                    raise Split(flag, line, why)
                continue
            if tv.kind == "literal" and ev.kind == "literal" and tv.value == ev.value:
                self.env[name] = tv
                continue
            if tv.kind not in ("tile", "scalar") or ev.kind not in ("tile", "scalar") or tv.type != ev.type:
                ta = tv.type.rust() if tv.type is not None else tv.kind
                tb = ev.type.rust() if ev.type is not None else ev.kind
                why = f"'{name}' is {ta} in one arm and {tb} in the other"
                if flag is not None:
                    self.note("branch", line, f"if {c[1]} -> structural: {why}")
                    raise Structural(flag, line, why)
                raise self._err(node, f"runtime if gives '{name}' different types: {why}",
                                "keep the dtype and shape of a re-bound tile equal in both arms", errors.TRANSLATE_TYPE)
            rebound.append((name, tv, ev, pv))
        for name, tv, ev, pv in rebound:
            var, let = self._merge_var(name, tv, pv, node)
            for stmts, v, env in ((t_stmts, tv, t_env), (e_stmts, ev, e_env)):
                self._assign_into(stmts, var, v, env, node)
            self.env[name] = Val(tv.kind, var, tv.type, tv.dtype, let=let)
        # loop-carried / outer mutables assigned in one arm only: `x = x;` in the other (rules 22, 24)
        t_as, e_as = _assigned(t_stmts), _assigned(e_stmts)
        for var in t_as + [v for v in e_as if v not in t_as]:
            for stmts, other in ((t_stmts, t_as), (e_stmts, e_as)):
                if var not in other:
                    stmts.append(model.Assign(var, self.op("value", self.ops("value"), node, x=var), self.info.span(node)))
        test = (c[2], c[3], c[4]) if flag else ()
        self.emit(model.IfConst(c[1], t_stmts, e_stmts, self.info.span(node), test=test, runtime=flag is None))
        if not getattr(self, "_quiet", False):
            names = sorted({n for n, *_ in rebound})
            how = "const-generic if (folded by the cuTile JIT)" if flag else "runtime if"
            extra = (f"; re-binds {', '.join(names)} in both arms" if names else "")
            if one_armed and names:
                extra += f" (one-armed: else arm `{'; '.join(f'{n} = {n}' for n in names)};`)"
            self.note("branch", line, f"if {c[1]} -> {how}{extra}")

    def if_expr(self, node: cst.IfExp, hint: str):
        """``a if C else b``: the statement rule on a temporary name (no tile-valued Rust ``if`` expression,
        rule 25): folded when ``C`` is static, else one ``let mut`` assigned in both arms."""
        try:
            cond = self._cond(node.test)
        except errors.CtrsError:
            raise self._err(node, "no rule for this conditional expression",
                            "test a dtype (X if A.dtype == ct.T else Y), a ct.Constant or a module constant") from None
        tmp, n = f"{hint}_sel", 0
        while tmp in self.env or tmp in self.info.consts:
            n += 1
            tmp = f"{hint}_sel{n}"

        def arm(expr):
            def run():
                self.env[tmp] = self._expr(expr, hint)
            return run

        self._branch(cond, arm(node.body), arm(node.orelse), node)
        return self.env.pop(tmp)

    def _used_after(self, name: str, node) -> bool:
        """Whether the kernel body reads ``name`` below this statement (kernel scope only)."""
        if self.__dict__.get("_inline_depth", 0):
            return False
        end = self.info.positions[node].end.line if node in self.info.positions else self.info.span(node).line
        found = []
        positions = self.info.positions

        class V(cst.CSTVisitor):
            def visit_Name(self, n: cst.Name) -> None:
                if n.value == name and n in positions and positions[n].start.line > end:
                    found.append(n)

        self.fn.body.visit(V())
        return bool(found)

    def _merge_var(self, name, tv, pv, node):
        """The mutable Rust variable both arms assign ``name`` to (declared before the if)."""
        aliased = any(n != name and getattr(v, "name", None) == pv.name for n, v in self.env.items()) \
            if pv is not None else False  # `w = t; if C: t = ..` must not change w
        if pv is not None and pv.kind in ("tile", "scalar") and pv.let is not None and pv.type == tv.type \
                and not aliased and any(s is pv.let for s in _walk(self.block.stmts)):
            pv.let.mutable = True
            return pv.name, pv.let
        init = None
        if pv is not None and pv.kind in ("tile", "scalar") and pv.type == tv.type:
            init = self.op("value", self.ops("value"), node, x=pv.name)
        else:
            for v in reversed(list(self.env.values())):
                if v.kind in ("tile", "scalar") and v.type == tv.type:
                    init = self.op("value", self.ops("value"), node, x=v.name)
                    break
        if init is None:
            init = self._zero(tv, node)
        var = self.fresh(name)
        let = model.Let(var, tv.type, init, self.info.span(node), True)
        self.emit(let)
        return var, let

    def _zero(self, v, node) -> model.Op:

        if v.dtype == "E" and v.kind == "tile":  # a placeholder both arms overwrite (dead once cutile folds the if)
            return self.op("constant", self.ops("constant"), node, value="E::ZERO", shape=", ".join(v.type.shape))
        if v.dtype in ("E",) or not v.dtype:
            raise self._err(node, f"cannot declare '{v.name}' before the if: no value of type {v.type.rust()} in scope",
                            "bind the name before the if", errors.TRANSLATE_TYPE)
        if v.kind == "scalar":
            return self.op("value", self.ops("value"), node, x=literal_text(0, v.dtype))
        return self.op("constant", self.ops("constant"), node, value=literal_text(0, v.dtype), shape=", ".join(v.type.shape))

    def _assign_into(self, stmts: list, var: str, v, env, node) -> None:
        last = stmts[-1] if stmts else None
        others = [n for n, o in env.items() if o is not v and getattr(o, "name", None) == v.name]
        if isinstance(last, model.Let) and last.name == v.name and not others and not _uses(stmts[:-1], v.name):
            stmts[-1] = model.Assign(var, last.op, last.span)
            return
        stmts.append(model.Assign(var, self.op("value", self.ops("value"), node, x=v.name), self.info.span(node)))

    # -- loops ----------------------------------------------------------------------------------

    def range_step(self, args) -> str:
        """Rust text of a ``range(a, b, step)`` step (a positive runtime or literal i32)."""
        s = self._static(args[2].value)
        if isinstance(s, int) and not isinstance(s, bool):
            if s <= 0:
                raise self._err(args[2].value, "range step must be positive", "count upwards", errors.TRANSLATE_TYPE)
            return f"{s}i32"
        v = self._expr(args[2].value, "step")
        if v.kind == "scalar" and v.dtype == "i32":
            return v.name
        return self._index_text(args[2].value)

    # -- helpers ----------------------------------------------------------------------------------

    def is_helper(self, node: cst.Call) -> bool:
        return isinstance(node.func, cst.Name) and node.func.value in getattr(self.info, "helpers", {}) \
            and node.func.value not in self.env

    def inline_helper(self, node: cst.Call, hint: str):
        """Inline a module-level plain ``def`` (the cuTile JIT inlines every call): bind the argument
        values to its parameters, lower its body in a fresh scope, return the value of its final
        ``return``."""
        fn = self.info.helpers[node.func.value]
        depth = self.__dict__.get("_inline_depth", 0)
        if depth >= MAX_INLINE_DEPTH:
            raise self._err(node, f"helper '{fn.name.value}' recurses", "cuTile kernels cannot recurse")
        ps = fn.params
        if ps.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or ps.star_kwarg or ps.kwonly_params or ps.posonly_params:
            raise self._err(fn.params, "only plain positional helper parameters are supported", "drop *args/**kwargs")
        names = [p.name.value for p in ps.params]
        scope = {}
        for i, a in enumerate(node.args):
            if a.star:
                raise self._err(a, "no rule for *args in a helper call", "pass arguments explicitly")
            key = a.keyword.value if a.keyword is not None else (names[i] if i < len(names) else None)
            if key not in names:
                raise self._err(a, f"helper '{fn.name.value}' has no parameter for this argument", "match its signature")
            scope[key] = self._expr(a.value, key)
        for p in ps.params:
            if p.name.value not in scope:
                if p.default is None:
                    raise self._err(node, f"missing argument '{p.name.value}' to helper '{fn.name.value}'", "pass it")
                scope[p.name.value] = self._expr(p.default, p.name.value)
        body = list(fn.body.body) if isinstance(fn.body, cst.IndentedBlock) else []
        static = {n: self._literal_node(v) for n, v in scope.items() if v.kind == "literal"}
        static = {n: v for n, v in static.items() if v is not None and n not in assigned_names(fn.body, loop_targets=True)}
        if static:  # literal arguments are substituted, so axis=/shape=/flags see literals (like the JIT)
            body = [st.visit(_Substitute(static)) for st in body]
        saved_env, saved_nodes = self.env, self._param_nodes
        self.env = scope
        self._param_nodes = {}  # the helper's own names are not kernel parameters
        self._inline_depth = depth + 1
        self.note("inline", node, f"helper {fn.name.value}() (line {self.info.span(fn).line}) inlined")
        try:
            result = None
            for i, st in enumerate(body):
                if i == 0 and _is_docstring(st):
                    continue
                ret = _return_of(st)
                if ret is not None:
                    if i != len(body) - 1:
                        raise self._err(st, "only a final 'return' is supported in a helper", "return once, at the end")
                    result = self._expr(ret.value, hint) if ret.value is not None else None
                    continue
                if _has_return(st):
                    raise self._err(st, "no rule for a 'return' inside control flow in a helper",
                                    "compute the value, then return once at the end")
                self._stmt(st)
        finally:
            self.env, self._param_nodes, self._inline_depth = saved_env, saved_nodes, depth
        if result is None:

            return Val("literal", value=None)
        return result


    @staticmethod
    def _literal_node(v) -> cst.BaseExpression | None:
        x = v.value
        if isinstance(x, bool):
            return cst.Name("True" if x else "False")
        if isinstance(x, int):
            return cst.Integer(str(x)) if x >= 0 else cst.UnaryOperation(cst.Minus(), cst.Integer(str(-x)))
        if isinstance(x, float) and x == x and abs(x) != float("inf"):
            return cst.Float(repr(x)) if x >= 0 else cst.UnaryOperation(cst.Minus(), cst.Float(repr(-x)))
        return None


class _Substitute(cst.CSTTransformer):
    def __init__(self, values: dict[str, cst.BaseExpression]):
        self.values = values

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        return self.values.get(original.value, updated)

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(attr=original.attr)  # x.attr: never replace the attribute name

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)


def _return_of(st) -> cst.Return | None:
    if isinstance(st, cst.SimpleStatementLine) and len(st.body) == 1 and isinstance(st.body[0], cst.Return):
        return st.body[0]
    return None


def _has_return(st) -> bool:
    found = []

    class V(cst.CSTVisitor):
        def visit_Return(self, node) -> None:
            found.append(node)

    st.visit(V())
    return bool(found)


_walk = model.walk


def _assigned(stmts) -> list[str]:
    """Variables declared outside ``stmts`` that ``stmts`` assign (in order, recursively)."""
    local = {s.name for s in _walk(stmts) if isinstance(s, model.Let)}
    out: list[str] = []
    for s in _walk(stmts):
        if isinstance(s, model.Assign) and s.name not in local and s.name not in out:
            out.append(s.name)
    return out


def _uses(stmts, name: str) -> bool:
    import re  # noqa: PLC0415

    pat = re.compile(rf"\b{re.escape(name)}\b")
    for s in _walk(stmts):
        if isinstance(s, (model.Let, model.Assign)) and any(pat.search(v) for _, v in s.op.operands):
            return True
        if isinstance(s, model.For) and (pat.search(s.start) or pat.search(s.stop)):
            return True
    return False
