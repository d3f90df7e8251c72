"""Every public method of the official SDK, memorylayer-client 0.2.1 (found by introspection: the client and its
sub-clients), called against the reference server (memorylayer-server 0.2.0) and against our app, each on fresh
data. A method that works against the reference must work against us: there is no list of exceptions.

``PYTHONPATH=. python -m tests.client.sdk_matrix`` prints the matrix. A missing Python 3.12 or a failed install of
either virtualenv fails these tests; it never skips them.
"""

from __future__ import annotations

import pytest

from tests.behaviour import documented_differences, stale, undocumented
from tests.client.sdk_matrix import Run, family, gaps, result_differences, run_driver, summary
from tests.compat import official_python

pytestmark = pytest.mark.py312


@pytest.fixture(scope="module")
def python() -> str:
    return official_python(required=True)


@pytest.fixture(scope="module")
def ref_run(python: str, reference_url: str) -> Run:
    return run_driver(python, reference_url)


@pytest.fixture(scope="module")
def our_run(python: str, base_url: str) -> Run:
    return run_driver(python, base_url)


def test_every_public_method_is_called_on_both(ref_run: Run, our_run: Run) -> None:
    # 92 on the sync client + 39 on its sub-clients: the measured 0.2.1 surface; fewer means introspection broke
    assert ref_run.sync_methods == our_run.sync_methods == 131
    assert ref_run.sub_clients == our_run.sub_clients == ["kb", "mcp_servers", "rpg", "skills"]
    assert list(ref_run.methods) == list(our_run.methods)  # same calls, same order
    assert len(ref_run.methods) > 131  # plus the async client's own methods


def test_what_works_on_the_reference_works_on_ours(ref_run: Run, our_run: Run) -> None:
    print("\n" + summary(ref_run, our_run))
    found = sorted(gaps(ref_run, our_run), key=lambda n: (family(n), n))
    details = [f"{n} ({family(n)}): {our_run.methods[n]}" for n in found]
    assert not found, "work on the reference, not on ours:\n" + "\n".join(details)


def test_what_returns_on_both_returns_what_the_reference_returns(ref_run: Run, our_run: Run) -> None:
    """For each method that returns on both servers: the Python type the caller gets, the fields the reference
    sets, the counts and values; every difference is a ``sdk.`` row of docs/wire.md's behaviour table, and
    every such row still matches one."""
    compared = [n for n, r in ref_run.methods.items() if r["ok"] and our_run.methods[n]["ok"]]
    assert len(compared) >= 80  # the measured overlap; fewer means calls broke, not that results agree
    every = documented_differences()  # the rows for any answer (``*.shape:…``) hold here too
    rows = [row for row in every if row.key.startswith("sdk.")]
    found = result_differences(ref_run, our_run)
    print(f"\n{len(compared)} methods' results compared; {len(found)} differences under {len(rows)} sdk rows")
    missing = undocumented(found, every)
    assert not missing, "results that differ from the reference's, not in docs/wire.md:\n" + "\n".join(
        f"  {d.key}: reference {str(d.reference)[:120]!r}, ours {str(d.ours)[:120]!r}" for d in missing
    )
    assert not stale(found, rows), f"sdk rows no difference matches (remove them): {stale(found, rows)}"
