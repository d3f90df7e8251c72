"""CDK entry point (``cdk.json``: ``.venv/bin/python -m infra.app``).

Context: ``-c stage=dev|prod`` (default dev), ``-c region=...`` (default: the CLI's, ``CDK_DEFAULT_REGION``; what
the region lacks falls back, infra/regions.py), ``-c tenant_isolation=off`` (an account that refuses Lambda's tenant
isolation mode), ``-c embeddings=local|openai|google|gpu`` (default local),
``-c llm=none|openai|google``, ``-c alarm_email=...`` (required for prod), ``-c bundle=skip`` (our code only, no
pip), ``-c nag=off``, ``-c bundle_dir=...``, and single-field overrides: ``-c embed_instance_type=ml.g5.2xlarge``,
``-c alarm_email=ops@example.com``, ``-c cleanup_rate_minutes=60``, ``-c db_min_acu=0.5``,
``-c db_max_acu=8``, ``-c performance_insights=on`` (off by default; raises the ACU floor to 2),
``-c db_deletion_protection=true``, ``-c trace_export=otlp`` (spans over HTTPS to X-Ray's OTLP endpoint through an
interface endpoint instead of Lambda's X-Ray agent). Reserved concurrency only when asked: ``-c reserved_concurrency=suggested`` (or
``memory=20,sandbox=5,...``) with ``-c account_concurrency=N``, the account's quota, which must keep 100 unreserved.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from aws_cdk import App, Environment, Token

from infra.bundle import build_assets, skip_deps_requested
from infra.config import StageConfig
from infra.nag import add_nag_checks
from infra.stack import MemoryLayerStack

# Context keys that override a single StageConfig field.
CONFIG_OVERRIDES = (
    "embeddings",
    "llm",
    "embed_instance_type",
    "alarm_email",
    "cleanup_rate_minutes",
    "db_min_acu",
    "db_max_acu",
    "performance_insights",
    "db_deletion_protection",
    "reserved_concurrency",
    "account_concurrency",
    "trace_export",
    "tenant_isolation",
)


def create_stack(
    app: App,
    stage: str,
    *,
    stack_id: str | None = None,
    extra_overrides: dict[str, Any] | None = None,
    env: Environment | None = None,
) -> MemoryLayerStack:
    """Bundle the Lambda code and add the stack for ``stage`` to ``app`` (``extra_overrides`` win over the
    context; tests use them and ``stack_id`` to put several variants in one app; ``env`` pins an account and
    region, which deploys leave to the CLI's credentials)."""
    overrides: dict[str, Any] = {
        key: value for key in CONFIG_OVERRIDES if (value := app.node.try_get_context(key)) is not None
    }
    overrides.update(extra_overrides or {})
    region = stack_region(app, env)
    config = StageConfig.for_stage(stage, overrides).in_region(region)
    config.check_deployable()  # before bundling: a prod synth without an alarm subscriber stops here
    stack_id = stack_id or f"MemoryLayer-{stage}"
    bundle_dir = app.node.try_get_context("bundle_dir")
    with_deps = app.node.try_get_context("bundle") != "skip" and not skip_deps_requested()
    assets = build_assets(
        out_dir=Path(bundle_dir) / stack_id if bundle_dir else None,
        with_deps=with_deps,
        embeddings=config.embeddings,
    )
    return MemoryLayerStack(
        app, stack_id, config=config, assets=assets, env=env or Environment(region=region)
    )


def stack_region(app: App, env: Environment | None = None) -> str:
    """The region the stack is synthesized for: ``env``'s, else ``-c region=``, else the CLI's
    (``CDK_DEFAULT_REGION``, from the profile or ``AWS_REGION``). Never left to deploy time: what the stack
    may use depends on it (infra/regions.py)."""
    region = (
        (env.region if env is not None else None)
        or app.node.try_get_context("region")
        or os.environ.get("CDK_DEFAULT_REGION")
    )
    if not region or Token.is_unresolved(region):
        raise ValueError(
            "no region to synthesize for: pass -c region=<region> (or configure the CLI's default region, "
            "which cdk passes as CDK_DEFAULT_REGION); what the stack uses depends on what the region offers"
        )
    return str(region)


def main() -> None:
    app = App()
    try:
        create_stack(app, app.node.try_get_context("stage") or "dev")
    except ValueError as exc:  # a configuration the stack refuses: say why, without a traceback
        raise SystemExit(f"infra: {exc}") from None
    if app.node.try_get_context("nag") != "off":
        add_nag_checks(app)
    app.synth()


if __name__ == "__main__":
    main()
