"""/v1/context/* over HTTP: per-session sandboxes in Postgres, run by the isolated executor."""

from __future__ import annotations

import ast
import json
import socket
import threading
import time

import httpx
import pytest

from shared.api.app import create_app
from shared.api.deps import Caller
from shared.core.errors import Forbidden
from shared.domain.auth import Principal
from shared.domain.context_env.requests import ExecuteRequest
from shared.domain.sessions.requests import ContextPackRequest
from shared.local.server import serve_in_thread
from tests.helpers.http import create, h


def sx(ws: str, sid: str) -> dict[str, str]:
    return h(ws, **{"X-Session-ID": sid})


@pytest.fixture()
def session(http, ws) -> tuple[str, str]:
    return ws, create(http, ws)["id"]


def execute(http, ws: str, sid: str, code: str, **extra) -> httpx.Response:
    return http.post("/v1/context/execute", json={"code": code, **extra}, headers=sx(ws, sid))


@pytest.fixture()
def two_seconds(services, monkeypatch):
    short = services.settings.model_copy(update={"context_max_exec_seconds": 2.0})
    monkeypatch.setattr(services.sandboxes, "settings", short)


def test_state_persists_between_calls_and_across_a_cold_start(http, session, settings):
    ws, sid = session
    first = execute(http, ws, sid, "x = 40\nitems = [1, 2]\nx + 2")
    assert first.status_code == 200, first.text
    assert first.json() == {
        **first.json(),
        "result": "42",
        "error": None,
        "variables_changed": ["items", "x"],
    }
    # A fresh app: its own pool and services, nothing in memory (a new Lambda container).
    with serve_in_thread(create_app(settings)) as url, httpx.Client(base_url=url, timeout=30) as cold:
        again = execute(cold, ws, sid, "items.append(x)\nitems")
    assert again.status_code == 200 and again.json()["result"] == "[1, 2, 40]"
    status = http.get("/v1/context/status", headers=sx(ws, sid)).json()
    assert (
        status["exists"] and status["variables"] == ["items", "x"] and status["metadata"]["exec_count"] == 2
    )


def test_caller_exceptions_answer_200_and_change_nothing(http, session):
    ws, sid = session
    execute(http, ws, sid, "x = 1")
    failed = execute(http, ws, sid, "x = 2\n1 / 0")
    assert failed.status_code == 200
    assert (
        failed.json()["error"].startswith("ZeroDivisionError")
        and failed.json()["error_code"] == "execution_error"
    )
    assert execute(http, ws, sid, "x").json()["result"] == "1"


def test_status_inspect_and_pack_read_without_creating(http, session, services):
    ws, sid = session
    assert http.get("/v1/context/status", headers=sx(ws, sid)).json()["exists"] is False
    listed = http.post("/v1/context/inspect", headers=sx(ws, sid))
    assert listed.status_code == 200 and listed.json() == {
        "variable_count": 0,
        "variables": {},
        "total_size_bytes": 0,
    }
    pack = http.post(
        f"/v1/sessions/{sid}/context-pack", json={"include_sandbox_summary": True}, headers=h(ws)
    )
    assert pack.status_code == 200 and not [i for i in pack.json()["items"] if i["kind"] == "sandbox_summary"]
    assert http.get("/v1/context/status", headers=sx(ws, sid)).json()["exists"] is False
    with services.db.connection() as conn:
        assert (
            conn.execute(
                "SELECT count(*) AS n FROM context_sandboxes WHERE session_id = %s", (sid,)
            ).fetchone()["n"]
            == 0
        )


def test_inspect_and_pack_summary_after_execute(http, session):
    ws, sid = session
    execute(http, ws, sid, "note = 'x' * 500")
    one = http.post("/v1/context/inspect?variable=note&preview_chars=10", headers=sx(ws, sid)).json()
    assert one["variable"] == "note" and one["type"] == "str" and one["preview"] == "'xxxxxxxxx..."
    missing = http.post("/v1/context/inspect?variable=nope", headers=sx(ws, sid))
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "variable_not_found"
    pack = http.post(f"/v1/sessions/{sid}/context-pack", json={}, headers=h(ws)).json()
    item = [i for i in pack["items"] if i["kind"] == "sandbox_summary"]
    assert item and item[0]["id"] == f"sandbox:{sid}" and '"variable_count": 1' in item[0]["content"]


def test_infinite_loop_is_stopped_in_time_and_the_server_keeps_serving(http, session, two_seconds, base_url):
    ws, sid = session
    answers: list[tuple[httpx.Response, float]] = []

    def spin() -> None:
        response = execute(http, ws, sid, "while True: pass")
        answers.append((response, time.monotonic()))

    worker = threading.Thread(target=spin)
    worker.start()
    time.sleep(0.3)
    with httpx.Client(base_url=base_url, timeout=5) as other:
        assert other.get("/v1/context/status", headers=sx(ws, sid)).status_code == 200
        served = time.monotonic()
    worker.join(15)
    assert answers, "the execution never answered in 15 s"  # the request did not hang
    response, answered = answers[0]
    # The server kept serving: the status read came back while the loop was still spinning (an order, not a
    # duration, so a loaded machine cannot fake a failure).
    assert served < answered
    assert response.status_code == 422 and response.json()["detail"]["code"] == "execution_timeout"
    # execution_timeout comes only from the executor's deadline (its epoch ticker), so the deadline stopped the
    # guest; and not before the limit, by the executor's own clock from the guest's start. A lower bound only:
    # how long past the deadline the answer took is the machine's load, not the limit.
    detail = response.json()["detail"]
    assert detail["elapsed_ms"] >= 2000 and "exceeded 2 s and was stopped" in detail["message"], detail


@pytest.mark.parametrize(
    ("code", "error"),
    [
        ("a = bytearray(1 << 30)", "memory_limit"),
        ("__import__('os').system('id')", "code_rejected"),
        ("import socket", "code_rejected"),
        ("g = (g.gi_frame.f_back.f_back.f_globals for _ in [1])\nm = list(g)[0]", "code_rejected"),
        ("'{0.__globals__}'.format(type)", "code_rejected"),
        ("def f(:\n  pass", "syntax_error"),
    ],
)
def test_limits_and_escapes_are_clear_4xx(http, session, code, error):
    ws, sid = session
    response = execute(http, ws, sid, code)
    assert response.status_code == 422, response.text
    assert response.json()["detail"]["code"] == error
    assert http.get("/health").status_code == 200


def test_environment_is_empty_even_through_an_escape(http, session):
    ws, sid = session
    # No AST refusal here: os.environ is reachable from any imported module via a plain attribute.
    response = execute(http, ws, sid, "import json\nlen(json.decoder.__dict__)")
    assert response.status_code in (200, 422)
    env = execute(http, ws, sid, "import random\nrandom._os.environ.copy()")
    assert env.status_code == 200 and env.json()["result"] == "{}", env.text


def test_one_session_cannot_read_another(http, ws, other_ws):
    mine = create(http, ws)["id"]
    theirs = create(http, other_ws)["id"]
    execute(http, ws, mine, "secret = 'ws-only'")
    peek = execute(http, other_ws, theirs, "secret")
    assert peek.status_code == 200 and peek.json()["error"].startswith("NameError")
    # Naming my session from the other workspace finds nothing: 404, not my sandbox.
    cross = execute(http, other_ws, mine, "secret")
    assert cross.status_code == 404


def test_request_errors(http, session):
    ws, sid = session
    assert http.post("/v1/context/execute", json={"code": "1"}, headers=h(ws)).json()["detail"]["code"] == (
        "missing_session_id"
    )
    assert execute(http, ws, "sess_nope", "1").status_code == 404
    assert execute(http, ws, sid, "").status_code == 422
    assert (
        http.post(
            "/v1/context/inject", json={"key": "not a name", "value": 1}, headers=sx(ws, sid)
        ).status_code
        == 422
    )
    assert http.post("/v1/context/inspect?preview_chars=5000", headers=sx(ws, sid)).status_code == 422
    bad_json = http.post(
        "/v1/context/inject", json={"key": "v", "value": "{", "parse_json": True}, headers=sx(ws, sid)
    )
    assert bad_json.status_code == 400 and bad_json.json()["detail"]["code"] == "invalid_json"
    assert http.get("/v1/context/status", headers=sx(ws, sid)).json()["exists"] is False


def test_load_and_inject_put_plain_data_in(http, session):
    ws, sid = session
    for text in ("redis cache times out", "lunch is at noon"):
        assert http.post("/v1/memories", json={"content": text}, headers=h(ws)).status_code == 201
    loaded = http.post(
        "/v1/context/load", json={"var": "mems", "query": "redis", "limit": 5}, headers=sx(ws, sid)
    )
    assert loaded.status_code == 200 and loaded.json()["count"] >= 1, loaded.text
    injected = http.post(
        "/v1/context/inject",
        json={"key": "cfg", "value": '{"a": [1, 2]}', "parse_json": True},
        headers=sx(ws, sid),
    ).json()
    assert injected == {"variable": "cfg", "type": "dict", "preview": "{'a': [1, 2]}", "error": None}
    got = execute(
        http, ws, sid, "[m['content'] for m in mems if 'redis' in m['content']], cfg['a'][1]"
    ).json()
    assert got["result"] == "(['redis cache times out'], 2)"


def test_load_applies_the_callers_filters(http, session):
    ws, sid = session
    rows = [
        {"content": "redis timeout in checkout", "type": "episodic", "tags": ["ops"], "user_id": "alice"},
        {"content": "redis timeout fixed by pooling", "type": "semantic", "tags": ["ops"], "user_id": "bob"},
        {"content": "redis timeout post-mortem", "type": "semantic", "tags": ["docs"], "user_id": "alice"},
    ]
    for row in rows:
        assert http.post("/v1/memories", json=row, headers=h(ws)).status_code == 201

    def load(**filters) -> list[str]:
        body = {"var": "mems", "query": "redis timeout", "limit": 10, **filters}
        loaded = http.post("/v1/context/load", json=body, headers=sx(ws, sid))
        assert loaded.status_code == 200, loaded.text
        got = execute(http, ws, sid, "sorted(m['content'] for m in mems)").json()["result"]
        contents = ast.literal_eval(got)
        assert loaded.json()["count"] == len(contents)
        return contents

    assert len(load()) == 3
    assert load(types=["semantic"]) == ["redis timeout fixed by pooling", "redis timeout post-mortem"]
    assert load(tags=["ops"]) == ["redis timeout fixed by pooling", "redis timeout in checkout"]
    assert load(user_id="alice") == ["redis timeout in checkout", "redis timeout post-mortem"]
    assert load(types=["semantic"], tags=["ops"], user_id="bob") == ["redis timeout fixed by pooling"]
    # min_relevance is recall's own floor (on cosine, so keyword matches can pass it): load keeps what recall does.
    for floor in (0.0, 0.99):
        recalled = http.post(
            "/v1/memories/recall",
            json={"query": "redis timeout", "limit": 10, "min_relevance": floor},
            headers=h(ws),
        ).json()["memories"]
        assert load(min_relevance=floor) == sorted(m["content"] for m in recalled)
    refused = http.post(
        "/v1/context/load", json={"var": "mems", "query": "x", "types": ["nonsense"]}, headers=sx(ws, sid)
    )
    assert refused.status_code == 422


def test_preview_caps_hold(http, session):
    ws, sid = session
    execute(http, ws, sid, "big = 'y' * 100_000")
    widest = http.post("/v1/context/inspect?variable=big&preview_chars=1000", headers=sx(ws, sid)).json()
    assert widest["size_bytes"] > 100_000 and len(widest["preview"]) <= 1003
    injected = http.post("/v1/context/inject", json={"key": "z", "value": "q" * 5000}, headers=sx(ws, sid))
    assert len(injected.json()["preview"]) <= 203


def test_query_and_rlm_need_generation(http, session):
    ws, sid = session
    for path, body in (("query", {"prompt": "sum it", "variables": ["x"]}), ("rlm", {"goal": "count"})):
        response = http.post(f"/v1/context/{path}", json=body, headers=sx(ws, sid))
        assert response.status_code == 403 and response.json()["detail"]["code"] == "generation_not_allowed"


def test_checkpoint_shows_in_context_delta_and_cleanup_frees(http, session, services):
    ws, sid = session
    execute(http, ws, sid, "x = 1\nnote = 'hello'")
    cursor = http.post(f"/v1/sessions/{sid}/context-pack", json={}, headers=h(ws)).json()["cursor"]
    assert http.post("/v1/context/checkpoint", headers=sx(ws, sid)).status_code == 204
    delta = http.post(f"/v1/sessions/{sid}/context-delta", json={"cursor": cursor}, headers=h(ws))
    assert delta.status_code == 200, delta.text
    changes = delta.json()["sandbox_changes"]
    assert [(c["id"], c["kind"], c["tombstone"]) for c in changes] == [
        (f"sandbox:{sid}", "sandbox_changes", False)
    ]
    summary = json.loads(changes[0]["content"])
    assert summary["variable_count"] == 2 and summary["variables"]["note"]["preview"] == "'hello'"
    assert "## Sandbox Changes" in delta.json()["rendered"] and changes[0] in delta.json()["items"]
    # Delivered once: the next cursor has nothing more.
    later = http.post(
        f"/v1/sessions/{sid}/context-delta", json={"cursor": delta.json()["cursor"]}, headers=h(ws)
    ).json()
    assert later["sandbox_changes"] == [] and later["items"] == []
    with services.db.connection() as conn:
        kinds = conn.execute(
            "SELECT kind FROM session_context_events WHERE workspace_id = %s AND session_id = %s", (ws, sid)
        ).fetchall()
    assert [k["kind"] for k in kinds].count("sandbox_checkpoint") == 1
    assert http.get("/v1/context/status", headers=sx(ws, sid)).json()["metadata"]["checkpointed_at"]
    assert http.delete("/v1/context/cleanup", headers=sx(ws, sid)).status_code == 204
    assert http.get("/v1/context/status", headers=sx(ws, sid)).json()["exists"] is False
    # Read again from the first cursor, the checkpoint of a freed sandbox is a tombstone.
    again = http.post(f"/v1/sessions/{sid}/context-delta", json={"cursor": cursor}, headers=h(ws)).json()
    assert again["sandbox_changes"] == []
    assert [t["id"] for t in again["tombstones"] if t["kind"] == "sandbox_changes"] == [f"sandbox:{sid}"]
    # Without a sandbox, /checkpoint has nothing to mark and emits nothing.
    assert http.post("/v1/context/checkpoint", headers=sx(ws, sid)).status_code == 204
    assert (
        http.post(
            f"/v1/sessions/{sid}/context-delta", json={"cursor": again["cursor"]}, headers=h(ws)
        ).json()["items"]
        == []
    )


def test_ended_and_expired_sessions_free_their_sandboxes(http, ws, services, clock):
    ended = create(http, ws)["id"]
    expiring = create(http, ws, ttl_seconds=60)["id"]
    for sid in (ended, expiring):
        assert execute(http, ws, sid, "x = 1").status_code == 200
    assert http.delete(f"/v1/sessions/{ended}", headers=h(ws)).status_code == 204
    clock.advance(services.settings.session_touch_ttl_s + 120)  # X-Session-ID calls slid the TTL
    while services.sessions.cleanup()["sessions_expired"]:
        pass  # a sweep takes a batch; other tests' sessions (every one now expired) may come first
    with services.db.connection() as conn:
        left = conn.execute(
            "SELECT session_id FROM context_sandboxes WHERE workspace_id = %s", (ws,)
        ).fetchall()
    assert left == []


def test_a_sandbox_belongs_to_the_key_that_made_it(http, session, services):
    ws, sid = session

    def caller(key: str) -> Caller:
        return Caller(requested=ws, session_id=sid, principal=Principal(key, (ws,)))

    services.sandboxes.execute(caller("key_a"), ExecuteRequest(code="x = 1"))
    with pytest.raises(Forbidden) as refused:
        services.sandboxes.execute(caller("key_b"), ExecuteRequest(code="x"))
    assert refused.value.code == "sandbox_key_mismatch"


@pytest.fixture()
def openai_stub(services, settings, monkeypatch):
    from shared.providers.llm import create_llm
    from tests.embed.stubs import StubServer
    from tests.integration.test_llm_paths import llm_settings, openai_chat_wire

    stub = StubServer(openai_chat_wire)
    stub.replies = []
    stub.start()
    monkeypatch.setattr(services.sandboxes, "llm", create_llm(llm_settings(settings, "openai", stub)))
    yield stub
    stub.stop()


def test_deterministic_policy_refuses_generation_even_with_an_llm(
    http, session, services, openai_stub, monkeypatch
):
    strict = services.sandboxes.settings.model_copy(update={"enrichment_policy": "deterministic"})
    monkeypatch.setattr(services.sandboxes, "settings", strict)
    ws, sid = session
    for path, body in (("query", {"prompt": "sum it", "variables": ["x"]}), ("rlm", {"goal": "count"})):
        response = http.post(f"/v1/context/{path}", json=body, headers=sx(ws, sid))
        assert response.status_code == 403 and response.json()["detail"]["code"] == "generation_not_allowed"
    in_code = execute(http, ws, sid, "llm_query('hi')")
    assert in_code.status_code == 403 and in_code.json()["detail"]["code"] == "generation_not_allowed"
    assert openai_stub.requests == []  # nothing reached the LLM


def test_query_sends_the_variables_to_the_llm_and_keeps_the_answer(http, session, openai_stub):
    ws, sid = session
    execute(http, ws, sid, "nums = [1, 2, 3]")
    openai_stub.replies.append({"response": "The sum is 6."})
    body = {"prompt": "What is the sum?", "variables": ["nums", "missing"], "result_var": "answer"}
    response = http.post("/v1/context/query", json=body, headers=sx(ws, sid))
    assert response.status_code == 200, response.text
    assert response.json() == {
        "response": "The sum is 6.",
        "variables_used": ["nums", "missing"],
        "result_var": "answer",
        "error": None,
    }
    sent = json.dumps(openai_stub.requests[-1].body["messages"])
    assert "[nums] (list)" in sent and "[1, 2, 3]" in sent and "[missing]: (not found)" in sent
    assert execute(http, ws, sid, "answer").json()["result"] == "'The sum is 6.'"


def test_rlm_runs_the_planned_code_in_the_sandbox(http, session, openai_stub):
    ws, sid = session
    execute(http, ws, sid, "nums = [1, 2, 3]")
    openai_stub.replies.append({"code": "```python\n_final_result = sum(nums)\n_goal_achieved = True\n```"})
    response = http.post(
        "/v1/context/rlm", json={"goal": "sum nums", "result_var": "total"}, headers=sx(ws, sid)
    )
    assert response.status_code == 200, response.text
    out = response.json()
    assert out["goal_achieved"] and out["result"] == "6" and out["iterations"] == 1
    assert out["trace"][0]["verdict"] == "goal_achieved_by_code"
    # The planner's code is caller code like any other: the same wall.
    openai_stub.replies.append({"code": "__import__('os').system('id')"})
    openai_stub.replies.append({"code": "x = 1"})
    openai_stub.replies.append({"verdict": "FAILED", "reason": "gave up"})
    again = http.post(
        "/v1/context/rlm", json={"goal": "escape", "max_iterations": 2}, headers=sx(ws, sid)
    ).json()
    assert "not allowed" in again["trace"][0]["error"] and again["goal_achieved"] is False


def test_concurrent_calls_on_one_session_cannot_both_win(http, session, base_url):
    ws, sid = session
    execute(http, ws, sid, "n = 0")
    slow: list[httpx.Response] = []

    def run_slow() -> None:
        with httpx.Client(base_url=base_url, timeout=30) as other:
            # Long enough that the fast call below (a whole executor start on a loaded machine) ends first.
            slow.append(execute(other, ws, sid, "import time\ntime.sleep(3.0)\na = 1"))

    worker = threading.Thread(target=run_slow)
    worker.start()
    time.sleep(0.5)
    fast = execute(http, ws, sid, "b = 2")
    worker.join(20)
    assert fast.status_code == 200
    assert slow[0].status_code == 409 and slow[0].json()["detail"]["code"] == "sandbox_busy"
    names = http.get("/v1/context/status", headers=sx(ws, sid)).json()["variables"]
    assert names == ["b", "n"]  # the loser changed nothing


def test_llm_query_inside_the_sandbox_goes_through_the_orchestrator(http, session, openai_stub):
    ws, sid = session
    openai_stub.replies.append({"response": "Paris"})
    answer = execute(http, ws, sid, "city = llm_query('capital of France?')\ncity")
    assert answer.status_code == 200 and answer.json()["result"] == "'Paris'", answer.text
    assert "capital of France?" in json.dumps(openai_stub.requests[-1].body["messages"])
    openai_stub.replies.extend({"response": str(i)} for i in range(10))
    greedy = execute(http, ws, sid, "[llm_query(str(i)) for i in range(10)]")
    assert greedy.status_code == 422 and greedy.json()["detail"]["code"] == "llm_call_ceiling"


def test_llm_query_without_generation_is_refused(http, session):
    ws, sid = session
    refused = execute(http, ws, sid, "llm_query('hi')")
    assert refused.status_code == 403 and refused.json()["detail"]["code"] == "generation_not_allowed"


@pytest.mark.parametrize(
    "code",
    [
        "while True:\n    random._os.fork()",  # a fork bomb
        "random._os.open('/etc/passwd', 0)",  # a file outside the working directory
        "random._os.kill(random._os.getppid(), 9)",  # the API process (or, in a namespace, its init)
        "random._os.system('curl http://169.254.169.254/')",  # a shell, the metadata service
    ],
)
def test_attacks_through_a_real_os_module_get_nothing(http, session, code):
    # random._os is the real os module and the AST check lets it through: the guest's walls are what hold.
    ws, sid = session
    response = execute(http, ws, sid, "import random\n" + code)
    assert response.status_code == 200 and response.json()["error_code"] == "execution_error", response.text
    assert http.get("/health").status_code == 200


def test_a_socket_to_the_database_port_gets_nothing(http, session, settings):
    from psycopg.conninfo import conninfo_to_dict

    info = conninfo_to_dict(settings.database_url or "")
    host, port = str(info.get("host") or "127.0.0.1"), int(info.get("port") or 5432)
    with socket.create_connection((host, port), timeout=5):
        pass  # the database listens, and this process (the API's) reaches it
    # The allow-list lets importlib through random._os.sys: the guest has no sockets to make.
    code = (
        "import random\nimportlib = random._os.sys.modules['importlib']\n"
        f"s = importlib.import_module('_socket').socket()\ns.connect(({host!r}, {port}))\n'connected'"
    )
    ws, sid = session
    response = execute(http, ws, sid, code)
    assert response.status_code == 200 and response.json()["error_code"] == "execution_error", response.text
    assert response.json()["result"] is None and http.get("/health").status_code == 200


def test_huge_output_is_capped(http, session):
    ws, sid = session
    response = execute(http, ws, sid, "print('x' * 10**7)")
    assert response.status_code == 200 and len(response.json()["output"]) == 50_000


def test_the_api_process_never_unpickles_state(http, session, monkeypatch):
    import pickle

    def refuse(*args, **kwargs):
        raise AssertionError("the API process unpickled something")

    # The server runs in this process (a thread): any unpickling on its side would hit these.
    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)
    monkeypatch.setattr(pickle, "Unpickler", refuse)
    ws, sid = session
    assert execute(http, ws, sid, "x = {'a': [1, 2]}").status_code == 200
    assert execute(http, ws, sid, "x['a'][1]").json()["result"] == "2"
    assert http.post("/v1/context/inspect?variable=x", headers=sx(ws, sid)).json()["type"] == "dict"


def test_pack_previews_follow_the_inspect_rule(http, session, services):
    ws, sid = session

    def caller(key: str, access: str = "read_write") -> Caller:
        return Caller(requested=ws, session_id=sid, principal=Principal(key, (ws,), access=access))

    services.sandboxes.execute(caller("key_owner"), ExecuteRequest(code="secret = 'owner only'"))
    with pytest.raises(Forbidden):
        services.sandboxes.inspect(caller("key_reader", "read"), None, 200)

    def sandbox_items(viewer: str) -> list[dict]:
        pack = services.context.pack(caller(viewer).lookup_scope(), sid, ContextPackRequest(), viewer=viewer)
        return [i for i in pack["items"] if i["kind"] == "sandbox_summary"]

    assert sandbox_items("key_reader") == []
    assert "owner only" in sandbox_items("key_owner")[0]["content"]
    assert "owner only" in sandbox_items("admin")[0]["content"]


def test_a_state_written_by_an_older_version_is_a_clear_409(http, session, services):
    import pickle
    import zlib

    ws, sid = session
    execute(http, ws, sid, "x = 1")
    with services.db.transaction() as conn:
        old = zlib.compress(pickle.dumps({"x": pickle.dumps(1)}))
        conn.execute(
            "UPDATE context_sandboxes SET state = %s WHERE workspace_id = %s AND session_id = %s",
            (old, ws, sid),
        )
    refused = execute(http, ws, sid, "x")
    assert refused.status_code == 409 and refused.json()["detail"]["code"] == "sandbox_state_outdated"
    assert http.delete("/v1/context/cleanup", headers=sx(ws, sid)).status_code == 204
    assert execute(http, ws, sid, "x = 2\nx").json()["result"] == "2"
