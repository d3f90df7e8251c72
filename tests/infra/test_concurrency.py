"""Reserved concurrency: none unless asked for (a new account's quota may not cover any), and when asked, only
under a stated account quota that keeps the 100 executions Lambda leaves unreserved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aws_cdk import App
from aws_cdk.assertions import Template

from infra.app import create_stack
from infra.config import RESERVABLE, SUGGESTED_RESERVATIONS, StageConfig, parse_reservations
from tests.infra.conftest import ALARM_EMAIL, REGION, Synth

# Lambda functions (ours and the sandbox), by short name: memorylayer-<stage>-<name>
PREFIX = {"dev": "memorylayer-dev-", "prod": "memorylayer-prod-"}


def _functions(template: dict[str, Any], stage: str) -> dict[str, dict[str, Any]]:
    return {
        props["Properties"]["FunctionName"].removeprefix(PREFIX[stage]): props["Properties"]
        for props in template["Resources"].values()
        if props["Type"] == "AWS::Lambda::Function"
        and str(props["Properties"].get("FunctionName", "")).startswith(PREFIX[stage])
    }


@pytest.mark.parametrize("variant", ["dev", "prod", "prod-gpu", "dev-openai"])
def test_nothing_is_reserved_unless_asked(synth: Synth, variant: str) -> None:
    stage = variant.split("-")[0]
    functions = _functions(synth.templates[variant], stage)
    assert set(functions) == set(RESERVABLE)
    assert {
        n: p["ReservedConcurrentExecutions"]
        for n, p in functions.items()
        if "ReservedConcurrentExecutions" in p
    } == {}
    # The workers' pollers (extraction, documents) still cap them, reserving nothing
    mappings = synth.resources(variant, "AWS::Lambda::EventSourceMapping").values()
    assert [m["Properties"]["ScalingConfig"]["MaximumConcurrency"] for m in mappings] == 2 * [
        {"dev": 2, "prod": 10}[stage]
    ]


def test_asked_for_reservations_are_set_and_watched(tmp_path: Path) -> None:
    app = App(
        context={"bundle": "skip", "bundle_dir": str(tmp_path), "region": REGION},
        outdir=str(tmp_path / "out"),
    )
    stack = create_stack(
        app,
        "prod",
        extra_overrides={
            "alarm_email": ALARM_EMAIL,
            "reserved_concurrency": "suggested",
            "account_concurrency": "1000",
        },
    )
    template = Template.from_stack(stack).to_json()
    reserved = {n: p.get("ReservedConcurrentExecutions") for n, p in _functions(template, "prod").items()}
    assert reserved == SUGGESTED_RESERVATIONS["prod"]
    assert sum(reserved.values()) == 322 <= 1000 - 100
    # The pollers never outrun their worker's reservation (extraction and documents: 10 each)
    mappings = [r for r in template["Resources"].values() if r["Type"] == "AWS::Lambda::EventSourceMapping"]
    assert [m["Properties"]["ScalingConfig"]["MaximumConcurrency"] for m in mappings] == [10, 10]
    # A function reserved above 1 gets an alarm near its reservation
    watched = [
        r["Properties"]
        for r in template["Resources"].values()
        if r["Type"] == "AWS::CloudWatch::Alarm"
        and r["Properties"].get("MetricName") == "ConcurrentExecutions"
    ]
    assert len(watched) == sum(
        1 for n, c in SUGGESTED_RESERVATIONS["prod"].items() if c >= 2 and n != "sandbox"
    )


def test_a_total_that_leaves_less_than_100_unreserved_is_refused_before_bundling(tmp_path: Path) -> None:
    app = App(
        context={"bundle": "skip", "bundle_dir": str(tmp_path), "region": REGION},
        outdir=str(tmp_path / "out"),
    )
    with pytest.raises(ValueError) as refused:
        create_stack(
            app,
            "prod",
            extra_overrides={
                "alarm_email": ALARM_EMAIL,
                "reserved_concurrency": "suggested",
                "account_concurrency": "400",
            },
        )
    message = str(refused.value)
    assert "adds up to 322" in message and "quota of 400" in message and "leaves 78 unreserved" in message
    assert "at most 300" in message
    assert not (tmp_path / "MemoryLayer-prod").exists(), "refused before any asset was built"


def test_the_boundary_and_a_missing_quota() -> None:
    dev = SUGGESTED_RESERVATIONS["dev"]
    total = sum(dev.values())
    assert total == 36
    # Exactly 100 left is allowed, 99 is not
    StageConfig.for_stage(
        "dev", {"reserved_concurrency": "suggested", "account_concurrency": str(total + 100)}
    ).check_deployable()
    with pytest.raises(ValueError, match="leaves 99 unreserved"):
        StageConfig.for_stage(
            "dev", {"reserved_concurrency": "suggested", "account_concurrency": str(total + 99)}
        ).check_deployable()
    with pytest.raises(ValueError, match="account_concurrency=N"):
        StageConfig.for_stage("dev", {"reserved_concurrency": "memory=5"}).check_deployable()
    # No reservation needs no quota
    StageConfig.for_stage("dev", {"account_concurrency": "10"}).check_deployable()


def test_reservation_values_are_parsed_strictly() -> None:
    assert parse_reservations("memory=20, sandbox=4", "dev") == {"memory": 20, "sandbox": 4}
    assert parse_reservations({"cleanup": 1}, "prod") == {"cleanup": 1}
    for bad, why in (
        ("memroy=5", "unknown memroy"),
        ("memory=0", "at least 1"),
        ("memory=lots", "whole numbers"),
        ("memory", "expected 'suggested'"),
        ("", "expected 'suggested'"),
    ):
        with pytest.raises(ValueError, match=why):
            parse_reservations(bad, "dev")
