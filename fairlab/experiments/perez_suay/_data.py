"""Pérez-Suay et al. (2017) §4, the data and the protocol: the splits, the fair regressions and the
fair dimensionality reductions with their tuning, and the summary over repetitions.
"""

import copy
import functools
import time
import warnings
from numbers import Real

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils import Bunch

from ... import datasets, metrics
from ..._core.validation import UnconstrainedFallbackWarning, check_int
from ...evaluation._util import _check_names, _progress
from .. import methods as registry

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


REGRESSION_METHODS = registry.names(registry.PEREZ_SUAY_REGRESSION)


DR_METHODS = registry.names(registry.PEREZ_SUAY_DR)


_ENCODINGS = ("columns", "one-hot")


def _dataset_key(dataset):
    key = dataset.strip().lower() if isinstance(dataset, str) else None
    key = {"a9a": "adult"}.get(key, key)
    if key not in SENSITIVE:
        raise ValueError(f"dataset must be 'adult' (a9a) or 'cmc'; got {dataset!r}.")
    return key


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
    n_repetitions = check_int(n_repetitions, "n_repetitions")
    sizes = dict(zip(("n_train", "n_val", "n_test"), SIZES[key]))
    for name, value in (("n_train", n_train), ("n_val", n_val), ("n_test", n_test)):
        if value is not None:
            sizes[name] = check_int(value, name)
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
        model = registry.build("LR", None, alpha=float(alpha)).fit(X, y, sensitive_features=S)
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
            fits = registry.build("KRR", None, gamma=1.0 / (2.0 * sigma**2))._ridge_grid(
                X, y, alphas)
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
                path = registry.build("FLR", None, alpha=alpha).fit_path(
                    X, y, mus, sensitive_features=S["train"])
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
                path = registry.build(
                    "FKR", None, alpha=alpha, gamma=1.0 / (2.0 * sigma**2),
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
    ks = sorted({check_int(k, "n_components") for k in np.atleast_1d(n_components)})
    fair_components = check_int(fair_components, "fair_components", allow_none=True)
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
                model = registry.build("PCA", max(top)).fit(X)
            elif method == "KPCA":  # KernelFairDR without S is kernel PCA (sklearn's scores)
                model = _kernel_dr(X, max(k for k in ks if k < n), gamma, None, ridge)
            elif method == "FDR":
                top = [min(q, d)]
                model = registry.build("FDR", top[0], ridge=ridge).fit(
                    X, sensitive_features=S["train"])
            else:
                model = _kernel_dr(X, min(q, n - 1), gamma, S["train"], ridge)
            if method in ("KPCA", "KFDR"):  # fewer directions where the kernel's rank is lower
                top = [k for k in ks if k <= model.n_components_] if method == "KPCA" else [
                    model.n_components_]
            seconds = time.perf_counter() - start
            rows += _embedding_rows(base, method, model, top, X, y, X_te, y_te, S["test"],
                                    sigma, seconds)
    columns = ["dataset", "sensitive", "variant", "method", "repetition", "n_components",
               "error", "hsic", "sigma", "seconds"]
    return pd.DataFrame(rows, columns=columns)


def _embedding_rows(base, method, model, top, X, y, X_te, y_te, S_te, sigma, seconds):
    """The rows of a fitted reduction: per n_p in ``top``, its first n_p test scores."""
    E_tr, E_te = model.transform(X), model.transform(X_te)
    return [_knn_row(base, method, k, E_tr[:, :k], y, E_te[:, :k], y_te, S_te, sigma, seconds)
            for k in top]


def reduction_scores(split, sensitive, estimator, *, method, variant="with S",
                     sensitive_encoding="columns"):
    """Fig. 6's scores of one reduction on one repetition, as :func:`dimensionality_reduction`
    scores its methods.

    ``estimator`` is fitted on the repetition's training rows — with or without the sensitive
    columns in X (``variant``), ``fit(X, y, sensitive_features=S)`` — and its training and test
    embeddings E (all of its components) give the 1-NN test error and the linear HSIC
    (1/n²)‖S̃ᵀẼ‖²_F of the test embedding with S.

    Parameters
    ----------
    split : Bunch
        One repetition of :func:`load_splits`.
    sensitive : str
        A sensitive choice of :data:`SENSITIVE` for the split's data set (one panel).
    estimator : transformer
        Unfitted; its ``fit`` takes ``sensitive_features``.
    method : str
        The name in the rows' ``method`` column.
    variant : {"with S", "without S"}, default="with S"
    sensitive_encoding : {"columns", "one-hot"}, default="columns"

    Returns
    -------
    rows : list of dict
        One row of :func:`dimensionality_reduction`'s columns (``n_components`` the number of
        columns of E, ``sigma`` NaN, ``seconds`` the fit time).
    estimator : the fitted estimator
    X_test, S_test : ndarray
        The test inputs the embedding was read from, and the test rows' S.
    """
    (split,), key, names, variants, _, sensitive_encoding = _check_protocol(
        [split], sensitive, variant, DR_METHODS, DR_METHODS, sensitive_encoding)
    if len(names) != 1 or len(variants) != 1:
        raise ValueError(f"sensitive must be one choice and variant one variant; got "
                         f"{sensitive!r} and {variant!r}.")
    variant = variants[0]
    Xs, S = _inputs(split, SENSITIVE[key][names[0]], variant, sensitive_encoding)
    y, y_te = np.asarray(split.y_train, float), np.asarray(split.y_test, float)
    start = time.perf_counter()
    estimator.fit(Xs["train"], y, sensitive_features=S["train"])
    seconds = time.perf_counter() - start
    k = np.asarray(estimator.transform(Xs["test"][:1])).shape[1]
    base = {"dataset": key, "sensitive": names[0], "variant": variant,
            "repetition": split.get("repetition", 0)}
    rows = _embedding_rows(base, method, estimator, [k], Xs["train"], y, Xs["test"], y_te,
                           S["test"], np.nan, seconds)
    return rows, estimator, Xs["test"], S["test"]


def _kernel_dr(X, k, gamma, S, ridge):
    """RBF KernelFairDR with k directions (kernel PCA for S=None), fewer if the rank is lower."""
    est = registry.build("KPCA" if S is None else "KFDR", k, gamma=gamma, ridge=ridge)
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
