"""Baselines over the same turns: BM25 (bm25s, English stop words, Porter stems) and dense-only cosine over
the server's own embedder (numpy brute force)."""

from __future__ import annotations

import bm25s
import numpy as np
from nltk.stem import PorterStemmer

from shared.providers.embeddings.base import Embedder


class _Stemmer:
    """bm25s wants an object with ``stemWords``; PyStemmer is not installed, NLTK's Porter is."""

    def __init__(self) -> None:
        self._porter = PorterStemmer()

    def stemWords(self, words: list[str]) -> list[str]:  # noqa: N802 - the name bm25s calls
        return [self._porter.stem(w) for w in words]


class BM25Baseline:
    def __init__(self, ids: list[str], texts: list[str]) -> None:
        self.ids = ids
        self.stemmer = _Stemmer()
        self.index = bm25s.BM25()
        self.index.index(
            bm25s.tokenize(texts, stopwords="en", stemmer=self.stemmer, show_progress=False),
            show_progress=False,
        )

    def rank(self, query: str, k: int = 10) -> list[str]:
        tokens = bm25s.tokenize([query], stopwords="en", stemmer=self.stemmer, show_progress=False)
        if not tokens.vocab:
            return []
        docs, scores = self.index.retrieve(tokens, k=min(k, len(self.ids)), show_progress=False)
        return [self.ids[int(d)] for d, s in zip(docs[0], scores[0], strict=True) if s > 0]


class DenseBaseline:
    def __init__(self, embedder: Embedder, ids: list[str], texts: list[str]) -> None:
        self.embedder = embedder
        self.ids = ids
        self.matrix = np.vstack(embedder.embed(texts))

    def rank(self, query: str, k: int = 10) -> list[str]:
        sims = self.matrix @ self.embedder.embed_query(query)
        return [self.ids[int(i)] for i in np.argsort(-sims, kind="stable")[:k]]
