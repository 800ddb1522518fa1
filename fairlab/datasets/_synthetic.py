"""Synthetic data sets of the three seed papers.

Every generator is seeded through ``random_state`` (``None``, an int or a
:class:`numpy.random.RandomState`, as in scikit-learn) and returns plain NumPy
arrays.  The papers describe their toy data in one or two sentences; every
detail they leave open (noise level, which group comes first, how a binary
variable is drawn, ...) is fixed here and written down in the docstring, so a
reader can reproduce the data with a pencil.

=============================  =====================================  ======================
generator                      paper                                  returns
=============================  =====================================  ======================
make_lee_gaussians             Kleindessner et al. §5.1 (Lee et al. 2022 §8.2)   X, y, z (y = z)
make_covariance_mismatch       Kleindessner et al. Fig. 1 (§3.6)                 X, z
make_circle_counterexample     Kleindessner et al. App. A.1                      X, z
make_sinusoid                  Pérez-Suay et al. §3.2, Fig. 2                  X = [a, b]
make_banana                    Pérez-Suay et al. §3.2, Fig. 3                  X, s
make_fkl_regression            Pérez-Suay et al. §2.3, Fig. 1                  X = a, y, s
make_pls_synthetic             De-Diego et al. App. 8.1                      X, y, s
=============================  =====================================  ======================

Notation: the seed papers write :math:`\\mathcal N(0, \\sigma)` with
:math:`\\sigma` the *standard deviation* (Pérez-Suay et al. §2.3 says so explicitly);
every ``noise``/``sigma_*`` argument below is a standard deviation.
"""

from numbers import Integral, Real

import numpy as np
from scipy.linalg import cholesky, eigvalsh
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, validate_params

__all__ = [
    "make_lee_gaussians",
    "make_covariance_mismatch",
    "make_circle_counterexample",
    "make_sinusoid",
    "make_banana",
    "make_fkl_regression",
    "make_pls_synthetic",
]

_SEED = ["random_state"]


# --------------------------------------------------------------------------------------
# Kleindessner et al. §5.1 — Lee et al. (2022), "synthetic data #2"
# --------------------------------------------------------------------------------------
def _ar_block(r, m):
    """AR(1)-type block of Lee et al.: entries r^|i-j| / (1 - r^2), size m x m."""
    idx = np.arange(m)
    return r ** np.abs(idx[:, None] - idx[None, :]) / (1.0 - r**2)


# Lee et al.'s MATLAB script synthetic2_generate.m, five blocks of size p0/5.
_LEE_R1 = (0.99, 0.98, 0.97, 0.98, 0.95)
_LEE_R2 = (0.95, 0.98, 0.97, 0.98, 0.99)


@validate_params(
    {
        "n_per_group": [Interval(Integral, 1, None, closed="left")],
        "n_features": [Interval(Integral, 1, None, closed="left")],
        "n_latent": [Interval(Integral, 5, None, closed="left")],
        "random_state": _SEED,
    },
    prefer_skip_nested_validation=True,
)
def make_lee_gaussians(n_per_group=240, n_features=20, *, n_latent=1000, random_state=None):
    r"""Two Gaussian groups seen through two different random projections (Lee et al.).

    The synthetic experiment of Kleindessner et al. §5.1 (Figs. 2–4) reruns Lee et al.'s (2022)
    "synthetic data #2".  Their MATLAB generator ``synthetic2_generate.m`` is:

    * latent dimension :math:`p_0` (``n_latent``, 1000), split into five blocks of size
      :math:`m = p_0/5`; an AR(1)-type block is :math:`A(r)_{ij} = r^{|i-j|}/(1-r^2)`;
    * :math:`\Sigma_1 = \mathrm{blockdiag}(A(.99), A(.98), A(.97), A(.98), A(.95))`,
      :math:`\Sigma_2 = \mathrm{blockdiag}(A(.95), A(.98), A(.97), A(.98), A(.99))`,
      both divided by the spectral norm :math:`\|\Sigma_2 - \Sigma_1\|_2`;
    * means :math:`\mu_1 = 0` and :math:`\mu_2 = 2\,\mathbf 1/\|\mathbf 1\|`;
    * :math:`X_g = \mathcal N(\mu_g, \Sigma_g)^{n} \, W_g` with **two independent**
      standard Gaussian matrices :math:`W_1, W_2 \in \mathbb R^{p_0 \times d}`, so the two
      groups are projected differently.

    Parameters
    ----------
    n_per_group : int, default=240
        Rows per group (Lee et al. use 240 and split them 168/72 into train/test).
    n_features : int, default=20
        Output dimension :math:`d` (the paper uses 20, 60 and 100, up to 1000).
    n_latent : int, default=1000
        Latent dimension :math:`p_0`; must be a multiple of 5.
    random_state : int, RandomState instance or None, default=None
        Seed.  Draw order: latent rows of group 1, latent rows of group 2,
        :math:`W_1`, :math:`W_2`.  MATLAB's ``rng default`` stream is not reproduced, so
        the published CSV files (see :func:`load_lee2022_split`) are *not* bit-identical
        to any seed; the distribution is the same.

    Returns
    -------
    X : ndarray of shape (2 * n_per_group, n_features)
        Rows ``0 .. n_per_group-1`` are group 1 (mean 0, :math:`\Sigma_1`), then group 2.
        Not centred and not scaled, as in the paper.
    y : ndarray of shape (2 * n_per_group,)
        A copy of ``z`` (Lee et al.'s files store ``y = z``).
    z : ndarray of shape (2 * n_per_group,), dtype int
        1 for group 1 (the first half, as in Lee's files) and 0 for group 2.

    References
    ----------
    Lee, J., Kim, G., Olfat, M., Hasegawa-Johnson, M., & Yoo, C. D. (2022). Fast and
    efficient MMD-based fair PCA via optimization over Stiefel manifold. AAAI.

    Examples
    --------
    >>> from fairlab.datasets import make_lee_gaussians
    >>> X, y, z = make_lee_gaussians(n_per_group=50, n_features=20, random_state=0)
    >>> X.shape, int(z.sum())
    ((100, 20), 50)
    """
    if n_latent % 5:
        raise ValueError(
            f"n_latent must be a multiple of 5 (five AR blocks of equal size); got {n_latent}."
        )
    rng = check_random_state(random_state)
    m = n_latent // 5
    blocks1 = [_ar_block(r, m) for r in _LEE_R1]
    blocks2 = [_ar_block(r, m) for r in _LEE_R2]
    # ||Σ2 − Σ1||₂ of a block-diagonal difference = the largest block norm.
    scale = max(np.abs(eigvalsh(b2 - b1)).max() for b1, b2 in zip(blocks1, blocks2))
    mu2 = 2.0 * np.ones(n_latent) / np.sqrt(n_latent)

    def draw(blocks, mean):
        # Block-diagonal covariance: sample each block with its own Cholesky factor.
        parts = [
            rng.standard_normal((n_per_group, m)) @ cholesky(b / scale, lower=False)
            for b in blocks
        ]
        return np.hstack(parts) + mean

    latent1 = draw(blocks1, 0.0)
    latent2 = draw(blocks2, mu2)
    W1 = rng.standard_normal((n_latent, n_features))
    W2 = rng.standard_normal((n_latent, n_features))
    X = np.vstack([latent1 @ W1, latent2 @ W2])
    z = np.repeat([1, 0], n_per_group)
    return X, z.copy(), z


# --------------------------------------------------------------------------------------
# Kleindessner et al. Fig. 1 — equal means, very different covariances
# --------------------------------------------------------------------------------------
_FIG1_T = np.array([[1.0, 0.0, 10.0], [1.0, 10.0, 10.0], [0.0, 10.0, 0.0]])


@validate_params(
    {
        "n_per_group": [Interval(Integral, 1, None, closed="left")],
        "n_features": [Interval(Integral, 3, None, closed="left")],
        "random_state": _SEED,
    },
    prefer_skip_nested_validation=True,
)
def make_covariance_mismatch(n_per_group=500, n_features=10, *, random_state=None):
    r"""Two zero-mean Gaussian groups with very different covariances (Kleindessner et al., Fig. 1).

    Group 0 is :math:`\mathcal N(0, I_d)`; group 1 is :math:`\mathcal N(0, I_d)\,T` with
    :math:`T = I_d` except :math:`T_{1:3,1:3} = [[1,0,10],[1,10,10],[0,10,0]]`
    (the final assignment in the reference script ``illustration_Figure1.py``), i.e.
    group 1 has covariance :math:`T^\top T`.  Both group means are zero, so fair PCA's
    mean constraint is already met by every projection, yet a non-linear classifier
    separates the groups from the spread of the projection; Fair PCA-S (§3.6) fixes it.

    Parameters
    ----------
    n_per_group : int, default=500
    n_features : int, default=10
        :math:`d \ge 3`.
    random_state : int, RandomState instance or None, default=None
        Draw order: group 0, then group 1.

    Returns
    -------
    X : ndarray of shape (2 * n_per_group, n_features)
        Group 0 first, as in the reference script.
    z : ndarray of shape (2 * n_per_group,), dtype int
        0 for the first ``n_per_group`` rows, 1 for the others.

    Examples
    --------
    >>> from fairlab.datasets import make_covariance_mismatch
    >>> X, z = make_covariance_mismatch(random_state=0)
    >>> X.shape
    (1000, 10)
    """
    rng = check_random_state(random_state)
    T = np.eye(n_features)
    T[:3, :3] = _FIG1_T
    X0 = rng.standard_normal((n_per_group, n_features))
    X1 = rng.standard_normal((n_per_group, n_features)) @ T
    return np.vstack([X0, X1]), np.repeat([0, 1], n_per_group)


# --------------------------------------------------------------------------------------
# Kleindessner et al. App. A.1 — no linear projection can hide the group from every function
# --------------------------------------------------------------------------------------
@validate_params(
    {
        "n_samples": [Interval(Integral, 4, None, closed="left")],
        "radius": [Interval(Real, 0, None, closed="neither")],
        "noise": [Interval(Real, 0, None, closed="left")],
        "random_state": _SEED,
    },
    prefer_skip_nested_validation=True,
)
def make_circle_counterexample(n_samples=200, *, radius=1.0, noise=0.0, random_state=None):
    r"""Origin versus circle: the counterexample of Kleindessner et al., Appendix A.1.

    With :math:`n = 2n'`: :math:`x_1 = \dots = x_{n'} = 0 \in \mathbb R^2` (group 0) and
    :math:`x_{n'+1}, \dots, x_{2n'}` equidistant on the circle of radius ``radius`` around
    the origin, at angles :math:`2\pi j / n'`, :math:`j = 0, \dots, n'-1` (group 1).
    Both group means are 0, so *every* 1-D projection satisfies fair PCA's constraint,
    but :math:`h(x) = \mathbb 1[x \ne 0]` recovers the group from any projection:
    exact independence (Problem (3)) is infeasible for linear projections.

    Parameters
    ----------
    n_samples : int, default=200
        Total number of points; must be even (``n' = n_samples // 2`` per group).
    radius : float, default=1.0
    noise : float, default=0.0
        Standard deviation of optional isotropic Gaussian noise added to *all* points.
        With the default 0 the data are deterministic and ``random_state`` is unused.
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
    z : ndarray of shape (n_samples,), dtype int
        0 for the points at the origin (first half), 1 for the circle.

    Examples
    --------
    >>> from fairlab.datasets import make_circle_counterexample
    >>> X, z = make_circle_counterexample(8)
    >>> X[z == 1].mean(axis=0).round(12) + 0.0
    array([0., 0.])
    """
    if n_samples % 2:
        raise ValueError(
            f"n_samples must be even (n' points at the origin and n' on the circle); "
            f"got {n_samples}."
        )
    half = n_samples // 2
    angles = 2.0 * np.pi * np.arange(half) / half
    circle = radius * np.column_stack([np.cos(angles), np.sin(angles)])
    X = np.vstack([np.zeros((half, 2)), circle])
    if noise > 0:
        X = X + noise * check_random_state(random_state).standard_normal(X.shape)
    return X, np.repeat([0, 1], half)


# --------------------------------------------------------------------------------------
# Pérez-Suay et al. §3.2 — noisy sinusoid and banana (fair dimensionality reduction toys)
# --------------------------------------------------------------------------------------
@validate_params(
    {
        "n_samples": [Interval(Integral, 1, None, closed="left")],
        "noise": [Interval(Real, 0, None, closed="left")],
        "random_state": _SEED,
    },
    prefer_skip_nested_validation=True,
)
def make_sinusoid(n_samples=1000, noise=0.1, *, random_state=None):
    r"""Noisy sinusoid of Pérez-Suay et al. §3.2 ("invariant feature extraction", Fig. 2).

    :math:`a \sim \mathcal U(0, 1.5\pi)`, :math:`b = \sin a + \varepsilon`,
    :math:`\varepsilon \sim \mathcal N(0, \text{noise}^2)`.  The paper then uses either
    column as the sensitive variable (``S = a`` or ``S = b``) and the other as the
    unprotected one; slice ``X[:, [0]]`` or ``X[:, [1]]`` accordingly.

    Parameters
    ----------
    n_samples : int, default=1000
    noise : float, default=0.1
        Standard deviation of :math:`\varepsilon` (the paper's :math:`\mathcal N(0, 0.1)`).
    random_state : int, RandomState instance or None, default=None
        Draw order: all of ``a``, then all of the noise.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        Columns ``(a, b)``.

    Examples
    --------
    >>> from fairlab.datasets import make_sinusoid
    >>> make_sinusoid(random_state=0).shape
    (1000, 2)
    """
    rng = check_random_state(random_state)
    a = rng.uniform(0.0, 1.5 * np.pi, n_samples)
    b = np.sin(a) + noise * rng.standard_normal(n_samples)
    return np.column_stack([a, b])


_PI4 = np.array([1.0, 1.0]) / np.sqrt(2.0)


@validate_params(
    {
        "n_samples": [Interval(Integral, 1, None, closed="left")],
        "noise": [Interval(Real, 0, None, closed="left")],
        "signal_noise": [Interval(Real, 0, None, closed="left")],
        "random_state": _SEED,
    },
    prefer_skip_nested_validation=True,
)
def make_banana(n_samples=1000, *, noise=0.5, signal_noise=0.05, random_state=None):
    r"""Banana-shaped 2-D data plus noise along the :math:`\pi/4` direction (Pérez-Suay et al.).

    The paper gives one sentence ("a bidimensional banana-shaped distribution corrupted
    by correlated noise in the :math:`\pi/4`-direction"); this is the precise recipe:

    * signal: :math:`t \sim \mathcal U(-1.5, 1.5)`,
      :math:`x^{\text{sig}} = (t,\; t^2 - 0.75) + \mathcal N(0, \sigma^2 I_2)`
      (a parabola, centred so that :math:`E[t^2] = 0.75` is removed), with :math:`\sigma` =
      ``signal_noise``;
    * nuisance: :math:`s \sim \mathcal N(0, \text{noise}^2)` and
      :math:`x = x^{\text{sig}} + s\,(1, 1)/\sqrt2`.  The two coordinates of the nuisance
      are perfectly correlated — all of it lies along :math:`\pi/4`.

    ``s`` is the variable the representation should be independent of: pass it as the
    (continuous) sensitive variable of KFDR.  A linear kernel on ``s`` equals a linear
    kernel on the 2-D noise vector :math:`s(1,1)/\sqrt2`, so nothing is lost by
    returning the scalar.

    Parameters
    ----------
    n_samples : int, default=1000
    noise : float, default=0.5
        Standard deviation of the nuisance ``s`` along :math:`\pi/4`.
    signal_noise : float, default=0.05
        Standard deviation of the small isotropic noise that thickens the banana.
    random_state : int, RandomState instance or None, default=None
        Draw order: ``t``, the isotropic noise (n × 2), ``s``.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
    s : ndarray of shape (n_samples,)
        Signed nuisance amplitude along :math:`(1, 1)/\sqrt 2`.

    Examples
    --------
    >>> from fairlab.datasets import make_banana
    >>> X, s = make_banana(500, random_state=0)
    >>> X.shape, s.shape
    ((500, 2), (500,))
    """
    rng = check_random_state(random_state)
    t = rng.uniform(-1.5, 1.5, n_samples)
    signal = np.column_stack([t, t**2 - 0.75])
    signal += signal_noise * rng.standard_normal((n_samples, 2))
    s = noise * rng.standard_normal(n_samples)
    return signal + s[:, None] * _PI4, s


# --------------------------------------------------------------------------------------
# Pérez-Suay et al. §2.3 — fair kernel regression toy
# --------------------------------------------------------------------------------------
@validate_params(
    {
        "n_samples": [Interval(Integral, 1, None, closed="left")],
        "sigma_s": [Interval(Real, 0, None, closed="neither")],
        "sigma_f": [Interval(Real, 0, None, closed="left")],
        "sigma_y": [Interval(Real, 0, None, closed="left")],
        "random_state": _SEED,
    },
    prefer_skip_nested_validation=True,
)
def make_fkl_regression(
    n_samples=1000, *, sigma_s=1.0, sigma_f=0.1, sigma_y=0.1, random_state=None
):
    r"""Regression toy of Pérez-Suay et al. §2.3 (Fig. 1): the sensitive variable leaks via ``a``.

    The paper's recipe: :math:`s \sim \mathcal N(0, \sigma_s)`,
    :math:`a = f_s(s) + n_f`, :math:`y = g_s(s) + g_r(a) + n_y` with :math:`f_s = \log`,
    :math:`g_s(x) = g_r(x) = x^2`, :math:`n_f \sim \mathcal N(0, \sigma_f)`,
    :math:`n_y \sim \mathcal N(0, \sigma_y)`.

    **Choice.** :math:`\log s` is undefined for the half of the draws with :math:`s \le 0`,
    and :math:`\log|s|` has a singularity at 0 that produces a few huge outliers
    (:math:`\log|s| \approx -7` for the smallest of 1000 draws, so :math:`a^2 \approx 50`).
    We use :math:`f_s(s) = \log(1 + |s|)`: finite, monotone in :math:`|s|`, equal to
    :math:`\log|s|` up to the shift that removes the singularity, and still a non-linear
    (even) function of ``s`` — so a linear model on ``a`` cannot undo it while a kernel
    model can.  The noise levels are not given in the paper; the defaults are
    :math:`\sigma_s = 1`, :math:`\sigma_f = \sigma_y = 0.1` (standard deviations).

    Parameters
    ----------
    n_samples : int, default=1000
    sigma_s, sigma_f, sigma_y : float
        Standard deviations of ``s``, ``n_f`` and ``n_y``.
    random_state : int, RandomState instance or None, default=None
        Draw order: ``s``, ``n_f``, ``n_y``.

    Returns
    -------
    X : ndarray of shape (n_samples, 1)
        The unprotected input ``a``.  The paper's second setting also feeds ``s`` to the
        model: ``np.column_stack([X, s])``.
    y : ndarray of shape (n_samples,)
    s : ndarray of shape (n_samples,)
        The continuous sensitive variable.

    Examples
    --------
    >>> from fairlab.datasets import make_fkl_regression
    >>> X, y, s = make_fkl_regression(200, random_state=0)
    >>> X.shape, y.shape, s.shape
    ((200, 1), (200,), (200,))
    """
    rng = check_random_state(random_state)
    s = sigma_s * rng.standard_normal(n_samples)
    a = np.log1p(np.abs(s)) + sigma_f * rng.standard_normal(n_samples)
    y = s**2 + a**2 + sigma_y * rng.standard_normal(n_samples)
    return a[:, None], y, s


# --------------------------------------------------------------------------------------
# De-Diego et al. App. 8.1 — synthetic data for Fair PLS
# --------------------------------------------------------------------------------------
_PLS_MEANS = (np.array([9.0, 8.0, 10.0, 10.0, 0.0, 0.0, 0.0]),  # S = 0 (female)
              np.array([10.0, 10.0, 10.0, 10.0, 0.0, 0.0, 0.0]))  # S = 1 (male)
_PLS_RHO = (0.5, 0.2)  # within-group equicorrelation of the 7 latent variables
# Effect of the binaries (4, 5) on variable 0 and of binary 6 on variable 1.
_PLS_EFFECT = (2.0, 0.1)
_PLS_COEF = (np.array([1.0, 0.5, 0.5, 0.25, 1.0, 1.0, 1.0]),  # S = 0
             np.array([0.5, 1.0, 0.25, 0.5, 0.25, 0.25, 0.25]))  # S = 1


@validate_params(
    {
        "n_per_group": [Interval(Integral, 1, None, closed="left")],
        "noise": [Interval(Real, 0, None, closed="left")],
        "random_state": _SEED,
    },
    prefer_skip_nested_validation=True,
)
def make_pls_synthetic(n_per_group=500, *, noise=0.5, random_state=None):
    r"""Two-group data in :math:`\mathbb R^7` of De-Diego et al., Appendix 8.1.

    The paper states: two groups of 500 rows, means :math:`(9,8,10,10,0,0,0)` for
    :math:`S=0` and :math:`(10,10,10,10,0,0,0)` for :math:`S=1`, "different covariance
    matrices", variables 0–3 quantitative and 4–6 binary, "all correlated within each
    group"; for females binaries 4 and 5 strongly affect variable 0 and binary 6 affects
    variable 1, for males the binaries have "little to no" effect; ``Y`` is a weighted
    combination with group-specific coefficients; rows are shuffled.  Everything else is
    fixed here:

    1. :math:`S = 0` is the female group (the lower means), :math:`S = 1` the male one.
    2. Latent :math:`L \sim \mathcal N(\mu_S, \Sigma_S)` with equicorrelation
       :math:`\Sigma_S = (1-\rho_S) I_7 + \rho_S \mathbf 1\mathbf 1^\top`,
       :math:`\rho_0 = 0.5`, :math:`\rho_1 = 0.2`.
    3. Binaries :math:`B_j = \mathbb 1[L_j > 0]` for :math:`j = 4, 5, 6`.
    4. :math:`X_0 = L_0 + c_S (B_4 + B_5)`, :math:`X_1 = L_1 + c_S B_6`,
       :math:`X_{2,3} = L_{2,3}`, :math:`X_{4..6} = B_{4..6}`, with :math:`c_0 = 2`
       ("strong") and :math:`c_1 = 0.1` ("little").
    5. :math:`Y = X\beta_S + \mathcal N(0, \text{noise}^2)` with
       :math:`\beta_0 = (1, .5, .5, .25, 1, 1, 1)` and
       :math:`\beta_1 = (.5, 1, .25, .5, .25, .25, .25)`.
    6. The 2·n_per_group rows are shuffled with the same random state.

    Parameters
    ----------
    n_per_group : int, default=500
    noise : float, default=0.5
        Standard deviation of the noise on ``Y``.
    random_state : int, RandomState instance or None, default=None
        Draw order: latent rows of S=0, of S=1, the noise on Y, the shuffle.

    Returns
    -------
    X : ndarray of shape (2 * n_per_group, 7)
        Columns 0–3 continuous, 4–6 in {0, 1}.  ``S`` is *not* a column of ``X``.
    y : ndarray of shape (2 * n_per_group,)
    s : ndarray of shape (2 * n_per_group,), dtype int
        0 = female, 1 = male.

    Examples
    --------
    >>> from fairlab.datasets import make_pls_synthetic
    >>> X, y, s = make_pls_synthetic(random_state=0)
    >>> X.shape, int(s.sum())
    ((1000, 7), 500)
    """
    rng = check_random_state(random_state)
    Xs, ys = [], []
    latents = []
    for g in (0, 1):
        rho = _PLS_RHO[g]
        cov = (1.0 - rho) * np.eye(7) + rho * np.ones((7, 7))
        chol = cholesky(cov, lower=False)  # L = μ + N(0, I) R with RᵀR = Σ
        latents.append(_PLS_MEANS[g] + rng.standard_normal((n_per_group, 7)) @ chol)
    for g in (0, 1):
        L = latents[g]
        B = (L[:, 4:] > 0).astype(float)
        X = L.copy()
        X[:, 4:] = B
        X[:, 0] += _PLS_EFFECT[g] * (B[:, 0] + B[:, 1])
        X[:, 1] += _PLS_EFFECT[g] * B[:, 2]
        Xs.append(X)
    for g in (0, 1):
        ys.append(Xs[g] @ _PLS_COEF[g] + noise * rng.standard_normal(n_per_group))
    X = np.vstack(Xs)
    y = np.concatenate(ys)
    s = np.repeat([0, 1], n_per_group)
    order = rng.permutation(2 * n_per_group)
    return X[order], y[order], s[order]
