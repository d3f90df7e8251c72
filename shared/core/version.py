"""The one version of MemoryLayer serverless: the server, its API (``/openapi.json`` ``info.version`` and
``/health``) and the clients in ``client/`` (whose ``pyproject.toml`` and ``__version__`` carry the same number,
checked by tests/unit/test_version.py). pyproject.toml reads it from here; so does ``memorylayer --version``.

    >>> from shared.core.version import __version__
"""

__version__ = "0.3.0"
