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
# Kernel-level hints (@ct.kernel(occupancy=.., num_ctas=.., num_worker_warps=.., opt_level=..)) the port
# cannot carry: not a translate-time integer, or a keyword cuTile Python does not have.
KERNEL_HINT = "CTRS-E160"
INTERNAL = "CTRS-E999"
