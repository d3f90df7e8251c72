"""Container settings, read from the environment once at start.

    >>> EmbedConfig.from_env({"EMBED_MAX_WAIT_MS": "2", "MEMORYLAYER_EMBED_PORT": "8080"}).port
    8080

A container is configured by its image and endpoint environment, not by ``MEMORYLAYER_*`` service settings, so
this stays separate from ``shared.core.settings``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Literal

Backend = Literal["onnx", "sentence-transformers"]


@dataclass(frozen=True)
class EmbedConfig:
    model: str = "all-MiniLM-L6-v2"
    backend: Backend = "onnx"
    model_path: str | None = None  # sentence-transformers: a local directory baked into the image
    device: str | None = None  # sentence-transformers: "cuda", "cpu"; None picks CUDA when present
    half: bool = False  # sentence-transformers on GPU: fp16 weights
    host: str = "127.0.0.1"
    port: int = 61051
    max_inputs: int = 256  # texts per request
    max_input_chars: int = 32 * 1024  # per text; MiniLM reads 256 tokens, far fewer characters
    max_batch: int = 64  # texts per model call when requests are coalesced
    max_wait_ms: float = 5.0  # how long the first queued request waits for company
    threads: int = 2  # ONNX intra-op threads

    @property
    def max_request_bytes(self) -> int:
        # Worst case UTF-8 (4 bytes a char) plus JSON quoting and field overhead.
        return self.max_inputs * (self.max_input_chars * 4 + 16) + 4096

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> EmbedConfig:
        env = os.environ if env is None else env
        names = {
            "model": "EMBED_MODEL",
            "backend": "EMBED_BACKEND",
            "model_path": "EMBED_MODEL_PATH",
            "device": "EMBED_DEVICE",
            "half": "EMBED_HALF",
            "host": "EMBED_HOST",
            "max_inputs": "EMBED_MAX_INPUTS",
            "max_input_chars": "EMBED_MAX_INPUT_CHARS",
            "max_batch": "EMBED_MAX_BATCH",
            "max_wait_ms": "EMBED_MAX_WAIT_MS",
            "threads": "EMBED_THREADS",
        }
        values: dict[str, object] = {}
        types = {f.name: f.type for f in fields(cls)}
        for field, var in names.items():
            raw = env.get(var)
            if raw is None or raw == "":
                continue
            kind = types[field]
            if kind == "bool":
                values[field] = raw.strip().lower() in {"1", "true", "yes", "on"}
            elif kind == "int":
                values[field] = int(raw)
            elif kind == "float":
                values[field] = float(raw)
            else:
                values[field] = raw
        # SageMaker multi-container endpoints pass the port to bind; otherwise ours, else the local default.
        port = env.get("SAGEMAKER_BIND_TO_PORT") or env.get("MEMORYLAYER_EMBED_PORT")
        if port:
            values["port"] = int(port)
        config = cls(**values)  # type: ignore[arg-type]
        if config.backend not in ("onnx", "sentence-transformers"):
            raise ValueError(f"EMBED_BACKEND must be onnx or sentence-transformers, not {config.backend!r}")
        return config
