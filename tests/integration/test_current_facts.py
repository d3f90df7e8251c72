"""Current facts first (docs/recall.md): a user's superseded value and their own name do not outrank the answer.

Through the real stack: threads over HTTP, the extraction Lambda handler polling moto's SQS, the deterministic
extractor and writer, then recall over HTTP (hash embeddings, so the text arm decides).
"""

from __future__ import annotations

import json

import httpx
import psycopg
import pytest

from tests.helpers.threads import append, new_thread, recall, wait_job


def say(api: httpx.Client, thread: str, user: str, assistant: str) -> dict:
    return wait_job(api, append(api, thread, ("user", user), ("assistant", assistant))["job_id"])


def contents(api: httpx.Client, query: str, **fields) -> list[str]:
    return [m["content"] for m in recall(api, query, **fields)]


PARIS_TURN = "User: I live in Paris.\nAssistant: So Dana lives in Paris, lovely."
SAID_AGAIN = "User: As I said, I'm living in Paris.\nAssistant: Right."
FRIEND = "User: My friend from Paris visited.\nAssistant: Fun!"
MOVED = "User: I moved to Berlin from Paris.\nAssistant: Welcome to Berlin!"


@pytest.fixture()
def moved(api: httpx.Client) -> str:
    """Dana said where she lives, then that she moved: the Paris turn holds both of the question's words."""
    thread = new_thread(api)
    say(api, thread, "My name is Dana.", "Hello Dana!")
    say(api, thread, "I live in Paris.", "So Dana lives in Paris, lovely.")
    say(api, thread, "My friend from Paris visited.", "Fun!")
    say(api, thread, "I work at Acme Corp.", "Noted.")
    say(api, thread, "As I said, I'm living in Paris.", "Right.")
    job = say(api, thread, "I moved to Berlin from Paris.", "Welcome to Berlin!")
    assert job["result"]["superseded"] == 1
    return thread


def test_the_current_fact_outranks_the_turn_that_restates_the_old_value(api, moved):
    ranked = contents(api, "where does Dana live?")
    assert ranked[0] == "User lives in Berlin"
    # Ranked lower, not hidden: still there for whoever reads on.
    assert PARIS_TURN in ranked[1:]
    assert "User lives in Paris" not in ranked  # the superseded fact itself is history


def test_a_question_about_the_past_still_finds_the_old_value(api, moved):
    ranked = contents(api, "where did Dana live before?")
    assert ranked[0] == PARIS_TURN
    history = contents(api, "where does Dana live?", include_history=True)
    assert {"User lives in Berlin", "User lives in Paris", PARIS_TURN} <= set(history)


def test_a_match_on_the_name_alone_does_not_outrank_the_asked_attribute(api, moved):
    ranked = contents(api, "Where does Dana work?")
    assert ranked.index("User works at Acme Corp") < ranked.index("User's name is Dana")
    assert ranked[0] == "User works at Acme Corp"
    # Asked for the name itself, the name fact is the answer.
    assert contents(api, "What is Dana's name?")[0] == "User's name is Dana"


def test_only_turns_that_restate_the_old_value_alone_are_marked(api, moved, database_url):
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT m.content, f.content FROM memories m LEFT JOIN memories f ON f.id = m.stale_by "
            "WHERE m.workspace_id = %s AND m.type = 'episodic'",
            (api.headers["X-Workspace-ID"],),
        ).fetchall()
    stale = {content: by for content, by in rows if by is not None}
    # The turn the fact came from, and a later one that says it again in other words ("living"); not the one
    # that mentions Paris for another reason, nor the one that names the new value too.
    assert stale == {PARIS_TURN: "User lives in Berlin", SAID_AGAIN: "User lives in Berlin"}
    assert {FRIEND, MOVED} <= {content for content, _ in rows}


def test_moving_back_makes_the_old_turn_current_again(api, moved):
    say(api, moved, "Actually I moved back: I live in Paris again.", "Welcome home!")
    ranked = contents(api, "where does Dana live?")
    # The Paris turn's mark names the Berlin fact, which is history now: the turn ranks on its words again
    # (both of the question's), and the Berlin fact is gone from default recall.
    assert ranked[:2] == [PARIS_TURN, "User lives in Paris"]
    assert "User lives in Berlin" not in ranked


def exported(api: httpx.Client) -> bytes:
    r = api.get(f"/v1/workspaces/{api.headers['X-Workspace-ID']}/export")
    assert r.status_code == 200, r.text
    return r.content


def exported_memories(api: httpx.Client) -> dict[str, dict]:
    lines = [json.loads(line) for line in exported(api).splitlines() if line]
    return {line["data"]["content"]: line["data"] for line in lines if line["type"] == "memory"}


def stale_marks(database_url: str, workspace_id: str) -> dict[str, str]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT m.content, f.content FROM memories m JOIN memories f ON f.id = m.stale_by "
            "WHERE m.workspace_id = %s",
            (workspace_id,),
        ).fetchall()
    return dict(rows)


def test_current_facts_survive_an_export_and_import(api, moved, database_url):
    """A workspace moved by export and import keeps which fact is current, its history, the stale marks and
    the timestamps: before, every imported fact was live again ("User lives in Paris" beside Berlin)."""
    copy = f"{api.headers['X-Workspace-ID']}_copy"
    r = api.post(
        f"/v1/workspaces/{copy}/import",
        content=exported(api),
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert r.status_code == 200 and r.json()["errors"] == 0, r.text
    with httpx.Client(base_url=str(api.base_url), timeout=30, headers={"X-Workspace-ID": copy}) as moved_api:
        ranked = contents(moved_api, "where does Dana live?")
        assert ranked[0] == "User lives in Berlin"
        assert "User lives in Paris" not in ranked
        assert PARIS_TURN in ranked[1:]
        before, after = exported_memories(api), exported_memories(moved_api)
        assert before.keys() == after.keys()
        paris, berlin = after["User lives in Paris"], after["User lives in Berlin"]
        assert paris["superseded_by"] == berlin["id"] and paris["valid_to"] is not None
        kept = (
            "created_at",
            "updated_at",
            "valid_from",
            "valid_to",
            "fact_key",
            "sequence_key",
            "type",
            "status",
        )
        for content, memory in before.items():
            assert {k: after[content][k] for k in kept} == {k: memory[k] for k in kept}, content
        assert stale_marks(database_url, copy) == {
            PARIS_TURN: "User lives in Berlin",
            SAID_AGAIN: "User lives in Berlin",
        }
        # The imported fact is the live one its key names: the next move supersedes it, not a duplicate of it.
        thread = new_thread(moved_api)
        job = say(moved_api, thread, "I moved to Madrid last month.", "Olé!")
        assert job["result"]["superseded"] == 1
        assert contents(moved_api, "where does Dana live?")[0] == "User lives in Madrid"


def test_a_second_move_keeps_the_first_value_stale(api, moved):
    """Paris, Berlin, then Madrid: the turn that says Paris stays below the current fact (its mark named the
    Berlin fact, history since Madrid; before, the mark lapsed and the Paris turn ranked first again)."""
    say(api, moved, "I moved to Madrid last month.", "Olé!")
    ranked = contents(api, "where does Dana live?")
    assert ranked[0] == "User lives in Madrid"
    assert ranked.index("User lives in Madrid") < ranked.index(PARIS_TURN)


def test_migrate_builds_the_stale_mark_lookup(api, database_url):
    # The writer looks marks up by stale_by when a fact is superseded again; migrate builds that index
    # concurrently, outside the migration files (no index on an existing table inside one: test_migration_rules).
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT indexdef FROM pg_indexes WHERE tablename = 'memories' AND indexname = 'memories_stale_by'"
        ).fetchone()
    assert row and "WHERE (stale_by IS NOT NULL)" in row[0]
