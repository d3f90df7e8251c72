"""Every public method of the official SDK (memorylayer-client 0.2.1) against the reference server
(memorylayer-server 0.2.0) and against ours: which work where. ``sdk_matrix_driver.py`` makes the calls, in the
official SDK's own virtualenv; this module runs it and compares.

    PYTHONPATH=. python -m tests.client.sdk_matrix   # both servers fresh; prints the table and the current gaps

'Works' means no exception, or a ``generation_not_allowed`` answer: the documented reply of an LLM route when no
LLM is configured, which is neither server's fault here.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.behaviour import Difference, shape, shape_differences

DRIVER = Path(__file__).with_name("sdk_matrix_driver.py")

# Families by method name, first match wins; the rest are memories.
FAMILIES = [
    ("skills", r"^skills\."),
    ("mcp servers", r"^mcp_servers\."),
    ("knowledge base", r"(^|\.)kb\."),
    ("rpg", r"^rpg\."),
    ("datasets", r"dataset"),
    ("documents", r"document|_job$|_jobs$|^get_page_image$"),
    ("tokens", r"token"),
    ("threads", r"thread|message"),
    ("context environment", r"^context_"),
    ("sessions", r"session|checkpoint|^(get|set)_context|briefing"),
    ("entities", r"entit"),
    ("workspaces", r"workspace"),
]


def family(method: str) -> str:
    return next((name for name, pattern in FAMILIES if re.search(pattern, method)), "memories")


def works(outcome: dict[str, Any]) -> bool:
    return bool(outcome["ok"]) or "generation_not_allowed" in str(outcome.get("message", ""))


@dataclass(frozen=True)
class Run:
    """One driver run against one server."""

    methods: dict[str, dict[str, Any]]
    sync_methods: int
    sub_clients: list[str]
    run_id: str = ""

    @property
    def working(self) -> set[str]:
        return {name for name, outcome in self.methods.items() if works(outcome)}


def run_driver(python: str, base_url: str) -> Run:
    """The driver against ``base_url`` on fresh data (its own workspace); a driver that cannot build a call's
    arguments, or dies, is an error here, never a list of failed methods."""
    run_id = uuid.uuid4().hex[:8]
    done = subprocess.run(
        [python, str(DRIVER), base_url, run_id], capture_output=True, text=True, timeout=300
    )
    if done.returncode != 0:
        raise RuntimeError(f"{DRIVER.name} exited with {done.returncode}: {done.stderr[-3000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if report["errors"]:
        raise RuntimeError(f"{DRIVER.name}: {report['errors']}")
    return Run(report["methods"], report["sync_methods"], report["sub_clients"], run_id)


def gaps(ref: Run, ours: Run) -> set[str]:
    """Methods that work against the reference and not against us."""
    return ref.working - ours.working


# What differs between any two runs, whatever the server: ids, times, hashes, ETags, local URLs.
VOLATILE = re.compile(
    r"^([a-z]+(_[a-z]+)*_[0-9a-f]{8,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32,}"
    r"|\d{4}-\d\d-\d\dT[0-9:.]+(Z|[+-]\d\d:\d\d)?|\".*\"|W/\".*\")$"
)


VOLATILE_FIELDS = re.compile(r"(_ms|_at|^cursor|^etag)$")


def normalised(value: Any, run_id: str) -> Any:
    """A result with what differs from run to run replaced: the run's own id, ids, times, hashes, timings,
    cursors; a fractional number keeps its type, not its value (scores)."""
    if isinstance(value, str):
        value = LOCAL_URL.sub("<url>", value.replace(run_id, "<run>")) if run_id else value
        return "<volatile>" if VOLATILE.match(value) else value
    if isinstance(value, float):
        return int(value) if value.is_integer() else 0.5
    if isinstance(value, list):
        return [normalised(v, run_id) for v in value]
    if isinstance(value, dict):
        return {
            k: "<volatile>" if VOLATILE_FIELDS.search(k) and v is not None else normalised(v, run_id)
            for k, v in value.items()
        }
    return value


# Calls whose answer counts the whole server (every workspace any test made), not the run's own data.
SERVER_WIDE = {"list_workspaces", "async.list_workspaces"}


def result_differences(ref: Run, ours: Run) -> list[Difference]:
    """For each method that returned on both servers: what our answer gives the caller that the reference's
    does not, under ``sdk.<method>.<what>``: the Python type, a field the reference sets that ours lacks or
    types otherwise (``shape:<path>``), a count (``count``: the length of a returned list) or a value (a
    returned scalar, or a top-level field of a returned model or dict that both set)."""
    found: list[Difference] = []
    for name, r in ref.methods.items():
        o = ours.methods.get(name, {})
        if not (r.get("ok") and o.get("ok")):
            continue
        key = f"sdk.{name}"
        if r["type"] != o["type"]:
            found.append(Difference(f"{key}.returns", r["type"], o["type"]))
            continue
        rv, ov = normalised(r["result"], ref.run_id), normalised(o["result"], ours.run_id)
        for where, (rs, os_) in shape_differences(shape(rv), shape(ov)).items():
            found.append(Difference(f"{key}.shape:{where}", rs, os_))
        if isinstance(rv, list):
            if len(rv) != len(ov) and name not in SERVER_WIDE:
                found.append(Difference(f"{key}.count", len(rv), len(ov)))
        elif isinstance(rv, dict) and isinstance(ov, dict):
            for field_, value in rv.items():
                theirs = ov.get(field_)
                scalar = isinstance(value, str | int | bool) and isinstance(theirs, str | int | bool)
                if scalar and value != theirs:
                    found.append(Difference(f"{key}.{field_}", value, theirs))
        elif rv != ov:
            found.append(Difference(f"{key}.value", rv, ov))
    return found


def summary(ref: Run, ours: Run) -> str:
    rows = [
        ("methods", len(ref.methods)),
        ("works on the reference", len(ref.working)),
        ("works on ours", len(ours.working)),
        ("works only on the reference", len(ref.working - ours.working)),
        ("works only on ours", len(ours.working - ref.working)),
    ]
    width = max(len(label) for label, _ in rows)
    return "\n".join(f"{label:<{width}}  {count:>4}" for label, count in rows)


LOCAL_URL = re.compile(r"http://127\.0\.0\.1:\d+")


def _reason(outcome: dict[str, Any]) -> str:
    lines = str(outcome.get("message", "")).splitlines() or [""]
    if lines[0] == "Not Found" or "'404 Not Found'" in lines[0] or "route_not_found" in lines[0]:
        return "route not served (404)"
    if outcome["type"] == "ValidationError" and outcome.get("status") is None:  # pydantic, on the answer
        return f"the SDK cannot read the answer ({lines[0]}: {', '.join(lines[1:2])})"
    status = f" {outcome['status']}" if outcome.get("status") else ""
    return f"{outcome['type']}{status}: {LOCAL_URL.sub('', lines[0])}"[:100]


def gaps_literal(ref: Run, ours: Run) -> str:
    """The methods that work on the reference and not on ours, grouped by family, with what ours answered."""
    lines = ["gaps = {"]
    current = None
    for name in sorted(gaps(ref, ours), key=lambda n: (family(n), n)):
        if family(name) != current:
            current = family(name)
            lines.append(f"    # {current}")
        lines.append(f"    {name!r}: {(current + ': ' + _reason(ours.methods[name]))!r},")
    lines.append("}")
    return "\n".join(lines)


def main() -> None:
    from bench.compare.servers import our_server, reference_server
    from tests.compat import official_python

    python = official_python(required=True)
    with tempfile.TemporaryDirectory(prefix="sdk-matrix-") as workdir:
        with reference_server(Path(workdir)) as server:
            ref = run_driver(python, server.base_url)
        with our_server(Path(workdir)) as server:
            ours = run_driver(python, server.base_url)
    print(summary(ref, ours))
    print()
    print(gaps_literal(ref, ours))
    only_ours = sorted(ours.working - ref.working)
    print(f"\n# works only on ours ({len(only_ours)}): {only_ours}")


if __name__ == "__main__":
    main()
