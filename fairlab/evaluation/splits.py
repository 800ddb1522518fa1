"""Seeded random train/test splits with the keys of ``fairlab.datasets.load_lee2022_split``.
"""

from numbers import Integral, Real

import numpy as np
from sklearn.utils import Bunch

from .._core.validation import check_int
from ._util import _to_numpy


def _n_from(size, n, name):
    if size is None:
        return None
    if isinstance(size, Integral) and not isinstance(size, bool):
        return check_int(size, name, maximum=n - 1)  # a count: 1 .. n_samples - 1 rows
    if isinstance(size, Real) and 0 < size < 1:
        return int(np.floor(size * n))
    raise ValueError(f"{name} must be a fraction in (0, 1), an int count or None; got {size!r}.")


def repeated_splits(X, y, sensitive_features, *, n_splits=10, train_size=0.7, test_size=None,
                    random_state=0, seeds=None, standardize=False):
    """Seeded random train/test splits, as Bunches with the keys of ``load_lee2022_split``.

    Split ``i`` draws ``perm = np.random.default_rng(seed_i).permutation(n)``; the first
    ``n_train`` rows of ``perm`` are the training set and the next ``n_test`` rows (all the rest
    when ``test_size=None``) the test set.  ``seed_i = random_state + i`` unless ``seeds`` is given.
    With ``seeds=[1111 * r for r in range(10)]``, ``train_size=5000``, ``test_size=5000`` and
    ``standardize=True`` this is exactly the protocol of Kleindessner et al. §5.2 (comparison with
    Agarwal et
    al.; the released code seeds ``default_rng(run * 1111)``).

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) or None
    sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
    n_splits : int, default=10
    train_size : float in (0, 1) or int, default=0.7
    test_size : float, int or None, default=None
    random_state : int, default=0
    seeds : list of int, optional
        One seed per split (overrides ``n_splits``/``random_state``).
    standardize : bool, default=False
        Standardise the columns with the training mean and the **population** std (ddof 0, a zero
        std replaced by 1), as Lee et al.'s split files and ``StandardScaler``.

    Yields
    ------
    Bunch with ``X_train, y_train, s_train, X_test, y_test, s_test`` (numpy arrays), ``split``
    (index) and ``seed``.
    """
    X = _to_numpy(X)
    n = X.shape[0]
    y = None if y is None else _to_numpy(y)
    s = _to_numpy(sensitive_features)
    for arr, name in ((y, "y"), (s, "sensitive_features")):
        if arr is not None and arr.shape[0] != n:
            raise ValueError(f"{name} has {arr.shape[0]} rows but X has {n}; pass one per row.")
    n_train = _n_from(train_size, n, "train_size")
    n_test = _n_from(test_size, n, "test_size")
    if n_train is None:
        raise ValueError("train_size cannot be None.")
    if n_test is None:
        n_test = n - n_train
    if n_train + n_test > n or n_test < 1:
        raise ValueError(
            f"train_size + test_size = {n_train} + {n_test} rows exceeds the {n} available."
        )
    if seeds is None:
        seeds = [random_state + i for i in range(check_int(n_splits, "n_splits"))]
    for i, seed in enumerate(seeds):
        perm = np.random.default_rng(seed).permutation(n)
        tr, te = perm[:n_train], perm[n_train:n_train + n_test]
        X_tr, X_te = X[tr].astype(float), X[te].astype(float)
        if standardize:
            mu, sd = X_tr.mean(axis=0), X_tr.std(axis=0)
            sd[sd == 0] = 1.0
            X_tr, X_te = (X_tr - mu) / sd, (X_te - mu) / sd
        yield Bunch(X_train=X_tr, X_test=X_te,
                    y_train=None if y is None else y[tr], y_test=None if y is None else y[te],
                    s_train=s[tr], s_test=s[te], split=i, seed=seed)

