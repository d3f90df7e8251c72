"""SnapStart: each API handler registers a before-snapshot hook that imports what its first request needs, an
on-demand import does not run it, and a handler whose hooks ran (as Lambda runs them before the snapshot)
still answers real requests. Each case runs in a fresh interpreter, as a Lambda init would."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from shared.api import snapstart
from shared.domain.sessions import cursor as cursor_codec
from tests.aws_secrets import secrets_manager
from tests.functions.events import http_v2

# Runs in a fresh interpreter: import the handler, run the registered hooks as the runtime would, invoke.
INIT_THEN_INVOKE = """
import json, sys
# Count what must not happen before the snapshot: database connections and AWS API calls (secrets).
import botocore.client, psycopg
seen = {"db_connects": 0, "aws_calls": []}
_connect = psycopg.Connection.connect.__func__
def connect(cls, *args, **kwargs):
    seen["db_connects"] += 1
    return _connect(cls, *args, **kwargs)
psycopg.Connection.connect = classmethod(connect)
_api_call = botocore.client.BaseClient._make_api_call
def api_call(self, operation, params):
    seen["aws_calls"].append(operation)
    return _api_call(self, operation, params)
botocore.client.BaseClient._make_api_call = api_call
spec = json.load(sys.stdin)
handler = __import__(spec["module"], fromlist=["handler"])
import random
from snapshot_restore_py import get_after_restore, get_before_snapshot
out = {"services_after_import": "shared.app.services" in sys.modules, "hooks": len(get_before_snapshot())}
for func, args, kwargs in get_before_snapshot():
    func(*args, **kwargs)
out["services_after_hooks"] = "shared.app.services" in sys.modules
embedder = handler.app.state.embedder
out["model_loaded_before_snapshot"] = getattr(embedder, "_session", None) is not None
out["before_invoke"] = {"db_connects": seen["db_connects"], "aws_calls": list(seen["aws_calls"])}
# Two restores of one snapshot start from the same random state; the after-restore hooks must part them.
state = random.getstate()
draws = []
for _ in range(2):
    random.setstate(state)
    for func, args, kwargs in get_after_restore():
        func(*args, **kwargs)
    draws.append(random.random())
out["restores_draw_alike"] = draws[0] == draws[1]
from shared.local.lambda_context import LambdaContext
out["responses"] = [handler.handler(event, LambdaContext()) for event in spec["events"]]
out["services_use_that_embedder"] = embedder is not None and handler.app.state.services.embedder is embedder
out["after_invoke"] = seen
print(json.dumps(out))
"""


def init_then_invoke(module: str, events: list[dict], database_url: str, **extra_env: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYLAYER_")}
    env.update(
        {
            "MEMORYLAYER_DATABASE_URL": database_url,
            "MEMORYLAYER_EMBEDDING_PROVIDER": "hash",
            # Open unless a test says otherwise (these tests are about the snapshot, not keys); allowed here
            # because AWS_LAMBDA_FUNCTION_NAME is not set.
            "MEMORYLAYER_AUTH_MODE": "none",
            **extra_env,
        }
    )
    spec = {"module": module, "events": events}
    done = subprocess.run(
        [sys.executable, "-c", INIT_THEN_INVOKE],
        input=json.dumps(spec), capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_prime_reports_what_is_not_installed_and_fails_on_what_is_broken(tmp_path, monkeypatch):
    assert snapstart.prime(["json", "no_such_module_here"]) == ["no_such_module_here"]
    # A module that is installed but cannot import must fail the snapshot, not be skipped.
    (tmp_path / "broken_for_snapstart.py").write_text("import no_such_dependency_here\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency_here"):
        snapstart.prime(["broken_for_snapstart"])


def test_memory_handler_primes_before_the_snapshot_and_still_serves(app_url, ws):
    hdr = {"X-Workspace-ID": ws}
    events = [
        http_v2("POST", "/v1/memories", body={"content": "The deploy key lives in the vault"}, headers=hdr),
        http_v2("POST", "/v1/memories/recall", body={"query": "where is the deploy key?"}, headers=hdr),
    ]
    out = init_then_invoke("functions.memory.handler", events, app_url)

    # The import alone stays light (an on-demand cold start); the hook imports the first request's modules.
    assert out["services_after_import"] is False
    assert out["hooks"] == 1 and out["services_after_hooks"] is True
    assert out["restores_draw_alike"] is False
    created, recalled = out["responses"]
    assert created["statusCode"] == 201
    memory_id = json.loads(created["body"])["memory"]["id"]
    assert recalled["statusCode"] == 200
    assert [m["id"] for m in json.loads(recalled["body"])["memories"]][:1] == [memory_id]


@pytest.mark.parametrize("name", ["sessions", "context"])
def test_session_handlers_prime_before_the_snapshot_and_still_serve(app_url, http, ws, name):
    hdr = {"X-Workspace-ID": ws}
    if name == "sessions":
        event = http_v2("POST", "/v1/sessions", body={"working_memory": {"goal": "ship"}}, headers=hdr)
    else:
        sid = http.post("/v1/sessions", json={"working_memory": {"goal": "ship"}}, headers=hdr).json()
        path = f"/v1/sessions/{sid['session']['id']}/context-pack"
        event = http_v2("POST", path, body={"budget_tokens": 64}, headers=hdr)
    out = init_then_invoke(f"functions.{name}.handler", [event], app_url)

    assert out["services_after_import"] is False
    assert out["hooks"] == 1 and out["services_after_hooks"] is True
    assert out["restores_draw_alike"] is False
    response = out["responses"][0]
    body = json.loads(response["body"])
    if name == "sessions":
        assert response["statusCode"] == 201 and body["session"]["workspace_id"] == ws
    else:
        assert response["statusCode"] == 200 and body["rendered"] == "## Working Memory\n- goal: ship"


def test_the_local_model_loads_before_the_snapshot_without_db_or_secrets(database_url, ws):
    hdr = {"X-Workspace-ID": ws}
    events = [
        http_v2("POST", "/v1/memories", body={"content": "Invoices are due on the 5th"}, headers=hdr),
        http_v2("POST", "/v1/memories/recall", body={"query": "when are invoices due?"}, headers=hdr),
    ]
    out = init_then_invoke(
        "functions.memory.handler", events, database_url, MEMORYLAYER_EMBEDDING_PROVIDER="local"
    )

    assert out["model_loaded_before_snapshot"] is True
    assert out["before_invoke"] == {"db_connects": 0, "aws_calls": []}
    assert out["services_use_that_embedder"] is True  # loaded once, before the snapshot
    created, recalled = out["responses"]
    assert created["statusCode"] == 201
    assert json.loads(created["body"])["memory"]["embedding_model"] == "all-MiniLM-L6-v2@384"
    assert recalled["statusCode"] == 200 and json.loads(recalled["body"])["memories"]
    assert out["after_invoke"]["db_connects"] >= 1


def test_hash_provider_loads_no_model_before_the_snapshot(database_url, ws):
    event = http_v2("GET", "/v1/memories", headers={"X-Workspace-ID": ws})
    out = init_then_invoke("functions.memory.handler", [event], database_url)
    assert out["model_loaded_before_snapshot"] is False and out["services_use_that_embedder"] is False
    assert out["responses"][0]["statusCode"] == 200


def test_no_secret_is_read_before_the_snapshot_only_on_first_use(database_url, http, ws):
    sid = http.post("/v1/sessions", json={}, headers={"X-Workspace-ID": ws}).json()["session"]["id"]
    with secrets_manager() as sm:
        admin_arn = sm.create("memorylayer-admin", "admin-from-secrets-manager")
        cursor_arn = sm.create("memorylayer-cursor", "cursor-from-secrets-manager")
        auth = {"X-Workspace-ID": ws, "Authorization": "Bearer admin-from-secrets-manager"}
        event = http_v2("POST", f"/v1/sessions/{sid}/context-pack", body={}, headers=auth)
        out = init_then_invoke(
            "functions.context.handler",
            [event, event],
            database_url,
            MEMORYLAYER_AUTH_MODE="api_key",
            MEMORYLAYER_ADMIN_KEY_SECRET_ARN=admin_arn,
            MEMORYLAYER_CONTEXT_CURSOR_SECRET_ARN=cursor_arn,
            **sm.env,
        )

        assert out["hooks"] == 1 and out["before_invoke"] == {"db_connects": 0, "aws_calls": []}
        assert [r["statusCode"] for r in out["responses"]] == [200, 200]
        cursor = json.loads(out["responses"][0]["body"])["cursor"]
        assert cursor_codec.decode(b"cursor-from-secrets-manager", cursor, ws, sid) >= 0
        # Read on first use, then cached for the second request.
        assert sm.reads(admin_arn) == 1 and sm.reads(cursor_arn) == 1
