"""Speakers and times of thread messages, through the whole local stack: each fact goes to the person who
said it, a message's own time dates what it says, and bad speakers or times are refused whole."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.helpers.threads import recall, wait_job

SAID = "2023-05-08T13:56:00+00:00"


def _thread(api: httpx.Client, **fields) -> str:
    r = api.post("/v1/threads", json={"user_id": "caroline", **fields})
    assert r.status_code == 201, r.text
    return r.json()["thread"]["id"]


def _append(api: httpx.Client, thread: str, *messages: dict) -> httpx.Response:
    return api.post(f"/v1/threads/{thread}/messages", json={"messages": list(messages)})


def test_each_speaker_gets_their_own_facts(api):
    people = [{"name": "Caroline", "user_id": "caroline"}, {"name": "Melanie"}]
    thread = _thread(api, participants=people)
    r = _append(
        api,
        thread,
        {"role": "user", "name": "Melanie", "content": "I'm a painter and I love hiking with my kids."},
        {"role": "user", "name": "Caroline", "content": "I live in Boston."},
    )
    assert r.status_code == 201, r.text
    assert [m["name"] for m in r.json()["messages"]] == ["Melanie", "Caroline"]
    wait_job(api, r.json()["job_id"])
    found = recall(api, "hiking painter kids Boston", min_relevance=0, limit=50)
    facts = {m["content"]: m for m in found if m["type"] == "semantic"}
    assert {"Melanie likes hiking", "Melanie works as painter", "Caroline lives in Boston"} <= facts.keys()
    assert not [c for c in facts if c.startswith("User")]  # nobody is "User" once they are named
    melanie, caroline = facts["Melanie likes hiking"], facts["Caroline lives in Boston"]
    assert melanie["metadata"]["speaker"] == "Melanie" and caroline["user_id"] == "caroline"
    assert caroline["subject_id"] == "caroline"  # a participant's own user id
    # Melanie has no user id: her facts are about a person entity of her name, and recall can ask about her.
    entity = api.get("/v1/entities/resolve", params={"name": "Melanie"}).json()["resolution"]["entity"]
    assert melanie["subject_id"] == entity["id"]
    hers = recall(api, "hiking painter kids Boston", min_relevance=0, limit=50, subject_id=entity["id"])
    assert hers and all(m["subject_id"] == entity["id"] for m in hers)
    assert api.get(f"/v1/threads/{thread}").json()["thread"]["participants"] == people


def test_a_speaker_not_yet_listed_joins_the_participants(api):
    thread = _thread(api)
    r = _append(
        api, thread, {"role": "user", "name": "Jon", "speaker_id": "spk_jon", "content": "I live in Rome."}
    )
    wait_job(api, r.json()["job_id"])
    assert api.get(f"/v1/threads/{thread}").json()["thread"]["participants"] == [
        {"name": "Jon", "speaker_id": "spk_jon"}
    ]
    fact = next(
        m for m in recall(api, "Rome", min_relevance=0, limit=20) if m["content"] == "Jon lives in Rome"
    )
    assert fact["subject_id"] == "spk_jon" and fact["user_id"] == "caroline"


def test_a_messages_own_time_dates_what_it_says(api):
    thread = _thread(api)
    r = _append(
        api,
        thread,
        {"role": "user", "name": "Melanie", "content": "I adopted a puppy yesterday.", "created_at": SAID},
        {"role": "user", "content": "I live in Boston.", "occurred_at": SAID},
    )
    assert r.status_code == 201, r.text
    listed = api.get(f"/v1/threads/{thread}/messages").json()["messages"]
    assert [m["created_at"][:19] for m in listed] == ["2023-05-08T13:56:00"] * 2  # an import keeps its times
    wait_job(api, r.json()["job_id"])
    found = {m["content"]: m for m in recall(api, "puppy Boston", min_relevance=0, limit=50)}
    assert found["Melanie adopted a puppy yesterday"]["event_time"].startswith("2023-05-07")
    assert found["Melanie: I adopted a puppy yesterday."]["event_time"].startswith("2023-05-08")
    assert found["User lives in Boston"]["event_time"].startswith("2023-05-08")


def test_unnamed_messages_are_the_thread_users(api):
    thread = _thread(api)
    r = _append(
        api, thread, {"role": "user", "content": "I live in Paris."}, {"role": "assistant", "content": "Nice"}
    )
    wait_job(api, r.json()["job_id"])
    found = {m["content"]: m for m in recall(api, "Paris", min_relevance=0, limit=50)}
    assert (
        found["User lives in Paris"]["user_id"] == "caroline"
        and found["User lives in Paris"].get("subject_id") is None
    )
    assert "name" not in r.json()["messages"][0] or r.json()["messages"][0]["name"] is None


FUTURE = (datetime.now(UTC) + timedelta(days=2)).isoformat()


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"name": "   "}, "speaker_name_empty"),
        ({"name": "x" * 129}, "string_too_long"),
        ({"created_at": "last tuesday-ish"}, "datetime_from_date_parsing"),
        ({"occurred_at": FUTURE}, "time_in_future"),
        ({"created_at": SAID, "occurred_at": "2023-05-09T00:00:00Z"}, "conflicting_times"),
        ({"speaker_id": "has spaces"}, "string_pattern_mismatch"),
    ],
)
def test_bad_speakers_and_times_are_refused_whole(api, message, code):
    thread = _thread(api)
    good = {"role": "user", "content": "I live in Paris."}
    r = _append(api, thread, good, {**good, **message})
    assert r.status_code == 422, r.text
    assert code in {e["type"] for e in r.json()["detail"]}
    assert api.get(f"/v1/threads/{thread}/messages").json()["total_count"] == 0


def test_too_many_speakers_is_refused_before_anything_is_written(api):
    thread = _thread(api)
    crowd = [{"role": "user", "name": f"Speaker {i}", "content": f"I live in town {i}."} for i in range(500)]
    r = _append(api, thread, *crowd)
    assert r.status_code == 422 and r.json()["detail"][0]["type"] == "too_many_participants"
    # Under the cap in one append, past it with the thread's participants: refused by the service, whole.
    first = _append(api, thread, *crowd[:40])
    assert first.status_code == 201
    r = _append(api, thread, *crowd[40:60])
    assert r.status_code == 400 and r.json()["detail"]["code"] == "too_many_participants"
    assert api.get(f"/v1/threads/{thread}/messages").json()["total_count"] == 40
    assert len(api.get(f"/v1/threads/{thread}").json()["thread"]["participants"]) == 40
    big = [{"name": f"P{i}"} for i in range(51)]
    assert api.post("/v1/threads", json={"participants": big}).status_code == 422
