"""Alarms to an encrypted SNS topic (with a subscriber: prod refuses to synthesize without one), and the stage's
dashboard (its widgets over the functions' own series: infra/dashboard.py), which every alarm links to."""

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
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra import dashboard as widgets
from infra.config import StageConfig
from infra.documents import DocumentStore
from infra.embeddings import EmbeddingEndpoint
from infra.queue import ExtractionQueue

FIVE_MINUTES = Duration.minutes(5)
# Share of API requests answered with a 5xx, over 5 minutes.
API_5XX_RATE_PCT = 5
# p99 duration alarm: this share of each function's timeout.
P99_OF_TIMEOUT = 0.8
# Concurrency alarm: this share of each function's reserved concurrency.
CONCURRENCY_OF_RESERVED = 0.8
ACU_UTILISATION_PCT = 90
DB_CONNECTIONS_OF_MAX = 0.8
# Aurora PostgreSQL's default max_connections is LEAST(DBInstanceClassMemory / 9531392, 5000); a Serverless v2
# instance derives it from its maximum capacity (2 GiB per ACU). An estimate: the class memory AWS reports is a
# little below the nominal size, so the alarm fires slightly early rather than late.
_BYTES_PER_CONNECTION = 9531392


def max_connections_estimate(max_acu: float) -> int:
    """Aurora PostgreSQL's default ``max_connections`` for a Serverless v2 writer at ``max_acu``.

    >>> max_connections_estimate(4)
    901
    """
    return min(int(max_acu * 2 * 1024**3 // _BYTES_PER_CONNECTION), 5000)


class Observability(Construct):
    """What pages someone: poison jobs, API errors and latency, function errors/throttles/latency/concurrency,
    a database near its connection or capacity ceiling, a failing embedding endpoint."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: StageConfig,
        key: kms.IKey,
        api: apigwv2.HttpApi,
        functions: dict[str, lambda_.Function],
        queue: ExtractionQueue,
        documents: DocumentStore,
        cluster: rds.IDatabaseCluster,
        proxy: rds.DatabaseProxy | None,
        embeddings: EmbeddingEndpoint | None,
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
        requests = api.metric_count(period=FIVE_MINUTES, statistic=cw.Stats.SUM)
        error_rate = cw.MathExpression(
            expression="IF(requests > 0, 100 * errors / requests, 0)",
            using_metrics={"errors": server_errors, "requests": requests},
            label="API 5xx rate (%)",
            period=FIVE_MINUTES,
        )
        self._alarm(
            "Api5xxRate",
            error_rate,
            API_5XX_RATE_PCT,
            f"More than {API_5XX_RATE_PCT}% of API requests got a 5xx",
        )
        latency_p99 = api.metric_latency(period=FIVE_MINUTES, statistic=cw.Stats.p(99))

        for name, fn in functions.items():
            title = name.title()
            errors = fn.metric_errors(period=FIVE_MINUTES, statistic=cw.Stats.SUM)
            self._alarm(f"{title}Errors", errors, 0, f"The {name} function raised errors")
            throttles = fn.metric_throttles(period=FIVE_MINUTES, statistic=cw.Stats.SUM)
            self._alarm(f"{title}Throttles", throttles, 0, f"The {name} function was throttled")
            timeout_ms = fn.timeout.to_milliseconds() if fn.timeout else 3000
            duration = fn.metric_duration(period=FIVE_MINUTES, statistic=cw.Stats.p(99))
            self._alarm(
                f"{title}LatencyP99",
                duration,
                int(timeout_ms * P99_OF_TIMEOUT),
                f"The {name} function's p99 duration is above {int(P99_OF_TIMEOUT * 100)}% of its timeout",
                periods=3,
            )
            reserved = config.reserved_concurrency.get(name, 0)
            # With a reservation of 1 any run is "near" it; the throttle alarm covers those functions.
            if reserved >= 2:
                concurrency = fn.metric(
                    "ConcurrentExecutions", period=Duration.minutes(1), statistic=cw.Stats.MAXIMUM
                )
                self._alarm(
                    f"{title}ConcurrencyNearReserved",
                    concurrency,
                    max(1, int(reserved * CONCURRENCY_OF_RESERVED)),
                    f"The {name} function runs near its reserved concurrency ({reserved})",
                    periods=3,
                )

        acu = cluster.metric("ACUUtilization", period=FIVE_MINUTES, statistic=cw.Stats.MAXIMUM)
        self._alarm("AuroraAcuHigh", acu, ACU_UTILISATION_PCT, "Aurora runs near its max ACU", periods=3)
        connections = cluster.metric_database_connections(period=FIVE_MINUTES, statistic=cw.Stats.MAXIMUM)
        max_connections = max_connections_estimate(config.db_max_acu)
        self._alarm(
            "AuroraConnectionsHigh",
            connections,
            int(max_connections * DB_CONNECTIONS_OF_MAX),
            f"Aurora connections above {int(DB_CONNECTIONS_OF_MAX * 100)}% of max_connections (~{max_connections})",
            periods=2,
        )
        capacity = cluster.metric(
            "ServerlessDatabaseCapacity", period=FIVE_MINUTES, statistic=cw.Stats.MAXIMUM
        )

        embed_widgets: list[cw.IWidget] = []
        if embeddings is not None:
            dims = {"InferenceComponentName": embeddings.inference_component_name}
            embed_errors = cw.Metric(
                namespace="AWS/SageMaker",
                metric_name="Invocation5XXErrors",
                dimensions_map=dims,
                period=FIVE_MINUTES,
                statistic=cw.Stats.SUM,
            )
            self._alarm("EmbedErrors", embed_errors, 0, "The embedding inference component returned 5xx")
            embed_latency = cw.Metric(
                namespace="AWS/SageMaker",
                metric_name="ModelLatency",
                dimensions_map=dims,
                period=FIVE_MINUTES,
                statistic=cw.Stats.p(99),
            )
            embed_widgets.append(
                cw.GraphWidget(
                    title="Embedding component",
                    left=[embed_latency],
                    right=[embed_errors, embeddings.no_capacity_metric],
                )
            )

        self.dashboard = cw.Dashboard(self, "Dashboard", dashboard_name=config.prefix)
        self.dashboard_url = widgets.dashboard_url(self, config.prefix)
        self.dashboard.add_widgets(
            cw.AlarmStatusWidget(title="Alarms", alarms=self.alarms, width=24, height=6),
        )
        self.dashboard.add_widgets(
            cw.TextWidget(
                markdown="## Requests and errors (by API function, each one family of routes)",
                width=24,
                height=1,
            )
        )
        self.dashboard.add_widgets(
            cw.GraphWidget(title="API Gateway requests / 5xx", left=[requests], right=[server_errors]),
            cw.GraphWidget(title="API Gateway latency p99 (ms)", left=[latency_p99]),
        )
        self.dashboard.add_widgets(*widgets.request_widgets())
        self.dashboard.add_widgets(*widgets.latency_widgets())
        self.dashboard.add_widgets(cw.TextWidget(markdown="## Model work", width=24, height=1))
        self.dashboard.add_widgets(*widgets.model_widgets(), *embed_widgets)
        self.dashboard.add_widgets(cw.TextWidget(markdown="## Queues and jobs", width=24, height=1))
        self.dashboard.add_widgets(
            _queue_widget("Extraction queue", queue.queue, queue.dead_letter_queue),
            _queue_widget("Documents queue", documents.queue, documents.dead_letter_queue),
        )
        self.dashboard.add_widgets(*widgets.job_widgets())
        self.dashboard.add_widgets(cw.TextWidget(markdown="## Functions and database", width=24, height=1))
        self.dashboard.add_widgets(
            cw.GraphWidget(
                title="Lambda duration p99",
                left=[
                    fn.metric_duration(period=FIVE_MINUTES, statistic=cw.Stats.p(99))
                    for fn in functions.values()
                ],
            ),
            cw.GraphWidget(
                title="Lambda throttles",
                left=[fn.metric_throttles(period=FIVE_MINUTES) for fn in functions.values()],
            ),
            cw.GraphWidget(
                title="Lambda concurrency",
                left=[
                    fn.metric("ConcurrentExecutions", period=Duration.minutes(1), statistic=cw.Stats.MAXIMUM)
                    for fn in functions.values()
                ],
            ),
        )
        database = [
            cw.GraphWidget(title="Aurora capacity (ACU) / utilisation (%)", left=[capacity], right=[acu]),
            cw.GraphWidget(title="Aurora connections", left=[connections]),
        ]
        if proxy is not None:
            database.append(_proxy_widget(proxy))
        self.dashboard.add_widgets(*database)
        self.dashboard.add_widgets(cw.TextWidget(markdown="## Sandbox and documents", width=24, height=1))
        self.dashboard.add_widgets(*widgets.sandbox_and_document_widgets())

    def link_alarms(self, scope: Construct) -> None:
        """Every alarm under ``scope`` (here and in other constructs) carries the dashboard's link."""
        widgets.link_alarms(scope, self.dashboard_url)

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


def _queue_widget(title: str, queue: sqs.IQueue, dead_letter_queue: sqs.IQueue) -> cw.GraphWidget:
    """Messages waiting in a queue and its DLQ (left), and the oldest one's age (right)."""
    return cw.GraphWidget(
        title=title,
        left=[
            queue.metric_approximate_number_of_messages_visible(period=FIVE_MINUTES, label="visible"),
            dead_letter_queue.metric_approximate_number_of_messages_visible(
                period=FIVE_MINUTES, statistic=cw.Stats.MAXIMUM, label="in the DLQ"
            ),
        ],
        right=[queue.metric_approximate_age_of_oldest_message(period=FIVE_MINUTES, label="oldest (s)")],
        width=12,
    )


def _proxy_widget(proxy: rds.DatabaseProxy) -> cw.GraphWidget:
    """RDS Proxy: the functions' connections to it, and its own to Aurora."""

    def metric(name: str) -> cw.Metric:
        return cw.Metric(
            namespace="AWS/RDS",
            metric_name=name,
            dimensions_map={"ProxyName": proxy.db_proxy_name},
            period=FIVE_MINUTES,
            statistic=cw.Stats.MAXIMUM,
        )

    return cw.GraphWidget(
        title="RDS Proxy connections", left=[metric("ClientConnections"), metric("DatabaseConnections")]
    )
