"""Lambda "sandbox": runs one execution in CPython-in-WebAssembly and returns the guest's answer.

    >>> handler({"op": "execute", "code": "1 + 1", "limits": {"seconds": 2}}, context)["result"]  # doctest: +SKIP
    '2'

Invoked only by the API function that serves the context environment (its resource policy says so), which
checks the answer before keeping anything. The guest is the wall: no files, sockets or environment of this
function reach it, so neither do the function's own credentials. The interpreter is loaded at import (Lambda's
INIT phase, before a SnapStart snapshot). Stdlib and wasmtime only.
"""

from __future__ import annotations

from typing import Any

from shared.domain.context_env.host import failure
from shared.domain.context_env.wasm import WasmExecutor

executor = WasmExecutor()


def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    if not isinstance(event, dict) or event.get("op") != "execute":
        return failure("sandbox_error", "not an execution request")
    return executor.run(event)
