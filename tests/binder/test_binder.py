"""The Binder recipe works and is pinned: a fresh venv set up from binder/ runs the notebooks.

mybinder.org (repo2docker) installs binder/environment.yml with conda, then runs
binder/postBuild. Here a fresh virtual environment stands in for the conda one:
the environment's Python packages are pip-installed by the same specifiers, Node
is the machine's, and postBuild runs unchanged in a copy of the repository.
Every Python package the class gets is pinned to an exact version
(binder/constraints.txt, issue 25), the README's badge opens the tour, and the image
students open holds no solutions (issue 39: postBuild deletes teacher/solutions/).
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


PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_.-]*)==([0-9][^\s;]*)$")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins() -> dict[str, str]:
    lines = [line.strip() for line in (ROOT / "binder" / "constraints.txt").read_text().splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    bad = [line for line in lines if not PIN.match(line)]
    assert not bad, f"binder/constraints.txt: not 'name==version': {bad}"
    names = [_canonical(PIN.match(line).group(1)) for line in lines]
    assert len(names) == len(set(names)), "a package pinned twice"
    return {_canonical(PIN.match(line).group(1)): PIN.match(line).group(2) for line in lines}


def test_binder_pins_every_package_the_notebooks_need() -> None:
    """The runtime dependencies and the notebooks extra of pyproject.toml, and the Jupyter side, all ==-pinned."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    needed = [*project["dependencies"], *project["optional-dependencies"]["notebooks"]]
    needed = {_canonical(re.match(r"[A-Za-z0-9_.-]+", spec).group(0)) for spec in needed}
    needed |= {"jupyterlab", "ipywidgets", "ipykernel", "nbclient"}
    pins = _pins()
    assert needed <= set(pins), f"not pinned in binder/constraints.txt: {sorted(needed - set(pins))}"


def test_binder_environment_and_postbuild_use_the_pins() -> None:
    environment = (ROOT / "binder" / "environment.yml").read_text()
    assert re.search(r"^\s*-\s*python=3\.\d+\s*$", environment, re.M), "pin Python's minor version"
    assert re.search(r"^\s*-\s*nodejs=\d+\s*$", environment, re.M), "pin Node's major version"
    pins = _pins()
    for spec in _conda_pip_specs(ROOT / "binder" / "environment.yml"):
        match = PIN.match(spec)
        assert match, f"binder/environment.yml: {spec!r} is not pinned with =="
        assert pins[_canonical(match.group(1))] == match.group(2), f"{spec} disagrees with binder/constraints.txt"
    postbuild = (ROOT / "binder" / "postBuild").read_text()
    installs = [line for line in postbuild.splitlines() if re.match(r"\s*pip install", line)]
    assert installs and all("-c binder/constraints.txt" in line for line in installs), installs


def test_readme_binder_badge_opens_the_tour() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    badge = re.search(
        r"\[!\[[^\]]*\]\(https://mybinder\.org/badge[^)]*\)\]\((https://mybinder\.org/v2/gh/[^)]+)\)", readme
    )
    assert badge, "README: a Binder badge linking to mybinder.org/v2/gh/..."
    assert badge.group(1).endswith("?urlpath=lab/tree/notebooks/01_tour.ipynb")
    assert (ROOT / "notebooks" / "01_tour.ipynb").is_file()


def test_postbuild_leaves_the_solutions_out_of_the_image(tmp_path: Path) -> None:
    """postBuild, run with its installers stubbed, deletes teacher/solutions/ and keeps the students' notebooks."""
    repo = tmp_path / "repo"
    (repo / "binder").mkdir(parents=True)
    shutil.copy(ROOT / "binder" / "postBuild", repo / "binder" / "postBuild")
    (repo / "notebooks").mkdir()
    (repo / "notebooks" / "01_tour.ipynb").write_text("{}")
    (repo / "teacher" / "solutions").mkdir(parents=True)
    (repo / "teacher" / "solutions" / "01_tour_solutions.ipynb").write_text("{}")
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    for tool in ("npm", "pip", "python"):
        (stubs / tool).write_text("#!/bin/sh\nexit 0\n")
        (stubs / tool).chmod(0o755)
    env = {**os.environ, "PATH": f"{stubs}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(["bash", "binder/postBuild"], cwd=repo, env=env, check=True, capture_output=True, timeout=60)
    assert not (repo / "teacher" / "solutions").exists(), "the Binder image would show students the solutions"
    assert (repo / "notebooks" / "01_tour.ipynb").is_file()


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
        constraints = ["-c", "binder/constraints.txt"]
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", *constraints, *specs, "ipykernel", "nbclient"], **run
        )
        subprocess.run(["bash", "binder/postBuild"], **run)
        assert not (repo / "teacher" / "solutions").exists()
        out = subprocess.run([str(python), "-c", EXECUTE, *(f"notebooks/{nb}" for nb in NOTEBOOKS)], **run)
    except subprocess.CalledProcessError as error:
        pytest.fail(f"{error.cmd} failed:\n{error.stdout[-3000:]}\n{error.stderr[-3000:]}")
    assert out.stdout.count("executed") == len(NOTEBOOKS)
    assert sys.executable != str(python)  # the notebooks ran in the fresh environment, not this one
