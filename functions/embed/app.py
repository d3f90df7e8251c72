"""The container's HTTP API: SageMaker's contract plus an OpenAI-compatible embeddings route.

    $ curl -s localhost:61051/invocations -d '{"inputs": ["login timeout"]}'
    {"embeddings": [[0.01, ...]], "model": "all-MiniLM-L6-v2", "dimensions": 384}
    $ curl -s localhost:61051/v1/embeddings -d '{"input": "login timeout", "model": "all-MiniLM-L6-v2"}'
    {"object": "list", "data": [{"object": "embedding", "index": 0, "embedding": [...]}], ...}

Routes: ``GET /ping`` (SageMaker health), ``GET /health``, ``GET /stats`` (batching counters),
``GET /v1/models``, ``POST /invocations``, ``POST /v1/embeddings``. Errors are
``{"error": {"message", "type", "code"}}`` (OpenAI's shape, which its SDK understands); bad input is a 4xx.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal

import numpy as np
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ValidationError

from .backends import Backend, load_backend
from .batcher import DynamicBatcher
from .config import EmbedConfig

log = logging.getLogger(__name__)


class InvocationRequest(BaseModel):
    inputs: str | list[str]


class EmbeddingRequest(BaseModel):
    input: str | list[str]
    model: str | None = None
    encoding_format: Literal["float", "base64"] = "float"
    dimensions: int | None = None
    user: str | None = None


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def response(self) -> JSONResponse:
        kind = "invalid_request_error" if self.status < 500 else "server_error"
        body = {"error": {"message": self.message, "type": kind, "code": self.code}}
        return JSONResponse(body, status_code=self.status)


def _same_model(requested: str, served: str) -> bool:
    """``sentence-transformers/all-MiniLM-L6-v2`` and ``all-MiniLM-L6-v2`` name the same model."""
    return requested.rsplit("/", 1)[-1].lower() == served.rsplit("/", 1)[-1].lower()


def create_app(config: EmbedConfig | None = None, backend: Backend | None = None) -> FastAPI:
    """The ASGI app; the backend loads and warms up in the lifespan, before the first ``/ping`` says 200."""
    config = config or EmbedConfig.from_env()
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        model = backend or load_backend(config)
        model.warm_up()
        batcher = DynamicBatcher(model.encode, max_batch=config.max_batch, max_wait_ms=config.max_wait_ms)
        await batcher.start()
        state.update(backend=model, batcher=batcher)
        log.info("embedding %s (%d dims) with %s", model.model, model.dimensions, config.backend)
        yield
        await batcher.stop()

    app = FastAPI(title="MemoryLayer embeddings", lifespan=lifespan, docs_url=None, redoc_url=None)

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return exc.response()

    async def parse(request: Request, schema: type[BaseModel]) -> Any:
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > config.max_request_bytes:
            raise ApiError(413, "request_too_large", f"request body over {config.max_request_bytes} bytes")
        raw = await request.body()
        if len(raw) > config.max_request_bytes:
            raise ApiError(413, "request_too_large", f"request body over {config.max_request_bytes} bytes")
        try:
            return schema.model_validate_json(raw)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in exc.errors()
            )
            raise ApiError(400, "invalid_request", problems[:500]) from exc

    def check(texts: list[str]) -> None:
        if not texts:
            raise ApiError(400, "empty_input", "input must hold at least one text")
        if len(texts) > config.max_inputs:
            raise ApiError(
                413, "too_many_inputs", f"{len(texts)} inputs; at most {config.max_inputs} per request"
            )
        for index, text in enumerate(texts):
            if len(text) > config.max_input_chars:
                raise ApiError(
                    413,
                    "input_too_long",
                    f"input[{index}] has {len(text)} characters; at most {config.max_input_chars}",
                )

    async def embed(texts: list[str]) -> tuple[np.ndarray, int]:
        check(texts)
        try:
            result = await state["batcher"].submit(texts)
        except Exception as exc:
            log.exception("model call failed")
            raise ApiError(500, "model_error", f"embedding failed: {type(exc).__name__}") from exc
        return result.vectors, int(sum(result.token_counts))

    @app.get("/ping")
    async def ping() -> Response:
        return Response(status_code=200 if "batcher" in state else 503)

    @app.get("/health")
    async def health() -> dict[str, Any]:
        model: Backend = state["backend"]
        return {
            "status": "ok",
            "model": model.model,
            "dimensions": model.dimensions,
            "backend": config.backend,
        }

    @app.get("/stats")
    async def stats() -> dict[str, Any]:
        batcher: DynamicBatcher = state["batcher"]
        return {**batcher.stats.as_dict(), "queued": batcher.queued, "max_batch": batcher.max_batch}

    @app.get("/v1/models")
    async def models() -> dict[str, Any]:
        return {
            "object": "list",
            "data": [{"id": state["backend"].model, "object": "model", "owned_by": "memorylayer"}],
        }

    @app.post("/invocations")
    async def invocations(request: Request) -> JSONResponse:
        body: InvocationRequest = await parse(request, InvocationRequest)
        texts = [body.inputs] if isinstance(body.inputs, str) else body.inputs
        vectors, _ = await embed(texts)
        model: Backend = state["backend"]
        return JSONResponse(
            {"embeddings": vectors.tolist(), "model": model.model, "dimensions": model.dimensions}
        )

    @app.post("/v1/embeddings")
    async def embeddings(request: Request) -> JSONResponse:
        body: EmbeddingRequest = await parse(request, EmbeddingRequest)
        model: Backend = state["backend"]
        if body.model and not _same_model(body.model, model.model):
            raise ApiError(404, "model_not_found", f"this endpoint serves {model.model}, not {body.model}")
        if body.dimensions is not None and body.dimensions != model.dimensions:
            raise ApiError(
                400, "invalid_dimensions", f"{model.model} produces {model.dimensions} dimensions only"
            )
        texts = [body.input] if isinstance(body.input, str) else body.input
        vectors, tokens = await embed(texts)
        if body.encoding_format == "base64":  # what the openai SDK asks for by default
            encoded: list[Any] = [base64.b64encode(v.astype("<f4").tobytes()).decode() for v in vectors]
        else:
            encoded = vectors.tolist()
        data = [{"object": "embedding", "index": i, "embedding": e} for i, e in enumerate(encoded)]
        usage = {"prompt_tokens": tokens, "total_tokens": tokens}
        return JSONResponse({"object": "list", "data": data, "model": model.model, "usage": usage})

    return app
