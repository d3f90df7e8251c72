"""Behaviour as the contract: the same scenario sent to the reference (memorylayer-server 0.2.0) and to us, in
fresh workspaces, and the effects compared: status codes, the shape of every answer (types and key sets), and
the stored values, order and counts a scenario reads back.

A scenario is a function of a :class:`Probe`. Every call it makes is recorded (``<step>.status`` and
``<step>.shape``); ``probe.value(step, name, value)`` records what it read back. Volatile values never reach a
recorded value: ids are replaced by the labels the scenario gave them (``probe.label``), and a shape holds
types, never values. The two recordings are compared key by key (:func:`compare`); each difference has a stable
key, and docs/wire.md lists the deliberate ones (:func:`documented_differences`).
"""

from __future__ import annotations

import fnmatch
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

WIRE_DOC = Path(__file__).resolve().parents[1] / "docs" / "wire.md"
TABLE_HEADING = "### Behaviour compared, call for call"


@dataclass
class Probe:
    """One server under one scenario: its client, the scenario's fresh workspace, and what was recorded."""

    client: httpx.Client
    workspace: str
    observations: dict[str, Any] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)

    def call(
        self,
        step: str,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        workspace: str | None = None,
        files: Any = None,
        data: Any = None,
    ) -> Any:
        """Send one request (the scenario's workspace in ``X-Workspace-ID`` unless ``workspace`` names another),
        record its status and the shape of its JSON body, and return the body (None if it is not JSON)."""
        if step in {k.rsplit(".", 1)[0] for k in self.observations}:
            raise ValueError(f"step {step!r} recorded twice")
        sent = {"X-Workspace-ID": workspace or self.workspace, **(headers or {})}
        response = self.client.request(
            method, path, json=json, params=params, headers=sent, files=files, data=data
        )
        self.observations[f"{step}.status"] = response.status_code
        body = None
        if response.content and response.headers.get("content-type", "").startswith("application/json"):
            body = response.json()
        self.observations[f"{step}.shape"] = shape(body)
        return body

    def label(self, value: Any, name: str) -> None:
        """Name an id this server made, so recorded values carry the name instead."""
        if isinstance(value, str) and value:
            self.labels[value] = f"<{name}>"

    def value(self, step: str, name: str, value: Any, *, unordered: bool = False) -> None:
        """Record ``value`` (ids as their labels); ``unordered``: a list whose order is not part of the
        behaviour, compared sorted."""
        if name in ("status", "shape"):
            raise ValueError(f"{name!r} is the call's own observation")
        normal = self.normalise(value)
        if unordered and isinstance(normal, list):
            normal = sorted(normal, key=repr)
        self.observations[f"{step}.{name}"] = normal

    def fields(self, step: str, item: Any, *keys: str) -> None:
        """Each of ``keys`` of ``item`` as a value of its own (one difference names one field)."""
        for key in keys:
            self.value(step, f"{key}_" if key in ("status", "shape") else key, dig(item, key))

    def normalise(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.labels.get(value, value)
        if isinstance(value, list | tuple):
            return [self.normalise(v) for v in value]
        if isinstance(value, dict):
            return {self.normalise(k): self.normalise(v) for k, v in value.items()}
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value


def dig(body: Any, *path: str | int) -> Any:
    """``body[p0][p1]…``, or None where a step is missing (a scenario keeps going when one side failed)."""
    for step in path:
        if isinstance(step, int) and isinstance(body, list) and -len(body) <= step < len(body):
            body = body[step]
        elif isinstance(step, str) and isinstance(body, dict):
            body = body.get(step)
        else:
            return None
    return body


def pluck(items: Any, key: str) -> list[Any]:
    """``[item[key] for item in items]``, tolerating a missing list (None) or missing keys."""
    return [item.get(key) for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def shape(value: Any) -> Any:
    """Types in place of values: a dict's keys with their shapes, a list as the merged shape of its items."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        merged: Any = "empty"
        for item in value:
            merged = _merge(merged, shape(item))
        return [merged]
    if isinstance(value, dict):
        return {str(k): shape(v) for k, v in value.items()}
    return type(value).__name__


def _merge(a: Any, b: Any) -> Any:
    if a in ("empty", "null"):
        return b
    if b in ("empty", "null"):
        return a
    if isinstance(a, dict) and isinstance(b, dict):
        return {k: _merge(a.get(k, "null"), b.get(k, "null")) for k in a.keys() | b.keys()}
    if isinstance(a, list) and isinstance(b, list):
        return [_merge(a[0], b[0])]
    return a if a == b else "mixed"


def shape_differences(ref: Any, ours: Any, path: str = "") -> dict[str, tuple[Any, Any]]:
    """Where ours would trip a client of the reference: a key the reference sends (not null) that we do not, or
    another type. Extra keys of ours are not differences (the SDK's models allow them); null and absent are the
    same (the SDK defaults both); an empty list carries no item shape to compare."""
    if ref in ("null", "empty") or ours in ("null", "empty"):
        return {}
    if isinstance(ref, dict) and isinstance(ours, dict):
        found: dict[str, tuple[Any, Any]] = {}
        for key, sub in ref.items():
            where = f"{path}.{key}" if path else key
            if key not in ours:
                if sub != "null":
                    found[where] = (_brief(sub), "absent")
                continue
            found |= shape_differences(sub, ours[key], where)
        return found
    if isinstance(ref, list) and isinstance(ours, list):
        return shape_differences(ref[0], ours[0], f"{path}[]")
    if ref != ours:
        return {path or "(body)": (_brief(ref), _brief(ours))}
    return {}


def _brief(shape_: Any) -> str:
    if isinstance(shape_, dict):
        return "object"
    if isinstance(shape_, list):
        return "list"
    return str(shape_)


@dataclass(frozen=True)
class Difference:
    key: str
    reference: Any
    ours: Any


def compare(ref: dict[str, Any], ours: dict[str, Any]) -> list[Difference]:
    """Every observation of either side that the other does not match, each under its stable key: the
    observation's key, or ``<step>.shape:<path>`` for a difference inside an answer's shape."""
    found: list[Difference] = []
    for key in list(ref) + [k for k in ours if k not in ref]:
        r, o = ref.get(key, "<not recorded>"), ours.get(key, "<not recorded>")
        if key.endswith(".shape") and key in ref and key in ours:
            status = key.removesuffix(".shape") + ".status"
            if ref.get(status) != ours.get(status):
                continue  # answers of two different statuses: the status is the difference
            for where, (rs, os_) in shape_differences(r, o).items():
                found.append(Difference(f"{key}:{where}", rs, os_))
        elif r != o:
            found.append(Difference(key, r, o))
    return found


Scenario = Callable[[Probe], None]


def fresh_workspace(family: str) -> str:
    return f"ws_bc_{family.replace(' ', '_')}_{uuid.uuid4().hex[:8]}"


def run(scenario: Scenario, client: httpx.Client, workspace: str) -> Probe:
    probe = Probe(client, workspace)
    scenario(probe)
    return probe


@dataclass(frozen=True)
class Documented:
    """One row of docs/wire.md's table of behaviour differences."""

    key: str
    kind: str
    reason: str

    def matches(self, key: str) -> bool:
        return fnmatch.fnmatchcase(key, self.key)


KINDS = ("by design", "ours better", "reference broken", "not built", "our bug, open", "racy")
# A racy row's difference depends on whether background work (the reference's document ingestion, its tiering)
# finished before the call: it may not show in a run, so it is never stale.
RACY = "racy"
_ROW = re.compile(r"^\|\s*`(?P<key>[^`]+)`\s*\|(?P<rest>.*)\|\s*$")


def documented_differences(text: str | None = None) -> list[Documented]:
    """The rows of the table under ``TABLE_HEADING`` in docs/wire.md: ``| `key` | kind | why |``, where a key
    may use ``*`` for any run of characters (one row for one field across the steps that return it)."""
    text = WIRE_DOC.read_text() if text is None else text
    _, found, section = text.partition(TABLE_HEADING)
    if not found:
        raise ValueError(f"docs/wire.md has no {TABLE_HEADING!r} section")
    rows: list[Documented] = []
    for line in section.splitlines()[1:]:
        if line.startswith("#"):
            break
        match = _ROW.match(line)
        if not match:
            continue
        cells = [c.strip() for c in match["rest"].split("|")]
        if len(cells) != 2 or cells[0] not in KINDS or not cells[1]:
            raise ValueError(f"docs/wire.md: a row needs a kind ({', '.join(KINDS)}) and a reason: {line}")
        rows.append(Documented(match["key"], cells[0], cells[1]))
    return rows


def undocumented(differences: list[Difference], rows: list[Documented]) -> list[Difference]:
    return [d for d in differences if not any(row.matches(d.key) for row in rows)]


def stale(differences: list[Difference], rows: list[Documented]) -> list[Documented]:
    """Rows no difference matches any more: the behaviour converged, so the row goes."""
    return [row for row in rows if row.kind != RACY and not any(row.matches(d.key) for d in differences)]


@dataclass(frozen=True)
class Outcome:
    """One family run on both servers: how many observations each side made, and where they differ."""

    family: str
    observed: int
    differences: list[Difference]


def run_family(family: str, scenario: Scenario, reference_url: str, our_url: str) -> Outcome:
    """The scenario on both servers at once, each in the same fresh workspace id (on its own server); every
    observation key is prefixed with the family."""
    from concurrent.futures import ThreadPoolExecutor

    workspace = fresh_workspace(family)

    def on(url: str) -> dict[str, Any]:
        with httpx.Client(base_url=url, timeout=120) as client:
            return {f"{family}.{k}": v for k, v in run(scenario, client, workspace).observations.items()}

    with ThreadPoolExecutor(max_workers=2) as pool:
        ref_future, our_future = pool.submit(on, reference_url), pool.submit(on, our_url)
        ref, ours = ref_future.result(), our_future.result()
    return Outcome(family, max(len(ref), len(ours)), compare(ref, ours))
