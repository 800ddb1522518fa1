"""Fair kernel PCA (Kleindessner et al., 2023, §3.3 and Algorithm 3), solved exactly and fast.

Let φ map a point into a feature space with kernel k(x, y) = ⟨φ(x), φ(y)⟩, let Φ be the n×D
matrix of training features (rows φ(x_i)), Φc = HΦ its centred version (H = I − 11ᵀ/n, so the
Gram matrix is Kc = HKH) and Z the n×m centred one-hot matrix of the sensitive groups.  Fair
kernel PCA looks for k orthonormal directions U in feature space that explain as much variance
as possible while the projected training data have the same mean in every group:

    max tr(Uᵀ Φcᵀ Φc U)   subject to   UᵀU = I,   Zᵀ Φc U = 0.                        (1)

The constraint says U ⟂ A := Φcᵀ Z (m vectors in feature space).  With P the orthogonal
projector onto A^⟂, (1) is *plain* kernel PCA of the projected features ψ_i = P φc(x_i), whose
Gram matrix is, since AᵀA = ZᵀKcZ and ΦcA = KcZ,

    G = Φc P Φcᵀ = Kc − Kc Z (Zᵀ Kc Z)⁺ Zᵀ Kc.                                         (2)

So the solution is the top-k eigenpairs (λ_j, v_j) of the symmetric n×n matrix G — one
standard eigenproblem, open to partial (ARPACK) solvers, with no ridge.  The paper's
Algorithm 3 reaches the same subspace by a generalized eigenproblem on the matrices RᵀKKR and
RᵀKR (R = null space of ZᵀK).  RᵀKR is singular whenever K is (always with centring, since
Kc1 = 0 puts 1 in range(R)), and the paper then adds a 1e-5 ridge; ``eigen_solver=
"generalized"`` instead removes 1 from R by construction and solves the pencil densely on the
range of RᵀKR, which gives the exact solver's eigenpairs to rounding.

Ranks.  Z is an orthonormal basis of the independent centred indicators (m − 1 per attribute,
chosen exactly from the group codes), so no rank is decided for it.  Whether KcZ is rank
deficient — a low-rank kernel, coinciding group means in feature space — is a property of the
data, decided once by :func:`fairlab._core.linalg.constraint_basis` with the rounding bound of the
product; both solvers use that decision.

Continuous attributes (``sensitive_type="continuous"``, or one type per column): the centred
column s̃ = s − mean(s) joins the centred indicators, so Zᵀ Φc U = 0 makes every component's
training scores uncorrelated with s.  Z is then an orthonormal basis of the exact categorical
part and of the continuous columns projected off it, whose rank (collinear columns) is decided
by :func:`fairlab._core.linalg.constraint_basis`; everything below is unchanged.

Centring and projection commute.  Z is column-centred, so HZ = Z and ZᵀΦc = ZᵀΦ: the constraint
is the same whether or not the features are centred, and 1ᵀG = 0, GZ = 0.  Every eigenvector
with λ > 0 therefore satisfies 1ᵀv = 0 and Zᵀv = 0, and the training embedding v√λ has zero
overall mean and *exactly* equal group means.  (With ``center=False``, K replaces Kc
throughout; GZ = 0 still holds, so the group means are equal, but not zero.)

Out of sample.  The unit principal axes are u_j = PΦcᵀv_j/√λ_j = Φcᵀc_j with the
representer coefficients

    c_j = (v_j − Z (ZᵀKcZ)⁺ ZᵀKc v_j) / √λ_j,                                           (3)

so a new point x is embedded as kc(x)ᵀ c_j, where kc(x) is k(x, X_train) centred with the
training statistics (scikit-learn's ``KernelCenterer`` formula).  On the training points this
gives Kc c_j = G v_j/√λ_j = v_j √λ_j, the same as ``fit_transform``.

Scaling.  Both scikit-learn's ``KernelPCA`` (v√λ) and the paper's Algorithm 3 (ΛᵀRᵀK with
ΛᵀRᵀKRΛ = I) return the coordinates of the data on *unit-norm* axes in feature space; they are
the same numbers.  With a linear kernel these axes are the columns of FairPCA's ``components_``,
and the embedding equals ``FairPCA(center=...).transform`` up to the sign of each column.

Linear kernel.  Its Gram matrix XXᵀ is never formed: K̃ = FFᵀ with F = Xc (or X), the
constraint vectors are A = XcᵀZ, so G = FPFᵀ (P the projector onto range(A)^⊥) and its
eigenpairs are the singular pairs of the projected data F Q⊥ — the exact solver is FairPCA
computed without squaring.  Centring the entries of XXᵀ cancels (at an offset of 1e4 the
centred Gram matrix of unit-spread data is rounding, and the fair components were lost),
and squaring the data squares their column scales (at scales 1e-6 … 1e6 a Gram or scatter
matrix resolves only the largest component).  Here X is centred before anything else (two
passes), the fair directions are built in column-scaled coordinates, the singular values come
from LAPACK's Jacobi SVD (relative accuracy for column-scaled matrices), and an uncentred
fit adds the mean as one exact extra row (MᵀM = McᵀMc + n·bbᵀ) instead of rounding it into
every entry.  See :func:`~fairlab._core.constraints.linear_constraint` and
:func:`~fairlab._core.constraints.linear_components`.

Polynomial kernel, centred.  (γxᵀy + c₀)^p far from the origin is dominated by terms that
depend on one argument only ((γ‖μ‖²)^p, …), which centring removes: formed and then centred
they cancel and leave rounding.  For an integer degree and ``center=True`` the kernel is
expanded around the training mean and only the terms centring keeps are formed
(:func:`_poly_centred_terms`), in ``fit`` and ``transform`` alike; the rounding unit of the
component floor is then that of those terms.  (Uncentred, the poly kernel's entries are its
values, and their rounding is the kernel's own.)

Large n.  ``approximation="nystroem"`` maps the data to explicit Nyström features
f(x) = W^{-1/2} k(L, x) built on a set L of m landmarks (W = k(L, L)), then runs linear
:class:`fairlab.FairPCA` on them: O(n·m² + m³) instead of O(n³).  With all n points as
landmarks, f(x_i)ᵀf(x_j) = K_ij and the result equals the exact solver.
"""

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, eigsh
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ._core.constraints import (
    component_floor,
    constraint_columns,
    constraint_factor,
    linear_components,
    linear_constraint,
)
from ._core.kernels import (
    GAMMA_KERNELS,
    KERNELS,
    entry_rounding_unit,
    kernel_matrix,
    kernel_matrix_is_new,
    resolve_gamma,
    warn_if_indefinite,
)
from ._core.linalg import (
    as_seed,
    center_cross_gram,
    center_gram,
    center_symmetric_gram_inplace,
    choose_eigen_solver,
    column_signs,
    complement_basis,
    eigen_solver_name,
    flip_signs,
    gram_rounding_floor,
    signs_of_extremes,
    symmetric_matvec,
    thin_svd,
    top_eigh_route,
)
from ._core.moments import (
    any_dask,
    dask_inputs,
    dask_transform_input,
    import_dask,
    is_dask,
    map_rows,
)
from ._core.nystroem import nystroem_map
from ._core.validation import (
    check_n_components,
    check_sensitive,
    check_transform_input,
    reject_bool_params,
    validate_data,
    warn_unconstrained,
)

__all__ = ["FairKernelPCA"]

# scikit-learn's KernelPCA treats eigenvalues below this fraction of the largest as zero
# (``_check_psd_eigenvalues``); we do the same so that both agree on rank-deficient kernels.
_SMALL_EIGENVALUE_RATIO = 1e-12
_DEFAULT_N_LANDMARKS = 1000


def _poly_centred_terms(A, B, mean, gamma, coef0, degree):
    r"""The terms of the polynomial kernel that double centring keeps, without the others.

    With x = μ + x̃ (μ the training mean), γxᵀy + c₀ = a + b(x) + b(y) + c(x, y) where
    a = γμᵀμ + c₀, b(x) = γμᵀx̃ and c(x, y) = γx̃ᵀỹ, so for an integer degree p

    .. math::

        k(x, y) = \sum_{α+β+β'+δ=p} \frac{p!}{α!\,β!\,β'!\,δ!}\, a^α\, b(x)^β\, b(y)^{β'}\,
                  c(x, y)^δ.

    A term with δ = 0 and β = 0 or β' = 0 depends on one argument only; centring (with the
    training statistics, on either side) removes it exactly.  Far from the origin those are
    the large ones (a^p alone is (γ‖μ‖²)^p): forming k and centring it afterwards cancels
    them in floating point and leaves rounding where the centred kernel should be.  This
    returns the sum of the other terms for the rows of ``A`` against those of ``B``; centred
    with its own training statistics it is the centred kernel H K H, computed without
    cancellation.  Cost O(n_A·n_B·p) beyond the Gram matrix of the x̃.
    """
    from math import factorial

    p = int(degree)
    At, Bt = A - mean, B - mean
    a = gamma * float(mean @ mean) + coef0
    powers = np.arange(p + 1)
    Va = (gamma * (At @ mean))[:, None] ** powers
    Vb = (gamma * (Bt @ mean))[:, None] ** powers
    C = gamma * (At @ Bt.T)
    S = np.zeros((A.shape[0], B.shape[0]))
    C_delta = np.ones_like(S)
    for delta in range(p + 1):
        if delta:
            C_delta = C_delta * C
        W = np.zeros((p + 1, p + 1))
        for beta in range(p + 1 - delta):
            for beta2 in range(p + 1 - delta - beta):
                if delta == 0 and (beta == 0 or beta2 == 0):
                    continue  # a function of one argument: centring removes it exactly
                alpha = p - delta - beta - beta2
                W[beta, beta2] = (factorial(p) / (factorial(alpha) * factorial(beta)
                                  * factorial(beta2) * factorial(delta)) * a**alpha)
        if W.any():
            S += C_delta * (Va @ W @ Vb.T)
    return S


def _projected_gram_arpack(K, Z, unit, k, center, random_state):
    """Top-k eigenpairs of G = K̃ − W diag(σ) Wᵀ by ARPACK, the rank-m update never applied.

    ``K`` is the kernel matrix, a private symmetric copy: it is centred *in place* (two
    passes, with the column means for both sides — K is symmetric) and G v = K̃v − W(σ∘Wᵀv)
    costs one product with K̃ (``symv`` on its lower triangle) and O(n·m) more.  The
    constraint factor is that of :func:`~fairlab._core.constraints.constraint_factor`.
    Returns (λ descending, V, T, σ, W), or None when ARPACK does not converge (``K`` then
    holds K̃, for the dense solver).
    """
    n = K.shape[0]
    if center:
        center_symmetric_gram_inplace(K)
    T, sigma, W = constraint_factor(K, Z, unit)
    Ws = W * sigma
    kernel_product = symmetric_matvec(K)  # K̃'s lower triangle: half the reads of K̃ @ v

    def matvec(v):
        v = np.ravel(v)
        y = kernel_product(v)
        if W.shape[1]:
            y -= Ws @ (W.T @ v)
        return y

    op = LinearOperator((n, n), matvec=matvec, rmatvec=matvec, dtype=np.float64)
    v0 = check_random_state(random_state).uniform(-1.0, 1.0, n)
    try:
        lam, V = eigsh(op, k=k, which="LA", v0=v0)
    except ArpackNoConvergence:
        return None
    order = np.argsort(lam)[::-1]
    return lam[order], flip_signs(V[:, order]), T, sigma, W


def _projected_gram(K, W, sigma):
    """Equation (2): G = K − KZ(ZᵀKZ)⁺ZᵀK = K − W diag(σ) Wᵀ, computed in place of ``K``.

    The correction is a rank-r product (O(n²m)), so G stays exactly symmetric.
    """
    if W.shape[1]:
        K -= (W * sigma) @ W.T
    return K


def _alg3_generalized(K, W, k, center, floor):
    """Algorithm 3 of Kleindessner et al., solved exactly on the range of RᵀKR (for comparison).

    R = orthonormal basis of null(ZᵀK) = range(W)^⊥ — with centring also orthogonal to 1,
    which lies in null(Kc) and would make both matrices of the pencil singular by
    construction.  The pencil RᵀKKR β = w RᵀKR β is reduced to the range of RᵀKR = V S Vᵀ
    (eigenvalues above ``floor``, the rounding level of the kernel matrix; below it K is zero
    to rounding and so is the numerator), where it is the standard problem Tᵀ(RᵀKKR)T with
    T = V S^{-1/2}.  Returns the top-k eigenvalues w (descending, zero-padded beyond the range)
    and the coefficients B = RTΛ (BᵀKB = I).
    """
    n = K.shape[0]
    basis = np.hstack([np.full((n, 1), n**-0.5), W]) if center else W
    Q = linalg.qr(basis, mode="economic")[0] if basis.shape[1] else basis
    R = complement_basis(Q)
    KR = K @ R
    H2 = R.T @ KR
    s, V = linalg.eigh((H2 + H2.T) / 2)
    keep = s > floor
    T = V[:, keep] / np.sqrt(s[keep])
    KRT = KR @ T
    w, L = linalg.eigh(KRT.T @ KRT)
    w, L = w[::-1][:k], L[:, ::-1][:, :k]
    B = R @ (T @ L)
    if w.shape[0] < k:  # fewer than k directions carry variance: zero columns, as the exact one
        w = np.concatenate([w, np.zeros(k - w.shape[0])])
        B = np.hstack([B, np.zeros((n, k - B.shape[1]))])
    return w, B


def _check_precomputed_gram(K):
    """Reject a precomputed training matrix that cannot be a Gram matrix, at O(n²) cost.

    Symmetry, a non-negative diagonal and |K_ij| ≤ √(K_ii K_jj) are necessary for positive
    semi-definiteness (a distance matrix fails the last two); eigenvalues are checked later
    on those the solver computes.
    """
    scale = np.abs(K).max(initial=0.0)
    if not np.allclose(K, K.T, rtol=1e-10, atol=1e-12 * scale):
        raise ValueError("kernel='precomputed': the training Gram matrix X is not symmetric.")
    diag = np.diag(K)
    bound = np.sqrt(np.clip(np.outer(diag, diag), 0.0, None)) + 1e-10 * scale
    if diag.min(initial=0.0) < -1e-10 * scale or np.any(np.abs(K) > bound):
        raise ValueError(
            "kernel='precomputed': X is not positive semi-definite (a Gram matrix has "
            "K_ii >= 0 and |K_ij| <= sqrt(K_ii K_jj)). Pass a kernel matrix such as "
            "exp(-gamma * D**2) for squared distances D, not distances or dissimilarities."
        )


def _nystroem_features(B, landmarks, nmap, params):
    """Nyström features k(B, L) W^{-1/2} of one row block."""
    return kernel_matrix(B, landmarks, **params) @ nmap


def _nystroem_embed(B, landmarks, nmap, params, mean, components, signs):
    """``transform`` (Nyström) of one row block."""
    return ((_nystroem_features(B, landmarks, nmap, params) - mean) @ components.T) * signs


class FairKernelPCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Fair kernel PCA: kernel PCA whose embedding has equal group means (Kleindessner et al. §3.3).

    Finds the k unit-norm directions of largest variance in the kernel feature space among
    those along which every sensitive group has the same mean (the kernelization of fair PCA,
    Algorithm 3 of Kleindessner et al., 2023), by kernel PCA of the projected Gram matrix
    G = Kc − KcZ(ZᵀKcZ)⁺ZᵀKc.  A linear model on the embedding is then uncorrelated with
    group membership; a non-linear kernel hides differences no linear projection can.

    Parameters
    ----------
    n_components : int, default=None
        Embedding dimension k, at most n − Σ_r(m_r − 1) (n − m + 1 for one attribute with m
        groups, as in Algorithm 3).  With ``center=True`` at most n − Σ_r(m_r − 1) − 1
        components carry variance; components beyond the rank of G are zero columns (as in
        scikit-learn's KernelPCA).  ``None`` keeps every component with a non-zero eigenvalue.
    kernel : {"rbf", "poly", "linear", "sigmoid", "cosine", "precomputed"}, default="rbf"
        Kernel k.  ``"precomputed"``: ``fit`` takes the n×n training Gram matrix and
        ``transform`` the (n_new, n) matrix k(X_new, X_train).
    gamma : float, {"scale", "auto"} or None, default=None
        Coefficient of the rbf, poly and sigmoid kernels.  ``None``/"scale" is
        1/(d·Var(X)) with the variance of all entries of the training X (the paper's choice,
        App. C.1, also scikit-learn's SVC default); "auto" is 1/d.
    degree : float, default=3
        Degree of the poly kernel.
    coef0 : float, default=1
        Independent term of the poly and sigmoid kernels.
    center : bool, default=True
        Centre the features (Kc = HKH), i.e. maximise variance.  ``False`` uses the uncentred
        K as every experiment of the paper does (the reference code's ``standardize=False``).
    eigen_solver : {"auto", "dense", "arpack", "randomized", "generalized"}, default="auto"
        How to get the top-k eigenpairs of G: ``"dense"`` (LAPACK, subset of indices),
        ``"arpack"`` (Lanczos) or ``"randomized"``; ``"auto"`` uses ARPACK when n > 500 and
        k < n/10, dense otherwise (the rule of every fairlab estimator for a kernel matrix,
        whose spectrum decays fast: :func:`fairlab._core.linalg.choose_eigen_solver`), and
        always dense for ``n_components=None``, which needs every eigenvalue.
        ``"generalized"`` runs the paper's Algorithm 3 instead (null space of ZᵀK,
        generalized eigenproblem), solved densely on the range of RᵀKR rather than with the
        paper's 1e-5 ridge, so that it returns the exact solver's eigenpairs to rounding;
        O(n³) and kept for comparison.
    approximation : {"nystroem"} or None, default=None
        ``"nystroem"``: fit linear :class:`~fairlab.FairPCA` on Nyström features for large n.
        ``eigen_solver`` is then ignored.  The only mode that accepts a dask array: the
        landmarks are drawn once (the same rows as in memory, by dask indexing), the features
        are computed block by block and fed to the dask :class:`~fairlab.FairPCA` (see Notes).
    n_landmarks : int, default=None
        Number of Nyström landmarks, drawn uniformly at random without replacement from the
        training rows (Williams & Seeger, 2001).  ``None`` means min(n, 1000).  Used only with
        ``approximation="nystroem"``.
    random_state : int, RandomState instance or None, default=None
        Seeds the ARPACK start vector, the randomized solver and the landmark draw.  ``None``
        is a fixed seed: refits give identical results.
    sensitive_type : {"categorical", "continuous", "auto"} or list of them, default="categorical"
        How each column of ``sensitive_features`` is read, as in :class:`~fairlab.FairPCA`.
        ``"categorical"``: group labels (centred one-hot columns in Z̃).  ``"continuous"``:
        the centred column s̃ = s − mean(s) joins Z̃, so the constraint Z̃ᵀΦcU = 0 says
        s̃ᵀΦcU = 0: every component's training scores have zero covariance with s
        (G = Kc − KcZ(ZᵀKcZ)⁺ZᵀKc with Z an orthonormal basis of span(Z̃)).  A two-valued
        column declared continuous gives exactly the categorical fit.  ``"auto"``: float
        columns continuous, others categorical (a ``pd.Categorical`` whatever its categories:
        :func:`fairlab._core.validation.auto_sensitive_kind`, the rule of every fairlab function);
        a list or tuple gives one type per column.
        The rank of the continuous columns is decided from the data (collinear columns count
        once), so ``n_components`` may reach n minus that rank.  Nyström passes it on to
        ``fair_pca_``.

    Attributes
    ----------
    n_components_ : int
        Number of components k of the embedding.
    eigenvalues_ : ndarray of shape (``n_components_``,)
        Variances λ_j of the training embedding along each axis (eigenvalues of G), descending.
        Equal to the squared norms of the training embedding's columns (also with Nyström).
    eigenvectors_ : ndarray of shape (n_samples, ``n_components_``)
        Unit eigenvectors v_j of G; the training embedding is v_j·√λ_j.  Not set with Nyström.
    dual_coef_ : ndarray of shape (n_samples, ``n_components_``)
        Representer coefficients c_j of equation (3):
        transform(x) = kc(x, X_train) @ ``dual_coef_``.
        Not set with Nyström.
    n_constraints_ : int
        Number of independent directions removed from the feature space (≤ Σ_r(m_r − 1);
        0 without ``sensitive_features``); with Nyström, ``fair_pca_.n_constraints_``.
    gamma_ : float or None
        The kernel coefficient used (None for kernels without one).
    solver_ : {"dense", "arpack", "randomized", "generalized", "svd"}
        The eigensolver that computed the components: what ``eigen_solver="auto"`` resolved
        to, ``"dense"`` when ARPACK did not converge (the dense solver then answers).  With
        Nyström, the solver of ``fair_pca_`` (``"dense"`` for its ``"full"``); ``"svd"`` for
        ``kernel="linear"`` (the SVD of the projected data, see Notes).
    X_fit_ : ndarray of shape (n_samples, n_features) or None
        Training data (``None`` for a precomputed kernel or with Nyström).
    landmark_indices_ : ndarray of shape (n_landmarks,)
        Nyström only: training rows used as landmarks.
    fair_pca_ : FairPCA
        Nyström only: the linear fair PCA fitted on the Nyström features.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Defined when X has string column names.

    See Also
    --------
    fairlab.FairPCA : the linear method; equal to this estimator with ``kernel="linear"``.
    sklearn.decomposition.KernelPCA : the unconstrained method (``sensitive_features=None``).

    Notes
    -----
    Exact solver (default), with Z̃ an orthonormal basis of the centred one-hot matrices of all
    attributes stacked (§3.4–3.5):

    1. Kc = HKH (or K with ``center=False``);
    2. G = Kc − KcZ̃(Z̃ᵀKcZ̃)⁺Z̃ᵀKc, equation (2) of the module docstring;
    3. (λ_j, v_j) = top-k eigenpairs of G; training embedding v_j√λ_j;
    4. ``dual_coef_`` c_j = (v_j − Z̃(Z̃ᵀKcZ̃)⁺Z̃ᵀKc v_j)/√λ_j; transform(x) = kc(x)ᵀ c_j.

    This maximises the same objective as Algorithm 3 (equation (7) of the paper) over the same
    feasible set, without its ridge and at the price of one n×n symmetric eigenproblem.

    ``kernel="linear"`` is solved on X itself, with no Gram matrix (module docstring, *Linear
    kernel*): the SVD of the centred data projected onto the fair directions, so that offsets
    (up to 1e8 spreads) and column scales (1e-6 … 1e6) cost no accuracy: the eigenvalues agree
    with an exact (60-digit) computation to 1e-8 relative.  ``eigen_solver`` is then ignored
    (``solver_`` is ``"svd"``) and ``transform(x)`` is (x − μ)ᵀU (U the unit axes).  Its
    component floor is that of the factor: a component is kept while its singular value
    exceeds max(n, d)·eps·σ₁ and its measured group means agree to τ = 1e-6 of its norm.
    Eigenvalues below 1e-12·λ₁ are treated as zero (their columns are 0), as in scikit-learn,
    and so are those below the rounding floor of G over a tolerance τ = 1e-6: the computed G
    is off by ‖ΔG‖₂ ≤ δ_G = n·unit·(1 + 2√(tr(K̃)/μ_min)) (unit = eps·max|K|, eps for rbf; μ_min
    the smallest eigenvalue of Z̃ᵀK̃Z̃ kept), and an eigenvector with eigenvalue λ has group
    means apart by up to ~δ_G/λ of its norm, so a component with λ ≤ δ_G/τ would not be fair at
    its own scale.  A kernel that is not positive semi-definite by construction (sigmoid, poly
    with coef0 < 0 or a non-integer degree) is fitted with a warning: its eigenvalues are no
    variances.
    The constraint holds on the *training* data: group means of transform(X_new) are not
    equal in general, only close when X_new is distributed like the training data.

    Dask arrays.  The exact solver needs the n×n Gram matrix, which no blockwise pass can
    avoid, so a dask array is refused unless ``approximation="nystroem"``.  Then: the
    landmark rows are drawn with the in-memory seed and fetched by dask indexing (with Var(X)
    for ``gamma=None``, in the same compute), the Nyström features k(x, L)W^{-1/2} are made
    block by block (never stored) and fitted by the dask :class:`~fairlab.FairPCA`, and one
    more pass finds the sign of each column and ``eigenvalues_``.  ``transform`` of a dask
    array is lazy.  ``kernel="precomputed"`` is not supported with dask.

    References
    ----------
    * M. Kleindessner, M. Donini, C. Russell, M. B. Zafar. "Efficient fair PCA for fair
      representation learning", AISTATS 2023, §3.3 and Algorithm 3.
    * B. Schölkopf, A. Smola, K.-R. Müller. "Nonlinear component analysis as a kernel
      eigenvalue problem", Neural Computation 10(5), 1998.
    * C. Williams, M. Seeger. "Using the Nyström method to speed up kernel machines",
      NIPS 2001.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab import FairKernelPCA
    >>> rng = np.random.default_rng(0)
    >>> z = np.repeat([0, 1], 50)
    >>> X = rng.normal(size=(100, 3)) + z[:, None]
    >>> fkpca = FairKernelPCA(n_components=2, kernel="rbf", gamma=0.5)
    >>> E = fkpca.fit_transform(X, sensitive_features=z)
    >>> E.shape
    (100, 2)
    >>> bool(np.allclose(E[z == 0].mean(0), E[z == 1].mean(0), atol=1e-10))
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "kernel": [StrOptions(set(KERNELS))],
        "gamma": [Interval(Real, 0, None, closed="neither"), StrOptions({"scale", "auto"}), None],
        "degree": [Interval(Real, 0, None, closed="left")],
        "coef0": [Real],
        "center": ["boolean"],
        "eigen_solver": [StrOptions({"auto", "dense", "arpack", "randomized", "generalized"})],
        "approximation": [StrOptions({"nystroem"}), None],
        "n_landmarks": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
        "sensitive_type": [StrOptions({"categorical", "continuous", "auto"}), list, tuple],
    }

    def __init__(
        self,
        n_components=None,
        *,
        kernel="rbf",
        gamma=None,
        degree=3,
        coef0=1,
        center=True,
        eigen_solver="auto",
        approximation=None,
        n_landmarks=None,
        random_state=None,
        sensitive_type="categorical",
    ):
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.center = center
        self.eigen_solver = eigen_solver
        self.approximation = approximation
        self.n_landmarks = n_landmarks
        self.random_state = random_state
        self.sensitive_type = sensitive_type

    # ------------------------------------------------------------------ fitting
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit the fair kernel PCA.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_samples) when
            ``kernel="precomputed"``
        y : ignored
        sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
            Group labels, one or several attributes (continuous ones as ``sensitive_type``
            says).  ``None`` fits plain kernel PCA and emits an
            :class:`~fairlab.UnconstrainedFallbackWarning`.

        Returns
        -------
        self : FairKernelPCA
        """
        if any_dask(X, sensitive_features):
            return self._fit_dask(X, sensitive_features)
        self._fit(X, sensitive_features)
        return self

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_transform(self, X, y=None, *, sensitive_features=None):
        """Fit and return the training embedding (v_j√λ_j), shape (n_samples, ``n_components_``).

        For a dask array (Nyström only) the embedding is a lazy dask array.
        """
        if any_dask(X, sensitive_features):
            return self._fit_dask(X, sensitive_features).transform(X)
        return self._fit(X, sensitive_features)

    _NUMERIC_PARAMS = ("gamma", "degree", "coef0", "n_landmarks", "random_state")

    def _fit(self, X, sensitive_features):
        reject_bool_params(self, self._NUMERIC_PARAMS)
        precomputed = self.kernel == "precomputed"
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        n = X.shape[0]
        if precomputed and X.shape[1] != n:
            raise ValueError(
                f"kernel='precomputed' needs the square (n_samples, n_samples) training Gram "
                f"matrix as X; got shape {X.shape}."
            )
        if precomputed:
            _check_precomputed_gram(X)
        self._warn_indefinite_kernel()

        if sensitive_features is None:
            warn_unconstrained(self, "kernel PCA")
            groups, Z = None, np.zeros((n, 0))
        else:
            sensitive = check_sensitive(sensitive_features, n, self.sensitive_type,
                                        min_group_size=2)
            groups = sensitive.groups
            # Orthonormal basis of the independent centred indicators (exact, no rank test),
            # and of the continuous columns (their rank decided by constraint_columns).
            Z = constraint_columns(sensitive)
        # Algorithm 3's bound k <= n − m + 1 (n − Σ_r(m_r − 1) for several attributes).  With
        # centring G has rank <= n − m, so the last admissible component is a zero column, as
        # in scikit-learn's KernelPCA for a request beyond the rank.
        k = check_n_components(
            self.n_components,
            n - Z.shape[1],
            bound_text=f"n_samples={n} minus {Z.shape[1]} constrained direction(s)",
        )
        self.gamma_ = (
            resolve_gamma(X, self.gamma) if self.kernel in GAMMA_KERNELS else None
        )
        self._linear = self._poly_mean = None
        if self.approximation == "nystroem":
            return self._fit_nystroem(X, sensitive_features, k, n_constraints=Z.shape[1])
        if self.kernel == "linear":
            return self._fit_linear(X, Z, k)
        return self._fit_exact(X, Z, groups, k)

    def _fit_linear(self, X, Z, k):
        """The exact solver for the linear kernel, on X itself (see Notes: *Linear kernel*).

        K̃ = FFᵀ with F = Xc (two-pass centred) or X (``center=False``), and the constraint
        vectors are A = XcᵀZ, so G = F P Fᵀ with P the projector onto range(A)^⊥ = range(Q⊥):
        its eigenpairs are the singular pairs of M = F Q⊥
        (:func:`~fairlab._core.constraints.linear_components`).  Axes u_j = Q⊥W_j (unit),
        ``transform(x) = (x − μ)ᵀu_j``, and ``dual_coef_``
        c_j = (v_j − Z A⁺Fᵀv_j)/√λ_j, equation (3) with ZᵀK̃Z = AᵀA and ZᵀK̃v = AᵀFᵀv.
        """
        n = X.shape[0]
        problem = linear_constraint(X, Z)
        mean, Xc, A, Q = problem.mean, problem.Xc, problem.A, problem.Q
        F = Xc if self.center else X
        scores, s, W, rank = linear_components(
            problem.project(Xc), Z, None if self.center else problem.project(mean[None, :])[0])
        kept = min(rank, k)
        V = scores[:, :kept] / s[:kept]
        if kept < k:  # beyond the rank: unit vectors of G's null space, zero eigenvalues
            V = np.hstack([V, complement_basis(linalg.qr(scores[:, :rank], mode="economic")[0])
                           [:, : k - kept]])
        signs = column_signs(V)
        V = V * signs
        lam = np.zeros(k)
        lam[:kept] = s[:kept] ** 2
        directions = np.zeros((X.shape[1], k))
        directions[:, :kept] = problem.directions(W[:, :kept] * signs[:kept])
        B = np.zeros((n, k))
        if kept:
            FtV = F.T @ V[:, :kept]
            if Q.shape[1]:  # A⁺ on the rank decided for A (Q spans its range)
                Ua, sa, Vat = thin_svd(np.ascontiguousarray(A))
                r = Q.shape[1]
                FtV = Vat[:r].T @ ((Ua[:, :r].T @ FtV) / sa[:r, None])
                B[:, :kept] = (V[:, :kept] - Z @ FtV) / s[:kept]
            else:
                B[:, :kept] = V[:, :kept] / s[:kept]
        if self.n_components is None:
            if not kept:
                raise ValueError(
                    "the projected kernel matrix is zero: no component carries variance "
                    "(constant features, or all variation explained by the groups)."
                )
            V, lam, directions, B = V[:, :kept], lam[:kept], directions[:, :kept], B[:, :kept]
        self._linear = (mean, directions, not self.center)
        self.X_fit_ = X
        self.solver_ = "svd"
        self.n_constraints_ = Q.shape[1]
        self._k_fit_rows = self._k_fit_all = None
        self.eigenvalues_ = lam
        self.eigenvectors_ = V
        self.dual_coef_ = B
        self.n_components_ = lam.shape[0]
        E = V * np.sqrt(lam)
        return E

    def _get_kernel(self, X, Y=None):
        return kernel_matrix(
            X, Y, kernel=self.kernel, gamma=self.gamma_, degree=self.degree, coef0=self.coef0
        )

    def _centred_poly(self):
        """Whether the poly kernel is centred through :func:`_poly_centred_terms`."""
        return (self.kernel == "poly" and self.center and float(self.degree) % 1 == 0
                and self.degree >= 1)

    def _fit_exact(self, X, Z, groups, k):
        self._poly_mean = None
        if self._centred_poly():  # the centred poly kernel without cancellation
            mean = X.mean(axis=0)
            mean = mean + (X - mean).mean(axis=0)
            K = _poly_centred_terms(X, X, mean, self.gamma_, self.coef0, self.degree)
            K = (K + K.T) / 2
            self._poly_mean = mean
        else:
            K = self._get_kernel(X)
        if self.kernel == "precomputed":
            K = (K + K.T) / 2
        # Centring statistics of KernelCenterer, reused for k(X_new, X_train) in transform.
        self._k_fit_rows = K.mean(axis=0)
        self._k_fit_all = self._k_fit_rows.mean()
        n = K.shape[0]
        unit = entry_rounding_unit(K, self.kernel)
        self.X_fit_ = None if self.kernel == "precomputed" else X
        keep_all_positive = self.n_components is None
        floor = gram_rounding_floor(n, unit)
        solver = "dense" if keep_all_positive else self.eigen_solver
        if solver == "auto":
            solver = choose_eigen_solver(n, k, spectrum="decaying")
        centred = False
        if solver == "arpack" and k < n - 1:  # G as an operator: no rank-m update formed
            found = _projected_gram_arpack(K, Z, unit, k, self.center,
                                           as_seed(self.random_state))
            if found is not None:
                lam, V, T, sigma, W = found
                self.solver_ = "arpack"
                self.n_constraints_ = T.shape[1]
                floor = component_floor(n, unit, float(np.trace(K)), T)
                return self._finish_exact(lam, V, Z, T, sigma, W, keep_all_positive, floor)
            solver, centred = "dense", self.center  # no convergence: dense solver on G below
        if self.center and not centred:
            K = center_gram(K)
        T, sigma, W = constraint_factor(K, Z, unit)
        self.n_constraints_ = T.shape[1]
        kept_floor = component_floor(n, unit, float(np.trace(K)), T)

        if self.eigen_solver == "generalized":
            self.solver_ = "generalized"
            lam, B = _alg3_generalized(K, W, k, self.center, floor)
            lam, B = self._drop_null_components(lam, B, keep_all_positive, kept_floor)
            B[:, lam == 0] = 0.0
            E = K @ B  # = (ΛᵀRᵀK)ᵀ of Algorithm 3, the training embedding
            signs = column_signs(E)  # the exact solver's convention, on the embedding
            B = B * signs
            V = (E * signs) / np.sqrt(np.where(lam > 0, lam, 1.0))
        else:
            G = _projected_gram(K, W, sigma)  # K is a private copy: G overwrites it
            lam, V, self.solver_ = top_eigh_route(G, k, solver=solver,
                                                  random_state=as_seed(self.random_state))
            return self._finish_exact(lam, V, Z, T, sigma, W, keep_all_positive, kept_floor)
        self.eigenvalues_ = lam
        self.eigenvectors_ = V
        self.dual_coef_ = B
        self.n_components_ = lam.shape[0]
        return V * np.sqrt(lam)

    def _warn_indefinite_kernel(self):
        """Warn when the kernel is not positive semi-definite by construction.

        Kernel PCA needs K = ΦΦᵀ: the sigmoid kernel tanh(γxᵀy + c₀), and the poly kernel
        with c₀ < 0 or a non-integer degree, have negative eigenvalues in general.  The
        embedding is then no projection of feature vectors, ``eigenvalues_`` are no variances
        (their sum can exceed tr(K̃)) and the fairness constraint, built on ZᵀK̃Z, can be
        indefinite too.
        """
        warn_if_indefinite(self.kernel, "the embedding is not a projection of feature vectors "
                           "and eigenvalues_ are not variances (their sum can exceed tr(K̃)).",
                           self.degree, self.coef0, stacklevel=6)

    def _finish_exact(self, lam, V, Z, T, sigma, W, keep_all_positive, floor):
        """Eigenpairs of G → attributes and the training embedding (steps 3–4 of the Notes)."""
        if self.kernel == "precomputed" and lam[-1] < -1e-8 * abs(lam[0]):
            raise ValueError(
                "kernel='precomputed': the training Gram matrix X is not positive "
                f"semi-definite (eigenvalue {lam[-1]:.3g} of the projected Gram matrix, "
                f"largest {lam[0]:.3g}). Pass a kernel matrix (e.g. exp(-gamma * D**2) for "
                "squared distances D), not distances or similarities."
            )
        lam, V = self._drop_null_components(lam, V, keep_all_positive, floor)
        # Equation (3): c_j = (v_j − Z T diag(σ) (KZT)ᵀ v_j)/√λ_j, zero for null eigenvalues.
        # (TᵀZᵀK v_j = Wᵀv_j since W = KZT: K itself is not needed.)
        C = V - Z @ (T @ (sigma[:, None] * (W.T @ V)))
        positive = lam > 0
        B = np.zeros_like(C)
        B[:, positive] = C[:, positive] / np.sqrt(lam[positive])
        self.eigenvalues_ = lam
        self.eigenvectors_ = V
        self.dual_coef_ = B
        self.n_components_ = lam.shape[0]
        return V * np.sqrt(lam)

    @staticmethod
    def _drop_null_components(lam, V, keep_all_positive, floor):
        """Zero the eigenvalues below 1e-12·λ₁ or ``floor`` (and negative ones).

        ``floor`` is the rounding level of the kernel matrix: when the constraint removes every
        direction the kernel has, G is zero up to rounding and λ₁ is noise itself.  With
        k=None the zero components are dropped.
        """
        cutoff = max(_SMALL_EIGENVALUE_RATIO * max(lam.max(initial=0.0), 0.0), floor)
        lam = np.where(lam > cutoff, lam, 0.0)
        if keep_all_positive:
            positive = lam > 0
            if not positive.any():
                raise ValueError(
                    "the projected kernel matrix is zero: no component carries variance "
                    "(constant features, or all variation explained by the groups)."
                )
            lam, V = lam[positive], V[:, positive]
        return lam, V

    def _landmark_indices(self, n):
        """The sorted rows drawn as Nyström landmarks (the same draw in memory and on dask)."""
        n_landmarks = min(n, _DEFAULT_N_LANDMARKS) if self.n_landmarks is None else self.n_landmarks
        if n_landmarks > n:
            raise ValueError(
                f"n_landmarks={n_landmarks} exceeds the {n} training rows; choose "
                f"n_landmarks <= {n}."
            )
        rng = check_random_state(as_seed(self.random_state))
        return np.sort(rng.choice(n, size=n_landmarks, replace=False))

    def _fit_nystroem(self, X, sensitive_features, k, n_constraints):
        from .pca import FairPCA  # imported here: fairlab.pca is only needed for Nyström

        n = X.shape[0]
        idx = self._landmark_indices(n)
        n_landmarks = idx.size
        if self.kernel == "precomputed":
            K_nl = X[:, idx]
            self._landmarks = None
        else:
            self._landmarks = X[idx]
            K_nl = self._get_kernel(X, self._landmarks)
        self._nystroem_map = nystroem_map(K_nl[idx])
        F = K_nl @ self._nystroem_map
        feasible = F.shape[1] - n_constraints
        if self.n_components is not None and k > feasible:
            raise ValueError(
                f"n_components={k} is too large for n_landmarks={n_landmarks}: the Nyström "
                f"features have rank {F.shape[1]}, so at most {feasible} fair components exist. "
                "Increase n_landmarks or lower n_components."
            )
        fair_pca = FairPCA(
            n_components=None if self.n_components is None else k,
            center=self.center,
            random_state=as_seed(self.random_state),
            sensitive_type=self.sensitive_type,
        )
        with warnings.catch_warnings():
            # We already warned about sensitive_features=None; do not warn twice.
            warnings.filterwarnings("ignore", message=".*sensitive_features=None")
            E = fair_pca.fit_transform(F, sensitive_features=sensitive_features)
        # FairPCA fixes signs in the (arbitrarily rotated) Nyström coordinates; fix them on the
        # embedding instead, as the exact solver does
        signs = column_signs(E)
        self._nystroem_signs = signs
        E = E * signs
        self.fair_pca_ = fair_pca
        self.solver_ = eigen_solver_name(fair_pca.solver_)
        self.landmark_indices_ = idx
        self.n_constraints_ = fair_pca.n_constraints_
        self.X_fit_ = None
        self.n_components_ = E.shape[1]
        # ‖E_j‖² = λ_j on the scale of the exact solver (where E_j = v_j√λ_j).
        self.eigenvalues_ = np.einsum("ij,ij->j", E, E)
        return E

    def _fit_dask(self, X, sensitive_features):
        """Nyström on a dask array: landmarks drawn once, features blockwise, dask FairPCA.

        Passes over X: one for the landmarks X[idx] (the in-memory draw: same seed, same rows)
        together with Var(X) when ``gamma`` is None/"scale"; one for the statistics of the
        dask :class:`~fairlab.FairPCA` on the Nyström features (computed block by block,
        never stored); one for the sign convention of the embedding and ``eigenvalues_``.
        """
        reject_bool_params(self, self._NUMERIC_PARAMS)
        self._linear = self._poly_mean = None
        if self.approximation != "nystroem":
            raise TypeError(
                "FairKernelPCA's exact solver needs the n×n Gram matrix of all rows, which a "
                "dask array is meant to avoid; use approximation='nystroem' (Nyström features "
                "computed blockwise), or pass X.compute() for data that fit in memory."
            )
        if self.kernel == "precomputed":
            raise TypeError(
                "kernel='precomputed' with a dask array is not supported: pass the data and a "
                "kernel name, so that the Nyström features are computed blockwise."
            )
        from .pca import FairPCA

        dask, _ = import_dask()
        X, _, _ = dask_inputs(self, X)
        n, d = X.shape
        if n < 2:
            raise ValueError(f"Found array with {n} sample(s) while a minimum of 2 is required.")
        idx = self._landmark_indices(n)
        has_gamma = self.kernel in GAMMA_KERNELS
        by_variance = has_gamma and (self.gamma is None or self.gamma == "scale")
        wanted = [X[idx]] + ([X.var()] if by_variance else [])
        found = dask.compute(*wanted)
        landmarks = np.ascontiguousarray(found[0], dtype=np.float64)
        if by_variance:
            var = float(found[1])
            self.gamma_ = 1.0 / (d * var) if var > 0 else 1.0
        else:
            self.gamma_ = resolve_gamma(landmarks, self.gamma) if has_gamma else None
        self._landmarks = landmarks
        self._nystroem_map = nystroem_map(self._get_kernel(landmarks, landmarks))
        params = self._kernel_params()
        F = map_rows(X, _nystroem_features, self._nystroem_map.shape[1], landmarks,
                     self._nystroem_map, params)
        fair_pca = FairPCA(n_components=self.n_components, center=self.center,
                           random_state=as_seed(self.random_state),
                           sensitive_type=self.sensitive_type)
        if sensitive_features is None:
            warn_unconstrained(self, "kernel PCA")
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*sensitive_features=None")
            fair_pca.fit(F, sensitive_features=sensitive_features)
        E = fair_pca.transform(F)
        top, bottom, squares = dask.compute(E.max(axis=0), E.min(axis=0), (E**2).sum(axis=0))
        self._nystroem_signs = signs_of_extremes(top, bottom)  # the in-memory convention
        self.fair_pca_ = fair_pca
        self.solver_ = eigen_solver_name(fair_pca.solver_)
        self.landmark_indices_ = idx
        self.n_constraints_ = fair_pca.n_constraints_
        self.X_fit_ = None
        self.n_components_ = fair_pca.n_components_
        self.eigenvalues_ = np.asarray(squares, dtype=np.float64)
        return self

    def _kernel_params(self):
        return {"kernel": self.kernel, "gamma": self.gamma_, "degree": self.degree,
                "coef0": self.coef0}

    # --------------------------------------------------------------- transform
    def transform(self, X):
        """Embed new data: kc(X, X_train) @ ``dual_coef_`` (centred with the training statistics).

        Parameters
        ----------
        X : array-like of shape (n_new, n_features), or (n_new, n_samples_fit) when
            ``kernel="precomputed"`` (the kernel between the new and the training rows)

        Returns
        -------
        X_new : ndarray of shape (n_new, ``n_components_``)
        """
        check_is_fitted(self)
        if is_dask(X):
            if self.approximation != "nystroem" or self.kernel == "precomputed":
                raise TypeError(
                    "transform of a dask array needs approximation='nystroem' (and a kernel "
                    "name); the exact solver embeds through k(X_new, X_train)."
                )
            A = dask_transform_input(self, X)
            pca = self.fair_pca_
            return map_rows(A, _nystroem_embed, self.n_components_, self._landmarks,
                            self._nystroem_map, self._kernel_params(), pca.mean_,
                            pca.components_, self._nystroem_signs)
        if self.kernel == "precomputed":
            shape = np.shape(X)
            if len(shape) == 2 and shape[1] != self.n_features_in_:
                raise ValueError(
                    f"kernel='precomputed': transform needs k(X_new, X_train) of shape "
                    f"(n_new, {self.n_features_in_}), one column per training row; got {shape}."
                )
        X = check_transform_input(self, X)
        if self.approximation == "nystroem":
            if self.kernel == "precomputed":
                K_nl = X[:, self.landmark_indices_]
            else:
                K_nl = self._get_kernel(X, self._landmarks)
            return self.fair_pca_.transform(K_nl @ self._nystroem_map) * self._nystroem_signs
        if getattr(self, "_linear", None) is not None:  # the linear kernel, on X itself
            mean, directions, uncentred = self._linear
            E = (X - mean) @ directions
            return E + mean @ directions if uncentred else E  # xᵀu = (x − μ)ᵀu + μᵀu
        if getattr(self, "_poly_mean", None) is not None:
            K = _poly_centred_terms(X, self.X_fit_, self._poly_mean, self.gamma_, self.coef0,
                                    self.degree)
        else:
            K = self._get_kernel(X, self.X_fit_) if self.kernel != "precomputed" else X
        if self.center:
            K = center_cross_gram(K, self._k_fit_rows, self._k_fit_all,
                                  overwrite=kernel_matrix_is_new(self.kernel))
        return K @ self.dual_coef_

    @property
    def _n_features_out(self):
        return self.n_components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        return tags
