"""Nyström features: the map W^{-1/2} of the landmark Gram matrix, shared by the kernel methods
that approximate a kernel on a subset of rows (fair kernel PCA, the fair kernel projection)."""

# SPDX-License-Identifier: BSD-3-Clause

import numpy as np
from scipy import linalg

from .linalg import n_distinct_rows

__all__ = ["nystroem_map"]


def nystroem_map(W):
    """W^{-1/2} (pseudo-inverse square root) of the landmark Gram matrix W, as a (L, r) matrix.

    Repeated landmarks (equal rows of W) make W singular by construction: at most as many
    eigenvalues as distinct rows are kept; among them those above the rounding level
    L·eps·λ_max (a low-rank kernel is a property of the data).
    """
    s, V = linalg.eigh((W + W.T) / 2)
    s, V = s[::-1], V[:, ::-1]
    keep = s > s[0] * W.shape[0] * np.finfo(float).eps
    keep[n_distinct_rows(W):] = False
    return V[:, keep] / np.sqrt(s[keep])
