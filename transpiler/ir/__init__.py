"""The typed tile IR: what the front ends lower into, the passes rewrite and the Rust emitter spells.

types (dtypes, dtype parameters, shapes over const-generic symbols, tile/scalar/array/view/token types),
values (SSA values, locations), ops (op kinds by family, structured for/if, kernels), verify, printer.
See docs/ir.md.
"""

from .ops import Block, Family, Generic, Kernel, Module, Op, OpKind, Param, walk
from .printer import print_kernel, print_module
from .types import (BF16, BOOL, DTYPES, F16, F32, F64, I32, TF32, ArrayType, DType, DTypeChoice, DTypeParam,
                    ScalarType, Sym, TileType, TokenType, ViewType)
from .values import Loc, Value
from .verify import verify

__all__ = ["BF16", "BOOL", "DTYPES", "F16", "F32", "F64", "I32", "TF32", "ArrayType", "Block", "DType",
           "DTypeChoice", "DTypeParam", "Family", "Generic", "Kernel", "Loc", "Module", "Op", "OpKind", "Param",
           "ScalarType", "Sym", "TileType", "TokenType", "Value", "ViewType", "print_kernel", "print_module",
           "verify", "walk"]
