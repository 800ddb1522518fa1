"""Reproduction of Kleindessner et al. (2023) §5.1, Tables 1-3 (chapter 11).

The tests need no external data: ``TestLeeSplits`` runs on Lee et al.'s exact split files, which
ship with fairlab.
What it asserts was measured first (see the chapter and ``kleindessner.compare``):

* %Var and MMD² of PCA, Fair PCA, Fair PCA-S (0.5) and (0.85) equal the printed mean **and**
  std, to the authors' decimals, in every cell of Tables 1-3 (48 cells).
* The downstream SVMs are scikit-learn's libsvm where the paper ran MATLAB's ``fitcsvm``: the
  same model (Lee et al.'s defaults) but another solver, whose stopping rule leaves a few
  training points on the other side of the margin.  Most cells are still equal; the ones that
  are not are listed one by one in ``SVM_EXCEPTIONS`` (each within the paper's std), and the
  test fails if the list is stale in either direction.
* The MLP cells are not asserted: the MLP was scikit-learn 1.1.2's in the paper, its random
  initialisation meets the embedding's columns in whatever order and signs the eigensolver
  returned, and neither is the same here (the notebook reports how many cells agree anyway).
"""


import numpy as np
import pandas as pd
import pytest
from threadpoolctl import threadpool_limits

from fairlab import evaluation as ev
from fairlab import published
from fairlab.experiments import kleindessner, write_results_csv

FOUR = ["PCA", "Fair PCA", "Fair PCA-S (0.5)", "Fair PCA-S (0.85)"]
SVMS = {k: v for k, v in ev.lee_classifiers().items() if k != "mlp"}


# ------------------------------------------------------------------------------ unit tests
def test_methods_have_the_printed_names_and_settings():
    methods = kleindessner.estimators(2)
    assert list(methods) == list(kleindessner.METHODS)
    pub = published.table("kleindessner2023", "table1")
    assert set(methods) == set(pub["method"])
    assert methods["Fair PCA"].get_params()["center"] is False
    assert methods["Fair PCA-S (0.85)"].get_params()["equalize_covariance"] == 0.85
    assert methods["FPCA (0.1, 0.01)"].get_params()["delta"] == 0.1
    assert methods["MbF-PCA (10^-6)"].get_params()["tau"] == 1e-6
    assert methods["RLACE"].get_params()["max_iter"] == 10_000
    samadi = kleindessner.SAMADI_METHOD
    assert list(kleindessner.estimators(10, [samadi])) == [samadi]
    with pytest.raises(ValueError, match="unknown method"):
        kleindessner.estimators(2, ["Fair PCA", "fair pca"])
    with pytest.raises(ValueError, match="positive integer"):
        kleindessner.estimators(0)


@pytest.mark.parametrize("dataset, shape", [
    ("adult", (1582, 679, 97)), ("german", (700, 300, 57)), ("compas", (1727, 741, 11)),
])
def test_default_splits_are_ours_with_lee_sizes_and_ignore_fairlab_data(
        dataset, shape, monkeypatch, tmp_path):
    monkeypatch.setenv("FAIRLAB_DATA", str(tmp_path))  # no Lee files there: must not matter
    splits = kleindessner.load_splits(dataset, n_splits=2, random_state=3)
    assert len(splits) == 2
    sp = splits[0]
    assert (len(sp.X_train), len(sp.X_test), sp.X_train.shape[1]) == shape
    assert sp.dataset == dataset
    # standardised with the training mean and population std, as Lee's files
    np.testing.assert_allclose(sp.X_train.mean(0), 0, atol=1e-10)
    sd = sp.X_train.std(0)
    np.testing.assert_allclose(sd[sd > 0], 1)
    assert set(np.unique(sp.s_train)) == {0.0, 1.0}
    assert not np.array_equal(splits[0].X_test, splits[1].X_test)
    again = kleindessner.load_splits(dataset, n_splits=1, random_state=3)[0]
    np.testing.assert_array_equal(again.X_test, sp.X_test)


def test_splits_reject_bad_arguments():
    with pytest.raises(ValueError, match="dataset must be one of"):
        kleindessner.load_splits("bank")
    with pytest.raises(ValueError, match="10 splits"):
        kleindessner.load_splits("german", lee_splits=True, n_splits=11)
    assert kleindessner.load_splits("German Credit", n_splits=1)[0].dataset == "german"


def _small_table(k=(2, 10), methods=("PCA", "Fair PCA", "Fair Kernel PCA"), **kw):
    splits = kleindessner.load_splits("german", n_splits=2)
    return kleindessner.table("german", list(k), list(methods), splits=splits, **kw)


def test_table_is_tidy_with_the_published_identifiers():
    t, scores = _small_table(classifiers={"linear_svm": SVMS["linear_svm"]},
                             return_scores=True)
    assert list(t.columns) == ["dataset", "method", "k", "protocol", "model", "metric",
                               "mean", "std", "n_splits"]
    pub = published.table("kleindessner2023", "table2")
    for col in ("dataset", "method", "model", "metric"):
        assert set(t[col]) <= set(pub[col]), col
    assert set(t["k"]) == {2, 10} and set(t["n_splits"]) == {2}
    # published.compare accepts it as is: every row of ours is a printed cell
    cols = ["dataset", "method", "k", "model", "metric", "mean", "std"]
    res = published.compare(t[cols], pub[pub.method.isin(["PCA", "Fair PCA", "Fair Kernel PCA"])
                                          & pub.model.isin(["", "Linear SVM"])])
    assert res["ours_mean"].notna().sum() == len(t) - 4  # Fair Kernel PCA %Var/MMD² are n/a
    kpca = t[(t.method == "Fair Kernel PCA") & t.metric.isin(["var_pct", "mmd2"])]
    assert kpca["mean"].isna().all()
    assert set(scores["metric"]) == {"var_pct", "mmd2", "fit_seconds", "accuracy_pct",
                                     "delta_dp"}
    # std over splits is the population std (np.std, as write_results.py)
    fair = scores[(scores.method == "Fair PCA") & (scores.k == 2) & (scores.metric == "var_pct")]
    row = t[(t.method == "Fair PCA") & (t.k == 2) & (t.metric == "var_pct")].iloc[0]
    assert row["std"] == pytest.approx(np.std(fair["value"]))
    assert row["mean"] == pytest.approx(np.mean(fair["value"]))


def test_both_protocols_share_the_fits_and_differ_in_the_classifiers():
    t = _small_table(k=[10], methods=["PCA", "Fair PCA"],
                     classifiers={"kernel_svm": SVMS["kernel_svm"]},
                     protocols=("train_on_test", "train_test"))
    on_test = t[t.protocol == "train_on_test"].reset_index(drop=True)
    proper = t[t.protocol == "train_test"].reset_index(drop=True)
    rep = on_test.metric.isin(["var_pct", "mmd2"])
    pd.testing.assert_frame_equal(on_test.loc[rep, ["mean", "std"]],
                                  proper.loc[rep, ["mean", "std"]])
    acc = on_test.metric == "accuracy_pct"
    # train-on-test accuracy is an in-sample fit: higher than the held-out accuracy
    assert (on_test.loc[acc, "mean"].to_numpy() > proper.loc[acc, "mean"].to_numpy() + 10).all()


def test_compare_marks_equal_within_and_differing_cells():
    pub = published.table("kleindessner2023", "table1")
    pca = pub[(pub.method == "PCA") & (pub.k == 2)]
    ours = pca.assign(protocol="train_on_test")[["dataset", "method", "k", "protocol", "model",
                                                 "metric", "mean", "std"]].copy()
    ours.loc[ours.metric == "var_pct", "mean"] = 7.784     # rounds to the printed 7.78
    ours.loc[ours.metric == "mmd2", "std"] = 0.030         # mean equal, std not
    acc = ours.metric == "accuracy_pct"
    ours.loc[acc & (ours.model == "Kernel SVM"), "mean"] = 82.50   # within the std 1.09
    ours.loc[acc & (ours.model == "MLP"), "mean"] = 90.0           # outside
    res = kleindessner.compare(ours)
    assert len(res) == 8
    status = dict(zip(zip(res.model, res.metric), res.status))
    assert status[("", "var_pct")] == "equal"
    assert status[("", "mmd2")] == "mean equal"
    assert status[("Kernel SVM", "accuracy_pct")] == "within std"
    assert status[("MLP", "accuracy_pct")] == "differs"
    assert status[("Linear SVM", "delta_dp")] == "equal"
    wide = kleindessner.side_by_side(res)
    row = wide.frame.loc[(2, "PCA")]
    assert row[("%Var", "paper")] == "7.78 ± 0.77" and row[("%Var", "")] == "="
    assert row[("MLP %Acc", "ours")].startswith("90.00") and row[("MLP %Acc", "")] == "✗"
    assert row[("MLP %Acc", "Δ")] == "+8.79"
    assert "✗" in wide._repr_html_() and "90.00" in repr(wide)
    counts = kleindessner.match_counts(res)
    assert counts.loc["PCA"].to_dict() == {"equal": 5, "mean equal": 1, "within std": 1,
                                           "differs": 1}


def test_compare_picks_table4_for_samadi():
    pub = published.table("kleindessner2023", "table4")
    ours = pub.assign(protocol="train_on_test")
    res = kleindessner.compare(ours)
    assert len(res) == len(pub) and (res.status == "equal").all()


def test_lee_gaussian_splits_use_the_same_indices_in_both_groups():
    splits = kleindessner.gaussian_splits(20, n_splits=2, n_per_group=30, train_per_group=21)
    sp = splits[0]
    assert sp.X_train.shape == (42, 20) and sp.X_test.shape == (18, 20)
    assert sp.s_train.sum() == 21 and sp.s_test.sum() == 9
    np.testing.assert_array_equal(sp.y_train, sp.s_train)
    assert not np.array_equal(splits[0].X_test, splits[1].X_test)
    with pytest.raises(ValueError, match="train_per_group"):
        kleindessner.gaussian_splits(20, n_per_group=30, train_per_group=30)


def test_runtimes_and_ratios():
    r = kleindessner.runtimes([{"d": 20, "k": 2}, {"d": 30, "k": 3}], ["Fair PCA", "PCA"],
                                 n_per_group=40, train_per_group=28)
    assert list(r.columns) == ["d", "k", "method", "seconds", "seconds_min"]
    assert len(r) == 4 and (r.seconds > 0).all()
    ratios = ev.runtime_ratios(r)
    assert (ratios.loc[ratios.method == "Fair PCA", "ratio"] == 1.0).all()
    with pytest.raises(ValueError, match="reference"):
        ev.runtime_ratios(r, reference="INLP")
    with pytest.raises(ValueError, match="grid"):
        kleindessner.runtimes([{"d": 20}])


def test_reported_runtimes_quote_the_text():
    rep = kleindessner.reported_runtimes()
    row = rep[(rep.method == "INLP") & (rep.d == 800)].iloc[0]
    assert (row.relation, row.seconds) == ("≈", 1270.0)
    assert set(rep.method) <= set(kleindessner.METHODS)


def test_write_results_csv_adds_provenance(tmp_path):
    frame = pd.DataFrame({"method": ["Fair PCA"], "mean": [1.0]})
    path = write_results_csv(frame, tmp_path / "sub" / "r.csv", chapter="11")
    back = pd.read_csv(path)
    assert list(back.columns) == ["chapter", "method", "mean", "commit", "date", "machine",
                                  "fairlab"]
    assert back.loc[0, "chapter"] == 11 and "cores" in back.loc[0, "machine"]


# ------------------------------------------------------------- Lee et al.'s exact splits
# Kernel/linear SVM cells (mean or std) that differ from the printed ones, measured: libsvm
# (scikit-learn) vs MATLAB fitcsvm, same model, different solver, so one or two of the 300
# (German) or 741 (COMPAS) test rows of some split land on the other side.  Every accuracy
# difference is <= 0.07 points and within the paper's std (asserted); every delta_dp cell and
# every Adult cell is equal.  83 of the 96 cells equal the paper in mean and std.
# Format: (dataset, k, method, model, metric, "mean" | "std"); comments: ours / paper.
SVM_EXCEPTIONS = {
    ("German Credit", 2, "Fair PCA-S (0.5)", "Kernel SVM", "accuracy_pct", "mean"),  # 72.50 / 72.47
    ("German Credit", 2, "Fair PCA-S (0.5)", "Kernel SVM", "accuracy_pct", "std"),
    ("German Credit", 2, "Fair PCA-S (0.85)", "Kernel SVM", "accuracy_pct", "mean"),  # 72.97/72.93
    ("German Credit", 2, "Fair PCA-S (0.85)", "Kernel SVM", "accuracy_pct", "std"),
    ("German Credit", 10, "PCA", "Linear SVM", "accuracy_pct", "mean"),  # 74.77 / 74.80
    ("German Credit", 10, "PCA", "Linear SVM", "accuracy_pct", "std"),
    ("German Credit", 10, "Fair PCA", "Linear SVM", "accuracy_pct", "mean"),  # 74.07 / 74.10
    ("German Credit", 10, "Fair PCA", "Linear SVM", "accuracy_pct", "std"),
    ("German Credit", 10, "Fair PCA-S (0.5)", "Linear SVM", "accuracy_pct", "mean"),  # 71.57/71.60
    ("German Credit", 10, "Fair PCA-S (0.5)", "Linear SVM", "accuracy_pct", "std"),
    ("COMPAS", 2, "PCA", "Linear SVM", "accuracy_pct", "mean"),  # 56.68 / 56.69
    ("COMPAS", 2, "PCA", "Linear SVM", "accuracy_pct", "std"),
    ("COMPAS", 2, "Fair PCA", "Kernel SVM", "accuracy_pct", "mean"),  # 62.81 / 62.82
    ("COMPAS", 2, "Fair PCA", "Kernel SVM", "accuracy_pct", "std"),
    ("COMPAS", 2, "Fair PCA-S (0.5)", "Kernel SVM", "accuracy_pct", "mean"),  # 64.09 / 64.10
    ("COMPAS", 10, "PCA", "Linear SVM", "accuracy_pct", "mean"),  # 64.84 / 64.78
    ("COMPAS", 10, "Fair PCA", "Kernel SVM", "accuracy_pct", "mean"),  # 72.31 / 72.32
    ("COMPAS", 10, "Fair PCA", "Kernel SVM", "accuracy_pct", "std"),
    ("COMPAS", 10, "Fair PCA", "Linear SVM", "accuracy_pct", "mean"),  # 64.76 / 64.72
    ("COMPAS", 10, "Fair PCA", "Linear SVM", "accuracy_pct", "std"),
    ("COMPAS", 10, "Fair PCA-S (0.5)", "Linear SVM", "accuracy_pct", "mean"),  # 64.76 / 64.75
    ("COMPAS", 10, "Fair PCA-S (0.5)", "Linear SVM", "accuracy_pct", "std"),
    ("COMPAS", 10, "Fair PCA-S (0.85)", "Linear SVM", "accuracy_pct", "mean"),  # 64.76 / 64.75
    ("COMPAS", 10, "Fair PCA-S (0.85)", "Linear SVM", "accuracy_pct", "std"),
}


@pytest.fixture(scope="module")
def lee_results():
    frames = []
    # One BLAS thread: these are many small products; on a busy 2-core machine the default
    # thread pool made the same work 15x slower (57 s against 3.4 s for Adult, measured).
    with threadpool_limits(1):
        for name in ("adult", "german", "compas"):
            splits = kleindessner.load_splits(name, lee_splits=True)
            frames.append(kleindessner.table(name, [2, 10], FOUR, splits=splits,
                                                classifiers=SVMS))
    ours = pd.concat(frames, ignore_index=True)
    return kleindessner.compare(ours)


class TestLeeSplits:
    def test_var_and_mmd2_equal_the_paper_in_every_cell(self, lee_results):
        rep = lee_results[lee_results.metric.isin(["var_pct", "mmd2"])]
        assert len(rep) == 3 * 2 * 4 * 2
        bad = rep[~(rep.mean_equal & rep.std_equal)]
        assert bad.empty, bad[["dataset", "k", "method", "metric", "paper", "ours_mean",
                               "ours_std"]].to_string()

    def test_svm_cells_equal_the_paper_except_the_listed_ones(self, lee_results):
        svm = lee_results[lee_results.model.isin(["Kernel SVM", "Linear SVM"])]
        assert len(svm) == 3 * 2 * 4 * 4
        found = set()
        for r in svm.itertuples():
            for part, ok in (("mean", r.mean_equal), ("std", r.std_equal)):
                if not ok:
                    found.add((r.dataset, int(r.k), r.method, r.model, r.metric, part))
        assert found == SVM_EXCEPTIONS
        assert svm.within.all(), "every SVM cell lies within the paper's std"


def test_lee_et_al_s_saved_fpca_loadings_reproduce_the_printed_row():
    """Lee et al.'s FPCA loadings, scored by our protocol, give Table 3's printed cells."""
    from fairlab.experiments import recompute, summarize_ledger

    method = "FPCA (0.1, 0.01)" + kleindessner.REFERENCE_SUFFIX
    rows = recompute("kleindessner", [{"dataset": "compas", "method": method, "k": 2, "split": i}
                                      for i in range(10)])
    res = kleindessner.compare(summarize_ledger(rows))
    assert set(res["method"]) == {method} and len(res) == 8
    status = dict(zip(zip(res.model, res.metric), res.status))
    for cell in [("", "var_pct"), ("", "mmd2"), ("Kernel SVM", "accuracy_pct"),
                 ("Kernel SVM", "delta_dp"), ("Linear SVM", "delta_dp")]:
        assert status[cell] == "equal", cell
    assert status[("Linear SVM", "accuracy_pct")] in ("equal", "within std")


def test_fixed_projection_is_a_transformer_of_the_given_rows():
    from sklearn.base import clone

    from fairlab.evaluation import FixedProjection

    rng = np.random.default_rng(0)
    V = np.linalg.qr(rng.normal(size=(5, 2)))[0].T
    X = rng.normal(size=(20, 5))
    model = clone(FixedProjection(V)).fit(X, sensitive_features=rng.integers(0, 2, 20))
    np.testing.assert_array_equal(model.transform(X), X @ V.T)
    with pytest.raises(ValueError, match="components must have shape"):
        FixedProjection(V[:, :4]).fit(X)


# -------------------------------------------------------------- runs as in the reference code
def _reference_code_fit(method, k, split):
    return kleindessner.AsInReferenceCode(method, k).fit(
        split.X_train, split.y_train, sensitive_features=split.s_train)


@pytest.mark.parametrize("method", ["Fair PCA", "Fair PCA-S (0.5)", "Fair PCA-S (0.85)"])
@pytest.mark.parametrize("dataset", ["german", "compas"])
def test_reference_code_basis_spans_fairlab_s_subspace_in_ascending_order(method, dataset):
    """Same subspace as fairlab's fit; columns ordered by increasing XᵀX Rayleigh quotient."""
    from fairlab.datasets import load_lee2022_split

    split = load_lee2022_split(dataset, 3)
    ours = kleindessner.estimators(2, [method])[method].fit(
        split.X_train, sensitive_features=split.s_train).components_
    ref = _reference_code_fit(method, 2, split).components_
    np.testing.assert_allclose(ref @ ref.T, np.eye(2), atol=1e-12)
    np.testing.assert_allclose(ref.T @ ref, ours.T @ ours, atol=1e-8)  # projections equal
    X = split.X_train
    quotients = np.einsum("id,de,ie->i", ref, X.T @ X, ref)
    assert quotients[0] < quotients[1]
    gaps = (split.s_train - split.s_train.mean()) @ X @ ref.T
    np.testing.assert_allclose(gaps, 0.0, atol=1e-9 * np.abs(X).sum())


def test_reference_code_inlp_basis_lies_in_the_range_of_the_projection():
    from fairlab.datasets import load_lee2022_split

    split = load_lee2022_split("german", 0)
    inlp = kleindessner.estimators(2, ["INLP"])["INLP"].fit(
        split.X_train, split.y_train, sensitive_features=split.s_train)
    ref = _reference_code_fit("INLP", 2, split).components_
    P = inlp.projection_
    assert np.linalg.matrix_rank(P) > 2 * 2  # the range is far wider than k: the basis matters
    np.testing.assert_allclose(P @ ref.T, ref.T, atol=1e-10)
    np.testing.assert_allclose(ref @ ref.T, np.eye(2), atol=1e-12)
    again = _reference_code_fit("INLP", 2, split).components_
    np.testing.assert_array_equal(ref, again)  # the seeded start vector makes it a function


def test_reference_code_fpca_drops_the_first_row_and_rescales():
    from fairlab import baselines
    from fairlab.datasets import load_lee2022_split

    pytest.importorskip("cvxpy")
    split = load_lee2022_split("compas", 0)
    ref = _reference_code_fit("FPCA (0, 0.01)", 2, split).components_
    direct = baselines.FPCA(2, delta=0.0, mu=0.01, scale=True).fit(
        split.X_train[1:], sensitive_features=split.s_train[1:]).components_
    np.testing.assert_allclose(ref, direct, atol=1e-10)


def test_reference_code_rejects_other_methods_and_needs_the_attribute():
    X = np.random.default_rng(0).normal(size=(20, 4))
    with pytest.raises(ValueError, match="method must be one of"):
        kleindessner.AsInReferenceCode("RLACE").fit(X, sensitive_features=np.arange(20) % 2)
    with pytest.raises(ValueError, match="sensitive_features is required"):
        kleindessner.AsInReferenceCode("Fair PCA").fit(X)


@pytest.mark.parametrize("dataset, printed", [
    ("german", {"accuracy_pct": (72.03, 1.98), "delta_dp": (0.04, 0.05)}),
    ("compas", {"accuracy_pct": (60.65, 2.29), "delta_dp": (0.13, 0.11)}),
])
def test_fair_pca_mlp_cells_equal_the_paper_in_the_reference_code_basis(dataset, printed):
    """The MLP sees the reference code's column order and signs: Tables 2-3 Fair PCA, k = 2."""
    from fairlab.experiments import recompute, summarize_ledger

    method = "Fair PCA" + kleindessner.REFERENCE_CODE_SUFFIX
    rows = recompute("kleindessner", [{"dataset": dataset, "method": method, "k": 2, "split": i}
                                      for i in range(10)])
    res = kleindessner.compare(summarize_ledger(rows))
    assert set(res["method"]) == {method}
    mlp = res[res.model == "MLP"].set_index("metric")
    for metric, (mean, std) in printed.items():
        assert (mlp.loc[metric, "paper_mean"], mlp.loc[metric, "paper_std"]) == (mean, std)
        assert mlp.loc[metric, "status"] == "equal", mlp.loc[metric].to_dict()


def test_variant_rows_are_held_against_their_method_s_printed_cells():
    assert kleindessner.base_method("INLP" + kleindessner.REFERENCE_CODE_SUFFIX) == "INLP"
    assert kleindessner.base_method("FPCA (0, 0.01)" + kleindessner.REFERENCE_SUFFIX) \
        == "FPCA (0, 0.01)"
    assert kleindessner.base_method("Fair PCA") == "Fair PCA"
    units = kleindessner.units(datasets=["german"], ks=[2], splits=[0])
    names = {u["method"] for u in units}
    assert set(kleindessner.REFERENCE_CODE_RUNS) <= names


def test_fair_pca_s_claim_on_the_printed_tables_fails_only_on_compas():
    """The paper's own means contradict "Fair PCA-S has a smaller ΔDP" on COMPAS only."""
    printed = pd.concat([published.table("kleindessner2023", t)
                         for t in ("table1", "table2", "table3")])
    checks = kleindessner.fair_pca_s_dp_checks(printed)
    assert checks.shape == (12, 2)
    failing = checks[~checks.all(axis=1)].index
    assert {dataset for dataset, _, _ in failing} == {"COMPAS"}
    assert kleindessner.claim_failures(checks).startswith("COMPAS, k = 2, Kernel SVM (")
    assert kleindessner.claim_failures(checks.iloc[:0]) == "nowhere"


def _figure2_means(fair_var):
    rows = []
    for i, d in enumerate([20, 60]):
        rows += [{"d": d, "method": "PCA", "var_pct": 55.0, "mmd2": 0.6,
                  "linear_inseparability": 0.01},
                 {"d": d, "method": "Fair PCA", "var_pct": fair_var[i], "mmd2": 0.05,
                  "linear_inseparability": 0.4},
                 {"d": d, "method": "INLP", "var_pct": 10.0, "mmd2": 0.01,
                  "linear_inseparability": 0.4}]
    return pd.DataFrame(rows)


def test_figure2_checks_hold_and_fail_at_the_papers_thresholds():
    held = kleindessner.figure2_checks(_figure2_means([30.01, 41.0]))
    assert held.all() and len(held) == 6
    failed = kleindessner.figure2_checks(_figure2_means([30.0, 41.0]))  # "more than 30 %"
    bad = failed[~failed]
    assert len(bad) == 1
    assert bad.index[0] == ("Fair PCA keeps more than 30 % of the variance "
                            "(ours: 30.0 % to 41.0 %)")


def test_runtime_checks_compare_orders_and_growth_only():
    times = pd.DataFrame([(d, m, s) for d, scale in [(20, 1.0), (100, 3.0)]
                          for m, s in [("Fair PCA", 0.01), ("Fair PCA-S (0.85)", 0.02),
                                       ("Fair Kernel PCA", 0.03), ("INLP", 0.06),
                                       ("RLACE", 1.0), ("FPCA (0, 0.01)", 9.0)]
                          for s in [s * scale]], columns=["d", "method", "seconds"])
    d = kleindessner.runtime_checks(times, "d")
    assert d.all() and "at least 2.0 times" in d.index[0]
    slow = times.copy()
    slow.loc[(slow.method == "Fair Kernel PCA") & (slow.d == 100), "seconds"] = 0.2  # > INLP 0.18
    assert not kleindessner.runtime_checks(slow, "d").iloc[0]
    k = pd.DataFrame([(k, m, s) for k, f in [(2, 1.0), (50, 2.0)]
                      for m, s in [("Fair PCA", 0.01 * f), ("MbF-PCA (10^-3)", 1.0 * f ** 6),
                                   ("INLP", 1.0 / f)]], columns=["k", "method", "seconds"])
    kk = kleindessner.runtime_checks(k, "k")
    assert kk.all() and len(kk) == 2
    with pytest.raises(ValueError, match="by must be"):
        kleindessner.runtime_checks(k, "n")


def test_fair_kernel_pca_dp_check_counts_a_tie_as_smallest():
    means = pd.DataFrame({"dataset": "COMPAS", "k": [2.0, 2.0, 10.0, 10.0],
                          "method": ["Fair Kernel PCA", "Fair PCA"] * 2, "model": "Kernel SVM",
                          "metric": "delta_dp", "mean": [0.02, 0.02, 0.05, 0.04]})
    check = kleindessner.fair_kernel_pca_dp_checks(means)
    assert check.tolist() == [True, False]


def test_printed_table_views_glance_by_k_and_detail():
    pub = published.table("kleindessner2023", "table1")
    ours = pub[pub.method.isin(["PCA", "Fair PCA"])].assign(protocol="train_on_test")
    res = kleindessner.compare(ours)
    glance, detail = kleindessner.printed_table_views(res, "Adult Income", "Table 1")
    assert glance.groups == ["%Var (k = 2)", "MMD² (k = 2)", "%Var (k = 10)", "MMD² (k = 10)"]
    assert list(glance.frame.index.names) == ["method"] and len(glance.frame) == 2
    assert glance.frame[("%Var (k = 2)", "")].tolist() == ["=", "="]
    assert len(detail.parts) == 4 and detail.parts[-1].title == "Table 1 in full"
    assert [p.groups for p in detail.parts[:3]] == [
        [f"{m} {x} (k = {k})" for k in (2, 10) for x in ("%Acc", "ΔDP")]
        for m in ("Kernel SVM", "Linear SVM", "MLP")]


def test_counts_by_run_by_hand():
    """Only methods with a run as in the reference code are counted, beside fairlab's fit of
    the same method; another variant (Lee et al.'s loadings) and cells without our number are
    left out."""
    ref, lee = kleindessner.REFERENCE_CODE_SUFFIX, kleindessner.REFERENCE_SUFFIX
    rows = [  # method, model, status, within, ours_mean
        ("Fair PCA", "MLP", "equal", True, 1.0),
        ("Fair PCA", "MLP", "differs", False, 1.0),
        ("Fair PCA", "MLP", "n/a", None, None),
        ("Fair PCA" + ref, "MLP", "within std", True, 1.0),
        ("Fair PCA" + ref, "MLP", "equal", True, 1.0),
        ("Fair PCA" + ref, "MLP", "equal", True, 1.0),
        ("PCA", "MLP", "equal", True, 1.0),          # no run as in the reference code
        ("FPCA (0, 0.01)" + lee, "MLP", "equal", True, 1.0),
    ]
    compared = pd.DataFrame(rows, columns=["method", "model", "status", "within", "ours_mean"])
    counts = kleindessner.counts_by_run(compared, by="method")
    assert list(counts.index) == ["Fair PCA"]
    assert counts.loc["Fair PCA"].to_dict() == {
        "fairlab: equal": 1, "as in the reference code: equal": 2,
        "fairlab: within std": 1, "as in the reference code: within std": 3,
        "fairlab: printed cells": 2, "as in the reference code: printed cells": 3}


# ------------------------------------------- Table 4: the choice among the null directions
def _attribute_column_data(n=40):
    """Column 0 equals the attribute, columns 1-2 vary within the groups, column 3 is
    constant: the within-group scatter has rank 2, its null space is span{e0, e3}."""
    rng = np.random.default_rng(0)
    z = np.arange(n) % 2
    return np.column_stack([z, rng.normal(size=(n, 2)), np.full(n, 5.0)]), z


@pytest.mark.parametrize("share, along_attribute, along_constant",
                         [(0.0, 0.0, 1.0), (0.6, 0.6, 0.8), (1.0, 1.0, 0.0)])
def test_null_direction_map_lets_the_share_of_the_attribute_through_by_hand(
        share, along_attribute, along_constant):
    """k = 3 takes both varying directions and one of span{e0, e3}: the one orthogonal to
    u = √(1 − t²)·e0 ± t·e3, so ‖M e0‖ = t and ‖M e3‖ = √(1 − t²)."""
    X, z = _attribute_column_data()
    model = kleindessner.null_direction_map(X, z, 3, share)
    ledger = kleindessner.AsInReferenceCode(kleindessner.SAMADI_METHOD, 3).fit(
        X, sensitive_features=z)
    M, M0 = model.linear_map_, ledger.linear_map_
    np.testing.assert_allclose(np.linalg.norm(M[0]), along_attribute, atol=1e-10)
    np.testing.assert_allclose(np.linalg.norm(M[3]), along_constant, atol=1e-10)
    np.testing.assert_allclose(M[1:3, 1:3], M0[1:3, 1:3], atol=1e-10)  # the varying part
    np.testing.assert_allclose(M0[[0, 3]], 0.0, atol=1e-10)  # the ledger's run: none of N
    # two rows that differ only in the attribute: their embeddings lie t / std(z) apart
    rows = np.array([[1.0, 0.3, -0.2, 5.0], [0.0, 0.3, -0.2, 5.0]])
    E = model.transform(rows)
    np.testing.assert_allclose(np.linalg.norm(E[0] - E[1]), share / np.std(z, ddof=1),
                               atol=1e-10)


def test_null_direction_map_refuses_where_there_is_no_choice():
    X, z = _attribute_column_data()
    with pytest.raises(ValueError, match="rank 2"):
        kleindessner.null_direction_map(X, z, 2, 0.5)
    with pytest.raises(ValueError, match=r"share must lie in \[0, 1\]"):
        kleindessner.null_direction_map(X, z, 3, 1.5)
    X[:, 0] = X[:, 1] + X[:, 2]  # N = the dependence and e3: constants on every row
    with pytest.raises(ValueError, match="constants only"):
        kleindessner.null_direction_map(X, z, 3, 0.5)


def test_null_direction_causes_by_hand():
    ref = kleindessner.REFERENCE_CODE_SUFFIX
    method = kleindessner.SAMADI_METHOD + ref
    compared = pd.DataFrame({
        "dataset": "COMPAS", "method": [method, method, method, method], "k": 10.0,
        "model": ["Kernel SVM", "MLP", "Linear SVM", "Kernel SVM"],
        "metric": ["accuracy_pct", "accuracy_pct", "accuracy_pct", "delta_dp"],
        "paper_mean": [73.0, 69.0, 65.0, 0.2], "paper_std": [1.0, 1.0, 1.0, 0.05],
        "ours_mean": [71.0, 67.5, 62.0, 0.2], "within": [False, False, False, True]})
    scores = pd.DataFrame(
        [("Kernel SVM", "accuracy_pct", t, v) for t, v in ((0.0, 71.0), (0.5, 72.5),
                                                           (1.0, 73.5))]
        + [("MLP", "accuracy_pct", t, v) for t, v in ((0.0, 67.5), (1.0, 69.5))]
        + [(f"MLP, seed {s}", "accuracy_pct", 0.0, v) for s, v in ((0, 68.5), (1, 69.9))]
        + [(f"MLP, seed {s}", "accuracy_pct", 1.0, v) for s, v in ((0, 65.0), (1, 65.0))]
        + [("Linear SVM", "accuracy_pct", t, v) for t, v in ((0.0, 62.0), (1.0, 62.5))],
        columns=["model", "metric", "share", "value"]).assign(dataset="COMPAS", k=10)
    causes = kleindessner.null_direction_causes(compared, scores).set_index("model")
    assert list(causes.index) == ["Kernel SVM", "MLP", "Linear SVM"]
    assert causes["cause"].tolist() == ["null directions", "null directions or MLP initialisation",
                                        "unknown"]
    mlp_alone = scores[(scores.model != "MLP") | (scores.share == 0.0)]
    assert kleindessner.null_direction_causes(compared, mlp_alone).set_index("model").loc[
        "MLP", "cause"] == "MLP initialisation"
    assert causes.loc["Kernel SVM", ["shares_low", "shares_high", "share_within"]].tolist() \
        == [71.0, 73.5, 0.5]
    assert causes.loc["MLP", ["seeds_low", "seeds_high", "seeds_within", "n_seeds"]].tolist() \
        == [68.5, 69.9, 2, 2]
    assert np.isnan(causes.loc["Linear SVM", "share_within"])
    words = kleindessner.null_direction_causes_in_words(causes.reset_index())
    assert words.count(" — ") == 3
    assert words.endswith("seeds of the MLP give 68.50 % to 69.90 %, 2 of them within the "
                          "paper's std); the Linear SVM's accuracy spans 62.00 % to 62.50 % — "
                          "no share reaches the paper's std: cause unknown.")
    assert ("the Kernel SVM's accuracy spans 71.00 % to 73.50 %, within the paper's std from "
            "t = 0.50 on — cause: the choice among the null directions;") in words


def test_null_direction_file_is_what_its_function_computes():
    """The committed table: every share, split and model; split 1's kernel SVM rows recomputed
    (the linear SVM's solution on this rank-8 embedding of repeated rows, like the MLP's, moves
    with the BLAS kernel: the file holds the default kernel's)."""
    scores = kleindessner.read_null_direction_scores()
    assert sorted(scores["share"].unique()) == list(kleindessner.NULL_SHARES)
    assert sorted(scores["split"].unique()) == list(range(10))
    assert set(scores["model"]) == {"Kernel SVM", "Linear SVM", "MLP",
                                    *(f"MLP, seed {s}" for s in kleindessner.MLP_SEEDS)}
    assert len(scores) == 10 * len(kleindessner.NULL_SHARES) * (3 + len(kleindessner.MLP_SEEDS)) * 2
    with threadpool_limits(1):
        again = kleindessner.null_direction_scores((0.0, 1.0), splits=[1],
                                                   classifiers={"kernel_svm": SVMS["kernel_svm"]})
    keys = ["share", "split", "model", "metric"]
    both = again.merge(scores, on=["dataset", "method", "k", *keys], suffixes=("", "_file"))
    assert len(both) == len(again) == 4
    np.testing.assert_allclose(both["value"], both["value_file"], rtol=1e-8, atol=1e-10)
