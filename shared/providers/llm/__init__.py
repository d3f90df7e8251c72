"""LLM clients behind one small interface: JSON out, validated against a schema, with usage counted.

    >>> client = create_llm(Settings(llm_provider="openai", llm_base_url="http://127.0.0.1:9/v1"))  # doctest: +SKIP
    >>> data, usage = client.complete_json(system, prompt, schema)                                # doctest: +SKIP

``create_llm`` returns None when no LLM is configured: callers then stay deterministic. ``profile`` names the
reference server's LLM profile the call belongs to (shared/core/reference_env.py PROFILE_USERS); a profile not
configured is the default one (MEMORYLAYER_LLM_*).
"""

from __future__ import annotations

from shared.core.settings import LLMProfile, Settings
from shared.providers.llm.base import LLMClient, LLMUsage


def create_llm(settings: Settings, profile: str = "default") -> LLMClient | None:
    """The client of ``profile`` (its calls are spans in a traced Lambda: shared/providers/llm/traced.py), or None."""
    from shared.providers.llm.metered import metered_llm
    from shared.providers.llm.traced import traced_llm

    client = traced_llm(_create(settings.llm_profile(profile), settings.llm_timeout_s))
    return metered_llm(client, profile, settings.enrichment_policy)  # counted: shared/core/metrics.py


def _create(profile: LLMProfile, timeout_s: float) -> LLMClient | None:
    if profile.provider == "openai":
        from shared.providers.llm.openai import OpenAIChat

        return OpenAIChat.from_profile(profile, timeout_s)
    if profile.provider == "google":
        from shared.providers.llm.google import GeminiChat

        return GeminiChat.from_profile(profile, timeout_s)
    if profile.provider == "anthropic":
        from shared.providers.llm.anthropic import ClaudeChat

        return ClaudeChat.from_profile(profile, timeout_s)
    return None


__all__ = ["LLMClient", "LLMUsage", "create_llm"]
