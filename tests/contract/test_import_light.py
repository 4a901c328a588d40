"""``import confusionlab`` is light: the heavy modules load when a name that needs them is first used.

Each check runs in a fresh interpreter (``sys.modules`` of the test process already holds
everything). The import time itself is a benchmark (benchmarks/RESULTS.md), not a timed test.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("scipy.stats", "scipy", "matplotlib", "pandas", "ipywidgets", "anywidget", "sklearn", "narwhals")


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_import_loads_none_of_the_heavy_modules() -> None:
    code = f"import json, sys, confusionlab; print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    loaded = json.loads(_run(code))
    assert loaded == []


def test_a_name_loads_its_modules_on_first_use() -> None:
    code = "import sys, confusionlab as cl; cl.evaluate; print('scipy.stats' in sys.modules)"
    assert _run(code).strip() == "True"  # the check above would pass for a package that imports nothing at all


@pytest.mark.parametrize(
    "first",
    [
        "import confusionlab.calibration._result",
        "import confusionlab.evaluation",
        "from confusionlab.calibration import CalibrationSet",
        "import confusionlab.widgets.calibration_view",
    ],
)
def test_calibration_stays_the_function_whichever_module_is_imported_first(first: str) -> None:
    """The function shares its subpackage's name; importing the subpackage by any route must not rebind it."""
    code = f"{first}\nimport confusionlab as cl\ncl.evaluate\nf = cl.calibration\nprint(callable(f), f.__module__)"
    assert _run(code).split() == ["True", "confusionlab.calibration._calibration"]


def test_star_import_binds_every_public_name() -> None:
    code = "import confusionlab as cl\nns = {}\nexec('from confusionlab import *', ns)\n"
    code += "print(sorted(set(cl.__all__) - set(ns)))"
    assert _run(code).strip() == "[]"
