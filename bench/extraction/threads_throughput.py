"""``python -m bench.extraction.threads_throughput [--repeat N] [--batch N]``: messages per second through
``DeterministicExtractor.extract`` on the LoCoMo dev turns, in batches as an extraction job sees them.

Two inputs, each the same turns: ``anonymous`` (no speaker, no time: the thread's user, as before speakers
existed) and ``named`` (each turn's speaker and session time, when this build's ``Message`` takes them).
Best of ``--repeat`` rounds; a round extracts every batch once.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from bench.locomo import data
from shared.domain.extraction.base import ExtractionInput, Message
from shared.domain.extraction.deterministic import DeterministicExtractor

try:  # absent before speakers: the same script measures the build before them
    from shared.domain.extraction.speakers import Speaker
except ImportError:  # pragma: no cover
    Speaker = None  # type: ignore[assignment,misc]


def batches(named: bool, size: int) -> list[ExtractionInput]:
    fields = {f.name for f in dataclasses.fields(Message)}
    messages = []
    for conv in data.load():
        for turn in conv.turns:
            kept = {"speaker": Speaker(turn.speaker)} if named and "speaker" in fields else {}
            messages.append(Message("user", turn.text, f"m{len(messages)}", turn.event_time, **kept))
    return [ExtractionInput(messages=messages[i : i + size]) for i in range(0, len(messages), size)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.extraction.threads_throughput")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--batch", type=int, default=20, help="messages per extraction job")
    args = parser.parse_args(argv)
    extractor = DeterministicExtractor()
    for label, named in (("anonymous", False), ("named", True)):
        jobs = batches(named, args.batch)
        n = sum(len(j.messages) for j in jobs)
        best = 0.0
        for _ in range(args.repeat):
            started = time.perf_counter()
            for job in jobs:
                extractor.extract(job)
            best = max(best, n / (time.perf_counter() - started))
        print(f"{label}: {n} messages, best of {args.repeat}: {best:.0f} messages/s")


if __name__ == "__main__":
    main()
