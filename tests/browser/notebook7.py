"""Notebook 7 for browser tests, started like JupyterLab in ``conftest.py`` (SPEC Part D).

Import the fixture into a test module (``from notebook7 import notebook7``; this
directory is on ``sys.path`` because it has no ``__init__.py``):

``notebook7_server`` (session)
    A Notebook 7 server on a free port with fresh config, data, runtime, workspace and
    settings directories (the same ones the JupyterLab fixture writes); stopped at
    teardown.
``notebook7`` (function)
    A :class:`~conftest.LabSession` on that server: ``open_notebook`` opens
    ``/notebooks/<name>`` (Notebook 7's single-document page, which has the same
    Run menu as JupyterLab) and runs all cells; ``kernel(name)`` attaches a client.
"""

from __future__ import annotations

import secrets
import subprocess
import sys
import urllib.error
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import SERVER_START_TIMEOUT, JupyterLab, LabSession, _write_lab_config, free_port, wait_until


@dataclass
class Notebook7(JupyterLab):
    """A running Notebook 7 server; notebooks open in the single-document page."""

    def lab_url(self, notebook: str) -> str:
        return f"{self.url}/notebooks/{notebook}?token={self.token}"


@pytest.fixture(scope="session")
def notebook7_server(tmp_path_factory: pytest.TempPathFactory, chromium_executable: str) -> Iterator[Notebook7]:
    """Notebook 7 on a free port with fresh dirs; stopped at teardown."""
    import os

    base = tmp_path_factory.mktemp("notebook7")
    root = base / "root"
    root.mkdir()
    env = {**os.environ, **_write_lab_config(base), "PYTHONUNBUFFERED": "1"}
    port = free_port()
    token = secrets.token_hex(16)
    log_path = base / "server.log"
    command = [
        sys.executable, "-m", "notebook", "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        f"--JupyterNotebookApp.workspaces_dir={env['JUPYTERLAB_WORKSPACES_DIR']}",
        f"--JupyterNotebookApp.user_settings_dir={env['JUPYTERLAB_SETTINGS_DIR']}",
        "--allow-root",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    server = Notebook7(
        url=f"http://127.0.0.1:{port}",
        token=token,
        root_dir=root,
        runtime_dir=Path(env["JUPYTER_RUNTIME_DIR"]),
        log_path=log_path,
        process=process,
    )
    try:

        def ready() -> bool:
            if process.poll() is not None:
                pytest.fail(f"Notebook 7 exited with {process.returncode}:\n{server.log_tail()}")
            try:
                return "started" in server.api("/api/status")
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                return False

        wait_until(ready, SERVER_START_TIMEOUT, f"Notebook 7 on port {port}:\n{server.log_tail()}")
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


@pytest.fixture
def notebook7(notebook7_server: Notebook7, page: Any) -> Iterator[LabSession]:
    """A :class:`LabSession` on Notebook 7; kernels shut down after the test."""
    session = LabSession(server=notebook7_server, page=page)
    try:
        yield session
    finally:
        session.close()
