"""Run executions through the guest in a process shaped like Lambda's, and print what came back.

    python -m tests.sandbox_probe --as-user 65534 < requests.json   # a JSON list of (request, previous state)

As root with ``--as-user``, it loads what it needs, then drops to that user (no capabilities, no namespace,
code it cannot write, only world-writable directories such as /tmp): Lambda's process model. Each answer is
checked by the host as the API checks it. The environment it runs in is the caller's (the tests put fake
credentials there, to show the guest cannot reach them).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from shared.domain.context_env import host, interpreter
from shared.domain.context_env.wasm import WasmExecutor


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--as-user", type=int, default=None)
    parser.add_argument("--wasm", default=None)
    args = parser.parse_args()
    requests = json.load(sys.stdin)
    if args.as_user is not None and os.geteuid() == 0:
        os.setgroups([])
        os.setgid(args.as_user)
        os.setuid(args.as_user)
    executor = WasmExecutor(args.wasm)  # loaded as the user that runs it: its cache, its permissions
    answers = []
    for request, previous in requests:
        raw = executor.run(request)
        answers.append({"raw": raw, "checked": host.check(raw, previous, request.get("limits") or {})})
    print(json.dumps({"uid": os.geteuid(), "cache": str(interpreter.cache_dir()), "answers": answers}))


if __name__ == "__main__":
    main()
