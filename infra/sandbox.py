"""The sandbox function: where caller code of the context environment runs in AWS.

Caller code runs inside CPython compiled to WebAssembly (WASI), under wasmtime in this function's own process
(``shared/domain/context_env/wasm.py``). WASI gives the guest no sockets and no host files by construction, so the
function no longer needs a network-less VPC to be network-less:
- it runs outside the VPC: no ENIs, so its role may write its own log group and nothing else (the ENI
  permissions on "*" that a VPC function's role holds were the most useful thing an escape could take);
- tenant isolation mode: an execution environment only ever serves one tenant id (every invoke must pass
  one: boto3's ``TenantId``), so what one tenant's code leaves in a process never meets another's. Lambda
  bills it per environment created, nothing at idle; it rules out SnapStart. Where the region or account lacks
  it (infra/regions.py, ``-c tenant_isolation=off``) the function has no tenancy config and invokes carry no id;
- its environment holds nothing; fixed memory and timeout; no retries;
- only the sandbox API function's role may invoke it; alarms on its errors and throttles.

Its asset: ``shared/__init__.py``, the modules of ``shared/domain/context_env`` that import only the standard library,
wasmtime and each other (found from their imports, so ``service.py``, ``executors.py`` and the rest of the app
stay out), ``functions/sandbox``, wasmtime for manylinux aarch64 / cp312 from a hashed lock, ``python.wasm``
(fetched by its pinned hash) and its machine code precompiled for Lambda's arm64, which only an arm64 build host
can make (``PRECOMPILE_ENV`` below). With ``ML_CDK_SKIP_DEPS=1`` (or ``-c bundle=skip``) only our code, as for
the other functions.
"""

from __future__ import annotations

import ast
import importlib.metadata
import os
import platform
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from aws_cdk import AssetHashType, Duration, Stack
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from constructs import Construct

from infra.bundle import (
    REPO_ROOT,
    BuiltAsset,
    _link_or_copy,
    digest,
    install_dependencies,
    lock_digest,
    precompile,
    skip_deps_requested,
)
from infra.config import StageConfig
from infra.functions import ARCHITECTURE, RUNTIME, function_role
from infra.logs import log_group
from infra.nag import acknowledge
from shared.domain.context_env import interpreter

# The API function stops at 29 s (HTTP API integrations time out at 30 s): an execution gets 20 s, the
# function 25 s (instantiating the guest, state load and save), the API function the rest.
EXEC_SECONDS = 20
TIMEOUT = Duration.seconds(25)
# The guest's linear memory is capped at 256 MiB; the host process, wasmtime and the mapped machine code
# (~60 MB) come on top. CPU scales with memory, and the guest interpreter's start is CPU-bound.
MEMORY_MB = 1024
SANDBOX_LOCK = REPO_ROOT / "infra" / "sandbox-requirements.lock"
# Lambda arm64 (Graviton); the precompiled module only loads into an engine built for the same target.
WASM_TARGET = "aarch64-unknown-linux-gnu"
WASM_ARCH = "aarch64"
# The PyPI wasmtime builds compile only for the machine they run on (an x86_64 build aborts with "Support for
# this target is disabled" when asked for aarch64), so the machine code can be made only on an arm64 host.
# Elsewhere (``ML_SANDBOX_PRECOMPILE`` unset: auto) python.wasm ships alone, so a first deploy works from any
# machine: every new execution environment (with tenant isolation, every tenant's first) then compiles it at
# start, seconds of CPU (BENCHMARKS.md, the context environment). ``on`` insists, ``off`` skips.
PRECOMPILE_ENV = "ML_SANDBOX_PRECOMPILE"
# The only third-party package the sandbox asset may import.
THIRD_PARTY = frozenset({"wasmtime"})


def sandbox_requirements(root: Path = REPO_ROOT) -> list[str]:
    """What `make lock` resolves into SANDBOX_LOCK (``python -m infra.sandbox`` prints it): pyproject's
    ``sandbox`` extra. The host that compiles the machine code must have the locked wasmtime."""
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    return list(extras["sandbox"])


def _imports(path: Path, root: Path) -> set[str]:
    """Every module ``path`` may import (top level, inside functions, relative ones resolved), as dotted names;
    ``from a.b import c`` counts as ``a.b.c`` when that is one of our module files, else as ``a.b``."""
    rel = path.relative_to(root).with_suffix("")
    package = list(rel.parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base_parts = package[: len(package) - node.level + 1] if node.level else []
            base = ".".join([*base_parts, *([node.module] if node.module else [])])
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if _module_path(root, candidate) else base)
    return found - {"", "__future__"}


def _module_path(root: Path, module: str) -> Path | None:
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _allowed(module: str, ours: set[str]) -> bool:
    top = module.split(".", 1)[0]
    return module in ours or top in THIRD_PARTY or (top in sys.stdlib_module_names and top != "shared")


def sandbox_modules(root: Path = REPO_ROOT) -> list[str]:
    """The modules of ``shared/domain/context_env`` that import nothing but the standard library, wasmtime and each
    other: dropping one that imports the app (pydantic, settings, the database) drops those that import it."""
    kept = {
        f"shared.domain.context_env.{path.stem}": path
        for path in sorted((root / "shared" / "domain" / "context_env").glob("*.py"))
        if path.name != "__init__.py"
    }
    packages = {"shared", "shared.domain", "shared.domain.context_env"}
    changed = True
    while changed:
        changed = False
        for name, path in list(kept.items()):
            if not all(_allowed(m, set(kept) | packages) for m in _imports(path, root)):
                del kept[name]
                changed = True
    return sorted(kept)


def _code_files(root: Path) -> list[Path]:
    """Our files in the asset, relative to ``root``; refuses a handler that needs more than they hold."""
    modules = sandbox_modules(root)
    files = [
        Path("shared/__init__.py"),
        Path("shared/domain/__init__.py"),
        Path("shared/domain/context_env/__init__.py"),
        Path("functions/__init__.py"),
    ]
    files += [Path(*m.split(".")).with_suffix(".py") for m in modules]
    handler_files = sorted(
        p.relative_to(root)
        for p in (root / "functions" / "sandbox").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )
    ours = {
        "shared",
        "shared.domain",
        "shared.domain.context_env",
        "functions",
        "functions.sandbox",
        *modules,
    }
    ours |= {".".join(p.with_suffix("").parts) for p in handler_files if p.suffix == ".py"}
    for rel in handler_files:
        if rel.suffix == ".py":
            outside = sorted(m for m in _imports(root / rel, root) if not _allowed(m, ours))
            if outside:
                raise ValueError(
                    f"{rel} imports {', '.join(outside)}: the sandbox asset carries only the standard "
                    "library, wasmtime and the self-contained modules of shared/domain/context_env"
                )
    return files + handler_files


def locked_version(lock: Path, package: str) -> str:
    """The version ``lock`` pins ``package`` to (``name==version`` lines, as ``uv pip compile`` writes)."""
    match = re.search(rf"^{re.escape(package)}==([^\s\\;]+)", lock.read_text(), re.MULTILINE | re.IGNORECASE)
    if match is None:
        raise ValueError(f"{lock.name} pins no {package}")
    return match.group(1)


def build_machine() -> str:
    """This machine's architecture in wasmtime's terms (aarch64, x86_64)."""
    machine = platform.machine().lower()
    return {"arm64": "aarch64", "amd64": "x86_64"}.get(machine, machine)


def interpreter_files(
    cache_dir: Path, *, root: Path = REPO_ROOT, lock: Path = SANDBOX_LOCK
) -> tuple[Path, Path | None]:
    """python.wasm (downloaded by its pinned hash) and its machine code for Lambda arm64 (None when
    ``ML_SANDBOX_PRECOMPILE=off``), cached in ``cache_dir``. The machine code is compiled by this venv's
    wasmtime, so it must be the locked one: a module compiled by another version would not load in Lambda,
    which would compile it in every new execution environment."""
    asked = os.environ.get(PRECOMPILE_ENV, "auto").lower()
    if asked in ("on", "1", "true", "yes") and build_machine() != WASM_ARCH:
        raise RuntimeError(
            f"infra: the sandbox's machine code for Lambda arm64 can only be compiled on an arm64 host: the PyPI "
            f"wasmtime build here ({build_machine()}) compiles for its own machine only. Build on arm64, or "
            f"leave {PRECOMPILE_ENV} unset to ship python.wasm alone (each new execution environment, so each "
            "tenant's first call, then compiles it at start: seconds)."
        )
    precompile_wanted = asked not in ("off", "0", "false", "no") and build_machine() == WASM_ARCH
    if asked == "auto" and not precompile_wanted:
        print(
            f"infra: building on {build_machine()}: the sandbox ships python.wasm without arm64 machine code "
            "(each new execution environment compiles it at start; build on arm64 to precompile it)",
            file=sys.stderr,
        )
    if precompile_wanted:  # checked before any download: the machine code must load into the locked wasmtime
        locked = locked_version(lock, "wasmtime")
        try:
            here = importlib.metadata.version("wasmtime")
        except importlib.metadata.PackageNotFoundError:
            here = "none"
        if here != locked:
            raise RuntimeError(
                f"infra: the sandbox's machine code is compiled with wasmtime {locked} ({lock.name}); this venv "
                f"has {here}. Install wasmtime=={locked} here (make .venv/.installed-dev) or re-lock."
            )
    cache_dir.mkdir(parents=True, exist_ok=True)
    wasm = cache_dir / "python.wasm"
    run = [sys.executable, "-m", "shared.domain.context_env.interpreter"]
    # fetch checks the hash of what it finds and downloads only when it is missing or wrong.
    subprocess.run([*run, "fetch", "--dest", str(wasm)], check=True, cwd=root, stdout=subprocess.DEVNULL)
    if not precompile_wanted:
        return wasm, None
    locked = locked_version(lock, "wasmtime")
    cwasm = cache_dir / f"python-{interpreter.sha256(wasm)[:16]}-wasmtime-{locked}-{WASM_ARCH}.cwasm"
    if not cwasm.is_file():
        partial = cwasm.with_suffix(f".{os.getpid()}.partial")
        subprocess.run(
            [*run, "compile", "--target", WASM_TARGET, "--wasm", str(wasm), "--out", str(partial)],
            check=True,
            cwd=root,
            stdout=subprocess.DEVNULL,
        )
        partial.replace(cwasm)
    return wasm, cwasm


def build_sandbox_asset(
    out_dir: Path,
    *,
    root: Path = REPO_ROOT,
    with_deps: bool = True,
    lock: Path = SANDBOX_LOCK,
    cache_dir: Path | None = None,
) -> BuiltAsset:
    """Assemble ``out_dir/sandbox``: our code, and with ``with_deps`` wasmtime, python.wasm and its machine
    code at ``shared/domain/context_env/python.wasm`` and ``shared/domain/context_env/python.wasm.aarch64.cwasm`` (where the host
    looks for them)."""
    cache_dir = cache_dir or root / "build"
    staging = out_dir / f".sandbox.tmp-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    parts: list[bytes] = [
        f"lock:{lock_digest(lock)}".encode(),
        f"deps:{'installed' if with_deps else 'none'}".encode(),
    ]
    if with_deps:
        deps = install_dependencies(lock, cache_dir / "lambda-deps")
        shutil.copytree(deps, staging, copy_function=_link_or_copy, dirs_exist_ok=True)
        for marker in (".complete", ".compiled"):
            (staging / marker).unlink(missing_ok=True)
        wasm, cwasm = interpreter_files(cache_dir / "sandbox-wasm", root=root, lock=lock)
        shipped = [(wasm, "python.wasm")] + ([(cwasm, f"python.wasm.{WASM_ARCH}.cwasm")] if cwasm else [])
        for src, name in shipped:
            dest = staging / "shared" / "domain" / "context_env" / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            _link_or_copy(str(src), str(dest))
            parts += [name.encode(), interpreter.sha256(src).encode()]
    for rel in _code_files(root):
        data = (root / rel).read_bytes()
        dest = staging / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
        parts += [rel.as_posix().encode(), data]
    if with_deps and precompile(staging / "shared", staging / "functions"):
        parts.append(b"pyc:cpython-312")
    final = out_dir / "sandbox"
    shutil.rmtree(final, ignore_errors=True)
    staging.rename(final)
    return BuiltAsset(name="sandbox", path=final, asset_hash=digest(parts))


class SandboxFunction(Construct):
    """The sandbox function, its log group and role; ``allow_invoke`` wires the one caller."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: StageConfig,
        key: kms.IKey,
        reserved_concurrency: int | None = None,
    ) -> None:
        super().__init__(scope, construct_id)
        stack = Stack.of(self)
        # Without tenant isolation (a region or account that lacks it: config.tenant_isolation) the WASI guest
        # still isolates each execution, but an execution environment may serve several tenants in turn.
        self.tenant_isolation = config.tenant_isolation
        function_name = f"{config.prefix}-sandbox"
        # Named by CloudFormation (the function's LoggingConfig points at it): kept in prod, it never collides.
        self.log_group = log_group(self, "Logs", config=config, key=key)
        self.role = function_role(
            self,
            "Role",
            log_group=self.log_group,
            description="MemoryLayer sandbox function: its own logs, nothing else",
            star_reason=None,
            in_vpc=False,
        )
        bundle_dir = self.node.try_get_context("bundle_dir")
        asset = build_sandbox_asset(
            Path(bundle_dir) / stack.node.id if bundle_dir else REPO_ROOT / "build" / "lambda",
            with_deps=self.node.try_get_context("bundle") != "skip" and not skip_deps_requested(),
        )
        self.asset = asset
        self.function = lambda_.Function(
            self,
            "Function",
            function_name=function_name,
            description=f"MemoryLayer {config.stage}: context environment sandbox (caller code, WASI)",
            runtime=RUNTIME,
            architecture=ARCHITECTURE,
            handler="functions/sandbox/handler.handler",
            code=lambda_.Code.from_asset(
                str(asset.path), asset_hash=asset.asset_hash, asset_hash_type=AssetHashType.CUSTOM
            ),
            timeout=TIMEOUT,
            memory_size=MEMORY_MB,
            reserved_concurrent_executions=reserved_concurrency,
            role=self.role,
            log_group=self.log_group,
            tracing=lambda_.Tracing.DISABLED,  # X-Ray would need a permission; nothing to trace inside
            environment_encryption=key,
            tenancy_config=lambda_.TenancyConfig.PER_TENANT if config.tenant_isolation else None,
            # A retry would run caller code twice; the caller decides.
            retry_attempts=0,
        )
        acknowledge(
            self.function,
            "AwsSolutions-L1",
            "Pinned to python3.12 like the other functions (infra/functions.py).",
        )

    def allow_invoke(self, caller: lambda_.Function) -> None:
        """Only this function's role may invoke the sandbox, and it is told the sandbox's name."""
        # The unqualified function only (grant_invoke would add ``<arn>:*``, every version and alias).
        caller.add_to_role_policy(
            iam.PolicyStatement(actions=["lambda:InvokeFunction"], resources=[self.function.function_arn])
        )
        caller.add_environment("MEMORYLAYER_CONTEXT_EXECUTOR", "lambda")
        caller.add_environment("MEMORYLAYER_CONTEXT_SANDBOX_FUNCTION", self.function.function_name)
        caller.add_environment("MEMORYLAYER_CONTEXT_MAX_EXEC_SECONDS", str(EXEC_SECONDS))
        if not self.tenant_isolation:  # an invoke with a TenantId is refused by a function without the mode
            caller.add_environment("MEMORYLAYER_CONTEXT_SANDBOX_TENANT_ISOLATION", "false")

    def add_alarms(self, topic: sns.ITopic) -> None:
        """Errors (the handler itself failed) and throttles (more executions than the account or reservation
        allows, or more tenants at once than tenant isolation keeps environments for)."""
        for name, metric in (
            ("Errors", self.function.metric_errors(period=Duration.minutes(5), statistic=cw.Stats.SUM)),
            ("Throttles", self.function.metric_throttles(period=Duration.minutes(5), statistic=cw.Stats.SUM)),
        ):
            alarm = metric.create_alarm(
                self,
                f"Sandbox{name}",
                alarm_description=f"The sandbox function reported {name.lower()}",
                threshold=0,
                evaluation_periods=1,
                comparison_operator=cw.ComparisonOperator.GREATER_THAN_THRESHOLD,
                treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
            )
            alarm.add_alarm_action(cw_actions.SnsAction(topic))
            alarm.add_ok_action(cw_actions.SnsAction(topic))


if __name__ == "__main__":
    print("\n".join(sandbox_requirements()))
