"""How bench/extraction/recorded_llm.json was written (``python -m bench.extraction.write_recordings``).

The recordings are HAND-WRITTEN, not a live model. An utterance not listed in ``OVERRIDES`` is answered as
labelled (a good model plausibly agrees with the label); each entry in ``OVERRIDES`` is where I judge a plausible
model answers differently: its own predicate names and value formats, facts about other people, over-reading a
wish or a hedge. The LLM numbers of the bench follow from these judgements; they exercise the real path (prompt,
``openai`` SDK, schema validation, candidates) and are no measurement of any model.
"""

from __future__ import annotations

import json

from bench.extraction.score import load
from bench.extraction.stub import RECORDINGS


def S(subject: str, predicate: str, value: str) -> dict[str, str]:
    return {"subject": subject, "predicate": predicate, "value": value}


def U(predicate: str, value: str) -> dict[str, str]:
    return S("user", predicate, value)


OVERRIDES = {
    "I don't eat meat anymore": [U("diet", "doesn't eat meat")],
    "I play the guitar in a small band on weekends": [U("hobby", "plays guitar in a band")],
    "My brother loves football.": [S("brother", "likes", "football")],
    "I used to love running but my knees can't take it": [U("health_condition", "knee problems")],
    "I have a severe nut allergy, so please keep that in mind": [U("allergy", "nuts")],
    "I'm lactose intolerant.": [U("health_condition", "lactose intolerant")],
    "I've got celiac disease, so gluten is out": [
        U("health_condition", "celiac disease"),
        U("diet", "gluten-free"),
    ],
    "I'm not allergic to anything as far as I know": [U("allergy", "none")],
    "My son is allergic to eggs.": [S("son", "allergy", "eggs")],
    "My mom has diabetes": [S("mother", "health_condition", "diabetes")],
    "I'm a student at UCLA studying biology": [U("school", "UCLA"), U("field_of_study", "biology")],
    "I'm retired": [U("employment_status", "retired")],
    "I left Microsoft in 2021": [U("former_employer", "Microsoft")],
    "My wife works at Pfizer": [S("wife", "employer", "Pfizer")],
    "I'd love to work at NASA someday": [U("goal", "work at NASA")],
    "I have two kids": [U("children", "2")],
    "I have a younger sister named Eve": [U("sibling", "Eve (younger sister)")],
    "my sister lives in Rome": [S("sister", "lives_in", "Rome")],
    "My daughter Mia just turned five": [U("child", "Mia"), S("mia", "age", "5")],
    "I have a dog named Biscuit": [U("pet", "dog named Biscuit")],
    "i've got two cats": [U("pet", "two cats")],
    "I'm an only child": [U("siblings", "none")],
    "My son is called Leo": [U("child", "Leo")],
    "My friend Sarah is married to Tom": [S("sarah", "partner", "Tom")],
    "I live in Austin, Texas with my partner": [U("lives_in", "Austin, Texas")],
    "I'm thinking of moving to Canada": [U("plan", "considering moving to Canada")],
    "We moved from Chicago to Denver in 2020": [U("lives_in", "Denver"), U("previously_lived_in", "Chicago")],
    "I graduated from MIT in 2015": [U("school", "MIT"), U("graduation_year", "2015")],
    "I got married in June 2019": [U("marital_status", "married"), U("wedding_date", "June 2019")],
    "I broke my leg last winter": [U("injury", "broke leg last winter")],
    "Yesterday I adopted a puppy": [U("pet", "puppy")],
    "I started at Airbnb in January": [U("employer", "Airbnb"), U("start_date", "January")],
    "I bought a house last year": [U("homeowner", "yes")],
    "Last week I got promoted to team lead": [U("job_title", "team lead")],
    "We had our first child in 2021": [U("child_birth_year", "2021")],
    "I turned 40 last Saturday!": [U("age", "40"), U("birthday", "last Saturday")],
    "my name is Dana and I turned 30 in May": [U("name", "Dana"), U("age", "30")],
    "I ran my first marathon in April": [U("event", "ran first marathon in April")],
    "I passed my driving test on Friday": [U("event", "passed driving test on Friday")],
    "I moved to Lisbon last month": [U("lives_in", "Lisbon")],
    "I was diagnosed with type 2 diabetes last year": [U("health_condition", "type 2 diabetes")],
    "I visited Peru last summer": [U("visited", "Peru")],
    "I'm planning to visit Japan next month": [U("travel_plan", "Japan next month")],
    "I'm going to run a half marathon in October": [U("goal", "run a half marathon in October")],
    "i want to learn Spanish this year": [U("goal", "learn Spanish this year")],
    "I plan to retire at 60": [U("retirement_plan", "retire at 60")],
    "Next week I'm flying to Mexico City for a conference": [
        U("plan", "flying to Mexico City for a conference next week")
    ],
    "I have a dentist appointment on Thursday": [U("appointment", "dentist on Thursday")],
    "I'm hoping to get a PhD eventually": [U("goal", "get a PhD")],
    "My goal is to read 50 books this year": [U("goal", "read 50 books this year")],
    "I'm starting a new job at Netflix on Monday": [
        U("employer", "Netflix"),
        U("plan", "start new job at Netflix on Monday"),
    ],
    "I'm going to quit smoking": [U("goal", "quit smoking")],
    "My sister is planning to move to Berlin": [S("sister", "plan", "move to Berlin")],
    "Maybe someday I'll learn to surf, who knows": [U("goal", "learn to surf")],
    "Hi! I'm Sam, I'm a vet in Leeds and I've got a border collie named Pip.": [
        U("name", "Sam"),
        U("job_title", "vet"),
        U("lives_in", "Leeds"),
        U("pet", "border collie named Pip"),
    ],
    "My name's Ana, I'm married with three kids": [
        U("name", "Ana"),
        U("marital_status", "married"),
        U("children", "3"),
    ],
    "I moved to Denver in 2020 and started working at Intel": [
        U("lives_in", "Denver"),
        U("employer", "Intel"),
    ],
    "I'm pregnant, due in August": [U("health_condition", "pregnant"), U("due_date", "August")],
    "call me Jo. I prefer short answers.": [U("name", "Jo"), U("response_style", "short answers")],
    "I'm currently unemployed and looking for work": [U("employment_status", "unemployed")],
    "my partner Alex and I just adopted a cat named Miso": [U("partner", "Alex"), U("pet", "cat named Miso")],
}


def main() -> None:
    items = load()
    texts = {i["text"] for i in items}
    assert set(OVERRIDES) <= texts, set(OVERRIDES) - texts
    out = {}
    for item in items:
        facts = OVERRIDES.get(item["text"], [U(p, v) for p, v in item["facts"]])
        out[item["text"]] = {
            "facts": [
                {
                    "content": f"{f['subject'].capitalize()} {f['predicate'].replace('_', ' ')}: {f['value']}",
                    **f,
                    "type": "semantic",
                    "importance": 0.7,
                    "relations": [],
                }
                for f in facts
            ],
            "summary": "The user shared some details about themselves."
            if facts
            else "The user asked a question.",
        }
    payload = {
        "about": "HAND-WRITTEN recordings, not a live model: how I judge a good model would answer the extraction "
        "prompt for each fixture utterance (agreeing with the label where a good model plausibly would; its own "
        "predicate names, value formats and over-reading where it plausibly would not). Replayed by "
        "bench/extraction/stub.py over the OpenAI chat-completions wire.",
        "responses": out,
    }
    RECORDINGS.write_text(json.dumps(payload, indent=1, ensure_ascii=False))
    print(f"{len(out)} recordings, {len(OVERRIDES)} differing from the label")


if __name__ == "__main__":
    main()
