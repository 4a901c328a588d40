"""The log readers: lm-evaluation-harness's ``--log_samples`` file, and hostile files of both kinds.

The lm-eval fixture (``tests/data/logs/samples_mmlu_tiny_<date>.jsonl`` and ``results_<date>.json``)
was written by hand, not by the harness: running lm-eval offline needs torch and a model, more
than this suite's reference data should cost. It follows the writer's code, lm-eval 0.4.x:
``lm_eval/evaluator.py`` (``evaluate``: each line ``doc_id``, ``doc``, ``target``, ``arguments``,
``resps``, ``filtered_resps``, ``filter``, ``metrics``, ``doc_hash``, ``prompt_hash``,
``target_hash``, then each metric under its name) and ``lm_eval/loggers/evaluation_tracker.py``
(``save_results_samples``: ``samples_<task>_<date>.jsonl``, one ``json.dumps`` a line; the
results file ``results_<date>.json`` names ``model_name``). Its ten documents: subjects law ×3,
art ×2, math ×4, bio ×1; acc 1,0,1,1,1,0,0,1,0,1; acc_norm 1,1,1,0,1,0,1,1,0,1.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

import confusionlab as cl

LOGS = Path(__file__).parents[1] / "data" / "logs"
SAMPLES = LOGS / "samples_mmlu_tiny_2026-12-07T13-30-00.123456.jsonl"


def test_lm_eval_samples_read_one_row_per_document():
    frame = cl.read_lm_eval_samples(SAMPLES, metric="acc")
    assert frame["item"].tolist() == list(range(10)) and set(frame["epoch"]) == {1}
    assert frame["score"].tolist() == [1, 0, 1, 1, 1, 0, 0, 1, 0, 1]
    assert frame["subject"].tolist() == ["law"] * 3 + ["art"] * 2 + ["math"] * 4 + ["bio"]
    assert "choices" not in frame.columns  # a list is no column of its own
    assert set(frame["model"]) == {"EleutherAI/pythia-14m"} and set(frame["task"]) == {"mmlu_tiny"}
    assert frame.attrs == {"metric": "acc", "filter": "none"}
    norm = cl.read_lm_eval_samples(SAMPLES, metric="acc_norm")
    assert norm["score"].tolist() == [1, 1, 1, 0, 1, 0, 1, 1, 0, 1]


def test_lm_eval_frame_feeds_evaluate_items_by_subject():
    frame = cl.read_lm_eval_samples(SAMPLES, metric="acc")
    r = cl.evaluate_items("score", item="item", cluster="subject", data=frame)
    assert r.value == 0.6 and r.n_clusters == 4


def test_lm_eval_ambiguous_or_unknown_choices_are_refused(tmp_path):
    with pytest.raises(cl.InvalidParameterError, match=r"metrics \['acc', 'acc_norm'\]: pass metric="):
        cl.read_lm_eval_samples(SAMPLES)
    with pytest.raises(cl.InvalidParameterError, match="metric 'f1' is not in"):
        cl.read_lm_eval_samples(SAMPLES, metric="f1")
    lines = [{"doc_id": 0, "filter": f, "metrics": ["em"], "em": 1.0} for f in ("strict-match", "flexible-extract")]
    path = tmp_path / "samples_gsm_2026-01-01T00-00-00.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(cl.InvalidParameterError, match="pass filter="):
        cl.read_lm_eval_samples(path)
    assert cl.read_lm_eval_samples(path, filter="strict-match")["score"].tolist() == [1.0]
    path.write_text(json.dumps(lines[0]) + "\n" + json.dumps(lines[0]) + "\n")
    with pytest.raises(cl.InvalidParameterError, match="document 0 appears twice"):
        cl.read_lm_eval_samples(path)
    path.write_text('{"doc_id": 0}\n{"doc_id": 1\n')
    with pytest.raises(cl.InvalidParameterError, match=r"line 2 .* is not valid JSON"):
        cl.read_lm_eval_samples(path)


@pytest.mark.parametrize("reader", [cl.read_inspect_log, cl.read_lm_eval_samples])
def test_paths_that_are_not_files_are_refused(reader, tmp_path):
    with pytest.raises(cl.InvalidParameterError, match="a directory"):
        reader(tmp_path)
    with pytest.raises(cl.InvalidParameterError, match="cannot be read"):
        reader(tmp_path / "missing.json")
    with pytest.raises(cl.InvalidParameterError, match="path must be the path"):
        reader(42)
    (tmp_path / "empty.json").write_text("")
    with pytest.raises(cl.InvalidParameterError):
        reader(tmp_path / "empty.json")


def test_inspect_json_that_is_no_log_is_refused(tmp_path):
    path = tmp_path / "x.json"
    for text, match in [
        ("[1, 2]", "not an Inspect log"),
        ('{"eval": {}, "samples": []}', "holds no samples"),
        ("[" * 100_000, "nested too deeply"),
        ('{"eval": {}, "samples": [{"id": 1, "epoch": 1, "scores": {"s": {"value": [1, 2]}}}]}', "not one number"),
        ('{"eval": {}, "samples": [{"id": 1, "scores": {"a": {"value": 1}, "b": {"value": 0}}}]}', "pass scorer="),
    ]:
        path.write_text(text)
        with pytest.raises(cl.InvalidParameterError, match=match):
            cl.read_inspect_log(path)


def test_a_member_larger_than_it_declares_is_refused(tmp_path):
    """A zip whose central directory says 10 bytes for a member that holds a megabyte."""
    path = tmp_path / "bomb.eval"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("header.json", json.dumps({"eval": {"task": "t", "model": "m"}}))
        zf.writestr("samples/1_epoch_1.json", b" " * 10**6)
    data = bytearray(path.read_bytes())
    # the last central-directory entry is the sample's: set its uncompressed size (offset 24) to 10
    entries = [i for i in range(len(data)) if data[i : i + 4] == b"PK\x01\x02"]
    data[entries[-1] + 24 : entries[-1] + 28] = (10).to_bytes(4, "little")
    path.write_bytes(bytes(data))
    # zipfile stops at the declared size, and the CRC of those bytes then fails
    with pytest.raises(cl.InvalidParameterError, match=r"samples/1_epoch_1\.json"):
        cl.read_inspect_log(path)


def test_a_log_beyond_the_memory_limit_is_refused_before_reading(tmp_path):
    limit = cl.memory_limit()
    try:
        cl.set_memory_limit(10_000)
        with pytest.raises(cl.TooLargeError, match="samples"):
            cl.read_inspect_log(LOGS / "inspect_items.eval")
        with pytest.raises(cl.TooLargeError, match="the log of"):
            cl.read_inspect_log(LOGS / "inspect_items.json")
    finally:
        cl.set_memory_limit(limit)


def test_eval_logs_without_zstandard_name_the_extra(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_zstandard(name, *args, **kwargs):
        if name == "zstandard":
            raise ImportError("no zstandard")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_zstandard)
    if hasattr(zipfile, "ZIP_ZSTANDARD"):
        pytest.skip("Python reads zstd members itself (3.14+)")
    with pytest.raises(cl.InvalidParameterError, match=r"confusionlab\[logs\]"):
        cl.read_inspect_log(LOGS / "inspect_items.eval")


def test_a_corrupt_member_is_refused(tmp_path):
    data = bytearray((LOGS / "inspect_items.eval").read_bytes())
    start = data.find(b"samples/q0_epoch_1.json")  # the member's local header, its data just after
    data[start + 200 : start + 240] = b"\x00" * 40  # inside the first sample's compressed bytes
    path = tmp_path / "corrupt.eval"
    path.write_bytes(bytes(data))
    with pytest.raises(cl.InvalidParameterError, match=r"q0_epoch_1\.json"):
        cl.read_inspect_log(path)


def test_a_zstandard_member_larger_than_it_declares_is_refused(tmp_path):
    """The real log with one sample's declared size cut to 100 bytes: the decompression stops there."""
    data = bytearray((LOGS / "inspect_items.eval").read_bytes())
    name = b"samples/q0_epoch_1.json"
    entry = next(
        i for i in range(len(data)) if data[i : i + 4] == b"PK\x01\x02" and data[i + 46 : i + 46 + len(name)] == name
    )
    data[entry + 24 : entry + 28] = (100).to_bytes(4, "little")
    path = tmp_path / "short.eval"
    path.write_bytes(bytes(data))
    with pytest.raises(cl.InvalidParameterError, match=r"q0_epoch_1\.json' declares 100 bytes but holds more"):
        cl.read_inspect_log(path)


def test_a_zip_without_a_header_is_refused(tmp_path):
    path = tmp_path / "running.eval"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("_journal/start.json", "{}")
    with pytest.raises(cl.InvalidParameterError, match=r"holds no header\.json"):
        cl.read_inspect_log(path)
