"""Per-stage sizing, retention and removal policies, chosen with ``cdk ... -c stage=dev|prod``.

>>> StageConfig.for_stage("prod").retain_data
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from aws_cdk import RemovalPolicy
from aws_cdk import aws_logs as logs

PROJECT = "memorylayer"
STAGES = ("dev", "prod")
FUNCTION_NAMES = ("memory", "sessions", "context", "extraction", "migrate", "cleanup")


@dataclass(frozen=True)
class StageConfig:
    """Everything that differs between stages; the constructs read only this."""

    stage: str
    retain_data: bool
    log_retention: logs.RetentionDays
    # network: one NAT per AZ in prod so an AZ outage does not cut egress; one is enough for dev.
    nat_gateways: int
    # Interface endpoints cost per AZ-hour, so dev places them in one AZ only.
    endpoint_azs: int
    # database
    db_min_acu: float
    db_max_acu: float
    db_readers: int
    db_backup_days: int
    # embeddings (SageMaker real-time endpoint on a GPU instance)
    embed_instance_type: str
    embed_min_instances: int
    embed_max_instances: int
    embed_invocations_per_instance: int
    # API default-stage throttling
    api_rate_limit: int
    api_burst_limit: int
    # Reserved concurrency caps what each function can take from the account and from the DB proxy.
    reserved_concurrency: dict[str, int] = field(default_factory=dict)
    extraction_batch_size: int = 10
    # Each cleanup run connects to the database, which keeps a 0-ACU cluster from pausing.
    cleanup_rate_minutes: int = 5
    alarm_email: str | None = None

    @property
    def removal_policy(self) -> RemovalPolicy:
        """RETAIN for stateful resources in prod, DESTROY in dev."""
        return RemovalPolicy.RETAIN if self.retain_data else RemovalPolicy.DESTROY

    @property
    def prefix(self) -> str:
        """Name prefix for physical names, e.g. ``memorylayer-dev``."""
        return f"{PROJECT}-{self.stage}"

    @classmethod
    def for_stage(cls, stage: str, overrides: dict[str, Any] | None = None) -> StageConfig:
        """The config for ``stage``; ``overrides`` (from context) replace single fields."""
        if stage not in _STAGES:
            raise ValueError(f"unknown stage {stage!r}; expected one of {', '.join(STAGES)}")
        config = _STAGES[stage]
        if not overrides:
            return config
        # Context values from the command line arrive as strings; coerce them to the field's type.
        typed = {
            k: type(getattr(config, k))(v) if getattr(config, k) is not None else v
            for k, v in overrides.items()
        }
        return replace(config, **typed)


_STAGES: dict[str, StageConfig] = {
    "dev": StageConfig(
        stage="dev",
        retain_data=False,
        log_retention=logs.RetentionDays.TWO_WEEKS,
        nat_gateways=1,
        endpoint_azs=1,
        # 0 ACU lets the engine auto-pause when idle (Aurora PostgreSQL 16.3+/17.x).
        db_min_acu=0.0,
        db_max_acu=4.0,
        db_readers=0,
        db_backup_days=1,
        # g4dn is the cheapest NVIDIA GPU SageMaker hosts for real-time inference.
        embed_instance_type="ml.g4dn.xlarge",
        embed_min_instances=1,
        embed_max_instances=1,
        embed_invocations_per_instance=1000,
        api_rate_limit=50,
        api_burst_limit=100,
        reserved_concurrency={
            "memory": 10,
            "sessions": 5,
            "context": 5,
            "extraction": 2,
            "migrate": 1,
            "cleanup": 1,
        },
    ),
    "prod": StageConfig(
        stage="prod",
        retain_data=True,
        log_retention=logs.RetentionDays.THREE_MONTHS,
        nat_gateways=2,
        endpoint_azs=2,
        db_min_acu=0.5,
        db_max_acu=16.0,
        db_readers=1,
        db_backup_days=14,
        embed_instance_type="ml.g5.xlarge",
        embed_min_instances=1,
        embed_max_instances=4,
        embed_invocations_per_instance=3000,
        api_rate_limit=500,
        api_burst_limit=1000,
        reserved_concurrency={
            "memory": 100,
            "sessions": 50,
            "context": 50,
            "extraction": 10,
            "migrate": 1,
            "cleanup": 1,
        },
    ),
}
