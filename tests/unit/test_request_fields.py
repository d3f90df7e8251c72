"""No field accepted and unread: every field of every request model of the HTTP API (body models, nested models,
query parameters) is read by some code, or docs/wire.md lists it as accepted and ignored, with a reason.

"Read" is decided statically, as narrowly as names allow:
- a handler's own parameter (a query parameter, an embedded body value) is read when the handler's body (or its
  dependency's) uses the name;
- a model's field is read when a module that names the model (or a class it derives from) accesses it as an
  attribute (``x.field``), as a string key (``["field"]``, ``.get("field")``, ``include={"field"}``), outside
  the class that declares it; a module that passes the model on with ``model_dump`` also counts the field read
  when the SQL layer (``shared/db``) names it as a column.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
import textwrap
import typing
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic import BaseModel

from tests.unit.test_budgets import _app, _dependants, _routes

ROOT = Path(__file__).resolve().parents[2]
SECTION = re.compile(r"<!-- accepted-ignored:start -->(.*?)<!-- accepted-ignored:end -->", re.S)


@dataclass(frozen=True)
class RequestField:
    """One request field: where it is accepted, its name, and what decides whether it is read."""

    where: str  # "Model" for a model field, "METHOD /path" for a handler parameter
    name: str
    owner: Any  # the model class, or the handler function
    parents: frozenset[Any] = frozenset()  # the request models that hold this model in a field
    ancestors: frozenset[tuple[Any, str]] = frozenset()  # (model, its field) on every path up to a body


# ------------------------------------------------------------------ the fields
def _models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    """The pydantic models an annotation holds (list[M], M | None, Annotated[M, …], unions of models)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        return
    for arg in typing.get_args(annotation):
        yield from _models_in(arg)


def _all_models(models: Iterable[type[BaseModel]]) -> dict[type[BaseModel], set[tuple[type[BaseModel], str]]]:
    """The models and every model nested in their fields, each with the (model, field) pairs that hold it."""
    seen: dict[type[BaseModel], set[tuple[type[BaseModel], str]]] = {}
    todo: list[tuple[type[BaseModel], tuple[type[BaseModel], str] | None]] = [(m, None) for m in models]
    while todo:
        model, via = todo.pop()
        known = model in seen
        parents = seen.setdefault(model, set())
        if via:
            parents.add(via)
        if known:
            continue
        for name, field in model.model_fields.items():
            todo.extend((nested, (model, name)) for nested in _models_in(field.annotation))
    return seen


def request_fields(routes: Iterable[APIRoute]) -> list[RequestField]:
    """Every body model field (nested models too) and every query/embedded-body parameter of ``routes``."""
    models: list[type[BaseModel]] = []
    params: dict[tuple[str, str], RequestField] = {}
    for route in routes:
        where = f"{sorted(route.methods or ())[0]} {route.path}"
        for dep in _dependants(route.dependant):
            call = dep.call
            if isinstance(call, type) and issubclass(call, BaseModel):
                models.append(call)
                continue
            for param in [*dep.query_params, *dep.body_params]:
                found = list(_models_in(param.field_info.annotation))
                if found:
                    models.extend(found)
                elif call is not None:
                    params[(where, param.name)] = RequestField(where, param.name, call)
    holders = _all_models(models)

    def ancestors(model: type[BaseModel]) -> frozenset[tuple[Any, str]]:
        found: set[tuple[Any, str]] = set()
        todo = list(holders[model])
        while todo:
            link = todo.pop()
            if link not in found:
                found.add(link)
                todo.extend(holders[link[0]])
        return frozenset(found)

    fields = [
        RequestField(model.__name__, name, model, frozenset(p for p, _ in parents), ancestors(model))
        for model, parents in holders.items()
        for name in model.model_fields
    ]
    return fields + list(params.values())


# ------------------------------------------------------------------ is it read?
def _load_names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


@cache
def _function_uses(function: Any) -> frozenset[str]:
    """The names a function's body loads (its signature's annotations and defaults are not its body)."""
    function = inspect.unwrap(function)
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    return frozenset(set().union(*(_load_names(stmt) for stmt in node.body)))


Owners = (
    frozenset[str] | None
)  # the names in a receiver's annotation (``body: RecallRequest``); None: unknown


@dataclass
class Module:
    """One source file, indexed: where each attribute is loaded and each string constant used as code (with
    the annotation of the receiver when it is a typed parameter or ``self``), the spans that declare or
    validate a model's fields (not reads), and its ``model_dump`` calls."""

    path: Path
    attributes: dict[str, list[tuple[int, Owners]]]
    strings: dict[str, list[int]]
    declaring: dict[str, list[tuple[int, int]]]  # class name -> field declarations and validators
    dumps: list[tuple[Owners, bool, frozenset[str]]]  # (receiver's owners, include=?, exclude names)
    names: set[
        str
    ]  # every identifier it loads, imports or defines (and string constants: forward references)


def _span(node: ast.AST) -> tuple[int, int]:
    line = getattr(node, "lineno", 0)
    return line, getattr(node, "end_lineno", None) or line


def _annotation_names(node: ast.AST | None) -> frozenset[str]:
    if node is None:
        return frozenset()
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a quoted forward reference
        return frozenset(re.findall(r"\w+", node.value))
    return frozenset(
        {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        | {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
    )


def _index(path: Path) -> Module:
    tree = ast.parse(path.read_text())
    module = Module(path, {}, {}, {}, [], set())
    docs = {
        id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
    }

    def owners(receiver: ast.AST, cls: str | None, typed: dict[str, frozenset[str]]) -> Owners:
        if isinstance(receiver, ast.Name):
            if receiver.id == "self" and cls:
                return frozenset({cls})
            return typed.get(receiver.id)
        return None

    def visit(node: ast.AST, cls: str | None, typed: dict[str, frozenset[str]]) -> None:
        if isinstance(node, ast.Attribute):
            module.names.add(node.attr)  # ``m.ExecuteRequest`` names the model
            if isinstance(node.ctx, ast.Load):
                module.attributes.setdefault(node.attr, []).append(
                    (node.lineno, owners(node.value, cls, typed))
                )
        elif isinstance(node, ast.Name):
            module.names.add(node.id)
        elif isinstance(node, ast.alias):
            module.names.add((node.asname or node.name).split(".")[-1])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            module.strings.setdefault(node.value, []).append(node.lineno)
            module.names.add(node.value)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
            typed = {**typed, **{a.arg: _annotation_names(a.annotation) for a in params if a.annotation}}
        elif isinstance(node, ast.ClassDef):
            cls = node.name
            module.names.add(cls)
            spans = module.declaring.setdefault(node.name, [])
            for stmt in node.body:
                decorators = [ast.unparse(d) for d in getattr(stmt, "decorator_list", [])]
                if isinstance(stmt, ast.AnnAssign | ast.Assign) or any(
                    "validator" in d or "serializer" in d for d in decorators
                ):
                    spans.append(_span(stmt))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "model_dump"
        ):
            module.dumps.append((owners(node.func.value, cls, typed), *_dump_args(node)))
        for child in ast.iter_child_nodes(node):
            visit(child, cls, typed)

    visit(tree, None, {})
    return module


def _dump_args(call: ast.Call) -> tuple[bool, frozenset[str]]:
    """Whether a ``model_dump`` call narrows with ``include``, and the names its ``exclude`` spells out."""
    keywords = {k.arg: k.value for k in call.keywords}
    excluded = keywords.get("exclude")
    names = (
        {n.value for n in ast.walk(excluded) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        if excluded is not None
        else set()
    )
    return "include" in keywords, frozenset(names)


@cache
def _modules(root: Path) -> tuple[Module, ...]:
    return tuple(_index(path) for path in sorted(root.rglob("*.py")))


def _lineage(model: type[BaseModel]) -> set[str]:
    """The names that refer to the model's fields: the model, its model bases and its subclasses."""
    names = {
        c.__name__ for c in model.__mro__ if issubclass(c, BaseModel) and c.__module__ != "pydantic.main"
    }

    def subclasses(cls: type) -> Iterator[type]:
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    names |= {c.__name__ for c in subclasses(model)}
    return names - {"RequestModel", "BaseModel"}


def _outside(lines: list[int], spans: list[tuple[int, int]]) -> bool:
    return any(not any(a <= line <= b for a, b in spans) for line in lines)


@cache
def _related(
    model: type[BaseModel], reach: frozenset[str], root: Path
) -> tuple[tuple[Module, frozenset[str]], ...]:
    """The modules that may read the model's fields: they name it (or its lineage) or load a field that holds it."""
    lineage = frozenset(_lineage(model))
    return tuple(
        (module, lineage)
        for module in _modules(root)
        if reach & module.attributes.keys() or lineage & module.names
    )


@cache
def _model_names() -> frozenset[str]:
    def subclasses(cls: type) -> Iterator[type]:
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    return frozenset(c.__name__ for c in subclasses(BaseModel))


def _may_be(owner: Owners, lineage: frozenset[str]) -> bool:
    """A receiver may be the model: unknown, annotated with it, or annotated with no model at all."""
    return owner is None or bool(owner & lineage) or not owner & _model_names()


@cache
def _dumped_whole(model: type[BaseModel], name: str, root: Path) -> bool:
    """Some code passes the model on with ``model_dump`` (not narrowed by ``include``, ``name`` not excluded)
    on a receiver that may be the model, in a module that names it (its own class: its stored document)."""
    for module, lineage in _related(model, frozenset(), root):
        for owner, narrowed, excluded in module.dumps:
            if _may_be(owner, lineage) and not narrowed and name not in excluded:
                return True
    return False


def _model_field_read(field: RequestField, root: Path) -> bool:
    model, name = field.owner, field.name
    reach = {holding for parent, holding in field.ancestors if parent in field.parents}
    for module, lineage in _related(model, frozenset(reach), root):
        skip = [span for cls in lineage for span in module.declaring.get(cls, [])]
        attributes = [line for line, owner in module.attributes.get(name, []) if _may_be(owner, lineage)]
        if _outside(attributes, skip) or _outside(module.strings.get(name, []), skip):
            return True
    # Passed on whole, itself or inside a model that holds it (a dump carries the nested models).
    return _dumped_whole(model, name, root) or any(
        _dumped_whole(ancestor, holding, root) for ancestor, holding in field.ancestors
    )


def is_read(field: RequestField, root: Path) -> bool:
    if not (isinstance(field.owner, type) and issubclass(field.owner, BaseModel)):
        return field.name in _function_uses(field.owner)
    return _model_field_read(field, root)


def unread(fields: Iterable[RequestField], root: Path, allowed: set[tuple[str, str]]) -> list[str]:
    return sorted(
        f"{f.where}.{f.name}"
        for f in fields
        if (f.where, f.name) not in allowed and ("*", f.name) not in allowed and not is_read(f, root)
    )


# ------------------------------------------------------------------ the documented list
def accepted_and_ignored(text: str) -> dict[tuple[str, str], str]:
    """docs/wire.md's accepted-and-ignored table: (where, field) -> reason. ``where`` is a model's name, a route
    ("POST /v1/…") or ``*``; every row must give a reason."""
    found = SECTION.search(text)
    assert found, (
        "docs/wire.md has no <!-- accepted-ignored:start --> … <!-- accepted-ignored:end --> section"
    )
    rows: dict[tuple[str, str], str] = {}
    for line in found.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not line.lstrip().startswith("|") or set(cells[0]) <= {"-", " "}:
            continue
        where, name, reason = (c.strip("`") if i < 2 else c for i, c in enumerate(cells))
        if (where, name) == ("where", "field"):
            continue
        assert reason and len(reason) >= 10, f"{where}.{name}: give a reason"
        rows[(where, name)] = reason
    return rows


def _wire_md() -> str:
    return (ROOT / "docs" / "wire.md").read_text()


def test_every_request_field_is_read_or_documented_as_ignored() -> None:
    fields = request_fields(_routes(_app().routes))
    assert len(fields) > 300  # the walk reached the bodies, the nested models and the query parameters
    allowed = set(accepted_and_ignored(_wire_md()))
    missing = unread(fields, ROOT / "shared", allowed)
    assert not missing, (
        "request fields that no code reads: honour them, or list them in docs/wire.md's accepted-and-ignored "
        f"section with a reason: {missing}"
    )


def test_every_documented_ignored_field_is_a_request_field_still_unread() -> None:
    """The list cannot hide a field that is read now, or name one that no longer exists."""
    fields = request_fields(_routes(_app().routes))
    by_key = {(f.where, f.name): f for f in fields}
    names = {f.name for f in fields}
    for where, name in accepted_and_ignored(_wire_md()):
        if where == "*":
            assert name in names, f"no request field is called {name}"
            continue
        field = by_key.get((where, name))
        assert field is not None, f"{where}.{name} is not a request field"
        assert not is_read(field, ROOT / "shared"), f"{where}.{name} is read now: drop it from the list"


# ------------------------------------------------------------------ the checker catches what it should
PLANTED = """
from typing import Annotated

from fastapi import Query
from pydantic import BaseModel


class PlantedBody(BaseModel):
    honoured: str = ""
    planted_unread: str = ""
    dumped: int = 0


class Nested(BaseModel):
    inner_read: int = 0
    inner_unread: int = 0


class PlantedOuter(BaseModel):
    items: list[Nested] = []


def endpoint(
    body: PlantedBody,
    outer: PlantedOuter,
    limit: Annotated[int, Query()] = 1,
    planted_query: Annotated[int, Query()] = 0,
) -> dict:
    rows = [n.inner_read for n in outer.items]
    return {"honoured": body.honoured, "n": limit, "rows": rows, **body.model_dump(include={"dumped"})}


def passes_it_on(planted_query: Annotated[int, Query()] = 0) -> dict:
    return helper(planted_query)


def helper(value: int) -> dict:
    return {}
"""


def test_the_checker_flags_planted_unread_fields(tmp_path: Path) -> None:
    package = tmp_path / "planted_src"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "handlers.py").write_text(PLANTED)
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("planted_src.handlers")
        app = FastAPI()
        app.post("/planted")(module.endpoint)
        fields = request_fields(_routes(app.routes))
        names = {f"{f.where}.{f.name}" for f in fields}
        assert names == {
            "PlantedBody.honoured", "PlantedBody.planted_unread", "PlantedBody.dumped", "PlantedOuter.items",
            "Nested.inner_read", "Nested.inner_unread", "POST /planted.limit", "POST /planted.planted_query",
        }  # fmt: skip
        found = unread(fields, package, set())
        assert found == ["Nested.inner_unread", "POST /planted.planted_query", "PlantedBody.planted_unread"]
        # A parameter handed to a helper counts as read by the handler (the check does not follow calls).
        app.get("/on")(module.passes_it_on)
        assert unread(request_fields(_routes(app.routes)), package, set()) == found
        # The documented list excuses exactly the rows it names.
        allowed = {("PlantedBody", "planted_unread"), ("*", "inner_unread")}
        assert unread(fields, package, allowed) == ["POST /planted.planted_query"]
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("planted_src")]:
            del sys.modules[name]


def test_the_documented_list_needs_a_reason() -> None:
    text = (
        "<!-- accepted-ignored:start -->\n| where | field | reason |\n|---|---|---|\n"
        "| `RecallRequest` | `x` | |\n<!-- accepted-ignored:end -->"
    )
    try:
        accepted_and_ignored(text)
    except AssertionError as exc:
        assert "give a reason" in str(exc)
    else:
        raise AssertionError("a row without a reason was accepted")
    good = text.replace("| |", "| the reference's clients send it |")
    assert accepted_and_ignored(good) == {("RecallRequest", "x"): "the reference's clients send it"}
