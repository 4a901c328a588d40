"""The Binder recipe works: a fresh venv set up from binder/ runs the notebooks.

mybinder.org (repo2docker) installs binder/environment.yml with conda, then runs
binder/postBuild. Here a fresh virtual environment stands in for the conda one:
the environment's Python packages are pip-installed by the same specifiers, Node
is the machine's, and postBuild runs unchanged in a copy of the repository.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# One notebook per kind of dependency: widgets only, matplotlib, pandas + scikit-learn, statsmodels.
NOTEBOOKS = ["01_tour.ipynb", "03_discreteness.ipynb", "06_is_my_model_better.ipynb", "08_bias_adult.ipynb"]
EXECUTE = """
import sys, nbformat
from nbclient import NotebookClient
for path in sys.argv[1:]:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    print("executed", path)
"""


def _conda_pip_specs(environment: Path) -> list[str]:
    """Package specifiers of environment.yml, less what the machine itself provides."""
    specs = re.findall(r"^\s*-\s*(\S.*?)\s*$", environment.read_text(), flags=re.M)
    return [s for s in specs if not re.match(r"^(python|nodejs|pip)\b", s) and "conda-forge" not in s]


@pytest.mark.slow
def test_fresh_environment_from_binder_files_runs_the_notebooks(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(
        ROOT,
        repo,
        ignore=shutil.ignore_patterns(
            ".venv",
            "node_modules",
            "static",
            ".git",
            "__pycache__",
            ".pytest_cache",
            ".hypothesis",
            ".ruff_cache",
            "benchmarks",
        ),
    )
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    env = {**os.environ, "PATH": f"{env_dir / 'bin'}{os.pathsep}{os.environ['PATH']}", "VIRTUAL_ENV": str(env_dir)}
    env.pop("PYTHONPATH", None)
    specs = _conda_pip_specs(repo / "binder" / "environment.yml")
    assert any(s.startswith("jupyterlab") for s in specs), specs
    # repo2docker's images always carry a Python kernel and nbclient (via jupyter_server/nbconvert)
    run = dict(cwd=repo, env=env, check=True, capture_output=True, text=True, timeout=1200)
    try:
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", *specs, "ipykernel", "nbclient"], **run)
        subprocess.run(["bash", "binder/postBuild"], **run)
        out = subprocess.run([str(python), "-c", EXECUTE, *(f"notebooks/{nb}" for nb in NOTEBOOKS)], **run)
    except subprocess.CalledProcessError as error:
        pytest.fail(f"{error.cmd} failed:\n{error.stdout[-3000:]}\n{error.stderr[-3000:]}")
    assert out.stdout.count("executed") == len(NOTEBOOKS)
    assert sys.executable != str(python)  # the notebooks ran in the fresh environment, not this one
