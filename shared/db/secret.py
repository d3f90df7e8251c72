"""The database URL: from settings, or (in AWS) built from a Secrets Manager secret and the proxy host.

>>> resolve_database_url(Settings(database_url="postgresql://u@h/db"))
'postgresql://u@h/db'
"""

from __future__ import annotations

import json
from urllib.parse import quote

from shared.settings import Settings


def resolve_database_url(settings: Settings) -> str:
    if settings.database_url:
        return settings.database_url
    if not settings.database_secret_arn:
        raise RuntimeError("set MEMORYLAYER_DATABASE_URL, or MEMORYLAYER_DATABASE_SECRET_ARN in AWS")
    import boto3  # only in AWS: keeps local imports light

    client = boto3.client("secretsmanager", region_name=settings.aws_region)
    secret = json.loads(client.get_secret_value(SecretId=settings.database_secret_arn)["SecretString"])
    host = settings.database_host or secret["host"]
    port = secret.get("port", 5432)
    name = settings.database_name or secret.get("dbname", "postgres")
    user, password = quote(secret["username"], safe=""), quote(secret["password"], safe="")
    return f"postgresql://{user}:{password}@{host}:{port}/{name}?sslmode=require"
