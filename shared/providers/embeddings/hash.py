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
from functools import lru_cache

import numpy as np

from .base import Embedder, normalise

_TOKEN_RE = re.compile(r"[a-z0-9]+")


class HashEmbedder(Embedder):
    def __init__(self, dimensions: int = 384, model: str = "hash-384") -> None:
        self.dimensions = dimensions
        self.model = model

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        rows: list[int] = []
        slots: list[int] = []
        for row, text in enumerate(texts):
            tokens = _TOKEN_RE.findall(text.lower()) or [text]
            rows.extend([row] * len(tokens))
            slots.extend(_hash32(token) % self.dimensions for token in tokens)
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        np.add.at(out, (rows, slots), 1.0)  # repeated tokens count once per occurrence
        return list(normalise(out))


# Words repeat (natural text is Zipfian): most tokens of a bulk load hit this cache instead of sha1.
@lru_cache(maxsize=1 << 16)
def _hash32(token: str) -> int:
    return int.from_bytes(hashlib.sha1(token.encode("utf-8")).digest()[:4], "big")
