"""An LLM client whose calls are counted (``memorylayer_generation_*``) under the reference's three labels:
the activity the profile serves, the enrichment policy, the outcome. Provider and profile are not labels."""

from __future__ import annotations

import time
from typing import Any

from shared.core import metrics
from shared.providers.llm.base import LLMClient, LLMUsage

# The activity each profile's calls serve (shared/core/reference_env.py PROFILE_USERS): the default profile is
# the context environment's and the inference profile entity insights', both "synthesis" in the reference.
PROFILE_ACTIVITIES = {"extraction": "session_extraction", "reflection": "reflection"}


class MeteredLLM(LLMClient):
    def __init__(self, inner: LLMClient, *, activity: str, policy: str) -> None:
        self._inner = inner
        self.provider = inner.provider
        self.model = inner.model
        self.max_tokens = inner.max_tokens
        self.labels = {"activity": activity, "policy": policy}

    def complete_json(
        self,
        system: str,
        prompt: str,
        schema: dict[str, Any],
        *,
        name: str = "result",
        max_tokens: int | None = None,
    ) -> tuple[dict[str, Any], LLMUsage]:
        started, outcome, usage = time.perf_counter(), "failed", LLMUsage()
        try:
            data, usage = self._inner.complete_json(system, prompt, schema, name=name, max_tokens=max_tokens)
            outcome = "completed"
            return data, usage
        finally:
            labels = {**self.labels, "outcome": outcome}
            metrics.record(metrics.GENERATION_CALLS, **labels)
            metrics.record(metrics.GENERATION_LATENCY, time.perf_counter() - started, **labels)
            for direction, tokens in (("input", usage.input_tokens), ("output", usage.output_tokens)):
                if tokens:
                    metrics.record(metrics.GENERATION_TOKENS, tokens, **labels, direction=direction)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def metered_llm(llm: LLMClient | None, profile: str, policy: str) -> LLMClient | None:
    """``llm`` counted as the activity of ``profile`` when a metrics sink is installed (None stays None)."""
    if llm is None or not metrics.enabled() or isinstance(llm, MeteredLLM):
        return llm
    return MeteredLLM(llm, activity=PROFILE_ACTIVITIES.get(profile, "synthesis"), policy=policy)
