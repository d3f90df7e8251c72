"""Every script in examples/ runs, as a user would run it against `make dev`: a subprocess whose only link to
the server is MEMORYLAYER_URL (here the local stack with its extraction queue, as `make dev` serves it)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("quickstart.py", "User lives in Paris"),
        ("llamaindex_chat.py", "after one more turn: 6 messages persisted"),
        ("agent.py", "agent (new conversation): From what I remember:"),
    ],
)
def test_example_runs_against_the_local_stack(script: str, expected: str, stack_url: str, ws: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYLAYER_")}
    env |= {"MEMORYLAYER_URL": stack_url, "MEMORYLAYER_WORKSPACE_ID": ws}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script)], env=env, capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert expected in done.stdout, done.stdout[-2000:]


def test_every_example_is_tested() -> None:
    tested = {"quickstart.py", "llamaindex_chat.py", "agent.py"}
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested


def test_make_examples_installs_every_import_of_the_examples() -> None:
    """`make dev` installs the server only; `make examples` (examples/README.md) must bring every package an
    example imports: a client folder's own package, or one of its dependencies."""
    root = EXAMPLES.parent
    (listed,) = re.findall(r"^EXAMPLE_PACKAGES := (.+)$", (root / "Makefile").read_text(), re.M)
    provided: set[str] = set()
    for folder in listed.split():
        project = tomllib.loads((root / folder / "pyproject.toml").read_text())["project"]
        provided |= {p.name for p in (root / folder / "src").iterdir() if (p / "__init__.py").exists()}
        provided |= {
            re.split(r"[<>=!~ ;\[]", dep)[0].replace("-", "_").lower() for dep in project["dependencies"]
        }
    assert "make examples" in (EXAMPLES / "README.md").read_text()
    for script in EXAMPLES.glob("*.py"):
        for node in ast.walk(ast.parse(script.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for top in {n.split(".")[0] for n in names} - set(sys.stdlib_module_names) - {"__future__"}:
                # llama_index comes with llama-index-core, and so on: a dependency named after the module
                assert any(p == top or p.startswith(top + "_") for p in provided), f"{script.name}: {top}"
