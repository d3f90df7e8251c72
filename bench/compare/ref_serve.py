"""The reference server as it runs between its scheduled jobs: each recurring task first runs after its interval.

Run by the reference venv's Python as a script (``python -m`` is not used), with ``memorylayer``'s own CLI:

    .venv-ref312/bin/python bench/compare/ref_serve.py serve --host 127.0.0.1 --port 8080

memorylayer-server 0.2.0 runs every recurring task once as it starts, then every interval: the contradiction
scan and consolidation daily, decay every 6 hours, cleanup more often. The contradiction scan does a vector
search for every memory of every workspace, in the server's process: over 50,000 memories it was still running
after 11 minutes, so measuring a freshly restarted server measures that scan. A server that has been up
spends almost all of its day between those runs; here each recurring task waits its interval before its first
run, which is that state. Everything a request does (the near-duplicate search, the post-store enrichment)
is unchanged. On an empty data directory (the 1k and 10k sizes start on one) the startup runs have nothing
to do, so this changes nothing there.
"""

from __future__ import annotations

import asyncio
import sys

from memorylayer_server.cli import cli
from memorylayer_server.services.tasks.asyncio_impl import AsyncIOTaskService

_schedule_recurring = AsyncIOTaskService.schedule_recurring
_deferred: set[asyncio.Task] = set()  # the loop keeps only weak references to tasks


async def _schedule_after_interval(self, task_type: str, interval_seconds: int, payload: dict) -> str | None:  # noqa: ANN001
    async def later() -> None:
        await asyncio.sleep(interval_seconds)
        await _schedule_recurring(self, task_type, interval_seconds, payload)

    task = asyncio.get_running_loop().create_task(later())
    _deferred.add(task)
    task.add_done_callback(_deferred.discard)
    return f"deferred_{task_type}"


AsyncIOTaskService.schedule_recurring = _schedule_after_interval

if __name__ == "__main__":
    sys.argv[0] = "memorylayer"
    sys.exit(cli())
