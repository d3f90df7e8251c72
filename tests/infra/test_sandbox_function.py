"""The sandbox function (issue 19): network-less, permission-less but for its logs, invoked by context only."""

from __future__ import annotations

import json

import pytest

from tests.infra.conftest import Synth
from tests.infra.test_stack import actions, actions_of, env_of, function_ids, ref_id, statements_for

VARIANTS = ("dev", "prod")


def sandbox(synth: Synth, variant: str) -> dict:
    return synth.templates[variant]["Resources"][function_ids(synth, variant, sandbox=True)["sandbox"]][
        "Properties"
    ]


@pytest.mark.parametrize("variant", VARIANTS)
def test_sandbox_is_small_fixed_and_in_the_isolated_subnets_without_network(
    synth: Synth, variant: str
) -> None:
    props = sandbox(synth, variant)
    assert props["Handler"] == "functions/sandbox/handler.handler"
    assert props["Runtime"] == "python3.12" and props["MemorySize"] == 1024 and props["Timeout"] == 25
    assert props["ReservedConcurrentExecutions"] >= 1
    subnets = [ref_id(s) for s in props["VpcConfig"]["SubnetIds"]]
    assert subnets and all("isolated" in s for s in subnets), subnets
    resources = synth.templates[variant]["Resources"]
    (group,) = [ref_id(g) for g in props["VpcConfig"]["SecurityGroupIds"]]
    rules = resources[group]["Properties"]
    assert "SecurityGroupIngress" not in rules
    # CDK's placeholder for "no egress": one ICMP rule to 255.255.255.255/32 that matches nothing.
    assert rules["SecurityGroupEgress"] == [
        {
            "CidrIp": "255.255.255.255/32",
            "Description": "Disallow all traffic",
            "FromPort": 252,
            "IpProtocol": "icmp",
            "ToPort": 86,
        }
    ]
    standalone = [
        r
        for r in resources.values()
        if r["Type"] in ("AWS::EC2::SecurityGroupEgress", "AWS::EC2::SecurityGroupIngress")
        and ref_id(r["Properties"].get("GroupId", {"Ref": ""})) == group
    ]
    assert standalone == []
    # Nothing in its environment but what Lambda itself puts there.
    assert not props.get("Environment", {}).get("Variables")
    assert props.get("TracingConfig", {"Mode": "PassThrough"})["Mode"] == "PassThrough"


@pytest.mark.parametrize("variant", VARIANTS)
def test_sandbox_role_writes_its_logs_and_nothing_else(synth: Synth, variant: str) -> None:
    granted = actions(synth, variant, "sandbox")
    eni = {a for a in granted if a.startswith("ec2:")}
    assert granted - eni == {"logs:CreateLogStream", "logs:PutLogEvents"}
    resources = synth.templates[variant]["Resources"]
    for statement in statements_for(synth, variant, "sandbox"):
        if "logs:PutLogEvents" in actions_of(statement):
            group = resources[ref_id(statement["Resource"])]
            assert group["Properties"]["LogGroupName"] == f"/aws/lambda/memorylayer-{variant}-sandbox"


@pytest.mark.parametrize("variant", VARIANTS)
def test_only_the_context_function_may_invoke_the_sandbox(synth: Synth, variant: str) -> None:
    target = function_ids(synth, variant, sandbox=True)["sandbox"]
    invokers = {
        name
        for name in function_ids(synth, variant, sandbox=True)
        for statement in statements_for(synth, variant, name)
        if "lambda:InvokeFunction" in actions_of(statement) and target in json.dumps(statement["Resource"])
    }
    assert invokers == {"context"}
    env = env_of(synth, variant, "context")
    assert env["MEMORYLAYER_CONTEXT_EXECUTOR"] == "lambda"
    assert env["MEMORYLAYER_CONTEXT_MAX_EXEC_SECONDS"] == "20"
    assert ref_id(env["MEMORYLAYER_CONTEXT_SANDBOX_FUNCTION"]) == target


@pytest.mark.parametrize("variant", VARIANTS)
def test_sandbox_errors_and_throttles_alarm(synth: Synth, variant: str) -> None:
    target = function_ids(synth, variant, sandbox=True)["sandbox"]
    watched = {
        alarm["Properties"]["MetricName"]
        for alarm in synth.resources(variant, "AWS::CloudWatch::Alarm").values()
        if any(
            ref_id(d["Value"]) == target
            for d in alarm["Properties"].get("Dimensions", [])
            if isinstance(d["Value"], dict)
        )
    }
    assert {"Errors", "Throttles"} <= watched


def test_context_environment_routes_go_to_the_context_function(synth: Synth) -> None:
    routes = {
        r["Properties"]["RouteKey"] for r in synth.resources("dev", "AWS::ApiGatewayV2::Route").values()
    }
    assert "ANY /v1/context/{proxy+}" in routes
