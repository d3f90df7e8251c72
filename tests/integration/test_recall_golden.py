"""Recall's results pinned: a fixed seeded corpus and a fixed query set, whose top 10s (ids, signals, raw scores
to 1e-9) were recorded from the recall code before it was restructured (tests/integration/recall_golden.json).
Any change to ranking shows here; a deliberate one re-records the fixture:

    ML_RECORD_GOLDEN=1 .venv/bin/python -m pytest tests/integration/test_recall_golden.py

The corpus lives in a database of its own (nothing else in ANALYZE's statistics), all of it in the exactly
scanned pending tail, so that the approximate index cannot make a run differ. ``created_at`` is set relative to the statement's own ``now()`` in the same
transaction (see ``PinnedAges``): the recency boost is the same on every run.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.own_database import services_in_own_database

FIXTURE = Path(__file__).with_name("recall_golden.json")
WS, WS2 = "ws_golden", "ws_golden_2"
SPEAKERS = ("Gina", "Jon", "Maria")
_VOCABULARY = (
    "coffee lighthouse keeper storm lamp harbour ferry market bakery bread garden tomato violin concert "
    "studio pottery class dance painting museum travel paris tokyo hiking mountain river camping tent dog "
    "cat puppy adoption shelter job interview bank store opening loan budget redis timeout login pool "
    "deploy release database index query cache latency error retry queue worker ticket invoice report"
)
WORDS = _VOCABULARY.split()
TIME_BITS = ("last week", "yesterday", "in May 2023", "on Saturday", "two years ago", "next month")
TAGS = ("ops", "prefs", "food", "travel", "music", "work")
TYPES = ("episodic", "semantic", "procedural", "working")


def _text(rng: random.Random, i: int) -> str:
    words = " ".join(rng.choices(WORDS, k=rng.randint(4, 12)))
    if i % 7 == 0:
        words += " " + rng.choice(TIME_BITS)
    if i % 11 == 0:
        words = "the " + words + " and the coffee"  # a very common word
    return words


class PinnedAges:
    """The app's Database, except that each unit of work first sets the corpus' ``created_at`` to ``now()``
    minus each memory's fixed ``metadata.age_s``: ``now()`` is the transaction's, the recall statement's too."""

    def __init__(self, db: Any) -> None:
        self._db = db

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    @contextmanager
    def connection(self, *, pipelined: bool = False) -> Iterator[psycopg.Connection]:
        # One plain transaction whatever the caller asks: the UPDATE must land before the recall reads.
        with self._db.transaction() as conn:
            conn.execute(
                "UPDATE memories SET created_at = now() - make_interval(secs => (metadata->>'age_s')::float8) "
                "WHERE metadata ? 'age_s'"
            )
            yield conn


@pytest.fixture(scope="module")
def golden(database_url: str) -> Iterator[tuple[Any, Any, dict[str, str]]]:
    """(services, settings, key → memory id) over the seeded corpus in a database of its own."""
    with services_in_own_database(database_url, "golden") as (services, settings):
        yield services, settings, _seed(services, str(settings.database_url))


def _seed(services: Any, dsn: str) -> dict[str, str]:
    """The corpus, with fixed ids; key → memory id."""
    from shared.db import rls
    from shared.db.scope import Scope
    from shared.domain.requests import BatchCreate, BatchRequest, MemoryCreate

    services.db.default_visible = rls.EVERY  # a trusted in-process caller, as the worker
    rng = random.Random(1717)
    ops: dict[str, list[BatchCreate]] = {WS: [], WS2: []}
    keys: list[str] = []
    for i in range(300):
        ws = WS2 if i % 10 == 9 else WS
        stream = f"chat_{i % 3}" if 200 <= i < 260 else None
        metadata: dict[str, Any] = {"g": f"m{i:03d}", "age_s": (i * 7919) % (40 * 86400)}
        if stream or i % 5 == 0:
            metadata["speaker"] = SPEAKERS[i % 3]
        ops[ws].append(
            BatchCreate(
                op="create",
                content=(f"{metadata['speaker']}: " if "speaker" in metadata else "") + _text(rng, i),
                type=TYPES[i % 4],
                subtype="note" if i % 6 == 0 else None,
                tags=[TAGS[i % 6], TAGS[(i * 5) % 6]] if i % 3 else [],
                metadata=metadata,
                user_id="u1" if i % 4 == 0 else None,
                event_time=datetime(2023, 1 + i % 12, 1 + i % 28, 12, tzinfo=UTC) if i % 2 else None,
                sequence_key=stream,
            )
        )
        keys.append(metadata["g"])
    for ws, batch in ops.items():
        for start in range(0, len(batch), 100):
            services.memories.batch(ws, BatchRequest(operations=batch[start : start + 100]))
    # A few through remember (one at a time), one stream among them.
    for i in range(300, 330):
        metadata = {"g": f"m{i:03d}", "age_s": (i * 7919) % (40 * 86400), "speaker": SPEAKERS[i % 3]}
        services.memories.remember(
            WS,
            MemoryCreate(
                content=f"{SPEAKERS[i % 3]}: " + _text(rng, i),
                metadata=metadata,
                tags=[TAGS[i % 6]],
                sequence_key="live" if i % 2 else None,
            ),
        )
    with psycopg.connect(dsn, autocommit=True) as conn:
        # Fixed ids: ties are broken by id, and generated ids would break them differently on every run.
        conn.execute("UPDATE memories SET id = 'mem_golden_' || (metadata->>'g') WHERE metadata ? 'g'")
        # Out of the HNSW graph: PinnedAges rewrites every row for each query, and the graph's dead versions
        # would make an approximate walk miss rows differently from run to run (and from one version of the
        # code to the next, as the number of units of work changes). The exact scan of the pending tail ranks
        # the same; that the graph is used is checked on the plan (test_recall_plan_uses_the_indexes).
        conn.execute(
            "UPDATE memories SET vector_gen = (SELECT published + 1 FROM vector_index_generations WHERE dims = 384)"
        )
        ids = {
            r[0]: r[1] for r in conn.execute("SELECT metadata->>'g', id FROM memories WHERE metadata ? 'g'")
        }
        # History and archive, for include_history / include_archived; deleted ones never show.
        conn.execute(
            "UPDATE memories SET status = 'archived' WHERE metadata->>'g' IN ('m012', 'm044', 'm077')"
        )
        conn.execute("UPDATE memories SET valid_to = now() WHERE metadata->>'g' IN ('m015', 'm048')")
        conn.execute("UPDATE memories SET deleted_at = now() WHERE metadata->>'g' IN ('m018', 'm051')")
        conn.execute("VACUUM ANALYZE memories")
    for a, b in (("m000", "m001"), ("m001", "m002"), ("m003", "m030"), ("m300", "m301"), ("m100", "m150")):
        services.memories.associate(Scope.of(WS), ids[a], ids[b], "related_to", 0.7, {})
    for i in (i for i in range(40, 60) if i % 10 != 9 and i != 51):  # both ends live, in WS
        services.memories.associate(Scope.of(WS), ids[f"m{i:03d}"], ids[f"m{i + 60:03d}"], "causes", 0.4, {})
    return ids


QUERIES: list[tuple[str, list[str], dict[str, Any]]] = [
    ("plain", [WS], {"query": "coffee lighthouse keeper"}),
    ("when_speaker", [WS], {"query": "When did Gina go to the market?"}),
    ("speaker", [WS], {"query": "what does Jon think about the violin concert"}),
    ("stream_reply", [WS], {"query": "job interview at the bank"}),
    ("types", [WS], {"query": "redis timeout login", "types": ["semantic", "procedural"]}),
    ("subtypes", [WS], {"query": "garden tomato bread", "subtypes": ["note"]}),
    ("tags", [WS], {"query": "violin concert studio", "tags": ["Music"]}),
    ("user", [WS], {"query": "deploy release", "user_id": "u1"}),
    ("exclude", [WS], {"query": "coffee lighthouse keeper", "exclude_ids": ["m000", "m011"]}),
    (
        "event_range",
        [WS],
        {
            "query": "museum painting",
            "event_after": "2023-03-01T00:00:00Z",
            "event_before": "2023-09-01T00:00:00Z",
        },
    ),
    (
        "created_range",
        [WS],
        {
            "query": "museum painting",
            "created_after": "2000-01-01T00:00:00Z",
            "created_before": "2100-01-01T00:00:00Z",
        },
    ),
    ("archived", [WS], {"query": "storm lamp harbour ferry", "include_archived": True}),
    ("history", [WS], {"query": "storm lamp harbour ferry", "include_history": True}),
    ("strict", [WS], {"query": "hiking mountain river", "tolerance": "strict"}),
    ("loose", [WS], {"query": "hiking mountain river", "tolerance": "loose"}),
    ("min_rel_0", [WS], {"query": "camping tent", "min_relevance": 0}),
    ("min_rel_half", [WS], {"query": "camping tent", "min_relevance": 0.5}),
    ("recency_0", [WS], {"query": "dog cat puppy", "recency_weight": 0}),
    ("recency_high", [WS], {"query": "dog cat puppy", "recency_weight": 0.9}),
    ("page", [WS], {"query": "database index query cache", "limit": 5, "offset": 3}),
    ("browse", [WS], {"query": "*", "tags": ["ops"]}),
    ("browse_page", [WS, WS2], {"query": "*", "limit": 7, "offset": 2}),
    ("no_assoc", [WS], {"query": "coffee lighthouse", "include_associations": False}),
    ("assoc_depth1", [WS], {"query": "bakery bread market", "traverse_depth": 1, "max_expansion": 3}),
    ("assoc_default", [WS], {"query": "adoption shelter store opening"}),
    ("time_order", [WS], {"query": "concert studio dance", "time_order": "asc"}),
    ("budget", [WS], {"query": "invoice report ticket", "budget_tokens": 60}),
    ("stop_words", [WS], {"query": "the and of"}),
    ("common_word", [WS], {"query": "coffee"}),
    ("two_workspaces", [WS, WS2], {"query": "loan budget bank worker queue"}),
    ("unknown_words", [WS], {"query": "zebra quasar"}),
    ("long", [WS], {"query": " ".join(WORDS[:40]), "limit": 20}),
]


def _recall(
    services: Any, settings: Any, ids: dict[str, str], workspaces: list[str], body: dict, variant: Any = None
) -> dict:
    """Recall through the production Recaller (or a bench variant of its statement); the raw scores come from
    the rows it ranked."""
    from bench.locomo.variants import use_variant
    from shared.domain.requests import RecallRequest
    from shared.domain.retrieval.recall import Recaller

    by_id = {v: k for k, v in ids.items()}
    body = dict(body)
    if "exclude_ids" in body:
        body["exclude_ids"] = [ids[k] for k in body["exclude_ids"]]
    recaller = Recaller(PinnedAges(services.db), services.embedder, settings)
    use_variant(recaller, variant)
    raw: dict[str, float] = {}
    shape = recaller._result

    def spy(req: Any, rows: list[dict], expanded: list[dict], started: float) -> dict:
        raw.update({r["id"]: float(r["boosted"]) for r in rows + expanded})
        raw.update({f"rel:{r['id']}": float(r["relevance"]) for r in rows if r.get("relevance") is not None})
        return shape(req, rows, expanded, started)

    recaller._result = spy  # type: ignore[method-assign]
    out = recaller.recall(workspaces, RecallRequest(**body))
    return {
        "total_count": out["total_count"],
        "confidence": out["retrieval_confidence"],
        "budget": out["budget_summary"],
        "top": [
            {
                "key": by_id[m["id"]],
                "signals": m["match_signals"],
                "boosted": raw[m["id"]],
                "relevance": raw.get(f"rel:{m['id']}"),
                "relevance_score": m["relevance_score"],
                "boosted_score": m["boosted_score"],
            }
            for m in out["memories"]
        ],
    }


def test_recall_results_are_the_recorded_ones(golden):
    services, settings, ids = golden
    got = {name: _recall(services, settings, ids, wss, body) for name, wss, body in QUERIES}
    if os.environ.get("ML_RECORD_GOLDEN"):
        FIXTURE.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    want = json.loads(FIXTURE.read_text())
    assert sorted(got) == sorted(want)
    for name in want:
        g, w = got[name], want[name]
        assert [m["key"] for m in g["top"]] == [m["key"] for m in w["top"]], name
        assert [m["signals"] for m in g["top"]] == [m["signals"] for m in w["top"]], name
        for gm, wm in zip(g["top"], w["top"], strict=True):
            assert gm["boosted"] == pytest.approx(wm["boosted"], abs=1e-9, rel=0), (name, gm["key"])
            if wm["relevance"] is None:
                assert gm["relevance"] is None, (name, gm["key"])
            else:
                assert gm["relevance"] == pytest.approx(wm["relevance"], abs=1e-9, rel=0), (name, gm["key"])
            assert (gm["relevance_score"], gm["boosted_score"]) == (
                wm["relevance_score"],
                wm["boosted_score"],
            )
        assert (g["total_count"], g["confidence"], g["budget"]) == (
            w["total_count"],
            w["confidence"],
            w["budget"],
        ), name


def test_the_golden_queries_exercise_every_path():
    """The fixture is not vacuous: most queries find something, and streams, speakers, time cues and
    associations each lift at least one recorded result."""
    want = json.loads(FIXTURE.read_text())
    assert sum(1 for w in want.values() if len(w["top"]) >= 5) >= len(want) - 3
    signals = {s for w in want.values() for m in w["top"] for s in m["signals"]}
    assert {"vector", "keyword", "context", "association", "recency"} <= signals


def test_the_bench_variant_builder_with_defaults_ranks_as_production(golden):
    """bench/locomo/variants.py keeps the measured-and-dropped variants; with its defaults it must build
    production's ranking, or the experiments compare against something that does not run."""
    from bench.locomo.variants import Variant

    services, settings, ids = golden
    want = json.loads(FIXTURE.read_text())
    for name, wss, body in QUERIES[:8]:
        got = _recall(services, settings, ids, wss, body, variant=Variant())
        assert [m["key"] for m in got["top"]] == [m["key"] for m in want[name]["top"]], name
        assert [m["boosted"] for m in got["top"]] == pytest.approx([m["boosted"] for m in want[name]["top"]])
