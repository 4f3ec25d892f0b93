"""Where ctrs' data files live, installed or in a checkout: the package's own data folders.

The repository keeps its top-level folders (rules/, emitters/, grammars/, llm_fallback/) and maps them into
the one import package ``ctrs`` (pyproject ``package-dir``), so data is always found through the package,
never through a path relative to this file's parent.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def data(package: str, *parts: str) -> Path:
    """A file or folder of ``ctrs.<package>`` (e.g. ``data("rules", "cutile.toml")``)."""
    return Path(str(resources.files(f"ctrs.{package}").joinpath(*parts)))
