"""LoCoMo retrieval benchmark: ingest each conversation through the public HTTP API, ask its questions through
``POST /v1/memories/recall`` and score the evidence turns returned, beside BM25 and dense-only baselines.

    .venv/bin/python -m bench.locomo --conversations conv-30 --embedding local
"""
