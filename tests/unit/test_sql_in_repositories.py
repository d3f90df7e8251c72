"""SQL lives in repositories (shared/db/*): no service, route or handler runs a statement of its own.

The check reads the code (``ast``), so a comment or a docstring that shows ``conn.execute(...)`` is no hit.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Files that may run SQL outside shared/db, each with its reason.
ALLOWED = {
    "shared/local/postgres.py": "local tooling: starts the throwaway cluster and creates its roles",
    "shared/local/schema.py": "local tooling: migrates a throwaway database from empty and reads its role settings",
    # Recall's own statements are the retrieval package's: their text is readable SQL beside the code that sends
    # them in one pipeline (recall.sql, expansion's EXPANSION_SQL, the relational arm's statement).
    "shared/domain/retrieval/recall.py": "sends recall.sql (shared/db/recall.py loads it)",
    "shared/domain/retrieval/expansion.py": "sends EXPANSION_SQL, the association walk under recall's filters",
    "shared/domain/retrieval/relations.py": "sends the relational arm's statement in recall's pipeline",
}
STATEMENT_CALLS = {"execute", "executemany"}


def _runs_sql(call: ast.Call) -> bool:
    """``conn.execute(…)`` / ``cur.executemany(…)``, or any ``.execute("SELECT …")`` with literal SQL; not a
    method that merely shares the name (the context environment's ``sandboxes.execute(caller, body)``)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in STATEMENT_CALLS:
        return False
    receiver = func.value
    name = receiver.id if isinstance(receiver, ast.Name) else getattr(receiver, "attr", "")
    if "conn" in name.lower() or "cur" in name.lower():
        return True
    first = call.args[0] if call.args else None
    return isinstance(first, ast.JoinedStr) or (
        isinstance(first, ast.Constant) and isinstance(first.value, str)
    )


def statement_calls(path: Path) -> list[int]:
    """Lines of the calls in the file that run a statement (see ``_runs_sql``)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call) and _runs_sql(node)]


def test_only_repositories_run_sql():
    found = {
        str(path.relative_to(ROOT)): lines
        for folder in ("shared", "functions")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if (lines := statement_calls(path))
    }
    outside = {
        name: lines
        for name, lines in found.items()
        if not name.startswith("shared/db/") and name not in ALLOWED
    }
    assert outside == {}, f"SQL outside shared/db (move it into a repository function): {outside}"
    assert any(name.startswith("shared/db/") for name in found)  # the scan sees the repositories at all


def test_the_scan_finds_a_statement(tmp_path):
    service = tmp_path / "service.py"
    service.write_text(
        'def stats(conn):\n    """conn.execute("in a docstring")"""\n    conn.execute("SELECT 1")\n'
    )
    assert statement_calls(service) == [3]


def test_the_scan_skips_methods_that_only_share_the_name(tmp_path):
    route = tmp_path / "route.py"
    route.write_text(
        'def run(svc, db):\n    svc.sandboxes.execute(1, 2)\n    db.pool.execute(f"SELECT {1}")\n'
    )
    assert statement_calls(route) == [3]
