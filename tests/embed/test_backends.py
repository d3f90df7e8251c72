"""Backend choice and config; the sentence-transformers adapter runs on a fake module (no torch here)."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

from functions.embed.backends import SentenceTransformersBackend, load_backend
from functions.embed.config import EmbedConfig
from shared.providers.embeddings.local import LocalOnnxEmbedder


class FakeSentenceTransformer:
    """Mimics the parts of SentenceTransformer the backend uses."""

    loaded: list[tuple[str, str | None]] = []

    def __init__(self, source: str, device: str | None = None) -> None:
        self.loaded.append((source, device))
        self.device = device or "cuda:0"
        self.max_seq_length = 256
        self.halved = False

    def half(self) -> None:
        self.halved = True

    def get_sentence_embedding_dimension(self) -> int:
        return 8

    def encode(self, texts: list[str], **options: object) -> np.ndarray:
        assert options["normalize_embeddings"] is True
        return np.ones((len(texts), 8), dtype=np.float32)

    def tokenizer(self, texts: list[str], **options: object) -> dict[str, list[list[int]]]:
        return {"input_ids": [[101, *range(len(t.split())), 102] for t in texts]}


@pytest.fixture
def fake_st(monkeypatch: pytest.MonkeyPatch) -> type[FakeSentenceTransformer]:
    module = types.ModuleType("sentence_transformers")
    module.SentenceTransformer = FakeSentenceTransformer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sentence_transformers", module)
    FakeSentenceTransformer.loaded = []
    return FakeSentenceTransformer


def test_default_backend_is_onnx_minilm() -> None:
    backend = load_backend(EmbedConfig())
    assert isinstance(backend, LocalOnnxEmbedder) and backend.dimensions == 384
    with pytest.raises(ValueError, match="sentence-transformers"):
        load_backend(EmbedConfig(model="BAAI/bge-base-en-v1.5"))


def test_sentence_transformers_backend(fake_st: type[FakeSentenceTransformer]) -> None:
    backend = load_backend(EmbedConfig(backend="sentence-transformers", half=True))
    assert isinstance(backend, SentenceTransformersBackend)
    assert fake_st.loaded == [
        ("sentence-transformers/all-MiniLM-L6-v2", None)
    ]  # bare name → hub organisation
    assert backend.model == "all-MiniLM-L6-v2" and backend.dimensions == 8
    assert backend._st.halved  # fp16 on CUDA when asked
    encoded = backend.encode(["one two", "three"])
    assert encoded.vectors.shape == (2, 8) and encoded.token_counts == [4, 3]
    np.testing.assert_allclose(np.linalg.norm(encoded.vectors, axis=1), 1.0, atol=1e-6)
    assert backend.encode([]).vectors.shape == (0, 8)


def test_baked_model_path_wins(fake_st: type[FakeSentenceTransformer]) -> None:
    load_backend(EmbedConfig(backend="sentence-transformers", model_path="/opt/models/embed", device="cpu"))
    assert fake_st.loaded == [("/opt/models/embed", "cpu")]


def test_config_from_env() -> None:
    config = EmbedConfig.from_env(
        {
            "EMBED_BACKEND": "sentence-transformers",
            "EMBED_MAX_BATCH": "256",
            "EMBED_MAX_WAIT_MS": "2.5",
            "EMBED_HALF": "true",
            "EMBED_HOST": "0.0.0.0",
            "MEMORYLAYER_EMBED_PORT": "8080",
        }
    )
    assert (config.backend, config.max_batch, config.max_wait_ms, config.half) == (
        "sentence-transformers",
        256,
        2.5,
        True,
    )
    assert (config.host, config.port) == ("0.0.0.0", 8080)
    assert EmbedConfig.from_env({}).port == 61051
    assert (
        EmbedConfig.from_env({"SAGEMAKER_BIND_TO_PORT": "9000", "MEMORYLAYER_EMBED_PORT": "8080"}).port
        == 9000
    )
    with pytest.raises(ValueError, match="EMBED_BACKEND"):
        EmbedConfig.from_env({"EMBED_BACKEND": "tensorrt"})
