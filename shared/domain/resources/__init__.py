"""Versioned resources: one mechanism (``service``: revisions, ETags, Idempotency-Keys, tombstones and restore,
paging) and the families described on it (``prompt_notes``, ``agent_specifications``, ``refinement_records``),
each a ``Kind`` with its own request models. A new family (skills, MCP servers, workspace views and their
observations) is another ``Kind``; files too large for one document belong in a table of their own next to it."""
