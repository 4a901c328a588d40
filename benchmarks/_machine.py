"""The machine line the browser benchmarks print: architecture, cores, Python, load averages."""

from __future__ import annotations

import os
import platform


def machine(load_before: tuple[float, float, float]) -> str:
    """Describe this machine with the load averages (1/5/15 min) before and after a run."""
    load = "/".join(f"{a:.1f}" for a in load_before) + " before, " + "/".join(f"{a:.1f}" for a in os.getloadavg())
    return (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average (1/5/15 min) {load} after"
    )
