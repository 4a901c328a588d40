"""The house's layers: imports go only downward, packages form no cycle, no package reaches
into another's private names, results never import their views, and no engine is named
outside its own module.

The package is read as source (``ast``), so an import inside a function counts as much as one at
the top of a module. A *unit* is a top-level module or subpackage of ``confusionlab``
(``confusionlab.scores``, ``confusionlab.metrics``); the package face ``confusionlab/__init__.py``
re-exports the public names and is no unit. Every unit has a layer in :data:`LAYERS`:

1. infrastructure — errors and parameter checks, the result base and the view registry,
   deprecation, the palette (the root's private modules);
2. the exact core — confusion matrices, labels, lattices, metrics, grouping, contours;
3. models, distributions and the input layer (``_tables``);
4. jobs — evaluation, paired, planner, scores, calibration, bias, stability, …;
5. widgets;
6. lessons, export and the report of several results (``reporting``).

A unit may import a unit of its own layer or below, never above, and the graph of units has no
cycle. The root's private modules (``confusionlab._validation``) are the library's shared
infrastructure; any other private name (a ``_module`` inside another unit, or an ``_name``) stays
inside its unit: a helper two units need moves down a layer and loses its underscore.

:data:`KNOWN` lists the violations the house still holds while it is being built; each test fails
on a violation not in it *and* on an entry that no longer occurs, so the list only shrinks.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

import confusionlab

SRC = Path(confusionlab.__file__).parent
PACKAGE = "confusionlab"

LAYERS: dict[str, int] = {
    # 1 infrastructure
    "_validation": 1,
    "_errors": 1,
    "_deps": 1,
    "_arrays": 1,
    "_result": 1,
    "_grouped": 1,
    "_deprecation": 1,
    "_views": 1,
    "_text": 1,
    "_memory": 1,
    "_missing": 1,
    "palette": 1,
    # 2 the exact core
    "confusion": 2,
    "labels": 2,
    "lattice": 2,
    "metrics": 2,
    "grouping": 2,
    "sorting": 2,
    "contours": 2,
    # 3 models, distributions, the input layer
    "models": 3,
    "distribution": 3,
    "mixture": 3,
    "_tables": 3,
    # 4 jobs
    "datasets": 4,
    "evaluation": 4,
    "paired": 4,
    "planner": 4,
    "scores": 4,
    "calibration": 4,
    "bias": 4,
    "stability": 4,
    "decision": 4,
    "items": 4,
    # 5 views
    "widgets": 5,
    # 6 lessons and export
    "lessons": 6,
    "export": 6,
    "reporting": 6,
}

VIEW_UNITS = {"widgets", "lessons", "export"}
"""Units that may import the views."""

# The violations still in the tree, as ``(rule, importer, imported)``; each entry goes when fixed.
KNOWN: set[tuple[str, str, str]] = set()

ENGINES = ("pandas", "polars", "narwhals", "dask", "spark", "duckdb", "pyarrow")
ENGINE_TEST = re.compile(r"""engine\s*(?:==|!=|\bin\b)\s*\(?["'](?P<a>\w+)["']|["'](?P<b>\w+)["']\s*==\s*engine""")


@dataclass(frozen=True)
class Import:
    """One import of a ``confusionlab`` module or name, as written in a source file."""

    importer: str
    target: str  # the module imported, or ``module.name`` for ``from module import name``
    module: str  # the module the target lies in
    line: int


def module_name(path: Path, src: Path = SRC) -> str:
    """``confusionlab.scores._data`` for ``src/confusionlab/scores/_data.py`` (packages by their folder)."""
    parts = list(path.relative_to(src.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports_of(path: Path, modules: set[str], src: Path = SRC) -> list[Import]:
    """Every import of a module or name of the package in the file at ``path``."""
    importer = module_name(path, src)
    here = importer.split(".") if path.name == "__init__.py" else importer.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [
                Import(importer, a.name, a.name, node.lineno) for a in node.names if a.name.split(".")[0] == PACKAGE
            ]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                full = f"{module}.{alias.name}"
                found.append(Import(importer, full, full if full in modules else module, node.lineno))
    return found


def unit_of(module: str) -> str | None:
    """The unit a module belongs to (None for the package face)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def all_imports(src: Path = SRC) -> list[Import]:
    paths = sorted(src.rglob("*.py"))
    modules = {module_name(p, src) for p in paths}
    return [imp for p in paths for imp in imports_of(p, modules, src)]


def is_private_across(imp: Import) -> bool:
    """True when ``imp`` names a private module or name of another unit (root infrastructure aside)."""
    source, target = unit_of(imp.importer), unit_of(imp.target)
    if source is None or target is None or source == target:
        return False
    inside = imp.target.split(".")[2:]  # below the unit: its modules, then the name
    return any(part.startswith("_") and not part.startswith("__") for part in inside)


def violations(src: Path = SRC) -> dict[str, set[tuple[str, str, str]]]:
    """Every violation of each rule, keyed by rule."""
    found: dict[str, set[tuple[str, str, str]]] = defaultdict(set)
    for imp in all_imports(src):
        source, target = unit_of(imp.importer), unit_of(imp.module)
        if source is None or target is None or source == target:
            continue
        if LAYERS.get(target, 0) > LAYERS.get(source, 0):
            found["upward"].add(("upward", imp.importer, imp.module))
        if is_private_across(imp):
            found["private"].add(("private", imp.importer, imp.target))
        if target == "widgets" and source not in VIEW_UNITS:
            found["view"].add(("upward", imp.importer, imp.module))
    for path in sorted(src.rglob("*.py")):
        module = module_name(path, src)
        for match in ENGINE_TEST.finditer(path.read_text(encoding="utf-8")):
            engine = match["a"] or match["b"]
            if engine in ENGINES and path.stem != engine:
                found["engine"].add(("engine", module, engine))
    return found


def unit_graph(src: Path = SRC) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for imp in all_imports(src):
        source, target = unit_of(imp.importer), unit_of(imp.module)
        if source is not None and target is not None and source != target:
            graph[source].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one unit (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _check(rule: str, found: set[tuple[str, str, str]], known: set[tuple[str, str, str]]) -> None:
    known = {entry for entry in known if entry[0] == rule}
    new, gone = sorted(found - known), sorted(known - found)
    assert not new, f"{rule}: new violations of the house's layers: {new}"
    assert not gone, f"{rule}: fixed — remove these entries from KNOWN in {__file__}: {gone}"


def test_every_unit_has_a_layer() -> None:
    units = {unit_of(module_name(p)) for p in SRC.rglob("*.py")} - {None}
    assert not sorted(units - set(LAYERS)), "give every new module or subpackage its layer in LAYERS"


def test_imports_only_go_downward() -> None:
    _check("upward", violations()["upward"], KNOWN)


def test_no_private_name_across_packages() -> None:
    _check("private", violations()["private"], KNOWN)


def test_results_never_import_views() -> None:
    found = violations()["view"]
    assert found <= {entry for entry in KNOWN if entry[0] == "upward"}, sorted(found)


def test_no_engine_named_outside_its_module() -> None:
    _check("engine", violations()["engine"], KNOWN)


def test_no_cycle_between_packages() -> None:
    graph = unit_graph()
    for _, importer, imported in KNOWN:
        if imported.startswith(f"{PACKAGE}.") and (unit_of(imported) in VIEW_UNITS):
            graph[unit_of(importer)].discard(unit_of(imported))  # the known upward imports, counted above
    assert cycles(graph) == []


# The rules themselves, on a planted tree: each test above must fail when its rule is broken.


def _plant(tmp_path: Path, files: dict[str, str]) -> Path:
    src = tmp_path / PACKAGE
    for name, text in files.items():
        path = src / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return src


@pytest.mark.parametrize(
    ("files", "rule", "expected"),
    [
        (
            {
                "__init__.py": "",
                "metrics.py": "def f():\n    from .scores import roc_curve\n",
                "scores/__init__.py": "",
            },
            "upward",
            ("upward", "confusionlab.metrics", "confusionlab.scores"),
        ),
        (
            {"__init__.py": "", "scores/__init__.py": "from ..confusion import _distinct\n", "confusion.py": ""},
            "private",
            ("private", "confusionlab.scores", "confusionlab.confusion._distinct"),
        ),
        (
            {
                "__init__.py": "",
                "bias/__init__.py": "from ..planner import _plan\n",
                "planner/_plan.py": "",
                "planner/__init__.py": "",
            },
            "private",
            ("private", "confusionlab.bias", "confusionlab.planner._plan"),
        ),
        (
            {
                "__init__.py": "",
                "scores/r.py": "def view(self):\n    from ..widgets.roc_view import RocView\n",
                "widgets/roc_view.py": "",
            },
            "view",
            ("upward", "confusionlab.scores.r", "confusionlab.widgets.roc_view"),
        ),
        (
            {"__init__.py": "", "_tables/table.py": "def f(engine):\n    if engine == 'spark':\n        pass\n"},
            "engine",
            ("engine", "confusionlab._tables.table", "spark"),
        ),
    ],
)
def test_each_rule_catches_its_planted_violation(tmp_path, files, rule, expected) -> None:
    assert expected in violations(_plant(tmp_path, files))[rule]


def test_the_engine_module_itself_may_name_its_engine(tmp_path) -> None:
    src = _plant(tmp_path, {"__init__.py": "", "_tables/spark.py": "def f(engine):\n    return engine == 'spark'\n"})
    assert not violations(src)["engine"]


def test_infrastructure_modules_are_shared_but_their_private_names_are_not(tmp_path) -> None:
    src = _plant(
        tmp_path,
        {
            "__init__.py": "",
            "_validation.py": "",
            "scores/__init__.py": "from .._validation import check_count, _helper\n",
        },
    )
    assert violations(src)["private"] == {("private", "confusionlab.scores", "confusionlab._validation._helper")}


def test_a_cycle_between_packages_is_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
