"""EventBridge schedule that expires idle sessions."""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from infra.config import StageConfig


class CleanupSchedule(Construct):
    """Every ``config.cleanup_rate_minutes`` (5 by default), invoke the session-cleanup function."""

    def __init__(
        self, scope: Construct, construct_id: str, *, config: StageConfig, function: lambda_.IFunction
    ) -> None:
        super().__init__(scope, construct_id)
        rate = Duration.minutes(config.cleanup_rate_minutes)
        self.rule = events.Rule(
            self,
            "Rule",
            rule_name=f"{config.prefix}-session-cleanup",
            description="Expire idle MemoryLayer sessions",
            schedule=events.Schedule.rate(rate),
            targets=[
                # A run older than one period is superseded by the next one, so drop it rather than pile up.
                targets.LambdaFunction(function, retry_attempts=2, max_event_age=rate)
            ],
        )
