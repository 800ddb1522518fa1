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
# # Fair PLS: supervised fair representations in closed form
#
# Fair PCA {cite}`kleindessner2023efficient` finds directions of large variance that carry no
# information about a sensitive attribute $S$, but nothing makes those directions useful for the
# target $Y$. Partial least squares (PLS) {cite}`wold1966estimation` builds components for the
# target instead. De-Diego et al. {cite}`dediego2025pls` combine the two: each PLS component is
# penalised for its squared covariance with $S$. The paper computes every component by gradient
# descent and states that Fair PLS has no closed form. This chapter shows that each component is
# the leading eigenvector of a matrix of rank at most $m + q$ (numbers of targets and of sensitive
# columns). `fairlab.FairPLS` computes that eigenvector directly. The result is exact, the
# paper's gradient solver converges to it, and the fit is faster than scikit-learn's own PLS.
#
# The chapter covers, in order:
#
# 1. a recap of PLS and NIPALS;
# 2. the Fair PLS objective and its closed form;
# 3. the experiments of the paper on its synthetic data: covariance with $Y$ and $S$ (Fig. 2),
#    reconstruction error (Fig. 3), the naive method (Fig. 5) and equalised group means (Fig. 6);
# 4. Fair PLS against Fair PCA on Adult (Fig. 7);
# 5. the kernel and equalised-odds variants, and running times (Fig. 8).
#
# Figure, table, algorithm and section numbers without a chapter prefix (Fig. 2, Algorithm 1,
# §3.2) are those of the paper {cite}`dediego2025pls`; this chapter's own figures are numbered
# 10.1, 10.2, ….
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. derive the closed form of a Fair PLS component: the leading eigenvector of a matrix of rank at
#    most $m + q$, for every penalty η and for the hard constraint η = ∞;
# 2. fit `FairPLS` and check the paper's gradient solver and scikit-learn's `PLSRegression` against
#    it;
# 3. read the trade-off between $\mathrm{Cov}^2(T, Y)$ and $\mathrm{Cov}^2(T, S)$ along η, and explain
#    why the naive method, which keeps or drops whole PLS components, cannot tune it;
# 4. compare Fair PLS with Fair PCA as a pre-processing for a classifier, and say why equal group
#    means do not stop a decision tree from finding the group.
#
# **Prerequisites.** {doc}`04_fair_pca_derivation` (Fair PCA and its equal-means constraint, the
# baseline on Adult), {doc}`03_measuring_fairness` ($\mathrm{Cov}^2$ and disparate impact) and, for
# the kernel variant only, {doc}`07_fair_regression_toy` (HSIC). The maths needed: eigenvectors and
# the Rayleigh quotient, the thin SVD, and least-squares regression.
#
# **Time.** About 60 minutes to read and work through; the notebook runs in {{ run_time_10 }} at
# its defaults.
#
# {{ run_it }}
# :::

# %% [markdown]
# ## Parameters
#
# The defaults run in well under a minute. For paper scale, set `adult_rows = None` (all 48 842
# rows), `adult_splits = 7` and `n_splits = 5` through papermill.

# %% tags=["parameters"]
seed = 0                   # seed of the synthetic data and of every random split
n_per_group = 500          # rows per group of the synthetic data (App. 8.1: 500)
n_splits = 5               # random 80/20 splits of the synthetic data (the paper: 5-fold CV)
n_components = 3           # Fair PLS components on the synthetic data
etas = [0, 0.25, 0.5, 1, 2, 5, 10, 100]                  # penalty grid η
thresholds = [0.01, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0]  # τ of the naive method
adult_rows = 8000          # rows of Adult drawn for Fig. 7 (None: all 48 842)
adult_splits = 3           # random 70/30 splits of Adult (the paper: 7-fold CV)
adult_components = 2       # k of Fig. 7
runtime_dims = [10, 100, 1000]   # feature counts of the small runtime sweep

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from sklearn.cross_decomposition import PLSRegression
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from fairlab import FairPCA, FairPLS, KernelFairPLS, NaiveFairPLS, check_parameters, published
from fairlab.datasets import load_adult, make_pls_synthetic
from fairlab.evaluation import (
    benchmark_ratios,
    classifier_score,
    dependence_score,
    evaluate_splits,
    repeated_splits,
    runtime_sweep,
    sweep,
)
from fairlab.metrics import cov2, reconstruction_error
from fairlab.plotting import axis_label, book_style, legend_outside, plot_embedding, plot_runtime
from fairlab.pls import nipals

check_parameters(globals(), seed=int, n_per_group=int, n_splits=int, n_components=int, etas=list,
                 thresholds=list, adult_rows=(int, None), adult_splits=int, adult_components=int,
                 runtime_dims=list)

book_style()
# the squared covariances of the components with the target and with the attribute, in words
COV2_WORDS = {"cov2_y": "Cov² with y", "cov2_s": "Cov² with s"}

# %% [markdown]
# ## PLS and NIPALS in one page
#
# Let $X \in \mathbb R^{n\times d}$ and $Y \in \mathbb R^{n\times m}$ be column-centred (and, by
# default, standardised). The first PLS weight vector maximises the squared covariance between the
# score $t = Xw$ and the targets:
#
# $$
# w_1 = \arg\max_{\|w\|=1} \|Y^\top X w\|^2 ,
# $$
#
# that is, $w_1$ is the leading left singular vector of $X^\top Y$, or the leading eigenvector of
# $X^\top YY^\top X$. Later components repeat the same step on the *deflated* matrix
# $X_{h+1} = X_h - t_h p_h^\top$, where the loading $p_h = X_h^\top t_h / t_h^\top t_h$ is the
# least-squares regression of $X_h$ on $t_h$. Deflation makes the scores orthogonal, and
# $T = X W (P^\top W)^{-1}$ maps new rows to their scores. NIPALS (Algorithm 2 of the paper) finds
# $w_h$ by alternating regressions. This is the power method on $X_h^\top YY^\top X_h$, so with one
# target it converges in a single step.
#
# `fairlab.pls.nipals` is a literal transcription of the paper's Algorithm 2 and serves as an
# independent reference. `fairlab.FairPLS` with $\eta = 0$ reproduces scikit-learn's
# `PLSRegression`: the weights, the scores and the predictions agree to rounding error.

# %%
X, y, s = make_pls_synthetic(n_per_group, random_state=seed)
pls = PLSRegression(n_components).fit(X, y)
fpls0 = FairPLS(n_components, eta=0.0).fit(X, y, sensitive_features=s)
ref = nipals(X, y, n_components)
signs = np.sign(np.sum(ref["W"] * fpls0.x_weights_, axis=0))
print("weights     FairPLS(η=0) = sklearn to 1e-12:",
      np.abs(fpls0.x_weights_ - pls.x_weights_).max() < 1e-12)
print("weights     FairPLS(η=0) = NIPALS  to 1e-12:",
      np.abs(fpls0.x_weights_ - signs * ref["W"]).max() < 1e-12)
print("predictions FairPLS(η=0) = sklearn to 1e-12:",
      np.abs(fpls0.predict(X) - pls.predict(X)).max() < 1e-12)

# %% [markdown]
# ## The Fair PLS objective and its closed form
#
# Fair PLS (eq. (4) and Algorithm 1 of {cite}`dediego2025pls`) subtracts a penalty on the squared
# cross-covariance with the (centred) sensitive attribute $S \in \mathbb R^{n \times q}$:
#
# $$
# \begin{aligned}
# w_h &= \arg\max_{\|w\| = 1}\; \frac{1}{n^2}\Big(\|Y^\top X_h w\|^2 - \eta\,\|S^\top X_h w\|^2\Big)\\
#     &= \arg\max_{\|w\| = 1}\; \frac{1}{n^2}\, w^\top X_h^\top\big(YY^\top - \eta SS^\top\big)X_h w ,
# \end{aligned}
# $$
#
# followed by the usual deflation. The paper writes $\mathrm{Cov}^2(Xw, S) = \|C_{Xw,S}\|^2$ with
# $C_{A,B} = A^\top B / n$, so the factor $1/n^2$ is the same in both terms and does not change the
# maximiser.
#
# ```{prf:proposition} Closed form of a Fair PLS component
# :label: prop-fair-pls-closed-form
#
# Let $A = X_h^\top Y \in \mathbb R^{d\times m}$, $B = X_h^\top S \in \mathbb R^{d \times q}$ and
# $M_h = AA^\top - \eta BB^\top$. For every $\eta \ge 0$, the weight $w_h$ is a unit eigenvector of
# $M_h$ for its largest eigenvalue $\lambda_{\max}$, and the maximum of the objective is
# $\lambda_{\max}/n^2$. If $[A, B] = UR$ with orthonormal $U \in \mathbb R^{d \times r}$,
# $r \le m + q$ (a thin SVD), then $w_h = Uv$, where $v$ is the leading eigenvector of the
# $r \times r$ matrix $R_A R_A^\top - \eta R_B R_B^\top$.
# ```
#
# ```{prf:proof}
# The objective $w^\top M_h w$ is a quadratic form and the constraint set is the unit sphere. By the
# Rayleigh–Ritz theorem, its maximum over the sphere is $\lambda_{\max}(M_h)$, attained exactly at
# the unit eigenvectors for $\lambda_{\max}$. This holds for any symmetric $M_h$, including
# indefinite ones; no condition on $\eta$ is needed. Since $M_h = U(R_A R_A^\top - \eta R_B
# R_B^\top)U^\top$, every eigenvector of $M_h$ with a nonzero eigenvalue has the form $Uv$, with $v$
# an eigenvector of the small matrix for the same eigenvalue. The largest eigenvalue of $M_h$ is
# never negative when $d > r$, because $M_h$ vanishes on $\operatorname{range}(U)^\perp$. If the
# small matrix has only negative eigenvalues, the maximum $0$ is attained on
# $\operatorname{range}(U)^\perp$, and `FairPLS` then returns a vector from that subspace.
# ```
#
# The paper's argument that there is no closed form (end of §3.2) factors $YY^\top - \eta SS^\top$
# and therefore needs it to be positive semi-definite, i.e. $\eta \le \sigma_{\min,Y}/\sigma_{\max,S}$.
# The Rayleigh–Ritz argument needs no such factorisation. The cost of one component is one product
# $X_h^\top[Y, S]$, a thin SVD of a $d \times (m+q)$ matrix and an eigendecomposition of size
# $(m+q)$; no $d \times d$ matrix is ever formed. `FairPLS` does not deflate $X$ in memory either:
# $X_h = X - T_{<h}P_{<h}^\top$ holds exactly, so $X_h w$, $X_h^\top t$ and $X_h^\top [Y, S]$ are
# obtained from products with $X$ and small corrections.
#
# ```{prf:proposition} Hard constraint ($\eta = \infty$)
# :label: prop-fair-pls-hard
#
# Among unit vectors with $S^\top X_h w = 0$ (a score with zero covariance with every column of $S$),
# $\|Y^\top X_h w\|^2$ is maximised by the leading left singular vector of $(I - Q_BQ_B^\top)A$,
# where $Q_B$ is an orthonormal basis of $\operatorname{range}(B)$. This is the limit of the
# penalised solution as $\eta \to \infty$.
# ```
#
# ```{prf:proof}
# The constraint says that $w \perp \operatorname{range}(B)$. On that subspace the objective is
# $\|A^\top w\|^2 = \|((I - Q_B Q_B^\top)A)^\top w\|^2$, which is maximised by the leading left
# singular vector. As $\eta \to \infty$, any limit point $w_\infty$ of the penalised maximisers
# satisfies $B^\top w_\infty = 0$, since otherwise the objective would tend to $-\infty$, while the
# constrained maximiser keeps the objective at least $\|A^\top w\|^2 \ge 0$. The first term is then
# maximal among feasible vectors, so $w_\infty$ is the constrained maximiser (up to ties).
# ```
#
# `FairPLS(eta=np.inf)` returns components whose training scores are uncorrelated with $S$ up to
# rounding error (checked in `tests/test_pls.py` at $10^{-10}$). For a categorical $S$ this means
# that the groups have equal means on every component.
#
# ### The paper's gradient solver converges to the closed form
#
# `solver="gradient"` follows the paper's Algorithm 1 as published: an ascent step
# $w \leftarrow w + \varepsilon\,\nabla g(w)$, then normalisation to unit length. The step is
# $\varepsilon = n^2 / (2(\|A\|_F^2 + \eta\|B\|_F^2))$, which keeps the iteration from overshooting.
# The table compares, for each component, the objective reached by the gradient solver with the
# exact maximum. It also shows the largest eigenvalue of the dense $d\times d$ matrix, computed
# independently on the first component.

# %%
eta = 2.0
exact = FairPLS(n_components, eta=eta).fit(X, y, sensitive_features=s)
grad = FairPLS(n_components, eta=eta, solver="gradient", tol=1e-13, max_iter=100_000).fit(
    X, y, sensitive_features=s)
Xs = (X - exact.x_mean_) / exact.x_std_
ys = ((y - exact.y_mean_) / exact.y_std_)[:, None]
ss = ((s - s.mean()) / s.std(ddof=1))[:, None]  # a binary S enters as its standardised 0/1 code
dense = np.linalg.eigvalsh(Xs.T @ (ys @ ys.T - eta * ss @ ss.T) @ Xs)[-1] / len(X) ** 2
print("component 1, dense d×d eigenvalue / n²:", round(dense, 10))
pd.DataFrame({
    "exact objective": exact.objective_,
    "gradient objective": grad.objective_,
    "max |Δw|": np.abs(exact.x_weights_ - grad.x_weights_).max(axis=0),
}, index=pd.Index(range(1, n_components + 1), name="component")).round(10)

# %% [markdown]
# The exact and gradient solutions agree to the ten decimals shown. With the default tolerance the
# gradient solver needed at most a few dozen iterations per component here. Each iteration costs
# one pass over $X$ in the paper's formulation ($X_h^\top(YY^\top - \eta SS^\top)X_h w$ computed
# through $X_h$), while the closed form costs one pass per component in total.
#
# ## Fair representations on the synthetic data (App. 8.1)
#
# `fairlab.datasets.make_pls_synthetic` generates two groups of 500 rows with different
# means and covariances, four continuous and three binary features, and a target built with
# group-specific coefficients. The generator documents the details that the paper leaves out. The
# sensitive attribute $S$ is not a feature. As in the paper, the inputs are standardised
# (`scale=True`, which standardises $X$, $Y$ and $S$ with `ddof=1`).
#
# ### Covariance with the target and with the sensitive attribute (Fig. 2)
#
# For each η and each of the `n_splits` random 80/20 splits, the model is fitted on the training
# rows. The plots show $\mathrm{Cov}^2(T, Y)$ and $\mathrm{Cov}^2(T, S)$
# (`fairlab.metrics.cov2`: the sum of squared covariances, divisor $n$), on the training
# rows (where the penalty acts) and on the test rows.

# %% mystnb={"figure": {"caption": "Our Fig. 2 of De-Diego et al.: $\\mathrm{Cov}^2(T, Y)$ (left) and $\\mathrm{Cov}^2(T, S)$ (right, log scale) of three Fair PLS components against \u03b7 on the synthetic data, on the training and on the test rows (mean \u00b1 one standard deviation over the splits). On the training rows the covariance with $S$ falls by two orders of magnitude while the covariance with $Y$ loses a few percent; on the test rows it levels off at the sampling noise.", "name": "fig-fair-pls-covariances"}, "image": {"alt": "Two line plots against eta on a symlog axis from 0 to 100, each with a blue line for the training rows, an orange line for the test rows and shaded bands. Left: Cov\u00b2(T, Y) stays near 30 to 31 and drops slightly, to 28 to 29, at eta = 100. Right, on a log scale: Cov\u00b2(T, S) falls from about 0.017 at eta = 0 to 6e-5 at eta = 100 on the training rows, while on the test rows it levels off near 0.005."}}
splits = list(repeated_splits(X, y, s, n_splits=n_splits, train_size=0.8, random_state=seed))
curves = pd.concat([
    sweep(FairPLS(n_components), "eta", etas, splits,
          score=dependence_score(split_part=part)).assign(rows=part)
    for part in ("train", "test")
])
fig, axes = plt.subplots(1, 2, figsize=(6.8, 3.2))
for ax, col, title in zip(axes, ["cov2_y", "cov2_s"], ["Cov²(T, Y)", "Cov²(T, S)"]):
    sns.lineplot(data=curves, x="eta", y=col, hue="rows", marker="o", errorbar="sd", ax=ax)
    ax.set_xscale("symlog", linthresh=0.25)
    ax.set_xlim(left=0)
    ax.set_xlabel("η (symlog scale)")
    ax.set_ylabel(title)
axes[1].set_yscale("log")
axes[0].get_legend().remove()
legend_outside(axes[1], title="rows")
plt.show()

# %%
summary = curves[curves.rows == "test"].groupby("eta")[["cov2_y", "cov2_s"]].mean()
published.reader_table(summary.rename(columns=COV2_WORDS), decimals=4,
                       title="Test rows: mean squared covariances per η")

# %% [markdown]
# On the training rows, $\mathrm{Cov}^2(T, S)$ falls by two orders of magnitude between η = 0 and
# η = 100. For the first component it decreases monotonically in η: if $f$ is the first term and
# $g$ the penalty, optimality at two values $\eta_1 < \eta_2$ gives
# $(\eta_2 - \eta_1)(g(w_1) - g(w_2)) \ge 0$. $\mathrm{Cov}^2(T, Y)$ drops only by a few percent
# over the same range. On the test rows, $\mathrm{Cov}^2(T, S)$ levels off at the sampling noise
# of a 200-row estimate of a covariance that is zero in the population. This matches the paper's
# observation that the useful range is η ≲ 2.
#
# ### Reconstruction error (Fig. 3)
#
# The paper's $\mathrm{Error}(X, r_\eta(X))$ measures how much of $X$ the representation leaves out.
# We use the normalised form of `fairlab.metrics.reconstruction_error`: the fraction of the
# energy of the standardised test rows that lies outside the span of the weight vectors.

# %% mystnb={"figure": {"caption": "Our Fig. 3 of De-Diego et al.: relative reconstruction error of the standardised test rows against \u03b7 (mean \u00b1 one standard deviation over the splits). Removing the directions that covary with $S$ costs a little of $X$: the error rises from about 0.37 to 0.43.", "name": "fig-fair-pls-reconstruction"}, "image": {"alt": "Line plot of the relative reconstruction error against eta on a symlog axis from 0 to 100, rising from 0.37 at eta = 0 to about 0.39 at eta = 1 and 0.43 at eta = 100, with a shaded band of about \u00b10.02."}}
rows = []
for eta in etas:
    for i, sp in enumerate(splits):
        model = FairPLS(n_components, eta=eta).fit(sp.X_train, sp.y_train,
                                                   sensitive_features=sp.s_train)
        Xte = (sp.X_test - model.x_mean_) / model.x_std_
        rows.append({"eta": eta, "split": i,
                     "error": reconstruction_error(Xte, model.x_weights_.T, normalize=True)})
errors = pd.DataFrame(rows)
fig, ax = plt.subplots(figsize=(6.8, 3.2))
sns.lineplot(data=errors, x="eta", y="error", marker="o", errorbar="sd", ax=ax)
ax.set_xscale("symlog", linthresh=0.25)
ax.set_xlim(left=0)
ax.set_xlabel("η (symlog scale)")
ax.set_ylabel("relative reconstruction error")
plt.show()

# %%
errors.groupby("eta")["error"].agg(["mean", "std"]).round(4)

# %% [markdown]
# The error grows slowly with η: from about 0.37 at η = 0 to 0.39 at η = 2 and 0.43 at η = 100.
# Removing the directions that covary with $S$ costs a little of $X$ as well as a little of $Y$.
# The paper's Table 1 shows the same mild increase on most of its datasets (Adult: 0.789 at η = 0,
# 0.803 at η = 10).
#
# ### Naive Fair PLS versus Fair PLS (Fig. 5)
#
# The naive method (the paper's Algorithm 3) fits ordinary PLS and keeps only the components whose correlation
# ratio $\eta^2(t_h, S)$ (between-group over total sum of squares) is below a threshold τ. It has no
# trade-off to tune: a component is either kept whole or dropped. The plots show the test-row
# covariances of the naive representation built from all seven PLS components, as a function of τ,
# next to Fair PLS as a function of η.

# %% mystnb={"figure": {"caption": "Our Fig. 5 of De-Diego et al.: test-row $\\mathrm{Cov}^2(T, Y)$ (top) and $\\mathrm{Cov}^2(T, S)$ (bottom) of naive Fair PLS against its threshold \u03c4 (left) and of Fair PLS against \u03b7 (right). The naive method adds whole components, so both covariances rise together with \u03c4; Fair PLS lowers the covariance with $S$ at an almost constant covariance with $Y$.", "name": "fig-fair-pls-naive"}, "image": {"alt": "Four line plots in a 2 by 2 grid with shaded bands. Top row, Cov\u00b2(T, Y): for naive Fair PLS against the threshold from 0 to 1 it rises slightly, from 30.9 to 31.4; for Fair PLS against eta from 0 to 100 it falls slightly, from 31.2 to 29.3. Bottom row, Cov\u00b2(T, S): for the naive method it rises from 0.008 to 0.049 by threshold 0.4 and stays there; for Fair PLS it falls from 0.018 to about 0.005."}}
naive_full = NaiveFairPLS(7, threshold=1.0).fit(X, y, sensitive_features=s)
print("η²(t_h, S), 7 PLS components:", np.round(naive_full.correlation_ratios_, 3))
naive = sweep(NaiveFairPLS(7), "threshold", thresholds, splits, score=dependence_score())
naive["kept"] = [NaiveFairPLS(7, threshold=t).fit(sp.X_train, sp.y_train,
                                                  sensitive_features=sp.s_train).n_components_
                 for t in thresholds for sp in splits]
fair = curves[curves.rows == "test"]
fig, axes = plt.subplots(2, 2, figsize=(6.8, 5.2), sharey="row")
for row, (col, label) in enumerate([("cov2_y", "Cov²(T, Y)"), ("cov2_s", "Cov²(T, S)")]):
    sns.lineplot(data=naive, x="threshold", y=col, marker="o", errorbar="sd", ax=axes[row, 0])
    sns.lineplot(data=fair, x="eta", y=col, marker="o", errorbar="sd", ax=axes[row, 1])
    axes[row, 0].set_ylabel(label)
    axes[row, 1].set_xscale("symlog", linthresh=0.25)
    axes[row, 1].set_xlim(left=0)
    axes[row, 0].set_xlabel(axis_label("tau"))
    axes[row, 1].set_xlabel("η (symlog scale)")
axes[0, 0].set_title("naive Fair PLS (7 PLS components)")
axes[0, 1].set_title(f"Fair PLS ({n_components} components)")
plt.show()

# %%
published.reader_table(
    naive.groupby("threshold")[["kept", "cov2_y", "cov2_s"]].mean().rename(columns=COV2_WORDS),
    decimals={"kept": 1, COV2_WORDS["cov2_y"]: 4, COV2_WORDS["cov2_s"]: 4},
    title="Naive Fair PLS: components kept and squared covariances per threshold")

# %% [markdown]
# In the naive method, $\mathrm{Cov}^2(T, Y)$ and $\mathrm{Cov}^2(T, S)$ rise together as τ grows,
# because components enter whole: the component that adds target information also adds group
# information. Fair PLS trades a small loss of covariance with $Y$ for
# a large loss of covariance with $S$. This reproduces the conclusion of the paper's §8.4.
#
# ### Equalised group means (Fig. 6)
#
# With $\eta = \infty$, every component has zero covariance with the binary $S$. For a binary
# attribute this is equivalent to equal group means of the scores (§8.5 of the paper), which is the
# same criterion that Fair PCA imposes.

# %% mystnb={"figure": {"caption": "Our Fig. 6 of De-Diego et al.: the first two training scores of PLS (\u03b7 = 0, left) and of Fair PLS with the hard constraint (\u03b7 = \u221e, right), coloured by group, each group's mean drawn as a large black marker. The PLS group means lie apart; under the constraint they coincide, although the two clouds still differ in shape.", "name": "fig-fair-pls-group-means"}, "image": {"alt": "Two scatter plots of 1000 points, component 1 against component 2, blue circles for group 0 and orange squares for group 1. Left, PLS: the two black group-mean markers sit apart, one above the other near the centre. Right, Fair PLS with eta = infinity: the two means coincide at the origin, while the groups still occupy different regions of the plane."}}
fig, axes = plt.subplots(1, 2, figsize=(6.8, 3.2))
for ax, eta, title in zip(axes, [0.0, np.inf], ["PLS (η = 0)", "Fair PLS (η = ∞)"]):
    T = FairPLS(2, eta=eta).fit(X, y, sensitive_features=s).transform(X)
    plot_embedding(T, s, ax=ax, legend="right" if eta else False)
    for g, marker in ((0, "X"), (1, "P")):
        ax.scatter(*T[s == g].mean(axis=0), s=200, marker=marker, color="black")
    ax.set_title(title)
    gap = T[s == 1].mean(axis=0) - T[s == 0].mean(axis=0)
    print(f"{title:18s} group-mean gap per component: {np.round(gap, 6) + 0.0}")
plt.show()

# %% [markdown]
# ## Fair PLS versus Fair PCA on Adult (Fig. 7)
#
# The paper compares the two methods at $k = 2$ on Adult, with a logistic regression and a decision
# tree trained on the representation. We use `fairlab.datasets.load_adult` with
# `variant="pls"`: 99 one-hot features; the sensitive attribute is sex, which is not a feature; the
# target is income > 50K. The rows are standardised on each training split. Fair PLS is shown
# at η = 1 and η = ∞; η = ∞ imposes the same constraint as Fair PCA. Classifiers are trained on the
# training embedding and evaluated on the test rows. Disparate impact is the ratio of the positive
# rates of the two groups (1 = parity).

# %%
adult = load_adult(variant="pls")
Xa, ya, sa = adult.X.to_numpy(float), adult.y.to_numpy(), adult.sensitive.to_numpy()
if adult_rows is not None:
    pick = np.random.default_rng(seed).choice(len(Xa), adult_rows, replace=False)
    Xa, ya, sa = Xa[pick], ya[pick], sa[pick]
adult_splits_list = list(repeated_splits(Xa, ya, sa, n_splits=adult_splits, train_size=0.7,
                                         random_state=seed, standardize=True))
k = adult_components
representations = {"PLS": FairPLS(k, eta=0.0), "Fair PLS η=1": FairPLS(k, eta=1.0),
                    "Fair PLS η=∞": FairPLS(k, eta=np.inf), "Fair PCA": FairPCA(k)}
classifiers = {"logistic regression": LogisticRegression(max_iter=1000),
               "decision tree": DecisionTreeClassifier(random_state=seed)}
adult_results = pd.concat([
    evaluate_splits(representations, adult_splits_list,
                    score=classifier_score(clf)).assign(classifier=name)
    for name, clf in classifiers.items()
])
table = adult_results.groupby(["classifier", "method"], sort=False)[
    ["accuracy", "disparate_impact"]].agg(["mean", "std"])
published.reader_table(table, decimals=3, title="Adult: accuracy and disparate impact over the splits")

# %% mystnb={"figure": {"caption": "Our Fig. 7 of De-Diego et al.: test accuracy against disparate impact on Adult ($k = 2$) of a logistic regression (left) and a decision tree (right) trained on PLS, Fair PLS (\u03b7 = 1 and \u03b7 = \u221e) and Fair PCA representations, one marker per split. With the logistic regression, Fair PLS at \u03b7 = \u221e and Fair PCA reach a similar disparate impact, and Fair PLS keeps about three points more accuracy.", "name": "fig-fair-pls-adult"}, "image": {"alt": "Two scatter panels sharing an accuracy axis from 0.72 to 0.86, with disparate impact from 0.3 to 1 on the horizontal axis and three points per method. Logistic regression: PLS near disparate impact 0.3 to 0.4 and accuracy 0.85; Fair PLS with eta = 1 near 0.6 to 0.7 and 0.83 to 0.84; Fair PLS with eta = infinity near 0.92 to 0.98 and 0.82; Fair PCA near 0.85 to 0.98 and 0.78 to 0.79. Decision tree: PLS near 0.4 to 0.5 and 0.78 to 0.79; Fair PLS with eta = 1 near 0.55 to 0.62 and 0.76 to 0.78; Fair PLS with eta = infinity near 0.66 to 0.76 and 0.76 to 0.77; Fair PCA near 0.69 to 0.96 and 0.72 to 0.75."}}
fig, axes = plt.subplots(1, 2, figsize=(6.8, 3.6), sharey=True)
for ax, (name, part) in zip(axes, adult_results.groupby("classifier", sort=False)):
    sns.scatterplot(data=part, x="disparate_impact", y="accuracy", hue="method", style="method",
                    s=70, ax=ax)
    ax.set_title(name)
    ax.set_xlabel("disparate impact (1 = parity)")
axes[0].get_legend().remove()
legend_outside(axes[1], where="right", title="method")
plt.show()

# %% [markdown]
# Fair PLS at η = ∞ and Fair PCA satisfy the same linear constraint (equal group means of the
# representation). Both raise the disparate impact of the logistic regression from about 0.37 to
# about 0.9. Fair PLS keeps about three points more accuracy with either classifier, because its two directions are chosen for
# the target rather than for the variance of $X$. The paper reports the same gap: about 0.83 vs
# 0.76 for the logistic regression, and 0.78 vs 0.75 for the tree. The decision tree, which is not
# linear, still finds some group information in the fair representation, because equal means do
# not imply equal distributions. With the tree, Fair PCA's representation gives the higher
# disparate impact (about 0.82 against 0.71).
#
# ## Kernel and equalised-odds variants
#
# `fairlab.KernelFairPLS` (§4.1 and Algorithm 4 of the paper) works with a Gram matrix instead of $X$ and
# penalises HSIC {cite}`gretton2005measuring` with a kernel on $S$. The same low-rank argument
# applies: with $\tilde K_S = LL^\top$, the component comes from the eigenproblem of the small Gram
# matrix $[Y, L]^\top \tilde K_h [Y, L]$. With linear kernels it coincides with
# `FairPLS(scale=False)`. `fairness="equalized_odds"` (§4.2 of the paper) penalises the conditional
# cross-covariance $C_{Xw,S\mid Y}$, i.e. the covariance with the residual of $S$ after a linear
# regression on $Y$.

# %%
lin = FairPLS(2, eta=1.0, scale=False).fit(X, y, sensitive_features=s)
ker = KernelFairPLS(2, eta=1.0, kernel="linear").fit(X, y, sensitive_features=s)
print("linear KernelFairPLS = FairPLS(scale=False) to 1e-10 (up to sign):",
      np.abs(np.abs(ker.x_scores_) - np.abs(lin.x_scores_)).max() < 1e-10)
rbf = KernelFairPLS(2, eta=np.inf, gamma=0.05).fit(X, y, sensitive_features=s)
T = rbf.transform(X)
print("rbf KernelFairPLS (η = ∞): Cov²(T, S) < 1e-20:", cov2(T, s) < 1e-20,
      "  Cov²(T, Y) =", round(cov2(T, y), 3))
eo = FairPLS(2, eta=np.inf, fairness="equalized_odds").fit(X, y, sensitive_features=s)
T = eo.transform(X)
s_given_y = s - np.polyval(np.polyfit(y, s, 1), y)  # residual of s after a linear fit on y
print("equalized odds (η = ∞): Cov²(T, S) =", round(cov2(T, s), 4),
      "  Cov²(T, S | Y) < 1e-20:", cov2(T, s_given_y) < 1e-20)

# %% [markdown]
# ## Running time (Fig. 8)
#
# The paper times Fair PLS against scikit-learn's PLS as a function of the dimension $d$. The second
# cell below runs a small version of that sweep (one component, $n = 1000$, single-threaded BLAS); its
# timings depend on the machine, so nbval does not compare them. `benchmarks/bench_pls.py` runs
# the full grid ($d$ up to 2000, $k \in \{1, 5\}$) and also times the paper's gradient algorithm
# (one pass over $X$ per step). `make bench` times `FairPLS` (η = 1, $n = 1000$) against
# `PLSRegression` on that grid and writes the ratios to a file; the first table below shows its last
# run, and the benchmark page of the appendix, {ref}`appendix-benchmarks`, the machine that ran it. At
# $d = 10$ both fits take well under a millisecond, almost all of it input validation, so the goal of
# parity is met or missed there by the noise of that machine.

# %%
bench = benchmark_ratios("FairPLS")
published.reader_table(bench[["case", "ratio", "goal", "status"]], decimals={"ratio": 2},
                       title=bench.measure.iloc[0] + ": time ratios of the last make bench")

# %% tags=["nbval-ignore-output"] mystnb={"figure": {"caption": "A small version of the paper's Fig. 8: the fastest of five fits of one component ($n = 1000$, single-threaded BLAS) against the dimension $d$, on the machine that built this page. The closed-form `FairPLS`, with or without a penalty, is about as fast as scikit-learn's `PLSRegression` at small $d$ and faster at $d = 1000$; the seconds depend on the machine and its load, and `benchmarks/bench_pls.py` runs the full grid.", "name": "fig-fair-pls-runtime"}, "image": {"alt": "Line plot on log-log axes of running time in seconds, the fastest of five repeats, against data dimension d = 10, 100 and 1000, with one line each for scikit-learn's PLSRegression, FairPLS with eta = 0, FairPLS with eta = 1 and FairPLS with eta = 1 using the gradient solver. The four lines lie close together, at a few milliseconds or less, for d = 10 and 100, and all rise by roughly an order of magnitude at d = 1000."}}
methods = {
    "sklearn PLSRegression": lambda D: PLSRegression(1).fit(D["X"], D["y"]),
    "FairPLS η=0": lambda D: FairPLS(1, eta=0.0).fit(D["X"], D["y"], sensitive_features=D["s"]),
    "FairPLS η=1": lambda D: FairPLS(1, eta=1.0).fit(D["X"], D["y"], sensitive_features=D["s"]),
    "FairPLS η=1, gradient": lambda D: FairPLS(1, eta=1.0, solver="gradient").fit(
        D["X"], D["y"], sensitive_features=D["s"]),
}
rng = np.random.default_rng(seed)
with threadpool_limits(1):
    times = runtime_sweep(
        methods,
        lambda d: {"X": rng.normal(size=(1000, d)) + np.arange(1000)[:, None] % 2,
                   "y": rng.normal(size=1000), "s": np.arange(1000) % 2},
        [{"d": d} for d in runtime_dims], repeats=5, warmup=True)
fig, ax = plt.subplots(figsize=(6.8, 3.4))
plot_runtime(times, y="seconds_min", ax=ax)
plt.show()

# %% tags=["nbval-ignore-output"]
times.pivot(index="d", columns="method", values="seconds_min").mul(1e3).round(2)

# %% [markdown]
# ## Choices where the paper is silent
#
# * **Scaling of $S$.** The paper normalises its inputs (App. 8.2) but does not say whether $S$ is
#   scaled. With `scale=True`, `FairPLS` standardises $S$ as well as $X$ and $Y$, so η weighs
#   squared covariances of standardised variables against each other. `scale=False` only centres.
# * **Encoding of $S$.** Numeric columns are used as they are (a continuous $S$ is allowed). A
#   categorical column with $m$ levels becomes $m - 1$ indicator columns, so a binary attribute gives
#   the same model whether it is coded as strings, booleans or 0/1. With all $m$ indicators, the two
#   centred columns of a binary attribute would be opposite and the penalty would double.
# * **Equalised odds.** $C_{Xw,S\mid Y} = C_{Xw,S} - C_{Xw,Y}C_{YY}^{-1}C_{YS}$ is the covariance
#   with $S - Y(Y^\top Y)^{+}Y^\top S$, computed once with the undeflated $Y$.
# * **Gradient solver.** The paper gives neither the step size nor the starting point. We start
#   from the first target's PLS direction, and the default step keeps every factor of the
#   iteration in $[0, 2]$.
# * **Reconstruction error.** We report the fraction of the energy of the standardised data that
#   lies outside the span of the weights; the paper's $\mathrm{tr}((X - r(X))^\top(X - r(X)))$
#   leaves the normalisation unsaid.
#
# ## Exercises
#
# ```{exercise}
# :label: ex-fair-pls-monotone
#
# Let $f(w) = \|Y^\top X w\|^2$ and $g(w) = \|S^\top X w\|^2$, and let $w_1, w_2$ be first Fair
# PLS weights for $\eta_1 < \eta_2$. Show that $g(w_2) \le g(w_1)$ and $f(w_2) \le f(w_1)$.
# ```
#
# ```{solution} ex-fair-pls-monotone
# :class: dropdown
#
# Optimality of $w_1$ at $\eta_1$ gives $f(w_1) - \eta_1 g(w_1) \ge f(w_2) - \eta_1 g(w_2)$;
# optimality of $w_2$ at $\eta_2$ gives $f(w_2) - \eta_2 g(w_2) \ge f(w_1) - \eta_2 g(w_1)$.
# Adding the two gives $(\eta_2 - \eta_1)(g(w_1) - g(w_2)) \ge 0$, hence $g(w_2) \le g(w_1)$.
# The first inequality then gives $f(w_1) - f(w_2) \ge \eta_1(g(w_1) - g(w_2)) \ge 0$.
# `tests/test_pls.py` checks both on random instances.
# ```
#
# ```{exercise}
# :label: ex-fair-pls-rank
#
# With one target and one binary sensitive attribute, $M_h = aa^\top - \eta bb^\top$ has rank 2.
# Write its two nonzero eigenvalues in terms of $\|a\|$, $\|b\|$, $a^\top b$ and η. When is the
# leading eigenvalue zero?
# ```
#
# ```{solution} ex-fair-pls-rank
# :class: dropdown
#
# In the basis $\{a, b\}$, $M_h$ acts as the $2\times 2$ matrix $D G$ with $D = \mathrm{diag}(1,
# -\eta)$ and Gram matrix $G = \begin{pmatrix}\|a\|^2 & a^\top b\\ a^\top b & \|b\|^2\end{pmatrix}$.
# Its eigenvalues are $\tfrac12\big(\|a\|^2 - \eta\|b\|^2 \pm \sqrt{(\|a\|^2 + \eta\|b\|^2)^2 -
# 4\eta (a^\top b)^2}\big)$. Their product is $-\eta(\|a\|^2\|b\|^2 - (a^\top b)^2) \le 0$, so one is
# non-negative and one non-positive. If $a \not\parallel b$ the product is negative, so the leading
# eigenvalue is positive. If $a \parallel b$ (the target's cross-covariance lies inside the
# sensitive one), the eigenvalues are $0$ and $\|a\|^2 - \eta\|b\|^2$, so the leading eigenvalue
# is zero exactly when $\eta \ge \|a\|^2/\|b\|^2$. Beyond that point no score can covary with $Y$
# without paying more for its covariance with $S$, and the best component has objective 0.
# ```
