"""Wall time of ``import confusionlab`` in fresh interpreters, against its floors in the same run.

Each repetition starts one fresh process per statement, in turn (so machine noise hits every
statement alike): an empty interpreter, ``import numpy``, ``import scipy.stats`` and
``import confusionlab`` from each source tree given (``--src``, default: this checkout's
``src``; give an older checkout's ``src`` to compare before and after). Prints the medians and
the heaviest modules of ``python -X importtime -c "import confusionlab"`` for the first tree.

Usage::

    python benchmarks/bench_import.py --repeat 21
    python benchmarks/bench_import.py --src /tmp/before/src --src src
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _machine import machine

ROOT = Path(__file__).resolve().parents[1]


def _wall(code: str, src: str | None) -> float:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    return time.perf_counter() - start


def _heaviest(src: str, top: int) -> list[str]:
    env = dict(os.environ, PYTHONPATH=src)
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import confusionlab"], env=env, capture_output=True, text=True
    )
    rows = []
    for line in done.stderr.splitlines()[1:]:
        _, cumulative, name = (part.strip() for part in line.removeprefix("import time:").split("|"))
        rows.append((int(cumulative), name))
    return [f"{us / 1e3:8.1f} ms  {name}" for us, name in sorted(rows, reverse=True)[:top]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--src", action="append", help="a source tree to import confusionlab from (repeatable)")
    parser.add_argument("--top", type=int, default=8, help="heaviest modules listed from -X importtime")
    args = parser.parse_args()
    sources = args.src or [str(ROOT / "src")]
    load = os.getloadavg()
    cases = [("python -c pass", "pass", None), ("import numpy", "import numpy", None)]
    cases.append(("import scipy.stats", "import scipy.stats", None))
    cases += [(f"import confusionlab  ({src})", "import confusionlab", src) for src in sources]
    times: dict[str, list[float]] = {label: [] for label, _, _ in cases}
    for _ in range(args.repeat):
        for label, code, src in cases:
            times[label].append(_wall(code, src))
    print(machine(load))
    print(f"median wall time of a fresh process over {args.repeat} runs (min-max):")
    for label, values in times.items():
        print(f"  {statistics.median(values):6.3f} s ({min(values):.3f}-{max(values):.3f})  {label}")
    print(f"heaviest imports (cumulative, -X importtime, {sources[0]}):")
    print("\n".join("  " + row for row in _heaviest(sources[0], args.top)))


if __name__ == "__main__":
    main()
