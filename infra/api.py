"""The HTTP API: one route table, one Lambda integration per API function, throttled default stage with access logs."""

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
from infra.logs import log_group
from infra.nag import acknowledge
from shared.api.route_map import gateway_routes

# (path, method, function), from the table the handlers build their routers from (shared/api/route_map.py), so a
# route never reaches a function that does not serve it. API Gateway picks the most specific route, so the two
# context routes win over ``/v1/sessions/{proxy+}``.
ROUTES: tuple[tuple[str, apigwv2.HttpMethod, str], ...] = tuple(
    (path, apigwv2.HttpMethod[method], function) for path, method, function in gateway_routes()
)

# Per-route throttles, as a share of the stage's rate and burst (so dev and prod scale alike): the stage-wide
# limit alone let one tenant's key minting, imports or context packs take the whole stage. API Gateway applies
# the tighter of the route's and the stage's; the application also limits each key (shared/domain/auth.py).
ROUTE_THROTTLE_SHARE: dict[str, float] = {
    "ANY /v1/admin/{proxy+}": 0.02,  # key minting and listing: rare, and a target for guessing
    "ANY /v1/workspaces/{proxy+}": 0.1,  # imports and exports move whole workspaces
    "ANY /health/ready": 0.05,  # touches the database
    "POST /v1/sessions/{session_id}/context-pack": 0.25,
    "POST /v1/sessions/{session_id}/context-delta": 0.25,
    "ANY /v1/memories/{proxy+}": 0.5,  # recall, reflect, answer: embeddings and LLM calls
    "ANY /v1/context/{proxy+}": 0.1,  # each call may hold a sandbox for up to 20 s
}


def route_throttles(rate_limit: int, burst_limit: int) -> dict[str, dict[str, float | int]]:
    """The stage's ``RouteSettings``: route key → its throttle (at least 1 request per second, burst 1)."""
    return {
        route: {
            "ThrottlingRateLimit": max(1, round(rate_limit * share)),
            "ThrottlingBurstLimit": max(1, round(burst_limit * share)),
        }
        for route, share in ROUTE_THROTTLE_SHARE.items()
    }


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
    """``ANY``/``POST``/``GET`` routes to the API functions (shared/api/route_map.py)."""

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
        access_logs = log_group(self, "AccessLogs", config=config, key=key)
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
        throttled_routes: list[apigwv2.HttpRoute] = []
        for path, method, target in ROUTES:
            added = self.http_api.add_routes(path=path, methods=[method], integration=integrations[target])
            if f"{method.value} {path}" in ROUTE_THROTTLE_SHARE:
                throttled_routes += added
        # The L2 stage has no per-route settings; the L1 property takes them. A route setting names a route key
        # that must exist when the stage is created or updated, hence the dependencies.
        cfn_stage = self.stage.node.default_child
        assert isinstance(cfn_stage, apigwv2.CfnStage)
        cfn_stage.add_property_override(
            "RouteSettings", route_throttles(config.api_rate_limit, config.api_burst_limit)
        )
        for route in throttled_routes:
            self.stage.node.add_dependency(route)

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
