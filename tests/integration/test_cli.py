"""The ``memorylayer`` CLI as a user runs it: a subprocess against the test Postgres, one clear line and a
non-zero exit for every failure, the local stack's database found without being told."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from shared.cli import build_parser
from shared.core.settings import Settings
from shared.domain.requests import MemoryCreate
from shared.local.processes import DevState, write_state
from shared.local.server import free_port


def run_cli(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYLAYER_")}
    return subprocess.run(
        [sys.executable, "-m", "shared.cli", *args],
        env=base | {"MEMORYLAYER_EMBEDDING_PROVIDER": "hash"} | (env or {}),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def db_env(app_url: str, owner_url: str) -> dict[str, str]:
    return {"MEMORYLAYER_DATABASE_URL": app_url, "MEMORYLAYER_DATABASE_OWNER_URL": owner_url}


def one_line_error(out: subprocess.CompletedProcess) -> str:
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("memorylayer: error: "), out.stderr
    assert "Traceback" not in out.stderr
    return lines[0]


def test_version_is_the_package_version() -> None:
    out = run_cli("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"memorylayer {version('memorylayer-serverless')}"


def test_every_option_has_help() -> None:
    missing = []

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    if not choice.help:
                        missing.append(f"{path} {choice.dest}")
                for name, sub in action.choices.items():
                    walk(sub, f"{path} {name}")
            elif not action.help:
                missing.append(f"{path} {'/'.join(action.option_strings) or action.dest}")

    walk(build_parser(), "memorylayer")
    assert missing == []


def test_without_a_database_or_a_running_stack_it_says_so(tmp_path: Path) -> None:
    out = run_cli("keys", "list", "--data-dir", str(tmp_path))
    assert out.returncode == 2
    assert "no database" in one_line_error(out) and "make dev" in out.stderr


def test_an_unreachable_database_is_one_line() -> None:
    out = run_cli("keys", "list", "--database-url", "host=127.0.0.1 port=1 user=x dbname=y")
    assert out.returncode == 1 and "cannot reach the database at 127.0.0.1:1" in one_line_error(out)


def test_a_typo_in_a_variable_is_one_line(db_env: dict[str, str]) -> None:
    out = run_cli("keys", "list", env=db_env | {"MEMORYLAYER_EMBEDING_PROVIDER": "local"})
    assert out.returncode == 2 and "MEMORYLAYER_EMBEDING_PROVIDER" in one_line_error(out)


def test_it_finds_the_running_local_stack(tmp_path: Path, app_url: str, owner_url: str, ws: str) -> None:
    # What `memorylayer dev` records while it runs (this test process stands in for it: it is alive).
    write_state(tmp_path, DevState.current(database_url=app_url, database_owner_url=owner_url))
    made = run_cli("keys", "create", "--workspace", ws, "--name", "found", "--data-dir", str(tmp_path))
    assert made.returncode == 0, made.stderr
    listed = run_cli("keys", "list", "--json", env={"MEMORYLAYER_DATA_DIR": str(tmp_path)})
    assert listed.returncode == 0, listed.stderr
    assert any(ws in k["workspaces"] for k in json.loads(listed.stdout))


@pytest.mark.parametrize("command", [["reembed"], ["export"]])
def test_an_unknown_workspace_is_one_line(db_env: dict[str, str], command: list[str]) -> None:
    out = run_cli(*command, "--workspace", "ws_nobody_has_made_this", env=db_env)
    assert out.returncode == 1
    assert "workspace ws_nobody_has_made_this not found" in one_line_error(out).lower()


def test_keys_list_and_revoke(db_env: dict[str, str], ws: str) -> None:
    made = run_cli("keys", "create", "--workspace", ws, "--name", "to-revoke", env=db_env)
    assert made.returncode == 0, made.stderr
    key_id = next(line.split()[-1] for line in made.stdout.splitlines() if line.startswith("id:"))
    table = run_cli("keys", "list", env=db_env)
    row = next(line for line in table.stdout.splitlines() if line.startswith(key_id))
    assert ws in row and "to-revoke" in row and row.endswith("active")
    assert table.stdout.splitlines()[0].split()[:2] == ["ID", "TENANT"]
    assert made.stdout.split("key:")[1].split()[0] not in table.stdout  # the key itself is never listed

    revoked = run_cli("keys", "revoke", key_id, env=db_env)
    assert revoked.returncode == 0 and revoked.stdout.strip() == f"revoked {key_id}"
    keys = json.loads(run_cli("keys", "list", "--json", env=db_env).stdout)
    assert next(k for k in keys if k["id"] == key_id)["revoked_at"] is not None

    again = run_cli("keys", "revoke", key_id, env=db_env)
    assert again.returncode == 1 and "api_key_not_found" in one_line_error(again)


def test_export_then_import_with_progress(db_env, services, ws: str, other_ws: str, tmp_path: Path) -> None:
    for i in range(7):
        services.memories.remember(ws, MemoryCreate(content=f"exported note {i}", tags=["cli"]))
    path = tmp_path / "export.ndjson"
    out = run_cli("export", "--workspace", ws, "-o", str(path), env=db_env)
    assert out.returncode == 0, out.stderr
    assert "exported 7 memories" in out.stdout
    assert "exporting" in out.stderr and "7/7" in out.stderr  # tqdm's bar, on stderr
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["type"] for line in lines if line["type"] != "context"] == ["header"] + ["memory"] * 7 + [
        "end"
    ]
    assert lines[0]["version"] == "2.0"

    imported = run_cli("import", "--workspace", other_ws, str(path), env=db_env)
    assert imported.returncode == 0, imported.stderr
    assert "imported 7 memory (ids remapped)" in imported.stdout
    with services.db.connection() as conn:
        contents = conn.execute(
            "SELECT content FROM memories WHERE workspace_id = %s ORDER BY content", (other_ws,)
        ).fetchall()
    assert [r["content"] for r in contents] == [f"exported note {i}" for i in range(7)]


def test_a_version_1_export_still_imports(db_env, services, ws: str, other_ws: str, tmp_path: Path) -> None:
    for i in range(3):
        services.memories.remember(ws, MemoryCreate(content=f"old format note {i}"))
    path = tmp_path / "v1.ndjson"
    out = run_cli("export", "--workspace", ws, "--format", "1.0", "-o", str(path), env=db_env)
    assert out.returncode == 0, out.stderr
    imported = run_cli("import", "--workspace", other_ws, str(path), env=db_env)
    assert imported.returncode == 0 and "imported 3 memories" in imported.stdout, imported.stderr


def test_a_cut_version_2_file_imports_nothing(
    db_env, services, ws: str, other_ws: str, tmp_path: Path
) -> None:
    services.memories.remember(ws, MemoryCreate(content="a note that is cut off"))
    path = tmp_path / "cut.ndjson"
    assert run_cli("export", "--workspace", ws, "-o", str(path), env=db_env).returncode == 0
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:-1]))  # no end line
    out = run_cli("import", "--workspace", other_ws, str(path), env=db_env)
    assert out.returncode == 1 and "cut short" in one_line_error(out)
    with services.db.connection() as conn:
        n = conn.execute("SELECT count(*) AS n FROM memories WHERE workspace_id = %s", (other_ws,)).fetchone()
    assert n["n"] == 0


def test_users_list_and_erase(db_env, services, ws: str) -> None:
    services.memories.remember(ws, MemoryCreate(content="Uma likes kites", user_id="u_uma"))
    services.memories.remember(ws, MemoryCreate(content="Ola likes boats", user_id="u_ola"))
    table = run_cli("users", "list", "--workspace", ws, env=db_env)
    assert table.returncode == 0, table.stderr
    assert [line.split()[:2] for line in table.stdout.splitlines()[1:]] == [["u_ola", "1"], ["u_uma", "1"]]
    dry = run_cli("users", "erase", "u_uma", "--workspace", ws, "--dry-run", env=db_env)
    assert dry.returncode == 0 and "would erase 1 memories of u_uma in 1 workspaces" in dry.stdout, dry.stdout
    done = run_cli("users", "erase", "u_uma", "--workspace", ws, env=db_env)
    assert done.returncode == 0 and "erased 1 memories" in done.stdout, done.stdout
    listed = json.loads(run_cli("users", "list", "--workspace", ws, "--json", env=db_env).stdout)
    assert [u["user_id"] for u in listed] == ["u_ola"]


def test_an_unreadable_import_changes_nothing(db_env, services, other_ws: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"type": "memory", "data": {"content": "fine"}}\nnot json\n')
    out = run_cli("import", "--workspace", other_ws, str(bad), env=db_env)
    assert out.returncode == 2 and f"{bad}:2: not a JSON line" in one_line_error(out)
    with services.db.connection() as conn:
        n = conn.execute("SELECT count(*) AS n FROM memories WHERE workspace_id = %s", (other_ws,)).fetchone()
    assert n["n"] == 0


def test_the_default_embedder_is_local_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    # The Makefile no longer sets it: a CLI run outside make embeds as `make dev` does.
    monkeypatch.delenv("MEMORYLAYER_EMBEDDING_PROVIDER", raising=False)
    assert Settings().embedding_provider == "local"
    assert (
        "MEMORYLAYER_EMBEDDING_PROVIDER"
        not in (Path(__file__).parents[2] / "Makefile").read_text().split("test:")[0]
    )


def test_remember_then_recall_through_the_api(base_url: str, ws: str) -> None:
    stored = run_cli(
        "remember", "Dana lives in Paris", "--workspace", ws, "--url", base_url, "--tag", "profile"
    )
    assert stored.returncode == 0, stored.stderr
    memory_id, memory_type, content = stored.stdout.strip().split("  ")
    assert memory_id.startswith("mem_") and memory_type == "semantic" and content == "Dana lives in Paris"
    found = run_cli(
        "recall", "where does Dana live?", "--workspace", ws, "--url", base_url, "--type", "semantic"
    )
    assert found.returncode == 0, found.stderr
    assert memory_id in found.stdout and "Dana lives in Paris" in found.stdout
    as_json = run_cli("recall", "Dana", "--workspace", ws, "--url", base_url, "--json")
    assert [m["id"] for m in json.loads(as_json.stdout)["memories"]] == [memory_id]
    # the URL from the environment, as the SDK reads it
    env = run_cli("recall", "Dana", "--workspace", ws, env={"MEMORYLAYER_URL": base_url})
    assert memory_id in env.stdout


def test_remember_and_recall_failures_are_one_line(base_url: str, ws: str) -> None:
    refused = run_cli("remember", "x", "--workspace", ws, "--url", base_url, "--importance", "7")
    assert refused.returncode == 1 and "importance" in one_line_error(refused)
    closed = f"http://127.0.0.1:{free_port()}"
    unreachable = run_cli("recall", "x", "--url", closed)
    assert unreachable.returncode == 1 and "cannot reach the API" in one_line_error(unreachable)
