"""Browser-test harness: JupyterLab in headless Chromium (Debian's, driven by Playwright).

Fixtures
--------
``chromium_executable`` (session)
    Path of the system Chromium (``$CONFUSIONLAB_CHROMIUM`` or ``/usr/bin/chromium``).
    When missing, every browser test FAILS with instructions; it never skips.
``jupyter_lab`` (session)
    A :class:`JupyterLab` server on a free port with fresh config, data, runtime,
    workspace and settings directories; stopped at teardown even after failures.
``browser`` (session)
    A Playwright Chromium browser launched from ``chromium_executable``.
``page`` (function)
    A fresh browser page (own context); its console is kept in ``page.console_lines``.
``lab`` (function)
    A :class:`LabSession` bundling the three: ``lab.open_notebook(name, cells,
    wait_for=selector)`` writes a notebook, opens it, runs all cells and waits for the
    selector; ``lab.kernel(name)`` attaches a :class:`KernelClient` to its kernel.

Every wait is on a condition with a deadline; nothing sleeps for a fixed time.
"""

from __future__ import annotations

import ast
import json
import os
import queue
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
import pytest

#: Chromium flags that work on these machines (headless, no sandbox as root, no GPU, no network of its own).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HOW_TO_GET_CHROMIUM = (
    "Browser tests need Chromium and found none at {path}. Install Debian's chromium "
    "(`apt-get install -y chromium`, as root), or point $CONFUSIONLAB_CHROMIUM at a "
    "Chromium/Chrome executable. (`playwright install` cannot download browsers here.)"
)
SERVER_START_TIMEOUT = 90.0
NOTEBOOK_TIMEOUT_MS = 60_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test in this directory as a browser test, and run them last.

    Playwright's sync API keeps an asyncio loop running in the main thread for as long
    as the session-scoped browser lives; tests that check "no running loop" behaviour
    (the Explorer applies changes at once outside a kernel) must run before it starts.
    """
    here = Path(__file__).parent

    def in_browser_dir(item: pytest.Item) -> bool:
        return here in Path(str(item.fspath)).parents

    for item in items:
        if in_browser_dir(item):
            item.add_marker(pytest.mark.browser)
    items.sort(key=in_browser_dir)  # stable: keeps the order within each group


# --------------------------------------------------------------------------- helpers
def free_port() -> int:
    """A TCP port that was free a moment ago on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_process(process: subprocess.Popen) -> None:
    """Terminate a server started by a test, killing it if it does not stop within 15 s."""
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=15)


def wait_until(condition: Callable[[], Any], timeout: float, message: str, interval: float = 0.05) -> Any:
    """Poll ``condition`` until it returns something truthy; fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f} s: {message}")
        time.sleep(interval)  # polling interval, not a wait for an outcome


@dataclass
class JupyterLab:
    """A running JupyterLab server started by :func:`jupyter_lab`."""

    url: str
    token: str
    root_dir: Path
    runtime_dir: Path
    log_path: Path
    process: subprocess.Popen[bytes]

    def api(self, path: str, method: str = "GET", body: Any = None) -> Any:
        """Call the REST API (``path`` like ``/api/sessions``) and decode the JSON reply."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.url}{path}",
            data=data,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as reply:
            raw = reply.read()
        return json.loads(raw) if raw else None

    def lab_url(self, notebook: str) -> str:
        """URL that opens ``notebook`` alone (relative to the root dir) in JupyterLab.

        ``reset`` drops the saved workspace, so notebooks opened by earlier tests in the
        same server do not come back as hidden tabs that selectors could pick up.
        """
        return f"{self.url}/lab/tree/{notebook}?reset&token={self.token}"

    def log_tail(self, lines: int = 40) -> str:
        """Last lines of the server's log, for failure messages."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def write_notebook(self, name: str, cells: list[str]) -> Path:
        """Write a notebook of code cells into the server's root dir."""
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
        nb.metadata["kernelspec"] = {
            "name": "python3",
            "display_name": "Python 3 (ipykernel)",
            "language": "python",
        }
        path = self.root_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, path)
        return path

    def kernel_id(self, notebook: str, timeout: float = 30.0) -> str:
        """Id of the kernel of the session running ``notebook``."""

        def find() -> str | None:
            for session in self.api("/api/sessions"):
                if session.get("path") == notebook and session.get("kernel"):
                    return session["kernel"]["id"]
            return None

        return wait_until(find, timeout, f"no kernel session for {notebook}")


class KernelClient:
    """A ``jupyter_client.BlockingKernelClient`` attached to a notebook's kernel.

    ``execute(code)`` runs code in the notebook's namespace and returns when the
    kernel has replied to that very request (matched by ``msg_id``); an error in
    the code fails the test with the kernel's traceback.
    """

    def __init__(self, connection_file: Path) -> None:
        from jupyter_client import BlockingKernelClient

        self.client = BlockingKernelClient(connection_file=str(connection_file))
        self.client.load_connection_file()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=30)

    def _reply(self, msg_id: str, what: str, timeout: float) -> dict[str, Any]:
        """The ``execute_reply`` whose parent is ``msg_id`` (other replies are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                pytest.fail(f"kernel did not reply within {timeout} s to {what}")
            try:
                reply = self.client.get_shell_msg(timeout=remaining)
            except queue.Empty:
                continue
            if reply["parent_header"].get("msg_id") == msg_id:
                return reply["content"]

    def execute(self, code: str, timeout: float = 60.0) -> dict[str, Any]:
        """Run ``code``; return the ``execute_reply`` content (status ``ok``)."""
        msg_id = self.client.execute(code, store_history=False)
        content = self._reply(msg_id, f"code:\n{code}", timeout)
        if content["status"] != "ok":
            trace = "\n".join(content.get("traceback", []))
            pytest.fail(f"kernel error running:\n{code}\n{content.get('ename')}: {content.get('evalue')}\n{trace}")
        return content

    def evaluate(self, expression: str, timeout: float = 60.0) -> Any:
        """Value of a JSON-serialisable Python ``expression`` evaluated in the kernel."""
        msg_id = self.client.execute(
            "",
            store_history=False,
            user_expressions={"value": f"__import__('json').dumps({expression})"},
        )
        result = self._reply(msg_id, f"expression {expression}", timeout)["user_expressions"]
        value = result["value"]
        if value["status"] != "ok":
            pytest.fail(f"kernel error evaluating {expression}: {value}")
        return json.loads(ast.literal_eval(value["data"]["text/plain"]))

    def close(self) -> None:
        """Stop the client's channels (the kernel keeps running)."""
        self.client.stop_channels()


@dataclass
class LabSession:
    """One test's view of the shared JupyterLab: a page plus helpers."""

    server: JupyterLab
    page: Any
    kernels: list[KernelClient] = field(default_factory=list)

    def open_notebook(
        self,
        name: str,
        cells: list[str],
        wait_for: str | None = None,
        timeout_ms: int = NOTEBOOK_TIMEOUT_MS,
    ) -> None:
        """Write ``cells`` as notebook ``name``, open it, run all cells, wait for ``wait_for``."""
        page = self.page
        self.server.write_notebook(name, cells)
        page.goto(self.server.lab_url(name))
        page.wait_for_selector(".jp-Notebook .jp-Cell .jp-InputArea-prompt", timeout=timeout_ms)
        # Wait for the kernel to be up before Run All (server-side state, not the UI).
        kernel_id = self.server.kernel_id(name, timeout=timeout_ms / 1000)
        wait_until(
            lambda: self.server.api(f"/api/kernels/{kernel_id}").get("execution_state") == "idle",
            timeout_ms / 1000,
            f"kernel of {name} never became idle:\n{self.server.log_tail()}",
        )
        page.locator(".jp-Notebook .jp-Cell .jp-InputArea-prompt").first.click()
        page.keyboard.press("Escape")
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
        if wait_for:
            try:
                page.wait_for_selector(wait_for, timeout=timeout_ms)
            except Exception as error:  # add what the page showed to the failure
                errors = page.locator(".jp-OutputArea-output[data-mime-type*='error']")
                shown = "\n".join(errors.all_inner_texts()) if errors.count() else "(none)"
                pytest.fail(
                    f"{wait_for!r} did not appear in {name}: {error}\n"
                    f"cell errors: {shown}\nbrowser console:\n"
                    + "\n".join(getattr(page, "console_lines", [])[-30:])
                    + f"\nserver log:\n{self.server.log_tail()}"
                )

    def kernel(self, notebook: str) -> KernelClient:
        """A kernel client attached to ``notebook``'s kernel (closed after the test)."""
        kernel_id = self.server.kernel_id(notebook)
        path = self.server.runtime_dir / f"kernel-{kernel_id}.json"
        wait_until(path.exists, 30, f"connection file {path} never appeared")
        client = KernelClient(path)
        self.kernels.append(client)
        return client

    def close(self) -> None:
        """Close the kernel clients and shut down this session's kernels."""
        for client in self.kernels:
            client.close()
        for session in self.server.api("/api/sessions"):
            try:
                self.server.api(f"/api/sessions/{session['id']}", method="DELETE")
            except urllib.error.URLError:
                pass


# -------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="session")
def chromium_executable() -> str:
    """The system Chromium; a missing browser FAILS the test (never a skip)."""
    path = os.environ.get("CONFUSIONLAB_CHROMIUM", "/usr/bin/chromium")
    resolved = shutil.which(path) or (path if os.access(path, os.X_OK) else None)
    if not resolved:
        pytest.fail(HOW_TO_GET_CHROMIUM.format(path=path), pytrace=False)
    return resolved


def _write_lab_config(base: Path) -> dict[str, str]:
    """Fresh Jupyter dirs under ``base``; returns the environment that points at them."""
    dirs = {name: base / name for name in ("config", "data", "runtime", "ipython", "ws", "settings")}
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    labconfig = dirs["config"] / "labconfig"
    labconfig.mkdir()
    (labconfig / "page_config.json").write_text(
        json.dumps({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}})
    )
    tracker = dirs["settings"] / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True)
    (tracker / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    return {
        "JUPYTER_CONFIG_DIR": str(dirs["config"]),
        "JUPYTER_DATA_DIR": str(dirs["data"]),
        "JUPYTER_RUNTIME_DIR": str(dirs["runtime"]),
        "IPYTHONDIR": str(dirs["ipython"]),
        "JUPYTERLAB_WORKSPACES_DIR": str(dirs["ws"]),
        "JUPYTERLAB_SETTINGS_DIR": str(dirs["settings"]),
    }


@contextmanager
def running_server(base: Path, app: str, server_class: type[JupyterLab] = JupyterLab) -> Iterator[JupyterLab]:
    """Start ``python -m <app>`` (``jupyterlab`` or ``notebook``) for the tests.

    Free port, token, fresh config/data/runtime/workspace/settings dirs under ``base``;
    ready when ``/api/status`` answers; terminated on exit, even after a failure.
    """
    root = base / "root"
    root.mkdir()
    env = {**os.environ, **_write_lab_config(base), "PYTHONUNBUFFERED": "1"}
    port = free_port()
    token = secrets.token_hex(16)
    log_path = base / "server.log"
    app_class = {"jupyterlab": "LabApp", "notebook": "JupyterNotebookApp"}[app]
    command = [
        sys.executable, "-m", app, "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        f"--{app_class}.workspaces_dir={env['JUPYTERLAB_WORKSPACES_DIR']}",
        f"--{app_class}.user_settings_dir={env['JUPYTERLAB_SETTINGS_DIR']}",
        "--allow-root",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    server = server_class(
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
                pytest.fail(f"{app} exited with {process.returncode}:\n{server.log_tail()}")
            try:
                return "started" in server.api("/api/status")
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                return False

        wait_until(ready, SERVER_START_TIMEOUT, f"{app} on port {port}:\n{server.log_tail()}")
        yield server
    finally:
        stop_process(process)


@pytest.fixture(scope="session")
def jupyter_lab(tmp_path_factory: pytest.TempPathFactory, chromium_executable: str) -> Iterator[JupyterLab]:
    """JupyterLab on a free port with fresh dirs; stopped at teardown.

    Depends on ``chromium_executable`` only to fail fast when there is no browser.
    """
    with running_server(tmp_path_factory.mktemp("jupyterlab"), "jupyterlab") as server:
        yield server


@dataclass
class Notebook7(JupyterLab):
    """A running Notebook 7 server; notebooks open in its single-document page."""

    def lab_url(self, notebook: str) -> str:
        return f"{self.url}/notebooks/{notebook}?token={self.token}"


@pytest.fixture(scope="session")
def notebook7_server(tmp_path_factory: pytest.TempPathFactory, chromium_executable: str) -> Iterator[JupyterLab]:
    """Notebook 7 on a free port with fresh dirs; stopped at teardown."""
    with running_server(tmp_path_factory.mktemp("notebook7"), "notebook", Notebook7) as server:
        yield server


@pytest.fixture(scope="session")
def browser(chromium_executable: str) -> Iterator[Any]:
    """Headless Chromium driven by Playwright (system browser, fresh profile)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=chromium_executable, args=CHROMIUM_ARGS, headless=True)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture
def exported_page(browser: Any, tmp_path: Path) -> Callable[..., Any]:
    """Export notebook cells with :func:`confusionlab.export.to_html` and open the page from disk offline.

    ``with exported_page(cells, name="views", viewport=(1400, 1000)) as page: ...`` executes the
    cells, writes the static HTML into ``tmp_path / "html"``, opens it in a fresh browser context in which
    every request that is not ``file:``, ``blob:`` or ``data:`` is refused and recorded, and,
    when the block ends without an error, asserts that nothing was fetched.
    """
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    from confusionlab.export import to_html

    @contextmanager
    def open_page(cells: list[str], *, name: str = "export", viewport: tuple[int, int] = (1400, 1000)) -> Iterator[Any]:
        notebook = tmp_path / f"{name}.ipynb"
        kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(
            new_notebook(cells=[new_code_cell(c) for c in cells], metadata={"kernelspec": kernelspec}), notebook
        )
        page_path = to_html(notebook, tmp_path / "html")
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        page = context.new_page()
        fetched: list[str] = []

        def only_local(route: Any) -> None:
            url = route.request.url
            if url.startswith(("file:", "blob:", "data:")):
                route.continue_()
            else:
                fetched.append(url)
                route.abort()

        page.route("**/*", only_local)
        try:
            page.goto(page_path.as_uri())
            yield page
        finally:
            context.close()
        assert fetched == [], f"the exported page tried to fetch {fetched}"

    return open_page


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the item, so fixtures can tell a failed test."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """A page in its own browser context; console messages collected in ``console_lines``.

    When the test fails, a screenshot of the page is saved as ``failure.png`` in the
    test's ``tmp_path``.
    """
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    new_page = context.new_page()
    new_page.console_lines = []
    new_page.on("console", lambda msg: new_page.console_lines.append(f"{msg.type}: {msg.text}"))
    new_page.on("pageerror", lambda err: new_page.console_lines.append(f"pageerror: {err}"))
    try:
        yield new_page
    finally:
        report = getattr(request.node, "report_call", None)
        if report is not None and report.failed:
            shot = tmp_path / "failure.png"
            try:
                new_page.screenshot(path=str(shot), full_page=True)
                print(f"browser screenshot of the failure: {shot}")
            except Exception as error:  # the page may be gone; the failure is what matters
                print(f"no failure screenshot: {error}")
        context.close()


@pytest.fixture
def lab(jupyter_lab: JupyterLab, page: Any) -> Iterator[LabSession]:
    """A :class:`LabSession`: open notebooks, talk to their kernels; cleaned up after.

    Each test starts from the default (light) theme, whatever an earlier test chose.
    """
    jupyter_lab.api("/lab/api/settings/@jupyterlab/apputils-extension:themes", method="PUT", body={"raw": "{}"})
    session = LabSession(server=jupyter_lab, page=page)
    try:
        yield session
    finally:
        session.close()


@pytest.fixture
def notebook7(notebook7_server: JupyterLab, page: Any) -> Iterator[LabSession]:
    """A :class:`LabSession` on Notebook 7 (same Run menu as JupyterLab); cleaned up after."""
    session = LabSession(server=notebook7_server, page=page)
    try:
        yield session
    finally:
        session.close()
