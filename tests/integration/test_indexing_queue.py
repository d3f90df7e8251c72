"""Vector indexing beside extraction, as `make dev` runs them: the indexing asks every bulk write sends have a
queue and a reader of their own (shared/local/sqs.py ``job_readers``), so an extraction job never waits behind
a long indexing run; and the asks coalesce: a run covers every ask sent before it began."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from shared.app.bootstrap import process_services
from shared.app.services import Services, index_ask
from shared.core.settings import Settings, get_settings
from shared.domain.extraction.worker import ExtractionWorker
from shared.domain.indexing import VectorIndexer
from shared.local.server import serve_in_thread
from shared.local.sqs import LocalQueues, add_queue, job_readers, local_sqs
from tests.helpers.threads import append, new_thread, wait_job


class SlowIndexing:
    """A test hook in the indexer: each run blocks until released, so one run holds its reader for as long as
    the test wants (as a 20-second run over a large pending set does)."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.runs = 0

    def __call__(self, indexer: VectorIndexer, **kwargs: Any) -> dict[str, Any]:
        self.runs += 1
        self.started.set()
        self.release.wait(60)
        return {"status": "done", "kind": "index_vectors", "indexed": 0, "more": False}


@pytest.fixture()
def slow_indexing(monkeypatch: pytest.MonkeyPatch) -> Iterator[SlowIndexing]:
    hook = SlowIndexing()
    monkeypatch.setattr(VectorIndexer, "index_vectors", lambda indexer, **kwargs: hook(indexer, **kwargs))
    yield hook
    hook.release.set()


@pytest.fixture(scope="module")
def dev_stack(app_url: str, owner_url: str) -> Iterator[tuple[str, LocalQueues, LocalQueues]]:
    """The app and the extraction handler over moto's SQS, wired as ``make dev`` wires them (shared/local/dev.py):
    the extraction queue and the indexing queue, each with its own reader."""
    with local_sqs(visibility_timeout_s=1) as queues, pytest.MonkeyPatch.context() as env:
        indexing = add_queue(queues, "indexing", visibility_timeout_s=90)
        for key, value in {
            "DATABASE_URL": app_url,
            "DATABASE_OWNER_URL": owner_url,
            "EMBEDDING_PROVIDER": "hash",
            "EXTRACTION_QUEUE_URL": queues.queue_url,
            "INDEXING_QUEUE_URL": indexing.queue_url,
            "SQS_ENDPOINT_URL": queues.endpoint_url,
            "AUTH_MODE": "none",
        }.items():
            env.setenv(f"MEMORYLAYER_{key}", value)
        get_settings.cache_clear()
        process_services.cache_clear()
        settings = Settings()
        services = Services.build(settings)
        from functions.extraction.handler import handler

        try:
            with (
                serve_in_thread(create_app(settings, services)) as url,
                job_readers(queues, indexing, handler),
            ):
                yield url, queues, indexing
        finally:
            services.close()
            process_services("worker").close()
            process_services.cache_clear()
            get_settings.cache_clear()


def create_app(settings: Settings, services: Services):
    from shared.api.app import create_app as build

    return build(settings, services=services)


@pytest.fixture()
def api(dev_stack) -> Iterator[httpx.Client]:
    with httpx.Client(
        base_url=dev_stack[0], timeout=30, headers={"X-Workspace-ID": f"ws_{uuid.uuid4().hex[:10]}"}
    ) as c:
        yield c


def test_an_extraction_job_does_not_wait_behind_a_long_indexing_run(api, slow_indexing):
    batch = {"operations": [{"op": "create", "content": f"bulk row {i} about sailing"} for i in range(3)]}
    assert api.post("/v1/memories/batch", json=batch).status_code == 200
    assert slow_indexing.started.wait(20), "the batch's indexing ask was never run"
    thread = new_thread(api)
    job = append(api, thread, ("user", "My name is Dana and I live in Paris."))["job_id"]
    done = wait_job(api, job, timeout_s=20)  # the indexing run still holds its reader, for up to 60 s
    assert not slow_indexing.release.is_set() and done["result"]["added"] >= 1
    slow_indexing.release.set()


def test_asks_sent_before_a_complete_run_began_are_covered_by_it(services, settings, ws):
    worker = ExtractionWorker(services.db, services.embedder, settings)
    before = index_ask()
    time.sleep(1.2)  # past the clock slack: the ask is plainly older than the run
    assert worker.index_ask(time.time())["status"] == "done"  # the run that covers it
    assert worker.index_ask(before["asked_at"]) == {
        "status": "coalesced",
        "kind": "index_vectors",
        "indexed": 0,
    }
    assert worker.process('{"kind": "index_vectors"}')["status"] == "done"  # an unstamped ask always runs
    assert worker.index_ask(time.time())["status"] == "done"  # sent after the run began: runs


def test_a_run_out_of_budget_asks_again_and_covers_nothing(services, settings, monkeypatch):
    worker = ExtractionWorker(
        services.db, services.embedder, settings.model_copy(update={"indexing_run_budget_s": 7})
    )
    budgets: list[float] = []

    def out_of_time(indexer: VectorIndexer, **kwargs: Any) -> dict[str, Any]:
        budgets.append(kwargs["budget_s"])
        return {"status": "done", "kind": "index_vectors", "indexed": 500, "more": True}

    monkeypatch.setattr(VectorIndexer, "index_vectors", out_of_time)
    asks: list[str] = []
    worker.ask_indexing = lambda: bool(asks.append("again")) or True
    old = time.time() - 10
    assert worker.index_ask(time.time())["asked_again"] is True
    assert worker.index_ask(old)["status"] == "done"  # the unfinished run covered nothing: the older ask runs
    assert budgets == [7, 7] and asks == ["again", "again"]


def test_without_a_queue_of_their_own_the_asks_go_on_the_extraction_queue():
    from shared.providers.queue import create_indexing_queue

    extraction = "http://127.0.0.1:1/123456789012/extraction"
    alone = Settings(
        extraction_queue_url=extraction, indexing_queue_url=None, sqs_endpoint_url="http://127.0.0.1:1"
    )
    assert create_indexing_queue(alone).queue_url == extraction  # type: ignore[attr-defined]
    own = alone.model_copy(update={"indexing_queue_url": extraction.replace("extraction", "indexing")})
    assert create_indexing_queue(own).queue_url.endswith("/indexing")  # type: ignore[attr-defined]
