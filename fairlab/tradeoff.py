r"""Accuracy/fairness knob of Kleindessner et al. (2023), §3.1.

Concatenate the fair representation with a down-weighted standard one,

.. math::

    x \mapsto \bigl(U_\text{fair}^\top x ;\; \lambda \cdot U_\text{st}^\top x\bigr) \in
    \mathbb{R}^{2k}, \qquad \lambda \in [0, 1].

λ = 0 keeps only the fair information; λ = 1 hands the downstream model everything standard
PCA knows (including the group).  For 0 < λ ≪ 1 the information is technically present, but a
model with weight regularisation pays ‖w₂‖²/λ² to use it, so it stays approximately fair.
"""

# SPDX-License-Identifier: BSD-3-Clause

from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context, clone
from sklearn.utils._param_validation import HasMethods, Interval
from sklearn.utils.validation import check_is_fitted


def _is_fitted(estimator):
    try:
        check_is_fitted(estimator)
    except Exception:
        return False
    return True


def _check_same_width(k_fair, k_standard):
    """The two blocks must have the same number k of components (the output has 2k columns)."""
    if k_fair != k_standard:
        raise ValueError(
            f"fair and standard give {k_fair} and {k_standard} components; FairTradeoff "
            "outputs [fair(x), lam·standard(x)] with k components each (§3.1), so give both "
            f"the same n_components (e.g. {min(k_fair, k_standard)})."
        )


class FairTradeoff(TransformerMixin, BaseEstimator):
    r"""Trade accuracy for fairness: ``[fair.transform(X), lam * standard.transform(X)]``.

    The knob of §3.1 of the fair PCA paper, for any pair of transformers (Fair PCA with PCA,
    Fair kernel PCA with kernel PCA, ...).

    Parameters
    ----------
    fair : transformer
        The fair representation, fitted with ``sensitive_features`` (e.g. ``FairPCA(k)``).
    standard : transformer
        The unconstrained representation, fitted on X (and y) only (e.g. ``PCA(k)``), with
        the same number k of components as ``fair`` (a different k raises ``ValueError``).
    lam : float in [0, 1], default=0.0
        Weight λ of the standard block.  ``lam=0`` still outputs the (zero) standard block, so
        the output width does not depend on λ.

    Attributes
    ----------
    fair_ : transformer
        The fitted clone of ``fair`` (or ``fair`` itself, see Notes).
    standard_ : transformer
        The fitted clone of ``standard``.
    n_features_in_ : int
        Number of features seen during fit (when the sub-transformers record it).

    Notes
    -----
    ``fit`` clones both transformers and fits them on the same data; ``sensitive_features`` goes
    to ``fair`` only.  To reuse transformers that are already fitted, wrap them in
    ``sklearn.frozen.FrozenEstimator``, or call ``transform`` directly on a ``FairTradeoff``
    whose ``fair`` and ``standard`` are both fitted (it is then considered fitted, as a
    ``Pipeline`` of fitted steps is).

    The reference implementation multiplies the standard block by λ³ and its experiments sweep
    λ ∈ {0, 0.1, ..., 1}; the paper's figures therefore use the weights (i/10)³.  Both give the
    same curve; here ``lam`` is the weight itself, so pass ``lam=(i / 10) ** 3`` to reproduce the
    figures point by point.

    References
    ----------
    * M. Kleindessner, M. Donini, C. Russell, M. B. Zafar. "Efficient fair PCA for fair
      representation learning." AISTATS 2023, §3.1.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.decomposition import PCA
    >>> from fairlab import FairPCA, FairTradeoff
    >>> rng = np.random.default_rng(0)
    >>> z = np.repeat([0, 1], 50)
    >>> X = rng.normal(size=(100, 5)) + z[:, None]
    >>> knob = FairTradeoff(FairPCA(2), PCA(2), lam=0.1).fit(X, sensitive_features=z)
    >>> knob.transform(X).shape
    (100, 4)
    """

    _parameter_constraints: dict = {
        "fair": [HasMethods(["fit", "transform"])],
        "standard": [HasMethods(["fit", "transform"])],
        "lam": [Interval(Real, 0, 1, closed="both")],
    }

    def __init__(self, fair, standard, lam=0.0):
        self.fair = fair
        self.standard = standard
        self.lam = lam

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit clones of ``fair`` (with ``sensitive_features``) and ``standard`` on X.

        ``sensitive_features=None`` is passed on to ``fair``, which then falls back to its
        unconstrained method and warns.
        """
        self.fair_ = clone(self.fair).fit(X, y, sensitive_features=sensitive_features)
        self.standard_ = clone(self.standard).fit(X, y)
        widths = [getattr(t, "n_components_", None) for t in (self.fair_, self.standard_)]
        if None not in widths:
            _check_same_width(*widths)
        for attr in ("n_features_in_", "feature_names_in_"):
            if hasattr(self.fair_, attr):
                setattr(self, attr, getattr(self.fair_, attr))
        return self

    def _parts(self):
        if hasattr(self, "fair_"):
            return self.fair_, self.standard_
        if _is_fitted(self.fair) and _is_fitted(self.standard):
            return self.fair, self.standard
        check_is_fitted(self)  # raises NotFittedError with the usual message

    def __sklearn_is_fitted__(self):
        return hasattr(self, "fair_") or (_is_fitted(self.fair) and _is_fitted(self.standard))

    def transform(self, X):
        """Return ``[fair.transform(X), lam * standard.transform(X)]`` (2k columns)."""
        fair, standard = self._parts()
        A = np.asarray(fair.transform(X))
        B = np.asarray(standard.transform(X))
        _check_same_width(A.shape[1], B.shape[1])
        return np.hstack([A, self.lam * B])

    def get_feature_names_out(self, input_features=None):
        """``fair__<name>`` for the fair block, ``standard__<name>`` for the weighted one."""
        fair, standard = self._parts()
        names_f = fair.get_feature_names_out(input_features)
        names_s = standard.get_feature_names_out(input_features)
        return np.asarray(
            [f"fair__{n}" for n in names_f] + [f"standard__{n}" for n in names_s], dtype=object
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags
