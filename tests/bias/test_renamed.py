"""Renamed arguments and constants (n_samples → n_draws, BiasView's n_cloud → n_draws) and moved names
(UCI Adult's loader → confusionlab.datasets): the old names warn (a FutureWarning naming the new one) and
give the same answer for one release."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from confusionlab import InvalidParameterError, bias, datasets
from confusionlab.bias import label_metrics as lm
from confusionlab.bias import uncertainty as un

TABLE = bias.CountTable.from_confusion(a=(300, 100, 40, 500), d=(60, 40, 10, 150))
DF = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0, 1, 0] * 20, "p": [1, 0, 1, 0, 0, 0, 1, 1] * 20, "s": list("MMMMFFFF") * 20})
REPORT = dict(label="y", positive_values=[1], facet="s", facet_values=["F"], predicted="p")
CELLS = np.array([[30, 10], [20, 20]])
OUTCOMES = np.array([[60, 40], [75, 25]])


def _share(x: np.ndarray) -> np.ndarray:
    return x[..., 1, 1] / x[..., 1].sum(axis=-1)


def test_report_n_samples():
    new = bias.report(DF, **REPORT, n_draws=300)
    with pytest.warns(FutureWarning, match="n_draws"):
        old = bias.report(DF, **REPORT, n_samples=300)
    assert old["DCA"].interval(0.9) == new["DCA"].interval(0.9)  # DCA is Monte Carlo: the draws are the same
    assert old["DCA"].distribution.strategy.startswith("monte carlo: 300 draws")


def test_pretraining_n_samples():
    with pytest.warns(FutureWarning, match="n_draws"):
        old = bias.pretraining(DF, **REPORT, n_samples=300, kl_labels="values")
    assert old["KL"].value == bias.pretraining(DF, **REPORT, n_draws=300, kl_labels="values")["KL"].value


def test_report_from_counts_n_samples():
    new = bias.report_from_counts(TABLE, n_draws=300)
    with pytest.warns(FutureWarning, match="n_draws"):
        old = bias.report_from_counts(TABLE, n_samples=300)
    assert old["DCA"].interval(0.9) == new["DCA"].interval(0.9)


def test_audit_n_samples():
    kw = dict(label="y", positive_values=[1], predicted="p", facets="s", metrics=["DPPL", "AD"], margin=0.1)
    new = bias.audit(DF, **kw, n_draws=300)
    with pytest.warns(FutureWarning, match="n_draws"):
        old = bias.audit(DF, **kw, n_samples=300)
    pd.testing.assert_frame_equal(old.to_frame(), new.to_frame(), check_exact=True)


def test_bias_view_n_cloud():
    from confusionlab.widgets.bias_view import BiasView

    rep = bias.report_from_counts(TABLE, n_draws=200)
    new = BiasView(rep, n_draws=50)
    with pytest.warns(FutureWarning, match="n_draws"):
        old = BiasView(rep, n_cloud=50)
    np.testing.assert_array_equal(old.cloud_points[0], new.cloud_points[0])
    assert old.cloud_points[0].shape == (50, 2)


@pytest.mark.parametrize(
    "call",
    [
        lambda **kw: un.exact_binary_facets(lm.difference_in_proportions, OUTCOMES, max_points=10, **kw).interval(0.9),
        lambda **kw: un.exact_binary_facets_shared(
            {"DPL": lm.difference_in_proportions}, OUTCOMES, max_points=10, **kw
        )["DPL"].interval(0.9),
        lambda **kw: un.dirichlet_multinomial_draws(CELLS, **kw).tolist(),
        lambda **kw: un.sampled_metric(_share, CELLS, **kw).tolist(),
        lambda **kw: un.sampled_metrics({"d": _share}, CELLS, **kw)["d"].tolist(),
    ],
    ids=[
        "exact_binary_facets",
        "exact_binary_facets_shared",
        "dirichlet_multinomial_draws",
        "sampled_metric",
        "sampled_metrics",
    ],
)
def test_uncertainty_n_samples(call):
    new = call(n_draws=400, random_state=3)
    with pytest.warns(FutureWarning, match="n_draws"):
        old = call(n_samples=400, random_state=3)
    assert old == new


def test_old_and_new_name_together_are_refused():
    with pytest.raises(InvalidParameterError, match="n_draws"):
        bias.report_from_counts(TABLE, n_samples=300, n_draws=300)


def test_check_samples_and_the_constants_keep_their_old_names():
    with pytest.warns(FutureWarning, match="check_n_draws"):
        assert un.check_samples(500) == 500
    assert un.DEFAULT_SAMPLES == un.DEFAULT_N_DRAWS == 20_000
    from confusionlab.palette import GROUP_COLOURS
    from confusionlab.widgets import bias_view

    assert bias_view.FACET_COLORS == bias_view.FACET_COLOURS == (GROUP_COLOURS["a"], GROUP_COLOURS["d"])


def test_audit_to_html_title_warns():
    a = bias.audit(DF, label="y", positive_values=[1], predicted="p", facets="s", metrics=["DPPL"], margin=0.1,
                   n_draws=200)  # fmt: skip
    with pytest.warns(FutureWarning, match="title"):
        page = a.to_html(title="Our audit")
    assert "<h1>Our audit</h1>" in page
    assert page.replace("Our audit", a.title) == a.to_html()


def test_load_adult_moved_to_datasets():
    new = datasets.load_adult("test", drop_missing=True)
    with pytest.warns(FutureWarning, match=r"confusionlab\.datasets\.load_adult"):
        old = bias.load_adult("test", drop_missing=True)
    pd.testing.assert_frame_equal(old, new, check_exact=True)
    assert "load_adult" not in bias.__all__


def test_bias_datasets_module_moved_to_datasets():
    from confusionlab.bias import datasets as old_module

    for name in ("load_adult", "ADULT_COLUMNS", "ADULT_ATTRIBUTION"):
        with pytest.warns(FutureWarning, match=rf"confusionlab\.datasets\.{name}"):
            assert getattr(old_module, name) is getattr(datasets, name)
    with pytest.warns(FutureWarning, match=r"confusionlab\.datasets\.load_adult"):
        from confusionlab.bias.datasets import load_adult
    pd.testing.assert_frame_equal(load_adult("test"), datasets.load_adult("test"), check_exact=True)
    with pytest.raises(AttributeError, match="no_such_name"):
        old_module.no_such_name  # noqa: B018


def test_the_old_quadrature_module_warns_and_gives_the_same_objects():
    """The quadrature of two Beta rates moved to ``confusionlab.distribution.quadrature``: the old
    module still works for one release, with a FutureWarning naming the new one."""
    import importlib
    import sys

    from confusionlab.distribution import quadrature as new

    sys.modules.pop("confusionlab.bias._quadrature", None)
    with pytest.warns(
        FutureWarning, match=r"confusionlab\.bias\._quadrature is moved to confusionlab\.distribution\.quadrature"
    ):
        old = importlib.import_module("confusionlab.bias._quadrature")
    for name in old.__all__:
        assert getattr(old, name) is getattr(new, name)


def test_the_generic_posterior_machinery_keeps_its_old_path():
    """What moved down to ``confusionlab.distribution`` is the same object under ``bias.uncertainty``."""
    from confusionlab.distribution import count_draws, posterior, two_beta

    for module in (posterior, two_beta, count_draws):
        for name in module.__all__:
            if hasattr(un, name):
                assert getattr(un, name) is getattr(module, name), name
    moved = ["posterior_distribution", "sampled_distribution", "interval_mc_error", "prob_sign_real",
             "beta_pair_distributions", "MIN_BETA_PARAMETER", "PROGRESS_DELAY", "DEFAULT_N_DRAWS", "CHUNK_BYTES",
             "dirichlet_multinomial_draws", "sampled_metric", "sampled_metrics"]  # fmt: skip
    assert all(hasattr(un, name) for name in moved)
