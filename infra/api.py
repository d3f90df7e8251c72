"""The HTTP API: one route table, three Lambda integrations, throttled default stage with access logs."""

from __future__ import annotations

import json

import jsii
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk.aws_apigatewayv2_integrations import HttpLambdaIntegration
from constructs import Construct

from infra.config import StageConfig
from infra.nag import acknowledge

ANY = apigwv2.HttpMethod.ANY
POST = apigwv2.HttpMethod.POST

# (path, method, function). API Gateway picks the most specific route, so the two context routes win over
# ``/v1/sessions/{proxy+}``.
ROUTES: tuple[tuple[str, apigwv2.HttpMethod, str], ...] = (
    ("/v1/memories", ANY, "memory"),
    ("/v1/memories/{proxy+}", ANY, "memory"),
    ("/v1/workspaces", ANY, "memory"),
    ("/v1/workspaces/{proxy+}", ANY, "memory"),
    ("/v1/threads", ANY, "memory"),
    ("/v1/threads/{proxy+}", ANY, "memory"),
    ("/v1/jobs/{proxy+}", ANY, "memory"),
    ("/v1/admin/{proxy+}", ANY, "memory"),
    ("/health", ANY, "memory"),
    ("/health/ready", ANY, "memory"),
    ("/openapi.json", ANY, "memory"),
    ("/v1/sessions", ANY, "sessions"),
    ("/v1/sessions/{proxy+}", ANY, "sessions"),
    ("/v1/sessions/{session_id}/context-pack", POST, "context"),
    ("/v1/sessions/{session_id}/context-delta", POST, "context"),
)

# HTTP APIs support only a subset of $context variables; these are all valid for them.
ACCESS_LOG_FORMAT = json.dumps(
    {
        "requestId": "$context.requestId",
        "ip": "$context.identity.sourceIp",
        "requestTime": "$context.requestTime",
        "routeKey": "$context.routeKey",
        "status": "$context.status",
        "protocol": "$context.protocol",
        "responseLength": "$context.responseLength",
        "latencyMs": "$context.responseLatency",
        "integrationLatencyMs": "$context.integrationLatency",
        "integrationError": "$context.integrationErrorMessage",
        "error": "$context.error.message",
    }
)


@jsii.implements(apigwv2.IAccessLogSettings)
class _AccessLogSettings:
    """IAccessLogSettings is a jsii interface, so Python passes an implementing object, not a dict."""

    def __init__(self, log_group: logs.ILogGroup) -> None:
        self._destination = apigwv2.LogGroupLogDestination(log_group)

    @property
    def destination(self) -> apigwv2.IAccessLogDestination:
        return self._destination

    @property
    def format(self) -> apigw.AccessLogFormat:
        return apigw.AccessLogFormat.custom(ACCESS_LOG_FORMAT)


class Api(Construct):
    """``ANY``/``POST`` routes to the memory, sessions and context functions."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: StageConfig,
        functions: dict[str, lambda_.IFunction],
        key: kms.IKey,
    ) -> None:
        super().__init__(scope, construct_id)
        self.http_api = apigwv2.HttpApi(
            self,
            "HttpApi",
            api_name=f"{config.prefix}-api",
            description="MemoryLayer long-term memory API",
            # The stage below replaces the default one so it can carry throttling and access logs.
            create_default_stage=False,
        )
        access_logs = logs.LogGroup(
            self,
            "AccessLogs",
            retention=config.log_retention,
            encryption_key=key,
            removal_policy=config.removal_policy,
        )
        self.stage = apigwv2.HttpStage(
            self,
            "DefaultStage",
            http_api=self.http_api,
            stage_name="$default",
            auto_deploy=True,
            throttle=apigwv2.ThrottleSettings(
                rate_limit=config.api_rate_limit, burst_limit=config.api_burst_limit
            ),
            access_log_settings=_AccessLogSettings(access_logs),
        )
        integrations = {
            name: HttpLambdaIntegration(f"{name.title()}Integration", functions[name])
            for name in sorted({target for _, _, target in ROUTES})
        }
        for path, method, target in ROUTES:
            self.http_api.add_routes(path=path, methods=[method], integration=integrations[target])

        acknowledge(
            self.http_api,
            "AwsSolutions-APIG4",
            "Every route authenticates in the application: Bearer API keys are checked against hashed keys "
            "in Postgres per workspace; a Lambda authorizer would add a cold start and a second key lookup.",
        )

    @property
    def url(self) -> str:
        """The invoke URL of the default stage."""
        return self.stage.url
