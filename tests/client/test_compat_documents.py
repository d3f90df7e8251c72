"""The official memorylayer-client 0.2.1, unchanged, against our documents: every document method it has."""

from __future__ import annotations

import json
import subprocess
import uuid
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("compat_documents.py")

pytestmark = pytest.mark.py312


def test_official_sdk_document_methods(official_python: str, base_url: str) -> None:
    workspace = f"ws_doc_{uuid.uuid4().hex[:8]}"
    done = subprocess.run(
        [official_python, str(SCRIPT), base_url, workspace], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    doc_id = out["uploaded"][0]
    assert out["uploaded"][1:3] == ["notes.md", "markdown"]
    assert out["done"][0] == "completed" and out["done"][1] == 1 and out["done"][2] >= 1
    assert out["pages"] == [0] and out["transcript_has_heron"]
    assert out["search"] == [1, "heron pond", doc_id]
    assert out["listed"] == [[doc_id], 1]
    assert out["reprocess"] == [True, [doc_id]] and out["reprocessed"] == "completed"
    assert len(out["jobs"]) == 2 and out["job"] == "completed"
    assert out["image"] == 404
    assert out["after_delete"] == 404
