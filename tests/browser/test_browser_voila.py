"""The tour as a Voila dashboard: ``voila notebooks/01_tour.ipynb`` serves it, the Explorer's
views draw in Chromium, laid out as in a notebook.

Voila runs on a free local port with fresh Jupyter directories (as the JupyterLab
fixture in conftest.py), is ready when its port accepts connections, and is stopped
at teardown even after a failure.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import SERVER_START_TIMEOUT, _write_lab_config, free_port, stop_process, wait_until
from test_browser_layout import MEASURE_JS, SCREEN, overlap, shots_dir, side_by_side

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
EXPLORER = ".confusionlab-explorer"


@dataclass
class Voila:
    url: str
    log_path: Path

    def log_tail(self, lines: int = 40) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


@pytest.fixture(scope="module")
def voila_tour(tmp_path_factory: pytest.TempPathFactory, chromium_executable: str) -> Iterator[Voila]:
    """``voila notebooks/01_tour.ipynb`` on a free port; terminated at teardown."""
    base = tmp_path_factory.mktemp("voila")
    env = {**os.environ, **_write_lab_config(base), "PYTHONUNBUFFERED": "1"}
    port = free_port()
    log_path = base / "voila.log"
    command = [
        sys.executable, "-m", "voila", str(NOTEBOOKS / "01_tour.ipynb"),
        "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
        "--ServerApp.port_retries=0",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=NOTEBOOKS)
    server = Voila(url=f"http://127.0.0.1:{port}/", log_path=log_path)
    try:

        def listening() -> bool:
            if process.poll() is not None:
                pytest.fail(f"voila exited with {process.returncode}:\n{server.log_tail()}")
            try:  # a connection only: a GET would start a kernel and run the notebook
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return True
            except OSError:
                return False

        wait_until(listening, SERVER_START_TIMEOUT, f"voila on port {port}:\n{server.log_tail()}")
        yield server
    finally:
        stop_process(process)


def test_voila_serves_the_tour_as_a_dashboard(voila_tour: Voila, page: Any, tmp_path: Path) -> None:
    page.set_viewport_size(SCREEN)
    page.goto(voila_tour.url)
    # The tour's last cells set N = 61 after showing the Explorer: every view follows.
    try:
        page.wait_for_selector(
            f'{EXPLORER} .confusionlab-roc-slice[data-p="20"][data-n="41"][data-metric="balanced_accuracy"]',
            timeout=90_000,
        )
        page.wait_for_selector(f'{EXPLORER} .confusionlab-metric-pmf[data-n="41"]', timeout=30_000)
        page.wait_for_selector(f'{EXPLORER} .confusionlab-simplex[data-n="61"][data-points="41664"]', timeout=30_000)
    except Exception as error:
        pytest.fail(
            f"the tour's Explorer did not draw in Voila: {error}\nbrowser console:\n"
            + "\n".join(page.console_lines[-30:])
            + f"\nvoila log:\n{voila_tour.log_tail()}"
        )
    # A dashboard: the code is hidden, the text and every other view of the tour shown.
    body = page.inner_text("body")
    assert "A tour of ConfusionLab" in body and "import confusionlab as cl" not in body
    page.wait_for_selector('.confusionlab-simplex[data-n="60"][data-points="39711"]')  # the tour's own simplex
    page.wait_for_selector('.confusionlab-roc-slice[data-p="20"][data-n="40"]')  # the tour's own slice
    page.evaluate("() => document.querySelector('.confusionlab-explorer').scrollIntoView({block: 'start'})")
    page.screenshot(path=str(shots_dir(tmp_path) / "voila_tour_1400x900.png"))
    m = page.evaluate(MEASURE_JS)
    print("Voila:", {k: m[k] for k in ("explorer", "slice", "pmf", "simplex")})
    # Laid out as in a wide notebook: slice, PMF and simplex in one row.
    assert side_by_side(m["slice"], m["pmf"]) and side_by_side(m["pmf"], m["simplex"]), m
    assert not overlap(m["slice"], m["pmf"]) and not overlap(m["pmf"], m["simplex"])
    assert all(r["shown"] for r in m["readouts"]), m["readouts"]
    assert not [t for t in m["texts"] if t["clipped"]], m["texts"]
