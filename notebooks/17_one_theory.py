# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # One theory for three papers: constraint, ratio and penalty
#
# The three papers of this book solve one problem in three ways. Fair PCA
# {cite}`kleindessner2023efficient` imposes a linear **constraint**: equal projected group means. Fair
# dimensionality reduction (FDR, KFDR) {cite}`perezsuay2017fair` maximises a **ratio** of two HSICs.
# Fair PLS {cite}`dediego2025pls` and fair linear and kernel regression (FLR, FKR)
# {cite}`perezsuay2017fair` subtract a **penalty**, weighted by $\eta$ or $\mu$. The concept-erasure
# methods that Kleindessner et al. compare against, SAL {cite}`shao2023gold`, LEACE
# {cite}`belrose2023leace`, INLP {cite}`ravfogel2020null` and R-LACE {cite}`ravfogel2022linear`, sit
# beside them. This chapter shows that the exact linear members of all these families live in one
# subspace of $\mathbb R^d$. It proves where the ratio and the penalty end up when their knob goes to
# its limit, and how fast they get there. It then collects what each method of `fairlab` provably
# removes, and at what cost. It ends with a practitioner's guide and a worked example on German credit.
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. name the *fair subspace* $\mathcal N$ and explain why every exact linear method picks its
#    directions inside it;
# 2. derive the limits $\eta\to\infty$ (Fair PLS), $\mu\to\infty$ (FLR) and ridge $\to 0$ (FDR), and
#    their rates;
# 3. tell LEACE's oblique projection from Fair PCA's orthogonal one, and say what each guarantees;
# 4. choose a method for a problem from the guarantees table and the decision table.
#
# **Prerequisites.** {doc}`04_fair_pca_derivation` (Fair PCA), {doc}`07_fair_regression_toy` and
# {doc}`08_sinusoid` (FLR, FKR, FDR and the limit of FDR's ridge), {doc}`10_fair_pls` (Fair PLS) and
# {doc}`03_measuring_fairness` (cross-covariance, linear guardedness and HSIC). The maths needed:
# linear algebra at the level of null spaces, orthogonal and oblique projections, generalized
# eigenproblems and the Woodbury identity; the Davis–Kahan perturbation theorem is quoted, not proved.
#
# **Time.** About 90 minutes to read and work through (the proofs are most of it); the notebook runs
# in {{ run_time_17 }} at its defaults.
#
# {{ run_it }}
# :::
#
# **Notation** (as in {doc}`the notation page <../book/notation>`). $\tilde X$ is the centred data. For a
# categorical attribute, $\tilde S\in\mathbb R^{n\times q}$ holds $q = m-1$ of its centred
# indicators; they span the same space as the $m$ columns of $\tilde Z$. A continuous attribute enters
# as its centred columns. The matrix
#
# $$
# \begin{gathered}
# G = \tilde X^\top\tilde S \in \mathbb R^{d\times q}, \qquad r = \operatorname{rank} G \le q,\\
# \mathcal N = \{v\in\mathbb R^d : G^\top v = 0\} = \operatorname{range}(G)^\perp
# \end{gathered}
# $$
#
# holds $n$ times the cross-covariances of the features with the sensitive columns.
# $C = \tilde X^\top\tilde X$ is the scatter matrix and $\Sigma = C/(n-1)$ the covariance.

# %% tags=["parameters"]
seed = 0             # random seed of the synthetic examples and of the train/test splits
n_samples = 400      # rows of the synthetic examples
n_features = 6       # dimension d of the synthetic examples
n_groups = 3         # number of groups m of the synthetic sensitive attribute
n_components = 2     # target dimension k of the synthetic examples
n_splits = 3         # random train/test splits of German credit in the worked example
worked_k = 10        # number of components of the representations in the worked example

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from fairlearn.preprocessing import CorrelationRemover
from scipy.linalg import null_space, subspace_angles
from sklearn.cross_decomposition import PLSRegression
from sklearn.decomposition import PCA
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.preprocessing import FunctionTransformer

from fairlab import (
    FairDR,
    FairLinearRegression,
    FairPCA,
    FairPLS,
    check_parameters,
    evaluation,
    metrics,
    plotting,
    published,
)
from fairlab.baselines import INLP, LEACE, RLACE, SAL, OracleLEACE
from fairlab.datasets import load_german

check_parameters(globals(), seed=int, n_samples=int, n_features=int, n_groups=int,
                 n_components=int, n_splits=int, worked_k=int)

plotting.book_style()
rng = np.random.default_rng(seed)

# %% [markdown]
# (sec-theory-fair-subspace)=
# ## The fair subspace
#
# ```{prf:proposition} The fair subspace
# :label: prop-theory-fair-subspace
#
# Let $A\in\mathbb R^{d\times k}$ be a linear map and $T = \tilde XA$ the training scores. Then
# $\operatorname{Cov}(T, S) = \tfrac1n T^\top\tilde S = 0$ if and only if
# $\operatorname{range}(A)\subseteq\mathcal N$. The fair subspace has dimension
# $d - r \ge d - q$. For a categorical $S$, $T^\top \tilde S = 0$ means that every column of $T$ has
# the same mean in every group ({prf:ref}`prop-cov-means`). A linear classifier of the group then has
# nothing to learn ({prf:ref}`prop-linear-guard`), and the HSIC with linear kernels between $T$ and
# $S$ is zero ({prf:ref}`prop-hsic-cov2`).
# ```
#
# ```{prf:proof}
# $T^\top\tilde S = A^\top\tilde X^\top\tilde S = A^\top G$. This vanishes exactly when every column
# of $A$ is orthogonal to every column of $G$, i.e. lies in $\operatorname{range}(G)^\perp = \mathcal N$.
# By rank–nullity, $\dim\mathcal N = d - \operatorname{rank}G$.
# ```
#
# So an exact linear method has no freedom in *what* it removes: it must pick its directions in
# $\mathcal N$. The methods differ in *which* directions of $\mathcal N$ they pick, and how they weigh
# them:
#
# * a **constraint** optimises over maps with $\operatorname{range}(A)\subseteq\mathcal N$ directly
#   (Fair PCA, SAL, LEACE, Fair PLS with $\eta=\infty$, FDR with `ridge=0`);
# * a **ratio** $v^\top Mv / v^\top GG^\top v$ is $+\infty$ exactly on $\mathcal N$, so it is a
#   constraint in disguise, which the ridge $\varepsilon$ of the denominator softens (FDR, KFDR);
# * a **penalty** $f(v) - \eta\lVert G^\top v\rVert^2$ is the classical quadratic-penalty method: it
#   tends to the constraint as $\eta\to\infty$, with an error of order $1/\eta$ (Fair PLS, FLR, FKR).
#
# The synthetic data below have $m$ groups that shift the mean of correlated features, and a target
# $y$ that depends on all features. The group labels are strings. FLR and FDR read integer codes as
# *one continuous* column, which is a legitimate choice for a continuous $S$. For a categorical
# attribute with more than two groups, pass labels (strings, categories) instead.

# %%
d, m, k = n_features, n_groups, n_components
codes = rng.integers(0, m, n_samples)
groups = np.array([f"g{c}" for c in codes])
X = (rng.normal(size=(n_samples, d)) @ rng.normal(size=(d, d))
     + 1.5 * rng.normal(size=(m, d))[codes] + 2.0)
y = X @ rng.normal(size=d) + 0.5 * rng.normal(size=n_samples)

Xc = X - X.mean(axis=0)
Z = pd.get_dummies(groups, drop_first=True, dtype=float).to_numpy()
Sc = Z - Z.mean(axis=0)      # the m - 1 independent centred indicators
G = Xc.T @ Sc                # d x (m - 1)
N = null_space(G.T)          # orthonormal basis of the fair subspace
r = d - N.shape[1]
angle = lambda A, B: np.sin(subspace_angles(A, B)).max()   # distance of two column spans
print(f"d = {d}, r = rank G = {r}, dim N = {N.shape[1]}")

# %% [markdown]
# Every method below is fitted on these rows. For each one, the check is whether its training output
# $T$ has zero cross-covariance with the groups, relative to the sizes of $T$ and $\tilde S$. By the
# proposition, the check is equivalent to asking whether the method's linear map lies in $\mathcal N$.
# Fair PLS with $\eta = 1$, INLP and R-LACE are included as methods without an exact guarantee. INLP
# removes the weight vectors of group classifiers, and R-LACE the solution of a minimax game; neither
# is the range of $G$. Oracle LEACE is not a map of $x$ alone: it also reads the group at transform
# time. It is still exact on its training rows.

# %%
outputs = {
    "PCA (no fairness)": PCA(k).fit_transform(X),
    "Fair PCA": FairPCA(k).fit_transform(X, sensitive_features=groups),
    "SAL": SAL(k).fit_transform(X, sensitive_features=groups),
    "LEACE": LEACE(k).fit_transform(X, sensitive_features=groups),
    "Oracle LEACE (d columns)": OracleLEACE().fit_transform(X, sensitive_features=groups),
    "Fair PLS, eta = inf": FairPLS(k, eta=np.inf).fit(X, y, sensitive_features=groups).transform(X),
    "Fair PLS, eta = 1": FairPLS(k, eta=1.0).fit(X, y, sensitive_features=groups).transform(X),
    "FDR, ridge = 0": FairDR(k, ridge=0).fit_transform(X, sensitive_features=groups),
    "INLP": INLP(k).fit_transform(X, sensitive_features=groups),
    "R-LACE": RLACE(k, max_iter=1000, random_state=seed).fit_transform(X, sensitive_features=groups),
}
leak = pd.Series({
    name: np.linalg.norm((T - T.mean(axis=0)).T @ Sc)
    / (np.linalg.norm(T - T.mean(axis=0)) * np.linalg.norm(Sc))
    for name, T in outputs.items()
})
(leak < 1e-10).rename("Cov(T, S) = 0 to rounding").to_frame()

# %% [markdown]
# ## The constraint: Fair PCA is PCA after the orthogonal eraser
#
# Let $Q$ be an orthonormal basis of $\operatorname{range}(G)$ and $P = I - QQ^\top$ the orthogonal
# projector onto $\mathcal N$.
#
# ```{prf:proposition} SAL followed by PCA is Fair PCA
# :label: prop-theory-sal
#
# SAL with the centred cross-covariance $\tilde X^\top\tilde Z$ and its default number of removed
# directions, $r$, outputs $xP$. PCA of that output to $k\le d-r$ components is Fair PCA$(k)$
# (when the $k$-th and $(k+1)$-th eigenvalues differ), and so is LEACE with `method="orthogonal"`,
# the same projection taken around the mean. The published SAL code does not centre: it removes $\operatorname{range}(X^\top Z)$ instead, which for one attribute
# has $m$ directions, not $m - 1$. PCA after that removal is in general *not* Fair PCA.
# ```
#
# ```{prf:proof}
# The $m$ columns of $\tilde Z$ and the $q = m-1$ columns of $\tilde S$ span the same space, so
# $\operatorname{range}(\tilde X^\top\tilde Z) = \operatorname{range}(G)$. SAL's $r$ leading left
# singular vectors span it, and SAL's projection is $P$. The erased data have covariance $P\Sigma P$.
# Its eigenvectors with a positive eigenvalue lie in $\operatorname{range}(P) = \mathcal N$, and on
# $\mathcal N$ the quadratic forms of $P\Sigma P$ and $\Sigma$ agree. So the top $k$ eigenvectors of
# $P\Sigma P$ maximise $\operatorname{tr}(U^\top\Sigma U)$ over orthonormal $U$ with
# $U^\top G = 0$, which is the centred Fair PCA problem. Uncentred,
# $X^\top z_g = \tilde X^\top\tilde z_g + n_g\bar x$, so
# $\operatorname{range}(X^\top Z) = \operatorname{range}(G) + \operatorname{span}(\bar x)$, which has
# dimension $r + 1$ unless $\bar x$ happens to lie in $\operatorname{range}(G)$. SAL's PCA step then
# also avoids the component of $\bar x$ orthogonal to $\operatorname{range}(G)$, a restriction that
# Fair PCA does not have.
# ```
#
# The proposition suggested for this chapter said "SAL removing the $m-1$ cross-covariance directions,
# followed by PCA, is Fair PCA". That holds for the centred cross-covariance (`SAL(center=True)`, the
# default). With the published, uncentred one, SAL removes $m$ directions and the result differs.

# %%
fair = FairPCA(k).fit(X, sensitive_features=groups)
candidates = {
    "SAL(k)": SAL(k).fit(X, sensitive_features=groups).components_,
    "LEACE(k, orthogonal)":
        LEACE(k, method="orthogonal").fit(X, sensitive_features=groups).components_,
    "PCA(k) of SAL() output":
        PCA(k).fit(SAL().fit_transform(X, sensitive_features=groups)).components_,
    "SAL(k, center=False)": SAL(k, center=False).fit(X, sensitive_features=groups).components_,
}
for name, V in candidates.items():
    print(f"{name:24s} spans Fair PCA's subspace: {angle(fair.components_.T, V.T) < 1e-10}")
print("directions removed by SAL(center=False):",
      SAL(center=False).fit(X, sensitive_features=groups).n_removed_, "| by Fair PCA:", r)

# %% [markdown]
# ### Same information, different geometry
#
# An eraser $e(x) = \mu + P_e(x-\mu)$ has zero cross-covariance on its training data exactly when the
# rows of $P_e$ lie in $\mathcal N$. Apply {prf:ref}`prop-theory-fair-subspace` to $A = P_e^\top$.
#
# ```{prf:proposition} All rank-$(d-r)$ linear erasers carry the same information
# :label: prop-theory-same-information
#
# If $P_eG = 0$ and $\operatorname{rank}P_e = d - r$ (LEACE, SAL, the orthogonal eraser), then
# $P_e = MN^\top$ for an injective $M\in\mathbb R^{d\times(d-r)}$, where $N$ is an orthonormal basis
# of $\mathcal N$. The $d$-dimensional output of any such eraser is therefore an injective linear
# image of the Fair PCA coordinates $N^\top(x-\mu)$, i.e. of `FairPCA(d - r)` up to a rotation. A
# learner that is invariant under injective linear maps of its inputs gives the same predictions on
# all of them; OLS and unpenalised logistic regression are such learners. Learners that use the
# geometry of the input space do not: ridge, PCA, RBF kernels and nearest neighbours.
# ```
#
# ```{prf:proof}
# The row space of $P_e$ lies in $\mathcal N$ and has dimension $d - r = \dim\mathcal N$, so it *is*
# $\mathcal N$. Hence $P_e = P_eNN^\top$, and $M = P_eN$ has rank $d-r$. For OLS with an intercept,
# the fitted values are the projection of $y$ onto $\operatorname{span}(\mathbf 1, \tilde XNM^\top)$.
# Since $M^\top$ is onto, this is $\operatorname{span}(\mathbf 1, \tilde XN)$, whatever $M$ is. The
# same argument holds for any learner whose fit only depends on the column span of its inputs.
# ```

# %%
erased = {
    "LEACE": LEACE().fit_transform(X, sensitive_features=groups),
    "orthogonal eraser": LEACE(method="orthogonal").fit_transform(X, sensitive_features=groups),
    "Fair PCA(d - r) coordinates": FairPCA(d - r).fit_transform(X, sensitive_features=groups),
}
for model in [LinearRegression(), Ridge(alpha=10.0)]:
    fitted = [model.fit(E, y).predict(E) for E in erased.values()]
    same = all(np.abs(f - fitted[0]).max() < 1e-8 * np.abs(y).max() for f in fitted[1:])
    print(f"{type(model).__name__:16s} same predictions on the three erased inputs: {same}")

# %% [markdown]
# ### Oblique or orthogonal: LEACE and Fair PCA
#
# LEACE {cite}`belrose2023leace` and the orthogonal eraser remove the same directions, but they put
# the data back in different places.
#
# ```{prf:proposition} LEACE's oblique projection and Fair PCA's orthogonal one
# :label: prop-theory-leace-oblique
#
# Let $\Sigma\succ 0$. Both erasers move a point along $\operatorname{range}(G)$ only, so
# $e(x) - x\in\operatorname{range}(G)$:
#
# 1. the orthogonal eraser projects $x-\mu$ onto $\mathcal N = \operatorname{range}(G)^\perp$;
# 2. LEACE projects $x - \mu$ onto $(\Sigma^{-1}\operatorname{range}G)^\perp$ along
#    $\operatorname{range}(G)$. This is the orthogonal projection for the inner product
#    $\langle u, v\rangle = u^\top\Sigma^{-1}v$, i.e. in whitened coordinates;
# 3. the two coincide if and only if $\Sigma\operatorname{range}(G) = \operatorname{range}(G)$, i.e. the
#    group directions span an invariant subspace of the covariance;
# 4. both outputs have zero cross-covariance with $S$ on the training data. LEACE moves the data least,
#    in the sense that it minimises $E\lVert e(X) - X\rVert_M^2$ for every positive semi-definite $M$ among
#    the affine erasers of $x$ with that property; Oracle LEACE, which also reads $s$, moves them no
#    more. The orthogonal eraser is the only one that is an orthogonal projection, and the PCA of its
#    output, Fair PCA, maximises $\operatorname{tr}(U^\top\Sigma U)$ over orthonormal $k$-frames in
#    $\mathcal N$.
#
# In general, then, `LEACE(k)` (PCA after LEACE) and `FairPCA(k)` are different $k$-dimensional
# representations. The first keeps the erased data closest to the original, the second keeps the
# most variance. Both are linearly guarded.
# ```
#
# ```{prf:proof}
# With $W = \Sigma^{-1/2}$ and $U$ an orthonormal basis of $\operatorname{range}(W\Sigma_{XS})$,
# LEACE is $e(x) = x - W^{-1}UU^\top W(x-\mu)$ {cite}`belrose2023leace`. The removed part
# $W^{-1}UU^\top W(x-\mu)$ lies in $W^{-1}\operatorname{range}(W\Sigma_{XS}) = \operatorname{range}(G)$,
# since $\Sigma_{XS}\propto G$. It vanishes when $U^\top W(x-\mu) = 0$, that is, when $x - \mu\perp
# W^2\Sigma_{XS}$, or equivalently $x - \mu\in(\Sigma^{-1}\operatorname{range}G)^\perp$. This gives 1
# and 2. A projection is determined by its range and its kernel. The two projections have the same
# kernel, $\operatorname{range}(G)$, so they coincide iff their ranges agree, i.e.
# $\Sigma^{-1}\operatorname{range}(G) = \operatorname{range}(G)$, which is 3. For 4, zero
# cross-covariance is {prf:ref}`prop-theory-fair-subspace` with $A = P_e^\top$; LEACE's optimality is
# Theorem 1 of {cite}`belrose2023leace`; Fair PCA's optimality is its definition together with
# {prf:ref}`prop-theory-sal`.
# ```
#
# Numerically: the removed directions agree; the displacements are ordered as the proposition says;
# the variance of the LEACE$(k)$ subspace is below that of Fair PCA; and the two $k$-dimensional
# subspaces differ.

# %%
leace = LEACE().fit(X, sensitive_features=groups)
ortho = LEACE(method="orthogonal").fit(X, sensitive_features=groups)
oracle = OracleLEACE().fit(X, sensitive_features=groups)
print("same removed directions:",
      angle(leace.removed_directions_.T, ortho.removed_directions_.T) < 1e-10)
moved = {
    "orthogonal": np.sum((ortho.transform(X) - X) ** 2),
    "LEACE": np.sum((leace.transform(X) - X) ** 2),
    "oracle": np.sum((oracle.transform(X, sensitive_features=groups) - X) ** 2),
}
print("displacement (orthogonal eraser = 1):",
      ", ".join(f"{name} {v / moved['orthogonal']:.2f}" for name, v in moved.items()))
print("oracle <= LEACE <= orthogonal:", moved["oracle"] <= moved["LEACE"] <= moved["orthogonal"])

leace_k = LEACE(k).fit(X, sensitive_features=groups)
U_leace = np.linalg.qr(leace_k.projection_.T @ leace_k.components_.T)[0]  # span of the k-dim map
var = {"Fair PCA(k)": metrics.explained_variance(X, fair.components_),
       "LEACE(k)": metrics.explained_variance(X, U_leace.T)}
print("explained variance:", ", ".join(f"{name} {v:.3f}" for name, v in var.items()))
print("LEACE(k) spans Fair PCA's subspace:", angle(U_leace, fair.components_.T) < 1e-10)

# %% [markdown]
# The condition of item 3 can be built in: put the group signal in the first $m-1$ coordinates, and
# make the remaining coordinates exactly uncorrelated with them and with the groups. The covariance is
# then block-diagonal, $\operatorname{range}(G)$ is the span of the first block, and LEACE, the
# orthogonal eraser and Fair PCA all agree.

# %%
Xi = rng.normal(size=(n_samples, d)) * np.linspace(3.0, 1.0, d)
Xi[:, : m - 1] += 2.0 * Sc                        # the group signal lives in the first m - 1 features
B = np.column_stack([Xi[:, : m - 1], Sc])
B -= B.mean(axis=0)
rest = Xi[:, m - 1:] - Xi[:, m - 1:].mean(axis=0)
Xi[:, m - 1:] = rest - B @ np.linalg.lstsq(B, rest, rcond=None)[0]   # uncorrelated with block and groups

fair_i = FairPCA(k).fit(Xi, sensitive_features=groups)
leace_i = LEACE(k).fit(Xi, sensitive_features=groups)
U_i = np.linalg.qr(leace_i.projection_.T @ leace_i.components_.T)[0]
print("invariant case, LEACE(k) spans Fair PCA's subspace:",
      angle(U_i, fair_i.components_.T) < 1e-10)
moved_i = [np.sum((LEACE(method=meth).fit_transform(Xi, sensitive_features=groups) - Xi) ** 2)
           for meth in ["leace", "orthogonal"]]
print("invariant case, LEACE moves as much as the orthogonal eraser:",
      abs(moved_i[0] - moved_i[1]) < 1e-10 * moved_i[1])

# %% [markdown]
# ## The penalty: $\mu\to\infty$ and $\eta\to\infty$
#
# In this section and the next, $G = \tilde X^\top\tilde S$ is formed with each method's own encoding
# of $S$: FLR and FDR use all $m$ centred indicators, and Fair PLS weights them. All these encodings
# span the same space, so $\operatorname{range}(G)$ and $\mathcal N$ are those of
# {numref}`Section %s <sec-theory-fair-subspace>`.
#
# ### Fair linear regression
#
# FLR {cite}`perezsuay2017fair` minimises
# $\lVert\tilde Y - \tilde XW\rVert^2 + \alpha\lVert W\rVert^2 + t\lVert G^\top W\rVert^2$ with $t=\mu/n^2$.
# The penalty is the linear-kernel HSIC, i.e. Cov², of the predictions with $S$. Write
# $A = \tilde X^\top\tilde X + \alpha I$ and $W_0 = A^{-1}\tilde X^\top\tilde Y$ for the ridge solution,
# and $G^\top A^{-1}G = E\Delta E^\top$ with $\Delta = \operatorname{diag}(\delta_j)$.
#
# ```{prf:proposition} FLR tends to ridge regression on the Fair PCA coordinates
# :label: prop-theory-flr-limit
#
# Let $\alpha > 0$ and let $W(\infty)$ minimise the FLR loss subject to $G^\top W = 0$. Then
#
# 1. $W(\infty) = N(N^\top\tilde X^\top\tilde XN + \alpha I)^{-1}N^\top\tilde X^\top\tilde Y$. This is
#    ridge regression, with the same $\alpha$ and with intercepts, on the Fair PCA coordinates
#    `FairPCA(d - r).transform(X)`, or equivalently on the output of SAL or of the orthogonal eraser;
# 2. $W(t) - W(\infty) = A^{-1}GE\,\operatorname{diag}\bigl(\tfrac{1}{\delta_j(1+t\delta_j)}\bigr)E^\top G^\top W_0$
#    over the $\delta_j>0$. The error therefore decays like $1/\mu$: the log–log slope is $-1$.
# ```
#
# ```{prf:proof}
# 1. Feasible $W$ are $W = N\beta$, and $\lVert N\beta\rVert = \lVert\beta\rVert$, so the problem is
#    ridge regression of $\tilde Y$ on $\tilde XN$. The Fair PCA coordinates are $\tilde XNR$ for an
#    orthogonal $R$, because the $d - r$ components span $\mathcal N$. Ridge regression is equivariant
#    under orthogonal changes of the inputs. The FLR intercept $\bar y - \bar x^\top W$ and the ridge
#    intercept of centred coordinates, $\bar y$, give the same predictions. The orthogonal eraser
#    outputs $\tilde XP = \tilde XNN^\top$, and ridge on it has the same solution by the same argument.
# 2. By Woodbury ({ref}`ex-fkl-path`),
#    $W(t) = W_0 - A^{-1}GE\operatorname{diag}(\tfrac{t}{1+t\delta_j})E^\top G^\top W_0$. The limit
#    $W(\infty) = W_0 - A^{-1}GE\Delta^{-1}E^\top G^\top W_0$ satisfies $G^\top W(\infty) = 0$, and
#    $AW(\infty) - \tilde X^\top\tilde Y \in\operatorname{range}(G)$, which are the KKT conditions of the
#    constrained problem. Subtracting gives item 2, because
#    $\tfrac1\delta - \tfrac{t}{1+t\delta} = \tfrac{1}{\delta(1+t\delta)}\le\tfrac{1}{t\delta^2}$.
# ```

# %%
alpha = 1.0
E_fair = FairPCA(d - r).fit_transform(X, sensitive_features=groups)
pred_limit = Ridge(alpha=alpha).fit(E_fair, y).predict(E_fair)
mus = n_samples**2 * np.logspace(-2, 5, 15)
flr_path = FairLinearRegression(alpha=alpha).fit_path(X, y, mus, sensitive_features=groups)
flr_err = (np.array([np.abs(f.predict(X) - pred_limit).max() for f in flr_path])
           / np.abs(pred_limit).max())
tail = mus >= 10 * n_samples**2
flr_slope = np.polyfit(np.log10(mus[tail]), np.log10(flr_err[tail]), 1)[0]
print("log-log slope of the FLR error:", round(flr_slope, 1))
print("at the largest mu, FLR = ridge on the Fair PCA coordinates to 1e-5:", flr_err[-1] < 1e-5)

# %% [markdown]
# ### Not the correlation remover
#
# The suggested statement for this section was "FLR with $\mu\to\infty$ approaches ridge regression
# on $X$ decorrelated from $S$", i.e. on the output of fairlearn's `CorrelationRemover`, which
# `fairlab.baselines.OracleLEACE` reproduces. **As stated, it is false.** The correlation remover
# subtracts from every *row* the part that $s$ predicts, $X_\perp = (I - P_S)\tilde X$, where $P_S$ is
# the orthogonal projector onto $\operatorname{range}(\tilde S)$. It therefore needs $s$ at prediction
# time. The FLR limit instead restricts the *coefficients* to $\mathcal N$. Only in one case do the
# two meet.
#
# ```{prf:proposition} The FLR limit and the correlation remover
# :label: prop-theory-correlation-remover
#
# Take $\alpha = 0$. OLS on $X_\perp$ fits $\hat y\in(I-P_S)\operatorname{range}(\tilde X)$; FLR with
# $\mu\to\infty$ fits $\hat y\in\operatorname{range}(\tilde X)\cap\operatorname{range}(\tilde S)^\perp$.
# Both fitted vectors are uncorrelated with $S$, and the second subspace is contained in the first.
# If $\operatorname{range}(\tilde S)\subseteq\operatorname{range}(\tilde X)$, the two subspaces and
# the two fits coincide. This is the case when the sensitive columns are among the features, as in
# fairlearn, whose `CorrelationRemover` takes them as columns of $X$; the two predictors then coincide
# on new data too. Otherwise the first subspace is in general larger: OLS on the residual fits the training data better, because it
# uses $s$. For $\alpha > 0$ the two ridge problems differ even in the first case, since the penalty
# acts on different coordinates.
# ```
#
# ```{prf:proof}
# If $v = \tilde Xa\perp\operatorname{range}(\tilde S)$, then $v = (I-P_S)\tilde Xa$, which gives the
# inclusion. If $\operatorname{range}\tilde S\subseteq\operatorname{range}\tilde X$, then
# $(I-P_S)\tilde Xa = \tilde Xa - \tilde Sb$ lies in $\operatorname{range}\tilde X$ and is orthogonal
# to $\tilde S$, so the subspaces are equal. OLS fitted values are the orthogonal projections of
# $\tilde y$ onto them, so these are equal too. When $s$ is a column of $X$, both predictors are
# affine in the same variables $(x_{\text{rest}}, s)$. They agree on the $n$ training rows, and
# $[\mathbf 1, X]$ has full column rank, so their coefficients are equal. In general,
# $\dim(I-P_S)\operatorname{range}\tilde X = \operatorname{rank}\tilde X - \dim(\operatorname{range}\tilde X\cap\operatorname{range}\tilde S)$,
# which exceeds $\operatorname{rank}\tilde X - \operatorname{rank}(\tilde S^\top\tilde X)$
# whenever $\tilde S$ has directions that are correlated with $X$ but lie outside
# $\operatorname{range}(\tilde X)$.
# ```
#
# The check uses a binary $s$ that shifts the features but is not one of them, and then the same data
# with $s$ appended as a column. The FLR limit is computed exactly, as OLS on the Fair PCA coordinates
# (item 1 of {prf:ref}`prop-theory-flr-limit` with $\alpha = 0$).

# %%
s = (rng.random(n_samples) < 0.4).astype(int)
X2 = rng.normal(size=(n_samples, d)) + np.outer(s, rng.normal(size=d))
y2 = X2 @ rng.normal(size=d) + s + 0.3 * rng.normal(size=n_samples)
X2s = np.column_stack([X2, s])                                   # s appended as the last feature
remover = CorrelationRemover(sensitive_feature_ids=[d]).fit(X2s)
X_perp = remover.transform(X2s)
oracle_same = np.abs(OracleLEACE().fit_transform(X2, sensitive_features=s) - X_perp).max() < 1e-10
ols_perp = LinearRegression().fit(X_perp, y2)

E_out = FairPCA(d - 1).fit_transform(X2, sensitive_features=s)        # s not a feature
fair_in = FairPCA(d).fit(X2s, sensitive_features=s)                   # s among the features
E_in = fair_in.transform(X2s)
limit_out = LinearRegression().fit(E_out, y2).predict(E_out)
ols_in = LinearRegression().fit(E_in, y2)
mse_perp, mse_limit = (np.mean((fit - y2) ** 2) for fit in (ols_perp.predict(X_perp), limit_out))

s_new = (rng.random(200) < 0.4).astype(int)
X2s_new = np.column_stack([rng.normal(size=(200, d)) + np.outer(s_new, rng.normal(size=d)), s_new])
pred_new = ols_perp.predict(remover.transform(X2s_new))
flr_in = FairLinearRegression(alpha=0.0, mu=1e4 * n_samples**2).fit(X2s, y2, sensitive_features=s)
published.checks_prose({
    "`OracleLEACE` equals fairlearn's `CorrelationRemover` (to 1e-10).": oracle_same,
    "s not a feature: OLS on the decorrelated X and the FLR limit fit differently, with training "
    f"MSEs {mse_perp:.3f} and {mse_limit:.3f}.":
        np.abs(ols_perp.predict(X_perp) - limit_out).max() >= 1e-6,
    "s among the features: the two fits are the same (to 1e-8).":
        np.abs(ols_perp.predict(X_perp) - ols_in.predict(E_in)).max() < 1e-8,
    f"s among the features, {len(s_new)} new rows: the same predictions (to 1e-8), and FLR with "
    "μ = 10⁴ n² is within 1e-4 of them.":
        np.abs(ols_in.predict(fair_in.transform(X2s_new)) - pred_new).max() < 1e-8
        and np.abs(flr_in.predict(X2s_new) - pred_new).max() < 1e-4,
})

# %% [markdown]
# ### Fair PLS
#
# ```{prf:proposition} Fair PLS with $\eta = \infty$ is PLS on the Fair PCA coordinates
# :label: prop-theory-pls-limit
#
# 1. Along the deflation of Fair PLS with $\eta=\infty$, $X_h^\top\tilde S = \tilde X^\top\tilde S = G$
#    for every $h$. Every component is therefore constrained to the *same* subspace $\mathcal N$.
# 2. `FairPLS(k, eta=np.inf, scale=False)` equals `PLSRegression(k, scale=False)` fitted on the Fair
#    PCA coordinates `FairPCA(d - r).transform(X)`: same scores up to sign, same predictions. With
#    `scale=True`, the same holds after standardising $X$ (and $Y$, if it has several columns) with
#    `ddof=1`. Fair PLS standardises $X$ before it imposes the constraint, and the scale of $S$ plays
#    no role at $\eta=\infty$.
# 3. For $\eta<\infty$, under a spectral gap, the weights and the predictions converge to those of
#    $\eta=\infty$ at rate $O(1/\eta)$.
# ```
#
# ```{prf:proof}
# 1. $X_{h+1}^\top\tilde S = X_h^\top\tilde S - p_h\,t_h^\top\tilde S$, and
#    $t_h^\top\tilde S = w_h^\top X_h^\top\tilde S = 0$ by the constraint; then induct on $h$.
# 2. Run PLS on $\tilde XP$ with $P = NN^\top$. By induction its deflated matrices are $X_hP$: its
#    weight maximises $\lVert A_h^\top Pw\rVert$, so it is the leading left singular vector of
#    $PA_h = (I-QQ^\top)A_h$, which is the constrained Fair PLS weight ({prf:ref}`prop-fair-pls-hard`).
#    It lies in $\mathcal N$, so its score $X_hPw = X_hw$ is Fair PLS's score. Its loading is $Pp_h$,
#    and $X_hP - t_h(Pp_h)^\top = X_{h+1}P$. The $Y$ side is identical. Finally, PLS is equivariant
#    under orthogonal changes of the inputs, which take $\tilde XN$ to the Fair PCA coordinates.
# 3. In the basis $[Q, N]$, the matrix $M(\eta) = A_hA_h^\top - \eta GG^\top$ has the block
#    $M_{QQ} - \eta K$ with $K = Q^\top GG^\top Q\succ 0$. The eigen-equation
#    $M(\eta)(a, b) = \lambda(a, b)$ gives $a = (\eta K + \lambda I - M_{QQ})^{-1}M_{QN}b = O(1/\eta)$
#    and $(M_{NN} + O(1/\eta))\,b = \lambda b$. By the Davis–Kahan theorem the top eigenvector moves by
#    $O(1/(\eta\,\mathrm{gap}))$ from the top eigenvector of $M_{NN}$, which is the $\eta=\infty$
#    weight. The deflation is smooth in $w$, so later components inherit the rate.
# ```
#
# The suggested statement, "Fair PLS with $\eta\to\infty$ is PLS under the fair-PCA constraint", is
# correct. Item 1 is what makes it true for all components and not only the first: the constraint on
# the deflated $X_h$ is the same constraint at every step.

# %%
Xs = (X - X.mean(axis=0)) / X.std(axis=0, ddof=1)
E_s = FairPCA(d - r).fit_transform(Xs, sensitive_features=groups)
pls = PLSRegression(k, scale=False).fit(E_s, y)
for scale in [False, True]:
    hard = FairPLS(k, eta=np.inf, scale=scale).fit(X, y, sensitive_features=groups)
    E_ref = E_s if scale else FairPCA(d - r).fit_transform(X, sensitive_features=groups)
    ref = pls if scale else PLSRegression(k, scale=False).fit(E_ref, y)
    same_scores = np.allclose(np.abs(hard.transform(X)), np.abs(ref.transform(E_ref)),
                              rtol=0, atol=1e-9)
    same_pred = np.allclose(hard.predict(X).ravel(), ref.predict(E_ref).ravel(), rtol=0, atol=1e-9)
    print(f"scale={scale!s:5s}: same scores (up to sign) {same_scores}, same predictions {same_pred}")

etas = np.logspace(0, 8, 17)
pred_hard = FairPLS(k, eta=np.inf).fit(X, y, sensitive_features=groups).predict(X).ravel()
pred_eta = [FairPLS(k, eta=eta).fit(X, y, sensitive_features=groups).predict(X).ravel()
            for eta in etas]
pls_err = np.array([np.abs(p - pred_hard).max() for p in pred_eta]) / np.abs(pred_hard).max()
tail = etas >= 1e4
pls_slope = np.polyfit(np.log10(etas[tail]), np.log10(pls_err[tail]), 1)[0]
print("log-log slope of the Fair PLS error:", round(pls_slope, 1))

# %% [markdown]
# ## The ratio: FDR as the ridge goes to 0
#
# FDR {cite}`perezsuay2017fair` maximises $v^\top C^2v / v^\top GG^\top v$. The reference code adds
# $\varepsilon I$ to the singular denominator. Chapter {doc}`08_sinusoid` proves the limit
# ({prf:ref}`prop-fdr-limit`): as $\varepsilon\to0$, the top $k\le d-r$ generalized eigenvectors
# converge to the top eigenvectors of $C^2$ restricted to $\mathcal N$. This is what `ridge=0`
# computes. The rate, and the comparison with the constrained methods, are added here.
#
# ```{prf:proposition} The ratio is a constraint, reached at rate $\varepsilon$
# :label: prop-theory-fdr
#
# 1. With $N$ an orthonormal basis of $\mathcal N$, `FairDR(k, ridge=0)` spans $N V_k$, where $V_k$ holds
#    the top $k$ eigenvectors of $N^\top C^2N$. `FairDR(k, ridge=eps)` is within $O(\varepsilon)$ of
#    it (sine of the largest principal angle), under a spectral gap.
# 2. `FairDR(d - r, ridge=0)` spans $\mathcal N$, the subspace of `FairPCA(d - r)`.
# 3. For $k<d-r$, FDR and Fair PCA in general choose different subspaces of $\mathcal N$. They
#    coincide when $C\mathcal N\subseteq\mathcal N$ ({ref}`ex-fdr-vs-fairpca`), which is the
#    invariance condition of {prf:ref}`prop-theory-leace-oblique` again.
# 4. Unlike PCA, PLS and ridge regression, FDR is *not* its unconstrained version applied after
#    erasure. Unconstrained FDR is PCA, and PCA after the orthogonal eraser is Fair PCA, which by 3 is
#    a different subspace. The numerator $\mathrm{HSIC}(\tilde Xv,\tilde X) = \lVert Cv\rVert^2/n^2$
#    measures the dependence on *all* of $X$, the erased directions included.
# ```
#
# ```{prf:proof}
# 1. Write $v = Qa + Nb$ and $\lambda = \nu/\varepsilon$. The generalized eigen-equation
#    $C^2v = \lambda(GG^\top+\varepsilon I)v$ splits into $Q^\top C^2v = \tfrac{\nu}{\varepsilon}(K+\varepsilon I)a$
#    and $N^\top C^2v = \nu b$, with $K = Q^\top GG^\top Q\succ0$. The first gives
#    $a = \varepsilon(\nu K)^{-1}(Q^\top C^2v - \nu a) = O(\varepsilon)$ for the top eigenvalues
#    $\nu = \Theta(1)$. The second becomes $(N^\top C^2N + O(\varepsilon))b = \nu b$, and Davis–Kahan
#    gives the rate.
# 2. $N V_{d-r}$ spans $\operatorname{range}(N) = \mathcal N$.
# 3. The two methods diagonalise $N^\top C^2N = (N^\top CN)^2 + N^\top CQQ^\top CN$ and $N^\top CN$.
#    If $C\mathcal N\subseteq\mathcal N$, then $Q^\top CN = 0$, the two matrices have the same
#    eigenvectors in the same order, and the subspaces coincide. Otherwise the second term generally
#    reorders or rotates them.
# 4. Follows from 3 and {prf:ref}`prop-theory-sal`.
# ```

# %%
C = Xc.T @ Xc
V_exact = N @ np.linalg.eigh(N.T @ C @ C @ N)[1][:, ::-1][:, :k]
fdr = FairDR(k, ridge=0).fit(X, sensitive_features=groups)
print("FDR(ridge=0) = top eigenvectors of N'C^2N:", angle(fdr.components_.T, V_exact) < 1e-10)
print("FDR(d - r, ridge=0) spans Fair PCA(d - r):",
      angle(FairDR(d - r, ridge=0).fit(X, sensitive_features=groups).components_.T,
            FairPCA(d - r).fit(X, sensitive_features=groups).components_.T) < 1e-10)
print("FDR(k) spans Fair PCA(k):", angle(fdr.components_.T, fair.components_.T) < 1e-10)
print("invariant data of section 2, FDR(k) spans Fair PCA(k):",
      angle(FairDR(k, ridge=0).fit(Xi, sensitive_features=groups).components_.T,
            fair_i.components_.T) < 1e-10)

ridges = np.linalg.norm(G, 2) ** 2 * np.logspace(-10, -3, 8)
fdr_err = np.array([angle(FairDR(k, ridge=eps).fit(X, sensitive_features=groups).components_.T,
                          fdr.components_.T) for eps in ridges])
fdr_slope = np.polyfit(np.log10(1 / ridges), np.log10(fdr_err), 1)[0]
print("log-log slope of the FDR error against 1/ridge:", round(fdr_slope, 1))

# %% [markdown]
# (sec-theory-three-limits)=
# ## Three limits, one rate
#
# Each panel plots the distance to the limit against the strength of the knob: $\mu/n^2$ for FLR,
# $\eta$ for Fair PLS (standardised variables), and $\lVert G\rVert_2^2/\varepsilon$ for FDR. The
# dashed lines are the least-squares fits on the asymptotic part, the filled markers. All three have
# slope $-1$: a penalty or a ridge at strength $\tau$ leaves the solution $O(1/\tau)$ away from the
# constrained one.

# %% mystnb={"figure": {"caption": "Distance to the limit against the strength of the knob for FLR, Fair PLS and FDR, on log\u2013log axes. The dashed least-squares lines through the filled, asymptotic points all have slope \u22121: a penalty or ridge of strength \u03c4 leaves the solution $O(1/\\tau)$ away from the constrained one.", "name": "fig-theory-three-limits"}, "image": {"alt": "Three log-log panels. FLR: relative prediction error against mu over n squared from 10^-2 to 10^5, falling from 0.2 to 5e-8. Fair PLS: relative prediction error against eta from 1 to 10^8, flat near 0.4 up to eta = 10, then falling to 4e-8. FDR: sine of the largest principal angle against the squared norm of G over epsilon from 10^3 to 10^10, falling from 2e-3 to 2e-10. In each panel a dashed line labelled slope -1.0 runs through the filled points."}}
panels = [
    ("FLR", mus / n_samples**2, flr_err, mus >= 10 * n_samples**2, r"$\mu / n^2$",
     "relative prediction error"),
    ("Fair PLS", etas, pls_err, etas >= 1e4, r"$\eta$", "relative prediction error"),
    ("FDR", np.linalg.norm(G, 2) ** 2 / ridges, fdr_err, np.ones(len(ridges), bool),
     r"$\|G\|_2^2 / \varepsilon$", "sine of the largest principal angle"),
]
fig, axes = plt.subplots(1, 3, figsize=(6.8, 3.3))
for ax, (name, strength, err, fit, xlabel, ylabel) in zip(axes, panels):
    slope, intercept = np.polyfit(np.log10(strength[fit]), np.log10(err[fit]), 1)
    ax.loglog(strength, err, "o", mfc="none", color="C0")
    ax.loglog(strength[fit], err[fit], "o", color="C0")
    ax.loglog(strength[fit], 10 ** (intercept + slope * np.log10(strength[fit])), "--", color="C1",
              label=f"slope {slope:.1f}")
    ax.set(title=name, xlabel=xlabel, ylabel=ylabel)
    plotting.legend_outside(ax, where="below")
plt.show()

# %% [markdown]
# **Kernels.** The same picture holds in a feature space. Fair kernel PCA is kernel PCA of the
# features projected onto $\mathcal N$ ({prf:ref}`prop-projected-gram`). KFDR with `ridge=0` and
# kernel Fair PLS with $\eta=\infty$ constrain the scores to zero cross-covariance with the feature map
# of $S$. FKR with linear kernels is FLR ({prf:ref}`prop-fkr-linear`). With linear kernels HSIC is
# Cov² ({prf:ref}`prop-hsic-cov2`, chapter {doc}`03_measuring_fairness`). The "HSIC ratio", the
# "Cov² penalty" and the "equal-means constraint" are therefore one statistic: FDR, Fair PLS and Fair
# PCA measure fairness with the same number, up to the encoding and scaling of $S$. An RBF kernel on
# $S$ makes HSIC sensitive to non-linear functions of $S$. On the representation side, the
# constraint acts through a linear map of the feature map of $X$. What it rules out is therefore a
# *linear* read-out of $S$ in that feature space. The Gaussian case of {prf:ref}`prop-gaussian` is
# the exception where this is enough.

# %% [markdown]
# ## What each method guarantees
#
# "Removes" means: holds on the training data, exactly (to rounding) unless marked approximate. Every method
# uses $S$; the kind says whether it also uses $y$. Each row's cost and tests are one click away, below the table.
#
# | method | provably removes | kind | proved in |
# |---|---|---|---|
# | `FairPCA` | group means of the scores ($T^\top\tilde Z=0$: linear guardedness, linear HSIC $=0$); `fairness="equal_opportunity"`: the same on the rows with $y$ = `pos_label`; `equalize_covariance`: also *reduces* covariance gaps (no exact guarantee) | linear; uses $y$ in EO mode | {prf:ref}`prop-theory-fair-subspace`, {prf:ref}`prop-theory-sal` |
# | `FairKernelPCA` | group means in feature space | kernel | {prf:ref}`prop-projected-gram` |
# | `FairPLS` | $\eta=\infty$: $\operatorname{Cov}(t_h,S)=0$ for every component; $\eta<\infty$: Cov² non-increasing in $\eta$, $O(1/\eta)$ from the limit; `equalized_odds`: the conditional cross-covariance given $Y$ | linear; uses $y$ | {prf:ref}`prop-fair-pls-hard`, {prf:ref}`prop-theory-pls-limit`, {ref}`ex-fair-pls-monotone` |
# | `KernelFairPLS` | $\eta=\infty$: zero cross-covariance of the scores with the feature map of $S$ (HSIC $=0$ for the chosen kernel on $S$); $\eta<\infty$: HSIC penalised | kernel; uses $y$ | its tests |
# | `NaiveFairPLS` | each kept component has correlation ratio $\eta^2(t_h,S)<\tau$; nothing about their combination | linear; uses $y$ | its tests |
# | `FairLinearRegression` (FLR) | HSIC(ŷ, S) (linear: Cov²) non-increasing in $\mu$; the covariance is $O(1/\mu)$, so the HSIC is $O(1/\mu^2)$; limit: ridge on the Fair PCA coordinates | linear, continuous $S$ allowed; uses $y$ | {prf:ref}`prop-theory-flr-limit`, {ref}`ex-fkl-monotone` |
# | `FairKernelRegression` (FKR) | HSIC(ŷ, S) with a kernel on $S$, non-increasing in $\mu$; RKHS-norm bound | kernel; uses $y$ | {prf:ref}`prop-fkr-bound`, {prf:ref}`prop-fkr-linear` |
# | `FairDR` (FDR) | `ridge=0`: $\operatorname{Cov}(t,S)=0$, directions ranked by HSIC$(\tilde Xv,\tilde X)$; `ridge=eps`: $O(\varepsilon)$ from it | linear, continuous $S$ allowed | {prf:ref}`prop-fdr-limit`, {prf:ref}`prop-theory-fdr` |
# | `KernelFairDR` (KFDR) | `ridge=0`: zero cross-covariance of the scores with the feature map of $S$ | kernel | {prf:ref}`prop-kfdr-deflation` |
# | `FairTradeoff` | $\lambda=0$: the guarantee of its fair block; $\lambda>0$: none (it is the knob) | as its blocks | its tests |
# | `SAL` | centred: $\operatorname{range}(G)$, zero cross-covariance, and with PCA it is Fair PCA; `center=False`: also the mean direction | linear | {prf:ref}`prop-theory-sal` |
# | `LEACE` | zero cross-covariance, least displacement among erasers of $x$; `method="orthogonal"`: the orthogonal eraser | linear | {prf:ref}`prop-theory-leace-oblique` |
# | `OracleLEACE` | zero cross-covariance on the training rows only; least displacement of all erasers; reads $s$ at transform time; equals `CorrelationRemover` | linear | {prf:ref}`prop-theory-correlation-remover` |
# | `INLP` | nothing exact: the span of $T$ classifier weights; zero cross-covariance if and only if it contains $\operatorname{range}(G)$ | linear | {numref}`Section %s <sec-theory-fair-subspace>` above |
# | `RLACE` | approximate: a local solution of a minimax game over rank-$r$ projections | linear | {numref}`Section %s <sec-theory-fair-subspace>` above |
# | `FPCA` | `delta=0`: equal projected means; covariance gap penalised (`mu`), not removed | linear | its tests |
# | `MbFPCA` | approximate: MMD² of the projected groups $\le\tau$ (a local optimum of a penalty loop) | linear map, kernel criterion | its tests |
# | `SamadiFairPCA` | equal average reconstruction losses of two groups, which is not a dependence statistic | linear | its tests |
# | fairlearn `CorrelationRemover` | with `alpha=1`: as `OracleLEACE` | linear | its tests |
#
# ::::{admonition} Cost and tests of each method
# :class: dropdown
#
# Cost is for $n$ rows, $d$ features, $k$ components, $m$ groups and $q$ sensitive columns; the tests are files
# in `tests/` (each checks the guarantee of its row on random and adversarial instances).
#
# | method | cost | tests |
# |---|---|---|
# | `FairPCA` | closed form; $O(nd^2+d^3)$, dual $O(n^2d+n^3)$ when $d>n$; top-$k$ solvers; one pass (dask, `partial_fit`) | `test_adversarial.py`, `test_pca.py` |
# | `FairKernelPCA` | closed form; $O(n^2d+n^3)$ exact, ARPACK top-$k$; Nyström $O(nL^2+L^3)$ | `test_kernel_pca.py` |
# | `FairPLS` | closed form per component; $O(knd + kd(m+q)^2)$; one pass | `test_pls.py` |
# | `KernelFairPLS` | closed form per component on the $n\times n$ Gram matrix, $O(n^2)$ memory | `test_pls.py` |
# | `NaiveFairPLS` | PLS + selection | `test_pls.py` |
# | `FairLinearRegression` (FLR) | closed form $O(nd^2+d^3)$; whole $\mu$ path from one Cholesky; one pass | `test_hsic.py` |
# | `FairKernelRegression` (FKR) | closed form $O(n^3)$; path by one simultaneous diagonalisation | `test_hsic.py` |
# | `FairDR` (FDR) | closed form $O(nd^2+d^3)$ | `test_hsic.py` |
# | `KernelFairDR` (KFDR) | closed form $O(n^3)$ | `test_hsic.py` |
# | `FairTradeoff` | the two blocks | `test_tradeoff.py` |
# | `SAL` | closed form $O(ndm)$ + a PCA | `test_baselines_erasure.py` |
# | `LEACE` | closed form; thin SVD $O(nd\min(n,d))$ | `test_baselines_erasure.py` |
# | `OracleLEACE` | closed form $O(ndm)$ | `test_baselines_erasure.py` |
# | `INLP` | iterative; $T$ classifier fits + $O(nd)$ each | `test_baselines_erasure.py` |
# | `RLACE` | iterative; $O(d^3)$ per step, $10^4$ steps by default | `test_baselines_erasure.py` |
# | `FPCA` | SDP by an interior-point method, $O(d^6)$ per iteration, $d \le 150$ | `test_baselines_fair_pca.py` |
# | `MbFPCA` | iterative; $O(n^2k)$ per evaluation | `test_baselines_fair_pca.py` |
# | `SamadiFairPCA` | eigenvalue optimisation; $O(d^3)$ per step | `test_baselines_fair_pca.py` |
# | fairlearn `CorrelationRemover` | closed form | `test_baselines_erasure.py` |
# ::::
#
# Two reading rules follow from the propositions. First, "zero cross-covariance" guards against linear
# read-outs on the training data. Proposition 1 of Kleindessner et al. ({prf:ref}`prop-gaussian`: two Gaussian
# groups with a shared covariance) is a case where it guards against every read-out. Out of sample it holds only up to sampling noise. Second,
# exactly one row, `OracleLEACE`/`CorrelationRemover`, needs the sensitive attribute at prediction time.

# %% [markdown]
# ## A practitioner's guide
#
# | your situation | start with | because | alternatives |
# |---|---|---|---|
# | unsupervised representation, linear leakage (groups differ in means), any $n$ and $d$ | `FairPCA` | closed form at the cost of PCA, maximal variance in $\mathcal N$ | `LEACE(k)` if the representation should stay close to the data; `SAL` is Fair PCA |
# | keep all $d$ features, change them as little as possible (data release, pre-processing before any model) | `LEACE` | least displacement, zero cross-covariance | orthogonal eraser; `OracleLEACE` / `CorrelationRemover` only if $s$ may be used at prediction time |
# | a representation for a known target | `FairPLS(eta=np.inf)` | keeps the covariance with $y$, closed form | `FairPLS(eta)` for a trade-off; `NaiveFairPLS` |
# | a fair predictor, or a continuous or multi-column $S$ | `FairLinearRegression`; `FairKernelRegression` for non-linear $f$ | closed-form path over $\mu$ | `FairPLS` and `FairDR` also accept a continuous $S$ |
# | a representation free of a continuous attribute (age, income) | `FairPCA(sensitive_type="continuous")` | zero covariance of every component with it, closed form | `FairKernelPCA(sensitive_type="continuous")`; `FairKernelProjection` for any kernel method; audit the result with `metrics.leakage` ({doc}`18_auditing_a_representation`) |
# | a tunable accuracy–fairness trade-off | `FairPLS` ($\eta$), FLR/FKR ($\mu$, with `fit_path`), `FairTradeoff` ($\lambda$, any pair) | monotone knobs ({ref}`ex-fkl-monotone`, {ref}`ex-fair-pls-monotone`) | `MbFPCA` ($\tau$) |
# | non-linear leakage (groups differ in spread or shape) | `FairPCA(equalize_covariance=...)`; `FairKernelPCA` ($n\lesssim 10^4$ exact, Nyström beyond) | covariances, or means in feature space | `KernelFairDR`; `MbFPCA` (MMD, small $n$); `FPCA` (SDP, $d\lesssim 100$) |
# | $n$ beyond memory | `FairPCA`, `FairPLS`, `FairLinearRegression` on dask arrays or with `partial_fit` | sufficient statistics ({doc}`16_scaling_up`) | Nyström `FairKernelPCA` |
# | groups should be *reconstructed* equally well, not be hidden | `SamadiFairPCA` | a different notion of fairness | |
# | reproducing published comparisons | `INLP`, `RLACE` | the papers' baselines | no exact guarantee |
#
# ### Worked example: German credit
#
# German credit in the encoding of De-Diego et al. (`variant="pls"`) has 1000 applicants, 47
# features and the sensitive attribute age > 25. It is shipped with `fairlab` and loads offline. Three
# candidates from the table compete: Fair PCA, LEACE and Fair PLS with $\eta=\infty$. Two references
# run beside them, a logistic regression on the raw features and PCA. Each method is fitted on the
# training part of seeded 70/30 splits (`evaluation.repeated_splits`, standardised with the training
# statistics). The same logistic regression is then trained on each representation. The table reports
# test accuracy, the demographic-parity difference $\Delta_{DP}$ and the disparate impact of its
# decisions, and the dependence of the test representation on age: Cov² (×1000) and an RBF-kernel
# HSIC (×1000).

# %%
german = load_german(variant="pls")
splits = list(evaluation.repeated_splits(german.X, german.y, german.sensitive, n_splits=n_splits,
                                         train_size=0.7, random_state=seed, standardize=True))
candidates = {
    "raw features": FunctionTransformer(),
    "PCA": PCA(worked_k),
    "Fair PCA": FairPCA(worked_k),
    "LEACE": LEACE(),
    "Fair PLS, eta = inf": FairPLS(worked_k, eta=np.inf),
}
classify = evaluation.classifier_score(LogisticRegression(max_iter=5000))
depend = evaluation.dependence_score()
represent = lambda est, sp: evaluation.scorecard(est, sp, classifiers={})  # linear inseparability
results = evaluation.evaluate_splits(
    candidates, splits, score=lambda est, sp: {**classify(est, sp), **depend(est, sp),
                                               **represent(est, sp)})
print("share of applicants aged 25 or less (test):",
      round(float(np.mean([1 - sp.s_test.mean() for sp in splits])), 3))
columns = ["accuracy", "dp_violation", "disparate_impact", "linear_inseparability", "cov2_s",
           "hsic_s"]
published.reader_table(
    evaluation.format_table(results, decimals=3, columns=columns,
                            scale={"cov2_s": 1000, "hsic_s": 1000}),
    title="German credit: a logistic regression on each representation (test rows)",
    note="Mean ± standard deviation over the splits; Cov² and HSIC ×1000.")

# %% [markdown]
# The tunable trade-off of the guide is one more call. `evaluation.sweep` refits Fair PLS along a grid
# of $\eta$, from PLS ($\eta=0$) to the hard constraint. The same call draws the $\lambda$ curve of
# `FairTradeoff` and the $\mu$ curve of FLR.

# %%
eta_grid = [0.0, 0.1, 1.0, 10.0, 100.0, np.inf]
curve = evaluation.sweep(FairPLS(worked_k), "eta", eta_grid, splits,
                         score=evaluation.classifier_score(LogisticRegression(max_iter=5000)))
published.reader_table(evaluation.summarize(curve, "eta")[["accuracy", "dp_violation"]],
                       decimals=3, title="Fair PLS on German credit along η (test rows)",
                       note="Mean and standard deviation over the splits.")

# %% mystnb={"figure": {"caption": "The \u03b7 knob of Fair PLS on German credit ($k = 10$; logistic regression, means and standard deviations over the splits). From PLS at \u03b7 = 0 to the hard constraint at \u03b7 = \u221e the demographic-parity difference falls from about 0.095 to 0.03 for two points of accuracy; beyond \u03b7 \u2248 10 nothing changes.", "name": "fig-theory-german-eta"}, "image": {"alt": "Line plot of accuracy (0.71 to 0.77) against the demographic-parity difference (0.01 to 0.14), one point per value of eta with error bars in both directions: eta = 0 at about 0.095 and 0.749, then moving left through eta = 1 at about 0.043 and 0.746 to eta = inf at about 0.03 and 0.728, where the last points overlap."}}
fig, ax = plt.subplots(figsize=(6.8, 3.4))
plotting.plot_tradeoff(curve, param="eta", ax=ax)
ax.set_title("Fair PLS on German credit, k = " + str(worked_k))
plt.show()

# %% [markdown]
# On these splits the five rows line up with the guide. The raw features predict best, but their
# decisions have the largest demographic-parity gap. A logistic model also reads age from them well
# (linear inseparability 0.13, against 0.196 for a model that always guesses "older"). PCA loses five
# points of accuracy and still carries age. Fair PCA makes age linearly unreadable on the test rows
# (0.200, at chance level), but it is unsupervised: its ten directions of largest variance carry
# little credit risk, so it keeps PCA's low accuracy. Its $\Delta_{DP}$ is hardly smaller than that
# of the raw features. Outside the Gaussian setting of {prf:ref}`prop-gaussian`, equal group means of
# the representation do not equalise the thresholded decisions of a classifier trained on it. LEACE keeps all 47
# features, moved as little as possible, and with them most of the accuracy. Fair PLS with
# $\eta=\infty$ keeps the same accuracy with ten components, and has the smallest decision gap and
# test Cov². For this supervised task it is the recommended candidate, and LEACE is the one to take
# when the full feature set must be kept.
#
# Two cautions. First, the guarantees hold on the *training* rows. On the test rows, LEACE's 47
# columns let a logistic model fit some sampling noise in the group means, hence its lower
# inseparability and larger Cov². Cov² also sums over columns, so it is not comparable between
# representations of different widths. Second, with three splits of 300 test rows (about 59 young
# applicants each), the standard deviations are as large as most of the differences. Rerun with
# `-p n_splits 10` (papermill) before drawing conclusions.
#
# The $\eta$ sweep shows the knob: $\Delta_{DP}$ falls from about 0.095 at $\eta = 0$ (PLS) to 0.03,
# and accuracy from 0.749 to 0.728. Beyond $\eta\approx10$ nothing changes any more. With
# standardised variables the penalised solution is already within $O(1/\eta)$ of the constrained one,
# as in {numref}`Section %s <sec-theory-three-limits>`.

# %% [markdown]
# ## Exercises
#
# ```{exercise}
# :label: ex-theory-oblique-2d
#
# Let $d = 2$, $\Sigma = \begin{pmatrix}1&\rho\\ \rho&1\end{pmatrix}$ with $\lvert\rho\rvert<1$, and let
# $\operatorname{range}(G)$ be spanned by $e_1$. Write the orthogonal eraser and LEACE as $2\times2$
# matrices. For which $\rho$ do they coincide? Which one leaves the second coordinate unchanged?
# ```
#
# ```{solution} ex-theory-oblique-2d
# :class: dropdown
#
# The orthogonal eraser is $P = I - e_1e_1^\top = \operatorname{diag}(0, 1)$: it sets the first
# coordinate to its mean and keeps the second. By {prf:ref}`prop-theory-leace-oblique`, LEACE moves
# along $e_1$ onto $(\Sigma^{-1}e_1)^\perp$. Here $\Sigma^{-1}e_1\propto(1, -\rho)$, so
# $(\Sigma^{-1}e_1)^\perp$ is spanned by $(\rho, 1)$. A point $(x_1, x_2)$ (centred) is moved to
# $(\rho x_2, x_2)$: $P_{\text{LEACE}} = \begin{pmatrix}0&\rho\\0&1\end{pmatrix}$. Both keep the second
# coordinate, but LEACE replaces $x_1$ by its best linear prediction from $x_2$ rather than by $0$.
# That is why it moves the data less: $E\lVert e(X)-X\rVert^2$ is $E(x_1-\rho x_2)^2 = 1-\rho^2$
# against $Ex_1^2 = 1$. They coincide iff $\rho = 0$, the invariance condition
# $\Sigma e_1\propto e_1$. Check it with `LEACE().fit(X, sensitive_features=z).projection_` on
# simulated data.
# ```
#
# ```{exercise}
# :label: ex-theory-inlp
#
# INLP with a binary attribute removes one classifier weight vector $w$ per iteration, by the
# orthogonal projection $I - ww^\top/\lVert w\rVert^2$. Show that one iteration gives zero
# cross-covariance if and only if $w\parallel G$. The least-squares (or LDA) classifier of $z$ has
# $w\propto\Sigma^{-1}G$. When does a single INLP step with that classifier reach zero
# cross-covariance?
# ```
#
# ```{solution} ex-theory-inlp
# :class: dropdown
#
# After the projection, the cross-covariance is $(I - ww^\top/\lVert w\rVert^2)G$, which is zero iff
# $G$ is a multiple of $w$. With $w\propto\Sigma^{-1}G$ this requires $\Sigma^{-1}G\parallel G$, i.e.
# $G$ is an eigenvector of $\Sigma$: once more the invariance condition of
# {prf:ref}`prop-theory-leace-oblique`. In general a step removes the *wrong* direction for an
# orthogonal projection: the classifier's weights point along the discriminant $\Sigma^{-1}G$ and not
# along the mean difference $G$. INLP then needs further iterations and only approaches zero, which
# {numref}`Section %s <sec-theory-fair-subspace>` shows. LEACE moves the data along $G$ and lands in $(\Sigma^{-1}G)^\perp$: after one
# step, the least-squares classifier's direction sees nothing, and the cross-covariance is exactly
# zero.
# ```
#
# ```{exercise}
# :label: ex-theory-rate
#
# From item 2 of {prf:ref}`prop-theory-flr-limit`, give the constant $c$ in
# $\lVert W(t) - W(\infty)\rVert\le c/t$. Why does the FLR curve of {numref}`Section %s <sec-theory-three-limits>` bend before it
# reaches slope $-1$, and where does the bend sit?
# ```
#
# ```{solution} ex-theory-rate
# :class: dropdown
#
# $$
# \begin{aligned}
# \lVert W(t)-W(\infty)\rVert &\le\lVert A^{-1}GE\rVert\,\lVert E^\top G^\top W_0\rVert\max_j\frac{1}{\delta_j(1+t\delta_j)}\\
# &\le\frac{\lVert A^{-1}GE\rVert\,\lVert E^\top G^\top W_0\rVert}{t\,\delta_{\min}^2}.
# \end{aligned}
# $$
#
# The factor
# $\frac{1}{\delta(1+t\delta)}$ is flat, $\approx 1/\delta$, while $t\delta\ll1$, and becomes
# $1/(t\delta^2)$ once $t\delta\gg1$. The bend sits at $t\approx 1/\delta_{\min}$. With
# $\mu = n^2t$ and $\delta$ of the order of $\lVert G\rVert^2/\lVert A\rVert$, it sits at
# $\mu\approx n^2\lVert A\rVert/\lVert G\rVert^2$. That is why the fit uses only the large-$\mu$
# points.
# ```
#
# ```{exercise}
# :label: ex-theory-scale
#
# Standardising $X$ ($X\mapsto XD$ with $D$ diagonal and positive) changes the fair subspace of the
# coefficients, $\mathcal N\mapsto D^{-1}\mathcal N$. Show that the set of fair *functions*
# $x\mapsto a^\top x$ with zero training covariance with $S$ does not change. Why, then, do
# `FairPLS(eta=np.inf, scale=True)` and `FairPLS(eta=np.inf, scale=False)` give different models?
# Does `FairPCA` depend on the scaling?
# ```
#
# ```{solution} ex-theory-scale
# :class: dropdown
#
# A function on the scaled data is $x\mapsto b^\top Dx$. It has zero covariance with $S$ iff
# $b^\top D\tilde X^\top\tilde S = 0$, i.e. $Db\in\mathcal N$. The set of functions $\{a^\top x :
# a\in\mathcal N\}$ is therefore the same. The *objectives* are not invariant, though: PLS and PCA
# normalise $\lVert w\rVert = 1$ in the coordinates they are given, so the optimal member of the same
# set changes with $D$. Fair PCA depends on the scaling in exactly the same way PCA does, and the
# guarantee (zero cross-covariance) holds either way. This is why item 2 of
# {prf:ref}`prop-theory-pls-limit` standardises $X$ before taking the Fair PCA coordinates.
# ```
#
# ```{exercise}
# :label: ex-theory-choose
#
# A lender streams $10^7$ applications a day with 40 numeric features, wants a linear score of the
# default probability, and must show that the score is uncorrelated with applicant *age*, a
# continuous variable. Age must not be used at decision time. Use the guarantees and the decision
# tables to pick a method, and say which rows rule out `FairPCA`, `OracleLEACE` and `FairKernelPCA`.
# ```
#
# ```{solution} ex-theory-choose
# :class: dropdown
#
# `FairLinearRegression` with `partial_fit` (or a dask array). It is supervised, accepts a continuous
# $S$, gives a predictor directly, and its statistics are sums over rows. As $\mu\to\infty$, the
# covariance of its training predictions with age goes to $0$ at rate $1/\mu$
# ({prf:ref}`prop-theory-flr-limit`); `fit_path` shows the trade-off. `FairPLS(eta=np.inf)` followed
# by a linear model is the exact alternative, also streamable. `FairPCA(sensitive_type="continuous")`
# makes a representation uncorrelated with age (binning age would only equalise the means of the
# bins), but it is unsupervised: its components need not carry the default risk, and a score still
# has to be fitted on them. `OracleLEACE` reads age at decision time,
# which is ruled out. `FairKernelPCA` needs the $n\times n$ Gram matrix, and even Nyström gives a
# non-linear, unsupervised representation. Remember that the guarantee holds on the training data;
# monitor the covariance on new data.
# ```
