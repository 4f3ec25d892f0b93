"""Reading user inputs safely: kernel files (both front ends), spec files and Tile IR dumps.

Every check here runs before a parser sees the input, and every failure is one coded error:

* only regular files are read (a FIFO, a device or a directory is refused at once and never opened for a
  blocking read), and never more than a size limit;
* Python sources are decoded per PEP 263 (``tokenize.detect_encoding``: a BOM or a ``coding:`` cookie,
  else UTF-8); an undecodable file (invalid UTF-8, UTF-16, binary, an unknown or contradicting cookie)
  is ``CTRS-E105`` at the first bad byte;
* the nesting depth of the Python syntax tree is measured on CPython's own parser (``ast``, C, no
  recursion limit issues up to its own hard limits) before libcst's native parser and the recursive
  lowering run: libcst's parser and metadata passes survive about 90 nested subscripts (the deepest
  construct per syntax-tree level; 1,000 of most other constructs hit a RecursionError and 5,000 nested
  parentheses crash its native parser), so the limit is ``MAX_DEPTH`` = 64 levels, far above real
  kernels (< 30) and below every failure measured (benchmarks/fuzz.py);
* a file is at most ``MAX_BYTES`` and ``MAX_KERNELS`` kernels: translation time is linear in the input
  (libcst's visitors dominate: ~30-60 ms per kernel, ~1-3 ms per statement on the 2-core CI machine;
  benchmarks/bench_limits.py), so the limits bound one file to tens of seconds at worst.
"""

from __future__ import annotations

import ast
import io
import os
import stat
import tokenize
import warnings
from pathlib import Path

from . import errors

MAX_BYTES = 256 * 1024  # a kernel file (the largest public kernel files are ~60 KiB; 256 KiB parse in ~20 s)
MAX_KERNELS = 128  # @ct.kernel / @triton.jit functions in one file
MAX_DEPTH = 64  # syntax-tree nesting (see the module docstring)
MAX_SPEC_BYTES = 4 * 1024 * 1024
MAX_IR_BYTES = 64 * 1024 * 1024

_BOMS = {b"\xff\xfe": "UTF-16 LE", b"\xfe\xff": "UTF-16 BE"}


def read_regular(path: Path, limit: int, what: str, code_missing: str = errors.TRANSLATE_INPUT,
                 code_large: str = errors.INPUT_TOO_LARGE, code_kind: str = errors.INPUT_NOT_REGULAR) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; anything else is one coded error."""
    loc = errors.Loc(str(path))
    try:
        st = os.stat(path)
    except OSError as e:
        raise errors.CtrsError(code_missing, f"cannot read {what}: {e.strerror}", f"check the {what} path", loc) from e
    if not stat.S_ISREG(st.st_mode):
        kind = ("a directory" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
                else "a socket" if stat.S_ISSOCK(st.st_mode) else "a device" if stat.S_ISCHR(st.st_mode)
                or stat.S_ISBLK(st.st_mode) else "not a regular file")
        raise errors.CtrsError(code_kind, f"{what} is {kind}; only regular files are read",
                               f"pass the path of a {what}", loc)
    if st.st_size > limit:
        raise errors.CtrsError(code_large, f"{what} is {st.st_size} bytes, over the {limit}-byte limit",
                               "split the file", loc)
    try:  # O_NONBLOCK: a file swapped for a FIFO after the stat still cannot block the read
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise errors.CtrsError(code_kind, f"{what} is not a regular file",
                                       f"pass the path of a {what}", loc)
            data = f.read(limit + 1)
    except OSError as e:
        raise errors.CtrsError(code_missing, f"cannot read {what}: {e.strerror}", f"check the {what} path", loc) from e
    if len(data) > limit:
        raise errors.CtrsError(code_large, f"{what} is over the {limit}-byte limit", "split the file", loc)
    return data


def _line_col(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    return line, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def decode_python(data: bytes, path: Path) -> str:
    """PEP 263 decoding: BOM or coding cookie, else UTF-8; a coded error at the first bad byte."""
    loc = errors.Loc(str(path))
    for bom, name in _BOMS.items():
        if data.startswith(bom):
            raise errors.CtrsError(errors.INPUT_ENCODING, f"file is {name} (byte-order mark); Python sources are "
                                   "UTF-8 or declare an ASCII-compatible encoding (PEP 263)", "save the file as UTF-8",
                                   errors.Loc(str(path), 1, 1))
    nul = data.find(b"\0")
    if nul >= 0:
        raise errors.CtrsError(errors.INPUT_ENCODING, "binary file (NUL byte); not Python source",
                               "pass a .py kernel file", errors.Loc(str(path), *_line_col(data, nul)))
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:
        raise errors.CtrsError(errors.INPUT_ENCODING, f"bad source encoding declaration: {e.msg}",
                               "use '# -*- coding: utf-8 -*-' or no cookie (PEP 263)", loc) from None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as e:
        line, col = _line_col(data, e.start)
        raise errors.CtrsError(errors.INPUT_ENCODING,
                               f"not valid {encoding} (byte 0x{data[e.start]:02x}); the file cannot be decoded",
                               "save the file as UTF-8, or declare its encoding with a coding cookie (PEP 263)",
                               errors.Loc(str(path), line, col)) from None
    except LookupError:  # detect_encoding already refuses unknown codecs; kept for odd codec registries
        raise errors.CtrsError(errors.INPUT_ENCODING, f"unknown source encoding '{encoding}'",
                               "use a standard encoding name (PEP 263)", loc) from None


def check_python(text: str, path: Path) -> None:
    """Gate before libcst: valid Python (CPython's parser), nesting depth and kernel count within limits."""
    try:
        with warnings.catch_warnings():  # SyntaxWarning ("invalid decimal literal") would print a second line
            warnings.simplefilter("ignore")
            tree = ast.parse(text, str(path))
    except SyntaxError as e:
        msg = e.msg or "invalid syntax"
        code = errors.INPUT_TOO_DEEP if "too many" in msg and "nested" in msg or "indentation" in msg \
            and "too many" in msg else errors.TRANSLATE_INPUT
        hint = f"flatten the nesting (limit: {MAX_DEPTH} levels)" if code == errors.INPUT_TOO_DEEP else "fix the syntax"
        raise errors.CtrsError(code, f"not valid Python: {msg}" if code == errors.TRANSLATE_INPUT else msg,
                               hint, errors.Loc(str(path), e.lineno or 0, e.offset or 1)) from None
    except (RecursionError, MemoryError):  # CPython's parser stack (deep nesting without brackets)
        raise errors.CtrsError(errors.INPUT_TOO_DEEP, "source nested too deeply for Python's own parser",
                               f"flatten the nesting (limit: {MAX_DEPTH} levels)", errors.Loc(str(path))) from None
    except ValueError as e:
        raise errors.CtrsError(errors.INPUT_ENCODING, f"not Python source: {e}", "pass a .py kernel file",
                               errors.Loc(str(path))) from None
    stack: list[tuple[ast.AST, int, tuple[int, int]]] = [(tree, 1, (0, 0))]
    kernels = 0
    while stack:
        node, depth, where = stack.pop()
        if hasattr(node, "lineno"):
            where = (node.lineno, node.col_offset + 1)
        if depth > MAX_DEPTH:
            raise errors.CtrsError(errors.INPUT_TOO_DEEP, f"nesting deeper than {MAX_DEPTH} levels",
                                   "split the expression or statement into named parts",
                                   errors.Loc(str(path), *where))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.decorator_list and depth == 2:
            kernels += 1
            if kernels > MAX_KERNELS:
                raise errors.CtrsError(errors.INPUT_TOO_LARGE, f"more than {MAX_KERNELS} decorated functions in one file",
                                       "split the kernels over several files",
                                       errors.Loc(str(path), node.lineno, node.col_offset + 1))
        stack.extend((c, depth + 1, where) for c in ast.iter_child_nodes(node))


_CACHE: dict[tuple, str] = {}


def read_python(path: Path) -> str:
    """The checked text of a kernel file (either front end): regular file, size, PEP 263 decoding, syntax,
    nesting and kernel-count limits. Cached per file identity (inode, size, mtime): a translation reads
    the same file several times (front end, launch sites, error columns)."""
    path = Path(path)
    try:
        st = os.stat(path)
        key = (str(path), st.st_ino, st.st_size, st.st_mtime_ns)
    except OSError:
        key = None
    if key is not None and key in _CACHE:
        return _CACHE[key]
    text = decode_python(read_regular(path, MAX_BYTES, "kernel file"), path)
    check_python(text, path)
    if key is not None:
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = text
    return text
