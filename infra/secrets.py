"""The two application secrets: the admin key and the context-cursor HMAC secret (generated, KMS-encrypted).

The functions read them lazily on first use (never at import, so never inside a SnapStart snapshot) and cache
them for ``MEMORYLAYER_SECRET_CACHE_TTL_S``; a value changed in Secrets Manager takes effect within that TTL.
"""

from __future__ import annotations

from aws_cdk import RemovalPolicy
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
        # Plain string secrets of alphanumerics: safe in an HTTP header and a shell (48 chars = 285 bits).
        self.admin_key = self._generated(
            "AdminKey",
            config,
            key,
            description="MemoryLayer admin API key (Bearer): creates and revokes workspace API keys",
            length=48,
        )
        self.context_cursor = self._generated(
            "ContextCursorSecret",
            config,
            key,
            description="MemoryLayer HMAC key that signs context-delta cursors",
            length=64,
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

    def _generated(
        self,
        construct_id: str,
        config: StageConfig,
        key: kms.IKey,
        *,
        description: str,
        length: int,
    ) -> secretsmanager.Secret:
        """A KMS-encrypted secret whose value Secrets Manager generates at create time."""
        return secretsmanager.Secret(
            self,
            construct_id,
            description=description,
            encryption_key=key,
            generate_secret_string=secretsmanager.SecretStringGenerator(
                password_length=length, exclude_punctuation=True, include_space=False
            ),
            # Not data (a new admin key is read from the new secret; a new cursor key only restarts context
            # streams), and with generated names a second deploy never meets a secret pending deletion.
            removal_policy=RemovalPolicy.DESTROY,
        )
