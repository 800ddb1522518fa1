"""Kleindessner et al. (2023) §5.2, the data and the protocol: the splits, the trade-off curves of
the fair representations and of the reductions approach, and the runtimes.
"""

import functools
import time
import warnings
from numbers import Integral

import numpy as np
import pandas as pd
import sklearn
from sklearn.base import clone
from sklearn.decomposition import PCA, KernelPCA
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.utils import Bunch

from ... import datasets, metrics
from ..._core.threads import limit_threads
from ..._core.validation import check_int
from ...baselines._rbf_gram import _GramSVC, _RBFGram
from ...evaluation._util import _check_names, _progress
from ...evaluation.runtime import runtime_ratios
from ...tradeoff import FairTradeoff
from .. import methods as registry

#: Data sets of §5.2 (``load_<name>(variant="agarwal")``).
DATASETS = ("adult", "bank")


#: Curves of §5.2: the fair PCA family with the λ knob, and fairlearn's reductions.
METHODS = registry.names(registry.KLEINDESSNER_TRADEOFF)


#: Fairness notions: demographic parity and equal opportunity (TPR parity).
FAIRNESS = ("DP", "EO")


#: Downstream classifiers of §5.2.
CLASSIFIERS = ("logistic regression", "kernel SVM")


#: The λ grid of App. C.1: weights (i/10)³, i = 0..10 (the reference code's ``λ³``).
LAMBDAS = tuple(round((i / 10) ** 3, 6) for i in range(11))


#: The ``difference_bound`` ε grid of App. C.1 for the reductions.
EPS = (0.001, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2)


#: The training-set sizes of Fig. 9.
N_TRAIN = (1000, 5000, 10000, 20000, 30000, 40000)


_REDUCTION, = (m for m in METHODS if registry.get(m).kind == "reduction")


def _grid(values, name, upper=None):
    arr = np.asarray(values, dtype=float).ravel()
    if arr.size == 0 or not np.all(np.isfinite(arr)) or np.any(arr < 0) or (
            upper is not None and np.any(arr > upper)):
        bound = f"in [0, {upper}]" if upper is not None else ">= 0"
        raise ValueError(f"{name} must be a non-empty list of numbers {bound}; got {values!r}.")
    return [float(v) for v in arr]


@functools.lru_cache(maxsize=4)
def _load(key, data_home):

    data = getattr(datasets, f"load_{key}")(variant="agarwal", data_home=data_home)
    return (data.X.to_numpy(float), (data.y.to_numpy() == data.pos_label).astype(int),
            data.sensitive.to_numpy().astype(int))


def load_splits(dataset, *, n_runs=10, n_train=5000, n_test=5000,
                                 first_run=0, data_home=None):
    """The train/test draws of Kleindessner et al. §5.2 (App. C.2).

    Run ``r`` permutes the rows with ``np.random.default_rng(r * 1111)`` and takes the first
    ``n_train`` rows for training and the next ``n_test`` for testing; a
    :class:`~sklearn.preprocessing.StandardScaler` fitted on the training rows scales both
    (the reference code, ``comparison_with_Agarwal``).

    Parameters
    ----------
    dataset : {"adult", "bank"}
        ``load_adult(variant="agarwal")`` (48 842 rows, d = 99, z = sex) or
        ``load_bank(variant="agarwal")`` (41 188 rows, d = 52, z = 1[age > 40]).
    n_runs : int, default=10
        Number of draws (runs ``first_run .. first_run + n_runs − 1``).
    n_train, n_test : int, default=5000
        Rows per draw; ``n_test=0`` gives training rows only (the runtime study of Fig. 9).
    first_run : int, default=0
        Index of the first run (the paper: runs 0 to 9).
    data_home : path, optional
        Passed to the loader.

    Returns
    -------
    list of Bunch
        ``X_train, y_train, s_train, X_test, y_test, s_test`` (numpy; y and s coded 0/1),
        ``run``, ``dataset``, ``n_train``.
    """
    key = str(dataset).lower()
    if key not in DATASETS:
        raise ValueError(f"dataset must be one of {list(DATASETS)}; "
                         f"got {dataset!r}.")
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    n_train = check_int(n_train, "n_train", minimum=2)
    n_test = check_int(n_test, "n_test", minimum=0)
    first_run = check_int(first_run, "first_run", minimum=0)

    X, y, s = _load(key, None if data_home is None else str(data_home))
    if n_train + n_test > len(y):
        raise ValueError(f"n_train + n_test = {n_train + n_test} exceeds the {len(y)} rows of "
                         f"{key}; lower n_train or n_test.")
    out = []
    for run in range(first_run, first_run + n_runs):
        perm = np.random.default_rng(run * 1111).permutation(len(y))
        tr, te = perm[:n_train], perm[n_train:n_train + n_test]
        scaler = StandardScaler().fit(X[tr])
        out.append(Bunch(X_train=scaler.transform(X[tr]), y_train=y[tr], s_train=s[tr],
                         X_test=scaler.transform(X[te]) if n_test else X[te],
                         y_test=y[te], s_test=s[te],
                         run=run, dataset=key, n_train=n_train))
    return out


def _gamma(X_train):
    """γ = 1/(d·Var X_train): the reference's kernel SVM and fair kernel PCA width."""
    var = float(np.var(X_train))
    return 1.0 / (X_train.shape[1] * var) if var > 0 else 1.0


def _classifier(classifier, n_train, gamma, warm_start=False):

    if classifier == "logistic regression":
        return LogisticRegression(C=1.0 / (2 * n_train * 0.01), max_iter=10_000, random_state=0,
                                  warm_start=warm_start)
    return SVC(C=1.0 / (2 * n_train * 5e-5), gamma=gamma, random_state=0)


class _StandardPCA(PCA):
    """The reference code's standard ``PCA(n)``, its directions of zero variance chosen canonically.

    The fit rows' centred covariance C can have a null space N of dimension m larger than
    d − n (Adult's EO fit rows, y = 1: one-hot columns that sum to one, categories no positive
    row has), so that ``PCA(n)`` keeps the r = d − m directions of positive variance and n − r
    directions of N, which ones being up to LAPACK's rounding — they change with the BLAS kernel
    and so do the classifier's predictions (measured: 12 of the 1 760 values of Adult's Fair PCA
    (EO) curves, Haswell against SkylakeX).  Here the directions of N are instead the projections
    of the coordinate axes e₁, e₂, … onto N, orthonormalised in column order (N's projector
    VVᵀ does not depend on the basis V that LAPACK returns), and the first n − r are kept.
    m is C's numerical nullity: eigenvalues up to d·ε·λ_max, ε the machine precision.
    """

    def fit(self, X, y=None):
        super().fit(X)
        Xc = X - self.mean_
        eigenvalues, V = np.linalg.eigh(Xc.T @ Xc)
        null = eigenvalues <= X.shape[1] * np.finfo(float).eps * eigenvalues[-1]
        rank = X.shape[1] - int(null.sum())
        if self.n_components_ > rank:
            self.components_[rank:] = _canonical_basis(V[:, null])[:, :self.n_components_ - rank].T
        return self


def _canonical_basis(V):
    """An orthonormal basis of span(V) that depends on the span only: e₁, e₂, … projected onto
    it and orthonormalised in that order (Gram–Schmidt, twice for orthogonality)."""
    projector = V @ V.T
    basis = []
    for column in projector.T:
        v = column.copy()
        for _ in range(2):
            for q in basis:
                v -= (q @ v) * q
        norm = np.linalg.norm(v)
        if norm > 1e-6:  # e_j has a component in the span not yet covered
            basis.append(v / norm)
        if len(basis) == V.shape[1]:
            break
    return np.column_stack(basis)


def _transformers(method, d, gamma):
    """Unfitted (fair, standard) pair of a fair PCA method, with the paper's dimensions: d − 1,
    or l = ⌊d/4⌋ for the method that equalises the covariances (Fair PCA-S)."""
    entry = registry.get(method)
    if entry.kind == "kernel":
        return (entry.build(d - 1, gamma=gamma),
                KernelPCA(d - 1, kernel="rbf", gamma=gamma, random_state=0))
    k = max(int(d / 4), 1) if "equalize_covariance" in entry.parameters else d - 1
    return entry.build(k), _StandardPCA(k, svd_solver="covariance_eigh")


def _fit_rows(split, fairness):
    """Rows the representation is learned from: all (DP) or those with y = 1 (EO)."""
    if fairness == "EO":
        rows = split.y_train == 1
        return split.X_train[rows], split.s_train[rows]
    return split.X_train, split.s_train


def _fair_curve(method, split, fairness, classifier, lambdas, *, reuse_fit=True,
                warm_start=True, evaluate=True, pair=None):
    """One curve of a fair PCA method: (seconds of the shared fit, [(λ, pred_test, seconds)]).

    ``pair``, an unfitted (fair, standard) pair, replaces the method's (:func:`_transformers`);
    with ``reuse_fit`` they are fitted in place, so the caller can read the fitted fair one.
    """
    X, y, n = split.X_train, split.y_train, len(split.y_train)
    gamma = _gamma(X)
    X_fit, s_fit = _fit_rows(split, fairness)
    linear = classifier == "logistic regression"
    warm = warm_start and reuse_fit and linear
    points, coef, intercept = [], None, None

    def transformers():
        if pair is None:
            return _transformers(method, X.shape[1], gamma)
        return pair if reuse_fit else (clone(pair[0]), clone(pair[1]))

    with warnings.catch_warnings(), sklearn.config_context(assume_finite=True):
        warnings.simplefilter("ignore", ConvergenceWarning)
        shared = 0.0
        if reuse_fit:
            t0 = time.perf_counter()
            fair, standard = transformers()
            fair.fit(X_fit, sensitive_features=s_fit)
            standard.fit(X_fit)
            A = fair.transform(X)
            C = np.hstack([A, standard.transform(X)])
            shared = time.perf_counter() - t0
            if evaluate:
                C_te = np.hstack([fair.transform(split.X_test),
                                  standard.transform(split.X_test)])
        for lam in lambdas:
            t0 = time.perf_counter()
            if reuse_fit:
                scale = np.r_[np.ones(A.shape[1]), np.full(C.shape[1] - A.shape[1], lam)]
                Z = C * scale
                clf = _classifier(classifier, n, gamma, warm_start=warm)
                if warm and coef is not None:  # start from the previous λ's weights
                    clf.coef_ = coef
                    clf.intercept_ = intercept
                clf.fit(Z, y)
                if warm:
                    coef = clf.coef_.copy()
                    intercept = clf.intercept_.copy()
            else:
                fair, standard = transformers()
                knob = FairTradeoff(fair, standard, lam=lam).fit(X_fit, sensitive_features=s_fit)
                clf = _classifier(classifier, n, gamma).fit(knob.transform(X), y)
            seconds = time.perf_counter() - t0
            pred = None
            if evaluate:
                if reuse_fit:
                    Z_te = C_te * scale
                else:
                    Z_te = knob.transform(split.X_test)
                pred = clf.predict(Z_te)
            points.append((lam, pred, seconds))
    return shared, points


def _reductions_curve(split, fairness, classifier, eps_grid, *, evaluate=True, kernel_gram=True):
    """One curve of fairlearn's ExponentiatedGradient: (shared seconds, [(ε, pred_test, seconds)]).

    The paper's call: ``ExponentiatedGradient(clf, DemographicParity(difference_bound=ε))``
    (or ``TruePositiveRateParity``) with fairlearn's default ``eps``, which since fairlearn 0.5
    only sets the L1 bound of the multipliers, so the constraint's bound is what varies.

    With ``kernel_gram`` the kernel SVM reads its kernel from one Gram matrix of the draw,
    computed once (the shared seconds) for every fit of every ε, and is given row numbers
    instead of rows; its fits and predictions equal ``SVC(kernel="rbf")``'s
    (:mod:`fairlab.baselines._rbf_gram`).
    """
    X, y, n = split.X_train, split.y_train, len(split.y_train)
    gamma = _gamma(X)
    rng = np.random.default_rng(split.run)
    estimator, X_fit, X_test, shared = _classifier(classifier, n, gamma), X, split.X_test, 0.0
    if kernel_gram and isinstance(estimator, SVC):
        t0 = time.perf_counter()
        gram = _RBFGram(np.vstack([X, split.X_test]), n, estimator.gamma)
        estimator = _GramSVC(gram, C=estimator.C, random_state=estimator.random_state)
        shared = time.perf_counter() - t0
        X_fit = np.arange(n)[:, None]
        X_test = np.arange(n, n + len(split.X_test))[:, None]
    points = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning of the cost-sensitive fits
        for eps in eps_grid:
            t0 = time.perf_counter()
            model = registry.build(_REDUCTION, None, estimator=clone(estimator),
                                   fairness=fairness, difference_bound=eps)
            model.fit(X_fit, y, sensitive_features=split.s_train)
            seconds = time.perf_counter() - t0
            pred = None
            if evaluate:
                pred = model.predict(X_test, random_state=int(rng.integers(2**31)))
            points.append((eps, pred, seconds))
    return shared, points


def _one_curve(method, split, fairness, classifier, lambdas, eps, *, reuse_fit,
                    warm_start, evaluate=True, kernel_gram=True):
    if method == _REDUCTION:
        return _reductions_curve(split, fairness, classifier, eps, evaluate=evaluate,
                                 kernel_gram=kernel_gram)
    return _fair_curve(method, split, fairness, classifier, lambdas, reuse_fit=reuse_fit,
                       warm_start=warm_start, evaluate=evaluate)


def curves(datasets=("adult",), *, methods=("Fair PCA", "Reductions"),
                                 fairness=FAIRNESS,
                                 classifiers=("logistic regression",), n_runs=10, n_train=5000,
                                 n_test=5000, first_run=0, lambdas=LAMBDAS,
                                 eps=EPS, reuse_fit=True, warm_start=True,
                                 blas_threads=1, data_home=None, progress=False):
    r"""Error-vs-violation trade-off curves of Kleindessner et al. §5.2 (Figs. 4 and 8).

    For every data set, run (:func:`load_splits`), fairness notion, downstream
    classifier and method, one curve:

    * a fair PCA method (``"Fair PCA"``: ``FairPCA(d − 1)``; ``"Fair PCA-S"``:
      ``FairPCA(int(d/4), equalize_covariance=0.5)``, i.e. l = int(d/2); ``"Fair Kernel PCA"``:
      ``FairKernelPCA(d − 1, kernel="rbf", γ)``; all uncentred, as the paper's
      ``standardize=False``) paired with standard PCA / kernel PCA of the same dimension in the
      knob of §3.1, :class:`~fairlab.FairTradeoff`, ``x ↦ (U_fairᵀx; λ·U_stᵀx)``, for each λ of
      ``lambdas``; the classifier is trained on that representation of the training rows.
      For EO both representations are learned from the training rows with y = 1 (the reference
      code; the classifier still sees all rows).  Where standard PCA must keep directions of
      zero variance on the fit rows (Adult's EO rows), fairlab keeps canonical ones, not the
      arbitrary ones LAPACK returns (``_StandardPCA``): the curves then do not depend on the BLAS
      kernel;
    * ``"Reductions"``: fairlearn's ``ExponentiatedGradient`` around the same classifier,
      with ``DemographicParity`` (DP) or ``TruePositiveRateParity`` (EO) and
      ``difference_bound = ε`` for each ε of ``eps``, fairlearn's other defaults (the paper's
      call; fairlearn is called directly because the ``eps`` of
      :class:`~fairlab.baselines.ExponentiatedGradientClassifier` is fairlearn's ``eps``, the
      L1 bound of the multipliers, not the constraint's bound); its randomised predictions are
      drawn from a generator seeded with the run.  Its kernel SVM is fitted on one RBF Gram
      matrix of the draw, computed once for all its fits: the fits and predictions are
      ``SVC(kernel="rbf")``'s, bit for bit, in a fraction of the time
      (:mod:`fairlab.baselines._rbf_gram`).

    Classifiers (reference code): ``LogisticRegression(C = 1/(2·n_train·0.01), max_iter=10000)``
    and ``SVC(C = 1/(2·n_train·5·10⁻⁵), γ = 1/(d·Var X_train))`` (C = 0.01 and 2 at n = 5000);
    fair kernel PCA uses the same γ.  Metrics on the test rows: ``error`` = P(ŷ ≠ y),
    ``violation`` = :math:`\Delta_{DP} = |P(\hat y=1 \mid z=0) - P(\hat y=1 \mid z=1)|` or
    :math:`\Delta_{EO} = |\mathrm{TPR}_0 - \mathrm{TPR}_1|`.

    Parameters
    ----------
    datasets : str or list of {"adult", "bank"}, default=("adult",)
    methods : list of {"Fair PCA", "Fair PCA-S", "Fair Kernel PCA", "Reductions"}
    fairness : list of {"DP", "EO"}
    classifiers : list of {"logistic regression", "kernel SVM"}
    n_runs, n_train, n_test, first_run : int
        Draws, their sizes and the first run's index (the paper: 10, 5000, 5000, 0).
    lambdas : list of float in [0, 1]
        Weights of the standard block, default :data:`LAMBDAS`
        ((i/10)³, the weights of the paper's figures).
    eps : list of float >= 0
        ``difference_bound`` values, default :data:`EPS`.
    reuse_fit : bool, default=True
        Fit the fair and the standard representation once per curve and rescale the standard
        block for each λ (what ``FairTradeoff`` computes: its fit does not depend on λ).
        ``False`` refits ``FairTradeoff`` for every λ, as the paper's pipeline does; both give
        the same representations.
    warm_start : bool, default=True
        Start each λ's logistic regression from the previous λ's weights (the objective is
        strictly convex, so only the iterations change, not the optimum up to the solver's
        tolerance).  Only with ``reuse_fit``; ignored for the kernel SVM.
    blas_threads : int or None, default=1
        Threads of the BLAS and OpenMP pools during the fits
        (:func:`fairlab._core.threads.limit_threads`), the same for every method; both kinds of
        curve are sequences of small fits, which an oversubscribed thread pool only slows down.
        ``None`` leaves the pools as they are.
    data_home : path, optional
    progress : bool, default=False
        tqdm bar over the curves.

    Returns
    -------
    DataFrame
        Columns ``dataset, method, fairness, classifier, run, param, error, violation,
        seconds``.  ``param`` is λ for the fair methods and ε for the reductions;
        ``seconds`` is the training time of that point (representation + classifier fits, no
        prediction), the once-per-curve fit of ``reuse_fit`` shared equally by the curve's
        points, so that the seconds of a curve add up to its wall time.
    """
    datasets = _check_names(datasets, DATASETS, "datasets")
    methods = _check_names(methods, METHODS, "methods")
    fairness = _check_names(fairness, FAIRNESS, "fairness")
    classifiers = _check_names(classifiers, CLASSIFIERS, "classifiers")
    lambdas = _grid(lambdas, "lambdas", upper=1.0)
    eps = _grid(eps, "eps")
    n_test = check_int(n_test, "n_test", minimum=1)
    blas_threads = check_int(blas_threads, "blas_threads", allow_none=True)
    tasks = [(ds, split, fair, clf, m)
             for ds in datasets
             for split in load_splits(ds, n_runs=n_runs, n_train=n_train,
                                                       n_test=n_test, first_run=first_run,
                                                       data_home=data_home)
             for fair in fairness for clf in classifiers for m in methods]
    rows = []
    for ds, split, fair, clf, method in _progress(tasks, progress, total=len(tasks),
                                                  desc="curves"):
        with limit_threads(blas_threads):
            shared, points = _one_curve(method, split, fair, clf, lambdas, eps,
                                             reuse_fit=reuse_fit, warm_start=warm_start)
        rows += [{"dataset": ds, "method": method, "fairness": fair, "classifier": clf,
                  "run": split.run, **point}
                 for point in _scored_points(split, fair, shared, points)]
    return pd.DataFrame(rows, columns=["dataset", "method", "fairness", "classifier", "run",
                                       "param", "error", "violation", "seconds"])


def _scored_points(split, fairness, shared, points):
    """A curve's points scored on the test rows: its parameter, the error, the violation of
    ``fairness`` and the training seconds, the shared fit spread equally over the points."""
    score = (metrics.demographic_parity_difference if fairness == "DP"
             else metrics.equal_opportunity_difference)
    return [{"param": param, "error": float(np.mean(pred != split.y_test)),
             "violation": float(score(split.y_test, pred, sensitive_features=split.s_test)),
             "seconds": seconds + shared / len(points)}
            for param, pred, seconds in points]


def curve_scores(split, fairness, classifier, fair, n_components, *, lambdas=LAMBDAS):
    """One trade-off curve of §5.2 for any fair representation: :func:`curves`' own step.

    ``fair`` (an unfitted transformer whose ``fit`` takes ``sensitive_features``) takes the
    place of Fair PCA: it is paired with standard PCA of ``n_components`` dimensions (the
    partner of Fair PCA in :func:`curves`, the paper's d − 1) in the knob
    ``x ↦ (U_fairᵀx; λ·U_stᵀx)``, both learned from the fit rows of ``fairness`` (all training
    rows for DP, those with y = 1 for EO), and ``classifier`` is trained on the knob's
    representation of the training rows at each λ of ``lambdas``, as :func:`curves` does for
    Fair PCA (one shared fit, warm-started logistic regressions).  With the registry's Fair
    PCA at d − 1 components it gives :func:`curves`' "Fair PCA" curve.

    Parameters
    ----------
    split : Bunch
        One draw of :func:`load_splits`.
    fairness : {"DP", "EO"}
    classifier : {"logistic regression", "kernel SVM"}
    fair : transformer
        Fitted in place.
    n_components : int
        Dimensions of the standard PCA block.
    lambdas : list of float in [0, 1], default :data:`LAMBDAS`

    Returns
    -------
    list of dict
        One per λ: ``param`` (λ), ``error``, ``violation`` and ``seconds``, as :func:`curves`'
        columns.
    """
    (fairness,) = _check_names([fairness], FAIRNESS, "fairness")
    (classifier,) = _check_names([classifier], CLASSIFIERS, "classifier")
    n_components = check_int(n_components, "n_components", minimum=1)
    pair = (fair, _StandardPCA(n_components, svd_solver="covariance_eigh"))
    with limit_threads(1):  # as curves(): blas_threads=1
        shared, points = _fair_curve(None, split, fairness, classifier,
                                     _grid(lambdas, "lambdas", upper=1.0), pair=pair)
    return _scored_points(split, fairness, shared, points)


def runtimes(n_train=N_TRAIN, *, dataset="adult",
                                   methods=("Fair PCA", "Fair PCA-S", "Reductions"),
                                   fairness="DP", classifier="logistic regression", n_runs=10,
                                   first_run=0, lambdas=LAMBDAS,
                                   eps=EPS, reuse_fit=True,
                                   warm_start=True, blas_threads=1, warmup=True,
                                   data_home=None, progress=False, kernel_gram=True):
    """Whole-curve training times against n_train (Kleindessner et al. Fig. 9).

    For each ``n_train`` and run, the training rows of :func:`load_splits`
    (``n_test=0``, as the paper's runtime script) are drawn outside the timer, then every
    method's whole curve (all λ, or all ε) is trained and timed as in
    :func:`curves` (same options; no prediction).  The paper plots the
    mean over grid points and runs (``seconds_per_point``); its "0.04 s vs 4.6 s" is that
    statistic at n = 5000.

    Parameters
    ----------
    n_train : int or list of int
        Training-set sizes (the paper: :data:`N_TRAIN`).
    dataset, fairness, classifier : str
        One setting (the paper: Adult, DP, logistic regression).
    methods, n_runs, first_run, lambdas, eps, reuse_fit, warm_start, blas_threads, data_home
        As in :func:`curves`.
    progress : bool, default=False
        As in :func:`curves`.
    warmup : bool, default=True
        Train one point of every method's curve, untimed, on the first draw of the smallest
        size (imports, caches, thread start-up).
    kernel_gram : bool, default=True
        Fit the reductions' kernel SVM on one Gram matrix of the draw, computed once for the
        whole curve (timed with it); ``False`` lets every fit and prediction recompute the
        kernel, as ``SVC(kernel="rbf")`` does.  Both give the same fits and predictions.

    Returns
    -------
    DataFrame
        Columns ``dataset, method, fairness, classifier, n_train, run, n_points, seconds,
        seconds_per_point``; ``seconds`` is the whole curve's wall time.
    """
    grid = [n_train] if isinstance(n_train, Integral) else list(n_train)
    if not grid:
        raise ValueError("n_train must be an integer or a non-empty list of integers.")
    grid = [check_int(n, "n_train", minimum=2) for n in grid]
    blas_threads = check_int(blas_threads, "blas_threads", allow_none=True)
    methods = _check_names(methods, METHODS, "methods")
    (fairness,) = _check_names([fairness], FAIRNESS, "fairness")
    (classifier,) = _check_names([classifier], CLASSIFIERS,
                                    "classifier")
    lambdas = _grid(lambdas, "lambdas", upper=1.0)
    eps = _grid(eps, "eps")
    tasks = [(n, split) for n in grid
             for split in load_splits(dataset, n_runs=n_runs, n_train=n,
                                                       n_test=0, first_run=first_run,
                                                       data_home=data_home)]
    def curve(method, split, lambdas=lambdas, eps=eps):
        with limit_threads(blas_threads):
            return _one_curve(method, split, fairness, classifier, lambdas, eps,
                                   reuse_fit=reuse_fit, warm_start=warm_start, evaluate=False,
                                   kernel_gram=kernel_gram)

    if warmup:
        first = min(tasks, key=lambda task: task[0])[1]
        for method in methods:
            curve(method, first, lambdas[:1], eps[:1])
    rows = []
    for n, split in _progress(tasks, progress, total=len(tasks), desc="runtime"):
        for method in methods:
            t0 = time.perf_counter()
            _, points = curve(method, split)
            seconds = time.perf_counter() - t0
            rows.append({"dataset": split.dataset, "method": method, "fairness": fairness,
                         "classifier": classifier, "n_train": n, "run": split.run,
                         "n_points": len(points), "seconds": seconds,
                         "seconds_per_point": seconds / len(points)})
    return pd.DataFrame(rows)


def runtime_summary(runtimes, *, reference="Reductions", ddof=0):
    """Mean ± std of the whole-curve seconds per method and n_train, and the ratio to ``reference``.

    Returns
    -------
    DataFrame
        Columns ``method, n_train, seconds, seconds_std, seconds_per_point, ratio`` (``ratio``
        = mean whole-curve seconds / the reference's at the same n_train; with grids of equal
        length it is also the per-point ratio the paper quotes).
    """
    if reference not in set(runtimes["method"]):
        raise ValueError(f"reference {reference!r} is not among the methods of runtimes.")
    g = runtimes.groupby(["method", "n_train"], sort=False)
    out = pd.DataFrame({"seconds": g["seconds"].mean(),
                        "seconds_std": g["seconds"].std(ddof=ddof).fillna(0.0),
                        "seconds_per_point": g["seconds_per_point"].mean()}).reset_index()
    return runtime_ratios(out, reference, by=("n_train",))
