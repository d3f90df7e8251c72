"""The embedding container: MiniLM (ONNX on CPU, or sentence-transformers on GPU) behind HTTP.

Speaks the SageMaker container contract (``GET /ping``, ``POST /invocations``) and OpenAI's
``POST /v1/embeddings``; see ``app.py``. Start it with ``python -m functions.embed.server``.
"""
