"""Claude through the Messages API (plain httpx): the JSON comes back as the input of a tool the call must use,
whose input schema is the caller's schema, so the object is schema-shaped like the other providers' JSON modes."""

from __future__ import annotations

from typing import Any

from shared.core.errors import ServiceUnavailable
from shared.core.settings import LLMProfile
from shared.providers.llm.base import LLMClient, LLMUsage

API_VERSION = "2023-06-01"
# The Messages API requires max_tokens; this is the cap when neither the profile nor the budget sets one.
DEFAULT_MAX_TOKENS = 4096


class ClaudeChat(LLMClient):
    provider = "anthropic"

    def __init__(
        self, client: Any, model: str, *, max_tokens: int | None = None, temperature: float = 0.0
    ) -> None:
        self.client = client
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature

    @classmethod
    def from_profile(cls, profile: LLMProfile, timeout_s: float) -> ClaudeChat:
        import httpx

        key = profile.api_key.get_secret_value() if profile.api_key else "not-set"
        client = httpx.Client(
            base_url=(profile.base_url or "https://api.anthropic.com").rstrip("/"),
            timeout=timeout_s,
            headers={"x-api-key": key, "anthropic-version": API_VERSION},
        )
        return cls(
            client,
            profile.model or "claude-3-5-haiku-latest",
            max_tokens=profile.max_tokens,
            temperature=profile.temperature,
        )

    def complete_json(
        self,
        system: str,
        prompt: str,
        schema: dict[str, Any],
        *,
        name: str = "result",
        max_tokens: int | None = None,
    ) -> tuple[dict[str, Any], LLMUsage]:
        import httpx

        body = {
            "model": self.model,
            "max_tokens": max_tokens or self.max_tokens or DEFAULT_MAX_TOKENS,
            "temperature": self.temperature,
            "system": system,
            "messages": [{"role": "user", "content": prompt}],
            "tools": [{"name": name, "description": "Report the result.", "input_schema": schema}],
            "tool_choice": {"type": "tool", "name": name},
        }
        try:
            response = self.client.post("/v1/messages", json=body)
            response.raise_for_status()
            answer = response.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise ServiceUnavailable(
                f"LLM call failed: {exc.__class__.__name__}", code="llm_unavailable"
            ) from exc
        used = [
            b for b in answer.get("content") or [] if b.get("type") == "tool_use" and b.get("name") == name
        ]
        if not used or not isinstance(used[0].get("input"), dict):
            raise ServiceUnavailable("LLM answer was outside the schema", code="llm_invalid_output")
        usage = answer.get("usage") or {}
        return used[0]["input"], LLMUsage(
            int(usage.get("input_tokens") or 0), int(usage.get("output_tokens") or 0)
        ).metered()
