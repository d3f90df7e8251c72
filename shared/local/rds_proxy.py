"""A stand-in for RDS Proxy (PostgreSQL) in front of the embedded Postgres, for ``make dev`` and the tests.

    >>> proxy = RdsProxyStandIn(upstream_dsn=pg.dsn).start()              # doctest: +SKIP
    >>> psycopg.connect(proxy.dsn("memorylayer_app", "postgres"))           # doctest: +SKIP
    >>> proxy.pins  # what would have pinned a real proxy's connection  # doctest: +SKIP
    []
    >>> proxy.stop()                                                        # doctest: +SKIP

It speaks just enough of the wire protocol to behave like RDS Proxy where that matters to us:

- a startup packet carrying ``options`` (or ``replication``) is refused with RDS Proxy's error, before
  anything reaches the database;
- with ``tls`` it answers SSLRequest with ``S`` and a certificate from a throwaway CA (``ca_file``), so
  clients run ``sslmode=verify-full`` as in AWS; without, ``N`` (plain, as a local socket is);
- with ``iam`` it asks for a cleartext password and accepts only a well-formed, unexpired RDS IAM token
  for the user and endpoint being logged in to (the SigV4 signature itself is not checked: no secret here),
  then logs in upstream with trust auth, as the real proxy uses its own credentials;
- after startup it reads every frontend message and records what RDS Proxy documents as pinning a client
  connection to one database connection (session SET, PREPARE/EXECUTE/DEALLOCATE/DISCARD, named
  extended-protocol statements, LISTEN, temporary tables/sequences/views, cursors, LOAD, session-level
  advisory locks, currval/lastval): ``pins``;
- ``paused`` (or ``pause()``) models an Aurora Serverless v2 writer at 0 ACU: every client connection ends, and
  the next one to arrive starts a resume that lasts ``resume_s``. Connections arriving meanwhile are accepted
  but get no answer to their first packet until the resume ends (a client's ``connect_timeout`` runs out first
  if it is shorter); the resume continues whether or not they wait. ``resumes`` counts them.

Server responses are relayed untouched. One asyncio loop on a daemon thread; TCP on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import re
import ssl
import struct
import tempfile
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from psycopg.conninfo import conninfo_to_dict, make_conninfo

SSL_REQUEST, GSSENC_REQUEST, CANCEL_REQUEST = 80877103, 80877104, 80877102
OPTIONS_REFUSED = "Feature not supported: RDS Proxy currently doesn't support command-line options."
REPLICATION_REFUSED = "Feature not supported: RDS Proxy currently doesn't support replication connections."

# Statement-level causes of pinning (RDS Proxy docs, "Avoiding pinning", PostgreSQL). Checked on each
# statement of a simple query and on each Parse. Transaction-scoped forms (SET LOCAL, set_config(..., true),
# pg_advisory_xact_lock) do not pin.
_PIN_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (reason, re.compile(pattern, re.IGNORECASE | re.DOTALL))
    for reason, pattern in (
        ("SET (session)", r"^\s*(SET|RESET)\b(?!\s+(LOCAL|TRANSACTION)\b)"),
        ("set_config (session)", r"\bset_config\s*\((?![^)]*\btrue\s*\))"),
        ("prepared statement command", r"^\s*(PREPARE|EXECUTE|DEALLOCATE)\b"),
        ("DISCARD", r"^\s*DISCARD\b"),
        ("LISTEN", r"^\s*LISTEN\b"),
        ("temporary object", r"^\s*CREATE\s+((GLOBAL|LOCAL)\s+)?(TEMP|TEMPORARY)\s+(TABLE|SEQUENCE|VIEW)\b"),
        ("temporary object", r"^\s*CREATE\s+.*\bAS\b.*\bINTO\s+(TEMP|TEMPORARY)\b"),
        ("cursor", r"^\s*DECLARE\b"),
        ("LOAD", r"^\s*LOAD\b"),
        ("session advisory lock", r"\bpg_(try_)?advisory_lock(_shared)?\s*\("),
        ("sequence session state", r"\b(currval|lastval)\s*\("),
    )
)


@dataclass(frozen=True)
class Pin:
    reason: str
    sql: str
    user: str


@dataclass
class RdsProxyStandIn:
    upstream_dsn: str
    tls: bool = False
    iam: bool = False
    region: str = "us-east-1"
    host: str = "127.0.0.1"
    port: int = 0
    pins: list[Pin] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    ca_file: str | None = None
    paused: bool = False
    resume_s: float = 15.0
    resumes: int = 0
    _resuming: asyncio.Future[None] | None = None
    _clients: set[asyncio.StreamWriter] = field(default_factory=set)
    _loop: asyncio.AbstractEventLoop | None = None
    _server: asyncio.AbstractServer | None = None
    _thread: threading.Thread | None = None
    _ssl: ssl.SSLContext | None = None

    # --- lifecycle -------------------------------------------------------------------------------------
    def start(self) -> RdsProxyStandIn:
        if self.tls:
            self._ssl, self.ca_file = _throwaway_tls(self.host)
        ready = threading.Event()

        def run() -> None:
            self._loop = asyncio.new_event_loop()
            self._server = self._loop.run_until_complete(
                asyncio.start_server(self._client, self.host, self.port)
            )
            self.port = self._server.sockets[0].getsockname()[1]
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name="rds-proxy-stand-in", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the stand-in proxy did not start")
        return self

    def stop(self) -> None:
        if self._loop is None or self._server is None:
            return
        loop, server = self._loop, self._server

        async def shutdown() -> None:
            server.close()
            tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)  # let each client close its sockets

        asyncio.run_coroutine_threadsafe(shutdown(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread:
            self._thread.join(10)
        self._loop = self._server = None

    def __enter__(self) -> RdsProxyStandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def pause(self, resume_s: float | None = None) -> None:
        """Pause now, as Aurora does after ``SecondsUntilAutoPause`` without connections: open client
        connections end, and the next connection starts a resume of ``resume_s`` (default: as configured)."""
        if self._loop is None:
            raise RuntimeError("the stand-in proxy is not running")

        async def pause() -> None:
            if resume_s is not None:
                self.resume_s = resume_s
            self.paused, self._resuming = True, None
            for writer in list(self._clients):
                writer.close()

        asyncio.run_coroutine_threadsafe(pause(), self._loop).result(10)

    async def _wait_out_resume(self) -> None:
        if not self.paused:
            return
        if self._resuming is None:
            self.resumes += 1
            self._resuming = asyncio.ensure_future(self._resume(self.resume_s))
        # shield: a client that gives up (its connect_timeout) does not cancel the resume for the others
        await asyncio.shield(self._resuming)

    async def _resume(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if asyncio.current_task() is self._resuming:  # not a resume that a later pause() superseded
            self.paused = False

    def dsn(self, user: str, dbname: str) -> str:
        """A libpq DSN for ``user`` through the proxy (TLS verify-full against the throwaway CA with ``tls``)."""
        params: dict[str, str | int] = {"host": self.host, "port": self.port, "user": user, "dbname": dbname}
        if self.tls and self.ca_file:
            params.update(sslmode="verify-full", sslrootcert=self.ca_file)
        else:
            params["sslmode"] = "disable"
        return make_conninfo("", **params)

    # --- one client ------------------------------------------------------------------------------------
    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_writer: asyncio.StreamWriter | None = None
        self._clients.add(writer)
        try:
            await self._wait_out_resume()
            startup = await self._negotiate(reader, writer)
            if startup is None:
                return
            code, params = startup
            up_reader, upstream_writer = await self._open_upstream()
            if code == CANCEL_REQUEST:
                upstream_writer.write(params["raw"].encode("latin-1"))
                await upstream_writer.drain()
                return
            upstream_writer.write(_startup_message(params))
            await upstream_writer.drain()
            user = params.get("user", "")
            pumps = [
                asyncio.ensure_future(self._frontend(reader, upstream_writer, user)),
                asyncio.ensure_future(_relay(up_reader, writer)),
            ]
            try:
                await asyncio.wait(pumps)  # each pump closes the other side when its own side ends
            finally:
                for pump in pumps:
                    pump.cancel()
                await asyncio.gather(*pumps, return_exceptions=True)
        except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError):
            pass
        except asyncio.CancelledError:  # the proxy is stopping: end quietly, sockets closed below
            pass
        finally:
            self._clients.discard(writer)
            for w in (writer, upstream_writer):
                if w is not None:
                    w.close()

    async def _negotiate(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> tuple[int, dict[str, str]] | None:
        """Startup: SSL/GSS negotiation, the refusals, IAM auth. The startup parameters, or None if refused."""
        while True:
            (length,) = struct.unpack("!I", await reader.readexactly(4))
            body = await reader.readexactly(length - 4)
            (code,) = struct.unpack("!I", body[:4])
            if code == SSL_REQUEST:
                if self._ssl is None:
                    writer.write(b"N")
                    await writer.drain()
                else:
                    writer.write(b"S")
                    await writer.drain()
                    await writer.start_tls(self._ssl)
                continue
            if code == GSSENC_REQUEST:
                writer.write(b"N")
                await writer.drain()
                continue
            if code == CANCEL_REQUEST:
                return code, {"raw": (struct.pack("!I", length) + body).decode("latin-1")}
            params = _parse_startup(body[4:])
            refusal = (
                OPTIONS_REFUSED
                if "options" in params
                else REPLICATION_REFUSED
                if "replication" in params
                else None
            )
            if refusal:
                self.refused.append(refusal)
                writer.write(_error("FATAL", "0A000", refusal))
                await writer.drain()
                return None
            if self.iam and not await self._iam_login(reader, writer, params):
                return None
            return code, params

    async def _iam_login(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, params: dict[str, str]
    ) -> bool:
        writer.write(b"R" + struct.pack("!II", 8, 3))  # AuthenticationCleartextPassword
        await writer.drain()
        kind = await reader.readexactly(1)
        (length,) = struct.unpack("!I", await reader.readexactly(4))
        password = (await reader.readexactly(length - 4)).rstrip(b"\0").decode()
        problem = (
            "expected a password message"
            if kind != b"p"
            else iam_token_problem(password, params.get("user", ""), self.host, self.port, self.region)
        )
        if problem:
            self.refused.append(f"IAM: {problem}")
            writer.write(
                _error("FATAL", "28P01", f'IAM authentication failed for user "{params.get("user")}"')
            )
            await writer.drain()
            return False
        return True

    async def _open_upstream(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        info = conninfo_to_dict(self.upstream_dsn)
        host, port = str(info.get("host") or "localhost"), int(info.get("port") or 5432)
        if host.startswith("/"):
            return await asyncio.open_unix_connection(f"{host}/.s.PGSQL.{port}")
        return await asyncio.open_connection(host, port)

    async def _frontend(
        self, reader: asyncio.StreamReader, upstream: asyncio.StreamWriter, user: str
    ) -> None:
        """Client → database, message by message, recording what would pin."""
        try:
            while True:
                header = await reader.readexactly(5)
                kind, length = header[:1], struct.unpack("!I", header[1:])[0]
                body = await reader.readexactly(length - 4)
                self._inspect(kind, body, user)
                upstream.write(header + body)
                await upstream.drain()
                if kind == b"X":
                    return
        finally:
            upstream.close()

    def _inspect(self, kind: bytes, body: bytes, user: str) -> None:
        if kind == b"Q":
            sql = body.rstrip(b"\0").decode(errors="replace")
        elif kind == b"P":
            name, _, rest = body.partition(b"\0")
            sql = rest.partition(b"\0")[0].decode(errors="replace")
            if name:
                self.pins.append(Pin("named prepared statement (extended protocol)", sql, user))
        else:
            return
        for statement in _statements(sql):
            for reason, pattern in _PIN_PATTERNS:
                if pattern.search(statement):
                    self.pins.append(Pin(reason, statement.strip(), user))


async def _relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Database → client, untouched; when the database ends the session (idle_session_timeout, restart)
    the client connection ends too, as with the real proxy."""
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.close()


def iam_token_problem(token: str, user: str, host: str, port: int, region: str) -> str | None:
    """Why ``token`` is not an RDS IAM auth token for ``user`` at ``host:port`` (None if it looks right)."""
    parts = urlsplit(f"https://{token}")
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    if parts.hostname != host or parts.port != port:
        return f"token is for {parts.hostname}:{parts.port}"
    if query.get("Action") != "connect" or query.get("DBUser") != user:
        return "token is not a connect token for this user"
    if query.get("X-Amz-Algorithm") != "AWS4-HMAC-SHA256" or not re.fullmatch(
        r"[0-9a-f]{64}", query.get("X-Amz-Signature", "")
    ):
        return "token is not SigV4-signed"
    scope = query.get("X-Amz-Credential", "").split("/")
    if len(scope) != 5 or scope[2:] != [region, "rds-db", "aws4_request"]:
        return "token has the wrong credential scope"
    try:
        signed = datetime.strptime(query["X-Amz-Date"], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
        expires = signed + timedelta(seconds=int(query["X-Amz-Expires"]))
    except (KeyError, ValueError):
        return "token has no valid date"
    if not signed - timedelta(minutes=5) <= datetime.now(UTC) <= expires:
        return "token expired"
    return None


def _statements(sql: str) -> list[str]:
    """Statements of a query string, split on semicolons outside quotes (good enough for inspection)."""
    out: list[str] = []
    current: list[str] = []
    quote = ""
    for ch in sql:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ";":
            out.append("".join(current))
            current = []
            continue
        current.append(ch)
    out.append("".join(current))
    return [s for s in out if s.strip()]


def _parse_startup(payload: bytes) -> dict[str, str]:
    items = payload.rstrip(b"\0").split(b"\0")
    return {items[i].decode(): items[i + 1].decode() for i in range(0, len(items) - 1, 2)}


def _startup_message(params: dict[str, str]) -> bytes:
    payload = struct.pack("!I", 196608)
    payload += b"".join(k.encode() + b"\0" + v.encode() + b"\0" for k, v in params.items()) + b"\0"
    return struct.pack("!I", len(payload) + 4) + payload


def _error(severity: str, code: str, message: str) -> bytes:
    fields = b"".join(
        tag + value.encode() + b"\0"
        for tag, value in ((b"S", severity), (b"V", severity), (b"C", code), (b"M", message))
    )
    body = fields + b"\0"
    return b"E" + struct.pack("!I", len(body) + 4) + body


def _throwaway_tls(host: str) -> tuple[ssl.SSLContext, str]:
    """A CA and a server certificate for ``host`` (an IP SAN), generated now: verify-full works locally."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.now(UTC)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "MemoryLayer stand-in proxy CA")])
    ca = (
        x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(ca_key, hashes.SHA256())
    )  # fmt: skip
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])).issuer_name(ca_name)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5)).not_valid_after(now + timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(host))]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )  # fmt: skip
    folder = Path(tempfile.mkdtemp(prefix="ml-proxy-tls-"))
    pem = serialization.Encoding.PEM
    (folder / "ca.pem").write_bytes(ca.public_bytes(pem))
    (folder / "server.pem").write_bytes(cert.public_bytes(pem))
    (folder / "server.key").write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(folder / "server.pem", folder / "server.key")
    return context, str(folder / "ca.pem")
