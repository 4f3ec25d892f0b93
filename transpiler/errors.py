"""Diagnostics: every user-facing error carries a stable code, a location and a fix hint."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Loc:
    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col or 1}"
        return self.file


def loc_in_traceback(exc: BaseException, path) -> Loc:
    """Where user code in ``path`` raised ``exc`` (its innermost frame in that file), else the file."""
    import traceback  # noqa: PLC0415

    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == str(path)]
    return Loc(str(path), frames[-1].lineno or 0, (frames[-1].colno or 0) + 1) if frames else Loc(str(path))


class CtrsError(Exception):
    """A user-facing failure: one line, a stable code, a hint; the CLI exits non-zero."""

    def __init__(self, code: str, message: str, hint: str = "", loc: Loc | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.loc = loc

    def one_line(self) -> str:
        where = f"{self.loc}: " if self.loc else ""
        hint = f" (hint: {self.hint})" if self.hint else ""
        return f"{where}error[{self.code}]: {self.message}{hint}"


# Stable codes. Never renumber: tests and users grep for them.
TOOLCHAIN_MISSING = "CTRS-E001"
SPEC_INVALID = "CTRS-E010"
KERNEL_NOT_FOUND = "CTRS-E011"
KERNEL_IMPORT = "CTRS-E012"
REF_COMPILE = "CTRS-E013"
# Specs: two different specialisations under one name; ctrs specs: the --call expression / host code failed,
# it launched nothing; the reference module extracted from a kernel file does not load.
SPEC_DUPLICATE = "CTRS-E014"
CAPTURE_CALL = "CTRS-E015"
CAPTURE_NO_LAUNCH = "CTRS-E016"
CAPTURE_UNSUPPORTED = "CTRS-E017"
REF_EXTRACT = "CTRS-E018"
RS_BUILD = "CTRS-E020"
RS_COMPILE = "CTRS-E021"
RS_ENTRY_NOT_FOUND = "CTRS-E022"
IR_PARSE = "CTRS-E030"
IR_INPUT = "CTRS-E031"
CUBIN = "CTRS-E040"
OUTPUT_EXISTS = "CTRS-E050"
# ctrs regen: a generated port file was edited by hand (checksum mismatch); ctrs.toml missing/invalid.
REGEN_EDITED = "CTRS-E060"
REGEN_MANIFEST = "CTRS-E061"
# Translator (ctrs translate). A construct with no rule, a type/shape the rules cannot type, bad input.
NO_RULE = "CTRS-E100"
TRANSLATE_TYPE = "CTRS-E101"
TRANSLATE_INPUT = "CTRS-E102"
# Triton front end (frontend_triton): a tl.* construct outside the supported subset / an access that
# cannot become a partition view.
TRITON_UNSUPPORTED = "CTRS-E110"
TRITON_ACCESS = "CTRS-E111"
TRITON_NO_REFERENCE = "CTRS-E112"  # ctrs check of a Triton kernel without a cuTile Python counterpart
INTERNAL = "CTRS-E999"
