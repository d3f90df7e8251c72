"""Run one Lambda handler in a process shaped like Lambda's, and print what each invocation returned.

    python -m tests.lambda_process --as-user 65534 < spec.json

``spec`` is ``{"handler": "functions.memory.handler", "function_name": ..., "preload": [stdlib modules],
"invocations": [{"event": ..., "env": {...}}]}``; the environment is the caller's (the function's, as the
template sets it). As root with ``--as-user`` it loads only the interpreter's own standard library (which lives
under /root here, unreadable to anyone else), then drops to that user: no supplementary groups, code it cannot
write, only world-writable directories such as /tmp. The handler module is imported after that (Lambda's INIT
runs as the function's user too) and each event is handled in turn, with the per-invocation variables Lambda's
runtime sets. Without ``--as-user`` (or when not root) it also reports which standard-library modules the run
loaded, which is what the unprivileged run preloads.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import sysconfig
import traceback
from typing import Any

STDLIB = sysconfig.get_paths()["stdlib"]


def stdlib_loaded() -> list[str]:
    """Standard-library modules in this process that came from files (builtins need no file), in the order
    they were loaded: importing them in another order (``_asyncio`` before ``asyncio``) breaks asyncio's task
    registry, and anyio then finds no running loop."""
    loaded = []
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None) or ""
        if path.startswith(STDLIB) and "site-packages" not in path:
            loaded.append(name)
    return loaded


def drop_to(uid: int) -> None:
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--as-user", type=int, default=None)
    args = parser.parse_args()
    spec: dict[str, Any] = json.load(sys.stdin)
    from shared.local.lambda_context import LambdaContext  # the harness's, before the walls go up

    if args.as_user is not None and os.geteuid() == 0:
        for name in spec.get("preload", []):
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001, S112 - a platform-specific module the root run happened to load
                continue
        drop_to(args.as_user)
    os.chdir(os.environ["LAMBDA_TASK_ROOT"])  # Lambda starts the runtime in the code directory
    results: list[dict[str, Any]] = []
    try:
        module = importlib.import_module(spec["handler"])
    except Exception:  # noqa: BLE001 - an INIT failure is the answer, reported to the test
        results.append({"ok": False, "error": traceback.format_exc()})
    else:
        for invocation in spec["invocations"]:
            os.environ.update(
                invocation.get("env", {})
            )  # what the runtime sets per request (_X_AMZN_TRACE_ID)
            context = LambdaContext.for_function(spec["function_name"])
            try:
                results.append({"ok": True, "value": module.handler(invocation["event"], context)})
            except Exception:  # noqa: BLE001
                results.append({"ok": False, "error": traceback.format_exc()})
    print(json.dumps({"uid": os.geteuid(), "stdlib": stdlib_loaded(), "results": results}, default=str))


if __name__ == "__main__":
    main()
