"""Which workspaces a lookup may see. Free of database imports, so request code can use it cheaply.

>>> Scope.of("ws_a").clause()
('workspace_id = ANY(%s)', [['ws_a']])
>>> Scope.anywhere().allows("ws_b")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Scope:
    """The workspaces a lookup may see: one or several ids, or every workspace (``Scope.anywhere()``).

    ``anywhere`` exists only for callers that named no workspace while auth is off: the reference looks
    memory ids up globally, and its SDK relies on that for get/update/delete.
    """

    ids: tuple[str, ...] | None

    @classmethod
    def of(cls, *workspace_ids: str) -> Scope:
        return cls(tuple(workspace_ids))

    @classmethod
    def anywhere(cls) -> Scope:
        return cls(None)

    def clause(self, column: str = "workspace_id") -> tuple[str, list[Any]]:
        if self.ids is None:
            return "TRUE", []
        return f"{column} = ANY(%s)", [list(self.ids)]

    def allows(self, workspace_id: str) -> bool:
        return self.ids is None or workspace_id in self.ids
