"""Per-stage sizing, retention and removal policies, chosen with ``cdk ... -c stage=dev|prod``.

>>> StageConfig.for_stage("prod").retain_data
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from aws_cdk import RemovalPolicy
from aws_cdk import aws_logs as logs

from infra.regions import capabilities

PROJECT = "memorylayer"
STAGES = ("dev", "prod")
FUNCTION_NAMES = (
    "memory",
    "sessions",
    "context",
    "environment",
    "extraction",
    "migrate",
    "cleanup",
    "documents",
)
API_FUNCTIONS = ("memory", "sessions", "context", "environment")
# ``-c embeddings=...``: local = the int8 MiniLM ONNX model inside the Lambda (default); gpu = the SageMaker
# container, scaled to zero when idle; openai/google = the providers' APIs (through a NAT gateway).
EMBEDDINGS = ("local", "openai", "google", "gpu")
# ``-c llm=...``: the extraction/answer LLM. Anything but none calls a provider outside AWS.
LLMS = ("none", "openai", "google")
EXTERNAL_PROVIDERS = frozenset({"openai", "google"})
# ``-c trace_export=...``: where the functions' OpenTelemetry spans go (shared/providers/tracing.py). agent (default): OTLP
# over UDP to the X-Ray agent Lambda runs beside an actively traced function, on loopback, so the IPv6-only egress
# needs no route to X-Ray. otlp: OTLP/HTTP to X-Ray's OTLP endpoint, which has no dual-stack name, through an
# xray interface endpoint (billed per AZ-hour, like the SageMaker one).
TRACE_EXPORTS = ("agent", "otlp")
# Settings.embedding_provider for each -c embeddings value.
EMBEDDING_PROVIDER = {"local": "local", "openai": "openai", "google": "google", "gpu": "sagemaker"}
# What may hold reserved concurrency: the functions and the sandbox function.
RESERVABLE = (*FUNCTION_NAMES, "sandbox")
# Lambda keeps this many executions of an account's quota unreserved, whatever the reservations ask.
UNRESERVED_MINIMUM = 100
# ``-c reserved_concurrency=suggested``: a reservation per function sized for each stage. Nothing is reserved
# unless asked: a new account's quota can be far below 100 + these totals (36 in dev, 322 in prod), and a
# reservation the account cannot grant fails the deploy. The sandbox matches the environment function, each of
# whose requests holds at most one sandbox execution.
SUGGESTED_RESERVATIONS: dict[str, dict[str, int]] = {
    "dev": {
        "memory": 10,
        "sessions": 5,
        "context": 5,
        "environment": 5,
        "sandbox": 5,
        "extraction": 2,
        "migrate": 1,
        "cleanup": 1,
        "documents": 2,
    },
    "prod": {
        "memory": 100,
        "sessions": 50,
        "context": 50,
        "environment": 50,
        "sandbox": 50,
        "extraction": 10,
        "migrate": 1,
        "cleanup": 1,
        "documents": 10,
    },
}


def parse_reservations(value: object, stage: str) -> dict[str, int]:
    """``-c reserved_concurrency=``: ``suggested`` (the stage's set), ``name=N,name=N`` or, from cdk.json, an
    object; every name one of RESERVABLE and every N at least 1.

    >>> parse_reservations("memory=20,sandbox=4", "dev")
    {'memory': 20, 'sandbox': 4}
    """
    if value == "suggested":
        return dict(SUGGESTED_RESERVATIONS[stage])
    if isinstance(value, str):
        pairs = [item.split("=", 1) for item in value.split(",") if item.strip()]
        if any(len(pair) != 2 for pair in pairs):
            raise ValueError(f"reserved_concurrency {value!r}: expected 'suggested' or name=N,name=N")
        value = {name.strip(): count.strip() for name, count in pairs}
    if not isinstance(value, dict) or not value:
        raise ValueError(f"reserved_concurrency {value!r}: expected 'suggested' or name=N,name=N")
    unknown = sorted(set(value) - set(RESERVABLE))
    if unknown:
        raise ValueError(
            f"reserved_concurrency: unknown {', '.join(unknown)}; expected {', '.join(RESERVABLE)}"
        )
    try:
        out = {name: int(count) for name, count in value.items()}
    except (TypeError, ValueError):
        raise ValueError(f"reserved_concurrency {value!r}: counts must be whole numbers") from None
    if any(count < 1 for count in out.values()):
        raise ValueError(
            "reserved_concurrency: each reservation must be at least 1 (leave a function out instead)"
        )
    return out


# AWS's recommended minimum capacity (ACU) for an Aurora Serverless v2 instance with Performance Insights on.
PERFORMANCE_INSIGHTS_MIN_ACU = 2.0


@dataclass(frozen=True)
class StageConfig:
    """Everything that differs between stages; the constructs read only this."""

    stage: str
    retain_data: bool
    log_retention: logs.RetentionDays
    # network: NAT gateways exist only when a provider outside AWS is configured (see ``needs_nat``); then one
    # per AZ in prod so an AZ outage does not cut egress, one in dev.
    nat_gateways: int
    # Interface endpoints (SageMaker runtime with embeddings=gpu, X-Ray with trace_export=otlp) cost per AZ-hour:
    # dev uses one AZ.
    endpoint_azs: int
    # dev connects to the writer directly; prod goes through RDS Proxy (IAM auth end to end).
    use_proxy: bool
    # SnapStart on the API functions (their snapshot cache is billed per GB-month while a version exists).
    snap_start: bool
    # database
    db_min_acu: float
    db_max_acu: float
    db_readers: int
    db_backup_days: int
    # embeddings=gpu: SageMaker inference component on a GPU instance, 0 copies (0 instances) when idle
    embed_instance_type: str
    embed_max_instances: int
    embed_invocations_per_instance: int
    # API default-stage throttling
    api_rate_limit: int
    api_burst_limit: int
    # Reserved concurrency (``-c reserved_concurrency=``): none unless asked for, and then only under a stated
    # account quota (``-c account_concurrency=``) that leaves UNRESERVED_MINIMUM unreserved.
    reserved_concurrency: dict[str, int] = field(default_factory=dict)
    account_concurrency: int | None = None
    # The SQS poller's cap on concurrent worker invocations (reserving nothing): it bounds the worker's share of
    # the database whether or not the worker has a reservation.
    extraction_max_concurrency: int = 2
    extraction_batch_size: int = 10
    # Each cleanup run connects to the database and wakes a paused cluster; sessions expire at read time
    # anyway, so the schedule only tidies up.
    cleanup_rate_minutes: int = 360
    alarm_email: str | None = None
    # RDS refuses to delete a protected cluster, even for the rollback of the deploy that created it, so a failed
    # first deploy would be stuck in ROLLBACK_FAILED: off until asked (``-c db_deletion_protection=true`` once
    # the stack is up). DeletionPolicy/UpdateReplacePolicy keep CloudFormation from deleting it meanwhile.
    db_deletion_protection: bool = False
    # prod refuses to synthesize without an alarm subscriber (``-c alarm_email=...``).
    require_alarm_subscriber: bool = False
    embeddings: str = "local"
    llm: str = "none"
    # Performance Insights (``-c performance_insights=on``): off by default in every stage. AWS recommends a
    # minimum capacity of 2 ACU with it on, which would quadruple prod's idle floor (two instances at 0.5 ACU);
    # turning it on raises the floor to that unless ``db_min_acu`` is given, and refuses a lower one.
    performance_insights: bool = False
    trace_export: str = "agent"
    # The sandbox function in Lambda's tenant isolation mode (``-c tenant_isolation=off`` for an account that
    # refuses it, "not supported for this account"); off by itself where the region lacks it (infra/regions.py).
    tenant_isolation: bool = True
    # The region the stack is pinned to (``StageConfig.in_region``); None only for a config not yet placed.
    region: str | None = None

    def __post_init__(self) -> None:
        if self.embeddings not in EMBEDDINGS:
            raise ValueError(
                f"unknown embeddings {self.embeddings!r}; expected one of {', '.join(EMBEDDINGS)}"
            )
        if self.llm not in LLMS:
            raise ValueError(f"unknown llm {self.llm!r}; expected one of {', '.join(LLMS)}")
        if self.trace_export not in TRACE_EXPORTS:
            raise ValueError(
                f"unknown trace_export {self.trace_export!r}; expected one of {', '.join(TRACE_EXPORTS)}"
            )
        if self.db_min_acu == 0 and self.cleanup_rate_minutes < 360:
            raise ValueError("a 0-ACU (auto-pausing) cluster needs cleanup_rate_minutes >= 360")
        if self.performance_insights and self.db_min_acu < PERFORMANCE_INSIGHTS_MIN_ACU:
            raise ValueError(
                f"performance_insights=on needs db_min_acu >= {PERFORMANCE_INSIGHTS_MIN_ACU:g} (AWS's "
                f"recommended minimum with Performance Insights), got {self.db_min_acu:g}"
            )

    @property
    def needs_nat(self) -> bool:
        """A NAT gateway only when something calls a provider outside AWS over IPv4."""
        return self.embeddings in EXTERNAL_PROVIDERS or self.llm in EXTERNAL_PROVIDERS

    @property
    def embedding_provider(self) -> str:
        """The value of ``MEMORYLAYER_EMBEDDING_PROVIDER`` for this stack."""
        return EMBEDDING_PROVIDER[self.embeddings]

    def check_deployable(self) -> None:
        """Raise with a clear message when the stage cannot be synthesized as configured."""
        if self.require_alarm_subscriber and not self.alarm_email:
            raise ValueError(
                f"stage {self.stage!r} needs an alarm subscriber: pass -c alarm_email=you@example.com "
                "(alarms that notify nobody are not monitoring)"
            )
        self.check_reservations()

    def check_reservations(self) -> None:
        """Reservations only under a stated account quota that keeps UNRESERVED_MINIMUM unreserved: a deploy
        whose reservations the account cannot grant fails half-way."""
        if not self.reserved_concurrency:
            return
        total = sum(self.reserved_concurrency.values())
        listed = ", ".join(f"{name} {count}" for name, count in self.reserved_concurrency.items())
        if self.account_concurrency is None:
            raise ValueError(
                f"reserved concurrency ({listed}: {total} in all) needs the account's concurrency quota: pass "
                "-c account_concurrency=N (Service Quotas, AWS Lambda, 'Concurrent executions'; new accounts "
                "often start far below the default 1000)"
            )
        left = self.account_concurrency - total
        if left < UNRESERVED_MINIMUM:
            raise ValueError(
                f"reserved concurrency adds up to {total} ({listed}); under an account quota of "
                f"{self.account_concurrency} that leaves {left} unreserved, and Lambda keeps at least "
                f"{UNRESERVED_MINIMUM}: reserve at most {self.account_concurrency - UNRESERVED_MINIMUM} in all, or "
                "raise the quota first"
            )

    def in_region(self, region: str) -> StageConfig:
        """This config pinned to ``region``: each feature the region lacks (infra/regions.py) falls back (no
        SnapStart, no RDS Proxy, no tenant isolation); ``fallbacks`` says which."""
        offered = capabilities(region)
        return replace(
            self,
            region=region,
            snap_start=self.snap_start and offered.snap_start,
            use_proxy=self.use_proxy and offered.rds_proxy,
            tenant_isolation=self.tenant_isolation and offered.tenant_isolation,
        )

    def fallbacks(self) -> list[str]:
        """What this stage would use but its region lacks (the synth warning lists them)."""
        if self.region is None:
            return []
        wanted = _STAGES[self.stage]
        missing = capabilities(self.region).missing()
        used = {
            "Lambda SnapStart": wanted.snap_start,
            "RDS Proxy": wanted.use_proxy,
            "Lambda tenant isolation": True,
        }
        return [name for name in missing if used[name]]

    @property
    def removal_policy(self) -> RemovalPolicy:
        """For the data (the database, its key, the logs): kept in prod on a delete or replacement, but removed
        when the deploy that created them rolls back (DeletionPolicy RetainExceptOnCreate), so a failed first
        deploy leaves nothing to collide with its retry. DESTROY in dev."""
        return RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE if self.retain_data else RemovalPolicy.DESTROY

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
        overrides = dict(overrides)
        special: dict[str, Any] = {}
        if "reserved_concurrency" in overrides:
            special["reserved_concurrency"] = parse_reservations(overrides.pop("reserved_concurrency"), stage)
        if "account_concurrency" in overrides:
            special["account_concurrency"] = int(overrides.pop("account_concurrency"))
        # Context values from the command line arrive as strings; coerce them to the field's type.
        typed = {k: _coerce(k, getattr(config, k), v) for k, v in overrides.items()}
        if typed.get("performance_insights") and "db_min_acu" not in typed:
            typed["db_min_acu"] = max(config.db_min_acu, PERFORMANCE_INSIGHTS_MIN_ACU)
        return replace(config, **typed, **special)


def _coerce(key: str, current: Any, value: Any) -> Any:
    if current is None:
        return value
    if isinstance(current, bool):  # bool("off") would be True
        if isinstance(value, bool):
            return value
        if str(value).lower() in ("on", "true", "1", "yes"):
            return True
        if str(value).lower() in ("off", "false", "0", "no"):
            return False
        raise ValueError(f"-c {key}= expects on or off, got {value!r}")
    return type(current)(value)


_STAGES: dict[str, StageConfig] = {
    "dev": StageConfig(
        stage="dev",
        retain_data=False,
        log_retention=logs.RetentionDays.TWO_WEEKS,
        nat_gateways=1,
        endpoint_azs=1,
        use_proxy=False,
        snap_start=False,
        # 0 ACU lets the engine auto-pause when idle (Aurora PostgreSQL 16.3+/17.x).
        db_min_acu=0.0,
        db_max_acu=4.0,
        db_readers=0,
        db_backup_days=1,
        # g4dn is the cheapest NVIDIA GPU SageMaker hosts for real-time inference.
        embed_instance_type="ml.g4dn.xlarge",
        embed_max_instances=1,
        embed_invocations_per_instance=1000,
        api_rate_limit=50,
        api_burst_limit=100,
        extraction_max_concurrency=2,
    ),
    "prod": StageConfig(
        stage="prod",
        retain_data=True,
        log_retention=logs.RetentionDays.THREE_MONTHS,
        nat_gateways=2,
        endpoint_azs=2,
        use_proxy=True,
        snap_start=True,
        db_min_acu=0.5,
        db_max_acu=16.0,
        db_readers=1,
        db_backup_days=14,
        embed_instance_type="ml.g5.xlarge",
        embed_max_instances=4,
        embed_invocations_per_instance=3000,
        api_rate_limit=500,
        api_burst_limit=1000,
        extraction_max_concurrency=10,
        cleanup_rate_minutes=15,
        require_alarm_subscriber=True,
    ),
}
