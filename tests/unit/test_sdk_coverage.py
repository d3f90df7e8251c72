"""The SDK covers the whole API: every operation in the app's OpenAPI is sent by some SDK method.

Each public method is called once with placeholder arguments through a transport that records the request
and stops it, so the check follows the code, not a hand-kept list. A new route fails here until the SDK
gains a method for it (or, for a route that is deliberately not in the SDK, a line in ``NOT_IN_SDK``).
"""

from __future__ import annotations

import inspect
import re
from typing import Any, get_type_hints

import httpx
import pytest
from memorylayer import SyncMemoryLayerClient

from shared.api.app import create_app
from shared.core.settings import Settings

# (METHOD, path template) of routes the SDK leaves out on purpose, with the reason.
NOT_IN_SDK: dict[tuple[str, str], str] = {
    (
        "GET",
        "/console/api/whoami",
    ): "the memory console page's own route (what its key may do), not the API's",
    ("GET", "/console/api/jobs"): "the memory console page's jobs tab; an SDK reads one job with get_job",
    (
        "GET",
        "/console/api/memories/{memory_id}/relations",
    ): "the memory console's relations panel; an SDK reads an entity's relations with get_entity",
    ("GET", "/kb"): "the knowledgebase viewer's HTML page, for a browser; an SDK reads list_kb_articles",
    ("GET", "/kb/{workspace_id}"): "the knowledgebase viewer's HTML page; an SDK reads get_kb_article",
}


class Sent(Exception):
    """Raised by the recording transport: the request got as far as the wire."""

    def __init__(self, request: httpx.Request) -> None:
        super().__init__(f"{request.method} {request.url.path}")
        self.request = request


def _stop(request: httpx.Request) -> httpx.Response:
    raise Sent(request)


def _placeholder(name: str, annotation: Any) -> Any:
    text = str(annotation)
    if name == "operations" or name == "messages":
        return (
            [{"op": "create", "content": "x"}] if name == "operations" else [{"role": "user", "content": "x"}]
        )
    if "bytes" in text:
        return b"x"
    if "Sequence[typing.Mapping" in text or "Sequence[collections.abc.Mapping" in text:
        return [{}]
    if "Sequence" in text or "list" in text:
        return ["x"]
    if "Mapping" in text or "WorkspaceExport" in text:
        return {}
    return f"p_{name}"


def _requests_sent_by(method_name: str) -> list[httpx.Request]:
    client = SyncMemoryLayerClient(
        "http://sdk.invalid", workspace_id="ws_cov", max_retries=0, transport=httpx.MockTransport(_stop)
    )
    method = getattr(client, method_name)
    hints = get_type_hints(getattr(SyncMemoryLayerClient, method_name))
    args, kwargs = [], {}
    for name, param in inspect.signature(method).parameters.items():
        if param.default is not param.empty:
            if name == "filename":  # bytes need a name (upload_file); a path would carry its own
                kwargs[name] = "x.txt"
            continue
        value = _placeholder(name, hints.get(name, Any))
        if param.kind is param.KEYWORD_ONLY:
            kwargs[name] = value
        else:
            args.append(value)
    try:
        result = method(*args, **kwargs)
        if inspect.isgenerator(result):
            next(result)
    except Sent as sent:
        return [sent.request]
    return []


def _sdk_methods() -> list[str]:
    return [
        name
        for name, member in inspect.getmembers(SyncMemoryLayerClient, inspect.isfunction)
        if not name.startswith("_") and name != "close"
    ]


def _template_matcher(template: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")


@pytest.fixture(scope="module")
def spec_paths() -> dict[str, Any]:
    # The schema only: no database is opened (the services are never built).
    settings = Settings(
        database_url="postgresql://nobody@127.0.0.1:1/none", embedding_provider="hash", auth_mode="none"
    )
    return create_app(settings, services=object()).openapi()["paths"]


def test_every_api_operation_has_an_sdk_method(spec_paths: dict[str, Any]) -> None:
    operations = {(m.upper(), path) for path, ops in spec_paths.items() for m in ops}
    assert len(operations) > 50  # the spec was read

    covered: dict[tuple[str, str], list[str]] = {}
    for name in _sdk_methods():
        for request in _requests_sent_by(name):
            for method, template in operations:
                if method == request.method and _template_matcher(template).match(request.url.path):
                    covered.setdefault((method, template), []).append(name)

    missing = sorted(operations - covered.keys() - NOT_IN_SDK.keys())
    assert not missing, f"API operations no SDK method sends: {missing}"


@pytest.mark.parametrize("name", _sdk_methods())
def test_every_sdk_method_sends_an_operation_the_api_has(name: str, spec_paths: dict[str, Any]) -> None:
    requests = _requests_sent_by(name)
    assert requests, f"{name} sent nothing"
    request = requests[0]
    assert any(
        request.method.lower() in ops and _template_matcher(path).match(request.url.path)
        for path, ops in spec_paths.items()
    ), f"{name} sends {request.method} {request.url.path}, which the API does not have"
