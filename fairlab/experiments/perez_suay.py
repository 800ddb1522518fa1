"""Pérez-Suay et al. (2017) §4: Fair Kernel Learning on real data (Figs. 4–6).
"""

import copy
import functools
import time
import warnings
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.decomposition import PCA
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils import Bunch

from .. import datasets, metrics
from .._core.validation import UnconstrainedFallbackWarning
from ..evaluation._util import _check_names, _progress
from ..hsic_reduction import FairDR, KernelFairDR
from ..hsic_regression import FairKernelRegression, FairLinearRegression
from ..plotting import MIN_FONT_PT, figure_legend, method_style, panel_grid

#: The hyper-parameter grids of Pérez-Suay et al. §4.2 (and the reference code, IPL-UV/FKL):
#: ridge λ, KRR width σ, width σ_S of the kernel on S, fairness weight μ (the paper's μ = the
#: ``t = mu / n²`` of :class:`~fairlab.FairLinearRegression` and
#: :class:`~fairlab.FairKernelRegression`), and the KPCA/KFDR width σ of §4.4.
GRIDS = {
    "alpha": np.logspace(-4, 3, 7),
    "sigma": np.logspace(-4, 4, 10),
    "sigma_s": np.logspace(-1, 2, 10),
    "mu": np.logspace(-7, 3, 25),
    "sigma_dr": np.logspace(-5, 3, 15),
}


#: Data set -> sensitive choice -> the 0-based columns of ``X`` that hold it (the matrix S of the
#: paper): a9a's one-hot blocks f72-f73 (sex) and f67-f73 (race and sex, q = 7), CMC's
#: features 2, 3, 4 and 9 (one column each, protected one at a time).
SENSITIVE = {
    "adult": {"sex": [71, 72], "sex+race": [66, 67, 68, 69, 70, 71, 72]},
    "cmc": {"wife_education": [1], "husband_education": [2], "n_children": [3],
            "media_exposure": [8]},
}

#: The sensitive choices of :data:`SENSITIVE` in a reader's words, as the paper's panels name
#: them.
SENSITIVE_LABELS = {"sex": "sex", "sex+race": "sex and race", "wife_education": "wife's education",
                    "husband_education": "husband's education",
                    "n_children": "number of children", "media_exposure": "media exposure"}


#: Paper-scale sizes (§4.1): train / validation rows per repetition and test rows.
SIZES = {"adult": (5000, 5000, 16281), "cmc": (500, 500, 473)}


VARIANTS = ("with S", "without S")


REGRESSION_METHODS = ("LR", "FLR", "KRR", "FKR")


DR_METHODS = ("PCA", "KPCA", "FDR", "KFDR")


_ENCODINGS = ("columns", "one-hot")


def _dataset_key(dataset):
    key = dataset.strip().lower() if isinstance(dataset, str) else None
    key = {"a9a": "adult"}.get(key, key)
    if key not in SENSITIVE:
        raise ValueError(f"dataset must be 'adult' (a9a) or 'cmc'; got {dataset!r}.")
    return key


def _positive_int(value, name, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
        raise ValueError(f"{name} must be a positive integer; got {value!r}.")
    return int(value)


def load_splits(dataset, *, n_repetitions=25, n_train=None, n_val=None, n_test=None,
                      random_state=0, data_home=None):
    """The repetitions of Pérez-Suay et al. §4.1: train / validation / test rows.

    * ``"adult"``: LIBSVM a9a (:func:`fairlab.datasets.load_a9a`; 123 binary features).  Each
      repetition draws ``n_train`` + ``n_val`` rows (paper: 5000 + 5000) from the 32 561
      training rows without replacement; the test rows are the test file a9a.t — all 16 281
      (the paper), or a seeded random subset of ``n_test`` rows, the same in every repetition.
    * ``"cmc"``: the 1473 rows of CMC (:func:`fairlab.datasets.load_cmc`) permuted per
      repetition: ``n_train`` / ``n_val`` / ``n_test`` rows (paper: 500 / 500 / the other 473).

    Parameters
    ----------
    dataset : {"adult", "cmc"}
        ``"a9a"`` is accepted for ``"adult"``.
    n_repetitions : int, default=25
        The paper averages 25 repetitions.
    n_train, n_val, n_test : int, optional
        Default: the paper's sizes (:data:`SIZES`).
    random_state : int, default=0
        Repetition i permutes the rows with ``numpy.random.default_rng(random_state + 1 + i)``;
        the a9a test subset uses ``default_rng(random_state)``.  (The reference MATLAB code's
        ``rand('seed', 123)`` stream cannot be replayed: same protocol, other draws.)
    data_home : path, optional
        Passed to the loaders.

    Returns
    -------
    list of Bunch
        ``X_train, y_train, X_val, y_val, X_test, y_test`` (numpy; all features, the sensitive
        columns included; ``y`` in {−1, +1}: +1 = income > 50K / uses contraception),
        ``repetition``, ``dataset``, ``feature_names``.
    """
    key = _dataset_key(dataset)
    n_repetitions = _positive_int(n_repetitions, "n_repetitions")
    sizes = dict(zip(("n_train", "n_val", "n_test"), SIZES[key]))
    for name, value in (("n_train", n_train), ("n_val", n_val), ("n_test", n_test)):
        if value is not None:
            sizes[name] = _positive_int(value, name)
    if key == "adult":
        train = datasets.load_a9a(subset="train", data_home=data_home)
        test = datasets.load_a9a(subset="test", data_home=data_home)
        X_pool, y_pool = train.X.to_numpy(float), 2.0 * train.y.to_numpy() - 1.0
        X_test, y_test = test.X.to_numpy(float), 2.0 * test.y.to_numpy() - 1.0
        if sizes["n_train"] + sizes["n_val"] > len(y_pool) or sizes["n_test"] > len(y_test):
            raise ValueError(
                f"a9a has {len(y_pool)} training rows (n_train + n_val) and {len(y_test)} test "
                f"rows (n_test); got {sizes}."
            )
        if sizes["n_test"] < len(y_test):
            rows = np.sort(np.random.default_rng(random_state).choice(
                len(y_test), sizes["n_test"], replace=False))
            X_test, y_test = X_test[rows], y_test[rows]
        names = list(train.feature_names)
    else:
        data = datasets.load_cmc(data_home=data_home)
        X_pool, y_pool = data.X.to_numpy(float), 2.0 * data.y.to_numpy() - 1.0
        names = list(data.feature_names)
        if sum(sizes.values()) > len(y_pool):
            raise ValueError(f"CMC has {len(y_pool)} rows; n_train + n_val + n_test = "
                             f"{sum(sizes.values())} is more.")
    out = []
    n_tr, n_va = sizes["n_train"], sizes["n_val"]
    for i in range(n_repetitions):
        perm = np.random.default_rng(random_state + 1 + i).permutation(len(y_pool))
        tr, va = perm[:n_tr], perm[n_tr:n_tr + n_va]
        split = Bunch(X_train=X_pool[tr], y_train=y_pool[tr], X_val=X_pool[va],
                      y_val=y_pool[va], repetition=i, dataset=key, feature_names=names)
        if key == "adult":
            split.X_test, split.y_test = X_test, y_test
        else:
            te = perm[n_tr + n_va:n_tr + n_va + sizes["n_test"]]
            split.X_test, split.y_test = X_pool[te], y_pool[te]
        out.append(split)
    return out


def _sensitive_columns(dataset, sensitive):
    key = _dataset_key(dataset)
    names = _check_names(sensitive, tuple(SENSITIVE[key]), "sensitive")
    return key, names


def _inputs(split, columns, variant, encoding):
    """Inputs (with or without the sensitive columns) and the matrices S of one split."""
    parts = ("train", "val", "test")
    Xs = {p: np.asarray(split[f"X_{p}"], float) for p in parts}
    S = {p: Xs[p][:, columns] for p in parts}
    if encoding == "one-hot":  # a column with more than two values: one indicator per value
        blocks = {p: [] for p in parts}
        for j in range(len(columns)):
            values = np.unique(np.concatenate([S[p][:, j] for p in parts]))
            for p in parts:
                col = S[p][:, j]
                blocks[p].append(col[:, None] if len(values) <= 2 else
                                 (col[:, None] == values[None, :]).astype(float))
        S = {p: np.hstack(blocks[p]) for p in parts}
    if variant == "without S":
        Xs = {p: np.delete(X, columns, axis=1) for p, X in Xs.items()}
    return Xs, S


def _mse(f, y):
    """Classification error of the sign of the regression output (ties go to +1)."""
    return float(np.mean(np.where(np.asarray(f) >= 0, 1.0, -1.0) != y))


def _hsic_rbf(f, S, gamma):
    """(1/n²) f̃ᵀ K_S f̃ for an RBF kernel on S with few distinct rows, without the n×n matrix.

    f̃ is the centred f; rows of S that coincide share one group: with F_a = Σ_{i∈a} f̃_i,
    the quadratic form is Σ_ab k(s_a, s_b) F_a F_b.
    """
    f = np.asarray(f, float)
    f = f - f.mean(axis=0)
    values, inverse = np.unique(S, axis=0, return_inverse=True)
    F = np.zeros((len(values),) + f.shape[1:])
    np.add.at(F, inverse.reshape(-1), f)
    d2 = ((values[:, None, :] - values[None, :, :]) ** 2).sum(-1)
    K = np.exp(-gamma * d2)
    quad = np.einsum("a...,ab,b...->...", F, K, F)
    return quad / len(f) ** 2


def _linear_hsic(f, S):
    """HSIC with linear kernels, per column of f: (1/n²)‖S̃ᵀf̃_j‖² (Pérez-Suay et al.'s test)."""
    f = np.atleast_2d(np.asarray(f, float).T).T
    return np.array([metrics.hsic(f[:, j], S, sensitive_type="continuous")
                     for j in range(f.shape[1])])


def _stack(models, coef):
    """One model whose ``coef``/``intercept_`` hold a whole μ path (predict is linear in them)."""
    stacked = copy.copy(models[0])
    if coef == "coef_":
        stacked.coef_ = np.vstack([m.coef_ for m in models])
    else:
        stacked.dual_coef_ = np.column_stack([m.dual_coef_ for m in models])
    stacked.intercept_ = np.array([m.intercept_ for m in models])
    return stacked


def _path_rows(rows, base, y_test, S_test, method, mu, f, hsic_model, seconds, **params):
    """Append one row per column (μ) of the test predictions ``f``."""
    for j in range(f.shape[1]):
        rows.append({**base, "method": method, "mu": float(mu[j]),
                     "error": _mse(f[:, j], y_test),
                     "hsic": float(_linear_hsic(f[:, j], S_test)[0]),
                     "hsic_model": float(hsic_model[j]), "seconds": seconds,
                     "alpha": np.nan, "sigma": np.nan, "sigma_s": np.nan, **params})


def _knn_row(base, method, k, E_tr, y, E_te, y_test, S_test, sigma, seconds):
    """1-NN test error and linear HSIC of one embedding.

    The neighbour search reads the embeddings rounded to 8 significant digits of their largest
    entry.  a9a's binary features put many test points at (nearly) equal distances from two
    training points; unrounded, which of them is nearest is decided by the last bits of the
    embedding, which change with the BLAS kernel and thread count.  Rounded, such near-ties
    become exact ties, which scikit-learn breaks by training-row order on every machine.
    """
    scale = max(float(np.abs(E_tr).max(initial=0.0)), np.finfo(float).tiny)
    unit = 10.0 ** (np.floor(np.log10(scale)) - 7)
    pred = KNeighborsClassifier(n_neighbors=1).fit(np.round(E_tr / unit), y).predict(
        np.round(E_te / unit))
    return {**base, "method": method, "n_components": int(k),
            "error": float(np.mean(pred != y_test)),
            "hsic": metrics.hsic(E_te, S_test, sensitive_type="continuous"),
            "sigma": sigma if method in ("KPCA", "KFDR") else np.nan, "seconds": seconds}


def _tune_linear(X, y, X_val, y_val, S, alphas):

    best, best_acc = None, -1.0
    for alpha in alphas:  # first maximum, as MATLAB's max
        model = FairLinearRegression(alpha=float(alpha)).fit(X, y, sensitive_features=S)
        acc = 1.0 - _mse(model.predict(X_val), y_val)
        if acc > best_acc:
            best, best_acc = (float(alpha), model), acc
    return best


def _tune_kernel(X, y, X_val, y_val, alphas, sigmas):

    acc = np.empty((len(sigmas), len(alphas)))
    models = {}
    for i, sigma in enumerate(sigmas):
        with warnings.catch_warnings():  # μ = 0: kernel ridge on purpose (no K_S to build)
            warnings.simplefilter("ignore", UnconstrainedFallbackWarning)
            # one kernel matrix for the whole λ column (each fit as FairKernelRegression.fit's)
            fits = FairKernelRegression(gamma=1.0 / (2.0 * sigma**2))._ridge_grid(X, y, alphas)
        f_val = _stack(fits, "dual_coef_").predict(X_val)  # one validation kernel per σ
        acc[i] = [1.0 - _mse(f_val[:, j], y_val) for j in range(len(alphas))]
        models[i] = fits
    # ties: the first maximum in MATLAB's column-major order (smallest λ, then smallest σ)
    i, j = np.argwhere(acc.T == acc.max())[0][::-1]
    return float(alphas[j]), float(sigmas[i]), models[i][j]


def _check_protocol(splits, sensitive, variants, methods, known_methods, sensitive_encoding):
    """The arguments both experiments share, checked: (splits, key, names, variants, methods,
    encoding)."""
    splits = list(splits)
    if not splits:
        raise ValueError("splits must be a non-empty list of load_splits() Bunch objects.")
    key, names = _sensitive_columns(splits[0].get("dataset", ""), sensitive)
    return (splits, key, names, _check_names(variants, VARIANTS, "variants"),
            _check_names(methods, known_methods, "methods"),
            _check_names(sensitive_encoding, _ENCODINGS, "sensitive_encoding")[0])


def regression(splits, sensitive, *, variants=VARIANTS,
                          methods=REGRESSION_METHODS, grids=None,
                          sensitive_encoding="columns", progress=False):
    """Error and HSIC of LR, FLR, KRR and FKR on every repetition (Pérez-Suay et al. Figs. 4–5).

    The protocol of §4.2 and the reference code (IPL-UV/FKL, ``FL.m`` / ``FKL.m``), per
    repetition and per variant ("with S": all features; "without S": the sensitive columns
    removed from the inputs, kept in S):

    * the binary label y ∈ {−1, +1} is regressed and classified by its sign (with one
      output per class the max vote is the same decision, by linearity);
    * **LR**: ridge λ from ``grids["alpha"]`` (7 values in [1e-4, 1e3]) by validation
      accuracy; **FLR**: :class:`~fairlab.FairLinearRegression` at that λ, the whole μ path
      from one ``fit_path`` (linear kernel on S, as the paper);
    * **KRR**: (σ, λ) from ``grids["sigma"]`` × ``grids["alpha"]`` (RBF
      exp(−‖x − x'‖²/(2σ²))) by validation accuracy; σ_S from ``grids["sigma_s"]``
      **maximising** the training HSIC between the KRR predictions and S with the RBF kernel on
      S; **FKR**: :class:`~fairlab.FairKernelRegression` at (λ, σ, σ_S), the μ path by
      ``fit_path``;
    * μ: the paper's μ ∈ ``grids["mu"]`` (25 values in [1e-7, 1e3]) is the weight of the
      biased HSIC (1/n²)·tr(…), i.e. ``mu = n² · μ`` for the fairlab estimators (the
      reference code's ``n² · logspace(-7, 3, 25)``).

    The test error is the fraction of wrong signs; ``hsic`` is the linear-kernel HSIC between
    the real-valued test predictions and S, (1/n²)‖S̃ᵀf̃‖² (``FL.m``'s measure), for **every**
    method so that the curves share one axis; ``hsic_model`` measures it with the model's own
    kernel on S (RBF with σ_S for KRR/FKR, as ``FKL.m`` plots them; linear for LR/FLR).

    Parameters
    ----------
    splits : list of Bunch
        :func:`load_splits`.
    sensitive : str or list of str
        Keys of :data:`SENSITIVE` for the splits' data set (``"sex"``,
        ``"sex+race"``; ``"wife_education"``, ``"husband_education"``, ``"n_children"``,
        ``"media_exposure"``).  Several are run on the same fits where they coincide (the
        "with S" hyper-parameters do not depend on S).
    variants : tuple of {"with S", "without S"}
    methods : tuple of {"LR", "FLR", "KRR", "FKR"}
    grids : dict, optional
        Replaces entries of :data:`GRIDS` (``alpha``, ``sigma``, ``sigma_s``, ``mu``).
    sensitive_encoding : {"columns", "one-hot"}, default="columns"
        ``"columns"``: S is the matrix of the sensitive columns of X as they are (a9a: its
        one-hot blocks, as the reference code's ``Q = X(:, 72:73)``; CMC: the attribute's
        numeric column, e.g. the number of children 0–16, penalised as a number).
        ``"one-hot"``: a column with more than two values becomes one indicator per value
        (CMC's education levels, media exposure is already binary; a9a unchanged).  The
        integer codes are never read as group labels by accident: S is always passed as a
        float matrix, to the estimators and to the HSIC.
    progress : bool, default=False

    Returns
    -------
    DataFrame
        One row per (sensitive, variant, method, repetition, μ): ``dataset, sensitive,
        variant, method, repetition, mu`` (the paper's μ; 0 for LR and KRR), ``error``
        (fraction), ``hsic``, ``hsic_model``, ``alpha, sigma, sigma_s`` (chosen values; NaN
        where unused) and ``seconds``: the fit time of the whole μ path (FLR, FKR) or of the
        whole validation search (LR, KRR; 0 where a "with S" search was shared with an earlier
        sensitive choice, so that a sum over rows counts each fit once).
    """
    splits, key, names, variants, methods, sensitive_encoding = _check_protocol(
        splits, sensitive, variants, methods, REGRESSION_METHODS, sensitive_encoding)
    unknown = set(grids or {}) - set(GRIDS)
    if unknown:
        raise ValueError(f"grids has unknown keys {sorted(unknown)}; use {list(GRIDS)}.")
    g = {**GRIDS, **{k: np.asarray(v, float) for k, v in (grids or {}).items()}}
    jobs = [(split, name, variant) for split in splits for name in names for variant in variants]
    rows, cache = [], {}
    for split, name, variant in _progress(jobs, progress, total=len(jobs), desc="fits"):
        columns = SENSITIVE[key][name]
        Xs, S = _inputs(split, columns, variant, sensitive_encoding)
        X, y = Xs["train"], np.asarray(split.y_train, float)
        n = len(y)
        y_val, y_te = np.asarray(split.y_val, float), np.asarray(split.y_test, float)
        base = {"dataset": key, "sensitive": name, "variant": variant,
                "repetition": split.get("repetition", 0)}
        removed = tuple(columns) if variant == "without S" else ()
        mus = n**2 * g["mu"]

        add = functools.partial(_path_rows, rows, base, y_te, S["test"])
        if {"LR", "FLR"} & set(methods):
            ck = ("linear", id(split), removed)
            if ck not in cache:
                start = time.perf_counter()
                cache[ck] = [*_tune_linear(X, y, Xs["val"], y_val, S["train"], g["alpha"]),
                             time.perf_counter() - start]
            alpha, lr, lr_seconds = cache[ck]
            cache[ck][-1] = 0.0  # shared with a later panel: its cost is counted once
            if "LR" in methods:
                f = lr.predict(Xs["test"])[:, None]
                add("LR", [0.0], f, _linear_hsic(f, S["test"]), lr_seconds, alpha=alpha)
            if "FLR" in methods:
                start = time.perf_counter()
                path = FairLinearRegression(alpha=alpha).fit_path(X, y, mus,
                                                                  sensitive_features=S["train"])
                seconds = time.perf_counter() - start
                f = _stack(path, "coef_").predict(Xs["test"])
                add("FLR", g["mu"], f, _linear_hsic(f, S["test"]), seconds, alpha=alpha)
        if {"KRR", "FKR"} & set(methods):
            ck = ("kernel", id(split), removed)
            if ck not in cache:
                start = time.perf_counter()
                cache[ck] = [*_tune_kernel(X, y, Xs["val"], y_val, g["alpha"], g["sigma"]),
                             time.perf_counter() - start]
            alpha, sigma, krr, krr_seconds = cache[ck]
            cache[ck][-1] = 0.0
            f_tr = krr.predict(X)
            # σ_S maximises the dependence of the unfair model on S (§4.2), first maximum
            dep = [_hsic_rbf(f_tr, S["train"], 1.0 / (2.0 * s**2)) for s in g["sigma_s"]]
            sigma_s = float(g["sigma_s"][int(np.argmax(dep))])
            gamma_s = 1.0 / (2.0 * sigma_s**2)
            params = {"alpha": alpha, "sigma": sigma, "sigma_s": sigma_s}
            if "KRR" in methods:
                f = krr.predict(Xs["test"])[:, None]
                add("KRR", [0.0], f, _hsic_rbf(f, S["test"], gamma_s), krr_seconds,
                    **params)
            if "FKR" in methods:
                start = time.perf_counter()
                path = FairKernelRegression(
                    alpha=alpha, gamma=1.0 / (2.0 * sigma**2), sensitive_kernel="rbf",
                    sensitive_gamma=gamma_s).fit_path(X, y, mus, sensitive_features=S["train"])
                seconds = time.perf_counter() - start
                f = _stack(path, "dual_coef_").predict(Xs["test"])
                add("FKR", g["mu"], f, _hsic_rbf(f, S["test"], gamma_s), seconds, **params)
    columns = ["dataset", "sensitive", "variant", "method", "repetition", "mu", "error", "hsic",
               "hsic_model", "alpha", "sigma", "sigma_s", "seconds"]
    return pd.DataFrame(rows, columns=columns)


def dimensionality_reduction(splits, sensitive, *, variants=VARIANTS,
                                        methods=DR_METHODS,
                                        n_components=(1, 2, 3, 5, 10, 20, 50),
                                        fair_components=None, sigmas=None, ridge=1e-7,
                                        sensitive_encoding="columns", progress=False):
    """1-NN error and HSIC of PCA, KPCA, FDR and KFDR embeddings (Pérez-Suay et al. Fig. 6).

    Protocol of §4.4 and ``FDR.m``, per repetition and variant (validation rows unused):

    * **PCA** (``sklearn.decomposition.PCA``) and **KPCA** (RBF kernel PCA:
      :class:`~fairlab.KernelFairDR` without S, whose scores equal scikit-learn's
      ``KernelPCA``'s and which also handles the degenerate kernels of the extreme widths)
      with each number of components n_p in ``n_components`` (capped at the data's rank
      limits);
    * **FDR**: :class:`~fairlab.FairDR` and **KFDR**: :class:`~fairlab.KernelFairDR` (linear
      kernel on S), both with ``ridge`` = 1e-7 on the denominator as the reference code and
      ``fair_components`` directions (default q, the number of columns of S: 2 for sex, 7 for
      race and sex, as ``FDR.m``'s ``nf = size(Q, 2)``);
    * the RBF width σ of KPCA and KFDR: the value of ``sigmas`` (default 15 values in
      [1e-5, 1e3]) that **maximises** the training HSIC between the kernel of X and S,
      (1/n²)tr(K_σ H S Sᵀ H) (the paper's "σ_S ... optimized to maximize the dependence");
    * a 1-nearest-neighbour classifier is trained on the training embedding and scored on the
      test embedding (``error``, fraction); ``hsic`` = (1/n²)‖S̃ᵀẼ‖²_F, the linear HSIC of the
      test embedding E with S (the sum over components; it grows with n_p and with the scale
      of the scores, which differs between methods: PCA/FDR unit-norm directions, KPCA/KFDR
      unit-norm RKHS directions).

    Parameters
    ----------
    splits : list of Bunch
        :func:`load_splits` (``"adult"`` in the paper; CMC works too).
    sensitive : str or list of str
        See :func:`regression`.
    variants, sensitive_encoding, progress :
        See :func:`regression`.
    methods : tuple of {"PCA", "KPCA", "FDR", "KFDR"}
    n_components : sequence of int, default=(1, 2, 3, 5, 10, 20, 50)
        n_p of PCA and KPCA.
    fair_components : int, optional
        Directions of FDR and KFDR; default q.
    sigmas : array-like, optional
        Default ``GRIDS["sigma_dr"]``.
    ridge : float >= 0, default=1e-7

    Returns
    -------
    DataFrame
        ``dataset, sensitive, variant, method, repetition, n_components, error, hsic, sigma,
        seconds`` (fit time of the estimator, repeated on each n_p row it serves).
    """
    splits, key, names, variants, methods, sensitive_encoding = _check_protocol(
        splits, sensitive, variants, methods, DR_METHODS, sensitive_encoding)
    ks = sorted({_positive_int(k, "n_components") for k in np.atleast_1d(n_components)})
    fair_components = _positive_int(fair_components, "fair_components", allow_none=True)
    sigmas = GRIDS["sigma_dr"] if sigmas is None else np.asarray(sigmas, float)
    if not isinstance(ridge, Real) or ridge < 0:
        raise ValueError(f"ridge must be a non-negative number; got {ridge!r}.")
    jobs = [(split, name, variant) for split in splits for name in names for variant in variants]
    rows = []
    for split, name, variant in _progress(jobs, progress, total=len(jobs), desc="fits"):
        columns = SENSITIVE[key][name]
        Xs, S = _inputs(split, columns, variant, sensitive_encoding)
        X, X_te = Xs["train"], Xs["test"]
        y, y_te = np.asarray(split.y_train, float), np.asarray(split.y_test, float)
        n, d = X.shape
        base = {"dataset": key, "sensitive": name, "variant": variant,
                "repetition": split.get("repetition", 0)}
        sigma = np.nan
        if {"KPCA", "KFDR"} & set(methods):
            dep = metrics.hsic_rbf_widths(X, S["train"], 1.0 / (2.0 * sigmas**2),
                                          sensitive_type="continuous")
            sigma = float(sigmas[int(np.argmax(dep))])
        gamma = 1.0 / (2.0 * sigma**2)
        q = fair_components or S["train"].shape[1]

        for method in methods:
            start = time.perf_counter()
            if method == "PCA":
                top = [k for k in ks if k <= min(n, d)]
                model = PCA(max(top), svd_solver="full").fit(X)
            elif method == "KPCA":  # KernelFairDR without S is kernel PCA (sklearn's scores)
                model = _kernel_dr(X, max(k for k in ks if k < n), gamma, None, ridge)
            elif method == "FDR":
                top = [min(q, d)]
                model = FairDR(top[0], ridge=ridge).fit(X, sensitive_features=S["train"])
            else:
                model = _kernel_dr(X, min(q, n - 1), gamma, S["train"], ridge)
            if method in ("KPCA", "KFDR"):  # fewer directions where the kernel's rank is lower
                top = [k for k in ks if k <= model.n_components_] if method == "KPCA" else [
                    model.n_components_]
            seconds = time.perf_counter() - start
            E_tr, E_te = model.transform(X), model.transform(X_te)
            for k in top:
                rows.append(_knn_row(base, method, k, E_tr[:, :k], y, E_te[:, :k], y_te,
                                        S["test"], sigma, seconds))
    columns = ["dataset", "sensitive", "variant", "method", "repetition", "n_components",
               "error", "hsic", "sigma", "seconds"]
    return pd.DataFrame(rows, columns=columns)


def _kernel_dr(X, k, gamma, S, ridge):
    """RBF KernelFairDR with k directions (kernel PCA for S=None), fewer if the rank is lower."""
    est = KernelFairDR(k, kernel="rbf", gamma=gamma, sensitive_kernel="linear", ridge=ridge)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnconstrainedFallbackWarning)
        try:
            return est.fit(X, sensitive_features=S)
        except ValueError:  # e.g. a very wide kernel: rank(K̃) < k
            rank = clone(est).set_params(n_components=1, eigen_solver="dense").fit(
                X, sensitive_features=S).eigenvalues_kernel_.size
            if rank >= k:
                raise
            return est.set_params(n_components=rank).fit(X, sensitive_features=S)


def _label(method, variant):
    return method if variant == "with S" else f"{method}\\S"


def summarize_results(results, *, ddof=0):
    """Mean and std over repetitions of :func:`regression` or
    :func:`dimensionality_reduction`, one row per point of a figure.

    Returns
    -------
    DataFrame
        ``dataset, sensitive, variant, method, label`` (the legend: ``"FKR"``, ``"FKR\\S"``,
        …), the path coordinate (``mu`` or ``n_components``), ``error_mean, error_std,
        hsic_mean, hsic_std`` (and ``hsic_model_*`` for regression) and ``n_repetitions``.
    """
    coord = "mu" if "mu" in results.columns else "n_components"
    if coord not in results.columns or "error" not in results.columns:
        raise ValueError("results must come from perez_suay.regression or "
                         "perez_suay.dimensionality_reduction.")
    keys = ["dataset", "sensitive", "variant", "method", coord]
    values = [c for c in ("error", "hsic", "hsic_model") if c in results.columns]
    grouped = results.groupby(keys, sort=False)[values]
    mean, std = grouped.mean(), grouped.std(ddof=ddof)
    out = pd.concat([mean.add_suffix("_mean"), std.add_suffix("_std")], axis=1)
    out["n_repetitions"] = results.groupby(keys, sort=False)["repetition"].nunique()
    out = out.reset_index()
    out.insert(4, "label", [_label(m, v) for m, v in zip(out["method"], out["variant"])])
    return out


_UNFAIR = {"LR": "FLR", "KRR": "FKR"}


def plot(results, *, sensitive=None, hsic="hsic", std=True, axes=None,
                    titles=None):
    """Error vs HSIC, one panel per sensitive choice, as Pérez-Suay et al. Figs. 4–6.

    x: test classification error (percent), y: test HSIC on a log axis; each curve is the mean
    over repetitions, the bars ± one std (the lower HSIC bar is cut at a tenth of the mean,
    where mean − std would leave the log axis).  Regression results (Figs. 4–5): the μ paths
    of FKR, FKR\\S (dashed), FLR, FLR\\S as lines and the unfair LR/KRR as single markers
    in the colour of their fair version (× with S, + without), as in the paper.
    Dimensionality reduction (Fig. 6): PCA and KPCA as lines over n_p (each point labelled
    with its n_p), FDR and KFDR as single markers (half filled: without S).  Every method has
    its colour and marker of :func:`fairlab.plotting.method_style`, as in the book's other
    figures; a variant without S is dashed.

    Parameters
    ----------
    results : DataFrame
        :func:`regression` or :func:`dimensionality_reduction` output
        (per repetition), or its :func:`summarize_results`.
    sensitive : list of str, optional
        Panels, in order; default every sensitive choice in ``results``.
    hsic : {"hsic", "hsic_model"}, default="hsic"
        The dependence measure on the y axis (see :func:`regression`).
    std : bool, default=True
        Draw the ± std bars.
    axes : array of Axes, optional
        One per panel; default a new figure of :func:`fairlab.plotting.panel_grid`.  The
        legend is drawn once, below the panels (:func:`fairlab.plotting.figure_legend`).
    titles : list of str, optional

    Returns
    -------
    numpy array of Axes
    """
    summary = results if "error_mean" in results.columns else summarize_results(results)
    if f"{hsic}_mean" not in summary.columns:
        raise ValueError(f"hsic must be 'hsic' or 'hsic_model' (present in results); got "
                         f"{hsic!r}.")
    panels = list(dict.fromkeys(summary["sensitive"])) if sensitive is None else (
        [sensitive] if isinstance(sensitive, str) else list(sensitive))
    missing = [p for p in panels if p not in set(summary["sensitive"])]
    if missing:
        raise ValueError(f"sensitive {missing} not in results; present: "
                         f"{list(dict.fromkeys(summary['sensitive']))}.")
    if axes is None:
        _, axes = panel_grid(len(panels))
    axes = np.atleast_1d(np.asarray(axes)).ravel()
    if len(axes) < len(panels):
        raise ValueError(f"axes has {len(axes)} Axes for {len(panels)} panels.")
    coord = "mu" if "mu" in summary.columns else "n_components"
    for ax, panel in zip(axes, panels):
        part = summary[summary["sensitive"] == panel]
        for label, curve in part.groupby("label", sort=False):
            method = curve["method"].iloc[0]
            fair_label = label.replace(method, _UNFAIR.get(method, method))
            style = method_style(fair_label)  # the book's one style per method
            colour, line, marker = style["color"], style["linestyle"], style["marker"]
            single = method in _UNFAIR or method in ("FDR", "KFDR")
            fill = "full"
            if method in ("FDR", "KFDR"):  # single markers: without S half filled
                fill = "left" if line == "--" else "full"
                line = ""
            if method in _UNFAIR:  # LR/KRR: one point, the μ → 0 end of its fair path
                marker = "X" if label == method else "P"
                line = ""
            curve = curve.sort_values(coord)
            x = 100.0 * curve["error_mean"].to_numpy()
            yv = curve[f"{hsic}_mean"].to_numpy()
            ax.plot(x, yv, linestyle=line or "none", marker=marker, color=colour, label=label,
                    markersize=11 if single else 4, lw=1.6, zorder=3 if single else 2,
                    fillstyle=fill)
            if std:
                xs = 100.0 * curve["error_std"].to_numpy()
                ys = curve[f"{hsic}_std"].to_numpy()
                low = np.minimum(ys, 0.9 * yv)
                ax.errorbar(x, yv, xerr=xs, yerr=[low, ys], fmt="none", ecolor=colour,
                            alpha=0.35, lw=1)
            if coord == "n_components" and method in ("PCA", "KPCA"):
                for xi, yi, k in zip(x, yv, curve[coord]):
                    ax.annotate(str(int(k)), (xi, yi), fontsize=MIN_FONT_PT, color=colour,
                                xytext=(3, 3), textcoords="offset points")
        ax.set_yscale("log")
        ax.set_xlabel("test classification error (%)")
        ax.set_ylabel("HSIC(prediction, S)" if coord == "mu" else "HSIC(embedding, S)")
        ax.set_title(panel if titles is None else titles[panels.index(panel)], fontsize=10)
        ax.grid(True, which="major", alpha=0.4)
    figure_legend(axes[0].figure, axes[:len(panels)])
    return axes[:len(panels)]


_HSIC_FLOOR = 1e-10


#: The sentences of §4.3–4.4 that :func:`checks` turns into criteria, by the figure they are about.
SENTENCES = {
    "fig4 fair": (
        "The use of fair versions open the possibility of decreasing this dependence while "
        "yielding similar classification errors."),
    "fig4 fkr": (
        "Results are better when using the kernel version FKR, which is capable of learning a "
        "model with low classification error rate and virtually independent of the sensitive "
        "features."),
    "fig4 kernel": (
        "Results are better when using the kernel version FKR"),
    "fig4 with S": (
        "Including the sensitive variables when using our proposed method obtains better "
        "results in the kernel case."),
    "fig4 linear": (
        "In the linear case, removing the sensitive features has almost no impact on the "
        "results."),
    "fig5 outperforms": (
        "(1) kernel fair regression outperforms the linear counterpart in all the "
        "hyperparameter space (both on error and fairness)"),
    "fig5 removing": (
        "(2) removing the sensitive feature degrades results"),
    "fig5 arbitrary": (
        "(3) one can achieve arbitrary fairness levels tuning the μ hyperparameter, at the cost"
        " of a moderately increased prediction error (+2–5% increase in classification error)."),
    "fig6 n_p": (
        "In the case of PCA and KPCA we show results for different numbers of features, which "
        "affects the classification error but minimally the fairness score."),
    "fig6 best": (
        "In both experiments the best fairness-accuracy trade-offs are given by the FDR and "
        "KFDR when using all variables as inputs."),
    "fig6 kfdr": (
        "In particular, when avoiding the gender discrimination, the proposed framework shows "
        "better classification error for the KFDR."),
    "fig6 orders": (
        "When we use as sensitive variables gender and race the differences of the proposals "
        "with regard the classical methods are more noticeable since the classification errors "
        "are similar but the dependence achieved by the proposals are several orders of "
        "magnitude lower."),
}


def _fmt(x):
    """An HSIC (or a ratio of two) for printing: 2 significant digits, rounding noise floored."""
    return f"<{_HSIC_FLOOR:.0e}" if x < _HSIC_FLOOR else f"{x:.1e}"


def _points(summary, panel, label):
    part = summary[(summary["sensitive"] == panel) & (summary["label"] == label)]
    coord = "mu" if "mu" in part.columns else "n_components"
    part = part.sort_values(coord)
    return part["error_mean"].to_numpy(), part["hsic_mean"].to_numpy()


def _dominated_share(points, by):
    """Share of ``points`` (error, hsic) weakly dominated by some point of ``by``."""
    (e1, h1), (e2, h2) = points, by
    if not len(e1) or not len(e2):
        return np.nan
    dom = [bool(np.any((e2 <= e + 1e-12) & (h2 <= h))) for e, h in zip(e1, h1)]
    return float(np.mean(dom))


def _regression_checks(reg, hsic):
    if hsic == "hsic_model":  # the reference code's measure: each model's own kernel on S
        reg = reg.drop(columns="hsic").rename(columns={"hsic_model": "hsic"})
    s = summarize_results(reg)
    rows = []

    def add(figure, panel, conclusion, measured, holds, sentence):
        rows.append({"figure": figure, "panel": panel, "conclusion": conclusion,
                     "measured": measured, "holds": bool(holds), "sentence": SENTENCES[sentence]})

    labels = set(s["label"])
    for (dataset, panel), _ in s.groupby(["dataset", "sensitive"], sort=False):
        fig = "Fig. 4" if dataset == "adult" else "Fig. 5"
        pts = {lab: _points(s, panel, lab) for lab in labels}
        if not {"LR", "FLR", "KRR", "FKR"} <= labels:
            continue
        (e_lr, h_lr), (e_krr, h_krr) = pts["LR"], pts["KRR"]
        e_flr, h_flr = pts["FLR"]
        e_fkr, h_fkr = pts["FKR"]
        if dataset == "adult":
            ratios = []
            for (e, h), (e0, h0) in (((e_flr, h_flr), (e_lr, h_lr)),
                                     ((e_fkr, h_fkr), (e_krr, h_krr))):
                ok = e <= e0[0] + 0.01
                ratios.append(float(h[ok].min() / h0[0]) if ok.any() else np.inf)
            add(fig, panel, "fair versions lower the dependence at similar error (HSIC ≤ 0.1× "
                "the unfair model's within +1 point of its error)",
                f"lowest HSIC within +1 pt: FLR {_fmt(ratios[0])}× LR's "
                f"({_fmt(h_lr[0])}), FKR {_fmt(ratios[1])}× KRR's ({_fmt(h_krr[0])})",
                max(ratios) <= 0.1, "fig4 fair")
            ok = e_fkr <= e_krr[0] + 0.02
            best = int(np.argmin(np.where(ok, h_fkr, np.inf)))
            ratio = h_fkr[best] / h_krr[0]
            add(fig, panel, "FKR: low error and virtually independent of S (HSIC ≤ 1e-3× KRR's "
                "within +2 points of its error)",
                f"KRR {100 * e_krr[0]:.1f} %, HSIC {_fmt(h_krr[0])}; FKR "
                f"{100 * e_fkr[best]:.1f} %, HSIC {_fmt(h_fkr[best])} ({_fmt(ratio)}×)",
                ratio <= 1e-3, "fig4 fkr")
            share = _dominated_share((e_flr, h_flr), (e_fkr, h_fkr))
            add(fig, panel, "the kernel version is better: FKR dominates FLR (≥ 75 % of the FLR "
                "path has an FKR point with lower error and lower HSIC)",
                f"{100 * share:.0f} % of the FLR path dominated; fair end (μ = 1e3): FLR "
                f"{100 * e_flr[-1]:.1f} % / {_fmt(h_flr[-1])}, FKR {100 * e_fkr[-1]:.1f} % / "
                f"{_fmt(h_fkr[-1])}", share >= 0.75, "fig4 kernel")
            if {"FKR\\S", "FLR\\S"} <= labels:
                e_fkrs, h_fkrs = pts["FKR\\S"]
                share = _dominated_share((e_fkrs, h_fkrs), (e_fkr, h_fkr))
                add(fig, panel, "kernel case: including S is better (≥ 75 % of the FKR\\S path "
                    "dominated by FKR)", f"{100 * share:.0f} % of FKR\\S dominated; mean error "
                    f"FKR {100 * e_fkr.mean():.1f} %, FKR\\S {100 * e_fkrs.mean():.1f} %",
                    share >= 0.75, "fig4 with S")
                e_flrs, h_flrs = pts["FLR\\S"]
                diff = float(np.abs(e_flr - e_flrs).max())
                gratio = float(np.exp(np.mean(np.log(np.maximum(h_flrs, 1e-300)
                                                     / np.maximum(h_flr, 1e-300)))))
                add(fig, panel, "linear case: removing S has almost no impact (error within 1 "
                    "point along the path, HSIC within a factor 2)",
                    f"max |error FLR − FLR\\S| = {100 * diff:.1f} pt; HSIC FLR\\S / FLR "
                    f"(geometric mean) {gratio:.2f}", diff <= 0.01 and 0.5 <= gratio <= 2,
                    "fig4 linear")
        else:
            both = (e_fkr <= e_flr) & (h_fkr <= h_flr)
            add(fig, panel, "FKR outperforms FLR in all the hyper-parameter space (lower error "
                "and lower HSIC at every μ)",
                f"FKR better at {both.sum()}/{len(both)} μ (error: {(e_fkr <= e_flr).sum()}, "
                f"HSIC: {(h_fkr <= h_flr).sum()}); mean error FKR {100 * e_fkr.mean():.1f} %, "
                f"FLR {100 * e_flr.mean():.1f} %", both.all(), "fig5 outperforms")
            if {"FKR\\S", "FLR\\S"} <= labels:
                d_k = float(np.mean(pts["FKR\\S"][0] - e_fkr))
                d_l = float(np.mean(pts["FLR\\S"][0] - e_flr))
                d_krr = float(pts["KRR\\S"][0][0] - e_krr[0]) if "KRR\\S" in labels else np.nan
                add(fig, panel, "removing S degrades the results (higher error without S, "
                    "along both paths)",
                    f"mean error increase without S: FKR {100 * d_k:+.1f} pt, FLR "
                    f"{100 * d_l:+.1f} pt; KRR {100 * d_krr:+.1f} pt", d_k > 0 and d_l > 0,
                    "fig5 removing")
            ratio = h_fkr[-1] / h_krr[0]
            inc = e_fkr[-1] - e_krr[0]
            add(fig, panel, "any fairness level by tuning μ, at +2–5 % error (FKR at the largest "
                "μ: HSIC ≤ 1e-2× KRR's, error +2 to +5 points)",
                f"HSIC {_fmt(h_krr[0])} → {_fmt(h_fkr[-1])} ({_fmt(ratio)}×); error "
                f"{100 * e_krr[0]:.1f} → {100 * e_fkr[-1]:.1f} % ({100 * inc:+.1f} pt, "
                f"{100 * inc / e_krr[0]:+.0f} % relative)",
                ratio <= 1e-2 and 0.02 <= inc <= 0.05, "fig5 arbitrary")
    return rows


def _dr_checks(dr):
    s = summarize_results(dr)
    rows = []
    labels = set(s["label"])
    for panel in dict.fromkeys(s["sensitive"]):
        if not {"PCA", "KPCA", "FDR", "KFDR"} <= labels:
            break
        pts = {lab: _points(s, panel, lab) for lab in labels}
        part = s[s["sensitive"] == panel]

        def add(conclusion, measured, holds, sentence, panel=panel):
            rows.append({"figure": "Fig. 6", "panel": panel, "conclusion": conclusion,
                         "measured": measured, "holds": bool(holds),
                         "sentence": SENTENCES[sentence]})

        text, ok = [], True
        for m in ("PCA", "KPCA"):
            e, h = pts[m]
            spread, ratio = 100 * (e.max() - e.min()), h.max() / h.min()
            text.append(f"{m}: error range {spread:.1f} pt, HSIC max/min {ratio:.1f}")
            ok &= ratio <= 10
        add("PCA/KPCA: n_p changes the error but hardly the HSIC (HSIC within a factor 10 over "
            "n_p)", "; ".join(text), ok, "fig6 n_p")
        # "the best trade-offs are given by the FDR and KFDR when using all variables": better
        # than every other point of the panel, the two of them excepted (one may beat the other)
        others = part[~part["label"].isin(["FDR", "KFDR"])]
        all_e = others["error_mean"].to_numpy()
        all_h = others["hsic_mean"].to_numpy()
        text, ok = [], True
        for m in ("FDR", "KFDR"):
            e, h = pts[m]
            dominated = bool(np.any((all_e < e[0] - 1e-12) & (all_h < h[0])))
            text.append(f"{m} {100 * e[0]:.1f} % / {_fmt(h[0])}: "
                        + ("dominated" if dominated else "not dominated"))
            ok &= not dominated
        add("best trade-offs: FDR and KFDR with all inputs (no other point of the panel has "
            "lower error and lower HSIC)", "; ".join(text), ok, "fig6 best")
        e_f, h_f = pts["FDR"]
        e_k, h_k = pts["KFDR"]
        if panel == "sex":
            add("KFDR has a lower error than FDR (said of the sex panel)",
                f"KFDR {100 * e_k[0]:.1f} %, FDR {100 * e_f[0]:.1f} %", e_k[0] < e_f[0],
                "fig6 kfdr")
        if panel != "sex+race":  # the paper states it for gender and race
            continue
        h_base = min(pts["PCA"][1].min(), pts["KPCA"][1].min())
        ratio = max(h_f[0], h_k[0]) / h_base
        q = int(part.loc[part.method == "FDR", "n_components"].iloc[0])
        near = []
        for fair, base in (("FDR", "PCA"), ("KFDR", "KPCA")):
            bp = part[(part.label == base)]
            bp = bp.iloc[int(np.argmin(np.abs(bp["n_components"].to_numpy() - q)))]
            near.append((fair, base, int(bp["n_components"]),
                         pts[fair][0][0] - float(bp["error_mean"])))
        add("FDR/KFDR: similar error, dependence several orders of magnitude lower than "
            "PCA/KPCA (HSIC ≤ 1e-2× the lowest PCA/KPCA HSIC, error within 3 points at "
            "n_p ≈ q)",
            f"HSIC FDR {_fmt(h_f[0])}, KFDR {_fmt(h_k[0])}, lowest PCA/KPCA "
            f"{_fmt(h_base)} (ratio {_fmt(ratio)}); "
            + ", ".join(f"{f} − {b}(n_p={k}) {100 * d:+.1f} pt" for f, b, k, d in near),
            ratio <= 1e-2 and all(abs(d) <= 0.03 for *_, d in near), "fig6 orders")
    return rows


def checks(regression=None, dimensionality_reduction=None, *, hsic="hsic"):
    """Pérez-Suay et al.'s stated conclusions (§4.3–4.4) checked on measured means.

    The paper prints no numbers, only curves, so each sentence of its discussion
    (:data:`SENTENCES`, in the ``sentence`` column) is turned into a numerical criterion on the
    means over repetitions, checked on the panels the sentence speaks of (the "several orders of
    magnitude" of Fig. 6 on the gender-and-race panel only).  The criterion is part of the
    ``conclusion`` text.  Where the paper gives a number it is used as printed (+2–5 % error in
    Fig. 5); elsewhere the threshold reads the words on the figure's own scales: an order of
    magnitude on its log HSIC axis for "decreasing this dependence" and "minimally" (a factor
    10), at least two for "several orders of magnitude" and three for "virtually
    independent"; one point of error (the width of the curves' error bars at the paper's
    scale) for "similar classification errors" and "almost no impact", a factor 2 in HSIC for
    the latter; "better" / "outperforms" as dominance (lower error and lower HSIC) over three
    quarters of a path, or at every μ where the paper says "in all the hyperparameter space".
    Errors are in percentage points; HSIC values below 1e-10 are printed as ``<1e-10``
    (rounding level).

    Parameters
    ----------
    regression : DataFrame, optional
        :func:`regression` output (Adult: Fig. 4 checks; CMC: Fig. 5 checks).
    dimensionality_reduction : DataFrame, optional
        :func:`dimensionality_reduction` output (Fig. 6 checks).
    hsic : {"hsic", "hsic_model"}, default="hsic"
        The dependence measure of the regression checks (see :func:`regression`):
        the linear HSIC for every method, or each model's own kernel on S (RBF with σ_S for
        KRR/FKR, as the reference code plots them).

    Returns
    -------
    DataFrame
        ``figure, panel, conclusion, measured, holds, sentence``.
    """
    if regression is None and dimensionality_reduction is None:
        raise ValueError("pass regression and/or dimensionality_reduction results.")
    if hsic not in ("hsic", "hsic_model"):
        raise ValueError(f"hsic must be 'hsic' or 'hsic_model'; got {hsic!r}.")
    rows = []
    if regression is not None:
        rows += _regression_checks(regression, hsic)
    if dimensionality_reduction is not None:
        rows += _dr_checks(dimensionality_reduction)
    return pd.DataFrame(rows, columns=["figure", "panel", "conclusion", "measured", "holds",
                                       "sentence"])


#: Why a check of :data:`SENTENCES` fails where it does, read from the measured values of the
#: paper-scale ledger: a threshold of ours, the data, or a real disagreement with the paper.
#: :func:`checks_report` shows a reading only beside a check that fails.
FAILURE_READINGS = {
    "fig4 fkr": (
        "near KRR's error FKR lowers KRR's HSIC by between two and three orders of magnitude; "
        "our reading of \"virtually\" asks for three. A threshold: the FKR path keeps falling "
        "towards its fair end."),
    "fig4 with S": (
        "FKR has the lower mean error along the path, but its points dominate less of the path "
        "without S than the three quarters our reading of \"better\" asks for. A threshold."),
    "fig4 linear": (
        "the HSIC of FLR with and without S agree closely along the path, but the errors part by "
        "more than the one point our reading of \"almost no impact\" allows somewhere along it. "
        "A threshold."),
    "fig5 outperforms": (
        "FKR has the lower error at most values of μ, but at the same μ its linear HSIC is "
        "higher: FKR's penalty uses the RBF kernel on S with the width that maximises the "
        "dependence, so equal μ is not equal pressure on the linear HSIC. The paper compares the "
        "methods μ by μ; on that reading the claim does not hold: a real disagreement, on the "
        "paper's own terms."),
    "fig5 removing": (
        "it holds where the attribute carries information the others do not; here the errors "
        "move by less than a point either way. The data."),
    "fig5 arbitrary": (
        "at the largest μ of the grid FKR lowers KRR's HSIC by one to two orders of magnitude, "
        "not the two our reading asks for, or the error increase falls outside +2 to 5 points. "
        "The grid ends at μ = 10³, so \"arbitrary\" is not reached within it. The grid and the "
        "data."),
    "fig6 orders": (
        "KFDR is more than two orders of magnitude below PCA and kernel PCA, FDR about one: a "
        "real disagreement for FDR, on a measure that depends on the scale of each method's "
        "scores."),
}

#: The figures of :func:`checks` in the book's words.
FIGURE_ITEMS = {"Fig. 4": "the paper's Figure 4: Adult, fair regression",
                "Fig. 5": "the paper's Figure 5: CMC, fair regression",
                "Fig. 6": "the paper's Figure 6: Adult, fair dimensionality reduction"}


def _words(text):
    """A label of :func:`summarize_results` or a check's text in words: ``FKR\\S`` -> ``FKR
    without S``."""
    return str(text).replace("\\S", " without S")


def _claims(part):
    """{"<panel in words>: <sentence>": held} of some rows of :func:`checks`."""
    out = {}
    for row in part.itertuples():
        claim = f"{SENSITIVE_LABELS.get(row.panel, row.panel)}: {_words(row.sentence)}"
        if claim in out:
            claim = f"{claim} ({_words(row.conclusion)})"
        out[claim] = bool(row.holds)
    return out


def verdict(checks_, repetitions):
    """The verdict of the paper's Figures 4-6: its stated conclusions checked, per figure.

    Parameters
    ----------
    checks_ : DataFrame
        :func:`checks` output.
    repetitions : dict
        ``{"Fig. 4": n, ...}``, the repetitions each figure's means are over.

    Returns
    -------
    fairlab.published.Verdict
        One row per figure (checks held), and a sentence generated from the counts.
    """
    from .. import published

    missing = [c for c in ("figure", "panel", "holds", "sentence") if c not in checks_.columns]
    if missing:
        raise ValueError(f"checks_ must be the output of perez_suay.checks; it lacks {missing}.")
    rows, counts = [], []
    for figure, part in checks_.groupby("figure", sort=False):
        rows.append(published.verdict_row(FIGURE_ITEMS.get(figure, figure),
                                          checks=_claims(part)))
        counts.append(f"{int(part.holds.sum())} of {len(part)} on its Figure "
                      f"{figure.split()[-1]}")
    held = [int(repetitions[f]) for f in dict.fromkeys(checks_["figure"])]
    over = (f"all {N_REPETITIONS} of the paper's repetitions" if set(held) == {N_REPETITIONS}
            else f"{', '.join(map(str, held))} of the paper's {N_REPETITIONS} repetitions")
    sentence = (f"{int(checks_.holds.sum())} of the {len(checks_)} checks of the paper's stated "
                f"conclusions hold ({'; '.join(counts)}), on the means over {over}. The paper "
                "prints no number, so no cell is compared.")
    return published.verdict(rows, title="The paper's conclusions, checked on the ledger",
                             sentence=sentence)


def checks_report(checks_, figure):
    """One figure's checks for a reader: the list, why the failing ones fail, the numbers.

    Returns
    -------
    list
        A :class:`fairlab.published.Prose` list of the checks (held or failed), one with the
        :data:`FAILURE_READINGS` of the failing checks (when one fails), and a collapsed
        :class:`fairlab.published.Details` table of each check's criterion and measured values.
    """
    from .. import published

    part = checks_[checks_["figure"] == figure]
    if part.empty:
        raise ValueError(f"figure {figure!r} has no checks; checks_ holds "
                         f"{sorted(set(checks_['figure']))}.")
    out = [published.checks_prose(_claims(part))]
    keys = {text: key for key, text in SENTENCES.items()}
    why = {}
    for row in part[~part["holds"]].itertuples():
        key = keys.get(row.sentence)
        if key in FAILURE_READINGS:
            why.setdefault(key, []).append(SENSITIVE_LABELS.get(row.panel, row.panel))
    if why:
        out.append(published.Prose(
            "**Why the failing checks fail**, read from the measured values:\n\n" + "\n".join(
                f"- *{', '.join(dict.fromkeys(panels))}*: {FAILURE_READINGS[key]}"
                for key, panels in why.items())))
    detail = part.assign(panel=part["panel"].map(lambda p: SENSITIVE_LABELS.get(p, p)),
                         **{c: part[c].map(_words) for c in ("sentence", "conclusion", "measured")})
    detail = detail.set_index(["panel", "sentence"])[["conclusion", "measured", "holds"]].rename(
        columns={"conclusion": "criterion", "measured": "measured on the means"})
    out.append(published.Details(
        published.reader_table(detail, title=f"The checks of {FIGURE_ITEMS.get(figure, figure)}"),
        summary="Each check's criterion and what was measured"))
    return out



# --- work units (fairlab.experiments._ledger): Figs. 4–6 at paper scale ---
#: The paper's key in :mod:`fairlab.published` (it prints curves, not cells: the ledger holds the
#: points of the curves, per repetition, and :func:`checks` reads their means).
PAPER = "perezsuay2017"
#: A unit is one figure's protocol on one repetition, every panel (sensitive choice) at once, so
#: that the "with S" validation search is shared by the panels as in :func:`regression`.
UNIT_KEYS = ("dataset", "table", "split")
#: The figure of each data set's experiments: (data set, figure) -> the runner.
FIGURES = {("adult", "fig4"): "regression", ("cmc", "fig5"): "regression",
           ("adult", "fig6"): "dimensionality_reduction"}
#: Paper-scale parameters (§4.1–4.2): 25 repetitions of the paper's sizes (:data:`SIZES`), the
#: grids of :data:`GRIDS`, S as the sensitive columns of X, and Fig. 6's numbers of components.
PARAMETERS = {"random_state": 0, "sensitive_encoding": "columns",
              "n_components": [1, 2, 3, 5, 10, 20, 50, 100]}
#: The number of repetitions of the paper.
N_REPETITIONS = 25
#: Metrics that are wall-clock times: machine-dependent, so never compared.
TIMINGS = ("fit_seconds",)
#: The columns of :func:`regression` / :func:`dimensionality_reduction` stored as metrics.
_METRICS = {"regression": ("error", "hsic", "hsic_model", "alpha", "sigma", "sigma_s"),
            "dimensionality_reduction": ("error", "hsic", "sigma")}


def units(datasets=None, tables=None, splits=range(N_REPETITIONS)):
    """The unit keys of Figs. 4–6: (data set, figure) × repetition, narrowed by the arguments."""
    return [{"dataset": dataset, "table": table, "split": int(i)}
            for dataset, table in FIGURES
            if (datasets is None or dataset in datasets) and (tables is None or table in tables)
            for i in splits]


def parse_key(fields):
    """A unit key from the text fields of its id (:func:`fairlab.experiments.unit_id`)."""
    return {"dataset": fields["dataset"], "table": fields["table"], "split": int(fields["split"])}


def verification_parts(key):
    """The parts of unit ``key`` that :func:`fairlab.experiments.verify` reruns when the whole
    unit is too slow: the first sensitive choice, each variant with every method, and three of
    the 25 values of μ (the ends and the middle of the path).

    Each part's rows are the unit's rows of that part (:func:`run_unit`'s ``part``) at the
    ledger's precision: the validation searches are those of the whole unit, and a path's
    solution at one μ does not depend on the other values of μ (its predictions, one product
    for all μ, may round differently in the 14th digit).
    """
    first = next(iter(SENSITIVE[key["dataset"]]))
    mus = {"mu_index": [0, len(GRIDS["mu"]) // 2, len(GRIDS["mu"]) - 1]}
    return [{"sensitive": [first], "variants": [variant],
             **(mus if FIGURES[(key["dataset"], key["table"])] == "regression" else {})}
            for variant in VARIANTS]


def run_unit(key, parameters, part=None):
    """One repetition of one figure at paper scale, as ledger rows.

    Repetition ``key["split"]`` of :func:`load_splits` (the paper's sizes), every sensitive
    choice of the data set, both variants; ``part`` (a dict of :func:`verification_parts`)
    narrows it to the ``sensitive`` choices, ``variants`` and (Figs. 4–5) the positions
    ``mu_index`` in ``GRIDS["mu"]`` it names.  The ledger's columns hold a figure's point as:
    ``method`` the legend label (``"FKR"``, ``"FKR\\S"``, …), ``model`` the sensitive choice
    (the panel), ``eta`` the paper's μ (0 for LR and KRR; NaN in Fig. 6), ``k`` the number of
    components n_p (Fig. 6; NaN in Figs. 4–5), ``metric`` one of the runner's columns (error,
    HSIC, and the chosen hyper-parameters) or ``fit_seconds``.  :func:`results_from_ledger`
    turns them back into the runner's table.
    """
    runner = FIGURES[(key["dataset"], key["table"])]
    split = load_splits(key["dataset"], n_repetitions=key["split"] + 1,
                        random_state=parameters["random_state"])[key["split"]]
    part = part or {}
    sensitive = part.get("sensitive", list(SENSITIVE[key["dataset"]]))
    variants = part.get("variants", VARIANTS)
    encoding = parameters["sensitive_encoding"]
    if runner == "regression":
        grids = {"mu": GRIDS["mu"][part["mu_index"]]} if "mu_index" in part else None
        results = regression([split], sensitive, variants=variants, grids=grids,
                             sensitive_encoding=encoding)
        coord = "mu"
    else:
        results = dimensionality_reduction([split], sensitive, variants=variants,
                                           sensitive_encoding=encoding,
                                           n_components=parameters["n_components"])
        coord = "n_components"
    results = results.rename(columns={"seconds": "fit_seconds"})
    long = results.melt(id_vars=["sensitive", "variant", "method", coord],
                        value_vars=[*_METRICS[runner], "fit_seconds"], var_name="metric")
    long = long[long["value"].notna()]
    return pd.DataFrame({
        "paper": PAPER, "table": key["table"], "dataset": key["dataset"],
        "method": [_label(m, v) for m, v in zip(long["method"], long["variant"])],
        "k": long[coord].to_numpy(float) if coord == "n_components" else np.nan,
        "eta": long[coord].to_numpy(float) if coord == "mu" else np.nan,
        "model": long["sensitive"].to_numpy(), "metric": long["metric"].to_numpy(),
        "split": key["split"], "value": long["value"].to_numpy(float)})


def results_from_ledger(ledger, table):
    """The ledger's rows of one figure as the runner's per-repetition table.

    ``table`` ``"fig4"`` or ``"fig5"`` gives :func:`regression`'s columns, ``"fig6"``
    :func:`dimensionality_reduction`'s (``seconds`` from ``fit_seconds``), ready for
    :func:`summarize_results`, :func:`plot` and :func:`checks`.
    """
    if table not in {t for _, t in FIGURES}:
        raise ValueError(f"table must be one of {sorted({t for _, t in FIGURES})}; got {table!r}.")
    rows = ledger[(ledger["table"] == table) & (ledger["metric"] != "missing")]
    dr = table == "fig6"
    coord = "n_components" if dr else "mu"
    rows = rows.assign(**{coord: rows["k"] if dr else rows["eta"]})
    wide = rows.pivot_table(index=["dataset", "model", "method", "split", coord],
                            columns="metric", values="value", aggfunc="first", sort=False)
    wide = wide.rename_axis(columns=None).reset_index().rename(
        columns={"model": "sensitive", "split": "repetition", "fit_seconds": "seconds"})
    wide["variant"] = np.where(wide["method"].str.endswith("\\S"), "without S", "with S")
    wide["method"] = wide["method"].str.removesuffix("\\S")
    wide["repetition"] = wide["repetition"].astype(int)
    if dr:
        wide["n_components"] = wide["n_components"].astype(int)
        columns = ["dataset", "sensitive", "variant", "method", "repetition", "n_components",
                   "error", "hsic", "sigma", "seconds"]
    else:
        columns = ["dataset", "sensitive", "variant", "method", "repetition", "mu", "error",
                   "hsic", "hsic_model", "alpha", "sigma", "sigma_s", "seconds"]
    for column in columns:
        if column not in wide.columns:
            wide[column] = np.nan
    order = {"sensitive": {name: i for i, name in enumerate(dict.fromkeys(ledger["model"]))},
             "variant": {name: i for i, name in enumerate(VARIANTS)},
             "method": {name: i for i, name in enumerate(DR_METHODS if dr else
                                                         REGRESSION_METHODS)}}
    wide = wide.sort_values(["repetition", "sensitive", "variant", "method", coord],
                            key=lambda c: c.map(order[c.name]) if c.name in order else c,
                            kind="stable", ignore_index=True)
    return wide[columns]
