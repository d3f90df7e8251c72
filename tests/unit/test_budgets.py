"""Every route whose work grows with what it is sent declares a budget (shared/api/budgets.py), and
docs/budgets.md is that registry rendered."""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi._compat import field_annotation_is_sequence
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from shared.api import budgets
from shared.api.app import create_app
from shared.core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def _app() -> FastAPI:
    settings = Settings(
        embedding_provider="hash", auth_mode="none", database_url="postgresql://x@127.0.0.1:1/x"
    )
    return create_app(settings, services=object())  # type: ignore[arg-type]  # never built: no request runs


def _routes(routes: Iterable[Any]) -> Iterator[APIRoute]:
    """Every APIRoute, routers included lazily (FastAPI keeps them behind their router) and gates too."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):
            yield from _routes(route.original_router.routes)
        elif hasattr(route, "routes"):
            yield from _routes(route.routes)


def _dependants(dependant: Dependant) -> Iterator[Dependant]:
    yield dependant
    for sub in dependant.dependencies:
        yield from _dependants(sub)


def _takes_input(route: APIRoute) -> bool:
    """A body (JSON, form, UploadFile), one read by hand from the request, or a list query parameter."""
    found = list(_dependants(route.dependant))
    if any(d.body_params for d in found):
        return True
    if (route.openapi_extra or {}).get("requestBody"):
        return True
    if re.search(r"request\.(stream|body|form|json)\(", inspect.getsource(route.endpoint)):
        return True
    return any(field_annotation_is_sequence(q.field_info.annotation) for d in found for q in d.query_params)


def test_every_route_that_takes_a_body_a_file_or_a_list_has_a_budget() -> None:
    routes = list(_routes(_app().routes))
    assert len(routes) > 100  # the enumeration reached the included routers
    missing = [
        f"{method} {route.path}"
        for route in routes
        if _takes_input(route)
        for method in sorted(route.methods or ())
        if budgets.budget_for(method, route.path) is None
    ]
    assert not missing, f"declare a budget in shared/api/budgets.py for: {missing}"


def test_every_budget_names_real_routes_and_settings() -> None:
    keys = {f"{method} {route.path}" for route in _routes(_app().routes) for method in route.methods or ()}
    for budget in budgets.BUDGETS:
        for pattern in budget.routes:
            assert any(budgets.fnmatchcase(key, pattern) for key in keys), f"no route matches {pattern}"
        for name in budget.settings:
            assert name in Settings.model_fields, f"{name} is not a setting"


def test_docs_budgets_is_the_registry_rendered() -> None:
    assert (ROOT / "docs" / "budgets.md").read_text() == budgets.markdown(), (
        "regenerate: python -m shared.api.budgets > docs/budgets.md"
    )
