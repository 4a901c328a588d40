"""Datasets shipped with the package: UCI Adult ("Census Income").

Becker, B. and Kohavi, R. (1996). Adult. UCI Machine Learning Repository,
doi:10.24432/C5XW20, licensed CC BY 4.0 (attribution required; see
``confusionlab/data/adult/README.md``, shipped with the files).
"""

from __future__ import annotations

from importlib import resources
from typing import Any, Literal

from ._deps import require
from ._validation import check_choice

__all__ = ["ADULT_ATTRIBUTION", "ADULT_COLUMNS", "load_adult"]

ADULT_COLUMNS = (
    "age",
    "workclass",
    "fnlwgt",
    "education",
    "education_num",
    "marital_status",
    "occupation",
    "relationship",
    "race",
    "sex",
    "capital_gain",
    "capital_loss",
    "hours_per_week",
    "native_country",
    "income",
)

ADULT_ATTRIBUTION = (
    "Becker, B. and Kohavi, R. (1996). Adult. UCI Machine Learning Repository, doi:10.24432/C5XW20. CC BY 4.0."
)


def load_adult(split: Literal["train", "test", "all"] = "train", *, drop_missing: bool = False) -> Any:
    """Load UCI Adult as a pandas DataFrame with named columns.

    Parameters
    ----------
    split : {"train", "test", "all"}
        ``adult.data`` (32,561 rows), ``adult.test`` (16,281 rows) or both.
    drop_missing : bool
        Drop the rows with a missing value (written ``?`` in the files).
        Otherwise missing values are NaN.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`ADULT_COLUMNS`; strings stripped; ``income`` is
        ``"<=50K"`` or ``">50K"`` in both splits (the test file's trailing
        dots removed).

    Notes
    -----
    Data: Becker & Kohavi (1996), UCI Machine Learning Repository,
    doi:10.24432/C5XW20, CC BY 4.0 — keep this attribution when you
    redistribute it.

    Examples
    --------
    >>> df = load_adult(drop_missing=True)
    >>> len(df), int((df.sex == "Female").sum())
    (30162, 9782)
    """
    pd = require("pandas", "bias", "load_adult()")

    split = check_choice(split, "split", ("train", "test", "all"))
    files = {"train": ["adult.data.gz"], "test": ["adult.test.gz"], "all": ["adult.data.gz", "adult.test.gz"]}[split]
    root = resources.files("confusionlab").joinpath("data", "adult")
    frames = []
    for name in files:
        with resources.as_file(root.joinpath(name)) as path:
            df = pd.read_csv(
                path,
                header=None,
                names=list(ADULT_COLUMNS),
                skipinitialspace=True,
                na_values=["?"],
                comment="|",
                compression="gzip",
            )
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    df["income"] = df["income"].str.rstrip(".")
    if drop_missing:
        df = df.dropna().reset_index(drop=True)
    return df
