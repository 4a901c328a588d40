"""The export's command line refuses a notebook of the wrong shape as it refuses invalid JSON: usage error, exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import confusionlab as cl


def run_export(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    src = str(Path(cl.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": src}
    return subprocess.run(
        [sys.executable, "-m", "confusionlab.export", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def cell(kind: str, source: object) -> dict:
    extra = {"outputs": [], "execution_count": None} if kind == "code" else {}
    return {"cell_type": kind, "metadata": {}, "source": source, **extra}


def notebook(cells: object) -> dict:
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}


@pytest.mark.parametrize(
    ("content", "where"),
    [
        ([1, 2], ""),
        ("a string", ""),
        (notebook(5), ""),
        (notebook([cell("markdown", 5)]), "['cells'][0]['source']"),
        (notebook([cell("code", 5)]), "['cells'][0]['source']"),
    ],
    ids=["json-list", "json-string", "cells-number", "markdown-source-number", "code-source-number"],
)
def test_a_notebook_of_the_wrong_shape_is_a_usage_error(tmp_path: Path, content: object, where: str) -> None:
    bad = tmp_path / "bad.ipynb"
    bad.write_text(json.dumps(content), encoding="utf-8")
    done = run_export(str(bad), "--no-execute", "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "is not a valid notebook" in done.stderr and "Traceback" not in done.stderr
    assert where in done.stderr
    assert not (tmp_path / "out").exists()  # nothing written
