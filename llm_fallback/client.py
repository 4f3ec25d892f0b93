"""Chat completions through the ``openai`` client (any OpenAI-compatible server), bounded retries with backoff,
and a cache of ACCEPTED answers only.

The cache key is (endpoint, model, the construct's first prompt): ``fallback.py`` stores an answer only after
it was proven IR-equivalent for every spec, and a replayed answer is verified again like a fresh one (a failure
drops it). A rejected answer is never written, so a rerun after a failure asks the server again.
``Config.refresh`` (``--llm-refresh``) ignores the cache (an accepted answer still replaces the entry).

No request is made unless ``OPENAI_BASE_URL`` or ``OPENAI_API_KEY`` is set (CTRS-E250): the client never falls
back to the public default endpoint with a made-up key. The API key is passed to the client only; it is never
logged, cached or put in an error message."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

# `cfg: Config` annotations name llm_fallback.config.Config (not imported: Config loads this module lazily)

DEFAULT_ENDPOINT = "https://api.openai.com/v1"  # the openai client's default, named only in the cache key


class Unavailable(Exception):
    """The server could not give an answer (after bounded retries); the message is safe to print."""


def endpoint(cfg: Config) -> str:
    return (cfg.base_url or DEFAULT_ENDPOINT).rstrip("/")


def cache_key(cfg: Config, messages: list[dict]) -> str:
    blob = json.dumps({"endpoint": endpoint(cfg), "model": cfg.model, "messages": messages}, sort_keys=True,
                      ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def _cache_file(cfg: Config, key: str) -> Path:
    return cfg.cache_path() / key[:2] / f"{key}.json"


def cached(cfg: Config, key: str) -> dict | None:
    """The accepted answer stored under ``key`` ({"answer", "attempts", ...}); None with ``--llm-refresh`` or
    when there is none."""
    if cfg.refresh:
        return None
    f = _cache_file(cfg, key)
    try:
        data = json.loads(f.read_text())
        return data if data.get("accepted") is True and isinstance(data.get("answer"), str) else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def store_accepted(cfg: Config, key: str, answer: str, attempts: int, specs: list[str]) -> None:
    """Remember an answer proven IR-equivalent for ``specs`` (the only kind of answer ever cached)."""
    f = _cache_file(cfg, key)
    f.parent.mkdir(parents=True, exist_ok=True)
    tmp = f.with_name(f"{f.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"endpoint": endpoint(cfg), "model": cfg.model, "accepted": True, "attempts": attempts,
                               "verified_specs": specs, "answer": answer}, sort_keys=True, indent=1) + "\n")
    tmp.replace(f)


def forget(cfg: Config, key: str) -> None:
    """Drop a cached answer that no longer verifies (the kernel or its specs changed)."""
    try:
        _cache_file(cfg, key).unlink()
    except OSError:
        pass


def _safe(cfg: Config, text: str) -> str:
    text = " ".join(str(text).split())[:300]
    return text.replace(cfg.api_key, "***") if cfg.api_key else text


def complete(cfg: Config, messages: list[dict]) -> str:
    """The server's answer to ``messages`` (never cached here). Raises Unavailable, or CtrsError(E250) when
    neither OPENAI_BASE_URL nor OPENAI_API_KEY is configured (then nothing is sent)."""
    if cfg.offline:
        raise Unavailable("offline (--llm-offline) and no accepted answer cached for this prompt")
    cfg.require_endpoint()
    import openai  # noqa: PLC0415

    # a local server without auth needs some key for the client to build; it is only sent to cfg.base_url
    client = openai.OpenAI(base_url=cfg.base_url, api_key=cfg.api_key or "unused", timeout=cfg.timeout,
                           max_retries=0)
    last = ""
    for i in range(max(1, cfg.http_retries)):
        if i:
            time.sleep(cfg.backoff * 2 ** (i - 1))
        try:
            resp = client.chat.completions.create(model=cfg.model, messages=messages, temperature=0)
        except openai.APITimeoutError:
            last = f"timeout after {cfg.timeout:g} s"
            continue
        except openai.APIConnectionError as e:
            last = f"connection error: {_safe(cfg, e)}"
            continue
        except openai.APIStatusError as e:
            last = f"HTTP {e.status_code}"
            if e.status_code == 429 or e.status_code >= 500:
                continue
            raise Unavailable(f"{last} from the server (not retried)") from None
        except Exception as e:  # noqa: BLE001 - a malformed response body (JSONDecodeError, validation errors)
            raise Unavailable(f"unusable response from the server ({type(e).__name__})") from None
        try:
            text = resp.choices[0].message.content or ""
        except (AttributeError, IndexError, TypeError):
            text = ""
        return text if isinstance(text, str) else ""
    raise Unavailable(f"{last} ({max(1, cfg.http_retries)} tries)")
