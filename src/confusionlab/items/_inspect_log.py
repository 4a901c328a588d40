"""``read_inspect_log``: an Inspect evaluation log (``.eval`` or ``.json``) → one row per (item, epoch).

Inspect writes two formats. ``.json``: one JSON document (``eval``, ``results``, ``samples``, …).
``.eval``: a zip holding ``header.json`` (the eval and its results) and one member per sample
and epoch (``samples/<id>_epoch_<n>.json``), each compressed with Zstandard (zip method 93),
which Python's ``zipfile`` reads natively only from Python 3.14; before that the optional
``zstandard`` package decompresses the members here (``pip install confusionlab[logs]``).
Every member's declared size is checked against the memory limit before it is read, its
decompressed bytes are capped at that size (a member inflating beyond it is refused) and its
CRC is checked.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Any

from .._errors import InvalidParameterError, short_repr
from .._memory import check_memory
from ._log_files import (
    PARSED_BYTES_PER_BYTE,
    build_frame,
    check_log_path,
    metadata_keys,
    parse_json,
    read_bounded,
    score_to_float,
)

__all__ = ["MAX_MEMBERS", "read_inspect_log"]

#: Most members an ``.eval`` zip may list.
MAX_MEMBERS = 2_000_000
#: Zip's compression method number of Zstandard.
ZIP_ZSTANDARD = 93
_LOCAL_HEADER = struct.Struct("<4s5H3L2H")


def read_inspect_log(path: Any, *, scorer: str | None = None) -> Any:
    """An Inspect evaluation log as a pandas DataFrame, one row per (item, epoch).

    Parameters
    ----------
    path : str or os.PathLike
        An Inspect log: ``.eval`` (zip of Zstandard-compressed JSON members; needs Python ≥ 3.14
        or the ``zstandard`` package, ``pip install confusionlab[logs]``) or ``.json``.
    scorer : str, optional
        Which scorer's score to read when the samples have several (default: the only one).

    Returns
    -------
    pandas.DataFrame
        Columns ``item`` (the sample id), ``epoch``, ``score`` (Inspect's ``value_to_float``:
        C = 1, P = 0.5, I = N = 0, numbers as they are; NaN for a sample without a score), each
        key of the samples' metadata as a column of its own name (prefixed ``metadata_`` if it is
        one of these names), ``model`` and ``task``. ``frame.attrs["metrics"]`` holds the metrics
        Inspect itself reported (scorer → metric → value), ``frame.attrs["scorer"]`` the scorer read.
        Ready for ``evaluate_items("score", item="item", cluster=<a metadata key>, data=frame)``.

    Raises
    ------
    InvalidParameterError
        A path that is not a regular file, a file that is not an Inspect log, invalid JSON, an
        unknown or ambiguous ``scorer``, a score that is not one number (a list or dict), a member
        larger than it declares, or ``.eval`` members without Python 3.14 or ``zstandard``.
    TooLargeError
        A log whose declared size exceeds the memory limit, refused before it is read.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> log = {"eval": {"task": "t", "model": "m"}, "samples": [
    ...     {"id": 1, "epoch": 1, "scores": {"match": {"value": "C"}}, "metadata": {"passage": "p1"}},
    ...     {"id": 2, "epoch": 1, "scores": {"match": {"value": "I"}}, "metadata": {"passage": "p1"}}]}
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "log.json"
    >>> _ = path.write_text(json.dumps(log))
    >>> read_inspect_log(path)[["item", "epoch", "score", "passage", "model", "task"]].values.tolist()
    [[1, 1, 1.0, 'p1', 'm', 't'], [2, 1, 0.0, 'p1', 'm', 't']]
    """
    p = check_log_path(path)
    if scorer is not None and not isinstance(scorer, str):
        raise InvalidParameterError(f"scorer must be a scorer's name (a string), got {short_repr(scorer)}")
    if zipfile.is_zipfile(p):
        header, samples = _read_eval(p)
    else:
        log = parse_json(read_bounded(p, "the log"), str(p.name))
        if not isinstance(log, dict) or "eval" not in log:
            raise InvalidParameterError(f"path {str(p.name)!r} is not an Inspect log (no 'eval' section)")
        header, samples = log, log.get("samples") or []
    return _frame(header, samples, scorer, p.name)


def _frame(header: Any, samples: Any, scorer: str | None, name: str) -> Any:
    if not isinstance(header, dict) or not isinstance(header.get("eval"), dict):
        raise InvalidParameterError(f"path {name!r} is not an Inspect log (no 'eval' section)")
    if not isinstance(samples, list) or not samples:
        raise InvalidParameterError(f"path {name!r} holds no samples (was the eval run with samples logged?)")
    names = _scorers(samples, name)
    if scorer is None:
        if len(names) != 1:
            raise InvalidParameterError(f"the samples of {name!r} have scores from {names}: pass scorer= (one of them)")
        scorer = names[0]
    elif scorer not in names:
        raise InvalidParameterError(f"scorer {scorer!r} is not in {name!r}; its scorers are {names}")
    rows = []
    for s in samples:
        if not isinstance(s, dict):
            raise InvalidParameterError(f"path {name!r} holds a sample that is not an object: {short_repr(s)}")
        where = f"sample {s.get('id')!r} (epoch {s.get('epoch')!r})"
        score = (s.get("scores") or {}).get(scorer)
        value = score.get("value") if isinstance(score, dict) else None
        meta = s.get("metadata") or {}
        if not isinstance(meta, dict):
            raise InvalidParameterError(f"{where} has metadata that is not an object: {short_repr(meta)}")
        rows.append(
            {"item": s.get("id"), "epoch": s.get("epoch"), "score": score_to_float(value, where), "metadata": meta}
        )
    ev = header["eval"]
    frame = build_frame(rows, metadata_keys(rows), model=ev.get("model"), task=ev.get("task"))
    frame.attrs["metrics"] = _metrics(header)
    frame.attrs["scorer"] = scorer
    return frame


def _scorers(samples: list[Any], name: str) -> list[str]:
    found: dict[str, None] = {}
    for s in samples:
        scores = s.get("scores") if isinstance(s, dict) else None
        if isinstance(scores, dict):
            for key in scores:
                found.setdefault(str(key), None)
    if not found:
        raise InvalidParameterError(f"the samples of {name!r} hold no scores")
    return list(found)


def _metrics(header: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Inspect's own reported metrics: scorer name → metric key → value."""
    out: dict[str, dict[str, Any]] = {}
    results = header.get("results")
    entries = results.get("scores") if isinstance(results, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("metrics"), dict):
            out[str(entry.get("name"))] = {
                str(k): m.get("value") for k, m in entry["metrics"].items() if isinstance(m, dict)
            }
    return out


def _read_eval(path: Path) -> tuple[Any, list[Any]]:
    """The header and the samples of an ``.eval`` zip (sizes checked before anything is read)."""
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            if len(infos) > MAX_MEMBERS:
                raise InvalidParameterError(
                    f"path {path.name!r} lists {len(infos):,} members, more than {MAX_MEMBERS:,}"
                )
            by_name = {i.filename: i for i in infos}
            if "header.json" not in by_name:
                raise InvalidParameterError(
                    f"path {path.name!r} holds no header.json: not an Inspect log, or an eval still running or "
                    "interrupted (Inspect writes the header when the eval ends)"
                )
            members = [i for i in infos if i.filename.startswith("samples/") and i.filename.endswith(".json")]
            declared = sum(float(i.file_size) for i in [by_name["header.json"], *members])
            check_memory(
                PARSED_BYTES_PER_BYTE * declared,
                f"the log's {len(members):,} samples ({declared:,.0f} bytes uncompressed)",
                "read a smaller log",
            )
            with path.open("rb") as raw:
                header = parse_json(_member(zf, raw, by_name["header.json"]), "header.json")
                samples = [parse_json(_member(zf, raw, i), i.filename) for i in members]
    except zipfile.BadZipFile as exc:
        raise InvalidParameterError(f"path {path.name!r} is not a readable zip: {exc}") from None
    return header, samples


def _member(zf: zipfile.ZipFile, raw: Any, info: zipfile.ZipInfo) -> bytes:
    """A member's bytes, at most its declared size (more is refused), its CRC checked."""
    if info.compress_type == ZIP_ZSTANDARD and not hasattr(zipfile, "ZIP_ZSTANDARD"):
        data = _zstd_member(raw, info)
    else:
        try:
            with zf.open(info) as fh:
                data = fh.read(info.file_size + 1)
        except NotImplementedError as exc:
            raise InvalidParameterError(f"member {info.filename!r}: {exc}") from None
    if len(data) != info.file_size:
        held = "more" if len(data) > info.file_size else "fewer"
        raise InvalidParameterError(f"member {info.filename!r} declares {info.file_size:,} bytes but holds {held}")
    if zlib.crc32(data) != info.CRC:
        raise InvalidParameterError(f"member {info.filename!r} is corrupt (its CRC does not match)")
    return data


def _zstd_member(raw: Any, info: zipfile.ZipInfo) -> bytes:
    """A Zstandard member decompressed with the ``zstandard`` package, capped at its declared size."""
    try:
        import zstandard
    except ImportError:
        raise InvalidParameterError(
            "reading an Inspect .eval log needs the zstandard package before Python 3.14: "
            "pip install 'confusionlab[logs]' (or pip install zstandard), or write the log with --log-format json"
        ) from None
    raw.seek(info.header_offset)
    fields = _LOCAL_HEADER.unpack(raw.read(_LOCAL_HEADER.size))
    if fields[0] != b"PK\x03\x04":
        raise InvalidParameterError(f"member {info.filename!r} has no valid local header")
    raw.seek(info.header_offset + _LOCAL_HEADER.size + fields[-2] + fields[-1])
    compressed = raw.read(info.compress_size)
    reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(compressed), read_across_frames=True)
    out = bytearray()
    try:
        while len(out) <= info.file_size:  # at most one byte beyond the declared size is ever held
            chunk = reader.read(info.file_size + 1 - len(out))
            if not chunk:
                break
            out += chunk
    except zstandard.ZstdError as exc:
        raise InvalidParameterError(f"member {info.filename!r} is not valid Zstandard data: {exc}") from None
    return bytes(out)
