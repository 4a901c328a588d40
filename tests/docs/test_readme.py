"""Every Python example in README.md runs as written (one namespace, top to bottom)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path

import pytest

README = Path(__file__).parents[2] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 2  # the longer examples are on the documentation site (test_guide_examples.py)


def test_every_readme_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(README.parent)
    namespace: dict = {"__name__": "readme"}
    for number, block in enumerate(BLOCKS, start=1):
        try:
            exec(compile(block, f"README.md python block {number}", "exec"), namespace)
        except Exception as exc:  # pragma: no cover - the message is the point
            raise AssertionError(f"README python block {number} fails: {exc!r}\n{block}") from exc


def test_readme_numbers_are_what_the_code_gives() -> None:
    import confusionlab as cl

    cm = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
    assert f"{cl.metric_value(cm, 'mcc'):.4f}" == "0.5774"
    d = cl.metric_distribution(cm, "mcc", model="beta-binomial", tolerance=1e-12)
    lo, hi = d.interval(0.95)
    numbers = f"{d.mean():.4f}, {d.std():.4f}, ({lo:.4f}, {hi:.4f})"
    assert numbers == "0.5437, 0.1505, (0.2224, 0.8108)"  # the paper's N = 60 result: sd 0.1505, 95 % [0.222, 0.811]
    assert numbers in README.read_text(encoding="utf-8")


# ----------------------------------------------------------------------------- every number the README states
ROOT = README.parent
TEXT = README.read_text(encoding="utf-8")
CODE = "\n".join(re.sub(r"#.*", "", block) for block in BLOCKS)  # the code of the examples, comments removed
NUMBER = re.compile(r"(?<![\w.])\d[\d,.]*\d|(?<![\w.])\d(?![\w])")


def _install_record() -> str:
    """benchmarks/RESULTS.md's section that measured the README's install table."""
    text = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    return text[text.index("## What `make lab` and `make install` install") :]


def _simplex_size() -> bool:
    import confusionlab as cl

    return len(cl.simplex_points(60)) == 39_711 and math.comb(63, 3) == 39_711


def _slice_size() -> bool:
    import confusionlab as cl

    tp, tn = cl.slice_lattice(20, 40)
    return tp.size * tn.size == 861 == 21 * 41


def _recorded(number: str) -> Callable[[], bool]:
    return lambda: re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", _install_record()) is not None


def _in(path: str, text: str) -> Callable[[], bool]:
    return lambda: text in (ROOT / path).read_text(encoding="utf-8")


INPUT = "an argument of a README example"
#: Every number in the README and how it is checked (INPUT: it must be an argument in an example's code).
NUMBERS: dict[str, object] = {
    **dict.fromkeys(["0", "1", "4", "8", "16", "32", "40", "0.95"], INPUT),
    # p = 20 in the examples, and Node 20 (what CI runs)
    "20": lambda: "p=20" in CODE and "Node 20" in (ROOT / ".ci" / "run").read_text(encoding="utf-8"),
    "12": INPUT,  # tolerance=1e-12
    "60": lambda: "N=60" in CODE and "[0] * 40" in CODE and "[1] * 20" in CODE,  # N = 60 = 20 + 40
    "0.5774": lambda: True,  # test_readme_numbers_are_what_the_code_gives
    "0.5437": lambda: True,
    "0.1505": lambda: True,
    "0.2224": lambda: True,
    "0.8108": lambda: True,
    "39,711": _simplex_size,
    "861": _slice_size,
    "3.11": _in("Makefile", "command -v python3.11"),
    "3.14": _in("pyproject.toml", "Python reads them itself from 3.14"),  # the logs extra
    "17": _in(".ci/run", "openjdk-17-jre-headless"),
    "2": lambda: "2 cores" in _install_record(),  # the 2-core machine
    "01": lambda: (ROOT / "notebooks" / "01_tour.ipynb").is_file(),
    "90": _in("docs/teaching.md", "90-minute"),
    # the citations, as in the glossary's references
    "2023": _in("docs/glossary.md", "ICML 2023, PMLR 202:22702–22757. arXiv:2206.02157"),
    "202": _in("docs/glossary.md", "PMLR 202:22702–22757"),
    "22702": _in("docs/glossary.md", "202:22702–22757"),
    "22757": _in("docs/glossary.md", "202:22702–22757"),
    "2206.02157": _in("docs/glossary.md", "arXiv:2206.02157"),
    "2021": _in("docs/glossary.md", "the cloud.* KDD 2021"),
    # the licence paragraph (tests/contract/test_package.py checks LICENSE says the same)
    "3": _in("LICENSE", "BSD 3-Clause License"),
    "4.0": _in("LICENSE", "CC BY 4.0"),
    "1996": _in("src/confusionlab/data/adult/README.md", "1996"),
    "10.24432": _in("LICENSE", "10.24432/C5XW20"),
}


def test_every_number_in_the_readme_is_accounted_for() -> None:
    found = set(NUMBER.findall(TEXT))
    measured = {n for n in found if n not in NUMBERS}
    # the install table's measured sizes and times, and node_modules' size, come from benchmarks/RESULTS.md
    row = re.search(r"\| `make lab` \|[^|]*\| (\d+) MB \| (\d+) s \|", TEXT)
    dev = re.search(r"\| `make install`[^|]*\|[^|]*\| (\d+) MB \| (\d+) s \|", TEXT)
    node = re.search(r"\((\d+) MB of `node_modules`\)", TEXT)
    assert row and dev and node
    table = {*row.groups(), *dev.groups(), node.group(1)}
    assert measured == table, f"numbers in README.md that no test checks: {sorted(measured - table)}"
    for number in table:
        assert _recorded(number)(), f"{number} is not what benchmarks/RESULTS.md recorded"


@pytest.mark.parametrize("number", sorted(NUMBERS))
def test_each_readme_number_is_true(number: str) -> None:
    check = NUMBERS[number]
    if check == INPUT:
        assert NUMBER.search(CODE) and number in NUMBER.findall(CODE), f"{number} is not an argument of an example"
    else:
        assert check(), number
