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
    # Issue 17 item 1 moves the recall statement into its own readable SQL (helper R's branch).
    "shared/retrieval/recall.py": "the recall statement, being rewritten on its own branch",
}
STATEMENT_CALLS = {"execute", "executemany"}


def statement_calls(path: Path) -> list[int]:
    """Lines of ``<anything>.execute(`` / ``.executemany(`` calls in the file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in STATEMENT_CALLS
    ]


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
