"""The two application secrets: the admin key and the context-cursor HMAC secret (generated, KMS-encrypted).

The functions read them lazily on first use (never at import, so never inside a SnapStart snapshot) and cache
them for ``MEMORYLAYER_SECRET_CACHE_TTL_S``; a value changed in Secrets Manager takes effect within that TTL.
"""

from __future__ import annotations

from aws_cdk import aws_kms as kms
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct

from infra.config import StageConfig
from infra.nag import acknowledge


class AppSecrets(Construct):
    """``admin_key`` (read by the memory function: it serves /v1/admin) and ``context_cursor`` (read by the
    memory, sessions and context functions, which sign and verify context cursors)."""

    def __init__(self, scope: Construct, construct_id: str, *, config: StageConfig, key: kms.IKey) -> None:
        super().__init__(scope, construct_id)
        self.admin_key = secretsmanager.Secret(
            self,
            "AdminKey",
            secret_name=f"{config.prefix}/admin-key",
            description="MemoryLayer admin API key (Bearer): creates and revokes workspace API keys",
            encryption_key=key,
            # A plain string secret; 48 alphanumerics = 285 bits, safe in an HTTP header and a shell.
            generate_secret_string=secretsmanager.SecretStringGenerator(
                password_length=48, exclude_punctuation=True, include_space=False
            ),
            removal_policy=config.removal_policy,
        )
        self.context_cursor = secretsmanager.Secret(
            self,
            "ContextCursorSecret",
            secret_name=f"{config.prefix}/context-cursor",
            description="MemoryLayer HMAC key that signs context-delta cursors",
            encryption_key=key,
            generate_secret_string=secretsmanager.SecretStringGenerator(
                password_length=64, exclude_punctuation=True, include_space=False
            ),
            removal_policy=config.removal_policy,
        )
        acknowledge(
            self.admin_key,
            "AwsSolutions-SMG4",
            "The admin key is a bearer credential held by the operator, not by a service: an automatic "
            "rotation would need a rotation Lambda in the VPC and would silently invalidate the operator's "
            "copy. Rotate by hand (put-secret-value); the functions pick the new value up within the secret "
            "cache TTL (MEMORYLAYER_SECRET_CACHE_TTL_S, 300 s).",
        )
        acknowledge(
            self.context_cursor,
            "AwsSolutions-SMG4",
            "An HMAC key for opaque pagination/delta cursors: rotating it invalidates every outstanding cursor "
            "(clients must restart their context stream), so it is rotated deliberately by hand, not on a "
            "timer; the functions re-read it within the secret cache TTL.",
        )
