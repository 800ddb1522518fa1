"""fairlab: linear and kernel fair representation learning.

Estimators
----------
FairPCA, FairKernelPCA           Kleindessner et al. (2023), fair PCA and its kernelization.
FairKernelProjection             Störck et al. (2026), a (continuous) attribute projected out
                                 of a kernel.
FairPLS, KernelFairPLS,          De-Diego et al. (2025), PLS-based fair representations.
NaiveFairPLS
FairLinearRegression,            Pérez-Suay et al. (2017), Fair Kernel Learning.
FairKernelRegression,
FairDR, KernelFairDR
FairTradeoff                     Accuracy/fairness knob of Kleindessner et al. (2023), §3.1.

Sub-modules ``fairlab.metrics``, ``fairlab.datasets``, ``fairlab.evaluation`` (the protocols),
``fairlab.experiments`` (the papers' experiments and their results ledger), ``fairlab.plotting``
and ``fairlab.published`` (the papers' printed tables) are imported on first use, so
``import fairlab`` stays cheap. ``check_parameters`` refuses a chapter parameter that papermill
injected with the wrong type or outside its choices.
"""

import importlib

__version__ = "0.1.0"

_ESTIMATORS = {
    "FairPCA": "pca",
    "FairKernelPCA": "kernel_pca",
    "FairKernelProjection": "kernel_projection",
    "FairPLS": "pls",
    "KernelFairPLS": "kernel_pls",
    "NaiveFairPLS": "pls",
    "FairLinearRegression": "hsic_regression",
    "FairKernelRegression": "hsic_regression",
    "FairDR": "hsic_reduction",
    "KernelFairDR": "hsic_reduction",
    "FairTradeoff": "tradeoff",
}
_SUBMODULES = ("datasets", "evaluation", "experiments", "metrics", "plotting", "published")

__all__ = [*_ESTIMATORS, *_SUBMODULES, "UnconstrainedFallbackWarning", "check_parameters",
           "__version__"]


def __getattr__(name):
    if name in _ESTIMATORS:
        module = importlib.import_module(f".{_ESTIMATORS[name]}", __name__)
        return getattr(module, name)
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    if name == "UnconstrainedFallbackWarning":
        from ._core.validation import UnconstrainedFallbackWarning

        return UnconstrainedFallbackWarning
    if name == "check_parameters":
        from ._parameters import check_parameters

        return check_parameters
    raise AttributeError(f"module 'fairlab' has no attribute {name!r}")


def __dir__():
    return sorted(__all__)
