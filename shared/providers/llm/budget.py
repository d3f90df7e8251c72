"""The per-operation generation ceilings (the reference's GENERATION_MAX_CALLS / _MAX_INPUT_TOKENS /
_MAX_OUTPUT_TOKENS): one budget per operation, asked before each LLM call, told what the call used.

Input is estimated at 3 characters a token, summed over the operation's calls (the reference counts 4: ours never
admits more than it would); output reserves each call's cap, so a call is sent with at most what is left (its
max_tokens), then counts what it used.
"""

from __future__ import annotations

import math

from shared.core.settings import Settings
from shared.providers.llm.base import LLMUsage


def estimate_input_tokens(*texts: str) -> int:
    """Conservative, as recall's budget (shared/domain/retrieval/budget.py): about 3 characters a token."""
    return max(1, math.ceil(sum(len(t) for t in texts) / 3))


class OperationBudget:
    def __init__(self, settings: Settings, *, profile_max_tokens: int | None = None) -> None:
        self.settings = settings
        self.profile_max_tokens = profile_max_tokens
        self.calls = 0
        self.input_tokens = 0
        self.output_tokens = 0

    def refusal(self, *texts: str) -> str | None:
        """Why the next call (of these texts) would pass a ceiling, or None if it may be made."""
        s = self.settings
        if self.calls >= s.llm_max_calls_per_operation:
            return f"call ceiling: {s.llm_max_calls_per_operation} call(s) per operation"
        estimated = estimate_input_tokens(*texts)
        if self.input_tokens + estimated > s.llm_max_tokens_per_operation:
            return f"input token ceiling: ~{estimated} input tokens, {s.llm_max_tokens_per_operation - self.input_tokens} left"
        if self.output_left() < 1:
            return (
                f"output token ceiling: {s.llm_max_output_tokens_per_operation} output tokens per operation"
            )
        return None

    def output_left(self) -> int:
        return self.settings.llm_max_output_tokens_per_operation - self.output_tokens

    def admit(self, *texts: str) -> int:
        """Count the call in (after ``refusal`` said None) and return its response cap (max_tokens)."""
        self.calls += 1
        self.input_tokens += estimate_input_tokens(*texts)
        left = self.output_left()
        return min(left, self.profile_max_tokens) if self.profile_max_tokens else left

    def record(self, usage: LLMUsage) -> None:
        self.output_tokens += usage.output_tokens
