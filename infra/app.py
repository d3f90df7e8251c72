"""CDK entry point (``cdk.json``: ``.venv/bin/python -m infra.app``).

Context: ``-c stage=dev|prod`` (default dev), ``-c bundle=skip`` (our code only, no pip), ``-c nag=off``,
``-c bundle_dir=...``, and single-field overrides: ``-c embed_instance_type=ml.g5.2xlarge``,
``-c alarm_email=ops@example.com``, ``-c cleanup_rate_minutes=60``, ``-c db_min_acu=0.5``,
``-c db_max_acu=8``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aws_cdk import App

from infra.bundle import build_assets, skip_deps_requested
from infra.config import StageConfig
from infra.nag import add_nag_checks
from infra.stack import MemoryLayerStack

# Context keys that override a single StageConfig field.
CONFIG_OVERRIDES = ("embed_instance_type", "alarm_email", "cleanup_rate_minutes", "db_min_acu", "db_max_acu")


def create_stack(app: App, stage: str) -> MemoryLayerStack:
    """Bundle the Lambda code and add the stack for ``stage`` to ``app``."""
    overrides: dict[str, Any] = {
        key: value for key in CONFIG_OVERRIDES if (value := app.node.try_get_context(key)) is not None
    }
    config = StageConfig.for_stage(stage, overrides)
    bundle_dir = app.node.try_get_context("bundle_dir")
    with_deps = app.node.try_get_context("bundle") != "skip" and not skip_deps_requested()
    assets = build_assets(out_dir=Path(bundle_dir) / stage if bundle_dir else None, with_deps=with_deps)
    return MemoryLayerStack(app, f"MemoryLayer-{stage}", config=config, assets=assets)


def main() -> None:
    app = App()
    create_stack(app, app.node.try_get_context("stage") or "dev")
    if app.node.try_get_context("nag") != "off":
        add_nag_checks(app)
    app.synth()


if __name__ == "__main__":
    main()
