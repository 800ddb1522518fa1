"""Reproduction of Pérez-Suay et al. (2017) §4, Figs. 4-6 (chapter 14).

Small sizes only (a few dozen training rows, reduced grids): the protocol, the encodings of S,
the μ paths, the HSIC measures and the conclusion checks are asserted, not the paper's curves
(the paper prints none of its numbers; ``fairlab.published`` has no table of it).
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from fairlab import FairKernelRegression, FairLinearRegression, metrics, published  # noqa: E402
from fairlab.experiments import methods, perez_suay  # noqa: E402

SMALL_GRIDS = {"alpha": np.logspace(-2, 2, 3), "sigma": np.logspace(0, 2, 3),
               "sigma_s": np.logspace(-1, 2, 4), "mu": np.logspace(-7, 3, 6)}


@pytest.fixture(scope="module")
def adult():
    return perez_suay.load_splits("adult", n_repetitions=2, n_train=60, n_val=60, n_test=300)


@pytest.fixture(scope="module")
def cmc():
    return perez_suay.load_splits("cmc", n_repetitions=1, n_train=80, n_val=80, n_test=120)


@pytest.fixture(scope="module")
def adult_regression(adult):
    return perez_suay.regression(adult, ["sex", "sex+race"], grids=SMALL_GRIDS)


# ------------------------------------------------------------------------------ splits
def test_no_published_tables_for_this_paper():
    assert published.tables("perezsuay2017") == []


def test_splits_have_the_paper_sizes_and_labels():
    splits = perez_suay.load_splits("cmc", n_repetitions=2)
    sp = splits[0]
    assert (len(sp.y_train), len(sp.y_val), len(sp.y_test)) == perez_suay.SIZES["cmc"]
    assert sp.X_train.shape[1] == 9 and set(np.unique(sp.y_train)) == {-1.0, 1.0}
    # the three parts of one repetition are disjoint rows of the 1473 (sizes add up)
    rows = np.vstack([sp.X_train, sp.X_val, sp.X_test])
    assert len(rows) == 1473
    assert not np.array_equal(splits[0].X_train, splits[1].X_train)
    again = perez_suay.load_splits("cmc", n_repetitions=1)[0]
    np.testing.assert_array_equal(again.X_train, sp.X_train)


def test_a9a_test_subset_is_shared_by_the_repetitions(adult):
    assert adult[0].X_train.shape == (60, 123) and adult[0].X_test.shape == (300, 123)
    np.testing.assert_array_equal(adult[0].X_test, adult[1].X_test)
    assert not np.array_equal(adult[0].X_train, adult[1].X_train)
    assert adult[0].dataset == "adult" and adult[1].repetition == 1
    # f72/f73 (0-based 71, 72) are the one-hot sex block: exactly one of them is set
    np.testing.assert_array_equal(adult[0].X_train[:, 71] + adult[0].X_train[:, 72], 1.0)
    race = adult[0].X_train[:, 66:71]
    np.testing.assert_array_equal(race.sum(axis=1), 1.0)


def test_splits_reject_bad_arguments():
    with pytest.raises(ValueError, match="dataset must be"):
        perez_suay.load_splits("german")
    with pytest.raises(ValueError, match="n_repetitions"):
        perez_suay.load_splits("cmc", n_repetitions=0)
    with pytest.raises(ValueError, match="CMC has 1473 rows"):
        perez_suay.load_splits("cmc", n_train=1000, n_val=500)
    with pytest.raises(ValueError, match="n_test"):
        perez_suay.load_splits("a9a", n_repetitions=1, n_test=-3)
    assert perez_suay.load_splits("a9a", n_repetitions=1, n_train=5, n_val=5,
                                n_test=5)[0].dataset == "adult"


# ------------------------------------------------------------------------------ S and HSIC
def test_inputs_drop_the_sensitive_columns_and_encode_s(cmc, adult):
    cols = perez_suay.SENSITIVE["cmc"]["wife_education"]
    Xs, S = perez_suay._inputs(cmc[0], cols, "without S", "columns")
    assert Xs["train"].shape[1] == 8 and S["train"].shape == (80, 1)
    np.testing.assert_array_equal(S["train"][:, 0], cmc[0].X_train[:, 1])
    _, S1 = perez_suay._inputs(cmc[0], cols, "with S", "one-hot")
    values = np.unique(np.concatenate([cmc[0][f"X_{p}"][:, 1] for p in ("train", "val",
                                                                         "test")]))
    assert S1["train"].shape == (80, len(values)) and len(values) > 2
    np.testing.assert_array_equal(S1["train"].sum(axis=1), 1.0)
    # a binary column stays as it is; a9a's one-hot blocks are unchanged by "one-hot"
    _, Sm = perez_suay._inputs(cmc[0], perez_suay.SENSITIVE["cmc"]["media_exposure"], "with S",
                          "one-hot")
    assert Sm["train"].shape[1] == 1
    cols = perez_suay.SENSITIVE["adult"]["sex+race"]
    Xa, Sa = perez_suay._inputs(adult[0], cols, "without S", "one-hot")
    assert Sa["test"].shape == (300, 7) and Xa["test"].shape == (300, 116)


def test_grouped_rbf_hsic_equals_the_dense_estimator():
    rng = np.random.default_rng(0)
    S = rng.integers(0, 3, size=(80, 2)).astype(float)
    f = rng.normal(size=(80, 3))
    for gamma in (0.1, 2.0):
        ours = perez_suay._hsic_rbf(f, S, gamma)
        dense = [metrics.hsic(f[:, j], S, kernel_y="rbf", gamma_y=gamma,
                              sensitive_type="continuous") for j in range(3)]
        np.testing.assert_allclose(ours, dense, rtol=1e-10)
    # linear measure: (1/n²)‖S̃ᵀf̃‖², the reference code's trace form
    H = np.eye(80) - 1 / 80
    ref = np.trace(H @ S @ S.T @ H @ np.outer(f[:, 0], f[:, 0])) / 80**2
    assert perez_suay._linear_hsic(f[:, 0], S)[0] == pytest.approx(ref, rel=1e-10)


# ------------------------------------------------------------------------------ regression
def test_regression_rows_and_protocol(adult_regression, adult):
    r = adult_regression
    assert list(r.columns) == ["dataset", "sensitive", "variant", "method", "repetition", "mu",
                               "error", "hsic", "hsic_model", "alpha", "sigma", "sigma_s",
                               "seconds"]
    n_mu = len(SMALL_GRIDS["mu"])
    # 2 reps × 2 sensitive × 2 variants × (LR + KRR + 2 paths)
    assert len(r) == 2 * 2 * 2 * (2 + 2 * n_mu)
    fkr = r[r.method == "FKR"]
    assert set(fkr.mu) == set(SMALL_GRIDS["mu"])
    assert set(r.loc[r.method.isin(["LR", "KRR"]), "mu"]) == {0.0}
    assert set(fkr.alpha) <= set(SMALL_GRIDS["alpha"])
    assert set(fkr.sigma) <= set(SMALL_GRIDS["sigma"])
    assert set(fkr.sigma_s) <= set(SMALL_GRIDS["sigma_s"])
    assert r[r.method.isin(["LR", "FLR"])].sigma.isna().all()
    assert r.error.between(0, 1).all() and (r.hsic >= 0).all()
    # the "with S" hyper-parameters do not depend on S: shared by both panels
    w = r[(r.variant == "with S") & (r.method == "KRR")].groupby("repetition")
    assert (w.alpha.nunique() == 1).all() and (w.sigma.nunique() == 1).all()
    # a large μ removes most of the dependence (FKR and FLR, mean over reps)
    for method in ("FLR", "FKR"):
        m = r[(r.method == method) & (r.variant == "with S")].groupby(["sensitive", "mu"])
        h = m.hsic.mean().unstack()
        assert (h.iloc[:, -1] < 0.2 * h.iloc[:, 0]).all(), method


def test_path_rows_equal_refitting_at_that_mu(adult_regression, adult):
    r = adult_regression
    sp = adult[0]
    cols = perez_suay.SENSITIVE["adult"]["sex"]
    Xs, S = perez_suay._inputs(sp, cols, "with S", "columns")
    n = len(sp.y_train)
    for method in ("FLR", "FKR"):
        row = r[(r.method == method) & (r.sensitive == "sex") & (r.variant == "with S")
                & (r.repetition == 0)].iloc[3]
        if method == "FLR":
            model = FairLinearRegression(alpha=row.alpha, mu=n**2 * row.mu)
        else:
            model = FairKernelRegression(alpha=row.alpha, mu=n**2 * row.mu,
                                         gamma=1 / (2 * row.sigma**2),
                                         sensitive_gamma=1 / (2 * row.sigma_s**2))
        f = model.fit(Xs["train"], sp.y_train, sensitive_features=S["train"]).predict(
            Xs["test"])
        assert row.error == pytest.approx(np.mean(np.where(f >= 0, 1, -1) != sp.y_test))
        assert row.hsic == pytest.approx(
            metrics.hsic(f, S["test"], sensitive_type="continuous"), rel=1e-6)
        if method == "FKR":
            assert row.hsic_model == pytest.approx(metrics.hsic(
                f, S["test"], kernel_y="rbf", gamma_y=1 / (2 * row.sigma_s**2),
                sensitive_type="continuous"), rel=1e-6)


def test_sigma_s_maximises_the_dependence_of_krr(adult_regression, adult):
    r = adult_regression
    row = r[(r.method == "KRR") & (r.sensitive == "sex+race") & (r.variant == "with S")
            & (r.repetition == 1)].iloc[0]
    sp = adult[1]
    Xs, S = perez_suay._inputs(sp, perez_suay.SENSITIVE["adult"]["sex+race"], "with S",
                          "columns")
    krr = FairKernelRegression(alpha=row.alpha, gamma=1 / (2 * row.sigma**2))
    with pytest.warns(UserWarning):
        f = krr.fit(Xs["train"], sp.y_train).predict(Xs["train"])
    dep = [metrics.hsic(f, S["train"], kernel_y="rbf", gamma_y=1 / (2 * s**2),
                        sensitive_type="continuous") for s in SMALL_GRIDS["sigma_s"]]
    assert row.sigma_s == SMALL_GRIDS["sigma_s"][int(np.argmax(dep))]


def test_regression_on_cmc_encodings_and_bad_arguments(cmc):
    grids = {**SMALL_GRIDS, "mu": [1e-7, 1e3]}
    cols = perez_suay.regression(cmc, "n_children", methods=("LR", "FLR"), grids=grids,
                                    variants=("with S",))
    hot = perez_suay.regression(cmc, "n_children", methods=("LR", "FLR"), grids=grids,
                                   variants=("with S",), sensitive_encoding="one-hot")
    assert set(cols.method) == {"LR", "FLR"} and len(cols) == 3
    # the number of children as a number or as 0/1 indicators: other penalties, other paths
    assert not np.allclose(cols.hsic, hot.hsic)
    with pytest.raises(ValueError, match="sensitive must be among"):
        perez_suay.regression(cmc, "sex")
    with pytest.raises(ValueError, match="variants must be among"):
        perez_suay.regression(cmc, "n_children", variants=("with s",))
    with pytest.raises(ValueError, match="methods must be among"):
        perez_suay.regression(cmc, "n_children", methods=("SVM",))
    with pytest.raises(ValueError, match="sensitive_encoding"):
        perez_suay.regression(cmc, "n_children", sensitive_encoding="ordinal")
    with pytest.raises(ValueError, match="grids has unknown keys"):
        perez_suay.regression(cmc, "n_children", grids={"lambda": [1.0]})
    with pytest.raises(ValueError, match="non-empty"):
        perez_suay.regression([], "n_children")


# ------------------------------------------------------------------------------ Fig. 6
@pytest.fixture(scope="module")
def adult_dr(adult):
    return perez_suay.dimensionality_reduction(adult, ["sex", "sex+race"],
                                                  n_components=(1, 3, 200),
                                                  sigmas=np.logspace(-1, 2, 4))


def test_dimensionality_reduction_rows(adult_dr):
    d = adult_dr
    assert list(d.columns) == ["dataset", "sensitive", "variant", "method", "repetition",
                               "n_components", "error", "hsic", "sigma", "seconds"]
    pca = d[(d.method == "PCA") & (d.variant == "with S")]
    assert set(pca.n_components) == {1, 3}            # 200 > min(n, d) = 60: dropped
    fdr = d[d.method == "FDR"]
    assert set(fdr.loc[fdr.sensitive == "sex", "n_components"]) == {2}       # q = 2
    assert set(fdr.loc[fdr.sensitive == "sex+race", "n_components"]) == {7}  # q = 7
    assert d.loc[d.method.isin(["KPCA", "KFDR"]), "sigma"].notna().all()
    assert d.loc[d.method.isin(["PCA", "FDR"]), "sigma"].isna().all()
    # the fair directions are (nearly) uncorrelated with sex on the training rows, hence far
    # less dependent on the test rows than PCA's
    s = perez_suay.summarize_results(d)
    sex = s[(s.sensitive == "sex") & (s.variant == "with S")].set_index(["method",
                                                                          "n_components"])
    assert sex.loc[("FDR", 2), "hsic_mean"] < 0.1 * sex.loc[("PCA", 3), "hsic_mean"]
    assert d.error.between(0, 1).all()


def test_reduction_scores_are_the_runners_rows(adult_dr, adult):
    """One reduction on one repetition scored apart gives the runner's row of it (the
    scorecard's unit): FDR with S and without S, each panel at q."""
    for sensitive, variant in (("sex", "with S"), ("sex+race", "without S")):
        q = len(perez_suay.SENSITIVE["adult"][sensitive])
        rows, fitted, X_test, S_test = perez_suay.reduction_scores(
            adult[0], sensitive, methods.build("FDR", q), method="FDR", variant=variant)
        (row,) = rows
        runner = adult_dr[(adult_dr.method == "FDR") & (adult_dr.sensitive == sensitive)
                          & (adult_dr.variant == variant) & (adult_dr.repetition == 0)]
        (expected,) = runner.drop(columns=["seconds", "sigma"]).to_dict("records")
        assert {c: row[c] for c in expected} == expected and np.isnan(row["sigma"])
        assert row["n_components"] == q and fitted.transform(X_test).shape[1] == q
        assert S_test.shape[1] == q and X_test.shape[1] == 123 - q * (variant != "with S")
    with pytest.raises(ValueError, match="one choice"):
        perez_suay.reduction_scores(adult[0], ["sex", "sex+race"], methods.build("FDR", 2),
                                    method="FDR")


def test_dimensionality_reduction_sigma_and_arguments(adult):
    sigmas = np.logspace(-1, 2, 4)
    d = perez_suay.dimensionality_reduction(adult[:1], "sex", methods=("KPCA",),
                                               variants=("with S",), n_components=[2],
                                               sigmas=sigmas)
    sp = adult[0]
    S = sp.X_train[:, 71:73]
    dep = [metrics.hsic(sp.X_train, S, kernel="rbf", gamma=1 / (2 * s**2),
                        sensitive_type="continuous") for s in sigmas]
    assert d.sigma.iloc[0] == sigmas[int(np.argmax(dep))]
    with pytest.raises(ValueError, match="methods must be among"):
        perez_suay.dimensionality_reduction(adult, "sex", methods=("LDA",))
    with pytest.raises(ValueError, match="n_components"):
        perez_suay.dimensionality_reduction(adult, "sex", n_components=[0])
    with pytest.raises(ValueError, match="ridge"):
        perez_suay.dimensionality_reduction(adult, "sex", ridge=-1.0)


# ------------------------------------------------------------------------------ summary, plot
def test_summary_is_mean_and_population_std(adult_regression):
    s = perez_suay.summarize_results(adult_regression)
    r = adult_regression
    one = r[(r.method == "FKR") & (r.sensitive == "sex") & (r.variant == "without S")
            & (r.mu == SMALL_GRIDS["mu"][2])]
    row = s[(s.label == "FKR\\S") & (s.sensitive == "sex") & (s.mu == SMALL_GRIDS["mu"][2])]
    assert row.error_mean.item() == pytest.approx(one.error.mean())
    assert row.hsic_std.item() == pytest.approx(np.std(one.hsic))
    assert set(s.n_repetitions) == {2}
    assert {"LR", "LR\\S", "FLR", "FLR\\S", "KRR", "KRR\\S", "FKR", "FKR\\S"} == set(s.label)
    with pytest.raises(ValueError, match="perez_suay.regression"):
        perez_suay.summarize_results(pd.DataFrame({"x": [1]}))


def test_plot_draws_one_log_panel_per_sensitive_choice(adult_regression, adult_dr):
    axes = perez_suay.plot(adult_regression)
    assert len(axes) == 2 and all(ax.get_yscale() == "log" for ax in axes)
    assert [ax.get_title() for ax in axes] == ["sex", "sex+race"]
    assert all(ax.get_legend() is None for ax in axes)  # one legend, below the panels
    labels = {t.get_text() for t in axes[0].figure.legends[0].get_texts()}
    assert labels == {"LR", "LR\\S", "FLR", "FLR\\S", "KRR", "KRR\\S", "FKR", "FKR\\S"}
    line = next(ln for ln in axes[0].get_lines() if ln.get_label() == "FKR")
    assert len(line.get_xdata()) == len(SMALL_GRIDS["mu"])
    plt.close("all")
    axes = perez_suay.plot(adult_dr, sensitive="sex+race", hsic="hsic", std=False)
    assert len(axes) == 1 and axes[0].get_xlabel() == "test classification error (%)"
    plt.close("all")
    with pytest.raises(ValueError, match="hsic must be"):
        perez_suay.plot(adult_dr, hsic="hsic_model")
    with pytest.raises(ValueError, match="not in results"):
        perez_suay.plot(adult_regression, sensitive="race")


# ------------------------------------------------------------------------------ checks
def _toy_regression(fkr_error, fkr_hsic, without_s_extra=0.0, dataset="cmc",
                    sensitive="n_children"):
    """A hand-made result frame: FLR path error 0.32 → 0.33, HSIC 1e-2 → 1e-4, three equal
    repetitions (paired differences without spread)."""
    mus = np.logspace(-7, 3, 5)
    rows = []
    paths = {"FLR": (np.linspace(0.32, 0.33, 5), np.logspace(-2, -4, 5)),
             "FKR": (np.asarray(fkr_error), np.asarray(fkr_hsic))}
    for variant, extra in (("with S", 0.0), ("without S", without_s_extra)):
        for method, (e, h) in paths.items():
            unfair = {"FLR": "LR", "FKR": "KRR"}[method]
            rows.append({"dataset": dataset, "sensitive": sensitive, "variant": variant,
                         "method": unfair, "repetition": 0, "mu": 0.0, "error": e[0] + extra,
                         "hsic": h[0]})
            rows += [{"dataset": dataset, "sensitive": sensitive, "variant": variant,
                      "method": method, "repetition": 0, "mu": m, "error": ei + extra,
                      "hsic": hi} for m, ei, hi in zip(mus, e, h)]
    one = pd.DataFrame(rows)
    return pd.concat([one.assign(repetition=r) for r in range(3)], ignore_index=True)


def test_checks_detect_each_cmc_conclusion_holding_or_not():
    good = _toy_regression(np.linspace(0.28, 0.31, 5), np.logspace(-2.5, -6, 5),
                           without_s_extra=0.01)
    c = perez_suay.checks(good).set_index("conclusion")
    assert len(c) == 3 and c.holds.all(), c.measured.tolist()
    assert (c.figure == "Fig. 5").all()
    # FKR worse than FLR at one μ, no gain from keeping S, +8 points at the fair end
    bad = _toy_regression([0.28, 0.29, 0.34, 0.33, 0.36], np.logspace(-2.5, -6, 5))
    c = perez_suay.checks(bad)
    assert not c.holds.any(), c.measured.tolist()
    assert "both intervals below 0 at 2/5 μ" in c.measured.iloc[0]
    assert "+8.0 pt" in c.measured.iloc[2]


def test_checks_detect_the_adult_conclusions():
    rows = _toy_regression(np.linspace(0.16, 0.165, 5), np.logspace(-2, -7, 5),
                           without_s_extra=0.002, dataset="adult", sensitive="sex")
    c = perez_suay.checks(rows)
    assert len(c) == 5 and (c.figure == "Fig. 4").all()
    assert c.holds.all(), c.measured.tolist()
    # the other measure is read from hsic_model: here FKR does not lower it at all
    other = rows.assign(hsic_model=rows.hsic)
    other.loc[other.method == "FKR", "hsic_model"] = 1e-2
    c2 = perez_suay.checks(other, hsic="hsic_model")
    assert c2.holds.tolist() == [False, False, False, True, True], c2.measured.tolist()
    pd.testing.assert_frame_equal(perez_suay.checks(rows.assign(hsic_model=rows.hsic),
                                                       hsic="hsic_model"), c)
    with pytest.raises(ValueError, match="hsic must be"):
        perez_suay.checks(rows, hsic="rbf")
    # FLR\S far from FLR: the "no impact in the linear case" check must fail
    shifted = rows.copy()
    lin = shifted.method.isin(["LR", "FLR"]) & (shifted.variant == "without S")
    shifted.loc[lin, "error"] += 0.03
    c = perez_suay.checks(shifted).set_index("conclusion")
    assert c.holds.sum() == 4
    assert not c.loc[c.index.str.startswith("linear case"), "holds"].item()


def test_checks_on_dimensionality_reduction_results(adult_dr):
    c = perez_suay.checks(dimensionality_reduction=adult_dr)
    assert set(c.panel) == {"sex", "sex+race"} and (c.figure == "Fig. 6").all()
    assert len(c) == 6  # 3 for sex (incl. KFDR vs FDR), 3 for sex+race (incl. the orders)
    assert c.measured.str.len().min() > 10 and c.holds.dtype == bool
    with pytest.raises(ValueError, match="pass regression"):
        perez_suay.checks()


def test_hsic_formatting_floors_rounding_noise():
    assert perez_suay._fmt(3.14159e-3) == "3.1e-03"
    assert perez_suay._fmt(1e-14) == "<1e-10"


def test_kernel_dr_falls_back_to_the_rank_of_the_kernel():
    rng = np.random.default_rng(0)
    X = np.repeat(rng.normal(size=(5, 3)), 8, axis=0)  # 5 distinct rows: rank(K̃) ≤ 4
    model = perez_suay._kernel_dr(X, 10, 0.5, None, 1e-7)
    assert model.n_components_ == len(model.eigenvalues_kernel_) <= 4
    assert perez_suay._kernel_dr(X, 2, 0.5, None, 1e-7).n_components_ == 2


def test_one_nn_breaks_near_ties_the_same_way_whatever_the_last_bits():
    # Two training points at equal distance from every test point (±1 around 0), labels −1 and
    # +1: rounding differences of 1e-14 in the embedding must not pick a different neighbour.
    E_tr = np.array([[-1.0, 0.0], [1.0, 0.0]])
    E_te = np.zeros((50, 2))
    y, y_test = np.array([-1, 1]), np.full(50, -1)
    S_test = np.random.default_rng(0).normal(size=(50, 1))
    errors = set()
    for noise in (0.0, 1e-14, -1e-14, 3e-15):
        jitter = noise * np.random.default_rng(1).normal(size=E_te.shape)
        row = perez_suay._knn_row({}, "PCA", 2, E_tr * (1 + noise), y, E_te + jitter, y_test,
                             S_test, np.nan, 0.0)
        errors.add(row["error"])
    assert errors == {0.0}  # the tie goes to the first training row, label −1, every time


# ---------------------------------------------------------------------- the chapter's verdict
def _planted_checks():
    s = perez_suay.SENTENCES
    return pd.DataFrame([
        {"figure": "Fig. 4", "panel": "sex", "sentence": s["fig4 fair"], "conclusion": "a",
         "measured": "x", "holds": True},
        {"figure": "Fig. 4", "panel": "sex+race", "sentence": s["fig4 fkr"], "conclusion": "b",
         "measured": "FKR\\S lower", "holds": False},
        {"figure": "Fig. 5", "panel": "n_children", "sentence": s["fig5 removing"],
         "conclusion": "c", "measured": "y", "holds": True},
    ])


def test_verdict_counts_the_checks_per_figure_and_says_so():
    checks = _planted_checks()
    verdict = perez_suay.verdict(checks, {"Fig. 4": 25, "Fig. 5": 3})
    assert [(r["held"], r["checks"]) for r in verdict.rows] == [(1, 2), (1, 1)]
    assert verdict.rows[0]["item"] == perez_suay.FIGURE_ITEMS["Fig. 4"]
    assert verdict.totals["held"] == 2 and verdict.totals["checks"] == 3
    assert verdict.sentence.startswith("2 of the 3 checks")
    assert "1 of 2 on its Figure 4; 1 of 1 on its Figure 5" in verdict.sentence
    assert "25, 3 of the paper's 25 repetitions" in verdict.sentence
    assert "all 25 of the paper's repetitions" in perez_suay.verdict(
        checks, {"Fig. 4": 25, "Fig. 5": 25}).sentence
    with pytest.raises(ValueError, match="perez_suay.checks"):
        perez_suay.verdict(checks.drop(columns="holds"), {})


def test_checks_report_explains_only_the_failing_checks_in_readers_words():
    checks = _planted_checks()
    listing, why, detail = perez_suay.checks_report(checks, "Fig. 4")
    assert "- holds: sex: " in listing and "- **fails**: sex and race: " in listing
    assert perez_suay.FAILURE_READINGS["fig4 fkr"] in why and "*sex and race*" in why
    assert "without S" in detail._repr_html_() and "\\S" not in detail._repr_html_()
    assert "collapsed" in repr(detail)
    # a figure whose checks all hold has no "why"
    assert len(perez_suay.checks_report(checks, "Fig. 5")) == 2
    with pytest.raises(ValueError, match="has no checks"):
        perez_suay.checks_report(checks, "Fig. 9")
