"""Feature-hashing bag-of-words embeddings: deterministic, offline, lexical (not semantic).

Bit-for-bit the reference server's ``hash`` provider: lowercase ``[a-z0-9]+`` tokens, each sha1-hashed to a
dimension and counted, then L2-normalised; text with no tokens hashes whole into one slot.

    >>> e = HashEmbedder()
    >>> float(e.embed_one("login timeout") @ e.embed_one("timeout during login")) > 0.5
    True
"""

from __future__ import annotations

import hashlib
import re

import numpy as np

from .base import Embedder, normalise

_TOKEN_RE = re.compile(r"[a-z0-9]+")


class HashEmbedder(Embedder):
    def __init__(self, dimensions: int = 384, model: str = "hash-384") -> None:
        self.dimensions = dimensions
        self.model = model

    def _slot(self, text: str) -> int:
        return int.from_bytes(hashlib.sha1(text.encode("utf-8")).digest()[:4], "big") % self.dimensions

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            tokens = _TOKEN_RE.findall(text.lower())
            for token in tokens or [text]:
                out[row, self._slot(token)] += 1.0
        return list(normalise(out))
