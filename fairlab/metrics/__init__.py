"""Fairness and representation metrics, each computed exactly as the paper that uses it.

Three families, one place (so that every table of the book is comparable):

**Group fairness of predictions** (classification, labels compared with ``pos_label``).
With selection rate r_g = P(Ŷ = 1 | G = g) and true/false positive rates TPR_g, FPR_g:

* :func:`demographic_parity_difference` — max_g r_g − min_g r_g
  (Kleindessner et al., Δ_DP of §5);
* :func:`equal_opportunity_difference` — max_g TPR_g − min_g TPR_g
  (Kleindessner et al., Δ_EO of §5.2);
* :func:`equalized_odds_difference` — max(ΔTPR, ΔFPR) (Kleindessner et al. App. C);
* :func:`disparate_impact` — r_unpriv / r_priv (De-Diego et al. §5, DI);
* :func:`disparate_impact_ci` — DI with its asymptotic (delta-method) confidence interval
  (Besse et al. 2022; De-Diego et al. Table 2);
* :func:`equal_opportunity_ratio` — TPR_unpriv / TPR_priv (De-Diego et al. Fig. 4, EOpp);
* :func:`ks_distance` — sup_t ``|F_a(t) − F_b(t)|`` (De-Diego et al. Table 5).

The differences agree with fairlearn's functions of the same name (``method="between_groups"``,
``agg="worst_case"``); the ratios agree with fairlearn's ``*_ratio`` (min over max) when no
privileged group is named.  A 2-D ``sensitive_features`` defines intersectional groups, as in
fairlearn.  ``sensitive_features`` is always read as group labels (of any type), here and in
:func:`ks_distance`, :func:`mmd2` and :func:`linear_inseparability`.

Labels are checked, not coerced: ``y_pred``/``y_true`` with NaN or missing values, with
non-integer floats (probabilities or scores: threshold them first, ``y_pred = proba >= 0.5``),
a ``pos_label`` found in neither ``y_true`` nor ``y_pred``, or a ``y_pred`` label that
``y_true`` never uses (other than ``pos_label`` in a binary problem) raise ``ValueError``;
:func:`equalized_odds_difference` needs binary ``y_true``.

**Statistical dependence of a representation on the sensitive attribute**:

* :func:`hsic` — (1/n²) tr(K H L H), the biased HSIC estimator of Pérez-Suay et al.
  (eq. (1)), linear or RBF kernels;
* :func:`cov2` — ‖(1/n) T̃ᵀS̃‖²_F, the squared cross-covariance of De-Diego et al.
  (eq. (4), Table 1); it equals :func:`hsic` with two linear kernels;
* :func:`mmd2` — the squared maximum mean discrepancy between the two groups (biased
  V-statistic, Gaussian kernel) used by Lee et al. (2022) and Kleindessner et al. §5.1, with the
  bandwidth rule :func:`lee_bandwidth`;
* :func:`linear_inseparability` — error of a logistic model predicting the group
  (Kleindessner et al. §5.1);
* :func:`mean_gap` and :func:`covariance_gap` — ‖ē₁ − ē₀‖₂ and ‖Σ̂₀ − Σ̂₁‖_F, the gaps between
  the groups' means and covariances that a linear and a quadratic rule can see (Kleindessner et
  al. §3.6, Fig. 1).

The sensitive argument of :func:`cov2` and :func:`hsic` may be continuous or group labels, chosen
by ``sensitive_type``: ``"auto"`` (default) reads float columns as continuous numbers and
integer, boolean, string, object and pandas categorical columns as **group labels**;
``"categorical"`` and ``"continuous"`` force one reading.  So groups 0/1/2 give the same value as
integers and as strings; an integer-valued continuous variable (an age in years, a count) needs
``sensitive_type="continuous"``.  A column with m groups is encoded by its m indicators
1[S = g]/√2, so that Cov² = ½ Σ_g Cov²(T, 1[S = g]) and for **two groups exactly the value of the
0/1-coded attribute** (the two centred indicators are opposite; without the 1/√2 the value would
double): De-Diego et al.'s Table 1 (binary S as a 0/1 indicator) and Pérez-Suay et al.'s HSIC
keep their values.  :class:`~fairlab.FairPLS` penalises group labels with the same ½ Σ_g.

**Utility of a linear representation** x ↦ Uᵀx:

* :func:`explained_variance` — tr(UᵀΣU)/tr(Σ) (Lee et al. 2022 and Kleindessner et al.
  Tables 1–3, ×100);
* :func:`reconstruction_error` — ‖X̃ − X̃UUᵀ‖²_F / n (Kleindessner et al. Fig. 1,
  De-Diego et al. Table 1).

**Leakage audit** — is the sensitive information really gone from a representation?

* :func:`leakage` — cross-validated adversaries (logistic regression, RBF SVM, MLP, gradient
  boosting) predicting each sensitive attribute, scored by balanced accuracy and ROC AUC (or
  R² for a continuous attribute) with bootstrap intervals and chance levels, and permutation
  tests of :func:`mmd2` and :func:`hsic`; a linear eraser guards against linear adversaries
  only, and this audit also asks nonlinear ones.

Every function returns a Python ``float``, except :func:`leakage`, which returns a table
(pandas DataFrame).
"""

from ._audit import leakage
from ._gaps import covariance_gap, mean_gap
from ._measures import (
    cov2,
    demographic_parity_difference,
    disparate_impact,
    disparate_impact_ci,
    equal_opportunity_difference,
    equal_opportunity_ratio,
    equalized_odds_difference,
    explained_variance,
    hsic,
    hsic_rbf_widths,
    ks_distance,
    lee_bandwidth,
    linear_inseparability,
    mmd2,
    reconstruction_error,
)

__all__ = [
    "cov2",
    "covariance_gap",
    "demographic_parity_difference",
    "disparate_impact",
    "disparate_impact_ci",
    "equal_opportunity_difference",
    "equal_opportunity_ratio",
    "equalized_odds_difference",
    "explained_variance",
    "hsic",
    "hsic_rbf_widths",
    "ks_distance",
    "lee_bandwidth",
    "leakage",
    "linear_inseparability",
    "mean_gap",
    "mmd2",
    "reconstruction_error",
]
