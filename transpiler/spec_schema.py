"""The specialisation file format as a JSON Schema (Draft 2020-12, validated by ``jsonschema``).

``validate(doc, origin)`` checks a loaded spec document (one spec, a list, or ``{"spec": [...],
"reference": "ref.py"}``) and raises ``CTRS-E010`` naming the file and the JSON path of the first
problem (``$.spec[1].args.x.shape[0]: 0 is less than the minimum of 1``). The schema covers types,
required and unknown keys, known dtypes and index dtypes, non-negative shapes (a 0 extent is an empty array: the
placeholder host code passes for an absent optional tensor, ``torch.empty(0)``) and non-negative strides within
the index dtype, grids and fuzz plans; ``_semantic`` adds what a schema cannot say: one stride per
dimension, the largest element offset within the index dtype, a base alignment that is a power of two
and at least the element size (cuTile Python accepts any positive ``base_addr_divisible_by`` and derives
16 or 1 from the pointer; an address's alignment is a power of two, and a typed pointer is aligned to its
element), integer scalar values within their dtype, and unique spec names.
"""

from __future__ import annotations

import math
import os
from functools import cache

from . import errors

INT_RANGES = {"int8": 8, "int16": 16, "int32": 32, "int64": 64}
# cuTile Python dtype name -> (bits, cutile-rs type name)
DTYPES: dict[str, tuple[int, str]] = {
    "bool_": (8, "bool"),
    "int8": (8, "i8"),
    "int16": (16, "i16"),
    "int32": (32, "i32"),
    "int64": (64, "i64"),
    "uint8": (8, "u8"),
    "uint16": (16, "u16"),
    "uint32": (32, "u32"),
    "uint64": (64, "u64"),
    "float16": (16, "f16"),
    "bfloat16": (16, "bf16"),
    "float32": (32, "f32"),
    "float64": (64, "f64"),
    "float8_e4m3fn": (8, "f8e4m3fn"),
    "float8_e5m2": (8, "f8e5m2"),
}
ALIASES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64", "i8": "int8",
           "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8", "bool": "bool_"}
UINT_RANGES = {"uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}
IDENT = r"^[A-Za-z_][A-Za-z0-9_]*$"
MAX_INDEX = {"int32": 2**31 - 1, "int64": 2**63 - 1}
ARRAY_VALUES = ("random", "permutation")  # what a GPU run fills an array with (gpu/proof.make_tensors)


@cache
def schema() -> dict:
    dtypes = sorted(set(DTYPES) | set(ALIASES))
    dims = lambda lo, hi: {"type": "array", "minItems": 1, "maxItems": 8,  # noqa: E731
                           "items": {"type": "integer", "minimum": lo, "maximum": hi}}
    array = {
        "type": "object", "required": ["dtype", "shape"], "additionalProperties": False,
        "properties": {"dtype": {"enum": dtypes}, "shape": dims(0, MAX_INDEX["int64"]),
                       "strides": dims(0, MAX_INDEX["int64"]), "align": {"type": "integer", "minimum": 1,
                                                                          "maximum": 2**40},
                       "index_dtype": {"enum": sorted(MAX_INDEX)}, "values": {"anyOf": [{"enum": list(ARRAY_VALUES)},
                                                        {"type": "array", "items": {"type": "number"}}]}},
        # int32 indices (the default) bound every dimension and stride
        "if": {"not": {"properties": {"index_dtype": {"const": "int64"}}, "required": ["index_dtype"]}},
        "then": {"properties": {"shape": dims(0, MAX_INDEX["int32"]), "strides": dims(0, MAX_INDEX["int32"])}},
    }
    scalar = {"type": "object", "required": ["scalar"], "additionalProperties": False,
              "properties": {"scalar": {"enum": dtypes}, "value": {"type": ["number", "boolean", "null"]}}}
    arg = {
        "if": {"type": "object"},
        "then": {"if": {"required": ["shape"]}, "then": {"$ref": "#/$defs/array"},
                 "else": {"if": {"required": ["scalar"]}, "then": {"$ref": "#/$defs/scalar"},
                          "else": {"required": ["shape"], "description": "an array needs dtype and shape; a "
                                   "runtime scalar needs 'scalar'"}}},
        "else": {"type": ["number", "boolean"]},
    }
    spec = {
        "type": "object", "required": ["kernel", "args"], "additionalProperties": False,
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": r"^[A-Za-z0-9_][A-Za-z0-9_.@+=,\-]*$"},
            "kernel": {"type": "string", "pattern": IDENT},
            "args": {"type": "object", "propertyNames": {"pattern": IDENT}, "additionalProperties": {"$ref": "#/$defs/arg"}},
            "rust": {"type": "object", "additionalProperties": False,
                     "properties": {"entry": {"type": "string", "pattern": IDENT},
                                    "generics": {"type": "array", "items": {"type": ["string", "integer", "boolean"]}}}},
            "grid": {"type": "array", "minItems": 1, "maxItems": 3,
                     "items": {"anyOf": [{"type": "string", "minLength": 1, "maxLength": 400},
                                         {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}]}},
            "fuzz": {"type": "object", "additionalProperties": False,
                     "properties": {"vary": {"type": "array", "items": {"type": "string", "pattern": r"^[A-Za-z_]\w*(\.\d+)?$"}},
                                    "max": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}}},
            # what `ctrs specs` records: the launch's compiler hints and the host-code lines that launched it
            "hints": {"type": "object", "propertyNames": {"pattern": IDENT},
                      "additionalProperties": {"type": ["integer", "boolean", "string"]}},
            "sites": {"type": "array", "items": {"type": "string", "maxLength": 4096}},
        },
    }
    one_or_many = {"if": {"type": "array"}, "then": {"type": "array", "items": {"$ref": "#/$defs/spec"}},
                   "else": {"$ref": "#/$defs/spec"}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {"array": array, "scalar": scalar, "arg": arg, "spec": spec, "one_or_many": one_or_many},
        "if": {"type": "object", "required": ["spec"]},
        "then": {"type": "object", "additionalProperties": False,
                 "properties": {"spec": {"$ref": "#/$defs/one_or_many"}, "reference": {"type": "string", "minLength": 1}}},
        "else": {"$ref": "#/$defs/one_or_many"},
    }


@cache
def _validator():
    import jsonschema  # noqa: PLC0415

    cls = jsonschema.validators.validator_for(schema())
    cls.check_schema(schema())
    return cls(schema())


def _fail(origin: str, path: str, msg: str, hint: str = 'see README "Specialisation format"') -> errors.CtrsError:
    return errors.CtrsError(errors.SPEC_INVALID, f"{path}: {msg}", hint, errors.Loc(origin))


def validate(doc, origin: str) -> None:
    """Schema, then the cross-field rules; the first problem is one CTRS-E010 with its JSON path.

    The GPU host has no jsonschema (no network): its runner reads specs that ``ctrs bundle`` validated here,
    and the host command says so with ``CTRS_SPECS_VALIDATED=1``; the cross-field rules still run there."""
    try:
        import jsonschema  # noqa: PLC0415
    except ImportError:
        if os.environ.get("CTRS_SPECS_VALIDATED") != "1":
            raise errors.CtrsError(errors.EXTRA_MISSING, "Python module 'jsonschema' is not installed (ctrs[verify])",
                                   "pip install 'ctrs[verify]'", errors.Loc(origin)) from None
        jsonschema = None
    if jsonschema is not None:
        err = jsonschema.exceptions.best_match(_validator().iter_errors(doc))
        if err is not None:
            msg = err.message if len(err.message) <= 160 else err.message[:157] + "..."
            raise _fail(origin, err.json_path, msg)
    _semantic(doc, origin)


def _items(doc) -> list[tuple[str, dict]]:
    if isinstance(doc, dict) and "spec" in doc:
        inner = doc["spec"]
        return [(f"$.spec[{i}]", s) for i, s in enumerate(inner)] if isinstance(inner, list) else [("$.spec", inner)]
    return [(f"$[{i}]", s) for i, s in enumerate(doc)] if isinstance(doc, list) else [("$", doc)]


def _semantic(doc, origin: str) -> None:
    # Names: an exact repeat is one spec, two different specs of one name are CTRS-E014 naming both
    # (spec.unique_specs, over every spec file a command reads, not just this one).
    for path, s in _items(doc):
        for arg, v in s["args"].items():
            where = f"{path}.args.{arg}"
            if isinstance(v, dict) and "shape" in v:
                dtype = ALIASES.get(v["dtype"], v["dtype"])
                shape = [int(d) for d in v["shape"]]
                strides = [int(x) for x in v.get("strides", [])] or None
                if strides is not None and len(strides) != len(shape):
                    raise _fail(origin, f"{where}.strides", f"{len(shape)} dims but {len(strides)} strides",
                                "give one stride per dimension, in elements")
                idx = v.get("index_dtype", "int32")
                if strides is None:
                    extent = math.prod(shape) - 1
                else:
                    extent = sum((d - 1) * st for d, st in zip(shape, strides))
                if extent > MAX_INDEX[idx]:
                    raise _fail(origin, where, f"largest element offset {extent} does not fit the index dtype {idx}",
                                'use "index_dtype": "int64" or smaller shapes' if idx == "int32" else "use smaller shapes")
                align = int(v.get("align", 256))
                elem = max(DTYPES[dtype][0] // 8, 1)
                if align & (align - 1) or align < elem:
                    raise _fail(origin, f"{where}.align", f"{align} is not a power of two >= the {dtype} element "
                                f"size ({elem} bytes)", "give the base pointer's alignment in bytes, e.g. 16 or 256")
            elif isinstance(v, dict) and "scalar" in v and isinstance(v.get("value"), int) \
                    and not isinstance(v.get("value"), bool):
                dtype = ALIASES.get(v["scalar"], v["scalar"])
                val = v["value"]
                bits = INT_RANGES.get(dtype) or UINT_RANGES.get(dtype)
                lo, hi = ((-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if dtype in INT_RANGES else (0, 2**bits - 1)) \
                    if bits else (None, None)
                if bits and not lo <= val <= hi:
                    raise _fail(origin, f"{where}.value", f"{val} is out of range for {dtype}", f"use {lo}..{hi}")
