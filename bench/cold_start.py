"""Lambda cold-start cost here: the import time of each handler, in fresh interpreters, laid out as Lambda runs it.

    python -m bench.cold_start [--runs 7]
    python -m bench.cold_start --baseline REV [--runs 9]   # first requests: REV's handlers against this tree's

Lambda imports the handler from a read-only /var/task with Python 3.12, so it cannot cache bytecode: whatever
the asset does not ship as .pyc is compiled from source on every cold start. This builds each asset the way
``infra.bundle`` does, but with dependencies for this machine's platform, twice: without .pyc (how assets
shipped before) and with Python 3.12 .pyc (how they ship now), and imports each handler from both with
``PYTHONDONTWRITEBYTECODE=1``. Baselines from the same run: ``import fastapi`` (the floor of any FastAPI
handler) from the compiled layout, and the development venv. The pool, the embedder and the SDKs load on the
first request, not at import.

Then the first request, which a cold start also pays for: each API handler, in a fresh interpreter over the
compiled layout, imports and answers one request against a local Postgres (embedded, migrated, a few memories),
twice — *on demand* (import, then the first request pays the lazy imports, the pool and the first query) and
*primed* (import and ``shared.api.snapstart.prime()`` first: what a SnapStart restore starts from, since Lambda runs
both before the snapshot). A second request gives the warm baseline. Not measured here: the snapshot restore
itself, TLS to RDS Proxy and the Secrets Manager read of a deployed first request.

With ``--baseline REV`` the import of every handler and the first-request table run for the git revision REV
(exported with ``git archive``) and for this working tree, each laid out and compiled alike with its own
dependencies, their samples interleaved so both see the same machine load; it adds a request per router position
(a thread read, a health check) and the ratios after/before.

``--traced`` runs every handler as in a Lambda with active tracing (``TRACED_ENV``: the function's name, the
X-Ray agent's address on loopback, a sampled trace header; API keys on, as Lambda requires), so tracing's imports
and the spans' export are in the figures; without it tracing is off, as everywhere outside Lambda.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import httpx

from bench.common import local_stack
from infra.bundle import (
    LAMBDA_PACKAGES,
    REPO_ROOT,
    build_function_asset,
    digest,
    lambda_python,
    precompile,
    runtime_requirements,
)
from shared.local.api_gateway import http_v2

WORK = REPO_ROOT / "build" / "cold-start"
# As Lambda runs the handlers: /var/task is read-only, and infra/functions.py turns pydantic's plugin scan off.
LAMBDA_ENV = {"PYTHONDONTWRITEBYTECODE": "1", "PYDANTIC_DISABLE_PLUGINS": "__all__"}
_TIMED = "import time; t = time.perf_counter(); import {module}; print((time.perf_counter() - t) * 1000)"
# What Lambda sets for a function with active tracing (the agent's address: nothing need listen for UDP), and what
# the stack sets; inside Lambda the API refuses auth_mode none, so requests carry the admin key.
ADMIN_KEY = "bench-cold-start-admin"
TRACED_ENV = {
    "AWS_LAMBDA_FUNCTION_NAME": "memorylayer-bench",
    "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
    "AWS_REGION": "us-east-1",
    "AWS_XRAY_DAEMON_ADDRESS": "127.0.0.1:2000",
    "AWS_XRAY_CONTEXT_MISSING": "LOG_ERROR",
    "_X_AMZN_TRACE_ID": "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1",
    "OTEL_TRACES_SAMPLER": "parentbased_always_off",
    "MEMORYLAYER_AUTH_MODE": "api_key",
    "MEMORYLAYER_ADMIN_KEY": ADMIN_KEY,
    "MEMORYLAYER_CONTEXT_CURSOR_SECRET": "bench-cold-start",
}
_traced: dict[str, str] = {}  # TRACED_ENV under --traced
# Tracing's own share of a traced cold start: turning it on, after what every handler imports anyway (Powertools
# for its logger, botocore for its first request's AWS calls and IAM token, shared.providers.tracing's own imports).
_TRACER_ON = """
import time, aws_lambda_powertools, botocore.client
import shared.providers.tracing as tracing
t = time.perf_counter()
tracer = tracing.lambda_tracer("memorylayer-bench")
ms = (time.perf_counter() - t) * 1000
assert tracer.enabled if hasattr(tracer, "enabled") else not tracer.disabled
print(ms)
"""


def host_dependencies(python: str, root: Path = REPO_ROOT) -> Path:
    """``root``'s Lambda runtime requirements for this machine's platform (the assets carry aarch64 wheels)."""
    requirements = runtime_requirements(root)
    target = WORK / f"deps-{digest(r.encode() for r in requirements)[:12]}"
    if not (target / ".complete").exists():
        shutil.rmtree(target, ignore_errors=True)
        cmd = [python, "-m", "pip", "install", "-q", "--no-compile", "--disable-pip-version-check"]
        subprocess.run([*cmd, "--target", str(target), *requirements], check=True)
        (target / ".complete").touch()
    return target


def layout(deps: Path, folder: Path, *, compiled: bool, root: Path = REPO_ROOT) -> Path:
    """The asset of ``root``'s code in ``folder``, with every handler (and so every module they import)."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    # Every handler's asset shares the dependencies; one folder with all functions (and all of shared/ but the
    # local stack: each asset carries only the modules its handler imports, which is all an import touches).
    asset = build_function_asset("memory", folder, deps=deps, root=root)
    skip = shutil.ignore_patterns("__pycache__")
    for name in LAMBDA_PACKAGES:
        shutil.copytree(
            root / "functions" / name, asset.path / "functions" / name, dirs_exist_ok=True, ignore=skip
        )
    shutil.copytree(root / "shared", asset.path / "shared", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "local"))  # fmt: skip
    if compiled:
        precompile(asset.path)
    return asset.path


def layouts(python: str) -> dict[str, Path]:
    """Two copies of every asset: ``plain`` (sources only) and ``compiled`` (sources + 3.12 bytecode)."""
    deps = host_dependencies(python)
    return {kind: layout(deps, WORK / kind, compiled=kind == "compiled") for kind in ("plain", "compiled")}


def revision_source(rev: str) -> Path:
    """The tree of git revision ``rev``, exported under ``build/cold-start``."""
    sha = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=REPO_ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()  # fmt: skip
    target = WORK / f"src-{sha[:12]}"
    if not (target / ".complete").exists():
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "archive", sha], cwd=REPO_ROOT, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
        (target / ".complete").touch()
    return target


def lambda_env(tree: Path | None, **extra: str) -> dict[str, str]:
    """This environment without its Python and MemoryLayer settings, plus Lambda's (``LAMBDA_ENV``), ``extra``
    and ``tree`` (None: the development venv) on the path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MEMORYLAYER_"))}
    env.update(LAMBDA_ENV, **extra)
    if _traced:
        env.update(_traced, LAMBDA_TASK_ROOT=str(tree or REPO_ROOT))
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    return env


def last_line(python: str, script: str, env: dict[str, str], tree: Path | None, stdin: str = "") -> str:
    """Run ``script`` in a fresh interpreter; its last line of output."""
    out = subprocess.run(
        [python, "-s", "-c", script],
        input=stdin, capture_output=True, text=True, env=env, cwd=tree or REPO_ROOT,
    )  # fmt: skip
    if out.returncode != 0:
        raise RuntimeError(f"benchmark child failed:\n{out.stderr[-3000:]}")
    return out.stdout.strip().splitlines()[-1]


def import_ms(python: str, module: str, runs: int, tree: Path | None) -> float:
    """Median wall time of importing ``module`` in a fresh interpreter that cannot write bytecode."""
    env = lambda_env(tree)
    return statistics.median(
        float(last_line(python, _TIMED.format(module=module), env, tree)) for _ in range(runs)
    )


# The asset has no shared/local, so the Lambda context is spelled out here (what Powertools reads of it).
_FIRST_REQUEST = """
import json, sys, time, uuid
class LambdaContext:
    function_name = "memorylayer-bench"
    function_version = "$LATEST"
    invoked_function_arn = "arn:aws:lambda:us-east-1:000000000000:function:memorylayer-bench"
    memory_limit_in_mb = 1024
    log_group_name = "/aws/lambda/memorylayer-bench"
    log_stream_name = "bench"
    def __init__(self):
        self.aws_request_id = str(uuid.uuid4())
    def get_remaining_time_in_millis(self):
        return 29_000
spec = json.load(sys.stdin)
t0 = time.perf_counter()
handler = __import__(spec["module"], fromlist=["handler"])
t1 = time.perf_counter()
if spec["primed"]:
    from shared.api import snapstart
    snapstart.before_snapshot(snapstart.FIRST_REQUEST_MODULES, handler.app)  # the hook: imports, local model
t2 = time.perf_counter()
first = handler.handler(spec["event"], LambdaContext())
t3 = time.perf_counter()
second = handler.handler(spec["event"], LambdaContext())
t4 = time.perf_counter()
assert first["statusCode"] < 300 and second["statusCode"] < 300, (first, second)
ms = lambda a, b: (b - a) * 1000
print(json.dumps({"import": ms(t0, t1), "prime": ms(t1, t2), "first": ms(t2, t3), "warm": ms(t3, t4)}))
"""


def signed(headers: dict[str, str]) -> dict[str, str]:
    """An event's headers: with the admin key under --traced (API keys on, as Lambda requires)."""
    return {**headers, "Authorization": f"Bearer {ADMIN_KEY}"} if _traced else headers


def api_events(base_url: str) -> dict[str, dict]:
    """One typical request per API handler, on a workspace with a few memories and an open session."""
    hdr = {"X-Workspace-ID": "ws_cold_start"}
    with httpx.Client(base_url=base_url, headers=hdr, timeout=30) as http:
        for i in range(20):
            http.post(
                "/v1/memories", json={"content": f"cold start note {i}: the deploy key is in vault {i}"}
            )
        sid = http.post("/v1/sessions", json={"working_memory": {"goal": "ship"}}).json()["session"]["id"]
    return {
        "memory": http_v2(
            "POST", "/v1/memories/recall", body={"query": "where is the deploy key?"}, headers=signed(hdr)
        ),
        "sessions": http_v2("GET", f"/v1/sessions/{sid}", headers=signed(hdr)),
        "context": http_v2(
            "POST", f"/v1/sessions/{sid}/context-pack", body={"budget_tokens": 256}, headers=signed(hdr)
        ),
    }


def first_request_env(dsn: str) -> dict[str, str]:
    """Open (no key lookup) like the local stack, unless --traced turns keys on as Lambda requires. No sandbox
    executor: the asset has no wasmtime (the sandbox is a function of its own), and no request here runs code."""
    return {"MEMORYLAYER_DATABASE_URL": dsn, "MEMORYLAYER_EMBEDDING_PROVIDER": "hash",
            "MEMORYLAYER_AUTH_MODE": "none", "MEMORYLAYER_CONTEXT_CURSOR_SECRET": "bench-cold-start",
            "MEMORYLAYER_CONTEXT_EXECUTOR": "off"}  # fmt: skip


def one_first_request(python: str, tree: Path, name: str, event: dict, dsn: str, primed: bool) -> dict:
    """Import / prime / first-request / warm-request times of ``name`` in one fresh interpreter."""
    env = lambda_env(tree, **first_request_env(dsn))
    spec = json.dumps({"module": f"functions.{name}.handler", "event": event, "primed": primed})
    return json.loads(last_line(python, _FIRST_REQUEST, env, tree, spec))


def first_request(python: str, tree: Path, name: str, event: dict, dsn: str, primed: bool, runs: int) -> dict:
    """Median import / prime / first-request / warm-request times of ``name`` in fresh interpreters."""
    samples: dict[str, list[float]] = {}
    for _ in range(runs):
        for key, value in one_first_request(python, tree, name, event, dsn, primed).items():
            samples.setdefault(key, []).append(value)
    return {key: statistics.median(values) for key, values in samples.items()}


def first_request_table(python: str, tree: Path, runs: int) -> None:
    with local_stack("hash") as (base_url, settings):
        events = api_events(base_url)
        dsn = str(settings.database_url)
        print(
            "\n| handler | import ms | on demand: first request ms | on demand: import + first ms "
            "| primed (SnapStart): first request ms | warm request ms |"
        )
        print("|---|---|---|---|---|---|")
        for name, event in events.items():
            cold = first_request(python, tree, name, event, dsn, False, runs)
            primed = first_request(python, tree, name, event, dsn, True, runs)
            print(
                f"| {name} | {cold['import']:.0f} | {cold['first']:.0f} | {cold['import'] + cold['first']:.0f} "
                f"| {primed['first']:.0f} | {cold['warm']:.1f} |"
            )


def baseline_events(base_url: str) -> dict[str, tuple[str, dict]]:
    """``api_events`` plus a request for a router matched late (a thread's messages) and a health check."""
    hdr = {"X-Workspace-ID": "ws_cold_start"}
    events = {label: (label, event) for label, event in api_events(base_url).items()}
    with httpx.Client(base_url=base_url, headers=hdr, timeout=30) as http:
        tid = http.post("/v1/threads", json={}).json()["thread"]["id"]
        http.post(f"/v1/threads/{tid}/messages", json={"messages": [{"role": "user", "content": "hello"}]})
    events["memory: thread messages"] = (
        "memory",
        http_v2("GET", f"/v1/threads/{tid}/messages", headers=signed(hdr)),
    )
    events["memory: health"] = ("memory", http_v2("GET", "/health"))
    return {label: events[label] for label in ("memory", "memory: thread messages", "memory: health",
                                                "sessions", "context")}  # fmt: skip


def baseline_table(python: str, rev: str, runs: int) -> None:
    """Imports and first requests of ``rev``'s handlers and of this tree's, interleaved; medians and ratios."""
    source = revision_source(rev)
    trees = {
        "before": layout(host_dependencies(python, source), WORK / "baseline", compiled=True, root=source),
        "after": layout(host_dependencies(python), WORK / "compiled", compiled=True),
    }
    with local_stack("hash") as (base_url, settings):
        events = baseline_events(base_url)
        dsn = str(settings.database_url)
        print(f"load average {os.getloadavg()[0]:.1f}; Python 3.12, compiled layouts; before = {rev}; "
              f"tracing {'on' if _traced else 'off'}; medians of {runs} fresh interpreters each, before and "
              "after interleaved\n")  # fmt: skip
        print("| handler | import ms (before → after) | ratio |")
        print("|---|---|---|")
        for name in LAMBDA_PACKAGES:
            script = _TIMED.format(module=f"functions.{name}.handler")
            imports: dict[str, list[float]] = {}
            for _ in range(runs):
                for which, tree in trees.items():
                    env = lambda_env(tree, **first_request_env(dsn))
                    imports.setdefault(which, []).append(float(last_line(python, script, env, tree)))
            before, after = (statistics.median(imports[which]) for which in ("before", "after"))
            print(f"| {name} | {before:.0f} → {after:.0f} | {after / before:.2f} |")
        setup: dict[str, list[float]] = {}
        for _ in range(3 * runs):
            for which, tree in trees.items():
                env = lambda_env(
                    tree, **{**first_request_env(dsn), **TRACED_ENV, "LAMBDA_TASK_ROOT": str(tree)}
                )
                setup.setdefault(which, []).append(float(last_line(python, _TRACER_ON, env, tree)))
        before, after = (statistics.median(setup[which]) for which in ("before", "after"))
        print(f"\nTurning tracing on (medians of {3 * runs}, after Powertools and botocore are imported): "
              f"{before:.1f} → {after:.1f} ms\n")  # fmt: skip
        print("| request | import + app ms (before → after) | on demand: first request ms | on demand: import + "
              "first ms | SnapStart hook ms | primed: first request ms | ratio on demand import + first "
              "| ratio primed first |")  # fmt: skip
        print("|---|---|---|---|---|---|---|---|")
        for label, (name, event) in events.items():
            samples: dict[tuple[str, bool], dict[str, list[float]]] = {}
            for _ in range(runs):
                for primed in (False, True):
                    for which, tree in trees.items():
                        one = one_first_request(python, tree, name, event, dsn, primed)
                        one["cold"] = one["import"] + one["first"]
                        for key, value in one.items():
                            samples.setdefault((which, primed), {}).setdefault(key, []).append(value)
            med = {k: {key: statistics.median(v) for key, v in d.items()} for k, d in samples.items()}
            b, a = med[("before", False)], med[("after", False)]
            bp, ap = med[("before", True)], med[("after", True)]
            print(
                f"| {label} | {b['import']:.0f} → {a['import']:.0f} | {b['first']:.0f} → {a['first']:.0f} "
                f"| {b['cold']:.0f} → {a['cold']:.0f} | {bp['prime']:.0f} → {ap['prime']:.0f} "
                f"| {bp['first']:.0f} → {ap['first']:.0f} | {a['cold'] / b['cold']:.2f} "
                f"| {ap['first'] / bp['first']:.2f} |"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--baseline", metavar="REV", help="compare imports and first requests with revision REV"
    )
    parser.add_argument("--traced", action="store_true", help="as in a Lambda with active tracing")
    args = parser.parse_args()
    if args.traced:
        _traced.update(TRACED_ENV)
    python = lambda_python()
    if python is None:
        raise SystemExit("bench.cold_start needs a Python 3.12 (the Lambda runtime's version)")
    if args.baseline:
        baseline_table(python, args.baseline, args.runs)
        return
    trees = layouts(python)
    floor = import_ms(python, "fastapi", args.runs, trees["compiled"])
    print(
        f"load average {os.getloadavg()[0]:.1f}; Python 3.12; `import fastapi` (with .pyc): {floor:.0f} ms\n"
    )
    print("| handler | no .pyc (before) ms | with .pyc (now) ms | now × `import fastapi` | dev venv ms |")
    print("|---|---|---|---|---|")
    for name in LAMBDA_PACKAGES:
        module = f"functions.{name}.handler"
        plain = import_ms(python, module, args.runs, trees["plain"])
        compiled = import_ms(python, module, args.runs, trees["compiled"])
        dev = import_ms(sys.executable, module, args.runs, None)
        print(f"| {name} | {plain:.0f} | {compiled:.0f} | {compiled / floor:.2f} | {dev:.0f} |")
    first_request_table(python, trees["compiled"], args.runs)


if __name__ == "__main__":
    main()
