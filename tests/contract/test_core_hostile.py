"""Hostile arguments against every public core function (property-based).

Each example is one call of the public core API with arguments drawn from a good
pool and from a hostile one (negative, non-integer, boolean, NaN, ±inf, huge, wrong
type, string, None, out of range). The contract checked on every call:

* a **valid result** — its invariants are checked (Σ probabilities + pruned mass
  (+ undefined mass when excluded) = 1 within 1e-9, cdf/sf within [0, 1], cdf(±inf)
  exactly 1/0, cdf(nan) nan, mean/std inf exactly when mass sits on ±inf …), or
* a **confusionlab.InvalidParameterError (a ValueError and a TypeError) whose message
  names the offending argument** (for a request that is valid but too large: a
  ValueError that names the argument or says how to get an answer — tolerance,
  future_size, memory limit);
* and **never more than a memory bound**: the calls run in a child process
  (``_hostile_worker.py``) whose address space is capped with ``RLIMIT_AS`` at its
  baseline + 3 GiB, with the library's own limit at 512 MiB
  (``CONFUSIONLAB_MEMORY_LIMIT``). A blow-up fails that one allocation with a
  ``MemoryError`` inside the child — reported here — and the 24 GiB test machine is
  never at risk. A CPU-time cap (``RLIMIT_CPU``, 60 s per call; not wall-clock time)
  turns a runaway computation into a reported failure instead of a hung CI job.

Arguments are tagged ``ok`` (must be answered), ``bad`` (must be refused, naming it)
or ``big`` (valid but huge: answered, or refused with a clear message).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

import pytest
from _hostile_worker import Worker
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import confusionlab as cl

settings.register_profile(
    "contract-ci",
    derandomize=True,  # CI runs the same examples every time
    database=None,
    deadline=None,
    print_blob=True,
    # no shrinking: a failing call is reported as drawn (its repr is readable), and a defective
    # build that allocates up to the cap on many examples still finishes in about a minute
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
CI = settings.get_profile("contract-ci")

METRIC_NAMES = [*cl.METRICS, "f2"]  # every registered metric, and an F-beta
NAN, INF = math.nan, math.inf


# ----------------------------------------------------------------------------- the child process
@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.close()


# ----------------------------------------------------------------------------- the contract
def _names(message: str, names: set[str]) -> bool:
    return any(re.search(rf"(?<![A-Za-z0-9]){re.escape(n)}(?![A-Za-z0-9])", message) for n in names)


ADVICE = ("tolerance", "future_size", "memory limit", "set_memory_limit")


def assert_contract(reply: dict[str, Any], args: dict[str, tuple[Any, str]], call: str) -> None:
    """``args`` maps argument name -> (value, tag); tags: ok, bad, big."""
    bad = {k for k, (_, tag) in args.items() if tag == "bad"}
    big = {k for k, (_, tag) in args.items() if tag == "big"}
    shown = ", ".join(f"{k}={v!r}" for k, (v, _) in args.items())
    where = f"{call}({shown})"
    kind = reply["kind"]
    assert kind not in ("memory", "crash"), f"{where}: broke the memory/CPU bound: {reply['message']}"
    if kind == "ok":
        assert not bad, f"{where}: accepted the invalid argument(s) {sorted(bad)}"
        assert not reply["violations"], f"{where}: invalid result: {reply['violations']}"
        return
    mro, message = reply["mro"], reply["message"]
    assert "ValueError" in mro or "TypeError" in mro, f"{where}: raised {mro[0]}: {message}"
    if bad:
        assert _names(message, bad | big), f"{where}: refusal does not name {sorted(bad)}: {mro[0]}: {message}"
        assert "InvalidParameterError" in mro or "TooLargeError" in mro, f"{where}: refused with {mro[0]}: {message}"
    elif big:
        clear = _names(message, big) or "TooLargeError" in mro or any(a in message for a in ADVICE)
        assert clear, f"{where}: refusal of a large request neither names {sorted(big)} nor advises: {message}"
    else:
        raise AssertionError(f"{where}: refused valid arguments: {mro[0]}: {message}")


def run(worker: Worker, call: str, **args: tuple[Any, str]) -> None:
    reply = worker.call(call, **{k: v for k, (v, _) in args.items()})
    assert_contract(reply, args, call)


# ----------------------------------------------------------------------------- pools
def tagged(good: st.SearchStrategy[Any], bad: list[Any] = (), big: list[Any] = ()) -> st.SearchStrategy:
    options = [good.map(lambda v: (v, "ok"))]
    if bad:
        options.append(st.sampled_from([(v, "bad") for v in bad]))
    if big:
        options.append(st.sampled_from([(v, "big") for v in big]))
    return st.one_of(options)


BAD_NUMBERS = [NAN, INF, -INF, "16", None, [16], True, False, complex(1, 1)]
BAD_COUNTS = [-1, -(10**9), 2.5, Fraction(3, 2), 10**18, 2**64, *BAD_NUMBERS]
BIG_COUNTS = [10**9, 10**12, 10**15]
small_counts = st.integers(1, 25)
counts_arg = tagged(small_counts, BAD_COUNTS, BIG_COUNTS)
metric_arg = tagged(st.sampled_from(METRIC_NAMES), ["nope", "", None, 3, "f-1", "mcc mcc"])
tolerance_arg = tagged(
    st.sampled_from([0.0, 0, 1e-12, 1e-9, 1e-6]), [-1e-9, NAN, INF, 0.5, 1.0, 2, "1e-9", None, True, -INF]
)
prior_arg = tagged(st.sampled_from(["uniform", "jeffreys", 0.5, 1, 2.0]), [0, -1, NAN, INF, "flat", None, True], [1e20])
undefined_arg = tagged(st.sampled_from([0.0, 1.0, -1.0, "exclude"]), ["drop", None, NAN, True, [0]])
confidence_arg = tagged(
    st.sampled_from([0.5, 0.9, 0.95, 0.99]), [1.5, -0.1, NAN, INF, "0.95", None, True, 95], [0.0, 1.0]
)


def counts4(draw: Any) -> tuple[tuple[Any, ...], dict[str, tuple[Any, str]]]:
    picked = {k: draw(counts_arg) for k in ("tp", "fn", "fp", "tn")}
    return tuple(v for v, _ in picked.values()), picked


# ----------------------------------------------------------------------------- tests
@settings(CI, max_examples=60)
@given(data=st.data())
def test_confusion_matrix_counts(worker: Worker, data: st.DataObject) -> None:
    counts, tags = counts4(data.draw)
    reply = worker.call("confusion_matrix", counts=counts)
    assert_contract(reply, tags, "ConfusionMatrix")


@settings(CI, max_examples=40)
@given(
    matrix=tagged(
        st.lists(st.lists(st.integers(1, 50), min_size=2, max_size=2), min_size=2, max_size=2),
        [[[1, 2], [3]], [[1, 2, 3]], [[-1, 2], [3, 4]], [[1.5, 2], [3, 4]], [[NAN, 2], [3, 4]], "[[1,2],[3,4]]", None],
        [[[10**12, 10**12], [10**12, 10**12]]],
    ),
    positive_index=tagged(st.sampled_from([0, 1]), [2, -1, True, 1.5, "1", None, NAN]),
)
def test_from_sklearn(worker: Worker, matrix: tuple, positive_index: tuple) -> None:
    run(worker, "from_sklearn", matrix=matrix, positive_index=positive_index)


LABELS = st.lists(st.sampled_from([0, 1]), min_size=1, max_size=30)
BAD_LABELS = [
    [1, 0, None],
    [1.0, NAN, 0.0],
    ["a", "b", "c"],
    [0, 1, 2],
    [],
    "0101",
    None,
    7,
    [[0, 1], [1, 0]],
]


@settings(CI, max_examples=50)
@given(
    y_true=tagged(LABELS, BAD_LABELS),
    y_pred=tagged(LABELS, BAD_LABELS),
    positive=tagged(st.sampled_from([None, 1, 0]), ["dog", 5, 2.5]),
)
def test_from_predictions(worker: Worker, y_true: tuple, y_pred: tuple, positive: tuple) -> None:
    t, p = y_true[0], y_pred[0]
    if y_true[1] == y_pred[1] == "ok" and len(t) != len(p):
        # different lengths: both arrays are to blame and must be named
        y_true, y_pred = (t, "bad"), (p, "bad")
    if positive[0] is not None and y_true[1] == y_pred[1] == "ok" and positive[0] not in (*t, *p):
        positive = (positive[0], "bad")  # a positive label that never occurs is refused, naming positive
    run(worker, "from_predictions", y_true=y_true, y_pred=y_pred, positive=positive)


@settings(CI, max_examples=50)
@given(data=st.data())
def test_from_rates(worker: Worker, data: st.DataObject) -> None:
    p = data.draw(tagged(st.sampled_from([20, 40, 100]), [-20, 2.5, NAN, INF, None, "20", True]))
    n = data.draw(tagged(st.sampled_from([20, 40, 100]), [-40, 2.5, NAN, INF, None, "40", True]))
    rates = [0.0, 0.25, 0.5, 0.75, 1.0, Fraction(1, 4)]
    bad_rates = [NAN, INF, -INF, -0.1, 1.5, 2, "0.8", None, True, complex(0.5, 0)]
    tpr = data.draw(tagged(st.sampled_from(rates), bad_rates))
    tnr = data.draw(tagged(st.sampled_from(rates), bad_rates))
    run(worker, "from_rates", p=p, n=n, tpr=tpr, tnr=tnr)


@settings(CI, max_examples=60)
@given(data=st.data())
def test_metric_value(worker: Worker, data: st.DataObject) -> None:
    counts = tuple(data.draw(st.one_of(st.integers(0, 40), st.sampled_from(BIG_COUNTS))) for _ in range(4))
    if sum(counts) == 0:
        counts = (1, 0, 0, 0)
    metric = data.draw(metric_arg)
    undefined = data.draw(tagged(st.sampled_from([0.0, 1.0, -1.0, 0.5]), ["zero", None, True, [0.0]]))
    reply = worker.call("metric_value", counts=counts, metric=metric[0], undefined=undefined[0])
    assert_contract(reply, {"cm": (counts, "ok"), "metric": metric, "undefined": undefined}, "metric_value")


@settings(CI, max_examples=30)
@given(beta=tagged(st.sampled_from([0.5, 1, 2, 3.0, Fraction(1, 3)]), [NAN, INF, -INF, -1, 0, "2", None, True, 1j]))
def test_fbeta_metric(worker: Worker, beta: tuple) -> None:
    run(worker, "fbeta_metric", beta=beta)


@settings(CI, max_examples=120)
@given(data=st.data())
def test_metric_distribution(worker: Worker, data: st.DataObject) -> None:
    draw = data.draw
    model = draw(
        tagged(st.sampled_from(["beta-binomial", "binomial", "dirichlet-multinomial"]), ["poisson", None, 3, ""])
    )
    big = draw(st.booleans()) and draw(st.booleans())  # a quarter of the examples: huge observed counts
    pool = st.sampled_from([*BIG_COUNTS, 10**8]) if big else small_counts
    counts = tuple(draw(pool) for _ in range(4))
    # future_size: a total N for every model; a pair (p, n) too for the slice models (p and n fixed)
    sizes_ok = st.one_of(st.none(), st.integers(1, 100))
    pair_ok = st.tuples(st.integers(1, 40), st.integers(1, 40))
    future = draw(
        tagged(
            sizes_ok if model[0] == "dirichlet-multinomial" else st.one_of(sizes_ok, pair_ok),
            [(-1, 5), (2.5, 3), (NAN, 3), (True, 3), "10", (5,), (5, 5, 5), -3, 2.5, INF]
            + ([(5, 5)] if model[0] == "dirichlet-multinomial" else []),
            [(10**9, 10**9), (10**12, 5)] if model[0] != "dirichlet-multinomial" else [10**9, 10**6],
        )
    )
    args = {
        "cm": (counts, "big" if big else "ok"),
        "metric": draw(metric_arg),
        "model": model,
        "prior": draw(prior_arg),
        "future_size": future,
        "tolerance": draw(tolerance_arg),
        "undefined": draw(undefined_arg),
    }
    reply = worker.call("metric_distribution", counts=counts, **{k: v for k, (v, _) in args.items() if k != "cm"})
    assert_contract(reply, args, "metric_distribution")


@settings(CI, max_examples=60)
@given(data=st.data())
def test_distribution_methods(worker: Worker, data: st.DataObject) -> None:
    counts = data.draw(st.sampled_from([(16, 4, 8, 32), (16, 4, 0, 40), (3, 0, 0, 5), (1, 1, 1, 1)]))
    metric = data.draw(st.sampled_from(["mcc", "lr_plus", "diagnostic_odds_ratio", "balanced_accuracy", "f1"]))
    method = data.draw(st.sampled_from(["interval", "ppf", "cdf", "sf", "pmf", "rvs"]))
    if method == "interval":
        args = {"confidence": data.draw(confidence_arg)}
    elif method == "ppf":
        args = {"q": data.draw(tagged(st.sampled_from([0.0, 0.025, 0.5, 0.975, 1.0]), [1.5, -0.1, NAN, -INF, None]))}
    elif method == "rvs":
        args = {
            "size": data.draw(
                tagged(st.sampled_from([1, 10, (2, 3)]), [-1, 2.5, "3", (-1, 2)], [10**12, (10**6, 10**6)])
            ),
            "random_state": data.draw(tagged(st.sampled_from([None, 0, 42]), [-1, "seed", 1.5, True])),
        }
    else:
        args = {"x": (data.draw(st.sampled_from([0.0, 0.5, -INF, INF, NAN, 1e300, -1e300, 5.0])), "ok")}
    reply = worker.call(
        "distribution_method", counts=counts, metric=metric, method=method, args=tuple(v for v, _ in args.values())
    )
    assert_contract(reply, args, f"metric_distribution(ConfusionMatrix{counts}, {metric!r}).{method}")


LARGE = ((64, 16, 32, 128), "mcc")  # ~ thousands of distinct values: 10**7 pairs and more


@settings(CI, max_examples=50)
@given(data=st.data())
def test_compare(worker: Worker, data: st.DataObject) -> None:
    pick = st.sampled_from([((16, 4, 8, 32), "mcc"), ((14, 6, 10, 30), "mcc"), LARGE, ((16, 4, 0, 40), "lr_plus")])
    a = data.draw(tagged(pick, [None, 3, "mcc"]))
    b = data.draw(tagged(pick, [None, [0.5, 0.6]]))
    if a[1] == b[1] == "ok" and a[0][1] != b[0][1]:
        b = (b[0], "bad")  # different metrics: refused, naming them (a or b, or 'metric')
        a = (a[0], "bad")
    args = {
        "a": a,
        "b": b,
        "max_pairs": data.draw(
            tagged(st.sampled_from([4_000_000, 100, 0]), [-1, 2.5, "many", None, True, NAN], [10**12, 10**18])
        ),
        "bins": data.draw(tagged(st.sampled_from([2001, 100, 7]), [0, -5, 2.5, "10", None, True, NAN, 10**9, 10**12])),
    }
    reply = worker.call("compare", **{k: v for k, (v, _) in args.items()})
    if a[1] == b[1] == "bad" and reply["kind"] == "error":
        args = {**args, "metric": (None, "bad")}
    assert_contract(reply, args, "compare")


@settings(CI, max_examples=80)
@given(data=st.data())
def test_contour(worker: Worker, data: st.DataObject) -> None:
    args = {
        "metric": data.draw(metric_arg),
        "level": data.draw(
            tagged(st.sampled_from([0.0, 0.25, 0.5, 0.9, 1.0, 2.0, -0.5, 5.0]), [NAN, INF, -INF, "0.5", None, 1j])
        ),
        "p": data.draw(tagged(st.integers(1, 200), [0, -3, 2.5, NAN, INF, None, "20", True, 10**18], [10**12])),
        "n": data.draw(tagged(st.integers(1, 200), [0, -3, 2.5, NAN, INF, None, "40", False], [10**12])),
        "num": data.draw(tagged(st.sampled_from([2, 50, 400]), [1, 0, -3, 2.5, "400", None, True, NAN, 10**9, 10**12])),
        "window": data.draw(
            tagged(
                st.sampled_from([None, (0.0, 1.0, 0.0, 1.0), (-0.5, 1.5, -0.5, 1.5)]),
                [(1.0, 0.0, 0.0, 1.0), (NAN, 1.0, 0.0, 1.0), (0.0, INF, 0.0, 1.0), "square", (0.0, 1.0, 0.0), 3],
            )
        ),
        "extend": (data.draw(st.booleans()), "ok"),
    }
    run(worker, "contour", **args)


@settings(CI, max_examples=40)
@given(p=tagged(st.integers(0, 2000), BAD_COUNTS, BIG_COUNTS), n=tagged(st.integers(0, 2000), BAD_COUNTS, BIG_COUNTS))
def test_slice_lattice(worker: Worker, p: tuple, n: tuple) -> None:
    run(worker, "slice_lattice", p=p, n=n)


@settings(CI, max_examples=30)
@given(N=tagged(st.integers(0, 60), BAD_COUNTS, [493, 10**4, *BIG_COUNTS]))
def test_simplex_points(worker: Worker, N: tuple) -> None:
    run(worker, "simplex_points", N=N)


@settings(CI, max_examples=50)
@given(data=st.data())
def test_slice_model(worker: Worker, data: st.DataObject) -> None:
    counts = data.draw(
        st.one_of(
            st.tuples(small_counts, small_counts, small_counts, small_counts).map(lambda c: (c, "ok")),
            st.sampled_from([((10**9,) * 4, "big"), ((10**12,) * 4, "big"), ((10**8,) * 4, "big")]),
        )
    )
    args = {
        "counts": counts,
        "model": data.draw(tagged(st.sampled_from(["beta-binomial", "binomial"]), ["poisson", None])),
        "prior": data.draw(prior_arg),
        "tolerance": data.draw(tolerance_arg),
    }
    run(worker, "slice_model", **args)
