"""Lambda SnapStart: before the snapshot, import what a first request would otherwise import after restore.

The API functions run with SnapStart (``infra/functions.py``): Lambda imports the handler once, when a version is
published, and snapshots the initialised memory; a cold start restores that snapshot instead of importing
again. Whatever the first request imports lazily (the pool, psycopg, numpy, the embedders, boto3 …) is then
better imported *before* the snapshot, and the app's routes analysed there too (FastAPI does that lazily, on the
first request that reaches each router). Connections are not opened there: the pool is built on the first request
after a restore, so no snapshot carries a socket, and secrets are read then too (shared/providers/secrets.py). With the
``local`` embedding provider the ONNX model is loaded before the snapshot as well (it takes about a second and
needs neither the network nor a secret); the app's services pick that embedder up on the first request. After
a restore, ``random`` is reseeded: every environment restored from one snapshot would otherwise draw the same
retry jitter.

    >>> from shared.api import snapstart
    >>> snapstart.prime_before_snapshot(app)  # doctest: +SKIP
    True

``True``: the hooks are registered (``snapshot_restore_py`` is there, as in Lambda's runtimes); they run only
while Lambda builds a snapshot or restores one.

On-demand cold starts (and every process outside Lambda) skip the hook: there the import would only move from
the first request into the init, paying the same.
"""

from __future__ import annotations

import importlib
import logging
import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

logger = logging.getLogger(__name__)

# What the first API request imports after the handler module: the services (pool, psycopg, pgvector, numpy,
# embedders, recall …), and boto3 (the database secret, SQS, the SageMaker embedder), which the bundle pins.
FIRST_REQUEST_MODULES: tuple[str, ...] = ("shared.app.services", "boto3")


def prime(modules: Iterable[str] = FIRST_REQUEST_MODULES) -> list[str]:
    """Import ``modules`` now; returns the ones that are not installed here (boto3 outside AWS, say)."""
    missing = []
    for name in modules:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a module that exists but is broken must fail the snapshot, loudly
                raise
            missing.append(name)
    if missing:
        logger.warning("snapstart prime: not installed: %s", ", ".join(missing))
    return missing


def load_local_embedder(app: FastAPI) -> bool:
    """With ``embedding_provider=local``: build the app's embedder and embed one string (loads the ONNX session),
    for its services to use; True if it did. Opens no connection and reads no secret."""
    settings = app.state.settings
    if settings.embedding_provider != "local":
        return False
    from shared.providers.embeddings import create_embedder

    embedder = create_embedder(settings)
    embedder.warm_up()  # type: ignore[attr-defined]  # LocalOnnxEmbedder (a traced one delegates)
    app.state.embedder = embedder
    return True


def before_snapshot(modules: Iterable[str], app: FastAPI | None = None) -> None:
    """What runs before the snapshot: the imports, then (if an app is given) its routes' analysis and the local
    model."""
    prime(modules)
    if app is not None:
        from shared.api.app import build_routes  # FastAPI analyses routes on the first request otherwise

        build_routes(app)
        load_local_embedder(app)


def prime_before_snapshot(app: FastAPI | None = None, modules: Iterable[str] = FIRST_REQUEST_MODULES) -> bool:
    """Register :func:`before_snapshot` and a reseed of ``random`` after each restore; False where the runtime
    has no hooks.

    ``snapshot_restore_py`` ships with Lambda's Python managed runtimes; Lambda runs the hooks only while it
    builds a snapshot and when it restores one, so an on-demand init does not import anything more than before.
    """
    try:
        from snapshot_restore_py import register_after_restore, register_before_snapshot
    except ModuleNotFoundError:
        return False
    register_before_snapshot(before_snapshot, tuple(modules), app)
    register_after_restore(random.seed)
    return True
