"""LoCoMo samples as typed turns and questions: session dates parsed, evidence ids normalised.

>>> normalise_evidence(["D01:03; D2:5", "D2:5"])
['D1:3', 'D2:5']
>>> parse_session_date("1:56 pm on 8 May, 2023").isoformat()
'2023-05-08T13:56:00+00:00'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

DEFAULT_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
SCORED_CATEGORIES = (1, 2, 3, 4)

_DIA = re.compile(r"D\s*0*(\d+)\s*:\s*0*(\d+)", re.IGNORECASE)
_SESSION = re.compile(r"^session_(\d+)$")


@dataclass(frozen=True)
class Turn:
    dia_id: str
    session: int
    index: int  # position inside its session, from 0
    speaker: str
    text: str
    event_time: datetime | None

    @property
    def content(self) -> str:
        return f"{self.speaker}: {self.text}"


@dataclass(frozen=True)
class Question:
    question: str
    answer: str
    category: int
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    turns: list[Turn]
    questions: list[Question]


def normalise_evidence(raw: list[str] | str) -> list[str]:
    """``"D01:03; D2:5"`` → ``["D1:3", "D2:5"]``: no zero padding, several ids per string split, deduped."""
    items = [raw] if isinstance(raw, str) else raw
    ids = [f"D{int(s)}:{int(t)}" for item in items for s, t in _DIA.findall(str(item))]
    return list(dict.fromkeys(ids))


def parse_session_date(text: str) -> datetime | None:
    """LoCoMo dates such as ``"1:56 pm on 8 May, 2023"`` (treated as UTC); None when unparseable."""
    cleaned = re.sub(r"\s+", " ", text.strip()).replace(" on ", " ")
    for fmt in ("%I:%M %p %d %B, %Y", "%I:%M %p %d %b, %Y", "%I:%M %p %d %B %Y", "%d %B, %Y", "%d %B %Y"):
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    return None


def _conversation(sample: dict) -> Conversation:
    conv = sample["conversation"]
    sessions = sorted(int(m.group(1)) for key in conv if (m := _SESSION.match(key)))
    turns = []
    for n in sessions:
        when = parse_session_date(conv.get(f"session_{n}_date_time", ""))
        for i, turn in enumerate(conv[f"session_{n}"]):
            dia = normalise_evidence(turn["dia_id"])
            turns.append(Turn(dia[0] if dia else turn["dia_id"], n, i, turn["speaker"], turn["text"], when))
    questions = [
        Question(
            q["question"],
            str(q.get("answer", q.get("adversarial_answer", ""))),
            int(q["category"]),
            tuple(normalise_evidence(q.get("evidence", []))),
        )
        for q in sample["qa"]
    ]
    return Conversation(sample["sample_id"], (conv["speaker_a"], conv["speaker_b"]), turns, questions)


def load(path: Path = DEFAULT_DATA, only: list[str] | None = None) -> list[Conversation]:
    samples = json.loads(Path(path).read_text())
    conversations = [_conversation(s) for s in samples]
    if only:
        missing = set(only) - {c.sample_id for c in conversations}
        if missing:
            raise SystemExit(f"unknown conversations {sorted(missing)} in {path}")
        conversations = [c for c in conversations if c.sample_id in only]
    return conversations
