"""A generated knowledge-work corpus: tickets (Jira), pull requests (GitHub), design documents (Confluence),
decisions (ADRs) and emails, each a connector envelope as a connector would send it, and questions whose gold
answers are the memories that hold the fact.

    >>> corpus = generate(seed=7)
    >>> len(corpus.records) >= 500, len(corpus.questions) >= 100
    (True, True)

The people, reviewers, owners and dependencies live in the envelopes' fields, not in the memory text, as in
real connector records: a question about them is a question about relations.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

FIRST = ["Ann", "Bob", "Cy", "Dana", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jin", "Kai", "Lea", "Max", "Nia", "Oli",
         "Pia", "Quin", "Rui", "Sam", "Tess"]  # fmt: skip
LAST = ["Lee", "Stone", "Ng", "Ortiz", "Berg", "Khan", "Moss", "Ito", "Varga", "Reyes"]
PROJECTS = ["Atlas", "Beacon", "Cobalt", "Delta", "Ember", "Falcon", "Garnet", "Harbor"]
SERVICES = ["billing service", "auth gateway", "search indexer", "payments api", "notification hub", "ledger",
            "session store", "image resizer", "export worker", "rate limiter", "feature flags", "audit log",
            "report builder", "tax engine", "inventory sync", "webhook relay", "cdn edge", "scheduler",
            "geo lookup", "pricing engine"]  # fmt: skip
TOPICS = ["caching", "retries", "sharding", "encryption", "observability", "rate limits", "schema migrations",
          "queue backpressure", "feature rollout", "data retention", "failover", "cost control"]  # fmt: skip
PROBLEMS = ["timeouts", "memory leak", "stale reads", "duplicate events", "slow startup", "crash on empty input",
            "wrong totals", "race condition", "missing metrics", "high latency"]  # fmt: skip
REGIONS = ["EU", "US", "APAC", "staging", "canary"]
CHOICES = ["Redis", "Postgres", "Kafka", "SQS", "gRPC", "OpenTelemetry", "Envoy", "DynamoDB"]


@dataclass
class Record:
    kind: str
    content: str
    metadata: dict[str, Any]


@dataclass
class Question:
    kind: str
    query: str
    gold: list[int]  # indexes into records


@dataclass
class Corpus:
    records: list[Record] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def generate(seed: int = 7, *, tickets: int = 200, prs: int = 150, docs: int = 100, adrs: int = 60,
             emails: int = 60) -> Corpus:  # fmt: skip
    rng = random.Random(seed)
    people = [f"{f} {last}" for f in FIRST for last in LAST]
    rng.shuffle(people)
    people = people[:60]
    c = Corpus()
    ticket_meta: list[dict[str, Any]] = []
    used: set[str] = set()

    def add(kind: str, content: str, metadata: dict[str, Any]) -> int:
        c.records.append(Record(kind, content, metadata))
        return len(c.records) - 1

    # Tickets.
    ticket_idx: list[int] = []
    for n in range(tickets):
        project = rng.choice(PROJECTS)
        key = f"{project[:3].upper()}-{100 + n}"
        while True:
            summary = f"{rng.choice(PROBLEMS).capitalize()} in {rng.choice(SERVICES)} ({rng.choice(REGIONS)})"
            if summary not in used:
                used.add(summary)
                break
        info = {"key": key, "assignee": rng.choice(people), "reporter": rng.choice(people), "project": project,
                "service": summary.split(" in ")[1].split(" (")[0], "blocked_by": None}  # fmt: skip
        fields: dict[str, Any] = {
            "summary": summary,
            "assignee": {
                "displayName": info["assignee"],
                "accountId": f"acc-{people.index(info['assignee'])}",
            },
            "reporter": {"displayName": info["reporter"]},
            "project": {"name": project},
            "components": [info["service"]],
            "labels": [rng.choice(TOPICS)],
            "status": rng.choice(["Open", "In Progress", "Done"]),
        }
        if ticket_meta and rng.random() < 0.3:
            blocker = rng.choice(ticket_meta)
            info["blocked_by"] = blocker["key"]
            fields["blockers"] = [blocker["key"]]
        ticket_meta.append(info)
        content = f"{summary}. Customers see errors intermittently; logs attached to the ticket."
        ticket_idx.append(add("ticket", content, {"connector_type": "jira",
                                                  "connector_record": {"key": key, "fields": fields}}))  # fmt: skip

    # Pull requests, each fixing one ticket.
    pr_info: list[dict[str, Any]] = []
    for n in range(prs):
        t = rng.randrange(len(ticket_meta))
        ticket = ticket_meta[t]
        author = rng.choice(people)
        reviewers = rng.sample([p for p in people if p != author], rng.randint(1, 2))
        title = f"Fix {c.records[ticket_idx[t]].content.split('.')[0].lower()} [#{500 + n}]"
        meta = {"connector_type": "github", "github_type": "pull_request", "github_title": title,
                "github_number": 500 + n, "github_repo": f"acme/{ticket['project'].lower()}",
                "github_author": {"login": author.split()[0].lower(), "name": author, "type": "User"},
                "github_reviewers": [{"login": r.split()[0].lower(), "name": r} for r in reviewers],
                "references": [ticket["key"]], "github_state": "merged"}  # fmt: skip
        idx = add("pr", f"{title}. Fixes {ticket['key']}. Adds a regression test.", meta)
        pr_info.append({"idx": idx, "ticket": ticket["key"], "reviewers": reviewers, "author": author})

    # Design documents.
    doc_info: list[dict[str, Any]] = []
    for n in range(docs):
        topic, owner = rng.choice(TOPICS), rng.choice(people)
        deps = rng.sample(SERVICES, rng.randint(1, 3))
        title = f"Design: {topic} for {rng.choice(PROJECTS)} v{n}"
        meta = {"connector_type": "confluence", "title": title, "author": owner, "depends_on": deps,
                "topics": [topic], "space": rng.choice(PROJECTS)}  # fmt: skip
        idx = add("doc", f"{title}. Describes the approach, the risks and the rollout plan.", meta)
        doc_info.append({"idx": idx, "deps": deps})

    # Decisions.
    adr_info: list[dict[str, Any]] = []
    for n in range(adrs):
        topic, who, choice = rng.choice(TOPICS), rng.choice(people), rng.choice(CHOICES)
        title = f"ADR-{n}: use {choice} for {topic}"
        meta = {"connector_type": "confluence", "record_type": "adr", "title": title, "decided_by": who,
                "topics": [topic], "affects": [rng.choice(SERVICES)]}  # fmt: skip
        idx = add("adr", f"{title}. Accepted after review of alternatives.", meta)
        adr_info.append({"idx": idx, "who": who, "topic": topic})

    # Emails.
    mail_info: list[dict[str, Any]] = []
    for n in range(emails):
        sender = rng.choice(people)
        to = rng.sample([p for p in people if p != sender], 2)
        subject = f"Re: {rng.choice(TOPICS)} plan #{n}"
        meta = {
            "connector_type": "email",
            "subject": subject,
            "sender": sender,
            "to": to,
            "message_id": f"m-{n}",
        }
        idx = add("email", f"{subject}: see the notes from the sync; next steps inside.", meta)
        mail_info.append({"idx": idx, "sender": sender, "to": to})

    # Questions.
    for pr in rng.sample(pr_info, 30):
        gold = [p["idx"] for p in pr_info if p["ticket"] == pr["ticket"]]
        c.questions.append(
            Question("reviewed_pr_of_ticket", f"Who reviewed the PR that fixed {pr['ticket']}?", gold)
        )
    services_with_docs = sorted({s for d in doc_info for s in d["deps"]})
    for service in rng.sample(services_with_docs, min(20, len(services_with_docs))):
        gold = [d["idx"] for d in doc_info if service in d["deps"]]
        c.questions.append(Question("depends_on", f"What depends on the {service}?", gold))
    for adr in rng.sample(adr_info, 25):
        gold = [a["idx"] for a in adr_info if a["who"] == adr["who"] and a["topic"] == adr["topic"]]
        c.questions.append(
            Question("decided_about", f"What did {adr['who']} decide about {adr['topic']}?", gold)
        )
    for t in rng.sample(range(len(ticket_meta)), 15):
        c.questions.append(
            Question("assignee", f"Who is assigned to {ticket_meta[t]['key']}?", [ticket_idx[t]])
        )
    blockers = sorted({m["blocked_by"] for m in ticket_meta if m["blocked_by"]})
    for key in rng.sample(blockers, min(15, len(blockers))):
        gold = [ticket_idx[i] for i, m in enumerate(ticket_meta) if m["blocked_by"] == key]
        c.questions.append(Question("blocked_by", f"What is blocked by {key}?", gold))
    for mail in rng.sample(mail_info, 10):
        gold = [m["idx"] for m in mail_info if m["sender"] == mail["sender"] and mail["to"][0] in m["to"]]
        c.questions.append(Question("sent_to", f"What did {mail['sender']} send to {mail['to'][0]}?", gold))
    return c
