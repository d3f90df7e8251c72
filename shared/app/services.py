"""The services one process shares across requests and invocations (one pool per warm container).

>>> services = Services.build(Settings(database_url="postgresql://…"))   # doctest: +SKIP
>>> services.sessions.cleanup()                                          # doctest: +SKIP

Every entry point that needs services builds them here: the API app (``shared/api/app.py``), the worker and
cleanup Lambdas (``shared/app/bootstrap.py``), ``make dev``'s cleanup thread; ``purpose`` sizes the pool and picks
its default row-level wall. The CLI needs only a pool: ``Database.from_settings(settings, purpose="cli")``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from shared.core import metrics
from shared.core.settings import Settings
from shared.db import stats
from shared.db.pool import Database, Purpose
from shared.db.scope import Scope
from shared.domain.audit import AuditTrail
from shared.domain.auth import ApiKeys
from shared.domain.context_env.leases import TenantLeases
from shared.domain.context_env.service import SandboxService
from shared.domain.contradictions.service import ContradictionService
from shared.domain.documents.service import DocumentService
from shared.domain.extraction.backfill import Backfill
from shared.domain.extraction.derive import PROFILE as INSIGHTS_PROFILE
from shared.domain.extraction.derive import EntityDeriver
from shared.domain.extraction.worker import ExtractionWorker
from shared.domain.graph.service import GraphService
from shared.domain.indexing import InlineIndexer
from shared.domain.knowledgebase.service import KnowledgebaseService
from shared.domain.memories.service import MemoryService
from shared.domain.relations.curation import Curation
from shared.domain.relations.service import EntityService
from shared.domain.relations.views import EntityViews
from shared.domain.representation import Representations
from shared.domain.resources.data_providers import DataProviderService
from shared.domain.resources.mcp_service import McpServerService
from shared.domain.resources.service import ResourceService
from shared.domain.resources.skill_service import SkillService
from shared.domain.resources.view_service import ViewService
from shared.domain.retrieval.answer import PROFILE as ANSWER_PROFILE
from shared.domain.retrieval.answer import Answerer
from shared.domain.retrieval.recall import Recaller
from shared.domain.roundtrip import RoundTrip
from shared.domain.sessions.packs import ContextService
from shared.domain.sessions.service import SessionService
from shared.domain.threads import ThreadService
from shared.domain.tokens import Tokens
from shared.domain.usage import UsageMeter
from shared.domain.users import UserService
from shared.domain.workspaces import WorkspaceService
from shared.providers.blobs import create_blobs
from shared.providers.embeddings import create_embedder
from shared.providers.embeddings.base import Embedder
from shared.providers.embeddings.metered import metered_embedder
from shared.providers.llm import create_llm
from shared.providers.queue import JobQueue, create_document_queue, create_indexing_queue, create_queue
from shared.providers.tracing import traced_database


@dataclass
class Services:
    """Every service of one process, built together by ``build`` over one pool and one embedder."""

    settings: Settings
    db: Database
    embedder: Embedder
    memories: MemoryService
    recaller: Recaller
    workspaces: WorkspaceService
    roundtrip: RoundTrip
    users: UserService
    sessions: SessionService
    context: ContextService
    threads: ThreadService
    answerer: Answerer
    api_keys: ApiKeys
    tokens: Tokens
    worker: ExtractionWorker
    inline_indexer: InlineIndexer
    indexing_queue: JobQueue
    sandboxes: SandboxService
    resources: ResourceService
    skills: SkillService
    mcp_servers: McpServerService
    data_providers: DataProviderService
    views: ViewService
    documents: DocumentService
    entity_insights: EntityDeriver
    contradictions: ContradictionService
    graph: GraphService
    entities: EntityService
    entity_views: EntityViews
    entity_backfill: Backfill
    curation: Curation
    knowledgebase: KnowledgebaseService
    representations: Representations
    audit: AuditTrail
    usage: UsageMeter

    @classmethod
    def build(
        cls,
        settings: Settings,
        *,
        purpose: Purpose = "api",
        db: Database | None = None,
        embedder: Embedder | None = None,
    ) -> Services:
        """The services over a new pool for ``purpose`` (or ``db``: tests share one) and the configured
        embedder (or ``embedder``: one loaded before a SnapStart snapshot)."""
        db = traced_database(db or Database.from_settings(settings, purpose=purpose))
        # Counted when a metrics sink is installed: also an embedder loaded before a SnapStart snapshot.
        embedder = metered_embedder(embedder or create_embedder(settings))
        memories = MemoryService(db, embedder, settings)
        recaller = Recaller(db, embedder, settings)
        sessions = SessionService(db, embedder, settings)
        worker = ExtractionWorker(db, embedder, settings)
        api_keys = ApiKeys(db)
        resources = ResourceService(db)
        indexing_queue = create_indexing_queue(settings)
        worker.ask_indexing = lambda: indexing_queue.send(index_ask())
        return cls(
            settings=settings,
            db=db,
            embedder=embedder,
            memories=memories,
            recaller=recaller,
            workspaces=WorkspaceService(db, memories),
            roundtrip=RoundTrip(db, memories),
            users=UserService(db),
            sessions=sessions,
            context=ContextService(db, sessions, recaller, settings),
            threads=ThreadService(db, create_queue(settings), worker),
            answerer=Answerer(recaller, create_llm(settings, ANSWER_PROFILE)),
            sandboxes=SandboxService(db, sessions, recaller, create_llm(settings), settings),
            api_keys=api_keys,
            tokens=Tokens(db, api_keys),
            worker=worker,
            inline_indexer=InlineIndexer(worker.indexer),
            indexing_queue=indexing_queue,
            resources=resources,
            skills=SkillService(db, resources),
            mcp_servers=McpServerService(resources),
            data_providers=DataProviderService(resources),
            views=ViewService(resources),
            documents=DocumentService(
                db, embedder, create_blobs(settings), create_document_queue(settings), settings
            ),
            entity_insights=EntityDeriver(db, memories, create_llm(settings, INSIGHTS_PROFILE), settings),
            contradictions=ContradictionService(db, memories, settings),
            graph=GraphService(db, settings),
            entities=EntityService(db),
            entity_views=EntityViews(db),
            entity_backfill=Backfill(db),
            curation=Curation(db),
            knowledgebase=KnowledgebaseService(db),
            representations=Representations(db),
            audit=AuditTrail(db),
            usage=UsageMeter(db),
        )

    def request_vector_indexing(self) -> None:
        """After a bulk write: the worker moves the pending rows into the HNSW graph; with no queue, now."""
        if not self.indexing_queue.send(index_ask()):
            self.inline_indexer.request()

    def session_workspace(self, scope: Scope, session_id: str, *, write: bool = True) -> str | None:
        """The workspace of a live session within ``scope`` (the caller's workspaces: X-Session-ID
        resolution); for a caller who may write, slides its TTL in the same statement."""
        return self.sessions.slide(scope, session_id, write=write)

    def ping(self) -> None:
        """Readiness: one round trip to the database (``DatabaseUnavailable`` when it does not answer)."""
        self.db.ping()

    def publish_totals(self) -> None:
        """Record the stored-rows gauges (at a scrape; in Lambda, each cleanup run)."""
        with self.db.connection() as conn:
            rows = stats.live_rows(conn)
        metrics.record(metrics.MEMORIES, rows["memories"])
        metrics.record(metrics.SESSIONS_ACTIVE, rows["sessions"])

    def close(self) -> None:
        self.db.close()


def tenant_leases(settings: Settings, services: Callable[[], Services]) -> TenantLeases | None:
    """The context environment's cap per tenant across instances (the lambda executor: one request per instance,
    so only rows in Postgres can count a tenant's calls). The services are reached for on the first lease, not
    when the sandbox gate is made on the event loop."""
    if settings.context_executor != "lambda":
        return None
    return TenantLeases(
        lambda: services().db, cap=settings.context_tenant_slots, ttl_s=settings.context_lease_ttl_s
    )


def index_ask() -> dict[str, object]:
    """An indexing ask, stamped with when it was sent: a run that began after it covers it."""
    return {"kind": "index_vectors", "asked_at": time.time()}
