"""Grounded answers: retrieve memory, then let the LLM answer only from it, citing what it used.

    >>> Answerer(recaller, llm).answer(["ws_a"], AnswerRequest(query="Where does Dana live?"))   # doctest: +SKIP
    {'answer': 'Berlin', 'citations': ['mem_…'], 'abstained': False, ...}

When recall finds nothing relevant it abstains without calling the LLM. With no LLM configured it returns the
evidence and says so. Memories are shown to the model as [1], [2], …; the handles it cites are mapped back to
memory ids here, so it can neither see nor invent an id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from shared.core.errors import ServiceUnavailable
from shared.domain.requests import AnswerRequest, RecallRequest
from shared.domain.retrieval.recall import Recaller
from shared.providers.llm.base import LLMClient
from shared.providers.llm.budget import OperationBudget

# The reference's generation activity and LLM profile of its reflect, which these answers serve.
ACTIVITY = "reflection"
PROFILE = "reflection"

SYSTEM = (
    "Answer the question using ONLY the numbered memories. Cite the numbers of the memories you used. If the "
    "memories do not contain the answer, set answer to an empty string and abstain to true."
)
SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["answer", "citations", "abstain"],
    "properties": {
        "answer": {"type": "string"},
        "citations": {"type": "array", "items": {"type": "integer"}},
        "abstain": {"type": "boolean"},
    },
}


class _Answer(BaseModel):
    answer: str = Field(max_length=8000)
    citations: list[int] = Field(max_length=50)
    abstain: bool


class Answerer:
    def __init__(self, recaller: Recaller, llm: LLMClient | None) -> None:
        self.recaller = recaller
        self.llm = llm

    def answer(
        self,
        workspace_ids: list[str],
        req: AnswerRequest,
        narrow: Mapping[str, Any] | None = None,
        *,
        max_answer_tokens: int | None = None,
    ) -> dict[str, Any]:
        """``narrow``: recall filters beyond the answer request's (reflect's types, tags, observer, …);
        ``max_answer_tokens``: a tighter cap on the answer than the operation budget's (reflect's detail level)."""
        found = self.recaller.recall(
            workspace_ids,
            RecallRequest(
                query=req.query,
                user_id=req.user_id,
                limit=req.limit,
                min_relevance=req.min_relevance,
                include_global=False,
                **(narrow or {}),
            ),
        )
        memories = found["memories"]
        evidence = [
            {"id": m["id"], "content": m["content"], "relevance_score": m["relevance_score"]}
            for m in memories
        ]
        base = {
            "query": req.query,
            "evidence": evidence,
            "retrieval_confidence": found["retrieval_confidence"],
            "generation_summary": {"calls": 0, "input_tokens": 0, "output_tokens": 0},
        }
        if not memories:
            return {
                **base,
                "answer": None,
                "citations": [],
                "abstained": True,
                "reason": "no relevant memory",
                "llm_configured": self.llm is not None,
            }
        if self.llm is None:
            return {
                **base,
                "answer": None,
                "citations": [m["id"] for m in memories],
                "abstained": False,
                "llm_configured": False,
                "reason": "no LLM is configured: here is the evidence recall found",
            }
        numbered = "\n".join(f"[{i}] {m['content']}" for i, m in enumerate(memories, start=1))
        prompt = f"Memories:\n{numbered}\n\nQuestion: {req.query}"
        settings = self.recaller.settings
        budget = OperationBudget(settings, profile_max_tokens=getattr(self.llm, "max_tokens", None))
        refused = (
            None
            if settings.generation_allowed(ACTIVITY)
            else "the enrichment policy does not allow reflection"
        ) or budget.refusal(SYSTEM, prompt)
        if refused is not None:
            return {
                **base,
                "answer": None,
                "citations": [m["id"] for m in memories],
                "abstained": False,
                "llm_configured": True,
                "reason": f"no LLM call: {refused}; here is the evidence recall found",
            }
        cap = budget.admit(SYSTEM, prompt)
        if max_answer_tokens is not None:
            cap = min(cap, max_answer_tokens)
        raw, usage = self.llm.complete_json(SYSTEM, prompt, SCHEMA, name="grounded_answer", max_tokens=cap)
        try:
            parsed = _Answer.model_validate(raw)
        except ValidationError as exc:
            raise ServiceUnavailable("LLM answer was outside the schema", code="llm_invalid_output") from exc
        cited = [memories[i - 1]["id"] for i in dict.fromkeys(parsed.citations) if 1 <= i <= len(memories)]
        abstained = parsed.abstain or not parsed.answer.strip()
        return {
            **base,
            "answer": None if abstained else parsed.answer,
            "citations": [] if abstained else cited,
            "abstained": abstained,
            "llm_configured": True,
            "generation_summary": {
                "calls": 1,
                "input_tokens": usage.input_tokens,
                "output_tokens": usage.output_tokens,
            },
        }
