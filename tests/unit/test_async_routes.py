"""No ``async def`` in shared/api/routes runs blocking work on the event loop: a call into the services
(``svc.documents.upload(...)``: parsing, SQL, storage), a parser, or the database from an async route stalls
every request the process serves until it returns. Such work is handed to the threadpool
(``await run_in_threadpool(svc.x.y, ...)``) or the route is a plain ``def`` (FastAPI runs it in the pool).

The check reads the source (AST): any call, inside an async function's own body, whose target is reached
through ``svc``, ``services``, ``parsers``, ``repo`` or ``db`` (or is a bare ``parse(...)``) is flagged unless it
is awaited or listed in ALLOWED with the reason it is safe.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROUTES = Path(__file__).resolve().parents[2] / "shared" / "api" / "routes"
BLOCKING_ROOTS = frozenset({"svc", "services", "parsers", "repo", "db"})
BLOCKING_ATTRIBUTES = frozenset({"services", "db", "documents", "pipeline"})
BLOCKING_NAMES = frozenset({"parse"})
# (file, function, the call's dotted target) -> why it may run on the loop. Empty: every async route offloads.
ALLOWED: dict[tuple[str, str, str], str] = {}


def _dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` as ["a", "b", "c"]; None for anything that is not a plain name chain."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def _own_body(function: ast.AsyncFunctionDef) -> list[ast.AST]:
    """The nodes the coroutine itself runs: nested functions and lambdas are left out (they are handed on)."""
    found: list[ast.AST] = []
    todo: list[ast.AST] = list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def blocking_calls(source: str) -> list[tuple[str, str, int]]:
    """(function, dotted target, line) of each un-awaited blocking call in an ``async def`` of ``source``."""
    tree = ast.parse(source)
    found: list[tuple[str, str, int]] = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.AsyncFunctionDef):
            continue
        body = _own_body(function)
        awaited = {id(n.value) for n in body if isinstance(n, ast.Await)}
        for node in body:
            if not isinstance(node, ast.Call) or id(node) in awaited:
                continue
            chain = _dotted(node.func)
            if chain is None:
                continue
            blocking = (
                (len(chain) > 1 and chain[0] in BLOCKING_ROOTS)
                or bool(BLOCKING_ATTRIBUTES.intersection(chain[1:-1]))
                or (len(chain) == 1 and chain[0] in BLOCKING_NAMES)
            )
            if blocking:
                found.append((function.name, ".".join(chain), node.lineno))
    return sorted(found, key=lambda f: f[2])


def test_no_async_route_calls_the_services_on_the_event_loop() -> None:
    offending = []
    for path in sorted(ROUTES.glob("*.py")):
        for function, target, line in blocking_calls(path.read_text()):
            if (path.name, function, target) not in ALLOWED:
                offending.append(f"{path.name}:{line} {function}() calls {target}(...) on the event loop")
    assert not offending, "\n".join(offending)


def test_every_allowance_still_names_a_call() -> None:
    present = {
        (path.name, function, target)
        for path in ROUTES.glob("*.py")
        for function, target, _ in blocking_calls(path.read_text())
    }
    assert set(ALLOWED) <= present, f"stale allowances: {set(ALLOWED) - present}"


def test_the_check_catches_the_upload_route_as_it_was() -> None:
    # The upload route before it moved its work to the threadpool: parse, SQL and storage on the loop.
    before = """
async def upload_document(caller, svc, file):
    data = await file.read()
    doc, job = svc.documents.upload(caller.workspace(), data, file.filename)
    pages = parsers.parse("pdf", data, limits=None)
    return request.app.state.services.db.connection()
"""
    assert [target for _, target, _ in blocking_calls(before)] == [
        "svc.documents.upload",
        "parsers.parse",
        "request.app.state.services.db.connection",
    ]
    after = """
async def upload_document(caller, svc, file):
    data = await file.read()
    doc, job = await run_in_threadpool(svc.documents.upload, caller.workspace(), data, file.filename)
    limit = svc.settings.document_max_bytes
    await svc.async_thing()
    return await through_gate(gate, caller, svc.sandboxes.execute, lambda: svc.db.connection())
"""
    assert blocking_calls(after) == []
