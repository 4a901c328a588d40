"""Package data (UCI Adult with its attribution) and a light import."""

from __future__ import annotations

import gzip
import hashlib
import subprocess
import sys
from importlib import resources

from confusionlab.datasets import load_adult

SHA256 = {  # from shared/data/adult/README.md (uncompressed files)
    "adult.data.gz": "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d",
    "adult.test.gz": "a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05",
}


def test_adult_files_are_shipped_unchanged_with_attribution():
    root = resources.files("confusionlab").joinpath("data", "adult")
    for name, digest in SHA256.items():
        raw = gzip.decompress(root.joinpath(name).read_bytes())
        assert hashlib.sha256(raw).hexdigest() == digest
    readme = root.joinpath("README.md").read_text()
    assert "CC BY 4.0" in readme and "Becker" in readme and "Kohavi" in readme
    assert root.joinpath("adult.names").is_file()


def test_load_adult():
    train = load_adult()
    assert train.shape == (32561, 15)
    assert list(train.columns)[-1] == "income" and set(train.income) == {"<=50K", ">50K"}
    assert train.isna().any(axis=1).sum() == 2399
    test = load_adult("test")
    assert len(test) == 16281 and set(test.income) == {"<=50K", ">50K"}
    assert len(load_adult("all", drop_missing=True)) == 30162 + 15060


def test_import_does_not_pull_heavy_engines():
    code = (
        "import sys, confusionlab.bias; "
        "print(sorted(m for m in ('polars', 'duckdb', 'dask', 'sklearn', 'pyarrow', "
        "'narwhals') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
