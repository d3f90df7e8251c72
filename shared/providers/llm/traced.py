"""An LLM client whose calls are tracing spans: beside the interface it wraps, so that tracing knows no provider
and the factory (``create_llm``) can wrap what it makes without an import cycle."""

from __future__ import annotations

from typing import Any

from shared.providers import tracing
from shared.providers.llm.base import LLMClient, LLMUsage


class TracedLLM(LLMClient):
    """An ``LLMClient`` whose calls are spans, with the provider and the model."""

    def __init__(self, inner: LLMClient) -> None:
        self._inner = inner
        self.provider = inner.provider
        self.model = inner.model

    def complete_json(
        self,
        system: str,
        prompt: str,
        schema: dict[str, Any],
        *,
        name: str = "result",
        max_tokens: int | None = None,
    ) -> tuple[dict[str, Any], LLMUsage]:
        with tracing.span("llm", provider=self.provider, model=self.model):
            return self._inner.complete_json(system, prompt, schema, name=name, max_tokens=max_tokens)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def traced_llm(llm: LLMClient | None) -> LLMClient | None:
    """``llm`` wrapped when tracing is on, else unchanged (None stays None; never wrapped twice)."""
    if llm is not None and tracing.enabled() and not isinstance(llm, TracedLLM):
        return TracedLLM(llm)
    return llm
