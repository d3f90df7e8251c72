"""Index-time context for conversation turns (EXPERIMENTS.md §11): what a turn's *stored* vector is
embedded from, measured offline under the two-way protocol.

    .venv/bin/python -m bench.locomo.context                      # every variant below
    .venv/bin/python -m bench.locomo.context base prev_cat mix0.3
    .venv/bin/python -m bench.locomo.context 'v/base=base:{}' 'm5/r0.3=mix0.5:{"reply_weight": 0.3}'

An argument ``label=VECTORS:JSON`` ranks the VECTORS variant with a ``bench.locomo.variants.Variant`` made of
the JSON (``weights`` → FusionWeights(vector, keyword)), to see how index-time context and the query-time
knobs (neighbour loans, the vector arm's weight) interact; a bare VECTORS name uses the production statement.

One stack, one ingestion through the HTTP API (bench/locomo/run.py ``ingest``); then, per variant, every
turn's embedding is rewritten in place (SQL, same model id) from the variant's text or mix, and the questions
are asked through the production recall (statement and query embedding unchanged). The first variant is the
baseline (``base``: the vectors ingestion wrote, from the content alone). Every rewritten row is marked
``vector_indexed = false`` so that recall scans the vectors exactly (the pending tail): an HNSW graph full of
the rewrites' dead versions ranked one and the same set of vectors ±0.013 Hit@5 differently from one rewrite
to the next, which is the size of the effects measured here.

Variants (``prev``: the previous turn of the same stream, ``sequence_key``; the first turn of a session has
none and keeps its own vector):

- ``text_only``: the turn's text without the ``Speaker: `` prefix the bench's content carries (is the
  speaker worth having in the vector at all?)
- ``prev_cat``: emb(prev content + "\\n" + content)
- ``mixA``: normalise(emb(content) + A·emb(prev content))
- ``catmixA``: normalise(emb(content) + A·emb(prev content + "\\n" + content))
- ``chainA``: normalise(emb(content) + A·v(prev)), v(prev) the previous turn's own mixed vector (what a
  write path gets by reading the stored vector of the previous turn: no second embedding)
- ``shortN/VARIANT``: VARIANT for the turns of fewer than N words (without the speaker), the others' own
  vector ("Yes! It was amazing" needs its context; a long turn says what it is about itself)
- text context (``label=base:{"text_column": "tsv_prev"}``, or ``tsv_prev16`` for turns under 16 words): the
  full-text arm searches the previous turn's words with the turn's, vectors unchanged
- several neighbours in the text arm (§12: ``{"text_column": "tsv_pn", "text_context_columns": {"ctx_p": 0.25,
  "ctx_n": 0.1}}``): ``ctx_p`` / ``ctx_n`` / ``ctx_pp`` hold the previous / next / second-previous turn's words
  alone, ``tsv_next`` / ``tsv_pn`` / ``tsv_win2`` / ``tsv_pn2`` their unions with the turn's own to search
- ``next_mixA`` / ``pn_mixA``: with the *next* turn (or both): not writable at remember time without
  rewriting the previous memory's vector; measured only to see what the reply direction is worth.
"""

from __future__ import annotations

import argparse
import json
from functools import partial

import httpx
import numpy as np
import psycopg

from bench.locomo import data
from bench.locomo.protocol import Figures, fmt, report
from bench.locomo.run import ask, evaluate, ingest, write_results
from bench.locomo.stack import running_stack
from bench.locomo.variants import Variant, use_variant
from shared.domain.retrieval.recall import FusionWeights
from shared.providers.embeddings.base import normalise

DEFAULT = [
    "base",
    "text_only",
    "prev_cat",
    "mix0.2",
    "mix0.35",
    "mix0.5",
    "chain0.35",
    "next_mix0.35",
    "pn_mix0.35",
]


def _rows(dsn: str, ws: str) -> list[dict]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        cur = conn.execute(
            "SELECT id, content, sequence_key, sequence_index, metadata->>'speaker' AS speaker "
            "FROM memories WHERE workspace_id = %s AND deleted_at IS NULL "
            "ORDER BY sequence_key, sequence_index",
            (ws,),
        )
        cols = [c.name for c in cur.description or []]
        return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


def _words(row: dict) -> int:
    """The turn's length in words, without its ``Speaker: `` prefix."""
    prefix = f"{row['speaker']}: "
    text = row["content"][len(prefix) :] if row["content"].startswith(prefix) else row["content"]
    return len(text.split())


def _vectors(name: str, rows: list[dict], embed) -> np.ndarray:
    if name.startswith("short"):  # shortN/VARIANT: VARIANT's vector for turns under N words, else their own
        limit, inner = name[len("short") :].split("/", 1)
        short = np.array([_words(r) < int(limit) for r in rows])
        return np.where(short[:, None], _vectors(inner, rows, embed), _vectors("base", rows, embed))
    own = embed([r["content"] for r in rows])
    prev = [
        i - 1 if i and rows[i - 1]["sequence_key"] == r["sequence_key"] else None for i, r in enumerate(rows)
    ]
    nxt = [
        i + 1 if i + 1 < len(rows) and rows[i + 1]["sequence_key"] == r["sequence_key"] else None
        for i, r in enumerate(rows)
    ]
    if name == "base":
        return own
    if name == "text_only":
        texts = []
        for r in rows:
            prefix = f"{r['speaker']}: "
            texts.append(r["content"][len(prefix) :] if r["content"].startswith(prefix) else r["content"])
        return embed(texts)
    if name == "prev_cat":
        texts = [
            r["content"] if p is None else f"{rows[p]['content']}\n{r['content']}"
            for r, p in zip(rows, prev, strict=True)
        ]
        return embed(texts)
    if name.startswith("catmix"):  # the turn's own vector plus A × the vector of (previous + turn)
        alpha = float(name[len("catmix") :])
        cat = _vectors("prev_cat", rows, embed)
        return normalise(own + alpha * cat)
    for kind in ("next_mix", "pn_mix", "mix", "chain"):
        if name.startswith(kind):
            alpha = float(name[len(kind) :])
            break
    else:
        raise SystemExit(f"unknown variant {name}")
    out = own.copy()
    for i in range(len(rows)):
        v = own[i].copy()
        if kind in ("mix", "pn_mix") and prev[i] is not None:
            v += alpha * own[prev[i]]
        if kind in ("next_mix", "pn_mix") and nxt[i] is not None:
            v += alpha * own[nxt[i]]
        if kind == "chain" and prev[i] is not None:
            v += alpha * out[prev[i]]  # rows are in stream order: the previous one is done
        out[i] = normalise(v)
    return out


def _text_context_columns(dsn: str) -> None:
    """Experiment only: copies of the text column with neighbouring turns' words in them — ``tsv_prev`` (the
    previous turn's words) for every turn, ``tsv_prev16`` for turns under 16 words — for
    ``{"text_column": "tsv_prev"}``; and for ``text_context_columns`` (§12) the tsvector of each neighbour alone
    (``ctx_p`` previous, ``ctx_n`` next, ``ctx_pp`` the one before the previous; NULL where the stream has none)
    with the unions to search: ``tsv_next`` (own + next), ``tsv_pn`` (own + previous + next), ``tsv_win2`` (own
    + previous + the one before), ``tsv_pn2`` (all four)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        for column, limit in (("tsv_prev", None), ("tsv_prev16", 16)):
            conn.execute(f"ALTER TABLE memories ADD COLUMN {column} tsvector")
            short = (
                "TRUE"
                if limit is None
                else f"array_length(regexp_split_to_array(trim(regexp_replace(m.content, '^[^:]*: ', '')),"
                f" '\\s+'), 1) < {limit}"
            )
            conn.execute(
                f"UPDATE memories m SET {column} = CASE WHEN p.id IS NOT NULL AND {short} "
                f"THEN to_tsvector('english', p.content || ' ' || m.content) ELSE m.tsv END "
                "FROM memories m2 LEFT JOIN memories p ON p.workspace_id = m2.workspace_id "
                "AND p.sequence_key = m2.sequence_key AND p.sequence_index = m2.sequence_index - 1 "
                "WHERE m2.id = m.id"
            )
            conn.execute(f"CREATE INDEX ON memories USING gin ({column}) WHERE deleted_at IS NULL")
        for column, offset in (("ctx_p", -1), ("ctx_n", 1), ("ctx_pp", -2)):
            conn.execute(f"ALTER TABLE memories ADD COLUMN {column} tsvector")
            conn.execute(
                f"UPDATE memories m SET {column} = to_tsvector('english', o.content) FROM memories o "
                "WHERE o.workspace_id = m.workspace_id AND o.sequence_key = m.sequence_key "
                f"AND o.sequence_index = m.sequence_index + ({offset}) AND o.deleted_at IS NULL"
            )
        unions = {
            "tsv_next": "m.tsv || coalesce(m.ctx_n, '')",
            "tsv_pn": "m.tsv || coalesce(m.ctx_p, '') || coalesce(m.ctx_n, '')",
            "tsv_win2": "m.tsv || coalesce(m.ctx_p, '') || coalesce(m.ctx_pp, '')",
            "tsv_pn2": "m.tsv || coalesce(m.ctx_p, '') || coalesce(m.ctx_n, '') || coalesce(m.ctx_pp, '')",
        }
        for column, expr in unions.items():
            conn.execute(f"ALTER TABLE memories ADD COLUMN {column} tsvector")
            conn.execute(f"UPDATE memories m SET {column} = {expr}")
            conn.execute(f"CREATE INDEX ON memories USING gin ({column}) WHERE deleted_at IS NULL")
        conn.execute("ANALYZE memories")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.locomo.context", description=__doc__)
    parser.add_argument("variants", nargs="*", default=DEFAULT)
    parser.add_argument("--embedding", default="local")
    args = parser.parse_args(argv)
    conversations = data.load()
    scores: dict[str, dict[str, Figures]] = {}
    # Every question's Hit@5 / Recall@5 per variant, for wins and losses question by question.
    per_question: dict[str, dict[str, list[list[float]]]] = {}
    with running_stack(args.embedding) as stack, httpx.Client(base_url=stack.base_url, timeout=60) as client:
        embedder = stack.services.embedder

        def embed(texts: list[str]) -> np.ndarray:
            return np.stack([np.asarray(v, dtype=np.float32) for v in embedder.embed(texts)])

        workspaces = {c.sample_id: ingest(client, c) for c in conversations}
        rows = {c.sample_id: _rows(stack.dsn, workspaces[c.sample_id]) for c in conversations}
        if any('"tsv_' in a for a in args.variants):
            _text_context_columns(stack.dsn)
        recaller = stack.services.recaller
        base_weights = recaller.weights
        written = ""  # every variant, the baseline too, is searched exactly (below)
        for arg in args.variants:
            name, _, spec = arg.partition("=")
            vec_name, _, knobs = (spec or name).partition(":")
            changes = json.loads(knobs) if knobs else None
            weights = (changes or {}).pop("weights", None)
            recaller.weights = FusionWeights(*weights) if weights else base_weights
            use_variant(recaller, Variant(**changes) if changes is not None else None)
            per_conv, lat = {}, []
            for conv in conversations:
                ws, rs = workspaces[conv.sample_id], rows[conv.sample_id]
                if vec_name != written:
                    vectors = _vectors(vec_name, rs, embed)
                    with psycopg.connect(stack.dsn, autocommit=True) as conn, conn.cursor() as cur:
                        cur.executemany(
                            "UPDATE memories SET embedding = %s::real[]::vector, vector_indexed = false "
                            "WHERE id = %s",
                            [(v.tolist(), r["id"]) for r, v in zip(rs, vectors, strict=True)],
                        )
                run = evaluate(conv, {"ml": partial(ask, client, ws)})["ml"]
                summary = run.summary()
                per_question.setdefault(name, {})[conv.sample_id] = [
                    [r["hit@5"], r["recall@5"]] for r in run.rows
                ]
                per_conv[conv.sample_id] = {
                    k: v for k, v in summary["metrics"]["overall"].items() if k != "n"
                }
                lat.append(summary["latency_ms"]["p50"])
            written = vec_name
            scores[name] = per_conv
            cells = " | ".join(f"{c} {fmt(m)}" for c, m in per_conv.items())
            print(f"{name:16s} | {cells} | p50 {max(lat):.1f} ms", flush=True)
    print()
    print(report(scores))
    payload = {
        "experiment": "context",
        "variants": args.variants,
        "scores": scores,
        "per_question": per_question,
    }
    print(f"results: {write_results(payload)}")


if __name__ == "__main__":
    main()
