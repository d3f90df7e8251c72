"""X-Ray tracing: Powertools Tracer in each Lambda handler, and subsegments around the database units of work,
the embedding calls and the LLM calls.

    >>> tracer = lambda_tracer("memorylayer-memory")             # in a handler module    # doctest: +SKIP
    >>> @tracer.capture_lambda_handler(capture_response=False)                           # doctest: +SKIP
    ... def handler(event, context): ...
    >>> with subsegment("db.connection"):                         # anywhere; a no-op unless tracing is on
    ...     pass

Tracing is on only in a Lambda with active tracing (Powertools decides: ``LAMBDA_TASK_ROOT`` set,
``POWERTOOLS_TRACE_DISABLED`` not true). Where it is off the X-Ray SDK is never imported (outside Lambda its
default sampler builds two botocore clients at import, ~300 ms; in Lambda it costs ~75 ms) and the ``traced_*``
wrappers return their argument unchanged, so local runs and tests pay nothing. Subsegments carry names, counts and model ids, never content: the stack sets
``POWERTOOLS_TRACER_CAPTURE_RESPONSE=false`` and handlers pass ``capture_response=False`` too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import numpy as np

from shared.db.pool import Database
from shared.db.rows import Connection
from shared.providers.embeddings.base import Embedder
from shared.providers.llm.base import LLMClient, LLMUsage

if TYPE_CHECKING:
    from aws_lambda_powertools import Tracer

# boto3 calls (SQS, Secrets Manager, SageMaker) become subsegments too; patching everything X-Ray supports
# would import requests, sqlite3, httplib … at every cold start for nothing.
PATCH_MODULES = ("botocore",)

_active: Tracer | None = None  # set when a handler's Tracer is enabled


def lambda_tracer(service: str) -> Tracer:
    """The Tracer of one Lambda function; turns the subsegments below on when it is enabled."""
    global _active
    from aws_lambda_powertools import Tracer

    if Tracer._is_tracer_disabled():  # Powertools' own test: env, Lambda or not
        # A disabled Tracer still imports the X-Ray SDK unless it is given a provider.
        return Tracer(service=service, disabled=True, provider=_off_provider())
    tracer = Tracer(service=service, auto_patch=True, patch_modules=PATCH_MODULES)
    _active = None if tracer.disabled else tracer
    return tracer


def _off_provider() -> Any:
    """A Powertools tracing provider that records nothing."""
    from aws_lambda_powertools.tracing.base import BaseProvider, BaseSegment

    class Nothing(BaseSegment):
        def close(self, end_time: int | None = None) -> None: ...
        def add_subsegment(self, subsegment: Any) -> None: ...
        def remove_subsegment(self, subsegment: Any) -> None: ...
        def put_annotation(self, key: str, value: Any) -> None: ...
        def put_metadata(self, key: str, value: Any, namespace: str = "default") -> None: ...
        def add_exception(self, exception: BaseException, stack: Any, remote: bool = False) -> None: ...

    class Off(BaseProvider):
        @contextmanager
        def in_subsegment(self, name: Any = None, **kwargs: Any) -> Iterator[BaseSegment]:
            yield Nothing()

        @asynccontextmanager
        async def in_subsegment_async(self, name: Any = None, **kwargs: Any) -> AsyncIterator[BaseSegment]:
            yield Nothing()

        def put_annotation(self, key: str, value: Any) -> None: ...
        def put_metadata(self, key: str, value: Any, namespace: str = "default") -> None: ...
        def patch(self, modules: Any) -> None: ...
        def patch_all(self) -> None: ...

    return Off()


def enabled() -> bool:
    return _active is not None


# The entity new subsegments belong under, carried where X-Ray's thread-local context does not go: FastAPI
# runs sync routes in worker threads (anyio copies context variables into them, not thread-locals).
_parent: ContextVar[Any] = ContextVar("xray_parent", default=None)


def _recorder(tracer: Tracer) -> Any:
    """The X-Ray recorder behind a Powertools Tracer (typed there as its base provider, which has no entities)."""
    return tracer.provider


@contextmanager
def propagate() -> Iterator[None]:
    """Around the ASGI call of an API handler: subsegments opened in worker threads nest under the handler's."""
    if _active is None:
        yield
        return
    token = _parent.set(_recorder(_active).get_trace_entity())
    try:
        yield
    finally:
        _parent.reset(token)


@contextmanager
def subsegment(name: str, **annotations: str | int | float | bool) -> Iterator[None]:
    """An X-Ray subsegment around the block (annotations are indexed: keep them small and content-free)."""
    if _active is None:
        yield
        return
    recorder = _recorder(_active)
    parent = _parent.get()
    if parent is not None and recorder.get_trace_entity() is not parent:
        recorder.set_trace_entity(parent)  # a worker thread: continue the invocation's trace here
    with recorder.in_subsegment(name) as sub:
        token = _parent.set(sub)
        try:
            for key, value in annotations.items():
                sub.put_annotation(key, value)
            yield
        finally:
            _parent.reset(token)


class TracedDatabase(Database):
    """A ``Database`` whose units of work (a borrowed connection, a transaction) are subsegments."""

    def __init__(self, inner: Database) -> None:  # the pool stays the inner database's
        self._inner = inner

    @contextmanager
    def connection(self, *, pipelined: bool = False) -> Iterator[Connection]:
        with subsegment("db.connection"), self._inner.connection(pipelined=pipelined) as conn:
            yield conn

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        with subsegment("db.transaction"), self._inner.transaction() as conn:
            yield conn

    def close(self) -> None:
        self._inner.close()

    def __getattr__(self, name: str) -> Any:  # pool, and whatever else the database grows
        return getattr(self._inner, name)


class TracedEmbedder(Embedder):
    """An ``Embedder`` whose calls are subsegments, annotated with the model and the number of texts."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self.model = inner.model
        self.dimensions = inner.dimensions

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        with subsegment("embedding", model=self._inner.model_id, texts=len(texts)):
            return self._inner.embed(texts)

    def embed_query(self, text: str) -> np.ndarray:
        with subsegment("embedding", model=self._inner.model_id, texts=1):
            return self._inner.embed_query(text)

    def __getattr__(self, name: str) -> Any:  # batch_size and provider specifics
        return getattr(self._inner, name)


class TracedLLM(LLMClient):
    """An ``LLMClient`` whose calls are subsegments."""

    def __init__(self, inner: LLMClient) -> None:
        self._inner = inner
        self.provider = inner.provider
        self.model = inner.model

    def complete_json(
        self, system: str, prompt: str, schema: dict[str, Any], *, name: str = "result"
    ) -> tuple[dict[str, Any], LLMUsage]:
        with subsegment("llm", provider=self.provider, model=self.model):
            return self._inner.complete_json(system, prompt, schema, name=name)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def traced_database(db: Database) -> Database:
    return TracedDatabase(db) if enabled() and not isinstance(db, TracedDatabase) else db


def traced_embedder(embedder: Embedder) -> Embedder:
    return TracedEmbedder(embedder) if enabled() and not isinstance(embedder, TracedEmbedder) else embedder


def traced_llm(llm: LLMClient | None) -> LLMClient | None:
    return TracedLLM(llm) if llm is not None and enabled() and not isinstance(llm, TracedLLM) else llm
