"""Dynamic UPDATEs take their column names from an allow-list, never from a request's keys."""

from __future__ import annotations

import pytest
from psycopg import sql

from shared.db import memories, threads
from shared.db.updates import assignments


def test_set_list_quotes_allowed_columns():
    composed = assignments({"title": "x", "metadata": {}}, threads.UPDATABLE_COLUMNS, what="thread")
    assert isinstance(composed, sql.Composed)
    assert composed.as_string() == '"title" = %s, "metadata" = %s'


@pytest.mark.parametrize(
    ("allowed", "what"), [(memories.UPDATABLE_COLUMNS, "memory"), (threads.UPDATABLE_COLUMNS, "thread")]
)
def test_a_key_outside_the_allow_list_is_refused_before_any_sql(allowed, what):
    # A request model that one day stopped ignoring extra fields would hand its keys straight to the UPDATE.
    with pytest.raises(ValueError, match="workspace_id"):
        assignments({"workspace_id": "ws_other", "tags": []}, allowed, what=what)
    with pytest.raises(ValueError, match="not an updatable"):
        assignments({"id = id; DROP TABLE memories; --": 1}, allowed, what=what)
