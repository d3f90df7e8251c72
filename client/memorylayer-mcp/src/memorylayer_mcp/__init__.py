"""MemoryLayer's MCP server: ``memorylayer-mcp`` (stdio) or ``python -m memorylayer_mcp --transport streamable-http``."""

from memorylayer_mcp.server import Config, MemoryLayerTools, build_server, main

__version__ = "0.3.0"

__all__ = ["Config", "MemoryLayerTools", "__version__", "build_server", "main"]
