"""A missing optional dependency is named with the extra that installs it, not met as a bare ModuleNotFoundError.

Each case runs in a fresh interpreter in which the optional module is made unimportable
(``sys.modules[name] = None``, what Python does for a module that is not installed), then
makes the call a user on ``pip install confusionlab`` would make.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from confusionlab._deps import require

CM = "cl.ConfusionMatrix(tp=8, fn=2, fp=3, tn=7)"
DIST = f"cl.metric_distribution({CM}, 'accuracy')"


def _run_without(blocked: str, code: str) -> subprocess.CompletedProcess[str]:
    script = f"import sys\nsys.modules[{blocked!r}] = None\nimport confusionlab as cl\n" + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize(
    ("blocked", "code", "extra", "purpose"),
    [
        ("pandas", f"{DIST}.to_frame()", "notebooks", "to_frame()"),
        ("pandas", "cl.plan_test_size('accuracy', prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1).to_frame()",
         "notebooks", "to_frame()"),
        ("pandas", "cl.calibration([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4], bins=2).to_frame()", "notebooks", "to_frame()"),
        ("matplotlib", f"{DIST}.plot()", "notebooks", "plot()"),
        ("matplotlib", "cl.roc_curve([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4]).to_html()", "notebooks", "to_html()"),
        ("matplotlib", "import confusionlab.lessons", "notebooks", "confusionlab.lessons"),
        ("pandas", "cl.AuditView", "bias", "the bias audit"),
        ("pandas", "from confusionlab.bias import audit", "bias", "the bias audit"),
        ("pandas", "from confusionlab.datasets import load_adult; load_adult()", "bias", "load_adult()"),
        ("nbconvert", "import confusionlab.export", "export", "confusionlab.export"),
    ],
)  # fmt: skip
def test_the_error_names_the_extra(blocked: str, code: str, extra: str, purpose: str) -> None:
    if blocked == "nbconvert":  # the export imports nbconvert when it converts: give it a notebook to convert
        code = (
            "import pathlib, tempfile, nbformat\nfolder = pathlib.Path(tempfile.mkdtemp())\n"
            "nbformat.write(nbformat.v4.new_notebook(), folder / 'a.ipynb')\n"
            "import confusionlab.export\nconfusionlab.export.to_html(folder / 'a.ipynb', folder / 'out', execute=False)"
        )
    done = _run_without(blocked, code)
    assert done.returncode != 0, done.stdout
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: "), done.stderr
    assert f'pip install "confusionlab[{extra}]"' in last
    assert purpose in last and blocked in last


def test_the_extras_named_exist_and_bring_the_module() -> None:
    """Every (module, extra) pair the package names is true of pyproject.toml."""
    import re

    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    root = Path(__file__).resolve().parents[2]
    extras = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    distributions = {"sklearn": "scikit-learn"}
    files = [p for p in (root / "src" / "confusionlab").rglob("*.py") if p.name != "_deps.py"]
    sources = "\n".join(p.read_text(encoding="utf-8") for p in files)
    pairs = set(re.findall(r'require\(\s*"([\w.]+)",\s*"(\w+)"', sources))
    assert len(pairs) >= 8  # the pattern still finds the calls
    for module, extra in pairs:
        wanted = distributions.get(module.split(".")[0], module.split(".")[0])
        names = {re.match(r"[A-Za-z0-9_.-]+", r).group(0).lower() for r in extras[extra]}
        assert wanted in names, (module, extra)


def test_what_still_works_without_pandas_and_matplotlib() -> None:
    cal = "cl.calibration([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4], bins=2)"
    code = f"print(round({DIST}.interval(0.9)[0], 4), {cal}.summary()[:20])"
    done = _run_without("pandas", "sys.modules['matplotlib'] = None\n" + code)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.split()) >= 2


def test_a_broken_dependency_of_the_module_is_not_blamed_on_the_extra(tmp_path: Path, monkeypatch) -> None:
    """The module is installed but imports something that is not: Python's own error, unchanged."""
    (tmp_path / "half_installed_pkg.py").write_text("import no_such_dependency_here\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError) as caught:
        require("half_installed_pkg", "notebooks", "plot()")
    assert caught.value.name == "no_such_dependency_here"
    assert "confusionlab[" not in str(caught.value)


def test_an_absent_module_is_named_with_its_distribution(monkeypatch) -> None:
    for name in [m for m in sys.modules if m.startswith("sklearn.")]:  # imported by an earlier test here
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "sklearn", None)
    with pytest.raises(ModuleNotFoundError, match=r'flip_test\(\) needs sklearn.*"confusionlab\[bias\]".*scikit-learn'):
        require("sklearn.neighbors", "bias", "flip_test()")
