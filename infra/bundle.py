"""Build the Lambda asset folders locally, without Docker.

Each function gets ``build/lambda/<name>/``: our code (``shared/`` plus its own ``functions/<name>/``) and the
runtime dependencies, installed once per requirements hash with ``pip --platform manylinux_2_x_aarch64`` into
``build/lambda-deps/<hash>/`` and hard-linked into every asset, so a synth after the first one takes seconds.

    python -m infra.bundle --report          # build all assets, zip them and print their sizes
    python -m infra.bundle --report --skip-deps

Set ``MEMORYLAYER_CDK_SKIP_DEPS=1`` (or ``-c bundle=skip``) to bundle only our code: no pip, no network.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SKIP_DEPS_ENV = "MEMORYLAYER_CDK_SKIP_DEPS"

# Lambda name -> its package under functions/. The handler is always ``functions/<package>/handler.handler``.
LAMBDA_PACKAGES: dict[str, str] = {
    "memory": "memory",
    "sessions": "sessions",
    "context": "context",
    "extraction": "extraction",
    "migrate": "migrate",
    "cleanup": "cleanup",
}
# functions/embed is the GPU container (built by DockerImageAsset), never part of a Lambda zip.
NOT_LAMBDA_PACKAGES = frozenset({"embed"})

# boto3 and friends ship with the Lambda Python runtime; bundling them only adds ~20 MB.
RUNTIME_PROVIDED = frozenset({"boto3", "botocore", "s3transfer"})
# Model runtimes belong in the GPU container; finding one here means a dependency leaked in.
FORBIDDEN = frozenset({"torch", "onnxruntime", "tensorflow", "transformers", "sentence_transformers"})
# The python3.12 runtime runs on Amazon Linux 2023 (glibc 2.34). pip does not widen a manylinux tag to the
# older glibc versions, so list them all: numpy >= 2.3 and psycopg-binary 3.3 ship only manylinux_2_28 wheels.
LAMBDA_GLIBC_MINOR = 34
PIP_TARGET_ARGS = (
    *(f"--platform=manylinux_2_{minor}_aarch64" for minor in range(LAMBDA_GLIBC_MINOR, 16, -1)),
    "--platform=manylinux2014_aarch64",
    "--implementation=cp",
    "--python-version=3.12",
    "--only-binary=:all:",
)
_SKIP_DIRS = frozenset({"__pycache__", "tests", "test", ".pytest_cache", ".ruff_cache"})
LAMBDA_PYTHON_ENV = "MEMORYLAYER_LAMBDA_PYTHON"


@dataclass(frozen=True)
class BuiltAsset:
    """A ready asset folder and a cheap content hash of it (so CDK need not fingerprint ~100 MB)."""

    name: str
    path: Path
    asset_hash: str


def skip_deps_requested() -> bool:
    """True when the environment asks for code-only bundles (tests, quick synths)."""
    return os.environ.get(SKIP_DEPS_ENV, "").lower() in {"1", "true", "yes"}


def _dist_name(requirement: str) -> str:
    name = requirement
    for sep in ("[", "<", ">", "=", "!", "~", ";", " "):
        name = name.split(sep, 1)[0]
    return name.strip().lower().replace("-", "_")


def runtime_requirements(root: Path = REPO_ROOT) -> list[str]:
    """The service's dependencies from pyproject.toml, minus what the Lambda runtime already provides."""
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    return [req for req in project["dependencies"] if _dist_name(req) not in RUNTIME_PROVIDED]


def _package_data_patterns(root: Path) -> dict[str, list[str]]:
    tool = tomllib.loads((root / "pyproject.toml").read_text()).get("tool", {})
    return tool.get("setuptools", {}).get("package-data", {})


def digest(parts: Iterable[bytes]) -> str:
    """A sha256 over length-prefixed parts, so ``[b"ab", b"c"]`` and ``[b"a", b"bc"]`` differ."""
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.hexdigest()


def install_dependencies(
    requirements: list[str], cache_dir: Path, *, refresh: bool = False, quiet: bool = True
) -> Path:
    """pip-install ``requirements`` for Lambda arm64/3.12 into a cache folder keyed by their hash."""
    key = digest([*(r.encode() for r in requirements), *(a.encode() for a in PIP_TARGET_ARGS)])[:16]
    target = cache_dir / key
    if (target / ".complete").exists() and not refresh:
        if not (target / ".compiled").exists() and precompile(target):  # a cache made before .pyc shipped
            (target / ".compiled").touch()
        return target
    staging = cache_dir / f".{key}.tmp-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    cmd = [sys.executable, "-m", "pip", "install", *PIP_TARGET_ARGS, "--target", str(staging)]
    cmd += ["--no-compile", "--disable-pip-version-check", *(["--quiet"] if quiet else []), *requirements]
    subprocess.run(cmd, check=True)
    _prune_dependencies(staging)
    if precompile(staging):
        (staging / ".compiled").touch()
    (staging / ".complete").write_text("\n".join(requirements) + "\n")
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    return target


def _prune_dependencies(site: Path) -> None:
    """Drop what Lambda never uses, and refuse model runtimes that would blow the 250 MB limit."""
    shutil.rmtree(site / "bin", ignore_errors=True)
    for pycache in list(site.rglob("__pycache__")):
        shutil.rmtree(pycache, ignore_errors=True)
    for entry in list(site.iterdir()):
        top = entry.name.split("-", 1)[0].lower()
        if top in FORBIDDEN:
            raise RuntimeError(
                f"{entry.name} must not be bundled into a Lambda (it belongs in functions/embed)"
            )
        if top in RUNTIME_PROVIDED and entry.is_dir():
            # pulled in transitively; the runtime's copy is used instead
            shutil.rmtree(entry, ignore_errors=True)


def lambda_python() -> str | None:
    """A CPython 3.12 (the Lambda runtime's version) to byte-compile assets with, or None if there is none."""
    candidates = [os.environ.get(LAMBDA_PYTHON_ENV, "")]
    if sys.version_info[:2] == (3, 12):
        candidates.append(sys.executable)
    candidates.append(shutil.which("python3.12") or "")
    pyenv_root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    candidates += [str(p / "bin" / "python") for p in sorted(pyenv_root.glob("versions/3.12*"), reverse=True)]
    for candidate in filter(None, candidates):
        try:
            out = subprocess.run(
                [candidate, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True
            )
        except OSError:
            continue
        if out.returncode == 0 and out.stdout.strip() == b"(3, 12)":
            return candidate
    return None


def precompile(*folders: Path) -> bool:
    """Byte-compile ``folders`` for Python 3.12 so a cold start does not compile every module it imports.

    /var/task is read-only: without shipped .pyc files Lambda compiles fastapi, pydantic, psycopg and our code
    from source on every cold start. ``unchecked-hash`` pycs are used as they are (zip timestamps vary).
    Returns False (and the asset still works, only colder) when no Python 3.12 is installed here.
    """
    python = lambda_python()
    if python is None:
        print(
            "infra.bundle: no Python 3.12 found; assets ship without .pyc (slower cold starts)",
            file=sys.stderr,
        )
        return False
    cmd = [python, "-m", "compileall", "-q", "-j", "0", "--invalidation-mode", "unchecked-hash"]
    subprocess.run([*cmd, *map(str, folders)], check=True, stdout=subprocess.DEVNULL)
    return True


def _code_files(root: Path, package: str) -> Iterator[Path]:
    """Our files that belong in the Lambda asset for ``functions/<package>``, relative to ``root``."""
    data_patterns = _package_data_patterns(root)
    other_lambdas = (set(LAMBDA_PACKAGES.values()) | NOT_LAMBDA_PACKAGES) - {package}
    for top in ("shared", "functions"):
        base = root / top
        if not base.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            rel_dir = Path(dirpath).relative_to(root)
            # Another function's package stays out of this asset; helper packages under functions/ stay in.
            dirnames[:] = sorted(
                d
                for d in dirnames
                if d not in _SKIP_DIRS
                and not d.startswith(".")
                and not (top == "functions" and rel_dir == Path("functions") and d in other_lambdas)
            )
            for filename in sorted(filenames):
                rel = rel_dir / filename
                if filename.startswith(("test_", "conftest")):
                    continue
                if filename.endswith(".py") or filename == "py.typed" or _is_package_data(rel, data_patterns):
                    yield rel


def _is_package_data(rel: Path, patterns: dict[str, list[str]]) -> bool:
    top, _, inner = rel.as_posix().partition("/")
    return any(fnmatch(inner, pattern) for pattern in patterns.get(top, []))


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:  # another filesystem, or links not allowed: fall back to a copy
        shutil.copy2(src, dst)


def build_function_asset(
    name: str, out_dir: Path, *, root: Path = REPO_ROOT, deps: Path | None, compiled: bool = False
) -> BuiltAsset:
    """Assemble ``out_dir/<name>`` from our code and (optionally) the cached dependencies; ``compiled`` adds
    Python 3.12 bytecode for our code (the cached dependencies are compiled when installed)."""
    package = LAMBDA_PACKAGES[name]
    staging = out_dir / f".{name}.tmp-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    if deps is not None:
        shutil.copytree(deps, staging, copy_function=_link_or_copy, dirs_exist_ok=True)
        (staging / ".complete").unlink(missing_ok=True)
        (staging / ".compiled").unlink(missing_ok=True)
    parts: list[bytes] = [f"deps:{deps.name if deps else 'none'}".encode()]
    for rel in _code_files(root, package):
        dest = staging / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        data = (root / rel).read_bytes()
        dest.write_bytes(data)
        parts += [rel.as_posix().encode(), data]
    if compiled and precompile(
        *(staging / top for top in ("shared", "functions") if (staging / top).is_dir())
    ):
        parts.append(b"pyc:cpython-312")
    final = out_dir / name
    shutil.rmtree(final, ignore_errors=True)
    staging.rename(final)
    return BuiltAsset(name=name, path=final, asset_hash=digest(parts))


def build_assets(
    names: Iterable[str] = LAMBDA_PACKAGES,
    *,
    root: Path = REPO_ROOT,
    out_dir: Path | None = None,
    with_deps: bool = True,
    refresh: bool = False,
) -> dict[str, BuiltAsset]:
    """Build every named function's asset folder; dependencies are installed at most once."""
    build = root / "build"
    out_dir = out_dir or build / "lambda"
    out_dir.mkdir(parents=True, exist_ok=True)
    deps = (
        install_dependencies(runtime_requirements(root), build / "lambda-deps", refresh=refresh)
        if with_deps
        else None
    )
    # Code-only bundles (tests, quick synths) are not deployed as they are: they skip the bytecode too.
    return {
        name: build_function_asset(name, out_dir, root=root, deps=deps, compiled=with_deps) for name in names
    }


def _tree_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def zip_asset(asset: BuiltAsset, zip_dir: Path) -> Path:
    """Zip an asset folder the way CDK does (deflate), to measure what Lambda receives."""
    zip_dir.mkdir(parents=True, exist_ok=True)
    target = zip_dir / f"{asset.name}.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for file in sorted(p for p in asset.path.rglob("*") if p.is_file()):
            zf.write(file, file.relative_to(asset.path).as_posix())
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", action="store_true", help="zip each asset and print its size")
    parser.add_argument("--skip-deps", action="store_true", help="bundle our code only (no pip)")
    parser.add_argument("--refresh", action="store_true", help="reinstall the cached dependencies")
    args = parser.parse_args(argv)
    assets = build_assets(with_deps=not (args.skip_deps or skip_deps_requested()), refresh=args.refresh)
    for asset in assets.values():
        line = f"{asset.name:<11} {asset.path.relative_to(REPO_ROOT)}"
        if args.report:
            zipped = zip_asset(asset, REPO_ROOT / "build" / "lambda-zip").stat().st_size
            unzipped = _tree_size(asset.path)
            # Lambda's hard limit is 250 MB unzipped (the 50 MB zip limit applies only to direct uploads).
            flag = "  OVER 250 MB LIMIT" if unzipped > 250 * 1024 * 1024 else ""
            line += f"  zipped {zipped / 1e6:6.1f} MB  unzipped {unzipped / 1e6:6.1f} MB{flag}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
