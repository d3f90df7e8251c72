"""Where and as whom to connect, built from Settings: the app role for the runtime, the owner for migrations.

    >>> target = app_target(Settings(database_url="postgresql://memorylayer_app@127.0.0.1:6432/postgres"))
    >>> target.conninfo, target.kwargs()
    ('postgresql://memorylayer_app@127.0.0.1:6432/postgres', {})
    >>> aws = app_target(Settings(database_host="proxy.example", database_auth="iam"))   # doctest: +SKIP
    >>> aws.kwargs()["password"]          # a fresh IAM token for each new connection   # doctest: +SKIP

``database_url`` (and ``database_owner_url``) win; otherwise the parts ``database_host/port/name/user`` with
TLS ``verify-full`` against the CA bundle shipped next to this module (Amazon Root CAs for RDS Proxy's ACM
certificate, Amazon RDS CAs for the Aurora writer). Nothing here sends libpq startup ``options``: RDS Proxy
refuses them, and the role's session defaults come from ``ALTER ROLE ... SET`` (see ``shared/db/roles.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from shared.core.settings import Settings

CA_BUNDLE_NAME = "ca-bundle.pem"
OWNER_SECRET_MAX_AGE_S = 60  # the migrate function runs rarely; RDS rotates this secret itself


def ca_bundle_path() -> str:
    """The shipped CA bundle (a real file inside the package, so libpq can read it)."""
    return str(resources.files("shared.db") / CA_BUNDLE_NAME)


@dataclass(frozen=True)
class ConnectionTarget:
    """A base conninfo plus keyword parameters computed again for every new connection."""

    conninfo: str = ""
    kwargs: Callable[[], dict[str, Any]] = field(default=dict)
    description: str = ""

    def connect(self, **extra: Any) -> Any:
        """One plain connection (migrations): ``with owner_target(s).connect(autocommit=True) as conn``."""
        import psycopg

        return psycopg.connect(self.conninfo, **{"prepare_threshold": None, **self.kwargs(), **extra})


def app_target(settings: Settings) -> ConnectionTarget:
    """The application role: ``database_url`` locally, ``database_host`` (+ IAM token) in AWS."""
    if settings.database_url:
        return ConnectionTarget(settings.database_url, dict, "database_url")
    if not settings.database_host:
        raise RuntimeError("set MEMORYLAYER_DATABASE_URL, or MEMORYLAYER_DATABASE_HOST in AWS")
    base = _tls_params(settings, settings.database_user)
    if settings.database_auth == "iam":
        token = iam_token_source(
            settings, settings.database_host, settings.database_port, settings.database_user
        )
        return ConnectionTarget("", lambda: {**base, "password": token()}, f"{settings.database_host} (iam)")
    # password auth without a URL: libpq finds the password itself (PGPASSWORD, ~/.pgpass).
    return ConnectionTarget("", lambda: dict(base), f"{settings.database_host} (password)")


def owner_target(settings: Settings) -> ConnectionTarget:
    """The owner, for migrations: ``database_owner_url`` locally; in AWS the RDS-managed master secret and
    the writer endpoint. A single-role setup (only ``database_url``) migrates as that role."""
    if settings.database_owner_url:
        return ConnectionTarget(settings.database_owner_url, dict, "database_owner_url")
    if settings.database_owner_secret_arn:
        if not settings.database_host:
            raise RuntimeError(
                "MEMORYLAYER_DATABASE_HOST (the writer endpoint) is needed with the owner secret"
            )
        arn = settings.database_owner_secret_arn

        def params() -> dict[str, Any]:
            from aws_lambda_powertools.utilities import parameters  # only in AWS: keeps local imports light

            secret = parameters.get_secret(arn, transform="json", max_age=OWNER_SECRET_MAX_AGE_S)
            return {**_tls_params(settings, secret["username"]), "password": secret["password"]}

        return ConnectionTarget("", params, f"{settings.database_host} (owner secret)")
    if settings.database_url:
        return ConnectionTarget(settings.database_url, dict, "database_url")
    raise RuntimeError("set MEMORYLAYER_DATABASE_OWNER_URL, or MEMORYLAYER_DATABASE_OWNER_SECRET_ARN in AWS")


def _tls_params(settings: Settings, user: str) -> dict[str, Any]:
    return {
        "host": settings.database_host,
        "port": settings.database_port,
        "dbname": settings.database_name,
        "user": user,
        # verify-full: the certificate chains to the bundle AND names the host we asked for.
        "sslmode": "verify-full",
        "sslrootcert": settings.database_sslrootcert or ca_bundle_path(),
    }


def iam_token_source(settings: Settings, host: str, port: int, user: str) -> Callable[[], str]:
    """A callable returning a fresh IAM auth token (valid 15 minutes; only checked at login). The token is a
    SigV4 presigned URL computed locally: no network call. The boto3 client is built on first use, never at
    import (SnapStart snapshots must not hold credentials)."""

    def token() -> str:
        return _rds_client(settings.aws_region).generate_db_auth_token(
            DBHostname=host, Port=port, DBUsername=user, Region=settings.aws_region
        )

    return token


@lru_cache(maxsize=4)
def _rds_client(region: str) -> Any:
    import boto3

    return boto3.client("rds", region_name=region)
