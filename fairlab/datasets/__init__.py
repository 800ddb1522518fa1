"""Data sets of the three seed papers: synthetic generators and real-data loaders.

Synthetic generators (seeded by ``random_state``, return NumPy arrays):
:func:`make_lee_gaussians`, :func:`make_covariance_mismatch`,
:func:`make_circle_counterexample` (seed 000); :func:`make_sinusoid`, :func:`make_banana`,
:func:`make_fkl_regression` (seed 003); :func:`make_pls_synthetic` (seed 002).
"""

from ._synthetic import (
    make_banana,
    make_circle_counterexample,
    make_covariance_mismatch,
    make_fkl_regression,
    make_lee_gaussians,
    make_pls_synthetic,
    make_sinusoid,
)

__all__ = [
    "make_banana",
    "make_circle_counterexample",
    "make_covariance_mismatch",
    "make_fkl_regression",
    "make_lee_gaussians",
    "make_pls_synthetic",
    "make_sinusoid",
]
