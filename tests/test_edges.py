"""Thresholds, tolerances and bookkeeping at their edges.

* every exercise check: the reference (and the reference rounded to the decimals its exercise
  states) is taken, the reference ± twice its step refused, through the check itself;
* the rank floors of :mod:`fairlab._core.linalg`: an instance just above and just below each;
* the results ledger: a unit's key and parameters in any order are the same unit, NaN equals
  NaN but not a number, a unit the ledger lacks or records as missing is counted as such;
* the documented defaults of :mod:`fairlab.metrics` and of the leakage audit: the signature
  holds the documented value, and a call without the argument equals one with it.
"""

import ast
import inspect
import itertools
import math
import re

import numpy as np
import pandas as pd
import pytest

from fairlab import exercises, metrics
from fairlab._core import linalg
from fairlab.experiments import _ledger
from fairlab.experiments._ledger import _grid

# ------------------------------------------------------------------------------ exercise checks
# the checks whose answer is a number or a tuple of numbers, as each check takes them
_AS_ANSWER = {
    "ex-datasets-age": tuple, "ex-insep-test": tuple, "ex-repro-ddof": lambda v: v[0],
    "ex-erasure-parity": tuple, "ex-dediego-ci": tuple, "ex-scaling-shift": lambda v: v[0],
    "ex-audit-train-test": lambda v: (0.0, v[0]),
    "ex-variants-l": lambda v: dict(zip(range(2, 10), v)),
    "ex-ps-encoding": lambda v: _ps_results(v[0]),
}


def _ps_results(hsic):
    """The least results frame the ex-ps-encoding check reads: LR's HSIC for n_children (with
    S, first repetition), after rows of the same LR without S and of another repetition."""
    return pd.DataFrame({"sensitive": ["n_children"] * 3 + ["wife_education", "n_children"],
                         "method": ["LR", "LR", "LR", "FLR", "FLR"],
                         "variant": ["without S", "with S", "with S", "with S", "with S"],
                         "repetition": [0, 1, 0, 0, 0], "hsic": [0.5, 0.4, hsic, 0.1, 0.1]})


def _reference(label):
    from fairlab.exercises import _key, _precision

    # the instructor's key, read by the test only: never printed by a check
    return (np.array(_key.references()[label]["answer"], dtype=float),
            np.array(_precision.STEPS[label]["answer"], dtype=float))


def test_every_numeric_check_is_probed_here():
    from fairlab.exercises import _key, _precision

    numeric = [label for label in _key.references()
               if all(step is not None for step in _precision.STEPS[label]["answer"])
               and isinstance(_key.references()[label]["answer"][0], (int, float, np.number))]
    # ex-fpca-numerical digests (Σ|M|, max|M|) of an orthogonal matrix: no edge to move alone
    missing = set(numeric) - set(_AS_ANSWER) - {"ex-fpca-numerical"}
    assert not missing, f"numeric checks without an edge test: {sorted(missing)}"


@pytest.mark.parametrize("label", list(_AS_ANSWER))
def test_each_check_takes_its_reference_and_refuses_twice_its_step(label):
    reference, steps = _reference(label)
    as_answer = _AS_ANSWER[label]
    result = exercises.check(label, as_answer(reference.tolist()))
    assert result.correct is True, str(result)
    for i, sign in itertools.product(range(reference.size), (-1.0, 1.0)):
        moved = reference.copy()
        moved[i] += sign * 2.0 * steps[i]
        result = exercises.check(label, as_answer(moved.tolist()))
        assert result.correct is False, (label, i, sign, str(result))
        # just inside one step is still taken (the promise of the bins)
        near = reference.copy()
        near[i] += sign * 0.99 * steps[i]
        assert exercises.check(label, as_answer(near.tolist())).correct is True, (label, i, sign)


@pytest.mark.parametrize("label", list(_AS_ANSWER))
def test_the_stated_decimals_match_the_step_and_a_rounded_reference_is_taken(label):
    """"to N decimals": the reference rounded to N decimals is taken, so the step is ≥ ½·10⁻ᴺ."""
    reference, steps = _reference(label)
    found = re.search(r"to (\d) decimals", exercises.expected(label))
    if found is None:  # a quarter of a digit, or a value of the chapter's run at its own step
        if "quarter of a digit" in exercises.expected(label):
            assert steps.tolist() == [0.25]
        return
    decimals = int(found.group(1))
    hashed = steps if label != "ex-audit-train-test" else steps[:1]
    assert np.all(hashed >= 0.5 * 10.0**-decimals), (label, steps.tolist(), decimals)
    rounded = np.round(reference, decimals)
    assert exercises.check(label, _AS_ANSWER[label](rounded.tolist())).correct is True, label


# ---------------------------------------------------------------------------------- rank floors
EPS = np.finfo(float).eps


@pytest.mark.parametrize("p, r", [(3, 1), (4, 2), (5, 3)])
def test_constraint_basis_keeps_a_direction_just_above_its_bound_only(p, r):
    n_terms = 1000
    tolerance = n_terms * EPS * math.sqrt(p * r)
    for factor, kept in ((1 + 1e-9, r), (1.0, r - 1), (1 - 1e-9, r - 1)):
        A = np.zeros((p, r))
        for j in range(r - 1):
            A[j, j] = 1.0
        A[r - 1, r - 1] = tolerance * factor  # the smallest singular value, exactly
        Q = linalg.constraint_basis(A, np.ones(p), np.ones(r), n_terms)
        assert Q.shape == (p, kept), (p, r, factor)
        # the scaling by the norms of F and G: the same instance, units moved to the norms
        Q = linalg.constraint_basis(A * 8.0, np.full(p, 2.0), np.full(r, 4.0), n_terms)
        assert Q.shape == (p, kept), (p, r, factor, "scaled")


def test_centred_gram_factor_floor_just_above_and_below():
    n = 4
    # floor = max(n·eps·λ_max, 4·n·unit); a diagonal matrix has exact eigenvalues
    for unit, floor in ((0.0, n * EPS * 1.0), (1e-10, 4 * n * 1e-10)):
        for factor, kept in ((1 + 1e-9, 2), (1.0, 1), (1 - 1e-9, 1)):
            Kc = np.diag([1.0, floor * factor, 0.0, 0.0])
            w, V = linalg.centred_gram_factor(Kc, n_distinct=n, unit=unit)
            assert w.size == kept, (unit, factor)
    # the structural bound: at most n_distinct − 1 eigenpairs, whatever their size
    w, _ = linalg.centred_gram_factor(np.diag([3.0, 2.0, 1.0, 0.5]), n_distinct=3)
    assert w.tolist() == [3.0, 2.0]


def test_gram_constraint_factor_floor_just_above_and_below():
    n_terms, unit, r = 50, 1e-12, 2
    floor = 4.0 * n_terms * r * unit
    for factor, kept in ((1 + 1e-9, 2), (1.0, 1), (1 - 1e-9, 1)):
        T, sigma = linalg.gram_constraint_factor(np.diag([1.0, floor * factor]), n_terms, unit)
        assert sigma.size == kept and T.shape == (r, kept), factor
    # a negative eigenvalue (an indefinite kernel) is kept by its magnitude, with its sign
    T, sigma = linalg.gram_constraint_factor(np.diag([1.0, -floor * 1.01]), n_terms, unit)
    assert sigma.tolist() == [1.0, -1.0]


# ------------------------------------------------------------------------------- results ledger
def _shuffled(d, seed):
    items = list(d.items())
    np.random.default_rng(seed).shuffle(items)
    return dict(items)


@pytest.mark.parametrize("experiment", ["de_diego", "perez_suay", "kleindessner"])
def test_a_unit_key_in_any_order_is_the_same_unit(experiment):
    module = _ledger._module(experiment)
    key = module.units()[0]
    uid = _ledger.unit_id(experiment, key)
    for seed in range(4):
        shuffled = _shuffled(key, seed)
        assert _ledger.unit_id(experiment, shuffled) == uid
    # the readable id names the fields in UNIT_KEYS order, whatever the dict's order
    assert uid == "/".join([experiment] + [f"{f}={key[f]}" for f in module.UNIT_KEYS])
    assert _grid._key_from_id(experiment, uid) == {f: key[f] for f in module.UNIT_KEYS}


def test_parameters_in_any_order_give_the_same_stored_text():
    params = {"n_splits": 10, "train_size": 0.7, "grid": {"b": [1, 2], "a": 0.5},
              "models": ("LR", "SVM"), "seed": 0}
    text = _ledger.parameters_json(params)
    for seed in range(5):
        shuffled = _shuffled(params, seed)
        shuffled["grid"] = _shuffled(params["grid"], seed + 10)
        assert _ledger.parameters_json(shuffled) == text
    assert _ledger.parameters_json({**params, "seed": 1}) != text


UNIT_A = "de_diego/dataset=adult/table=table1/eta=0.0"
UNIT_B = "de_diego/dataset=adult/table=table1/eta=1.0"


def _rows(unit, values):
    return pd.DataFrame({"unit": unit, "table": "table1", "dataset": "adult", "method": "FairPLS",
                         "k": 2, "eta": 0.0, "model": "", "metric": [f"m{i}" for i in
                                                                    range(len(values))],
                         "split": 0, "value": values})


@pytest.mark.parametrize("new, old, equal", [
    ([np.nan, 1.0], [np.nan, 1.0], True),
    ([np.nan, 1.0], [0.5, 1.0], False),
    ([0.5, 1.0], [np.nan, 1.0], False),
    ([0.123456784, 1.0], [0.12345678, 1.0], True),     # rounds to the stored 8 digits
    ([0.12345679, 1.0], [0.12345678, 1.0], False),
])
def test_equal_to_ledger_nan_equals_nan_only(new, old, equal):
    got = _ledger.equal_to_ledger(_rows(UNIT_A, new), _rows(UNIT_A, old))
    assert got["in_ledger"].tolist() == [True]
    assert got["equal"].tolist() == [equal]
    assert (got["max_relative_difference"].iloc[0] == 0.0) == equal


def test_equal_to_ledger_counts_a_unit_the_ledger_lacks():
    rows = pd.concat([_rows(UNIT_A, [1.0]), _rows(UNIT_B, [2.0])], ignore_index=True)
    got = _ledger.equal_to_ledger(rows, _rows(UNIT_A, [1.0])).set_index("unit")
    assert got.loc[UNIT_A, "equal"] and got.loc[UNIT_A, "in_ledger"]
    assert not got.loc[UNIT_B, "equal"] and not got.loc[UNIT_B, "in_ledger"]
    assert np.isnan(got.loc[UNIT_B, "max_relative_difference"])


def _ledger_frame():
    rows = []
    for uid, eta, metric, value in ((UNIT_A, 0.0, "cov2_s", 0.1), (UNIT_A, 0.0, "cov2_y", 0.2),
                                    (UNIT_B, 1.0, _ledger.MISSING, np.nan)):
        rows.append({"paper": "dediego2025", "table": "table1", "dataset": "adult",
                     "method": "FairPLS", "k": 2, "eta": eta, "model": "", "metric": metric,
                     "split": 0, "value": value, "unit": uid, "commit": "abc", "date":
                     "2026-01-01T00:00:00", "machine": "m", "parameters": "{}", "seconds": 1.0,
                     "note": "RuntimeError: no\nmore" if metric == _ledger.MISSING else ""})
    return pd.DataFrame(rows, columns=_ledger.LEDGER_COLUMNS)


def test_a_missing_unit_is_counted_as_missing_and_left_out_of_the_means():
    ledger = _ledger_frame()
    text = _ledger.describe_ledger(ledger)
    assert "ledger: 2 units, 3 rows" in text
    assert "1 unit(s) recorded as missing" in text and f"{UNIT_B}: RuntimeError: no" in text
    summary = _ledger.summarize_ledger(ledger)
    assert _ledger.MISSING not in set(summary["metric"]) and len(summary) == 2
    # against the paper-scale grid: the missing unit is held (recorded), the rest not computed
    grid = len(_ledger._module("de_diego").units())
    assert (f"paper-scale grid: {grid} units, 2 held, {grid - 2} not computed yet"
            in _ledger.describe_ledger(ledger, "de_diego"))


# ---------------------------------------------------------------------------- documented defaults
_DEFAULT = re.compile(r"^([\w, ]+) : .*default=(.+)$", re.M)


def _documented_defaults(function):
    """{parameter: value} from the numpydoc lines ``name[, name] : type, default=value``."""
    out = {}
    for names, value in _DEFAULT.findall(inspect.getdoc(function) or ""):
        for name in names.split(","):
            out[name.strip()] = ast.literal_eval(value.strip())
    return out


def _public():
    return [(name, getattr(metrics, name)) for name in metrics.__all__
            if inspect.isfunction(getattr(metrics, name))]


@pytest.mark.parametrize("name, function", _public())
def test_documented_defaults_are_the_signatures(name, function):
    documented = _documented_defaults(function)
    signature = inspect.signature(function).parameters
    for parameter, value in documented.items():
        assert parameter in signature, (name, parameter)
        assert signature[parameter].default == value, (name, parameter, value)


rng = np.random.default_rng(0)
_S = np.repeat([0, 1], 20)
_E = rng.normal(size=(40, 2)) + _S[:, None] * 0.8
_YP = (rng.random(40) < 0.3 + 0.3 * _S).astype(int)
_YT = (rng.random(40) < 0.5).astype(int)

# a call of each public function with its required arguments (and cheap other ones)
_CALLS = {
    "cov2": ((_E, _S), {}),
    "demographic_parity_difference": ((_YT, _YP), {"sensitive_features": _S}),
    "disparate_impact": ((_YT, _YP), {"sensitive_features": _S}),
    "disparate_impact_ci": ((_YT, _YP), {"sensitive_features": _S}),
    "equal_opportunity_difference": ((_YT, _YP), {"sensitive_features": _S}),
    "equal_opportunity_ratio": ((_YT, _YP), {"sensitive_features": _S}),
    "equalized_odds_difference": ((_YT, _YP), {"sensitive_features": _S}),
    "hsic": ((_E, _S), {"kernel": "rbf", "kernel_y": "rbf"}),
    "hsic_rbf_widths": ((_E, _S, [0.5, 2.0]), {}),
    "linear_inseparability": ((_E, _S), {}),
    "mmd2": ((_E, _S), {}),
    "reconstruction_error": ((_E, np.array([[0.6, 0.8]])), {}),
    "leakage": ((_E, _S), {"adversaries": ("logistic",), "n_bootstrap": 30,
                           "n_permutations": 19}),
}
# the documented values that would make the cheap call above expensive are left to the
# signature test: the four adversaries, 500 resamples and 200 permutations
_SLOW = {("leakage", "adversaries"), ("leakage", "n_bootstrap"), ("leakage", "n_permutations")}


def _same(a, b):
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b)
        return True
    return np.array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float), equal_nan=True)


@pytest.mark.parametrize("name", sorted(_CALLS))
def test_calling_without_a_documented_argument_equals_calling_with_its_value(name):
    function = getattr(metrics, name)
    args, kwargs = _CALLS[name]
    documented = dict(_documented_defaults(function))
    # documented in words, beside the numpydoc lines
    documented.update({"hsic": {"gamma": "median", "gamma_y": "median"},
                       "mmd2": {"sigma": None},
                       "reconstruction_error": {"mean": None, "normalize": False},
                       "linear_inseparability": {"random_state": 0}}.get(name, {}))
    for parameter, value in documented.items():
        if (name, parameter) in _SLOW or parameter in kwargs:
            continue
        assert _same(function(*args, **kwargs), function(*args, **kwargs, **{parameter: value})), (
            name, parameter)


# ------------------------------------------------------------- Pérez-Suay et al.'s claim checks
def _results(dataset, panel, curves, coord="mu", repetitions=3):
    """Rows of regression / dimensionality_reduction: ``curves`` label -> [(coord, error, hsic)],
    the same values at every repetition (paired differences constant, means exact)."""
    rows = []
    for label, points in curves.items():
        method, variant = (label[:-2], "without S") if label.endswith("\\S") else (label,
                                                                                   "with S")
        for rep in range(repetitions):
            for c, e, h in points:
                rows.append({"dataset": dataset, "sensitive": panel, "variant": variant,
                             "method": method, "repetition": rep, coord: c, "error": e,
                             "hsic": h, "seconds": 0.0})
    return pd.DataFrame(rows)


def _adult(flr_1=(0.305, 1e-4), fkr_1=(0.255, 1e-6), linear_shift=0.005, linear_factor=1.5,
           flr_0=(0.30, 1e-2)):
    flr = [(0.0, *flr_0), (1.0, *flr_1), (2.0, 0.40, 1e-7)]
    return _results("adult", "sex", {
        "LR": [(0.0, 0.30, 1e-2)], "KRR": [(0.0, 0.25, 1e-2)], "FLR": flr,
        "FKR": [(0.0, 0.25, 1e-2), (1.0, *fkr_1), (2.0, 0.35, 1e-9)],
        "FLR\\S": [(m, e - linear_shift, h / linear_factor) for m, e, h in flr],
        "FKR\\S": [(0.0, 0.26, 1e-2), (1.0, 0.27, 1e-5), (2.0, 0.36, 1e-8)]})


def _cmc(last=(0.33, 1e-5)):
    return _results("cmc", "religion", {
        "LR": [(0.0, 0.32, 1e-2)], "KRR": [(0.0, 0.30, 1e-2)],
        "FLR": [(0.0, 0.32, 1e-2), (1.0, 0.33, 1e-4), (2.0, 0.36, 1e-6)],
        "FKR": [(0.0, 0.30, 1e-2), (1.0, 0.31, 1e-4), (2.0, *last)]})


def _sex_race(fdr=(0.25, 1e-6), pca_middle=None):
    pca = [(1, 0.26, 1e-2), (2, 0.25, 1e-2)]
    if pca_middle is not None:  # a third n_p between the two, with its own HSIC
        pca = [(1, 0.26, 1e-2), (2, 0.255, pca_middle), (3, 0.25, 1e-2)]
    return _results("adult", "sex+race", {
        "PCA": pca, "KPCA": [(1, 0.26, 5e-3), (2, 0.25, 5e-3)],
        "FDR": [(2, *fdr)], "KFDR": [(2, 0.24, 1e-6)]}, coord="n_components")


D = 1e-6  # a relative step past a threshold, far above the rounding of the means
# (check, results, holds): each threshold approached from both sides
_CLAIMS = [
    # fig4 fair: HSIC ≤ 0.1× LR's among the points within +1 point of LR's error (0.30)
    ("fig4 fair", lambda: _adult(flr_1=(0.305, 1e-3 * (1 - D))), True),
    ("fig4 fair", lambda: _adult(flr_1=(0.305, 1e-3 * (1 + D))), False),
    ("fig4 fair", lambda: _adult(flr_1=(0.30 + 0.01 * (1 - D), 1e-4)), True),
    ("fig4 fair", lambda: _adult(flr_1=(0.30 + 0.01 * (1 + D), 1e-4)), False),
    # no FLR point within +1 point of LR's error at all: nothing is "similar", it fails
    ("fig4 fair", lambda: _adult(flr_0=(0.30 + 0.01 * (1 + D), 1e-2),
                                 flr_1=(0.30 + 0.01 * (1 + D), 1e-4)), False),
    # fig4 fkr: HSIC ≤ 1e-3× KRR's within +2 points of KRR's error (0.25)
    ("fig4 fkr", lambda: _adult(fkr_1=(0.255, 1e-5 * (1 - D))), True),
    ("fig4 fkr", lambda: _adult(fkr_1=(0.255, 1e-5 * (1 + D))), False),
    ("fig4 fkr", lambda: _adult(fkr_1=(0.25 + 0.02 * (1 - D), 1e-6)), True),
    ("fig4 fkr", lambda: _adult(fkr_1=(0.25 + 0.02 * (1 + D), 1e-6)), False),
    # fig4 linear: FLR − FLR\S error within ±1 point at every μ, HSIC within a factor 2
    ("fig4 linear", lambda: _adult(linear_shift=0.01 * (1 - D)), True),
    ("fig4 linear", lambda: _adult(linear_shift=0.01 * (1 + D)), False),
    ("fig4 linear", lambda: _adult(linear_shift=-0.01 * (1 - D)), True),
    ("fig4 linear", lambda: _adult(linear_shift=-0.01 * (1 + D)), False),
    ("fig4 linear", lambda: _adult(linear_factor=2 * (1 - D)), True),
    ("fig4 linear", lambda: _adult(linear_factor=2 * (1 + D)), False),
    # fig5 arbitrary: FKR's last HSIC ≤ 1e-2× KRR's, its error +2 to +5 points over KRR's (0.30);
    # the +2 to +5 points are the paper's own numbers, not scaled by the band
    ("fig5 arbitrary", lambda: _cmc(last=(0.33, 1e-4 * (1 - D))), True),
    ("fig5 arbitrary", lambda: _cmc(last=(0.33, 1e-4 * (1 + D))), False),
    ("fig5 arbitrary", lambda: _cmc(last=(0.30 + 0.02 * (1 + D), 1e-5)), True, False),
    ("fig5 arbitrary", lambda: _cmc(last=(0.30 + 0.02 * (1 - D), 1e-5)), False, False),
    ("fig5 arbitrary", lambda: _cmc(last=(0.30 + 0.05 * (1 - D), 1e-5)), True, False),
    ("fig5 arbitrary", lambda: _cmc(last=(0.30 + 0.05 * (1 + D), 1e-5)), False, False),
    # fig6 orders: HSIC ≤ 1e-2× the lowest PCA/KPCA HSIC (5e-3), error within 3 points of
    # PCA's at n_p = q (0.25)
    # fig6 n_p: PCA's HSIC max/min over n_p within a factor 10 (the extremes anywhere on the path)
    ("fig6 n_p", lambda: _sex_race(pca_middle=1e-1 * (1 - D)), True),
    ("fig6 n_p", lambda: _sex_race(pca_middle=1e-1 * (1 + D)), False),
    ("fig6 n_p", lambda: _sex_race(pca_middle=1e-3 * (1 + D)), True),
    ("fig6 n_p", lambda: _sex_race(pca_middle=1e-3 * (1 - D)), False),
    ("fig6 orders", lambda: _sex_race(fdr=(0.25, 5e-5 * (1 - D))), True),
    ("fig6 orders", lambda: _sex_race(fdr=(0.25, 5e-5 * (1 + D))), False),
    ("fig6 orders", lambda: _sex_race(fdr=(0.25 + 0.03 * (1 - D), 1e-6)), True),
    ("fig6 orders", lambda: _sex_race(fdr=(0.25 + 0.03 * (1 + D), 1e-6)), False),
    ("fig6 orders", lambda: _sex_race(fdr=(0.25 - 0.03 * (1 - D), 1e-6)), True),
    ("fig6 orders", lambda: _sex_race(fdr=(0.25 - 0.03 * (1 + D), 1e-6)), False),
]


@pytest.mark.parametrize("case", range(len(_CLAIMS)))
def test_a_value_just_past_a_claims_threshold_flips_its_verdict(case):
    from fairlab.experiments import perez_suay

    key, build, holds, *scaled = _CLAIMS[case]
    results = build()
    if "mu" in results.columns:
        checks = perez_suay.checks(regression=results)
    else:
        checks = perez_suay.checks(dimensionality_reduction=results)
    (row,) = [r for r in checks.itertuples() if r.words == perez_suay.WORDS[key]]
    assert row.holds is holds, (key, row.measured)
    assert row.thresholded
    if scaled == [False]:  # the paper's number: the same verdict at every reading
        assert row.holds_at_half == row.holds == row.holds_at_double, (key, row.measured)
    else:  # the chapter's threshold, scaled: at ×2 every such case holds, at ×½ none does
        assert row.holds_at_double and not row.holds_at_half, (key, row.measured)


@pytest.mark.parametrize("factor, at_half", [(2**0.5 * (1 - D), True), (2**0.5 * (1 + D), False)])
def test_a_hsic_factor_is_scaled_by_the_band_on_the_log_axis(factor, at_half):
    from fairlab.experiments import perez_suay

    # "almost no impact": a factor 2 in HSIC, read as 2^½ at ×½ (and 2² at ×2)
    checks = perez_suay.checks(regression=_adult(linear_shift=0.001, linear_factor=factor))
    (row,) = [r for r in checks.itertuples() if r.words == perez_suay.WORDS["fig4 linear"]]
    assert row.holds and row.holds_at_double and row.holds_at_half is at_half


# ------------------------------------------------------------------- adversarial input types
def _dense_fair_pca(X, S, k, center):
    """Independent reference: R = null(S̃ᵀX̃) by a full SVD, top-k eigenvalues of RᵀCR."""
    from scipy import linalg as sla

    Xc = X - X.mean(axis=0)
    Sc = S - S.mean(axis=0)
    C = Xc.T @ Xc if center else X.T @ X
    _, sv, Vt = sla.svd(Sc.T @ Xc)
    rank = int(np.sum(sv > max(Xc.shape) * EPS * sv[0]))
    R = Vt[rank:].T
    lam = sla.eigh(R.T @ C @ R, eigvals_only=True)[::-1]
    return lam[:k].sum(), C, Xc, Sc, rank


@pytest.mark.parametrize("start", [0, 20])
def test_fair_pca_on_edge_input_types_meets_its_constraint_densely(start):
    import warnings

    from adversarial import instances

    from fairlab import FairPCA

    kinds = set()
    for inst in instances("fair_pca_edges", 20, start=start):
        kinds.add(inst.info["kind"])
        X = np.asarray(inst.X, dtype=float)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = FairPCA(**inst.params).fit(X, sensitive_features=inst.sensitive)
        k = inst.params["n_components"]
        ref, C, Xc, Sc, rank = _dense_fair_pca(X, inst.info["S"], k, inst.params["center"])
        U = est.components_.T
        label = inst.describe()
        assert rank == inst.info["n_constraints"] == est.n_constraints_, label
        assert np.abs(U.T @ U - np.eye(k)).max() <= 1e-10, label
        # Z̃ᵀX̃U = 0 for the constraint read from the attribute's own type
        residual = np.linalg.norm(Sc.T @ Xc @ U) / (np.linalg.norm(Sc) * np.linalg.norm(Xc))
        assert residual <= 1e-10, (label, residual)
        assert (ref - np.trace(U.T @ C @ U)) / np.trace(C) <= 1e-9, label
    assert kinds == {"bool_continuous", "int_categorical", "int_continuous", "near_duplicate"}
