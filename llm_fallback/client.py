"""Chat completions through the ``openai`` client (any OpenAI-compatible server), with a
content-addressed cache (model + messages -> answer) and bounded retries with backoff.

The API key is passed to the client only; it is never logged, cached or put in an error message."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

# `cfg: Config` annotations name llm_fallback.config.Config (not imported: Config loads this module lazily)


class Unavailable(Exception):
    """The server could not give an answer (after bounded retries); the message is safe to print."""


def cache_key(model: str, messages: list[dict]) -> str:
    blob = json.dumps({"model": model, "messages": messages}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def _cache_file(cfg: Config, key: str) -> Path:
    return cfg.cache_path() / key[:2] / f"{key}.json"


def cached(cfg: Config, key: str) -> str | None:
    f = _cache_file(cfg, key)
    try:
        return json.loads(f.read_text())["answer"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _store(cfg: Config, key: str, answer: str) -> None:
    f = _cache_file(cfg, key)
    f.parent.mkdir(parents=True, exist_ok=True)
    tmp = f.with_name(f"{f.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"model": cfg.model, "answer": answer}, sort_keys=True, indent=1) + "\n")
    tmp.replace(f)


def _safe(cfg: Config, text: str) -> str:
    text = " ".join(str(text).split())[:300]
    return text.replace(cfg.api_key, "***") if cfg.api_key else text


def complete(cfg: Config, messages: list[dict]) -> tuple[str, str, bool]:
    """(answer text, cache key, from cache). Raises Unavailable."""
    key = cache_key(cfg.model, messages)
    hit = cached(cfg, key)
    if hit is not None:
        return hit, key, True
    if cfg.offline:
        raise Unavailable("offline and no cached answer for this prompt")
    import openai  # noqa: PLC0415

    client = openai.OpenAI(base_url=cfg.base_url, api_key=cfg.api_key or "not-set", timeout=cfg.timeout,
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
        if not isinstance(text, str):
            text = ""
        _store(cfg, key, text)
        return text, key, False
    raise Unavailable(f"{last} ({max(1, cfg.http_retries)} tries)")
