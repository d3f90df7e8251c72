"""The stack in several regions: the CA bundle that migrate (always straight to the writer, verify-full) and the
other functions ship holds that region's Amazon RDS roots and the Amazon roots RDS Proxy chains to; and the
bundle covers every commercial region RDS is offered in (botocore's own region list)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import botocore.session
import pytest
from cryptography import x509

from shared.db.connection import ca_bundle_path

REGIONS = ("us-east-1", "eu-central-1", "ap-southeast-2")
KEY_KINDS = ("RSA2048", "RSA4096", "ECC384")


def _cn(cert: x509.Certificate) -> str:
    return cert.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)[0].value


def _region_roots(certs: list[x509.Certificate], region: str) -> set[str]:
    names = {_cn(c) for c in certs}
    return {kind for kind in KEY_KINDS if f"Amazon RDS {region} Root CA {kind} G1" in names}


@pytest.fixture(scope="module")
def regional(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict[str, Any], Path]]:
    """(template, cdk.out) of the dev stack synthesized in each region, in one app."""
    from aws_cdk import App, Environment

    from infra.app import create_stack

    root = tmp_path_factory.mktemp("regions")
    app = App(context={"bundle": "skip", "bundle_dir": str(root / "bundle")}, outdir=str(root / "out"))
    for region in REGIONS:
        create_stack(
            app,
            "dev",
            stack_id=f"MemoryLayer-dev-{region}",
            env=Environment(account="123456789012", region=region),
        )
    app.synth()
    return {
        region: (
            json.loads((root / "out" / f"MemoryLayer-dev-{region}.template.json").read_text()),
            root / "out",
        )
        for region in REGIONS
    }


def _staged_asset(template: dict[str, Any], outdir: Path, stack: str, function_name: str) -> Path:
    """The folder CDK staged for a function's code (what cdk-assets zips and uploads)."""
    (props,) = [
        r["Properties"]
        for r in template["Resources"].values()
        if r["Type"] == "AWS::Lambda::Function" and r["Properties"].get("FunctionName") == function_name
    ]
    key = props["Code"]["S3Key"]
    manifest = json.loads((outdir / f"{stack}.assets.json").read_text())
    (source,) = [
        f["source"]["path"]
        for f in manifest["files"].values()
        if any(d["objectKey"] == key for d in f["destinations"].values())
    ]
    return outdir / source


@pytest.mark.parametrize("region", REGIONS)
def test_the_deployed_bundle_trusts_the_regions_rds_and_the_amazon_roots(
    regional: dict[str, tuple[dict[str, Any], Path]], region: str
) -> None:
    template, outdir = regional[region]
    # The stack really is pinned to the region (not an environment-agnostic template)
    assert template["Resources"] and json.dumps(template).count(region) >= 1
    for function in ("migrate", "memory"):
        asset = _staged_asset(template, outdir, f"MemoryLayer-dev-{region}", f"memorylayer-dev-{function}")
        certs = x509.load_pem_x509_certificates((asset / "shared/db/ca-bundle.pem").read_bytes())
        assert _region_roots(certs, region) == set(KEY_KINDS), (function, region)
        assert {f"Amazon Root CA {i}" for i in range(1, 5)} <= {_cn(c) for c in certs}
    # And nothing points the functions at another bundle
    for resource in template["Resources"].values():
        if resource["Type"] == "AWS::Lambda::Function":
            env = resource["Properties"].get("Environment", {}).get("Variables", {})
            assert "MEMORYLAYER_DATABASE_SSLROOTCERT" not in env


def test_the_bundle_covers_every_commercial_rds_region_and_outlives_the_decade() -> None:
    certs = x509.load_pem_x509_certificates(Path(ca_bundle_path()).read_bytes())
    regions = botocore.session.get_session().get_available_regions("rds", partition_name="aws")
    assert len(regions) >= 30 and set(REGIONS) <= set(regions)
    missing = {r: set(KEY_KINDS) - _region_roots(certs, r) for r in regions}
    assert {r: kinds for r, kinds in missing.items() if kinds} == {}
    soon = datetime.now(UTC) + timedelta(days=3650)
    for cert in certs:
        cert.verify_directly_issued_by(cert)  # a self-signed root with a valid signature
        assert cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
        assert cert.not_valid_after_utc > soon, _cn(cert)
    # No duplicates, and nothing but Amazon's roots and RDS's
    names = [_cn(c) for c in certs]
    assert len(names) == len(set(names))
    assert all(n.startswith(("Amazon Root CA ", "Amazon RDS ")) for n in names)
