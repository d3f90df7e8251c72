"""Request bodies of the contradiction routes: scan a workspace, resolve one."""

from __future__ import annotations

from pydantic import Field

from shared.domain.contradictions.service import RESOLUTIONS
from shared.domain.requests import RequestModel


class ContradictionScanRequest(RequestModel):
    batch_size: int | None = Field(
        default=None,
        ge=1,
        le=500,
        description="Accepted for the reference's clients (1–500); the scan compares the newest live memories "
        "in one pass, up to the server's cap.",
    )
    cursor: str | None = Field(
        default=None,
        max_length=32,
        description="Continue a scan that stopped at its page cap: the previous answer's `next_cursor`.",
    )


class ContradictionResolveRequest(RequestModel):
    resolution: str = Field(
        max_length=32,
        # Documented as the enum it is; checked by the service, which answers another value with the reference's
        # 400 (invalid_resolution) rather than a validation 422.
        json_schema_extra={"enum": list(RESOLUTIONS)},
        description="`keep_a` (B is superseded by A), `keep_b` (A by B), `keep_both` (only the record closes) or "
        "`merge` (A is rewritten to `merged_content`, B superseded by it).",
    )
    merged_content: str | None = Field(
        default=None,
        max_length=100_000,
        description="The merged text; required when `resolution` is `merge`.",
    )
