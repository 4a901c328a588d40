"""Views know results, results do not import views: the registry behind ``Result.view()``.

A widget module registers the view of a result class; ``Result.view()`` looks the class up
along its MRO and loads :mod:`confusionlab.widgets` on first use. No module below the
widgets (nor the package root, save its lazy public attributes) imports them.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import confusionlab
from confusionlab._result import Result
from confusionlab._views import register_view, registered_view, view_for, view_of

SRC = Path(confusionlab.__file__).parent

#: Modules allowed to import the widgets: the widgets themselves, the layer above them, and the
#: package root (its lazy public attributes name widget modules).
ABOVE_RESULTS = ("confusionlab.widgets", "confusionlab.lessons", "confusionlab.export")

#: Result classes whose ``view()`` is another result's view (no registration of their own).
DERIVED_VIEWS = {"Ranking": "the PairedView of its two classifiers most likely best"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path) -> set[str]:
    """The absolute names of every module ``path`` imports (relative imports resolved)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package) if node.level else ""
            base = base or node.module or ""
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
    return out


def test_no_module_below_the_widgets_imports_them() -> None:
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        name = _module_name(path)
        if name == "confusionlab" or name.startswith(ABOVE_RESULTS):
            continue
        hits = sorted(
            m for m in _imported(path) if m == "confusionlab.widgets" or m.startswith("confusionlab.widgets.")
        )
        if hits:
            offenders.append(f"{name} imports {', '.join(hits)}")
    assert not offenders, offenders


def test_importing_a_result_does_not_load_the_widgets() -> None:
    code = (
        "import sys, numpy as np, confusionlab as cl;"
        "from confusionlab import bias, calibration, evaluation, paired, planner, scores, stability;"
        "cl.metric_distribution(cl.ConfusionMatrix(tp=8, fn=2, fp=3, tn=7), 'accuracy');"
        "print(any(m == 'confusionlab.widgets' or m.startswith('confusionlab.widgets.') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_every_result_class_has_a_view() -> None:
    for module in pkgutil.walk_packages(confusionlab.__path__, "confusionlab."):
        if not module.name.startswith(("confusionlab.lessons", "confusionlab.export")):
            importlib.import_module(module.name)
    missing = [
        cls.__name__
        for cls in Result.registry
        if cls.__module__.startswith("confusionlab.")
        and registered_view(cls) is None
        and cls.__name__ not in DERIVED_VIEWS
    ]
    assert not missing, f"no view registered for {missing}"
    for name in DERIVED_VIEWS:
        cls = next(c for c in Result.registry if c.__name__ == name)
        assert "view" in vars(cls), f"{name} names a derived view but has no view() of its own"


def test_a_subclass_takes_its_base_view_unless_it_registers_its_own() -> None:
    class _Base(Result):
        pass

    class _Child(_Base):
        pass

    class _Own(_Base):
        pass

    @view_for(_Base)
    def base_view(result, *, colour="grey"):
        return ("base", type(result).__name__, colour)

    register_view(_Own, lambda result: ("own", type(result).__name__))
    assert _Child().view(colour="red") == ("base", "_Child", "red")
    assert _Own().view() == ("own", "_Own")
    assert view_of(_Base()) == ("base", "_Base", "grey")
    assert registered_view(_Child) is base_view


def test_a_result_without_a_view_says_so() -> None:
    class _Orphan(Result):
        pass

    with pytest.raises(NotImplementedError, match=r"no view is registered for _Orphan.*\.plot\(\)"):
        _Orphan().view()


def test_register_view_refuses_what_is_not_a_class_or_not_callable() -> None:
    with pytest.raises(confusionlab.InvalidParameterError, match="result_class must be a class"):
        register_view("Calibration", print)
    with pytest.raises(confusionlab.InvalidParameterError, match="factory must be callable"):
        register_view(Result, "CalibrationView")
