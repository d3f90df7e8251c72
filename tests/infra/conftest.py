"""One synth per test session: every template variant in one app, cdk-nag on, code-only bundles (no pip, no
network). Variants: ``dev`` and ``prod`` (default embeddings=local), each stage with ``embeddings=gpu`` and
``embeddings=openai`` (``dev-gpu``, ``prod-openai``, ...), and dev with ``trace_export=otlp`` (``dev-otlp``). Prod
needs an alarm subscriber to synthesize.

Synthesis costs several seconds, so every test reads the templates and the validation report produced here.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# jsii starts node at import time; without this every run prints a large end-of-life banner for node 20.
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")

from aws_cdk import App  # noqa: E402
from aws_cdk.assertions import Template  # noqa: E402

from infra.app import create_stack  # noqa: E402
from infra.nag import add_nag_checks  # noqa: E402

ALARM_EMAIL = "ops@example.com"
# The region every variant is pinned to (the stack refuses to synthesize for none); tests/infra/test_region_table.py
# synthesizes the others.
REGION = "us-east-1"
# variant -> (stage, context overrides)
VARIANTS: dict[str, tuple[str, dict[str, str]]] = {
    "dev": ("dev", {}),
    "prod": ("prod", {"alarm_email": ALARM_EMAIL}),
    "dev-gpu": ("dev", {"embeddings": "gpu"}),
    "prod-gpu": ("prod", {"embeddings": "gpu", "alarm_email": ALARM_EMAIL}),
    "dev-openai": ("dev", {"embeddings": "openai"}),
    "prod-openai": ("prod", {"embeddings": "openai", "llm": "openai", "alarm_email": ALARM_EMAIL}),
    "dev-otlp": ("dev", {"trace_export": "otlp"}),
}


@dataclass(frozen=True)
class Synth:
    """Everything the tests look at, produced once."""

    # by variant name ("dev", "prod", "dev-gpu", ...)
    templates: dict[str, dict[str, Any]]
    report: dict[str, Any] | None
    error: Exception | None
    bundle_dir: Path
    seconds: float
    outdir: Path
    stack_names: dict[str, str]

    def template_path(self, variant: str) -> Path:
        return self.outdir / f"{self.stack_names[variant]}.template.json"

    def template(self, stage: str) -> Template:
        return Template.from_json(self.templates[stage])

    def resources(self, stage: str, type_: str) -> dict[str, dict[str, Any]]:
        """Resources of one CloudFormation type, by logical id."""
        return {k: v for k, v in self.templates[stage]["Resources"].items() if v["Type"] == type_}


@pytest.fixture(scope="session")
def synth(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Synth]:
    root = tmp_path_factory.mktemp("cdk")
    outdir = root / "cdk.out"
    app = App(
        context={"bundle": "skip", "bundle_dir": str(root / "bundle"), "region": REGION}, outdir=str(outdir)
    )
    stacks = {
        variant: create_stack(app, stage, stack_id=f"MemoryLayer-{variant}", extra_overrides=overrides)
        for variant, (stage, overrides) in VARIANTS.items()
    }
    add_nag_checks(app)
    started = time.perf_counter()
    error: Exception | None = None
    try:
        app.synth()
    except Exception as exc:  # cdk-nag findings surface as a jsii RuntimeError; the nag test reports it
        error = exc
    seconds = time.perf_counter() - started
    templates = {
        variant: json.loads((outdir / f"{stack.stack_name}.template.json").read_text())
        for variant, stack in stacks.items()
    }
    report_path = outdir / "validation-report.json"
    report = json.loads(report_path.read_text()) if report_path.exists() else None
    yield Synth(
        templates=templates,
        report=report,
        error=error,
        bundle_dir=root / "bundle",
        seconds=seconds,
        outdir=outdir,
        stack_names={variant: stack.stack_name for variant, stack in stacks.items()},
    )
