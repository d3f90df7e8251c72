"""LLM clients behind one small interface: JSON out, validated against a schema, with usage counted.

    >>> client = create_llm(Settings(llm_provider="openai", llm_base_url="http://127.0.0.1:9/v1"))  # doctest: +SKIP
    >>> data, usage = client.complete_json(system, prompt, schema)                                # doctest: +SKIP

``create_llm`` returns None when no LLM is configured: callers then stay deterministic.
"""

from __future__ import annotations

from shared.core.settings import Settings
from shared.providers.llm.base import LLMClient, LLMUsage


def create_llm(settings: Settings) -> LLMClient | None:
    """The configured client (its calls are spans in a traced Lambda: shared/providers/tracing.py), or None."""
    from shared.providers.tracing import traced_llm

    return traced_llm(_create(settings))


def _create(settings: Settings) -> LLMClient | None:
    if settings.llm_provider == "openai":
        from shared.providers.llm.openai import OpenAIChat

        return OpenAIChat.from_settings(settings)
    if settings.llm_provider == "google":
        from shared.providers.llm.google import GeminiChat

        return GeminiChat.from_settings(settings)
    return None


__all__ = ["LLMClient", "LLMUsage", "create_llm"]
