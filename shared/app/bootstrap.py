"""The services of a Lambda that is not the HTTP API (the worker, cleanup): built on first use from the
environment's Settings, kept while the container is warm.

    >>> process_services("worker").worker.process('{"job_id": "job_…"}')      # doctest: +SKIP
    >>> process_services("cleanup").sessions.cleanup()                         # doctest: +SKIP

Every entry point builds its pool and services with ``Services.build`` (shared/app/services.py): the API app
on its first request, these through here, with one set of options (``Database.from_settings`` sizes the pool
and picks its default row-level wall for ``purpose``; X-Ray tracing in a traced Lambda).
"""

from __future__ import annotations

from functools import cache

from shared.app.services import Services
from shared.core.settings import get_settings
from shared.db.pool import Purpose


@cache
def process_services(purpose: Purpose) -> Services:
    return Services.build(get_settings(), purpose=purpose)
