"""The recall statement, read once from ``recall.sql`` (package data), and its parameters.

    >>> sql = hybrid_sql(384)                                          # doctest: +SKIP
    >>> params = {**filter_params(req, ["ws_a"]), "q": vector, ...}    # doctest: +SKIP

``recall.sql`` is the statement as it runs: every value a named parameter. Loading fills in only what is fixed
for a process: the embedding size ``{dims}`` (literal, so the HNSW index on ``embedding::vector(384)`` is
used), the memory columns ``{memory_columns}`` and the shared WHERE block ``{filters}`` (the file's last part).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

import psycopg

from shared.db import vector_index
from shared.db.memories import QUALIFIED_COLUMNS

_FILTERS_MARK = "-- filters --"


def _read() -> tuple[str, str]:
    text = (resources.files("shared.db") / "recall.sql").read_text()
    body, filters = text.split(_FILTERS_MARK)
    # The file opens with a comment about the file itself (it names the placeholders): not part of the SQL.
    lines = body.splitlines()
    while lines and (lines[0].startswith("--") or not lines[0].strip()):
        lines.pop(0)
    return "\n".join(lines).strip(), filters.strip()


_BODY, FILTERS = _read()

BROWSE_SQL = f"""
SELECT {QUALIFIED_COLUMNS}, NULL::float8 AS cosine, NULL::real AS text_score, NULL::bigint AS vec_rank,
       NULL::bigint AS text_rank, 1.0::float8 AS relevance, 1.0::float8 AS boosted,
       count(*) OVER () AS pool, NULL::bigint AS scope_n
FROM memories m WHERE {FILTERS}
ORDER BY coalesce(m.event_time, m.created_at) DESC, m.id
LIMIT %(limit)s OFFSET %(offset)s
"""


def _rest_of_scope(body: str) -> str:
    """The graph arm's rows of the rest of a scope beside a workspace walked in its own graph: the exact arm
    (the one run when a walk comes back short) over ``{rest_filters}`` (the scope's list without that
    workspace) instead of ``{filters}`` and ``{own}``, always run."""
    end = body.index("{rest_arms}")
    exact = body[body.rindex("(SELECT m.id", 0, end) : end]
    exact = exact.replace("{own}", "").replace("{filters}", "{rest_filters}")
    exact = exact.replace("WHERE (SELECT yes FROM short)\n       AND ", "WHERE ")
    if "short" in exact or "{rest_filters}" not in exact:  # recall.sql's arms changed: say so at import
        raise ValueError("recall.sql: the exact graph arm is not where _rest_of_scope looks for it")
    return "\n    UNION ALL\n    " + exact.strip()


_REST_ARMS = _rest_of_scope(_BODY)
_SCOPE = "m.workspace_id = ANY(%(ws)s) AND "
if not FILTERS.startswith(_SCOPE):  # recall.sql's filters changed: say so at import
    raise ValueError("recall.sql: the filters no longer open with the scope's list")
_WITHOUT_SCOPE = FILTERS.removeprefix(_SCOPE)  # a walk of a workspace's own graph: its literal names it


@cache
def hybrid_sql(dims: int, generation: int = 0, own_graph: str | None = None, *, walk: bool = True) -> str:
    """The ranking statement for embeddings of ``dims`` dimensions, walking the graph of vector
    ``generation`` (shared/db/vector_index.py; literal, as the graph's predicate is), and workspace
    ``own_graph``'s own graph at that generation for its rows (its id literal too, for the same reason; the
    rest of the scope sorted exactly apart). ``walk=False``: no graph is walked, the scope is sorted exactly
    (the small-scope function's statement)."""
    if own_graph is not None and not walk:
        raise ValueError("a workspace's own graph is walked: own_graph needs walk=True")
    body = _BODY.replace("{rest_arms}", "").replace("{own}", "").replace("{walk_filters}", FILTERS)
    if own_graph is not None:
        # A literal in a statement that psycopg formats: a % in the id is doubled.
        literal = vector_index.workspace_literal(own_graph).replace("%", "%%")
        # The rest of the scope is read without the workspace's rows: a condition ``<>`` it would read them all
        # from the index and drop them (8.6 ms for 15,000 rows, to find an empty _global).
        rest = f"m.workspace_id = ANY(array_remove(%(ws)s, {literal})) AND {_WITHOUT_SCOPE}"
        body = (
            _BODY.replace("{rest_arms}", _REST_ARMS)
            .replace("{own}", f" AND m.workspace_id = {literal}")
            .replace("{rest_filters}", rest)
            .replace("{walk_filters}", _WITHOUT_SCOPE)
        )
    return (
        body.replace("{filters}", FILTERS)
        .replace("{memory_columns}", QUALIFIED_COLUMNS)
        .replace("{dims}", str(int(dims)))
        .replace("{gen}", str(int(generation)))
        .replace("{walk}", "" if walk else " AND false")
    )


# --- The hot shape, planned once per session ---------------------------------------------------------------
# Postgres plans the ranking statement on every call (its cost: BENCHMARKS.md, recall's per-request cost). A
# PL/pgSQL function keeps the plan of its RETURN QUERY for the session, and is called as an ordinary query:
# nothing RDS Proxy pins on (a named prepared statement or a session SET would). A generic plan cannot fold
# away a NULL filter, though, so one function serves only the shape the SDK sends by default, no optional
# filter: that statement is recall.sql with those parameters written in as constants (folded when the function
# is planned). Any other shape runs the ad-hoc statement, planned with its values.

# The optional filters' values when a request uses none of them (filter_params).
HOT_CONSTANTS = {
    "include_archived": "false",
    "include_history": "false",
    **dict.fromkeys(
        ("types", "subtypes", "exclude_ids", "tags", "user_id", "observer_id", "subject_id", "created_after",
         "created_before", "event_after", "event_before"),
        "NULL",
    ),
}  # fmt: skip

# The type each remaining parameter is passed as: the one it has in the ad-hoc statement (psycopg's for the
# Python value, or the statement's own cast), so both compute the same numbers.
PARAM_TYPES = {
    "q": "vector", "model": "text", "k": "bigint", "floor": "float8", "qtext": "text", "scope_n": "bigint",
    "ws": "text[]", "list_max_df": "float8", "mce_lexemes": "text[]", "mce_freqs": "real[]", "name_w": "float8",
    "ctx_w": "float8", "k1": "float8", "b": "float8", "w_vec": "float8", "w_text": "float8", "reply_w": "float8",
    "lead_w": "float8", "speaker_w": "float8", "qwords": "text", "time_w": "float8", "time_re": "text",
    "date_w": "float8", "p_month": "int", "p_next": "float8", "p_slack": "float8", "p_start": "timestamptz",
    "p_end": "timestamptz", "rw": "float8", "stale_w": "float8", "limit": "bigint", "offset": "bigint",
}  # fmt: skip

_PARAM = re.compile(r"%\((\w+)\)s")
# The functions' names by whether their statement walks the graph; a workspace's own graph's.
FUNCTION_PREFIXES = {True: "recall_hot_", False: "recall_sorted_"}
OWN_PREFIX = "recall_own_"


@dataclass(frozen=True)
class HotFunction:
    """recall.sql for requests without optional filters, as a PL/pgSQL function (one per embedding size, vector
    generation and statement text: a deploy that changes the statement calls its own).

    >>> hot = hot_function(384)                                                   # doctest: +SKIP
    >>> conn.execute(hot.call, params) if is_hot(params) else ...                 # doctest: +SKIP
    """

    # recall_hot_<hash of the body>_<dims>; recall_sorted_… (walks no graph), recall_own_… (a workspace's own)
    name: str
    args: tuple[str, ...]  # the parameters, in the function's argument order
    body: str  # the query, arguments as a_<name>
    call: str  # SELECT * FROM name(%(q)s::vector, …): the ad-hoc statement's columns
    probe: str  # the body with typed NULL arguments, to read its result columns from (ensure_recall_function)

    def ddl(self, columns: list[tuple[str, str]]) -> str:
        """CREATE FUNCTION, given the statement's result ``columns`` (name, type): ``ensure_recall_function``.
        SECURITY INVOKER (the default, said): row-level security applies to the caller. The function's SET is
        its own, undone on return (no session state: nothing for RDS Proxy to pin on)."""
        arguments = ", ".join(f"a_{a} {PARAM_TYPES[a]}" for a in self.args)
        returns = ", ".join(f"{name} {type_}" for name, type_ in columns)
        return (
            f"CREATE OR REPLACE FUNCTION {self.name}({arguments})\n"
            f"RETURNS TABLE ({returns})\n"
            "LANGUAGE plpgsql STABLE SECURITY INVOKER\n"
            "SET search_path = public, pg_catalog\n"
            "SET plan_cache_mode = force_generic_plan\n"
            # The result columns are variables too (id, relevance, …): a bare name in the query is a column.
            f"AS $recall$\n#variable_conflict use_column\nBEGIN\nRETURN QUERY\n{self.body};\nEND\n$recall$"
        )


def is_hot(params: dict[str, Any]) -> bool:
    """The request uses no optional filter (``hot_function`` serves it)."""
    return all(params[name] is (False if value == "false" else None) for name, value in HOT_CONSTANTS.items())


@cache
def hot_function(dims: int, generation: int = 0, *, walk: bool = True) -> HotFunction:
    """The hot shape's function for embeddings of ``dims`` dimensions and vector ``generation`` (see
    HotFunction; each generation's text differs, so it has its own function). ``walk=False``: the statement
    that sorts the scope exactly and walks no graph, for small scopes (a generic plan that walks the shared
    graph filtered to a few hundred rows walks far; one that sorts them does not depend on their number)."""
    return _function(hybrid_sql(dims, generation, walk=walk), FUNCTION_PREFIXES[walk], dims)


@lru_cache(maxsize=4096)
def own_function(dims: int, generation: int, workspace_id: str) -> HotFunction:
    """The hot shape's function for a scope holding ``workspace_id``, which has a graph of its own at
    ``generation``: the statement that walks that graph, the workspace's id written in (one function per such
    workspace, made when its graph is: ``ensure_recall_function``)."""
    return _function(hybrid_sql(dims, generation, workspace_id), OWN_PREFIX, dims)


def _function(sql: str, prefix: str, dims: int) -> HotFunction:
    args = tuple(dict.fromkeys(n for n in _PARAM.findall(sql) if n not in HOT_CONSTANTS))
    missing = set(args) - set(PARAM_TYPES)
    if missing:  # a parameter new to recall.sql: say how the function receives it
        raise KeyError(f"recall.sql parameters without a type in PARAM_TYPES: {sorted(missing)}")
    body = _PARAM.sub(lambda m: HOT_CONSTANTS.get(m[1], f"a_{m[1]}"), sql).replace("%%", "%")
    probe = _PARAM.sub(lambda m: HOT_CONSTANTS.get(m[1], f"NULL::{PARAM_TYPES.get(m[1])}"), sql).replace(
        "%%", "%"
    )
    digest = hashlib.sha256(repr((args, [PARAM_TYPES[a] for a in args], body)).encode()).hexdigest()[:8]
    call_args = ", ".join(f"%({a})s::{PARAM_TYPES[a]}" for a in args)
    name = f"{prefix}{digest}_{int(dims)}"
    return HotFunction(name, args, body, f"SELECT * FROM {name}({call_args})", probe)


# How many recall_hot_* (and recall_sorted_*) functions per embedding size migrate keeps: this code's and the
# two before it.
KEEP_RECALL_FUNCTIONS = 3


def ensure_recall_function(conn: psycopg.Connection, dims: int, *, generation: int = 0) -> None:
    """Recall's hot-shape functions for ``dims`` (shared/db/recall.py, ``HotFunction``: the one that walks the
    graph, the one that sorts a small scope, and one per workspace with a graph of its own at ``generation``),
    made from the statement this code ships, once: a name holds a hash of its text, so a deploy that changes the
    statement makes (and calls) new ones; an older version, still running meanwhile, keeps its own. So does each
    vector ``generation`` (literal in the statement): the bulk rebuild (shared/domain/indexing/bulk.py) makes the
    next one's before publishing it. The app role may only execute them."""
    for walk in (True, False):
        _ensure_function(
            conn, hot_function(dims, generation, walk=walk), f"{FUNCTION_PREFIXES[walk]}%_{dims}"
        )
    # Own graphs come and go with workspaces' sizes: their functions are kept for this generation and the
    # published one (a rebuild makes the next's before publishing), the rest dropped. A version still running
    # during a deploy whose function went falls back to the ad-hoc statement (Recaller.recall).
    keep: set[str] = set()
    for at in sorted({int(generation), vector_index.published(conn, dims)}):
        for workspace_id in sorted(vector_index.dedicated(conn, dims, at)):
            own = own_function(dims, at, workspace_id)
            _ensure_function(conn, own, None)
            keep.add(own.name)
    stale = conn.execute(
        "SELECT p.oid::regprocedure::text AS signature FROM pg_proc p "
        "WHERE p.pronamespace = 'public'::regnamespace AND p.proname LIKE %s AND NOT p.proname = ANY(%s)",
        (f"{OWN_PREFIX}%_{int(dims)}".replace("_", "\\_"), sorted(keep)),
    ).fetchall()
    for (signature,) in stale:
        conn.execute(f"DROP FUNCTION IF EXISTS {signature}")


def _ensure_function(conn: psycopg.Connection, hot: HotFunction, family: str | None) -> None:
    """``hot``, unless it exists; then the older functions of its ``family`` (a LIKE pattern) but the newest."""
    if conn.execute("SELECT to_regproc(%s) IS NOT NULL", (hot.name,)).fetchone() == (True,):
        return
    # The result columns and their types, as the statement has them (LIMIT 0: planned, nothing read).
    cur = conn.execute(f"SELECT * FROM ({hot.probe}) probe LIMIT 0")
    names = [c.name for c in cur.description or ()]
    types = conn.execute(
        "SELECT format_type(t, NULL) FROM unnest(%s::oid[]) WITH ORDINALITY AS x(t, i) ORDER BY i",
        ([c.type_code for c in cur.description or ()],),
    ).fetchall()
    with conn.transaction():
        conn.execute(hot.ddl([(n, t) for n, (t,) in zip(names, types, strict=True)]))
        conn.execute(f"REVOKE ALL ON FUNCTION {hot.name} FROM PUBLIC")
        conn.execute(f"GRANT EXECUTE ON FUNCTION {hot.name} TO memorylayer_app")
        if family is None:
            return
        # Older statements' functions: the newest few stay for versions still running during a deploy (or
        # rolled back to); the rest go. A version whose function is gone falls back to the ad-hoc statement
        # (Recaller.recall retries on UndefinedFunction), so this is never an outage, only a slower plan.
        stale = conn.execute(
            "SELECT p.oid::regprocedure::text AS signature FROM pg_proc p "
            "WHERE p.pronamespace = 'public'::regnamespace AND p.proname LIKE %s AND p.proname <> %s "
            "ORDER BY p.oid DESC OFFSET %s",
            (family.replace("_", "\\_"), hot.name, KEEP_RECALL_FUNCTIONS - 1),
        ).fetchall()
        for (signature,) in stale:
            conn.execute(f"DROP FUNCTION IF EXISTS {signature}")
