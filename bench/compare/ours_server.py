"""Child process: our local stack (throwaway embedded Postgres + the app under uvicorn), hash embeddings.

Prints ``{"base_url": ...}`` on one stdout line once it serves, then runs until SIGTERM/SIGINT, when it stops
uvicorn and the embedded Postgres. It runs out of the driver's process so that, like the reference server, it
does not share a GIL with the benchmark's client threads.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from types import FrameType

from bench.common import local_stack


def main() -> None:
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    with local_stack("hash") as (base_url, settings):
        print(
            json.dumps({"base_url": base_url, "embedding_provider": settings.embedding_provider}), flush=True
        )
        while not stop.wait(0.5):
            pass
    sys.stdout.flush()


if __name__ == "__main__":
    main()
