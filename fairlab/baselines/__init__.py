"""The methods the three papers compare against, re-implemented with fairlab's conventions.

Concept erasure (linear guardedness of the representation against the sensitive attribute):

=============  ======================================  ===================================
SAL            Shao et al. (2023)                      removes the top singular directions
                                                       of the cross-covariance X̃ᵀZ̃
LEACE          Belrose et al. (2023)                   least-squares concept erasure,
                                                       closed form (oblique or orthogonal)
OracleLEACE    Belrose et al. (2023)                   LEACE's oracle variant: the least-
                                                       squares residual of X on the
                                                       groups, needed at transform time
INLP           Ravfogel et al. (2020)                  iterated null-space projection of
                                                       linear classifiers
RLACE          Ravfogel et al. (2022)                  relaxed minimax game over rank-r
                                                       projections (Fantope)
=============  ======================================  ===================================

Fair PCA (fairness of the projected distributions or of the reconstruction losses):

=============  ======================================  ===================================
FPCA           Olfat & Aswani (2019)                   semidefinite relaxation: equal
                                                       projected means, (nearly) equal
                                                       projected covariances (cvxpy)
MbFPCA         Lee et al. (2022)                       MMD² of the projected groups
                                                       penalised on the Stiefel manifold
SamadiFairPCA  Samadi et al. (2018)                    equal average reconstruction loss
                                                       of two groups (Shen et al.'s eigenvalue
                                                       optimisation; the SDP with cvxpy)
=============  ======================================  ===================================

Every estimator takes ``sensitive_features`` as a fit keyword (routed by metadata routing;
OracleLEACE takes it at transform time as well), falls back to the unconstrained method with a
warning when it is None, and is imported on first use, so ``import fairlab.baselines`` stays
cheap.  fairlearn's ``CorrelationRemover`` and reductions are used from fairlearn itself;
``ExponentiatedGradientClassifier`` (module ``reductions``) is only the thin adapter that lets
fairlearn's ``ExponentiatedGradient`` (Agarwal et al. 2018) take ``sensitive_features`` by
metadata routing, after a fairlab transformer in a Pipeline.  FPCA and SamadiFairPCA import
cvxpy only when fitted with one of its solvers (``solver="scs"`` or ``"clarabel"``; ``pip
install 'fairlab[baselines]'``); their default solvers need no cvxpy.
"""

import importlib

_ESTIMATORS = {
    "SAL": "sal",
    "LEACE": "leace",
    "OracleLEACE": "leace",
    "INLP": "inlp",
    "RLACE": "rlace",
    "FPCA": "fpca",
    "MbFPCA": "mbfpca",
    "SamadiFairPCA": "samadi",
    "ExponentiatedGradientClassifier": "reductions",
}

__all__ = list(_ESTIMATORS)


def __getattr__(name):
    if name in _ESTIMATORS:
        return getattr(importlib.import_module(f".{_ESTIMATORS[name]}", __name__), name)
    raise AttributeError(f"module 'fairlab.baselines' has no attribute {name!r}")


def __dir__():
    return sorted(__all__)
