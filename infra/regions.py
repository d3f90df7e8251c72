"""What each commercial region offers the stack, read at synth: the stack is pinned to one region (``-c region=``
or the CLI's ``CDK_DEFAULT_REGION``), and a feature that region lacks falls back instead of failing the deploy.

>>> capabilities("ap-southeast-6").rds_proxy
False

Sources (AWS documentation, read December 2026):
- SnapStart: Lambda Developer Guide, "Improving startup performance with Lambda SnapStart", Supported Regions:
  "every commercial Region except Asia Pacific (New Zealand) and Asia Pacific (Taipei)".
- RDS Proxy: Aurora User Guide, "Supported Regions and Aurora DB engines for Amazon RDS Proxy": "Not available"
  in Asia Pacific (New Zealand) and Asia Pacific (Taipei).
- Tenant isolation mode: Lambda Developer Guide, "Tenant isolation": every commercial Region but Asia Pacific
  (New Zealand).
The region names are botocore's for Lambda in the ``aws`` partition (tests/infra/test_region_table.py checks
the two lists agree, so a region botocore learns of fails the test until it is classified here).

Fallbacks: no SnapStart -> the API functions run as plain published versions (cold starts initialise); no RDS
Proxy -> every function connects straight to the writer with IAM authentication through its own pool (as dev
always does); no tenant isolation (or ``-c tenant_isolation=off``, for an account that refuses it) -> the sandbox
function without a tenancy config: the WASI guest still isolates each execution, but one execution environment
may serve several tenants in turn (infra/README.md, "Regions").
"""

from __future__ import annotations

from dataclasses import dataclass

COMMERCIAL_REGIONS = (
    "af-south-1",
    "ap-east-1",
    "ap-east-2",
    "ap-northeast-1",
    "ap-northeast-2",
    "ap-northeast-3",
    "ap-south-1",
    "ap-south-2",
    "ap-southeast-1",
    "ap-southeast-2",
    "ap-southeast-3",
    "ap-southeast-4",
    "ap-southeast-5",
    "ap-southeast-6",
    "ap-southeast-7",
    "ca-central-1",
    "ca-west-1",
    "eu-central-1",
    "eu-central-2",
    "eu-north-1",
    "eu-south-1",
    "eu-south-2",
    "eu-west-1",
    "eu-west-2",
    "eu-west-3",
    "il-central-1",
    "me-central-1",
    "me-south-1",
    "mx-central-1",
    "sa-east-1",
    "us-east-1",
    "us-east-2",
    "us-west-1",
    "us-west-2",
)
# The exceptions, by feature (the sources above).
NO_SNAP_START = frozenset({"ap-east-2", "ap-southeast-6"})
NO_RDS_PROXY = frozenset({"ap-east-2", "ap-southeast-6"})
NO_TENANT_ISOLATION = frozenset({"ap-southeast-6"})


@dataclass(frozen=True)
class RegionCapabilities:
    region: str
    snap_start: bool
    rds_proxy: bool
    tenant_isolation: bool

    def missing(self) -> list[str]:
        """The features this region lacks, named as the synth warning names them."""
        return [
            name
            for name, offered in (
                ("Lambda SnapStart", self.snap_start),
                ("RDS Proxy", self.rds_proxy),
                ("Lambda tenant isolation", self.tenant_isolation),
            )
            if not offered
        ]


def capabilities(region: str) -> RegionCapabilities:
    """The table's row for ``region``; a region outside it is refused (its services are not known here)."""
    if region not in COMMERCIAL_REGIONS:
        raise ValueError(
            f"region {region!r} is not in infra/regions.py's table of commercial regions "
            f"({', '.join(COMMERCIAL_REGIONS)}): what it offers (SnapStart, RDS Proxy, tenant isolation) is not "
            "known, so the stack is not synthesized for it"
        )
    return RegionCapabilities(
        region=region,
        snap_start=region not in NO_SNAP_START,
        rds_proxy=region not in NO_RDS_PROXY,
        tenant_isolation=region not in NO_TENANT_ISOLATION,
    )
