"""evaluate_items against Inspect's own numbers, on logs Inspect wrote.

The two logs in ``tests/data/logs/`` are real output of Inspect (``inspect-ai`` 0.3.285 from PyPI,
Python 3.11, the offline ``mockllm/model`` model; ``tests/data/logs/make_inspect_logs.py`` wrote
them). Its task asked Inspect for ``mean()``, ``stderr()``, ``stderr(cluster="passage")`` and
``ci(cluster="passage")`` (Student's t, clusters − 1 degrees of freedom), with two epochs per
sample reduced by Inspect's default mean reducer, so each log carries Inspect's numbers beside
its samples. Those numbers are read here with ``json``/``zipfile``/``zstandard`` directly, not by
the reader under test, and ``evaluate_items`` must equal them to 1e-12.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

import confusionlab as cl

LOGS = Path(__file__).parents[1] / "data" / "logs"


def _inspect_metrics(path: Path) -> dict[str, float]:
    """Inspect's reported metrics of the one scorer, read straight from the file."""
    if path.suffix == ".json":
        header = json.loads(path.read_text(encoding="utf-8"))
    else:
        import zstandard

        with zipfile.ZipFile(path) as zf:
            info = zf.getinfo("header.json")
            with path.open("rb") as raw:
                raw.seek(info.header_offset + 26)
                skip = int.from_bytes(raw.read(2), "little") + int.from_bytes(raw.read(2), "little")
                raw.seek(skip, io.SEEK_CUR)
                data = raw.read(info.compress_size)
        text = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data), read_across_frames=True).read()
        header = json.loads(text)
    (scores,) = header["results"]["scores"]
    metrics = scores["metrics"]
    return {
        "mean": metrics["mean"]["value"],
        "stderr": metrics["stderr"]["value"],
        "clustered": next(
            m["value"] for m in metrics.values() if m["params"].get("cluster") == "passage" and m["name"] == "stderr"
        ),
        "lower": metrics["lower"]["value"],
        "upper": metrics["upper"]["value"],
    }


@pytest.mark.parametrize("name", ["inspect_items.eval", "inspect_items.json"])
def test_clustered_standard_error_equals_inspects(name):
    path = LOGS / name
    expected = _inspect_metrics(path)
    frame = cl.read_inspect_log(path)
    clustered = cl.evaluate_items("score", item="item", cluster="passage", data=frame)
    assert clustered.value == pytest.approx(expected["mean"], abs=1e-12)
    assert clustered.std_error == pytest.approx(expected["clustered"], abs=1e-12)
    lo, hi = clustered.interval(0.95)
    assert lo == pytest.approx(expected["lower"], abs=1e-12)
    assert hi == pytest.approx(expected["upper"], abs=1e-12)
    naive = cl.evaluate_items("score", item="item", data=frame)
    assert naive.std_error == pytest.approx(expected["stderr"], abs=1e-12)
    assert clustered.naive_std_error == pytest.approx(expected["stderr"], abs=1e-12)


def test_the_eval_log_reads_as_the_task_wrote_it():
    frame = cl.read_inspect_log(LOGS / "inspect_items.eval")
    assert len(frame) == 18 and sorted(set(frame["epoch"])) == [1, 2]
    assert list(frame.columns) == ["item", "epoch", "score", "passage", "scores", "difficulty", "model", "task"]
    assert set(frame["model"]) == {"mockllm/model"} and set(frame["task"]) == {"items"}
    # each row's score is the letter the task's metadata gave that epoch: C = 1, P = 0.5, I = 0
    letters = {"C": 1.0, "P": 0.5, "I": 0.0}
    expected = [letters[s[e - 1]] for s, e in zip(frame["scores"], frame["epoch"], strict=True)]
    assert frame["score"].tolist() == expected
    assert frame.attrs["scorer"] == "fixed"


def test_the_json_and_the_eval_log_agree_on_their_common_items():
    a = cl.read_inspect_log(LOGS / "inspect_items.eval").set_index(["item", "epoch"])
    b = cl.read_inspect_log(LOGS / "inspect_items.json").set_index(["item", "epoch"])
    common = b.index
    assert len(common) == 8
    np.testing.assert_array_equal(a.loc[common, "score"].to_numpy(), b["score"].to_numpy())
    assert a.loc[common, "passage"].tolist() == b["passage"].tolist()


def test_compare_items_on_a_log_against_itself_shifted():
    frame = cl.read_inspect_log(LOGS / "inspect_items.eval")
    c = cl.compare_items(frame["score"], 1.0 - frame["score"], item=frame["item"], cluster=frame["passage"])
    assert c.value == pytest.approx(2 * 0.5833333333333334 - 1, abs=1e-12)
    assert c.test().method == "exact" and c.test().how == "convolution"
