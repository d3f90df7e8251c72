"""Secrets read at start: the admin key. (Database connections: ``shared/db/connection.py``.)"""

from __future__ import annotations

from shared.settings import Settings


def resolve_admin_key(settings: Settings) -> str | None:
    """The admin key: from settings locally, from Secrets Manager (a plain string secret) in AWS."""
    if settings.admin_key:
        return settings.admin_key.get_secret_value()
    if not settings.admin_key_secret_arn:
        return None
    import boto3

    client = boto3.client("secretsmanager", region_name=settings.aws_region)
    return client.get_secret_value(SecretId=settings.admin_key_secret_arn)["SecretString"].strip()
