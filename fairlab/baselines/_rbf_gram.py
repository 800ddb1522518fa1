r"""An RBF support vector classifier that reads its kernel from one Gram matrix, computed once.

A reduction such as fairlearn's exponentiated gradient fits its base classifier many times on
the same rows, with new labels and sample weights each time, and predicts the same rows after
each fit.  ``SVC(kernel="rbf")`` recomputes the kernel on every fit and every prediction.
:class:`_GramSVC` fits ``SVC(kernel="precomputed")`` instead, on the rows of one
:class:`_RBFGram` shared by all the fits; its inputs are row numbers into the Gram's data.

Why it is exact
---------------
libsvm (scikit-learn's copy) evaluates the RBF kernel in two ways:

* while fitting, :math:`k_{ij} = \exp(-\gamma\,(\lVert x_i\rVert^2 + \lVert x_j\rVert^2
  - 2\,x_i\cdot x_j))`, the dots by the BLAS's ``ddot``; it stores
  :math:`Q_{ij} = y_i y_j k_{ij}` rounded to float32, and only the diagonal
  :math:`k_{ii}`, exactly 1, in float64.  Two kernels whose entries round to the same float32
  values (and whose diagonal is 1) give the same fit, bit for bit.
* while predicting, :math:`k(x, x_j) = \exp(-\gamma\,\mathrm{ddot}(x - x_j, x - x_j))`, summed
  against the dual coefficients in float64.  Two kernels give the same predictions wherever
  the decision value is farther from 0 than what their difference and the two summations can
  move it.

The Gram matrix here is computed fast (one matrix product and NumPy's ``exp``) together with a
bound on its distance to either of libsvm's values (the rounding-error bounds of the dots,
:math:`\lvert \hat s - s\rvert \le (3d + 12)\,u\,(\lVert x_i\rVert^2 + \lVert x_j\rVert^2 + s)`
for the squared distance s, u the unit round-off, and a few ulps for ``exp``).  Entries within
that bound of a float32 rounding boundary are recomputed as libsvm does (``ddot`` of SciPy's
BLAS, the one scikit-learn calls, and the C library's ``exp``), so the float32 kernel of the fit
equals libsvm's.  A prediction whose decision value lies within its bound of 0 is recomputed
from kernel values computed as libsvm does against the support vectors, and predicted by libsvm.
Every fit and prediction therefore equals ``SVC(kernel="rbf")``'s on the same rows.
"""

# SPDX-License-Identifier: BSD-3-Clause

import math

import numpy as np
from scipy.linalg.blas import ddot
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.svm import SVC

_U = np.finfo(np.float64).eps / 2  # unit round-off
_EXP_ULPS = 16 * _U  # NumPy's and the C library's exp, a few ulps each, as a relative error
_TINY = 8 * np.finfo(np.float64).smallest_subnormal  # exp's absolute error near underflow
_BLOCK = 512  # rows per block of the Gram's computation (bounds the temporaries)


def _libsvm_gamma(X):
    """scikit-learn's ``gamma="scale"``: 1 / (n_features · Var X)."""
    var = X.var()
    return 1.0 / (X.shape[1] * var) if var != 0 else 1.0


class _RBFGram:
    """RBF kernel of the rows ``data[:n_fit]`` against themselves and any row of ``data``.

    Parameters
    ----------
    data : ndarray of shape (n_rows, n_features)
        The fit rows first, then any rows to predict (row numbers index it).
    n_fit : int
        How many leading rows the classifier is fitted on.
    gamma : float or "scale"
        The RBF width; ``"scale"`` as scikit-learn computes it from the fit rows.
    """

    def __init__(self, data, n_fit, gamma):
        self.data = np.ascontiguousarray(data, dtype=np.float64)
        self.n_fit = int(n_fit)
        fit = self.data[:self.n_fit]
        self.gamma = float(_libsvm_gamma(fit) if gamma == "scale" else gamma)
        self.sq = np.array([ddot(x, x) for x in self.data])  # libsvm's x_square
        self._scale = 1.01 * self.gamma * (3 * self.data.shape[1] + 12) * _U
        self._blocks = {}
        self.kernel = self._fit_kernel()

    def __deepcopy__(self, memo):
        # scikit-learn's clone deep-copies parameters: every clone shares the one Gram
        return self

    def _fast(self, rows):
        """Fast kernel rows ``rows`` × fit rows and the bound of their distance to libsvm's."""
        X, fit = self.data[rows], self.data[:self.n_fit]
        sq, sq_fit = self.sq[rows][:, None], self.sq[:self.n_fit][None, :]
        s = (sq + sq_fit) - 2.0 * (X @ fit.T)
        K = np.exp(-self.gamma * s)
        bound = K * (self._scale * (sq + sq_fit + np.abs(s)) + _EXP_ULPS) + _TINY
        return K, bound

    def _fit_kernel(self):
        """The fit rows' Gram, its float32 rounding equal to libsvm's, its diagonal 1."""
        n = self.n_fit
        out = np.empty((n, n))
        for start in range(0, n, _BLOCK):
            rows = np.arange(start, min(start + _BLOCK, n))
            K, bound = self._fast(rows)
            f = K.astype(np.float32)
            lower = (f.astype(np.float64) + np.nextafter(f, np.float32(-np.inf))) / 2
            upper = (f.astype(np.float64) + np.nextafter(f, np.float32(np.inf))) / 2
            near = (K - lower <= bound) | (upper - K <= bound)
            for i, j in zip(*np.nonzero(near)):
                K[i, j] = self._libsvm_fit_entry(rows[i], j)
            K[np.arange(len(rows)), rows] = 1.0
            out[rows] = K
        return out

    def _libsvm_fit_entry(self, i, j):
        x, y = self.data[i], self.data[j]
        return math.exp(-self.gamma * ((self.sq[i] + self.sq[j]) - 2 * ddot(x, y)))

    def libsvm_predict_rows(self, rows, columns):
        """Kernel values of ``rows`` against fit rows ``columns``, as libsvm's predict computes
        them; zero in the other columns."""
        out = np.zeros((len(rows), self.n_fit))
        for r, i in enumerate(rows):
            diff = self.data[columns] - self.data[i]
            out[r, columns] = [math.exp(-self.gamma * ddot(v, v)) for v in diff]
        return out

    def rows(self, index):
        """Kernel rows ``index`` × fit rows (fast values) and the rows' relative bound.

        The bound ρ of row i holds for every entry: the entry's distance to libsvm's predict
        kernel is at most ``ρ_i · K_ij`` (plus a subnormal), since the squared distance is at
        most 2 (‖x_i‖² + ‖x_j‖²).
        """
        index = np.asarray(index)
        rho = 3 * self._scale * (self.sq[index] + self.sq[:self.n_fit].max()) + _EXP_ULPS
        if np.array_equal(index, np.arange(self.n_fit)):
            return self.kernel, rho
        if index.size == 0 or index.max() < self.n_fit:
            return self.kernel[index], rho
        out = np.empty((len(index), self.n_fit))
        for r, i in enumerate(index):  # kernel rows of prediction rows are computed once
            if i < self.n_fit:
                out[r] = self.kernel[i]
                continue
            if i not in self._blocks:
                start = self.n_fit + (i - self.n_fit) // _BLOCK * _BLOCK
                block = np.arange(start, min(start + _BLOCK, len(self.data)))
                K, _ = self._fast(block)
                self._blocks.update(zip(block.tolist(), K))
            out[r] = self._blocks[i]
        return out, rho


class _GramSVC(ClassifierMixin, BaseEstimator):
    """``SVC(kernel="rbf", gamma=gram.gamma, C=C)`` on row numbers into ``gram.data``.

    X holds row numbers (one column); the fit rows must be fit rows of ``gram``.  Fits and
    predictions equal those of ``SVC(kernel="rbf")`` on ``gram.data[X]`` (module docstring).

    Parameters
    ----------
    gram : _RBFGram
    C : float, default=1.0
    random_state : int, RandomState instance or None, default=None
        Passed to the SVC (used by libsvm only for probability estimates).
    """

    def __init__(self, gram=None, *, C=1.0, random_state=None):
        self.gram = gram
        self.C = C
        self.random_state = random_state

    @staticmethod
    def _index(X):
        return np.asarray(X, dtype=np.float64)[:, 0].astype(np.intp)

    def fit(self, X, y, sample_weight=None):
        index = self._index(X)
        if index.size and index.max() >= self.gram.n_fit:
            raise ValueError("_GramSVC fits on the Gram's fit rows only.")
        K = self.gram.kernel
        if not np.array_equal(index, np.arange(self.gram.n_fit)):
            K = K[np.ix_(index, index)]
        self.svc_ = SVC(kernel="precomputed", C=self.C, gamma=1.0,
                        random_state=self.random_state).fit(K, y, sample_weight=sample_weight)
        self.fit_rows_ = index
        self.classes_ = self.svc_.classes_
        return self

    def predict(self, X):
        """libsvm's predictions, the kernel recomputed as libsvm does where the sign is close."""
        index = self._index(X)
        K, rho = self.gram.rows(index)
        if not np.array_equal(self.fit_rows_, np.arange(self.gram.n_fit)):
            K = K[:, self.fit_rows_]
        svc = self.svc_
        if svc.classes_.size != 2:  # not reached by the reductions: libsvm decides
            return svc.predict(K)
        coef = np.zeros(K.shape[1])
        coef[svc.support_] = svc.dual_coef_[0]
        intercept = svc.intercept_[0]
        dec = K @ coef + intercept
        # libsvm's sum and this one differ by the kernels' distance (at most rho · Σ|coef_j| K_ij)
        # and by their rounding; 0 <= K_ij <= 1 bounds the sum of the terms' sizes
        size = np.abs(coef).sum()
        slack = 1.1 * (rho * size + 2 * (K.shape[1] + 3) * _U * (size + abs(intercept)))
        pred = np.where(dec > 0, svc.classes_[1], svc.classes_[0])
        close = np.flatnonzero(np.abs(dec) <= slack + _TINY * K.shape[1])
        if close.size:
            support = self.fit_rows_[svc.support_]
            exact = self.gram.libsvm_predict_rows(index[close], support)
            if not np.array_equal(self.fit_rows_, np.arange(self.gram.n_fit)):
                exact = exact[:, self.fit_rows_]
            pred[close] = svc.predict(exact)
        return pred
