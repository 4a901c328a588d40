"""Issue 25: verdicts and "excludes no bias" have their own colours, used by the audit page and the forest plot."""

from __future__ import annotations

import numpy as np
import pandas as pd

from confusionlab import bias, palette
from confusionlab.bias import figures


def test_verdict_and_sign_colours_are_their_own():
    others = {*palette.GROUP_COLOURS.values(), *palette.MODEL_COLOURS.values(), *palette.DIVERGING}
    own = [*palette.VERDICT_COLOURS.values(), *palette.SIGN_COLOURS.values()]
    assert len(set(own)) == len(own) and not set(own) & others
    assert palette.PALETTE["signs"] == palette.SIGN_COLOURS
    assert (figures.EXCLUDES_COLOUR, figures.HOLDS_COLOUR) == (
        palette.SIGN_COLOURS["excludes no bias"],
        palette.SIGN_COLOURS["holds no bias"],
    )


def test_the_audit_page_paints_each_verdict_in_its_colour():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"y": rng.integers(0, 2, 3000), "g": rng.choice(["a", "b"], 3000, p=[0.9, 0.1])})
    df["p"] = df.y
    page = bias.audit(df, label="y", positive_values=[1], predicted="p", facets="g", margin=0.05).to_html()
    for colour in palette.VERDICT_COLOURS.values():
        assert f"background:{colour}" in page
