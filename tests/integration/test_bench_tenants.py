"""``python -m bench.tenants`` at a tiny scale: every workspace loaded, served and measured, to its table."""

from __future__ import annotations

from bench import tenants
from shared.db import vector_index


def test_the_tenants_bench_runs_to_its_table(database_url: str) -> None:
    threshold = vector_index.DEDICATED_MIN_ROWS
    results = tenants.run(6, 0.002, 3, 0.5, 1, superuser_dsn=database_url, index_ab=True, plans_ab=True)
    assert set(results["measured"]) == {"small", "median", "10k", "largest"}
    # The per-workspace text index alone: the migrations' contract step dropped the table-wide one.
    assert results["text_indexes"] == ["memories_ws_tsv"]
    for label in results["measured"]:
        for side in ("shared", "alone"):
            (figures,) = results[label]["recall"][side]
            # Every sequential recall answered 200 (recall_figures asserts it), and the clients saw no error.
            assert figures["sequential"]["n"] == 3 and figures["clients_8"]["errors"] == 0
            assert results[label]["floor"][side]["both"]["n"] == 3
    assert all(
        len(results["index_ab"][label][phase]) == 1
        for label in results["measured"]
        for phase in ("with", "without")
    )
    assert all(
        len(results["plans_ab"][label][phase]) == 1
        for label in results["measured"]
        for phase in ("ad_hoc", "kept")
    )
    # The bench lowered the own-graph threshold for its builds only: later tests in this process see the real one.
    assert results["dedicated_min_rows"] != threshold and threshold == vector_index.DEDICATED_MIN_ROWS
    table = tenants.table(results)
    assert table.count("\n| ") == 15  # two headers and four workspaces in each table
