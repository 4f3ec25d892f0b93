"""The fallback's configuration (``ctrs translate --llm``): endpoint, model, retries, cache.

Kept apart from the package ``__init__`` so that the package imports nothing: the fallback's modules
import one another, and ``Config.translate_source`` loads them only when ``--llm`` runs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_MODEL = "gpt-4o-mini"


@dataclass
class Config:
    model: str = DEFAULT_MODEL
    base_url: str | None = None  # OPENAI_BASE_URL (the openai client's default otherwise)
    api_key: str | None = field(default=None, repr=False)  # OPENAI_API_KEY; never logged or written
    attempts: int = 3  # answers tried per construct (the first plus retries with feedback)
    http_retries: int = 3  # tries per request on timeout / 429 / 5xx / connection errors
    timeout: float = 60.0  # seconds per request
    build_timeout: float = 600.0  # seconds for one candidate's offline cargo build (and one harness run)
    backoff: float = 1.0  # first backoff delay in seconds (doubles per retry)
    specs: list[str] = field(default_factory=list)  # --spec (with specs.json and mined launches: ctrs check's set)
    cache_dir: Path | None = None  # default $CTRS_LLM_CACHE, else <ctrs cache>/llm
    offline: bool = False  # cache only: never contact a server
    refresh: bool = False  # --llm-refresh: ignore cached answers (a newly accepted one replaces the entry)
    log: object = None  # callable(str) for progress lines (stderr in the CLI)
    accepted: dict = field(default_factory=dict, repr=False)  # set by a successful run: construct -> answer
    typed: bool = False  # set by a successful run: the answers are spliced into the typed IR (splice.hook typed)

    @classmethod
    def from_env(cls, model: str | None = None, **kw) -> Config:
        return cls(model=model or os.environ.get("CTRS_LLM_MODEL") or DEFAULT_MODEL,
                   base_url=os.environ.get("OPENAI_BASE_URL") or None,
                   api_key=os.environ.get("OPENAI_API_KEY") or None, **kw)

    def require_endpoint(self, loc=None) -> None:
        """CTRS-E250 unless OPENAI_BASE_URL or OPENAI_API_KEY is configured: no request goes anywhere else."""
        if self.base_url or self.api_key:
            return
        from ctrs import errors  # noqa: PLC0415

        raise errors.CtrsError(errors.LLM_NOT_CONFIGURED, "--llm: no LLM endpoint configured, no request sent",
                               "set OPENAI_BASE_URL=http://HOST:PORT/v1 (any OpenAI-compatible server) and/or "
                               "OPENAI_API_KEY=... (the OpenAI API), or drop --llm", loc)

    def translate_source(self, kernel: Path) -> dict[str, str]:
        """translate.translate_source with NO_RULE constructs resolved by verified answers (the callback
        ``ctrs.translate`` calls for ``--llm``; it imports nothing of this package)."""
        from .fallback import translate_source  # noqa: PLC0415 - openai client and friends load on demand

        return translate_source(Path(kernel), self)

    def cache_path(self) -> Path:
        if self.cache_dir is not None:
            return Path(self.cache_dir)
        env = os.environ.get("CTRS_LLM_CACHE")
        if env:
            return Path(env)
        from ctrs import toolchain  # noqa: PLC0415

        return toolchain.cache_root() / "llm"
