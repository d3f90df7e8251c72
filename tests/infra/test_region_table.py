"""The stack is pinned to a region and uses only what that region offers (infra/regions.py): prod and dev
synthesized for the regions that lack SnapStart, RDS Proxy or Lambda tenant isolation fall back (no snapshot,
no proxy, no tenancy config, and the API told to invoke the sandbox without a tenant id), with a synth warning
naming the region and what it lacks; an account that refuses tenant isolation turns it off by context; a stack
with no region, or one outside the table, is refused at synth."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import botocore.session
import pytest
from aws_cdk import App, Environment
from aws_cdk.assertions import Annotations, Match

from infra.app import create_stack, stack_region
from infra.config import StageConfig
from infra.regions import COMMERCIAL_REGIONS, NO_RDS_PROXY, NO_SNAP_START, NO_TENANT_ISOLATION, capabilities
from tests.infra.conftest import ALARM_EMAIL

# (stage, region, context overrides): the regions that lack something, and an account that refuses tenancy.
CASES: dict[str, tuple[str, str, dict[str, str]]] = {
    "prod-taipei": ("prod", "ap-east-2", {"alarm_email": ALARM_EMAIL}),
    "prod-nz": ("prod", "ap-southeast-6", {"alarm_email": ALARM_EMAIL}),
    "dev-nz": ("dev", "ap-southeast-6", {}),
    "prod-no-tenancy": ("prod", "us-east-1", {"alarm_email": ALARM_EMAIL, "tenant_isolation": "off"}),
}


@pytest.fixture(scope="module")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict[str, Any], Any]]:
    """(template, annotations) for each case, in one app."""
    root = tmp_path_factory.mktemp("region-table")
    app = App(context={"bundle": "skip", "bundle_dir": str(root / "bundle")}, outdir=str(root / "out"))
    stacks = {
        case: create_stack(
            app,
            stage,
            stack_id=f"MemoryLayer-{case}",
            extra_overrides=overrides,
            env=Environment(region=region),
        )
        for case, (stage, region, overrides) in CASES.items()
    }
    app.synth()
    out = Path(root / "out")
    return {
        case: (
            json.loads((out / f"{stack.stack_name}.template.json").read_text()),
            Annotations.from_stack(stack),
        )
        for case, stack in stacks.items()
    }


def _functions(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        r["Properties"]["FunctionName"]: r["Properties"]
        for r in template["Resources"].values()
        if r["Type"] == "AWS::Lambda::Function" and isinstance(r["Properties"].get("FunctionName"), str)
    }


def _types(template: dict[str, Any]) -> set[str]:
    return {r["Type"] for r in template["Resources"].values()}


@pytest.mark.parametrize("case", CASES)
def test_each_feature_the_region_lacks_falls_back(synthesized, case: str) -> None:
    template, annotations = synthesized[case]
    stage, region, overrides = CASES[case]
    offered = capabilities(region)
    functions = _functions(template)
    prefix = f"memorylayer-{stage}"
    # SnapStart (prod's API functions) only where offered; without it no alias is published either.
    snapped = {name for name, props in functions.items() if "SnapStart" in props}
    if stage == "prod" and offered.snap_start:
        assert f"{prefix}-memory" in snapped and "AWS::Lambda::Alias" in _types(template)
    else:
        assert snapped == set() and "AWS::Lambda::Alias" not in _types(template)
    # RDS Proxy (prod) only where offered; without it the functions connect to the writer.
    has_proxy = "AWS::RDS::DBProxy" in _types(template)
    assert has_proxy == (stage == "prod" and offered.rds_proxy)
    host = functions[f"{prefix}-memory"]["Environment"]["Variables"]["MEMORYLAYER_DATABASE_HOST"]
    assert ("Proxy" in json.dumps(host)) == has_proxy
    # Tenant isolation on the sandbox only where offered and not refused; the caller then sends no tenant id.
    isolated = offered.tenant_isolation and overrides.get("tenant_isolation") != "off"
    sandbox = functions[f"{prefix}-sandbox"]
    environment = functions[f"{prefix}-environment"]["Environment"]["Variables"]
    if isolated:
        assert sandbox["TenancyConfig"] == {"TenantIsolationMode": "PER_TENANT"}
        assert "MEMORYLAYER_CONTEXT_SANDBOX_TENANT_ISOLATION" not in environment
    else:
        assert "TenancyConfig" not in sandbox
        assert environment["MEMORYLAYER_CONTEXT_SANDBOX_TENANT_ISOLATION"] == "false"
    # What the region lacks (and the stage would use) is named at synth.
    missing = [m for m in offered.missing() if stage == "prod" or m == "Lambda tenant isolation"]
    warnings = annotations.find_warning("*", Match.string_like_regexp("region-fallback"))
    if missing:
        (warning,) = warnings
        text = str(warning.entry.data)
        assert region in text and all(m in text for m in missing)
    else:
        assert warnings == []


def test_the_table_covers_every_commercial_lambda_region() -> None:
    known = botocore.session.get_session().get_available_regions("lambda", partition_name="aws")
    assert sorted(COMMERCIAL_REGIONS) == sorted(known)
    assert set(COMMERCIAL_REGIONS) >= NO_SNAP_START | NO_RDS_PROXY | NO_TENANT_ISOLATION


@pytest.mark.parametrize("region", COMMERCIAL_REGIONS)
def test_prod_uses_what_every_region_offers(region: str) -> None:
    config = StageConfig.for_stage("prod", {"alarm_email": ALARM_EMAIL}).in_region(region)
    assert config.region == region
    assert config.snap_start == (region not in NO_SNAP_START)
    assert config.use_proxy == (region not in NO_RDS_PROXY)
    assert config.tenant_isolation == (region not in NO_TENANT_ISOLATION)


def test_a_stack_without_a_region_or_outside_the_table_is_refused(monkeypatch) -> None:
    monkeypatch.delenv("CDK_DEFAULT_REGION", raising=False)
    with pytest.raises(ValueError, match="no region to synthesize for"):
        stack_region(App())
    monkeypatch.setenv("CDK_DEFAULT_REGION", "eu-west-1")
    assert stack_region(App()) == "eu-west-1"
    assert stack_region(App(context={"region": "ap-east-2"})) == "ap-east-2"
    with pytest.raises(ValueError, match="xx-nowhere-1.*not in infra/regions.py"):
        StageConfig.for_stage("dev").in_region("xx-nowhere-1")
