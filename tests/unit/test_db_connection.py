"""Connection targets built from Settings: no startup options anywhere, verify-full TLS against the shipped
CA bundle, the owner from the RDS-managed master secret in AWS."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.core.settings import Settings
from shared.db import connection
from shared.db.connection import app_target, ca_bundle_path, owner_target


def test_database_url_wins_and_nothing_adds_startup_options():
    settings = Settings(database_url="postgresql://memorylayer_app@h/db", database_host="ignored")
    target = app_target(settings)
    assert target.conninfo == "postgresql://memorylayer_app@h/db" and target.kwargs() == {}


def test_host_parts_use_verify_full_against_the_shipped_bundle():
    kwargs = app_target(Settings(database_host="proxy.example", database_port=5433)).kwargs()
    assert kwargs == {
        "host": "proxy.example",
        "port": 5433,
        "dbname": "memorylayer",
        "user": "memorylayer_app",
        "sslmode": "verify-full",
        "sslrootcert": ca_bundle_path(),
    }
    assert "options" not in kwargs


def test_without_a_url_or_host_the_error_says_what_to_set():
    with pytest.raises(RuntimeError, match="MEMORYLAYER_DATABASE_HOST"):
        app_target(Settings())


def test_the_owner_comes_from_the_rds_managed_secret_on_the_writer(monkeypatch):
    from aws_lambda_powertools.utilities import parameters

    calls = []

    def fake_get_secret(name, transform=None, max_age=None):
        calls.append((name, transform))
        return {"username": "postgres", "password": "s3cret"}

    monkeypatch.setattr(parameters, "get_secret", fake_get_secret)
    settings = Settings(database_host="writer.example", database_owner_secret_arn="arn:aws:secretsmanager:x")
    kwargs = owner_target(settings).kwargs()
    assert calls == [("arn:aws:secretsmanager:x", "json")]  # read at connection time, not at import
    assert kwargs["user"] == "postgres" and kwargs["password"] == "s3cret"
    assert kwargs["host"] == "writer.example" and kwargs["sslmode"] == "verify-full"


def test_the_owner_url_wins_and_a_single_role_setup_migrates_as_that_role():
    assert owner_target(Settings(database_owner_url="o", database_url="a")).conninfo == "o"
    assert owner_target(Settings(database_url="a")).conninfo == "a"


def test_iam_tokens_are_presigned_locally_for_the_right_user_and_endpoint(monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIAFAKEFAKEFAKE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "fake-secret")
    connection._rds_client.cache_clear()
    settings = Settings(database_host="proxy.example", database_auth="iam", aws_region="eu-west-1")
    kwargs = app_target(settings).kwargs()
    token = kwargs["password"]
    assert token.startswith("proxy.example:5432/?") and "Action=connect" in token
    assert "DBUser=memorylayer_app" in token and "%2Feu-west-1%2Frds-db%2Faws4_request" in token
    assert kwargs["sslmode"] == "verify-full" and kwargs["sslrootcert"] == ca_bundle_path()


def test_the_shipped_ca_bundle_holds_amazon_root_and_rds_cas():
    from cryptography import x509

    certs = x509.load_pem_x509_certificates(Path(ca_bundle_path()).read_bytes())
    names = [c.subject.rfc4514_string() for c in certs]
    for cert in certs:
        cert.verify_directly_issued_by(cert)  # self-signed, signature valid: nothing was mangled
        assert cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert sum("Amazon Root CA" in n for n in names) == 4
    assert sum("Amazon RDS" in n for n in names) >= 3
