"""Alarms to an encrypted SNS topic, and one dashboard for the whole service."""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_rds as rds
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from constructs import Construct

from infra.config import StageConfig
from infra.embeddings import VARIANT
from infra.queue import ExtractionQueue

FIVE_MINUTES = Duration.minutes(5)
API_LATENCY_P95_MS = 2000
API_5XX_PER_5_MIN = 5
ACU_UTILISATION_PCT = 90


class Observability(Construct):
    """What pages someone: poison jobs, API errors and latency, function errors, a database at its ceiling."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: StageConfig,
        key: kms.IKey,
        api: apigwv2.HttpApi,
        functions: dict[str, lambda_.IFunction],
        queue: ExtractionQueue,
        cluster: rds.IDatabaseCluster,
        embed_endpoint_name: str,
    ) -> None:
        super().__init__(scope, construct_id)
        self.topic = sns.Topic(
            self, "AlarmTopic", topic_name=f"{config.prefix}-alarms", master_key=key, enforce_ssl=True
        )
        if config.alarm_email:
            self.topic.add_subscription(subscriptions.EmailSubscription(config.alarm_email))
        self.alarms: list[cw.Alarm] = []

        dlq_depth = queue.dead_letter_queue.metric_approximate_number_of_messages_visible(
            period=Duration.minutes(1), statistic=cw.Stats.MAXIMUM
        )
        self._alarm("DlqDepth", dlq_depth, 0, "Extraction jobs failed 3 times and are parked in the DLQ")
        oldest_job = queue.queue.metric_approximate_age_of_oldest_message(period=FIVE_MINUTES)
        self._alarm("QueueAge", oldest_job, 15 * 60, "Extraction jobs wait more than 15 minutes", periods=2)

        server_errors = api.metric_server_error(period=FIVE_MINUTES, statistic=cw.Stats.SUM)
        self._alarm("Api5xx", server_errors, API_5XX_PER_5_MIN - 1, "API answered 5xx repeatedly")
        latency_p95 = api.metric_latency(period=FIVE_MINUTES, statistic=cw.Stats.p(95))
        self._alarm("ApiLatencyP95", latency_p95, API_LATENCY_P95_MS, "API p95 latency above 2 s", periods=3)

        for name, fn in functions.items():
            errors = fn.metric_errors(period=FIVE_MINUTES, statistic=cw.Stats.SUM)
            self._alarm(f"{name.title()}Errors", errors, 0, f"The {name} function raised errors")

        acu = cluster.metric("ACUUtilization", period=FIVE_MINUTES, statistic=cw.Stats.AVERAGE)
        self._alarm("AuroraAcuHigh", acu, ACU_UTILISATION_PCT, "Aurora runs near its max ACU", periods=3)
        capacity = cluster.metric(
            "ServerlessDatabaseCapacity", period=FIVE_MINUTES, statistic=cw.Stats.MAXIMUM
        )

        embed_dims = {"EndpointName": embed_endpoint_name, "VariantName": VARIANT}
        embed_5xx = cw.Metric(
            namespace="AWS/SageMaker",
            metric_name="Invocation5XXErrors",
            dimensions_map=embed_dims,
            period=FIVE_MINUTES,
            statistic=cw.Stats.SUM,
        )
        self._alarm("EmbedErrors", embed_5xx, 0, "The embedding endpoint returned 5xx")
        embed_latency = cw.Metric(
            namespace="AWS/SageMaker",
            metric_name="ModelLatency",
            dimensions_map=embed_dims,
            period=FIVE_MINUTES,
            statistic=cw.Stats.p(95),
        )

        self.dashboard = cw.Dashboard(self, "Dashboard", dashboard_name=config.prefix)
        self.dashboard.add_widgets(
            cw.AlarmStatusWidget(title="Alarms", alarms=self.alarms, width=24, height=4),
        )
        self.dashboard.add_widgets(
            cw.GraphWidget(
                title="API requests / 5xx",
                left=[api.metric_count(period=FIVE_MINUTES)],
                right=[server_errors],
            ),
            cw.GraphWidget(title="API latency p95 (ms)", left=[latency_p95]),
            cw.GraphWidget(
                title="Extraction queue",
                left=[
                    queue.queue.metric_approximate_number_of_messages_visible(period=FIVE_MINUTES),
                    dlq_depth,
                ],
                right=[oldest_job],
            ),
        )
        self.dashboard.add_widgets(
            cw.GraphWidget(
                title="Lambda errors",
                left=[fn.metric_errors(period=FIVE_MINUTES) for fn in functions.values()],
            ),
            cw.GraphWidget(
                title="Lambda duration p95",
                left=[
                    fn.metric_duration(period=FIVE_MINUTES, statistic=cw.Stats.p(95))
                    for fn in functions.values()
                ],
            ),
            cw.GraphWidget(
                title="Lambda throttles",
                left=[fn.metric_throttles(period=FIVE_MINUTES) for fn in functions.values()],
            ),
        )
        self.dashboard.add_widgets(
            cw.GraphWidget(title="Aurora ACU", left=[capacity], right=[acu]),
            cw.GraphWidget(
                title="Aurora connections",
                left=[cluster.metric_database_connections(period=FIVE_MINUTES)],
            ),
            cw.GraphWidget(title="Embedding endpoint", left=[embed_latency], right=[embed_5xx]),
        )

    def _alarm(
        self, name: str, metric: cw.IMetric, threshold: float, description: str, periods: int = 1
    ) -> None:
        """An alarm on ``metric > threshold`` for ``periods`` periods; no data is not an outage."""
        alarm = metric.create_alarm(
            self,
            name,
            alarm_description=description,
            threshold=threshold,
            evaluation_periods=periods,
            comparison_operator=cw.ComparisonOperator.GREATER_THAN_THRESHOLD,
            treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
        )
        alarm.add_alarm_action(cw_actions.SnsAction(self.topic))
        alarm.add_ok_action(cw_actions.SnsAction(self.topic))
        self.alarms.append(alarm)
