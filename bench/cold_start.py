"""Lambda cold-start cost here: the import time of each handler module, in fresh interpreters.

    python -m bench.cold_start [--runs 7]

Baselines from the same run: an empty interpreter, and ``import fastapi`` alone (the floor of any FastAPI
handler). Heavy work (pool, embedder, SDKs) is deferred to the first request, so it is not counted here.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

HANDLERS = ["memory", "sessions", "context", "extraction", "cleanup", "migrate"]


def import_ms(statement: str, runs: int) -> float:
    """Median wall time of ``python -c statement`` minus nothing: each run is a cold interpreter."""
    samples = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True, check=True
        )
        # importtime lines: "import time: self | cumulative | name"; top-level modules have no indent.
        total = sum(
            int(line.split("|")[1])
            for line in out.stderr.splitlines()
            if line.startswith("import time:")
            and "|" in line
            and not line.split("|")[2].startswith("  ")
            and line.split("|")[1].strip().isdigit()
        )
        samples.append(total / 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    floor = import_ms("import fastapi", args.runs)
    print(f"load average {os.getloadavg()[0]:.1f}; baseline `import fastapi`: {floor:.0f} ms\n")
    print("| handler | import ms (median) | × fastapi |\n|---|---|---|")
    for name in HANDLERS:
        ms = import_ms(f"import functions.{name}.handler", args.runs)
        print(f"| functions/{name}/handler.py | {ms:.0f} | {ms / floor:.2f} |")


if __name__ == "__main__":
    main()
