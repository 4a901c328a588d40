"""Voila started in notebooks/ (as ``voila notebooks/…`` from there, or the Voila test) reads
``notebooks/voila.json``: cells tagged ``appendix`` are removed from the dashboard (not executed, not shown).

No browser is needed: Voila renders the cells server-side (progressive rendering is off), so the
page's HTML holds every rendered cell once the GET returns.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import nbformat
import pytest
from conftest import SERVER_START_TIMEOUT, _write_lab_config, free_port, stop_process, wait_until
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def test_voila_config_removes_the_appendix(tmp_path: Path) -> None:
    config = json.loads((NOTEBOOKS / "voila.json").read_text(encoding="utf-8"))
    assert config["TagRemovePreprocessor"]["remove_cell_tags"] == ["appendix"]
    appendix = {"tags": ["appendix"]}
    cells = [
        new_markdown_cell("# 99 — A lesson\n\nThe lesson text."),
        new_code_cell("print('lesson output', 6 * 7)"),
        new_markdown_cell("## Appendix: checks", metadata=appendix),
        new_code_cell(
            "print('appendix output')",
            metadata={**appendix, "jupyter": {"source_hidden": True, "outputs_hidden": True}},
        ),
    ]
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = tmp_path / "lesson.ipynb"
    nbformat.write(new_notebook(cells=cells, metadata={"kernelspec": kernelspec}), notebook)

    env = {**os.environ, **_write_lab_config(tmp_path / "jupyter"), "PYTHONUNBUFFERED": "1"}
    port = free_port()
    log_path = tmp_path / "voila.log"
    command = [
        sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
        "--Voila.ip=127.0.0.1", "--ServerApp.port_retries=0",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=NOTEBOOKS)
    try:

        def listening() -> bool:
            if process.poll() is not None:
                pytest.fail(f"voila exited with {process.returncode}:\n{log_path.read_text(errors='replace')}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return True
            except OSError:
                return False

        wait_until(listening, SERVER_START_TIMEOUT, f"voila on port {port}")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=120) as response:
            html = response.read().decode("utf-8")
    finally:
        stop_process(process)
    assert "The lesson text." in html and "lesson output 42" in html
    assert "Appendix: checks" not in html and "appendix output" not in html
