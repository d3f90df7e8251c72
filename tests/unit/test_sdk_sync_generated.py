"""The sync client is generated from the async one (client/memorylayer-client/generate_sync.py, unasync):
the file checked in must be exactly what the generator writes, so a method is only ever edited once."""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

from memorylayer import MemoryLayerClient, SyncMemoryLayerClient

GENERATOR = Path(__file__).resolve().parents[2] / "client" / "memorylayer-client" / "generate_sync.py"


def _generator():
    spec = importlib.util.spec_from_file_location("generate_sync", GENERATOR)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sync_client_is_what_the_generator_writes() -> None:
    generator = _generator()
    assert generator.TARGET.read_text() == generator.render(), (
        "sync_client.py is out of date: edit client.py, then run python client/memorylayer-client/generate_sync.py"
    )


def test_generated_sync_client_has_every_async_method_blocking_with_the_same_arguments() -> None:
    public = {
        name: member
        for name, member in inspect.getmembers(MemoryLayerClient, inspect.isfunction)
        if not name.startswith("_")
    }
    assert public, "no methods found"
    for name, method in public.items():
        sync_name = "close" if name == "aclose" else name
        sync = getattr(SyncMemoryLayerClient, sync_name)
        assert not inspect.iscoroutinefunction(sync) and not inspect.isasyncgenfunction(sync), sync_name
        assert list(inspect.signature(sync).parameters) == list(inspect.signature(method).parameters), name


def test_remembers_keyword_arguments_are_written_once_in_the_source() -> None:
    # remember's signature is its body: its fields are not repeated in forwarding calls, builders or the sync
    # client's source.
    package = GENERATOR.parent / "src" / "memorylayer"
    hand_written = {
        p.name: p.read_text() for p in package.glob("*.py") if p.name not in {"sync_client.py", "models.py"}
    }
    remember = inspect.signature(MemoryLayerClient.remember).parameters
    fields = [
        n
        for n, p in remember.items()
        if p.kind is p.KEYWORD_ONLY and n not in {"idempotency_key", "workspace_id"}
    ]
    # remember's keyword fields, relations included
    assert len(fields) == 15 and "logical_key" in fields and "relations" in fields
    for name, text in hand_written.items():
        for field in ("logical_key", "sequence_key", "event_time", "observer_id", "relations"):
            assert f'"{field}"' not in text, f"{name} spells {field} out again"
    assert hand_written["client.py"].count("logical_key: str | None = None") == 1
