"""The official memorylayer-client 0.2.1, unchanged, against our relation surface: ``relations`` on remember
(its EntityRelationInput and raw dicts), ``relation_write_result``, ``relation_paths`` on recall, and the entity
methods (which raise EnterpriseRequiredError on the reference unless a flag is on)."""

from __future__ import annotations

import json
import subprocess
import uuid
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("compat_relations.py")

pytestmark = pytest.mark.py312


def test_official_sdk_relations(official_python: str, base_url: str) -> None:
    workspace = f"ws_rel_{uuid.uuid4().hex[:8]}"
    done = subprocess.run(
        [official_python, str(SCRIPT), base_url, workspace], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["pr_result"]["resolved"] == 1 and len(out["pr_result"]["relation_ids"]) == 1
    # approved_by(PR-12, Bob) canonicalised to approved(Bob, PR-12): a new edge, resolved by name.
    assert out["note_result"]["resolved"] == 1
    # Ann Lee is no entity yet: explicit names never create one.
    assert (out["raw_result"]["unresolved"], out["raw_result"]["errors"]) == (
        1,
        ["unresolved endpoints for owns"],
    )
    assert out["plain_result"] is None
    assert out["top"] == out["pr_id"]
    assert [p["relations"][0]["relationship"] for p in out["paths"]] == ["reviewed"]
    assert out["entities"] == ["Bob Stone", "PR-12"]
    assert out["got"] == "Bob Stone" and out["resolved"] == out["bob"] and out["missing"] is None
    assert out["survivor"] == out["pr_entity"]
