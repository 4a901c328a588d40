"""The Monte Carlo answers of evaluate, compare_paired, rank_models and metric_distribution
did not change when their samplers moved to ``confusionlab.models.draws``.

Independent source: the values below were produced by the code of main *before* the
move (commit bfd1a57), by running this file as a script on that tree::

    git archive bfd1a57 src | tar -x -C /tmp/ref && cp tests/models/test_draws_unchanged.py /tmp/ref/t.py
    cd /tmp/ref && PYTHONPATH=src python t.py

which prints :data:`EXPECTED`. Each case is a seeded Monte Carlo path (every sampler that
moved or now shares a step: the row-wise Dirichlet-multinomial of evaluate's macro averages, the paired
Dirichlet of the true value, the paired next-test-set counts dense and sparse, the
paired binomial); floats are compared with ``==`` (bit-identical), arrays by a sha256 of
their bytes. One number was changed on purpose after the move: compare_paired's ``mc_error`` adds half a
draw on each side of the proportion (so that few draws never report an error of 0); it is the formula
of the error that changed, not the draws it is computed from.
"""

from __future__ import annotations

import hashlib

import numpy as np

from confusionlab import ConfusionMatrix, compare_paired_cells, evaluate, metric_distribution, rank_models


def _digest(*arrays: np.ndarray) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def _dist(d) -> list:
    return [d.mean(), d.var(), *d.interval(0.95), _digest(d.values, d.probabilities)]


def _labels(seed: int, n: int, k: int, accuracy: float) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < accuracy, y, rng.integers(0, k, n))
    return y, pred


def _predictions(seed: int, n: int, k: int) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    preds = {f"m{i}": np.where(rng.random(n) < 0.7 + 0.02 * i, y, 1 - y) for i in range(k)}
    return y, preds


def compute() -> dict[str, list]:
    """Every case's numbers (the code under the ``src`` beside this file)."""
    out: dict[str, list] = {}
    y3, p3 = _labels(1, 150, 3, 0.7)
    for target in ("true_value", "next_test_set"):
        e = evaluate(
            y3, p3, metrics=["macro_f1", "multiclass_mcc"], n_draws=3000, random_state=7, target=target, progress=False
        )
        out[f"evaluate macro {target}"] = [*_dist(e.distribution("macro_f1")), e.mc_error("macro_f1")]
        out[f"evaluate mcc {target}"] = _dist(e.distribution("multiclass_mcc"))
    y2, p2 = _labels(2, 80, 2, 0.8)
    g = np.arange(80) % 2
    for model in ("binomial", "beta-binomial", "dirichlet-multinomial"):
        for target in ("true_value", "next_test_set"):
            if model != "beta-binomial" and target == "true_value":
                continue
            e = evaluate(y2, p2, groups=g, metrics=["f1"], model=model, method="monte-carlo", n_draws=2000,
                         random_state=3, target=target, progress=False)  # fmt: skip
            out[f"evaluate f1 {model} {target}"] = _dist(e.distribution("f1")) + _dist(e.distribution("f1", group=1))
    cm = ConfusionMatrix(tp=30, fn=7, fp=5, tn=41)
    for model in ("binomial", "beta-binomial", "dirichlet-multinomial"):
        for target in ("true_value", "next_test_set"):
            if model != "beta-binomial" and target == "true_value":
                continue
            d = metric_distribution(cm, "f1", model=model, method="monte-carlo", n_draws=4000, random_state=5,
                                    target=target)  # fmt: skip
            out[f"metric_distribution f1 {model} {target}"] = _dist(d)
    cells = [[40, 6, 2, 12], [3, 5, 1, 50]]
    for model, target in (
        ("paired-beta-binomial", "true_value"),
        ("paired-beta-binomial", "next_test_set"),
        ("paired-binomial", "next_test_set"),
    ):
        r = compare_paired_cells(cells, "f1", model=model, method="monte-carlo", n_draws=5000, random_state=11,
                                 target=target)  # fmt: skip
        out[f"compare_paired f1 {model} {target}"] = [
            r.prob_greater, r.prob_equal, r.prob_less, *r.interval(0.95), r.mc_error,
        ]  # fmt: skip
    for k, model, target, n_draws in (
        (3, "paired-beta-binomial", "true_value", 4000),
        (3, "paired-beta-binomial", "next_test_set", 4000),
        (3, "paired-binomial", "next_test_set", 4000),
        (11, "paired-beta-binomial", "true_value", 1500),
        (11, "paired-beta-binomial", "next_test_set", 1500),
        (11, "paired-binomial", "next_test_set", 1500),
    ):
        y, preds = _predictions(k, 120, k)
        r = rank_models(y, preds, "accuracy", model=model, method="monte-carlo", n_draws=n_draws, random_state=13,
                        target=target, progress=False)  # fmt: skip
        out[f"rank_models k={k} {model} {target}"] = [
            *r.prob_best.values(), *r.expected_rank.values(), _digest(r.pairwise), r.mc_error,
        ]  # fmt: skip
    import pandas as pd

    from confusionlab import bias

    rng = np.random.default_rng(17)
    df = pd.DataFrame({"g": rng.choice(["a", "b", "c"], 300), "y": rng.integers(0, 2, 300)})
    df["p"] = np.where(rng.random(300) < 0.75, df["y"], 1 - df["y"])
    for target in ("true_value", "next_test_set"):
        rep = bias.report(df, label="y", positive_values=[1], predicted="p", facet="g", facet_values=["a"],
                          n_draws=2000, random_state=19, target=target, progress=False)  # fmt: skip
        out[f"bias.report {target}"] = [
            [name, *bounds] for name, bounds in rep.interval(0.9).items() if not np.isnan(bounds[0])
        ]
    return out


#: Printed by ``python tests/models/test_draws_unchanged.py`` at commit bfd1a57.
EXPECTED: dict[str, list] = {
    "evaluate macro true_value": [
        0.8163302972256188,
        0.0009607345698143886,
        0.753773811728634,
        0.8718586710714534,
        "75f0b293a1c201fe",
        0.000565901808271361,
    ],
    "evaluate mcc true_value": [
        0.7312386126740456,
        0.0019031417498986875,
        0.6415799989685438,
        0.8100254885326885,
        "64f5d0c62705ed21",
    ],
    "evaluate macro next_test_set": [
        0.8170592238476323,
        0.0019478588333799263,
        0.7250022589681033,
        0.8953131621323841,
        "1f88b606e0d192e7",
        0.000805783021534525,
    ],
    "evaluate mcc next_test_set": [
        0.7334765403221704,
        0.003887933608572984,
        0.6020049973965923,
        0.8455324537702763,
        "472af4678aadff0e",
    ],
    "evaluate f1 binomial next_test_set": [
        0.9425400338030843,
        0.0005867502861874481,
        0.8888888888888888,
        0.9882352941176471,
        "5c9708dfd496d01e",
        0.9342996441966572,
        0.0010656476431163198,
        0.875,
        1.0,
        "2636fa02a7295d56",
    ],
    "evaluate f1 beta-binomial true_value": [
        0.9327966153798477,
        0.0006641678749488933,
        0.8754846199523295,
        0.9746794195402476,
        "e3b22521ce87cf28",
        0.9148629088693243,
        0.0012529968058361328,
        0.8383147609763095,
        0.9742779987404191,
        "fad3a04185aab7cb",
    ],
    "evaluate f1 beta-binomial next_test_set": [
        0.9239672329204981,
        0.0015531955574818856,
        0.8372093023255814,
        0.9882352941176471,
        "05a4a4259c523258",
        0.8965246122401433,
        0.0031877408784593197,
        0.7727272727272727,
        1.0,
        "ae1df5320c1a89e8",
    ],
    "evaluate f1 dirichlet-multinomial next_test_set": [
        0.9215732709080735,
        0.0018614619074519673,
        0.8205128205128205,
        0.9885057471264368,
        "39831a5578b9dda5",
        0.8912831890719426,
        0.004957972718353877,
        0.717948717948718,
        1.0,
        "55622d8813adb2a1",
    ],
    "metric_distribution f1 binomial next_test_set": [
        0.8331716046169857,
        0.002190520488512414,
        0.7352941176470589,
        0.918918918918919,
        "8d5b2abea6e2fdcb",
    ],
    "metric_distribution f1 beta-binomial true_value": [
        0.8237643453117334,
        0.00216460518079204,
        0.7239172829368533,
        0.9017887346933102,
        "5d3fb3ba68492d09",
    ],
    "metric_distribution f1 beta-binomial next_test_set": [
        0.8129753245868981,
        0.004591234944797379,
        0.6666666666666666,
        0.9315068493150684,
        "93bf539991618143",
    ],
    "metric_distribution f1 dirichlet-multinomial next_test_set": [
        0.8124484945380668,
        0.004853877688785405,
        0.65625,
        0.926829268292683,
        "e53d21d72cb06684",
    ],
    "compare_paired f1 paired-beta-binomial true_value": [
        0.663,
        0.0,
        0.33699999999999997,
        -0.054981646355,
        0.091031291758,
        0.0066849326759896395,  # mc_error: issue 35's half-draw rule (the draws above are unchanged)
    ],
    "compare_paired f1 paired-beta-binomial next_test_set": [
        0.605,
        0.00660000000000005,
        0.38839999999999997,
        -0.084234677155,
        0.122284794851,
        0.006913456569290831,  # mc_error: the half-draw rule
    ],
    "compare_paired f1 paired-binomial next_test_set": [
        0.6526,
        0.0026000000000000467,
        0.3448,
        -0.053752867912,
        0.087192323738,
        0.006733833260637418,  # mc_error: the half-draw rule
    ],
    "rank_models k=3 paired-beta-binomial true_value": [
        0.1175,
        0.1435,
        0.739,
        2.4145,
        2.26875,
        1.31675,
        "7dc11c49ceebcb4f",
        0.006944044210688902,
    ],
    "rank_models k=3 paired-beta-binomial next_test_set": [
        0.17379166666666665,
        0.19816666666666666,
        0.6280416666666666,
        2.309,
        2.202,
        1.489,
        "52c5a91ca96a908f",
        0.007452181791587301,
    ],
    "rank_models k=3 paired-binomial next_test_set": [
        0.11404166666666665,
        0.14241666666666664,
        0.7435416666666667,
        2.422625,
        2.263625,
        1.31375,
        "d2087e49b12b8333",
        0.00664135739425261,
    ],
    "rank_models k=11 paired-beta-binomial true_value": [
        0.0,
        0.0,
        0.0,
        0.0,
        0.006666666666666667,
        0.01,
        0.06266666666666666,
        0.16866666666666666,
        0.21866666666666668,
        0.28,
        0.25333333333333335,
        10.008666666666667,
        9.776,
        8.144666666666666,
        9.524,
        6.245333333333333,
        5.943333333333333,
        4.228,
        3.2426666666666666,
        3.2493333333333334,
        2.882,
        2.756,
        "841404695f3dd3db",
        0.011593101396951442,
    ],
    "rank_models k=11 paired-beta-binomial next_test_set": [
        0.0,
        0.0,
        0.0026666666666666666,
        0.0,
        0.011999999999999997,
        0.035888888888888894,
        0.09255555555555554,
        0.17255555555555557,
        0.18811111111111112,
        0.2548888888888889,
        0.2413333333333333,
        9.674,
        9.530333333333333,
        8.010666666666667,
        9.231333333333334,
        6.129333333333333,
        5.777333333333333,
        4.314333333333333,
        3.5616666666666665,
        3.551,
        3.142333333333333,
        3.0776666666666666,
        "6e1a51f83f7de63c",
        0.010855794000186412,
    ],
    "rank_models k=11 paired-binomial next_test_set": [
        0.0,
        0.0,
        0.0,
        0.0,
        0.0051111111111111105,
        0.011222222222222222,
        0.06516666666666666,
        0.15661111111111115,
        0.20983333333333334,
        0.282,
        0.2700555555555555,
        10.055333333333333,
        9.753333333333334,
        8.096,
        9.523333333333333,
        6.293,
        5.980333333333333,
        4.195333333333333,
        3.3096666666666668,
        3.2266666666666666,
        2.820333333333333,
        2.7466666666666666,
        "ea4e0065143723e4",
        0.010990851414463487,
    ],
    "bias.report true_value": [
        ["AD", -0.1056720522117155, 0.06729626555082363],
        ["CI", 0.2748591670363129, 0.4508700988591126],
        ["DAR", -0.11943257880585925, 0.13744424941727273],
        ["DCA", -0.22890731300043277, 0.17265957096423745],
        ["DCR", -0.23075240087883064, 0.17372955847500626],
        ["DI", 0.6947028880515858, 1.0573200486853234],
        ["DPL", -0.041826429776974816, 0.15911910570673277],
        ["DPPL", -0.028675785957526283, 0.17227724459022778],
        ["DRR", -0.07892981672151761, 0.1531420775240362],
        ["GE", 0.09871149544527301, 0.14174883929233262],
        ["JS", 1.6256231270503265e-05, 0.012914661844887307],
        ["KL", 6.503037087865916e-05, 0.052468111959241254],
        ["KS", 0.006251877497388649, 0.15945666672708309],
        ["LP", 0.008841489947102191, 0.22550578069624755],
        ["RD", -0.10036884040187713, 0.15043475558659058],
        ["SD", -0.05963289149482415, 0.17825108640197201],
        ["TE", -0.5268308007570256, 0.9066415423068884],
        ["TVD", 0.006251877497388649, 0.15945666672708309],
    ],
    "bias.report next_test_set": [
        ["AD", -0.13966623876765083, 0.0993581514762516],
        ["CI", 0.24, 0.4866666666666667],
        ["DAR", -0.1757852077001013, 0.19597701149425284],
        ["DCA", -0.3363636363636363, 0.26234021632251714],
        ["DCR", -0.33143699957859263, 0.27721774193548376],
        ["DI", 0.627080521817364, 1.1450053705692804],
        ["DPL", -0.08395378690629013, 0.20077021822849805],
        ["DPPL", -0.07086007702182284, 0.21463414634146338],
        ["DRR", -0.12350515463917522, 0.19826007326007322],
        ["GE", 0.0911659726353362, 0.15071604282987494],
        ["JS", 2.4033580786537913e-05, 0.020907618582527543],
        ["KL", 9.612733537499047e-05, 0.08520816604769874],
        ["KS", 0.0069319640564826646, 0.20205391527599492],
        ["LP", 0.0098032775825606, 0.28574738731389626],
        ["RD", -0.15033783783783783, 0.20147058823529418],
        ["SD", -0.1058895331095514, 0.22819593787335724],
        ["TE", -0.8295454545454546, 1.6153846153846154],
        ["TVD", 0.0069319640564826646, 0.2020539152759949],
    ],
}


def test_seeded_answers_are_bit_identical_to_before_the_move() -> None:
    got = compute()
    assert got.keys() == EXPECTED.keys()
    for key, values in EXPECTED.items():
        assert got[key] == values, key


if __name__ == "__main__":
    import pprint

    pprint.pprint(compute(), width=120, sort_dicts=False)
