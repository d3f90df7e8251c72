"""The sandbox's answer, and every state the host reads, is untrusted data: over real HTTP, an answer built to
be expensive to read leaves the API answering, and a malformed or oversized one is a 4xx with a code.

Caller code may write its own answer on stdout and exit (the AST check lets ``random._os`` through: the guest's
own ``os``, which reaches nothing of the host's). The expensive one here is a set of ints that all hash alike
(k·(2^61−1)): decoding it on the host took time quadratic in its size, in C, holding the GIL.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import httpx
import pytest

from shared.domain.context_env.guest import MARKER
from tests.helpers.http import create, h
from tests.secured import admin_client, serve_secured

MODULUS = (1 << 61) - 1  # hash(k * MODULUS) == 0 for every k: the ints every set puts in one bucket
COLLIDING = (
    20_000  # 7 to 30 s of the old host's decoding on these shared cores; 0.3 s of the walk that replaced it
)
PAGE = os.sysconf("SC_PAGE_SIZE")


def sx(ws: str, sid: str) -> dict[str, str]:
    return h(ws, **{"X-Session-ID": sid})


def writes(payload: str) -> str:
    """Guest code that writes ``payload`` (Python source of a str expression, ``json`` imported) as its
    answer and exits before the real one."""
    return (
        f"import json, random\nos = random._os\nos.write(1, ({MARKER!r} + {payload}).encode())\nos._exit(0)"
    )


def forged_state(state: str) -> str:
    """Guest code whose answer is a successful execution with the state ``state`` (source of a str)."""
    return writes(f'json.dumps({{"ok": True, "output": "", "state": {state}}})')


COLLIDING_STATE = (
    f'\'{{"format": 1, "vars": {{"s": {{"$set": [\' + \',\'.join(\'{{"$int": "%x"}}\' % (k * {MODULUS}) '
    f"for k in range(1, {COLLIDING + 1})) + ']}}}}}}'"
)


# --- the noisy neighbour ---------------------------------------------------------------------------------------


def rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE


@dataclass
class Probes:
    """What the neighbours saw while an attack ran: each probe's seconds, and the process's peak growth."""

    health: list[float] = field(default_factory=list)
    neighbour: list[float] = field(default_factory=list)
    grew: int = 0


def while_it_runs(
    url: str, attack: Callable[[], httpx.Response], probe: Callable[[], httpx.Response]
) -> tuple[httpx.Response, Probes]:
    """Run ``attack`` on a thread; until it answers, two more threads call /health and ``probe`` (another
    tenant's request) again and again, timing each call, and this one samples the process's resident memory
    (the server runs in it)."""
    answer: list[httpx.Response] = []
    probes = Probes()
    start_rss = peak = rss()
    attacker = threading.Thread(target=lambda: answer.append(attack()))

    def again(call: Callable[[], httpx.Response], times: list[float]) -> None:
        while attacker.is_alive():
            sent = time.monotonic()
            response = call()
            times.append(time.monotonic() - sent)
            assert response.status_code == 200, response.text
            time.sleep(0.05)

    with httpx.Client(base_url=url, timeout=120) as health:
        probers = [
            threading.Thread(target=again, args=(lambda: health.get("/health"), probes.health)),
            threading.Thread(target=again, args=(probe, probes.neighbour)),
        ]
        attacker.start()
        for thread in probers:
            thread.start()
        while attacker.is_alive():
            peak = max(peak, rss())
            time.sleep(0.02)
        for thread in (attacker, *probers):
            thread.join()
    probes.grew = peak - start_rss
    return answer[0], probes


def assert_answered(probes: Probes, what: str) -> None:
    print(
        f"\n{what}: /health max {max(probes.health):.3f} s over {len(probes.health)} probes, the other tenant's "
        f"listing max {max(probes.neighbour):.3f} s, resident memory +{probes.grew >> 20} MiB"
    )
    assert probes.health and probes.neighbour
    assert max(probes.health) < 1.0 and max(probes.neighbour) < 1.0, what
    assert probes.grew < 256 << 20, what


@contextmanager
def two_tenants(settings, services) -> Iterator[tuple[str, httpx.Client, str, httpx.Client, str]]:
    """Tenant A's and tenant B's keys, each for a workspace of its own, on the app with keys on."""
    # Long enough for the guest to write the big answer on a loaded machine, short enough for a colliding set
    # built by the guest itself to time out in a few seconds.
    with serve_secured(settings, services, context_max_exec_seconds=8.0) as url, admin_client(url) as admin:
        clients = []
        for _ in range(2):
            ws, tenant = f"ws_{uuid.uuid4().hex[:12]}", f"t_{uuid.uuid4().hex[:10]}"
            made = admin.post("/v1/admin/api-keys", json={"workspaces": [ws], "tenant_id": tenant})
            assert made.status_code == 201, made.text
            key = made.json()["key"]
            clients.append(
                (httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=120), ws)
            )
        (a, wa), (b, wb) = clients
        with a, b:
            yield url, a, wa, b, wb


def test_a_colliding_set_in_a_tenants_state_leaves_the_api_answering(settings, services):
    """Tenant B writes an answer whose state is a set of colliding ints, then injects and loads into that state
    (each of which read every variable again), and builds such a set by honest execution: all the while
    /health and tenant A's memory listing answer within 1 s, and the process grows less than 256 MiB."""
    with two_tenants(settings, services) as (url, a, wa, b, wb):
        assert a.post("/v1/memories", json={"content": "tenant A's note"}, headers=h(wa)).status_code == 201
        assert b.post("/v1/memories", json={"content": "tenant B's note"}, headers=h(wb)).status_code == 201
        sid = create(b, wb)["id"]

        def neighbour() -> httpx.Response:
            return a.get("/v1/memories", headers=h(wa))

        forged, probes = while_it_runs(
            url,
            lambda: b.post(
                "/v1/context/execute", json={"code": forged_state(COLLIDING_STATE)}, headers=sx(wb, sid)
            ),
            neighbour,
        )
        assert_answered(probes, "forged colliding set")
        assert forged.status_code == 200, forged.text
        seen = b.post("/v1/context/inspect?variable=s", headers=sx(wb, sid)).json()
        assert seen["type"] == "set" and seen["preview"].startswith(f"{{{MODULUS}, {2 * MODULUS}, ")

        injected, probes = while_it_runs(
            url,
            lambda: b.post("/v1/context/inject", json={"key": "n", "value": 1}, headers=sx(wb, sid)),
            neighbour,
        )
        assert_answered(probes, "inject beside it")
        assert injected.status_code == 200 and injected.json()["type"] == "int", injected.text

        loaded, probes = while_it_runs(
            url,
            lambda: b.post("/v1/context/load", json={"var": "mems", "query": "note"}, headers=sx(wb, sid)),
            neighbour,
        )
        assert_answered(probes, "load beside it")
        assert loaded.status_code == 200 and loaded.json()["count"] == 1, loaded.text
        status = b.get("/v1/context/status", headers=sx(wb, sid)).json()
        assert status["variables"] == ["mems", "n", "s"]

        # The honest way: the guest builds the set itself (in its own time: wasmtime runs outside the GIL, and
        # in the 32-bit guest these ints do not even collide), and the host reads it as it read the forged one.
        honest = create(b, wb)["id"]
        code = f"s = {{k * {MODULUS} for k in range(1, {COLLIDING + 1})}}"
        built, probes = while_it_runs(
            url, lambda: b.post("/v1/context/execute", json={"code": code}, headers=sx(wb, honest)), neighbour
        )
        assert_answered(probes, "a colliding set built in the guest")
        assert built.status_code == 200 and built.json()["variables_changed"] == ["s"], built.text
        seen = b.post("/v1/context/inspect?variable=s", headers=sx(wb, honest)).json()
        assert seen["type"] == "set" and seen["size_bytes"] > 20 * COLLIDING


# --- big numbers, malformed and oversized answers ---------------------------------------------------------------


@pytest.fixture()
def session(http, ws) -> tuple[str, str]:
    return ws, create(http, ws)["id"]


def execute(http: httpx.Client, ws: str, sid: str, code: str) -> httpx.Response:
    return http.post("/v1/context/execute", json={"code": code}, headers=sx(ws, sid))


def refused(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["detail"]["code"] == code, response.text


def test_huge_ints_and_fractions_are_previewed_by_their_length(http, session):
    ws, sid = session
    answer = execute(
        http,
        ws,
        sid,
        "import fractions\nbig = 1 << 20000\nneg = -big\nf = fractions.Fraction(big, 3)\nsmall = [2 ** 100]",
    )
    assert answer.status_code == 200, answer.text
    seen = http.post("/v1/context/inspect?preview_chars=1000", headers=sx(ws, sid)).json()["variables"]
    assert {name: (v["type"], v["preview"]) for name, v in seen.items()} == {
        "big": ("int", "<int of 6021 digits>"),
        "neg": ("int", "-<int of 6021 digits>"),
        "f": ("Fraction", "Fraction(<int of 6021 digits>, 3)"),
        "small": ("list", f"[{2**100}]"),
    }
    # The guest still has the values themselves.
    assert execute(http, ws, sid, "(big.bit_length(), f * 3 == big)").json()["result"] == "(20001, True)"
    injected = http.post("/v1/context/inject", json={"key": "x", "value": 1}, headers=sx(ws, sid))
    assert injected.status_code == 200, injected.text


@pytest.fixture()
def few_elements(services, monkeypatch):
    capped = services.sandboxes.settings.model_copy(update={"context_max_state_elements": 1000})
    monkeypatch.setattr(services.sandboxes, "settings", capped)


def nested(depth: int) -> str:
    """Guest source of the text of a state whose variable ``x`` is ``depth`` lists in one another."""
    return '\'{"format": 1, "vars": {"x": \' + ' + f"'[' * {depth} + ']' * {depth}" + " + '}}'"


@pytest.mark.parametrize(
    ("code", "status", "error"),
    [
        (writes("'this is not JSON'"), 422, "sandbox_answer_invalid"),
        (writes("'[' * 100_000"), 422, "sandbox_answer_invalid"),  # past the JSON parser's stack
        (writes("'[1, 2]'"), 422, "sandbox_answer_invalid"),
        (writes('json.dumps({"ok": True, "output": ""})'), 422, "sandbox_answer_invalid"),
        (forged_state("'not JSON'"), 422, "bad_state"),
        (forged_state('json.dumps({"format": 1, "vars": {"x": {"$pickle": "gASV"}}})'), 422, "bad_state"),
        (forged_state('json.dumps({"format": 1, "vars": {"x": {"$set": [[1]]}}})'), 422, "bad_state"),
        (forged_state('json.dumps({"format": 1, "vars": {"x": {"$int": "f" * 20000}}})'), 422, "bad_state"),
        (forged_state('json.dumps({"format": 1, "vars": {"__x": 1}})'), 422, "bad_state"),
        (
            forged_state(nested(100)),
            422,
            "state_too_complex",
        ),
        (
            forged_state(nested(50_000)),
            422,
            "state_too_complex",
        ),
        (
            forged_state('json.dumps({"format": 1, "vars": {"x": list(range(2000))}})'),
            422,
            "state_too_complex",
        ),
        ("x = list(range(2000))", 422, "state_too_complex"),
        (forged_state('json.dumps({"format": 1, "vars": {"x": "a" * (17 << 20)}})'), 413, "state_too_large"),
    ],
)
def test_a_malformed_or_oversized_answer_is_a_4xx_and_changes_nothing(
    http, session, few_elements, code, status, error
):
    ws, sid = session
    assert execute(http, ws, sid, "kept = 1").status_code == 200
    refused(execute(http, ws, sid, code), status, error)
    assert http.get("/v1/context/status", headers=sx(ws, sid)).json()["variables"] == ["kept"]
    assert execute(http, ws, sid, "kept + 1").json()["result"] == "2"


def test_injected_values_are_held_to_the_same_limits(http, session, few_elements):
    ws, sid = session

    def inject(value: object, **extra: object) -> httpx.Response:
        return http.post(
            "/v1/context/inject", json={"key": "v", "value": value, **extra}, headers=sx(ws, sid)
        )

    # A caller's tag is data: the colliding set arrives as a dict holding a list, and nothing is hashed.
    tagged = inject({"$set": [k * MODULUS for k in range(1, 200)]})
    assert tagged.status_code == 200 and tagged.json()["type"] == "dict", tagged.text
    deep: object = 1
    for _ in range(100):
        deep = [deep]
    refused(inject(deep), 422, "state_too_complex")
    refused(inject(list(range(2000))), 422, "state_too_complex")
    refused(inject("[" * 100_000, parse_json=True), 400, "invalid_json")
    refused(inject("1" * 5000, parse_json=True), 400, "invalid_json")  # past Python's int-to-str digits
    assert http.get("/v1/context/status", headers=sx(ws, sid)).json()["variables"] == ["v"]
    body = '{"key": "w", "value": ' + "[" * 100_000 + "]" * 100_000 + "}"
    raw = http.post(
        "/v1/context/inject", content=body, headers={**sx(ws, sid), "Content-Type": "application/json"}
    )
    assert 400 <= raw.status_code < 500, raw.text
