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
# # Fair PCA: from independence to a null-space eigenproblem
#
# Principal component analysis finds the $k$-dimensional subspace that best approximates the data.
# *Fair* PCA asks for the best subspace from which the demographic group of a point can no longer be
# read. This chapter derives the formulation of {cite}`kleindessner2023efficient` step by step, shows
# that its solution is an ordinary symmetric eigenproblem (so it costs what PCA costs), interprets the
# constraint as *equal group-conditional means*, checks the paper's Proposition 1 (here
# {prf:ref}`prop-gaussian`) numerically, and ends with the
# counterexample that explains why two relaxations are needed.
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. derive fair PCA's constraint $U^\top X^\top\tilde z = 0$ from the requirement that no linear function of the representation correlates with the group, and read it as equal group means;
# 2. compute fair PCA as PCA restricted to a null space (the paper's Algorithm 1) and check the result against `fairlab.FairPCA`;
# 3. state when the relaxation loses nothing (two Gaussian groups with equal covariances), and build the counterexample in which it does.
#
# **Prerequisites.** {doc}`03_measuring_fairness` (a zero covariance with the group is the same as equal group means, {prf:ref}`prop-cov-means`); eigenvectors of a symmetric matrix and why PCA takes the top ones, null spaces and orthonormal bases.
#
# **Time.** About 40 minutes to read and work through; the notebook runs in {{ run_time_04 }} at its defaults.
#
# {{ run_it }}
# :::
#
# Notation: the data are the rows $x_i^\top$ of $X \in \mathbb R^{n\times d}$ (the paper stores points as
# columns; we follow scikit-learn), $z_i \in \{0,1\}$ is the group of row $i$, and $U\in\mathbb R^{d\times k}$
# with $U^\top U = I_k$ spans the subspace; the representation of $x$ is $U^\top x$. The equation numbers
# (2)–(4) are those of the paper.

# %% tags=["parameters"]
n_per_group = 500    # points per group in the Gaussian examples
n_features = 6       # dimension d of the Gaussian examples
n_components = 2     # target dimension k
n_circle = 40        # points of the App. A.1 counterexample (half at the origin, half on a circle)
seed = 0             # random seed

# %%
import matplotlib.pyplot as plt
import numpy as np
from scipy.linalg import null_space
from sklearn.decomposition import PCA
from sklearn.model_selection import cross_val_score
from sklearn.svm import SVC

from fairlab import FairPCA, check_parameters, published
from fairlab.datasets import make_circle_counterexample
from fairlab.evaluation import benchmark_ratios
from fairlab.metrics import linear_inseparability, mean_gap
from fairlab.plotting import book_style, legend_outside, plot_embedding

check_parameters(globals(), n_per_group=int, n_features=int, n_components=int, n_circle=int,
                 seed=int)

book_style()
rng = np.random.default_rng(seed)

# %% [markdown]
# ## PCA and the ideal fair problem
#
# PCA solves
#
# $$
# \max_{U^\top U = I_k} \operatorname{tr}\bigl(U^\top X^\top X U\bigr),
# \tag{2}
# $$
#
# whose solution is given by the top-$k$ eigenvectors of $X^\top X$ (of the covariance matrix once $X$ is
# centred). The ideal fair version adds that *no function* of the representation may carry information
# about the group:
#
# \begin{equation*}
# \begin{aligned}
# \max_{U \in \mathcal U}\ & \operatorname{tr}\bigl(U^\top X^\top X U\bigr), \quad \text{where}\\
# \mathcal U = \bigl\{U :\ & U^\top U = I_k, \text{ and } h(U^\top x_i) \text{ and } z_i \text{ are independent}\\
# & \text{for every } h:\mathbb R^k\to\mathbb R\bigr\}.
# \end{aligned}
# \tag{3}
# \end{equation*}
#
# Problem (3) can be empty: linear projections are not flexible enough to remove all
# information ({numref}`sec-fpca-counterexample` builds the example). The paper relaxes (3) **twice**:
# only *linear* functions $h(u) = w^\top u + b$, and only *uncorrelated* rather than independent:
#
# \begin{equation*}
# \begin{aligned}
# \max_{U \in \mathcal U'}\ & \operatorname{tr}\bigl(U^\top X^\top X U\bigr), \quad \text{where}\\
# \mathcal U' = \bigl\{U :\ & U^\top U = I_k, \text{ and}\\
# & \operatorname{Cov}(w^\top U^\top x_i + b,\ z_i) = 0 \text{ for all } w, b\bigr\}.
# \end{aligned}
# \tag{4}
# \end{equation*}
#
# (sec-fpca-relaxed-constraint)=
# ## The relaxed constraint is linear in $U$
#
# With $\bar z = \frac1n\sum_i z_i$ and the centred indicator $\tilde z = (z_1-\bar z, \dots, z_n - \bar z)^\top$,
#
# $$
# \begin{aligned}
# \operatorname{Cov}(w^\top U^\top x_i + b, z_i) = 0\ \forall w,b
# &\iff \textstyle\sum_i (z_i - \bar z)\, w^\top U^\top x_i = 0\ \forall w\\
# &\iff U^\top X^\top \tilde z = 0 .
# \end{aligned}
# $$
#
# So $U$ must be orthogonal to the single vector $X^\top\tilde z \in \mathbb R^d$. Let $R \in \mathbb R^{d\times(d-1)}$
# be an orthonormal basis of its orthogonal complement (the null space of $\tilde z^\top X$). Every feasible $U$
# is $U = R\Lambda$ with $\Lambda^\top\Lambda = I_k$, and the objective becomes
# $\operatorname{tr}(\Lambda^\top R^\top X^\top X R \Lambda)$: **PCA of the matrix $R^\top X^\top X R$**.
#
# ```{prf:algorithm} Fair PCA (the paper's Algorithm 1)
# :label: alg-fair-pca
#
# **Inputs** data $X\in\mathbb R^{n\times d}$, groups $z\in\{0,1\}^n$, target dimension $k \le d-1$
#
# **Output** $U\in\mathbb R^{d\times k}$ solving (4)
#
# 1. $\tilde z \leftarrow z - \bar z\,\mathbf 1$
# 2. $R \leftarrow$ orthonormal basis of the null space of $\tilde z^\top X$
# 3. $\Lambda \leftarrow$ top-$k$ eigenvectors of $R^\top X^\top X R$
# 4. return $U = R\Lambda$
# ```
#
# The cost is one $d\times d$ matrix product $X^\top X$ ($O(nd^2)$) and one symmetric eigendecomposition
# ($O(d^3)$), exactly as for PCA. `fairlab.FairPCA` computes the same $U$ without forming $R$: it deflates the
# single forbidden direction out of $X^\top X$ with a rank-2 update, so the extra work is $O(d^2)$, and the
# group sums of $X^\top\tilde Z$ are computed in a second thread while the BLAS forms $X^\top X$.
#
# `make bench` times `FairPCA` against scikit-learn's *default* `PCA` on the same data (two and five groups,
# $k = 10$; at $5000\times 3000$ `PCA` uses its randomized solver while Fair PCA stays exact) and, on tall data,
# against the floor of one $X^\top X$ plus one symmetric eigendecomposition. It writes the ratios (Fair PCA's
# time over the reference's) to a file; the benchmark page of the appendix, {ref}`appendix-benchmarks`, shows its
# last run case by case, beside each goal and the machine. In one line:

# %% tags=["remove-input"]
bench = benchmark_ratios("FairPCA.fit /")
against_pca = bench[bench.measure.str.contains("PCA(", regex=False)]
published.Prose(f"Fair PCA's fit takes a median {against_pca.ratio.median():.2f} times the time of scikit-learn's "
                f"default `PCA` over the {len(against_pca)} cases of the last `make bench`; "
                f"{int(bench.status.eq('met').sum())} of its {len(bench)} goals are met.")

# %% [markdown]
# Below, the two groups are Gaussians with a shared, anisotropic covariance and different means.
# We run the four lines of {prf:ref}`alg-fair-pca` with SciPy and compare with `FairPCA` (`center=False` is the paper's
# uncentred $X^\top X$).

# %%
A = rng.normal(size=(n_features, n_features)) * np.linspace(2.0, 0.5, n_features)
mu = rng.normal(size=n_features) * 1.5
z = np.repeat([0, 1], n_per_group)
X = rng.normal(size=(2 * n_per_group, n_features)) @ A + np.outer(z, mu)

# Algorithm 1, literally
z_tilde = z - z.mean()
R = null_space((z_tilde @ X)[None, :])
eigenvalues, Lam = np.linalg.eigh(R.T @ X.T @ X @ R)
U_alg1 = R @ Lam[:, ::-1][:, :n_components]

fair = FairPCA(n_components, center=False).fit(X, sensitive_features=z)
U = fair.components_.T
print("R has shape", R.shape)
print("same subspace as Algorithm 1:", np.allclose(U @ U.T, U_alg1 @ U_alg1.T, atol=1e-10))
print("|U^T X^T z~| =", np.round(np.abs(U.T @ X.T @ z_tilde).max(), 10))

# %% [markdown]
# ## Interpretation: equal group-conditional means
#
# $U^\top X^\top \tilde z = 0$ is the same as
#
# $$
# \frac{1}{|\{i: z_i = 0\}|}\sum_{i: z_i=0} U^\top x_i \;=\; \frac{1}{|\{i: z_i = 1\}|}\sum_{i: z_i=1} U^\top x_i ,
# $$
#
# because $\sum_i \tilde z_i U^\top x_i = n\,\bar z (1-\bar z)\,(\bar u_1 - \bar u_0)$. Fair PCA is the best
# approximating projection **whose two groups have the same mean**. Standard PCA, in contrast, is free to align
# with the mean difference $\mu$ when it carries variance:

# %%
pca = PCA(n_components).fit(X)
for name, emb in [("PCA", pca.transform(X)), ("Fair PCA", fair.transform(X))]:
    gap = mean_gap(emb, z)
    print(f"{name:9s} group-mean gap = {gap:.4f}")

# %% mystnb={"figure": {"caption": "The two-dimensional PCA and Fair PCA representations of two Gaussian groups with a shared covariance. PCA separates the groups along component 2; Fair PCA gives them the same mean.", "name": "fig-fpca-derivation-embeddings"}, "image": {"alt": "Two scatter plots of 1000 points coloured by group 0 and group 1, titled PCA and Fair PCA. In the PCA panel group 1 lies above group 0 along the vertical component; in the Fair PCA panel both groups form one round cloud with the same centre."}}
fig, axes = plt.subplots(1, 2, figsize=(6.8, 3.2))
plot_embedding(pca.transform(X), z, ax=axes[0], legend=False)
axes[0].set_title("PCA")
plot_embedding(fair.transform(X), z, ax=axes[1])
axes[1].set_title("Fair PCA")
plt.show()

# %% [markdown]
# ## When the relaxation loses nothing (the paper's Proposition 1)
#
# ```{prf:proposition} The paper's Proposition 1
# :label: prop-gaussian
#
# If the points come from a mixture of two Gaussians with identical covariance matrices, one Gaussian per
# group, then in the limit $n\to\infty$ problems (3) and (4) are equivalent.
# ```
#
# ```{prf:proof}
# Let $x \mid z=l \sim \mathcal N(\mu_l, \Sigma)$. Then $U^\top x \mid z = l \sim \mathcal N(U^\top\mu_l, U^\top\Sigma U)$.
# For $U\in\mathcal U'$ the group means of the projection coincide, $U^\top\mu_0 = U^\top\mu_1$, so both
# conditional distributions are the same Gaussian: $U^\top x$ is independent of $z$, and so is $h(U^\top x)$ for
# every $h$.
# ```
#
# Numerically: the data above satisfy the assumption. A non-linear classifier (an RBF support vector machine,
# 5-fold cross-validated) tries to predict the group from each 2-D representation. With balanced groups,
# chance level is 0.5. We also report the linear inseparability of the paper (error of a logistic model,
# higher is fairer, at most 0.5 here).

# %%
for name, emb in [("PCA", pca.transform(X)), ("Fair PCA", fair.transform(X))]:
    acc = cross_val_score(SVC(kernel="rbf", gamma="scale"), emb, z, cv=5).mean()
    print(f"{name:9s} RBF-SVM accuracy = {acc:.2f}   linear inseparability = "
          f"{linear_inseparability(emb, z):.2f}")

# %% [markdown]
# With a *shared* covariance the fair representation leaves the SVM at chance. When the group covariances
# differ, equal means are not enough; the next chapter's Fair PCA-S also equalises covariances.
#
# (sec-fpca-counterexample)=
# ## Why both relaxations are needed (the paper's Appendix A.1)
#
# Put $n'$ points of group 0 at the origin of $\mathbb R^2$ and $n'$ points of group 1 equidistantly on a circle
# around it, and take $k = 1$. Both group means are $0$, so **every** direction satisfies the constraint of (4),
# and fair PCA simply returns the direction of largest second moment. Yet:
#
# * with all functions $h$ (first relaxation undone): $h(u) = \mathbb 1[u\neq 0]$ recovers $z$ from $u = U^\top x$
#   for all but at most two points, so (3) has no feasible $U$; since this $h(U^\top x)$ is even *correlated* with
#   $z$, keeping "all $h$" while relaxing only to "uncorrelated" does not help either;
# * with linear $h$ but independence (second relaxation undone): $h(u) = u$ is uncorrelated with $z$ (covariance
#   $0$), but not independent of it: the conditional variance of $u$ is $0$ in group 0 and $r^2/2$ in group 1.

# %%
Xc, zc = make_circle_counterexample(n_circle)
fair_c = FairPCA(1, center=False).fit(Xc, sensitive_features=zc)
u = fair_c.transform(Xc).ravel()
h = (np.abs(u) > 1e-12).astype(int)
print("group means of u:", np.round([u[zc == 0].mean(), u[zc == 1].mean()], 12) + 0.0)
print("Cov(u, z) =", round(float(np.cov(u, zc)[0, 1]), 12) + 0.0)
print("Var(u | z=0) =", round(float(u[zc == 0].var()), 4), " Var(u | z=1) =", round(float(u[zc == 1].var()), 4))
# The circle's second-moment matrix is isotropic, so the chosen direction is arbitrary; whatever it
# is, at most two circle points project exactly onto 0.
print(f"accuracy of h(u) = 1[u != 0] is at least {1 - 2 / n_circle:.2f}:",
      bool(np.mean(h == zc) >= 1 - 2 / n_circle))
print("h(u) is strongly correlated with z (> 0.9):", bool(np.corrcoef(h, zc)[0, 1] > 0.9))

# %% mystnb={"figure": {"caption": "The origin-versus-circle counterexample ($k = 1$). Left: the data and the direction fair PCA chooses; right: the one-dimensional representation per group. Both groups have mean 0, yet $u \\neq 0$ identifies group 1.", "name": "fig-fpca-derivation-circle"}, "image": {"alt": "Left: group 0 as a single point at the origin and group 1 as 20 points on the unit circle, with a dashed vertical line through the origin marking the fair PCA direction. Right: the projections u on a horizontal axis, group 0 all at u = 0 and group 1 spread between -1 and 1."}}
fig, axes = plt.subplots(1, 2, figsize=(6.8, 3.4))
direction = fair_c.components_[0]
plot_embedding(np.column_stack([Xc[:, 0], Xc[:, 1]]), zc, ax=axes[0], xlabel="$x_1$", ylabel="$x_2$",
               legend=False)
axes[0].axline((0, 0), tuple(direction), color="k", lw=1, ls="--", label="fair PCA direction")
axes[0].set_aspect("equal")
axes[0].set_title("data and the chosen direction")
legend_outside(axes[0], where="below")
for g, marker in [(0, "o"), (1, "s")]:
    axes[1].scatter(u[zc == g], np.full((zc == g).sum(), g), marker=marker, label=f"group {g}")
axes[1].set_xlabel("projection $u = U^T x$")
axes[1].set_ylabel("group $z$")
axes[1].set_yticks([0, 1])
axes[1].set_title("1-D fair representation")
legend_outside(axes[1], where="below")
plt.show()

# %% [markdown]
# ## Several groups (a preview)
#
# For $m$ groups, $\tilde z$ becomes the $n\times m$ matrix $\tilde Z$ of centred one-hot columns (the paper's Algorithm 2);
# $\operatorname{rank}\tilde Z = m-1$, so $R$ has at least $d-m+1$ columns and any $k\le d-m+1$ is feasible.
# `FairPCA` accepts any hashable group labels and several attribute columns at once; the next chapter explores
# these variants, equal opportunity, covariance equalisation, and the accuracy–fairness knob.
#
# ## A continuous attribute (a preview)
#
# Nothing in the derivation used that $z$ takes two values: the constraint $\tilde z^\top X U = 0$ says that
# every component has zero covariance with the centred attribute. With a continuous attribute $s$ (age,
# income) in place of $z$, the same closed form, PCA inside $\operatorname{null}(\tilde s^\top X)$, gives the
# best projection uncorrelated with $s$: `FairPCA(sensitive_type="continuous")`. For a binary attribute both
# readings give the same components, as the centred indicator and the centred column span the same line.
# {ref}`sec-fpca-continuous` works the example of age on Adult.
#
# ## Exercises
#
# ```{exercise}
# :label: ex-fpca-means
#
# Show that $U^\top X^\top \tilde z = 0$ holds if and only if the projected group means coincide, and compute the
# constant $c$ in $U^\top X^\top\tilde z = c\,(\bar u_1 - \bar u_0)$.
# ```
#
# ```{solution} ex-fpca-means
# :class: dropdown
#
# With $n_1 = \sum_i z_i$ and $n_0 = n-n_1$, $\sum_i \tilde z_i U^\top x_i = \sum_{i:z_i=1}(1-\bar z)U^\top x_i -
# \sum_{i:z_i=0}\bar z\,U^\top x_i = n_1(1-\bar z)\bar u_1 - n_0\bar z\,\bar u_0$. Since $n_1(1-\bar z) = n_1 n_0/n =
# n_0\bar z$, this is $\frac{n_0 n_1}{n}(\bar u_1-\bar u_0)$, so $c = n_0n_1/n > 0$ whenever both groups are non-empty.
# ```
#
# ```{exercise}
# :label: ex-fpca-bound
#
# For $m$ groups, show that the columns of $\tilde Z$ sum to zero and that any $m-1$ of them are linearly
# independent. Deduce the bound $k \le d - m + 1$ and the value `FairPCA` uses for `n_components=None`.
# ```
#
# ```{solution} ex-fpca-bound
# :class: dropdown
#
# Each row of the one-hot matrix $Z$ sums to 1, so each row of $\tilde Z = Z - \mathbf 1\bar z^\top$ sums to
# $1 - \sum_l \bar z^{(l)} = 0$: the $m$ columns add up to zero and $\operatorname{rank}\tilde Z\le m-1$. If
# $\sum_{l<m} a_l\tilde Z^{(l)} = 0$, look at a row of group $l<m$ and a row of group $m$: the difference of the two
# rows gives $a_l = 0$. Hence $\operatorname{rank}\tilde Z = m-1$, $\operatorname{rank}(\tilde Z^\top X)\le m-1$,
# and the null space of $\tilde Z^\top X$ has dimension $\ge d-m+1$. `FairPCA(n_components=None)` keeps
# $\min(n, d - \sum_r (m_r - 1))$ components.
# ```
#
# ```{exercise}
# :label: ex-fpca-numerical
#
# Using `FairPCA` only, verify numerically on the Gaussian data above that fair PCA with $k=d-1$ spans exactly
# the orthogonal complement of $X^\top\tilde z$ (the subspace onto which spectral attribute removal projects).
# Hint: compare `fair.components_` with the matrix `R` of {numref}`sec-fpca-relaxed-constraint`.
# ```
#
# ```{solution} ex-fpca-numerical
# :class: dropdown
#
# `U = FairPCA(n_features - 1, center=False).fit(X, sensitive_features=z).components_.T`; then
# `np.linalg.svd(U.T @ R, compute_uv=False)` consists of ones (to about $10^{-15}$): the two
# $(d-1)$-dimensional subspaces coincide. For $k = d-1$ the eigenproblem only chooses an orthonormal basis of
# $\operatorname{range}(R)$, so the representation is $R$ up to a rotation.
# ```

# %% tags=["solution", "hide-input"]
from fairlab import exercises

U = FairPCA(n_features - 1, center=False).fit(X, sensitive_features=z).components_.T
exercises.check("ex-fpca-numerical", U.T @ R)
