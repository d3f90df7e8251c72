"""Lambda "sandbox": runs one context-environment request in a confined child process and returns its answer.

    >>> handler({"op": "execute", "code": "1 + 1", "limits": {"seconds": 2}}, context)["result"]  # doctest: +SKIP
    '2'

Invoked only by the context function (its resource policy says so). Its role may write its own logs and
nothing else; it has no database, secret or network access (infra/functions.py). Inside, the executor runs as a
child with an empty environment (so not even this function's own credentials reach caller code), rlimits and a
wall-clock kill, exactly as locally. Stdlib only: the bundle needs nothing but shared/sandbox.
"""

from __future__ import annotations

from typing import Any

from shared.sandbox.runner import ProcessRunner

runner = ProcessRunner()


def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    if not isinstance(event, dict) or "op" not in event:
        return {"ok": False, "code": "sandbox_error", "error": "not an executor request"}
    return runner.run(event)
