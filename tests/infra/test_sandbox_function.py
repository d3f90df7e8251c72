"""The sandbox function: outside the VPC, a role that writes its logs and nothing else, per-tenant execution
environments, invoked by one function only; and its asset, which carries no module that imports the app."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from importlib.util import find_spec
from pathlib import Path

import pytest

from infra.sandbox import (
    SANDBOX_LOCK,
    build_sandbox_asset,
    interpreter_files,
    locked_version,
    sandbox_modules,
    sandbox_requirements,
)
from tests.infra.conftest import Synth
from tests.infra.test_stack import actions, actions_of, env_of, function_ids, ref_id, statements_for

VARIANTS = ("dev", "prod")
SANDBOX_CALLER = "environment"


def sandbox(synth: Synth, variant: str) -> dict:
    return synth.templates[variant]["Resources"][function_ids(synth, variant, sandbox=True)["sandbox"]][
        "Properties"
    ]


@pytest.mark.parametrize("variant", VARIANTS)
def test_sandbox_is_fixed_outside_the_vpc_tenant_isolated_and_holds_no_environment(
    synth: Synth, variant: str
) -> None:
    props = sandbox(synth, variant)
    assert props["Handler"] == "functions/sandbox/handler.handler"
    assert props["Runtime"] == "python3.12" and props["Architectures"] == ["arm64"]
    assert props["MemorySize"] == 1024 and props["Timeout"] == 25
    # No VPC: no ENIs to create, so nothing in its role to create them with
    assert "VpcConfig" not in props
    # One tenant per execution environment (the caller passes TenantId on every invoke)
    assert props["TenancyConfig"] == {"TenantIsolationMode": "PER_TENANT"}
    assert "SnapStart" not in props  # incompatible with tenant isolation
    # Nothing in its environment but what Lambda itself puts there.
    assert not props.get("Environment", {}).get("Variables")
    assert props.get("TracingConfig", {"Mode": "PassThrough"})["Mode"] == "PassThrough"
    # And no security group of its own is left behind
    groups = synth.resources(variant, "AWS::EC2::SecurityGroup").values()
    assert not any("sandbox" in g["Properties"].get("GroupDescription", "").lower() for g in groups)


@pytest.mark.parametrize("variant", VARIANTS)
def test_sandbox_role_writes_its_logs_and_nothing_else(synth: Synth, variant: str) -> None:
    assert actions(synth, variant, "sandbox") == {"logs:CreateLogStream", "logs:PutLogEvents"}
    resources = synth.templates[variant]["Resources"]
    statements = statements_for(synth, variant, "sandbox")
    assert statements
    own_group = ref_id(sandbox(synth, variant)["LoggingConfig"]["LogGroup"])
    for statement in statements:
        assert statement["Effect"] == "Allow"
        assert ref_id(statement["Resource"]) == own_group
    assert resources[own_group]["Type"] == "AWS::Logs::LogGroup"
    # No managed policy either (AWSLambdaVPCAccessExecutionRole would bring the ENI calls back)
    role = resources[ref_id(sandbox(synth, variant)["Role"])]["Properties"]
    assert not role.get("ManagedPolicyArns") and not role.get("Policies")


@pytest.mark.parametrize("variant", VARIANTS)
def test_only_the_caller_function_may_invoke_the_sandbox(synth: Synth, variant: str) -> None:
    target = function_ids(synth, variant, sandbox=True)["sandbox"]
    invokers = {
        name
        for name in function_ids(synth, variant, sandbox=True)
        for statement in statements_for(synth, variant, name)
        if "lambda:InvokeFunction" in actions_of(statement) and target in json.dumps(statement["Resource"])
    }
    assert invokers == {SANDBOX_CALLER}
    # No resource-based permission lets anything else (a service principal, another account) invoke it
    permissions = [
        p
        for p in synth.resources(variant, "AWS::Lambda::Permission").values()
        if target in json.dumps(p["Properties"]["FunctionName"])
    ]
    assert permissions == []
    env = env_of(synth, variant, SANDBOX_CALLER)
    assert env["MEMORYLAYER_CONTEXT_EXECUTOR"] == "lambda"
    assert env["MEMORYLAYER_CONTEXT_MAX_EXEC_SECONDS"] == "20"
    assert ref_id(env["MEMORYLAYER_CONTEXT_SANDBOX_FUNCTION"]) == target


@pytest.mark.parametrize("variant", VARIANTS)
def test_sandbox_does_not_retry_and_its_errors_and_throttles_alarm(synth: Synth, variant: str) -> None:
    target = function_ids(synth, variant, sandbox=True)["sandbox"]
    (invoke_config,) = [
        c["Properties"]
        for c in synth.resources(variant, "AWS::Lambda::EventInvokeConfig").values()
        if ref_id(c["Properties"]["FunctionName"]) == target
    ]
    assert invoke_config["MaximumRetryAttempts"] == 0
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


def test_context_environment_routes_reach_the_caller_function(synth: Synth) -> None:
    routes = {
        r["Properties"]["RouteKey"] for r in synth.resources("dev", "AWS::ApiGatewayV2::Route").values()
    }
    assert "ANY /v1/context/{proxy+}" in routes


# --- the asset -----------------------------------------------------------------------------------------------


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def _fake_repo(root: Path, handler: str = "from shared.domain.context_env.wasm import run\n") -> Path:
    for rel in (
        "shared/__init__.py",
        "shared/domain/__init__.py",
        "shared/domain/context_env/__init__.py",
        "functions/__init__.py",
    ):
        _write(root, rel, "")
    _write(root, "functions/sandbox/__init__.py", "")
    _write(root, "functions/sandbox/handler.py", handler)
    _write(
        root,
        "shared/domain/context_env/wasm.py",
        "import json\nimport wasmtime\nfrom . import state\nrun = 1\n",
    )
    _write(root, "shared/domain/context_env/state.py", "import pickle, zlib\n")
    _write(root, "shared/domain/context_env/guest.py", "def main():\n    import ast\n")
    _write(root, "shared/domain/context_env/requests.py", "from pydantic import BaseModel\n")
    _write(
        root,
        "shared/domain/context_env/service.py",
        "from shared.domain.context_env import requests\nimport json\n",
    )
    # Imports only the standard library itself, but lazily pulls in a module that imports the app
    _write(
        root,
        "shared/domain/context_env/executors.py",
        "def make():\n    from shared.domain.context_env.service import x\n",
    )
    _write(root, "shared/domain/context_env/summary.py", "from shared.core.settings import Settings\n")
    _write(root, "shared/core/settings.py", "import pydantic\n")
    lock = root / "sandbox.lock"
    lock.write_text(SANDBOX_LOCK.read_text())
    return lock


def test_the_asset_keeps_only_modules_that_import_the_stdlib_wasmtime_and_each_other(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    lock = _fake_repo(root)
    assert sandbox_modules(root) == [
        "shared.domain.context_env.guest",
        "shared.domain.context_env.state",
        "shared.domain.context_env.wasm",
    ]
    asset = build_sandbox_asset(tmp_path / "out", root=root, with_deps=False, lock=lock)
    files = {p.relative_to(asset.path).as_posix() for p in asset.path.rglob("*") if p.is_file()}
    assert files == {
        "shared/__init__.py",
        "shared/domain/__init__.py",
        "shared/domain/context_env/__init__.py",
        "shared/domain/context_env/guest.py",
        "shared/domain/context_env/state.py",
        "shared/domain/context_env/wasm.py",
        "functions/__init__.py",
        "functions/sandbox/__init__.py",
        "functions/sandbox/handler.py",
    }
    # The hash follows the content: the same files hash alike, a changed module does not
    again = build_sandbox_asset(tmp_path / "again", root=root, with_deps=False, lock=lock)
    assert again.asset_hash == asset.asset_hash
    _write(root, "shared/domain/context_env/state.py", "import pickle\n")
    assert build_sandbox_asset(tmp_path / "b", root=root, with_deps=False, lock=lock).asset_hash != (
        asset.asset_hash
    )


def test_a_handler_that_needs_the_app_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    lock = _fake_repo(root, handler="from shared.domain.context_env.executors import make\n")
    with pytest.raises(ValueError, match="shared.domain.context_env.executors"):
        build_sandbox_asset(tmp_path / "out", root=root, with_deps=False, lock=lock)


def test_the_real_asset_imports_with_only_the_stdlib_and_wasmtime(tmp_path: Path) -> None:
    asset = build_sandbox_asset(tmp_path, with_deps=False)
    files = {p.relative_to(asset.path).as_posix() for p in asset.path.rglob("*") if p.is_file()}
    assert {"shared/__init__.py", "functions/sandbox/handler.py"} <= files
    for app_module in ("service", "executors", "summary", "models"):
        assert f"shared/domain/context_env/{app_module}.py" not in files
    assert not any(
        f.startswith(("shared/db/", "shared/api/")) or f == "shared/core/settings.py" for f in files
    )
    # Every shared module in it imports in an interpreter with no site-packages: the standard library, the
    # asset, and wasmtime alone (linked in by itself when this venv has it)
    path = [str(asset.path)]
    spec = find_spec("wasmtime")
    if spec is not None and spec.submodule_search_locations:
        only = tmp_path / "only-wasmtime"
        only.mkdir()
        package = Path(next(iter(spec.submodule_search_locations)))
        # The package and its metadata (the host reads wasmtime's version to key its compiled code)
        for source in [package, *package.parent.glob("wasmtime-*.dist-info")]:
            os.symlink(source, only / source.name)
        path.append(str(only))
    script = (
        "import importlib, pathlib, sys\n"
        "root = pathlib.Path(sys.argv[1])\n"
        "sys.path[:0] = sys.argv[1:]\n"
        "names = sorted('.'.join(p.relative_to(root).with_suffix('').parts).removesuffix('.__init__')\n"
        "               for p in (root / 'shared').rglob('*.py'))\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "print(len(names))\n"
    )
    out = subprocess.run(
        [sys.executable, "-S", "-c", script, *path], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert int(out.stdout.split()[-1]) == sum(
        1 for f in files if f.startswith("shared/") and f.endswith(".py")
    )


def test_the_sandbox_lock_pins_wasmtime_with_hashes() -> None:
    from packaging.requirements import Requirement

    (requirement,) = [Requirement(r) for r in sandbox_requirements()]
    text = SANDBOX_LOCK.read_text()
    assert requirement.name == "wasmtime"
    assert locked_version(SANDBOX_LOCK, "wasmtime") in requirement.specifier, "re-lock: make lock"
    assert text.count("--hash=sha256:") >= 1
    # The lock is the whole closure: nothing but wasmtime (pip installs it with --no-deps)
    pinned = [
        line.split("==")[0] for line in text.splitlines() if line and not line[0].isspace() and "==" in line
    ]
    assert pinned == ["wasmtime"]


def test_machine_code_is_refused_from_another_wasmtime(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import infra.sandbox as sandbox_module

    monkeypatch.setattr(sandbox_module, "build_machine", lambda: "aarch64")  # where machine code is made
    lock = tmp_path / "sandbox.lock"
    lock.write_text("wasmtime==0.0.1 \\\n    --hash=sha256:" + "0" * 64 + "\n")
    with pytest.raises(RuntimeError, match="wasmtime 0.0.1"):
        interpreter_files(tmp_path / "cache", lock=lock)


def test_off_arm64_the_sandbox_ships_python_wasm_alone_unless_machine_code_is_insisted_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PyPI's wasmtime compiles for its own machine only: an x86_64 build host cannot make Lambda's. A first
    deploy from such a machine still works (the function compiles at start); asking for it is refused."""
    import infra.sandbox as sandbox_module

    monkeypatch.setattr(sandbox_module, "build_machine", lambda: "x86_64")
    monkeypatch.setattr(sandbox_module, "locked_version", lambda *_: "50.0.1")
    monkeypatch.setattr(sandbox_module.importlib.metadata, "version", lambda _: "50.0.1")
    monkeypatch.setenv("ML_SANDBOX_PRECOMPILE", "on")
    with pytest.raises(RuntimeError, match="arm64 host"):
        interpreter_files(tmp_path / "cache")
    fetched: list[list[str]] = []
    monkeypatch.setattr(sandbox_module.subprocess, "run", lambda cmd, **_: fetched.append(cmd))
    for asked in (None, "off"):  # unset (auto) and off: python.wasm alone (the fetch is stubbed here)
        if asked is None:
            monkeypatch.delenv("ML_SANDBOX_PRECOMPILE", raising=False)
        else:
            monkeypatch.setenv("ML_SANDBOX_PRECOMPILE", asked)
        wasm, cwasm = interpreter_files(tmp_path / "cache")
        assert cwasm is None and wasm.name == "python.wasm"
    assert [cmd[3] for cmd in fetched] == ["fetch", "fetch"]
