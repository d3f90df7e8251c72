"""``python -m bench.write_cost`` at a tiny scale: the table loaded, every kind of operation measured, its table."""

from __future__ import annotations

from pathlib import Path

from bench import write_cost


def test_postgres_cpu_is_read_from_the_postmaster_and_its_children(tmp_path: Path) -> None:
    from shared.local.postgres import EmbeddedPostgres

    pg = EmbeddedPostgres.start(tmp_path / "pg", ephemeral=True)
    try:
        import psycopg

        before = write_cost.postgres_cpu_s(tmp_path / "pg")
        with psycopg.connect(pg.dsn) as conn:
            conn.execute("SELECT count(*) FROM generate_series(1, 3000000)").fetchone()
        assert write_cost.postgres_cpu_s(tmp_path / "pg") > before  # a backend's work is counted
    finally:
        pg.stop()


def test_the_write_cost_bench_runs_to_its_table() -> None:
    results = write_cost.run(0.002, 20, 2, 5, count=6)
    ops = results["operations"]
    assert [ops[k]["n"] for k in ("remember", "read (baseline)", "recall", "batch of 100")] == [20, 20, 5, 2]
    assert ops["remember"]["db_cpu_ms"] > 0 and ops["read (baseline)"]["x_baseline"] in (1.0, None)
    assert write_cost.table(results).count("\n| ") == 5  # the header and four operations
