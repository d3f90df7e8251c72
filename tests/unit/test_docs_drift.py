"""The lists a reader trusts stay whole: every public method of the Python SDK is in its README's API table, every
`memorylayer` subcommand is in the README's CLI block, and the MCP README's tool table names exactly the tools
the MCP server registers."""

from __future__ import annotations

import argparse
import inspect
import re
from pathlib import Path

from memorylayer import MemoryLayerClient, SyncMemoryLayerClient
from memorylayer_mcp import Config, build_server

from shared.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


def _section(text: str, start: str, end: str) -> str:
    return text[text.index(start) : text.index(end, text.index(start))]


def test_every_public_sdk_method_is_in_the_readme_table() -> None:
    readme = (ROOT / "client" / "memorylayer-client" / "README.md").read_text()
    table = _section(readme, "## What it covers", "\n## ")
    named = set(re.findall(r"`([a-z_]+)", table))
    for client in (MemoryLayerClient, SyncMemoryLayerClient):
        public = {
            name for name, value in inspect.getmembers(client) if not name.startswith("_") and callable(value)
        }
        assert len(public) > 100, client  # the surface was found, not an empty class
        assert public <= named, (
            f"{client.__name__} methods missing from the README table: {sorted(public - named)}"
        )


def _commands(parser: argparse.ArgumentParser, prefix: str = "") -> set[str]:
    """Every command path: 'remember', 'users', 'users erase', ..."""
    found: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                path = f"{prefix}{name}"
                found.add(path)
                found |= _commands(sub, f"{path} ")
    return found


def test_every_cli_command_is_in_the_readme_block() -> None:
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"### The `memorylayer` command.*?```bash\n(.*?)```", readme, re.S)
    assert block, "the README's CLI block"
    shown = {
        " ".join(w for w in line.split()[1:3] if not w.startswith(("-", '"', "#")))
        for line in block.group(1).splitlines()
        if line.startswith(".venv/bin/memorylayer ")
    }
    commands = _commands(build_parser())
    assert {"remember", "recall", "users erase", "keys create"} <= commands
    # A group ('users') is shown through its actions ('users list').
    leaves = {c for c in commands if not any(other.startswith(f"{c} ") for other in commands)}
    missing = {c for c in leaves if c not in shown and c.split()[0] not in shown}
    assert not missing, f"commands missing from the README's CLI block: {sorted(missing)}"


async def test_the_mcp_readme_lists_exactly_the_registered_tools() -> None:
    registered = {tool.name for tool in await build_server(Config()).list_tools()}
    readme = (ROOT / "client" / "memorylayer-mcp" / "README.md").read_text()
    table = _section(readme, "## Tools", "\n## ")
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))
    assert len(registered) >= 14
    assert listed == registered, (
        f"not in the README: {registered - listed}; not a tool: {listed - registered}"
    )
