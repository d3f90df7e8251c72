"""The LLM paths through the real ``openai``, ``google-genai`` and ``anthropic`` SDKs, against a local stub of
each wire.

The LLM only proposes: the writer still decides, and grounded answers cite only retrieved memories.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from shared.core import metering
from shared.core.settings import Settings
from shared.db import threads as thread_repo
from shared.db import usage
from shared.db.threads import NewMessage
from shared.domain.extraction.worker import ExtractionWorker
from shared.domain.requests import AnswerRequest, MemoryCreate
from shared.domain.retrieval.answer import Answerer
from shared.domain.retrieval.recall import Recaller
from shared.providers.llm import create_llm
from tests.embed.stubs import StubRequest, StubResponse, StubServer
from tests.embed.test_anthropic_llm import messages_wire

_GEMINI = re.compile(r"^/v1beta/models/([^:/]+):generateContent$")


def openai_chat_wire(stub: StubServer, request: StubRequest) -> StubResponse:
    if request.path != "/v1/chat/completions":
        return StubResponse(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
    assert request.body["response_format"]["type"] == "json_schema"
    content = json.dumps(stub.replies.pop(0))
    return StubResponse(
        200,
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": request.body["model"],
            "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}
            ],
            "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150},
        },
    )


def gemini_wire(stub: StubServer, request: StubRequest) -> StubResponse:
    if not _GEMINI.match(request.path.split("?")[0]):
        return StubResponse(404, {"error": {"code": 404, "message": "not found", "status": "NOT_FOUND"}})
    assert request.body["generationConfig"]["responseMimeType"] == "application/json"
    return StubResponse(
        200,
        {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"text": json.dumps(stub.replies.pop(0))}]},
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "usageMetadata": {"promptTokenCount": 90, "candidatesTokenCount": 20, "totalTokenCount": 110},
        },
    )


WIRES = {"openai": openai_chat_wire, "google": gemini_wire, "anthropic": messages_wire}


@pytest.fixture(params=sorted(WIRES))
def llm_stub(request) -> Iterator[tuple[str, StubServer]]:
    stub = StubServer(WIRES[request.param])
    stub.replies = []
    stub.start()
    yield request.param, stub
    stub.stop()


def llm_settings(settings: Settings, provider: str, stub: StubServer, **extra) -> Settings:
    base = f"{stub.url}/v1" if provider == "openai" else stub.url
    return settings.model_copy(
        update={"llm_provider": provider, "llm_base_url": base, "llm_model": "stub-model", **extra}
    )


def fact(content: str, predicate: str, value: str) -> dict:
    return {
        "content": content,
        "subject": "user",
        "predicate": predicate,
        "value": value,
        "type": "semantic",
        "importance": 0.8,
    }


def make_job(services, ws: str, *texts: str) -> str:
    with services.db.transaction() as conn:
        conn.execute("INSERT INTO workspaces (id, name) VALUES (%s, %s) ON CONFLICT DO NOTHING", (ws, ws))
        thread = thread_repo.create(conn, ws, f"thread_{ws}", {"user_id": "dana"})
        if thread is None:
            thread = thread_repo.lock(conn, ws, f"thread_{ws}")
        new, _ = thread_repo.append(conn, thread, [NewMessage("user", t, {}, None) for t in texts])
        return thread_repo.create_job(
            conn, ws, thread["id"], new[0]["message_index"], new[-1]["message_index"]
        )["id"]


def test_llm_extraction_proposes_and_the_writer_decides(services, settings, ws, llm_stub):
    provider, stub = llm_stub
    worker = ExtractionWorker(
        services.db, services.embedder, llm_settings(settings, provider, stub, enrichment_policy="generative")
    )
    stub.replies.append(
        {
            "facts": [fact("The user lives in Lisbon", "lives_in", "Lisbon")],
            "summary": "Dana talked about her home.",
        }
    )
    result = worker.run(make_job(services, ws, "These days home for me is Lisbon, by the river."))
    assert result["extractor"] == "llm" and result["added"] >= 1
    assert result["generation_summary"]["calls"] == 1 and result["generation_summary"]["input_tokens"] > 0
    # The prompt showed the conversation, never a memory id.
    prompt = json.dumps(stub.requests[-1].body)
    assert "Lisbon" in prompt and "mem_" not in prompt

    stub.replies.append(
        {"facts": [fact("The user lives in Porto now", "lives_in", "Porto")], "summary": "Moved."}
    )
    moved = worker.run(make_job(services, ws, "Moved again, Porto this time, much smaller flat."))
    assert moved["superseded"] == 1
    # Known memories are shown to the model as numbered handles.
    assert "[1] The user lives in Lisbon" in json.dumps(stub.requests[-1].body)
    with services.db.connection() as conn:
        thread = conn.execute("SELECT summary FROM threads WHERE id = %s", (f"thread_{ws}",)).fetchone()
    assert thread["summary"] == "Moved."


def test_llm_output_outside_the_schema_fails_the_attempt_and_writes_nothing(services, settings, ws, llm_stub):
    provider, stub = llm_stub
    worker = ExtractionWorker(
        services.db, services.embedder, llm_settings(settings, provider, stub, enrichment_policy="generative")
    )
    stub.replies.append({"facts": [{"content": "x", "predicate": "Not A Predicate"}], "summary": ""})
    job_id = make_job(services, ws, "Something long enough to be worth asking a model about, surely.")
    with pytest.raises(Exception, match="outside the schema"):
        worker.run(job_id, final_attempt=False)
    with services.db.connection() as conn:
        job = thread_repo.get_job(conn, job_id)
        count = conn.execute("SELECT count(*) AS n FROM memories WHERE workspace_id = %s", (ws,)).fetchone()[
            "n"
        ]
    assert job["status"] == "queued" and "outside the schema" in job["error"] and count == 0


def test_adaptive_policy_skips_the_llm_when_rules_suffice(services, settings, ws, llm_stub):
    provider, stub = llm_stub
    worker = ExtractionWorker(
        services.db, services.embedder, llm_settings(settings, provider, stub, enrichment_policy="adaptive")
    )
    result = worker.run(make_job(services, ws, "My name is Dana."))
    assert result["extractor"] == "deterministic" and stub.requests == []
    assert result["generation_summary"]["skipped_reason"].startswith("adaptive")


def test_token_ceiling_keeps_the_llm_out(services, settings, ws, llm_stub):
    provider, stub = llm_stub
    worker = ExtractionWorker(
        services.db,
        services.embedder,
        llm_settings(
            settings, provider, stub, enrichment_policy="generative", llm_max_tokens_per_operation=10
        ),
    )
    result = worker.run(
        make_job(services, ws, "A long message that would cost more tokens than allowed here.")
    )
    assert result["extractor"] == "deterministic" and stub.requests == []
    assert result["generation_summary"]["skipped_reason"].startswith("ceiling")


def test_grounded_answer_cites_retrieved_memories(services, settings, ws, llm_stub):
    provider, stub = llm_stub
    memory, _, _ = services.memories.remember(ws, MemoryCreate(content="Dana's cat is called Miso"))
    answerer = Answerer(
        Recaller(services.db, services.embedder, settings), create_llm(llm_settings(settings, provider, stub))
    )
    stub.replies.append({"answer": "Miso", "citations": [1, 7], "abstain": False})
    out = answerer.answer([ws], AnswerRequest(query="what is Dana's cat called?"))
    assert out["answer"] == "Miso" and out["citations"] == [memory["id"]]  # handle 7 did not exist: dropped
    assert out["generation_summary"]["calls"] == 1


# Each stub's reported usage, in and out (the wires above; anthropic's in tests/embed/test_anthropic_llm.py).
REPORTED_TOKENS = {"openai": 120 + 30, "google": 90 + 20, "anthropic": 42 + 7}


def test_model_tokens_are_billed_as_the_provider_reported_them(services, settings, ws, llm_stub):
    provider, stub = llm_stub
    services.memories.remember(ws, MemoryCreate(content="Dana's cat is called Miso"))
    answerer = Answerer(
        Recaller(services.db, services.embedder, settings), create_llm(llm_settings(settings, provider, stub))
    )
    stub.replies.append({"answer": "Miso", "citations": [1], "abstain": False})
    note = metering.Note()  # a request's, as the API opens one
    with metering.metered(note):
        answerer.answer([ws], AnswerRequest(query="what is Dana's cat called?"))
    assert note.counts["generation_tokens"] == REPORTED_TOKENS[provider]

    # An extraction job's tokens go to its workspace's tenant when the job finishes.
    tenant, home = f"t_{uuid.uuid4().hex[:10]}", f"{ws}_home"
    with services.db.transaction() as conn:
        conn.execute("INSERT INTO workspaces (id, name, tenant_id) VALUES (%s, %s, %s)", (home, home, tenant))
    worker = ExtractionWorker(
        services.db, services.embedder, llm_settings(settings, provider, stub, enrichment_policy="generative")
    )
    stub.replies.append(
        {"facts": [fact("The user lives in Lisbon", "lives_in", "Lisbon")], "summary": "Home."}
    )
    result = worker.run(make_job(services, home, "These days home for me is Lisbon, by the river."))
    calls = result["generation_summary"]["calls"]
    now = datetime.now(UTC)
    with services.db.connection() as conn:
        rows = usage.hours(
            conn, tenant_id=tenant, since=now - timedelta(hours=1), until=now + timedelta(hours=1), limit=10
        )
    assert calls >= 1
    assert [(r["kind"], r["generation_tokens"]) for r in rows] == [
        ("extraction", calls * REPORTED_TOKENS[provider])
    ]


def test_answer_abstains_without_calling_the_llm_when_nothing_is_found(services, settings, ws, llm_stub):
    provider, stub = llm_stub
    answerer = Answerer(
        Recaller(services.db, services.embedder, settings), create_llm(llm_settings(settings, provider, stub))
    )
    out = answerer.answer([ws], AnswerRequest(query="what is the capital of Atlantis?"))
    assert out["abstained"] is True and out["answer"] is None and stub.requests == []


def test_answer_without_an_llm_returns_the_evidence(http, ws):
    h = {"X-Workspace-ID": ws}
    memory = http.post(
        "/v1/memories", json={"content": "The wifi password is on the fridge"}, headers=h
    ).json()
    r = http.post("/v1/memories/answer", json={"query": "where is the wifi password?"}, headers=h).json()
    assert r["llm_configured"] is False and r["answer"] is None
    assert r["citations"] == [memory["memory"]["id"]] and "no LLM" in r["reason"]
    empty = http.post("/v1/memories/answer", json={"query": "capital city of Atlantis"}, headers=h).json()
    assert empty["abstained"] is True


def sent_cap(provider: str, request: StubRequest) -> int | None:
    """The response cap a call was sent with, in each provider's own field."""
    if provider == "openai":
        return request.body.get("max_completion_tokens")
    if provider == "google":
        return request.body["generationConfig"].get("maxOutputTokens")
    return request.body["max_tokens"]


def test_adaptive_activities_without_extraction_keep_the_llm_out(services, settings, ws, llm_stub):
    """MEMORYLAYER_ADAPTIVE_GENERATION_ACTIVITIES as the reference reads it: only the named activities generate."""
    provider, stub = llm_stub
    worker = ExtractionWorker(
        services.db,
        services.embedder,
        llm_settings(
            settings,
            provider,
            stub,
            enrichment_policy="adaptive",
            adaptive_generation_activities="reflection,synthesis",
        ),
    )
    result = worker.run(
        make_job(
            services,
            ws,
            "We spent most of the summer moving the whole engineering team over to the new office near the river.",
        )
    )
    assert result["extractor"] == "deterministic" and stub.requests == []


def test_the_output_ceiling_caps_the_call_at_the_wire(services, settings, ws, llm_stub):
    provider, stub = llm_stub
    services.memories.remember(ws, MemoryCreate(content="Dana's cat is called Miso"))
    capped = llm_settings(settings, provider, stub, llm_max_output_tokens_per_operation=77)
    answerer = Answerer(Recaller(services.db, services.embedder, capped), create_llm(capped, "reflection"))
    stub.replies.append({"answer": "Miso", "citations": [1], "abstain": False})
    assert answerer.answer([ws], AnswerRequest(query="what is Dana's cat called?"))["answer"] == "Miso"
    assert sent_cap(provider, stub.requests[0]) == 77


def test_an_empty_adaptive_allowlist_answers_with_evidence_only(services, settings, ws, llm_stub):
    provider, stub = llm_stub
    services.memories.remember(ws, MemoryCreate(content="Dana's cat is called Miso"))
    closed = llm_settings(
        settings, provider, stub, enrichment_policy="adaptive", adaptive_generation_activities=""
    )
    answerer = Answerer(Recaller(services.db, services.embedder, closed), create_llm(closed, "reflection"))
    out = answerer.answer([ws], AnswerRequest(query="what is Dana's cat called?"))
    assert out["answer"] is None and out["evidence"] and stub.requests == []
    assert "does not allow reflection" in out["reason"]


@pytest.mark.parametrize(("level", "cap"), [("abstract", 150), ("overview", 500), (None, 4096)])
def test_reflect_detail_level_caps_the_reflection_at_the_wire(services, settings, ws, llm_stub, level, cap):
    """The reference's reflection lengths per detail level; no level is ``full``."""
    from shared.domain.requests import ReflectRequest

    provider, stub = llm_stub
    services.memories.remember(ws, MemoryCreate(content="Dana's cat is called Miso"))
    wide = llm_settings(settings, provider, stub, llm_max_output_tokens_per_operation=10_000)
    answerer = Answerer(Recaller(services.db, services.embedder, wide), create_llm(wide, "reflection"))
    stub.replies.append({"answer": "Miso", "citations": [1], "abstain": False})
    body = ReflectRequest(query="what is Dana's cat called?", detail_level=level)
    out = answerer.answer(
        [ws],
        AnswerRequest(query=body.query),
        narrow=body.recall_filters(),
        max_answer_tokens=body.answer_tokens(),
    )
    assert out["answer"] == "Miso"
    assert sent_cap(provider, stub.requests[0]) == cap
