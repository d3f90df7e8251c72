"""The LLM interface: one call, JSON constrained by a schema, validated with pydantic by the caller."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from shared.core import metering

# Extra attempts the openai and anthropic SDKs make after a 408/409/429/5xx (Anthropic's 529 overloaded included)
# or a dropped connection, with their own backoff, honouring retry-after.
MAX_RETRIES = 2


@dataclass
class LLMUsage:
    input_tokens: int = 0
    output_tokens: int = 0

    def metered(self) -> LLMUsage:
        """Count this call's tokens into the work at hand's usage (its tenant's bill), as the provider reported."""
        metering.count(generation_tokens=self.input_tokens + self.output_tokens)
        return self


class LLMClient(ABC):
    provider: str
    model: str
    # The profile's per-call response cap (None: the provider's default); a budget may lower it per call.
    max_tokens: int | None = None

    @abstractmethod
    def complete_json(
        self,
        system: str,
        prompt: str,
        schema: dict[str, Any],
        *,
        name: str = "result",
        max_tokens: int | None = None,
    ) -> tuple[dict[str, Any], LLMUsage]:
        """Return the model's JSON object (schema-constrained) and token usage; raise LLMError on failure.
        ``max_tokens`` caps this call's response (else the profile's cap)."""
