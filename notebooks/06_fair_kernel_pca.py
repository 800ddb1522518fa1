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
# # Fair kernel PCA: an exact eigenproblem, and Nyström for large data
#
# Fair PCA {cite}`kleindessner2023efficient` finds the best $k$-dimensional linear projection of the
# data under which every demographic group has the same mean. Its guarantee is *linear*: no linear
# function of the representation correlates with group membership. When the groups differ in a
# non-linear way, for instance in their spread rather than their location, the constraint is blind to
# it. Section 3.3 of the paper therefore kernelizes fair PCA in the manner of kernel PCA
# {cite}`scholkopf1998nonlinear`. The result is the paper's Algorithm 3, a generalized eigenproblem on
# $(n-1)\times(n-1)$ matrices. When its right-hand matrix is singular, the paper falls back to a
# $10^{-5}$ ridge (App. C.1).
#
# This notebook does three things:
#
# 1. It derives a shorter route: fair kernel PCA **is** kernel PCA on a projected Gram matrix. That
#    is one symmetric eigenproblem, with no ridge, and a top-$k$ solver can handle it. We check
#    numerically that it agrees with the paper's Algorithm 3 to rounding, once Algorithm 3 is solved on the
#    range of its right-hand matrix instead of with a ridge.
# 2. It shows a non-linear toy. There, linear fair PCA cannot act, because the group means already
#    coincide, while fair kernel PCA removes much of the group signal.
# 3. It measures how quickly the Nyström approximation {cite}`williams2001nystrom` converges to the
#    exact solution as the number of landmarks grows. This approximation is what lets
#    `FairKernelPCA` run on all 45 222 rows of Adult. The paper leaves scalable fair kernel PCA as
#    open work (App. C.7).
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. derive that fair kernel PCA is kernel PCA of the projected Gram matrix $G = K - KZ(Z^\top KZ)^{+}Z^\top K$, and check it against the paper's Algorithm 3;
# 2. explain, on the origin-versus-circle toy, what fair kernel PCA removes that linear fair PCA cannot, and what it leaves;
# 3. fit `FairKernelPCA` with the Nyström approximation and choose the number of landmarks from its error curve.
#
# **Prerequisites.** {doc}`04_fair_pca_derivation` (fair PCA as a null-space problem, and the circle counterexample) and {doc}`03_measuring_fairness` (MMD²); kernel PCA (the kernel trick, the representer theorem, centring a Gram matrix), orthogonal projectors and the pseudo-inverse.
#
# **Time.** About 50 minutes to read and work through; the notebook runs in {{ run_time_06 }} at its defaults.
#
# {{ run_it }}
# :::

# %% tags=["parameters"]
seed = 0                 # random seed of every data set and solver in this notebook
n_check = 300            # rows of the random instance used to compare with Algorithm 3
n_groups_check = 3       # groups in that instance (Algorithm 3 handles any m ≥ 2)
n_components = 5         # embedding dimension k of the comparison
n_toy = 400              # points of the origin-versus-circle toy (even)
toy_noise = 0.15         # Gaussian noise added to the toy
toy_gammas = [0.5, 2.0, 5.0]  # RBF coefficients gamma tried on the toy
nystroem_rows = 1000     # Adult rows used for the Nyström study (all 45222: far too slow exactly)
landmark_grid = [25, 50, 100, 200, 400, 1000]  # numbers of landmarks (each ≤ nystroem_rows)

# %%
import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.linalg import subspace_angles
from sklearn.decomposition import KernelPCA
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from fairlab import (
    FairKernelPCA,
    FairKernelProjection,
    FairPCA,
    check_parameters,
    metrics,
    published,
)
from fairlab.datasets import load_adult, make_circle_counterexample
from fairlab.evaluation import benchmark_ratios
from fairlab.plotting import book_style, legend_outside, plot_component_map, plot_embedding

check_parameters(globals(), seed=int, n_check=int, n_groups_check=int, n_components=int, n_toy=int,
                 toy_noise=float, toy_gammas=list, nystroem_rows=int, landmark_grid=list)

book_style()
rng = np.random.default_rng(seed)

# %% [markdown]
# ## From the representer theorem to a projected Gram matrix
#
# Let $\varphi$ be the feature map of a kernel $k(x, y) = \langle \varphi(x), \varphi(y)\rangle$. Let
# $\Phi$ be the $n\times D$ matrix of training features, $K = \Phi\Phi^\top$ the Gram matrix and $Z$ the
# $n\times m$ one-hot matrix of the groups, centred column-wise. With features as rows, fair PCA in
# feature space reads
#
# $$
# \max_{U^\top U = I_k} \operatorname{tr}(U^\top \Phi^\top \Phi U)
# \quad\text{subject to}\quad Z^\top \Phi U = 0 .
# $$
#
# The paper writes $U = \Phi^\top B$ (representer theorem). This gives
# $\max \operatorname{tr}(B^\top K K B)$ subject to $B^\top K B = I$ and $Z^\top K B = 0$. With $R$ an
# orthonormal basis of the null space of $Z^\top K$ and $B = R\Lambda$, it becomes the generalized
# eigenproblem $R^\top K K R\,\Lambda = R^\top K R\,\Lambda W$ of the paper's Algorithm 3 ("Algorithm 3" below).
#
# The constraint has a simpler reading. It says that $U$ is orthogonal to the $m$ vectors
# $A = \Phi^\top Z$. Let $P = I - A(A^\top A)^{+}A^\top$ be the orthogonal projector onto $A^\perp$.
# Then the problem is plain kernel PCA of the projected features $P\varphi(x_i)$, and their Gram
# matrix needs nothing but $K$ and $Z$.
#
# ```{prf:proposition} Fair kernel PCA is kernel PCA of a projected Gram matrix
# :label: prop-projected-gram
#
# Let $G = K - KZ\,(Z^\top K Z)^{+} Z^\top K$ and let $(\lambda_j, v_j)$, $j\le k$, be its top
# eigenpairs, with $\lambda_j > 0$. The directions $u_j = P\Phi^\top v_j/\sqrt{\lambda_j}$ solve the
# fair PCA problem in feature space. The training embedding is $\Phi u_j = v_j\sqrt{\lambda_j}$, and it
# has exactly equal group means. A new point $x$ is embedded as $k(x, X)^\top c_j$, where
# $c_j = \bigl(v_j - Z(Z^\top K Z)^{+}Z^\top K v_j\bigr)/\sqrt{\lambda_j}$.
# ```
#
# ```{prf:proof}
# $A^\top A = Z^\top K Z$ and $\Phi A = KZ$, so $\Phi P \Phi^\top = G$. Any feasible $U$ satisfies
# $U = PU$, so the objective is $\operatorname{tr}(U^\top P\Phi^\top\Phi P U)$. This is maximised over
# orthonormal $U$ in $\operatorname{range}(P)$ by the top eigenvectors of $P\Phi^\top\Phi P$. Those
# eigenvectors are $P\Phi^\top v_j/\sqrt{\lambda_j}$, because $P\Phi^\top\Phi P$ and $\Phi P\Phi^\top = G$
# share their non-zero spectrum. For the group means, $K \succeq 0$ gives
# $KZ(Z^\top KZ)^+Z^\top KZ = KZ$, hence $GZ = 0$. Every eigenvector with $\lambda_j > 0$ therefore
# satisfies $Z^\top v_j = 0$, which is the statement that the groups have equal means. Finally,
# $P\Phi^\top = \Phi^\top\bigl(I - Z(Z^\top KZ)^+Z^\top K\bigr)$ gives $u_j = \Phi^\top c_j$.
# ```
#
# **Centring.** Kernel PCA centres the features: $K_c = HKH$ with $H = I - \mathbf 1\mathbf 1^\top/n$.
# The columns of $Z$ are centred, so $HZ = Z$ and $Z^\top \Phi_c = Z^\top\Phi$. The constraint is
# therefore the same with or without centring, and we only replace $K$ by $K_c$ everywhere. Then
# $G\mathbf 1 = 0$ as well, so the training embedding has zero mean *and* equal group means.
#
# The paper's own experiments use the uncentred $K$; `center=False` reproduces them. New points are
# centred with the training statistics (scikit-learn's `KernelCenterer`).
#
# **Scale.** Both $v_j\sqrt{\lambda_j}$ (scikit-learn's `KernelPCA`) and $\Lambda^\top R^\top K$ (Algorithm 3,
# with $B^\top K B = I$) are coordinates on *unit-norm* axes in feature space, so they are the same
# numbers. With a linear kernel they equal `FairPCA(...).transform(X)`.
#
# `FairKernelPCA` computes $G$ in $O(n^2 m)$ and takes its top-$k$ eigenpairs with a dense LAPACK
# solver, or with ARPACK when $k \ll n$. Algorithm 3 is kept as `eigen_solver="generalized"` so that
# the two can be compared. Its right-hand matrix $R^\top K R$ is singular whenever $K$ is (always with
# centring, see the first exercise), so fairlab removes $\mathbf 1$ from $R$ by construction and solves
# the pencil densely on the range of $R^\top K R$, where it is an ordinary symmetric eigenproblem. The
# paper's ridge is not needed, and the two solvers agree to rounding on every instance and machine.

# %% [markdown]
# ### Numerical check against the paper's Algorithm 3
#
# We take a random instance with several groups whose distributions differ, and fit both solvers with
# an RBF kernel, centred and uncentred. We then compare:
#
# - the subspaces spanned by the two training embeddings, through the sine of their largest principal
#   angle;
# - the variances $\lambda_j$;
# - the group means of the embedding.

# %%
z_check = rng.integers(0, n_groups_check, n_check)
X_check = rng.normal(size=(n_check, 4)) * (1 + 0.5 * z_check[:, None]) + 0.4 * z_check[:, None]
rows = []
for center in (True, False):
    kw = dict(n_components=n_components, gamma=0.2, center=center, random_state=seed)
    exact = FairKernelPCA(**kw).fit(X_check, sensitive_features=z_check)
    alg3 = FairKernelPCA(eigen_solver="generalized", **kw).fit(X_check, sensitive_features=z_check)
    E = exact.transform(X_check)
    means = np.array([E[z_check == g].mean(axis=0) for g in range(n_groups_check)])
    rows.append({
        "center": center,
        "sine(exact, Alg. 3) < 1e-9": np.sin(subspace_angles(E, alg3.transform(X_check)).max()) < 1e-9,
        "max rel. diff. of variances < 1e-10": bool(
            np.max(np.abs(exact.eigenvalues_ / alg3.eigenvalues_ - 1)) < 1e-10),
        "group-mean gap < 1e-10": bool(np.abs(means - means.mean(axis=0)).max() < 1e-10),
    })
pd.DataFrame(rows)

# %% [markdown]
# The two solvers find the same subspace and the same variances, to rounding. Had Algorithm 3 used the
# paper's ridge instead, its variances would move by about $10^{-5}/\lambda$ (see the first exercise).
#
# The time saved grows with $n$. The full benchmark, `benchmarks/bench_kernel_pca.py`, runs from
# $n = 500$ to $3000$ on Adult and also times scikit-learn's (unconstrained) `KernelPCA`. `make bench`
# times the exact fair fit against `KernelPCA` with its default solver (ARPACK for $k = 5$) at
# $n = 1000$, $2000$ and $5000$ and writes the ratios to a file; the table below shows its last run, and
# the benchmark page of the appendix, {ref}`appendix-benchmarks`, the machine that ran it. The
# constraint costs little, and ARPACK's products read only the lower triangle of the kernel matrix (half
# the memory traffic of `KernelPCA`'s); single ratios move with the load of that machine.

# %%
bench = benchmark_ratios("FairKernelPCA")
published.reader_table(bench[["case", "ratio", "goal", "status"]], decimals={"ratio": 2},
                       title=bench.measure.iloc[0] + ": time ratios of the last make bench")

# %% [markdown]
# The next cell times one fit of each solver at $n = 800$ on the machine that built this page. Timings
# depend on the machine, so its output is not checked.

# %% tags=["nbval-ignore-output"]
n_time = 800
z_time = rng.integers(0, 2, n_time)
X_time = rng.normal(size=(n_time, 10)) + 0.5 * z_time[:, None]
timings = {}
for name, est in {
    "FairKernelPCA (exact)": FairKernelPCA(10, random_state=seed),
    "FairKernelPCA (Algorithm 3)": FairKernelPCA(10, eigen_solver="generalized", random_state=seed),
}.items():
    start = time.perf_counter()
    est.fit(X_time, sensitive_features=z_time)
    timings[name] = time.perf_counter() - start
start = time.perf_counter()
KernelPCA(10, kernel="rbf", gamma=1 / (10 * X_time.var()), random_state=seed).fit(X_time)
timings["sklearn KernelPCA (unconstrained)"] = time.perf_counter() - start
published.reader_table(pd.DataFrame({"fit time (s)": timings}).rename_axis("estimator"), decimals=3,
                       title=f"One fit of {n_time} rows on this machine")

# %% [markdown]
# ## A non-linear toy: origin versus circle
#
# In Appendix A.1 the paper uses the following counterexample. Group 0 sits at the origin and group 1
# on a circle around it, here with some noise. **Both groups have mean zero**, so every linear
# projection already satisfies fair PCA's constraint. `FairPCA` then returns plain PCA, and it cannot
# do anything about the radius, which gives the group away.
#
# We compare the one-dimensional representations of `FairPCA` and of `FairKernelPCA` with an RBF
# kernel for a few values of $\gamma$. On held-out points we measure three things:
#
# - the accuracy of a **linear** classifier predicting the group from the representation. Both
#   methods guarantee chance level (0.5) for it.
# - the accuracy of an **RBF SVM** predicting the group. It reads non-linear group information.
# - the MMD² between the two groups' representations {cite}`gretton2012kernel`.

# %%
X_toy, z_toy = make_circle_counterexample(n_toy, noise=toy_noise, random_state=seed)
X_new, z_new = make_circle_counterexample(n_toy, noise=toy_noise, random_state=seed + 1)
models = {"FairPCA (linear)": FairPCA(1)}
for gamma in toy_gammas:
    models[f"FairKernelPCA, RBF gamma={gamma}"] = FairKernelPCA(1, gamma=gamma)
rows = []
for name, model in models.items():
    E = model.fit(X_toy, sensitive_features=z_toy).transform(X_toy)
    E_new = model.transform(X_new)
    rows.append({
        "representation (k=1)": name,
        "linear clf. accuracy": LogisticRegression().fit(E, z_toy).score(E_new, z_new),
        "RBF SVM accuracy": SVC(kernel="rbf").fit(E, z_toy).score(E_new, z_new),
        "MMD²": metrics.mmd2(E_new, z_new),
    })
toy_table = pd.DataFrame(rows).set_index("representation (k=1)")
toy_table.round(3)

# %% [markdown]
# Linear fair PCA leaves the non-linear group signal intact: an RBF SVM recovers the group from it
# most of the time. Fair kernel PCA removes the direction of the groups' mean difference *in feature
# space*, and a local kernel (large $\gamma$) makes that space rich. The group signal drops, both the
# MMD² and the accuracy of the RBF SVM, while the linear classifier stays at chance.
#
# The removal is not complete. The constraint equalises the means of the $k$ kernel features, not
# their whole distributions, so non-linear functions *of the embedding* can still carry some group
# information. This is the first-moment relaxation of Section 2 of the paper, now applied in feature
# space.
#
# The maps below show what the first fair kernel component computes over the plane. Its level sets
# are *not* circles around the origin: a radial function would reveal the group, and it is exactly
# what the constraint removes.

# %% mystnb={"figure": {"caption": "The first component of linear `FairPCA` (left) and of `FairKernelPCA` with an RBF kernel, $\\gamma = 5$ (right), as a colour map over the plane, with the data of the two groups on top. Neither map is radial, so neither reads off the radius directly.", "name": "fig-fkpca-component-maps"}, "image": {"alt": "Two colour maps over the plane with group 0 as a dense cluster at the origin and group 1 on a noisy circle around it. Left, FairPCA: the colour changes linearly from left to right. Right, FairKernelPCA: a bright spot just left of the origin and a dark spot just right of it, on a uniform background."}}
fig, axes = plt.subplots(1, 2, figsize=(6.8, 3.6))
plot_component_map(models["FairPCA (linear)"], X_toy, sensitive_features=z_toy, ax=axes[0],
                   colorbar_label="component 1", legend=False)
axes[0].set_title("FairPCA")
plot_component_map(models[f"FairKernelPCA, RBF gamma={toy_gammas[-1]}"], X_toy,
                   sensitive_features=z_toy, ax=axes[1], colorbar_label="component 1",
                   legend="below")
axes[1].set_title(f"FairKernelPCA (RBF, γ = {toy_gammas[-1]})")
plt.show()

# %% [markdown]
# With two components and the same kernel, unconstrained kernel PCA (left) separates the groups
# along its first component: the dense cluster at the origin and the circle land far apart. The fair
# embedding (right) gives both groups the same mean in both coordinates. Their spreads still differ,
# which is the residual signal the RBF SVM picks up.

# %% mystnb={"figure": {"caption": "Two-component embeddings of the circle toy by unconstrained kernel PCA (left) and fair kernel PCA (right), same RBF kernel. Kernel PCA puts the groups far apart along component 1; the fair embedding gives them the same mean, but their spreads still differ.", "name": "fig-fkpca-embeddings"}, "image": {"alt": "Two scatter plots coloured by group. Left: group 1 forms a narrow vertical band at component 1 near -0.45 and group 0 an arc near +0.5. Right: both groups are centred at the origin, group 1 more tightly than group 0."}}
kw = dict(n_components=2, gamma=toy_gammas[-1], random_state=seed)
fair2 = FairKernelPCA(**kw).fit(X_toy, sensitive_features=z_toy)
plain2 = KernelPCA(kernel="rbf", **kw).fit(X_toy)
fig, axes = plt.subplots(1, 2, figsize=(6.8, 3.2))
plot_embedding(plain2.transform(X_toy), z_toy, ax=axes[0], legend=False)
axes[0].set_title("kernel PCA (unconstrained)")
plot_embedding(fair2.transform(X_toy), z_toy, ax=axes[1])
axes[1].set_title("fair kernel PCA")
plt.show()

# %% [markdown]
# ## Nyström: accuracy against the number of landmarks
#
# The exact solver costs $O(n^3)$ time and $O(n^2)$ memory. With `approximation="nystroem"`, the
# data are first mapped to explicit features
#
# $$f(x) = W^{-1/2}\, k(L, x) \in \mathbb R^{|L|}, \qquad W = k(L, L),$$
#
# built on landmarks $L$ drawn uniformly at random from the training rows. Linear `FairPCA` then runs
# on these features. The cost is $O(n|L|^2 + |L|^3)$. The constraint still holds exactly on the
# training data, because it is imposed on the features that are actually used.
#
# With all $n$ rows as landmarks, $f(x_i)^\top f(x_j) = K_{ij}$, and the method *is* the exact solver.
# We check the convergence on a standardised subsample of Adult {cite}`kohavi1996adult` (the
# `lee2022` preprocessing, with sex as the sensitive attribute). For each number of landmarks we
# measure:
#
# - the subspace sine between the Nyström embedding and the exact embedding of the training rows;
# - the relative error of the captured variance $\sum_j \lambda_j$;
# - the group-mean gap of the Nyström embedding, which must stay at round-off level.

# %%
adult = load_adult(variant="lee2022")
rows_adult = np.sort(rng.choice(len(adult.y), size=nystroem_rows, replace=False))
X_adult = StandardScaler().fit_transform(adult.X.to_numpy(dtype=float)[rows_adult])
s_adult = adult.sensitive.to_numpy()[rows_adult]
exact = FairKernelPCA(10, random_state=seed)
E_exact = exact.fit_transform(X_adult, sensitive_features=s_adult)
rows, gaps = [], []
for n_landmarks in [m for m in landmark_grid if m <= nystroem_rows]:
    nys = FairKernelPCA(10, approximation="nystroem", n_landmarks=n_landmarks, random_state=seed)
    E = nys.fit_transform(X_adult, sensitive_features=s_adult)
    gaps.append(abs(E[s_adult == 1].mean(axis=0) - E[s_adult == 0].mean(axis=0)).max())
    rows.append({
        "landmarks": n_landmarks,
        "subspace sine": np.sin(subspace_angles(E, E_exact).max()),
        "rel. variance error": 1 - nys.eigenvalues_.sum() / exact.eigenvalues_.sum(),
    })
nys_table = pd.DataFrame(rows).set_index("landmarks")
print("group-mean gap below 1e-10 at every size:", bool(max(gaps) < 1e-10))
nys_table.round(4) + 0.0  # + 0.0 turns -0.0 into 0.0

# %% mystnb={"figure": {"caption": "Error of the Nystr\u00f6m approximation against the number of landmarks on 1000 Adult rows ($k = 10$), log-log axes. Both errors fall steadily and drop to round-off when all rows are landmarks.", "name": "fig-fkpca-nystroem"}, "image": {"alt": "A log-log line plot with the number of landmarks from 25 to 1000 on the horizontal axis. The relative variance error falls from about 0.2 to 0.006 at 400 landmarks and the subspace sine from about 0.9 to 0.05; at 1000 landmarks both drop to round-off, drawn at the floor of the axis, 1e-12."}}
fig, ax = plt.subplots(figsize=(6.8, 3.4))
# errors at round-off (all rows as landmarks) differ from machine to machine: drawn at 1e-12
ax.loglog(nys_table.index, nys_table["rel. variance error"].clip(lower=1e-12), "o-",
          label="relative variance error")
ax.loglog(nys_table.index, nys_table["subspace sine"].clip(lower=1e-12), "s-",
          label="subspace sine vs exact")
ax.set_xlabel("number of Nyström landmarks")
ax.set_ylabel("error (log scale)")
ax.set_title(f"Nyström fair kernel PCA on {nystroem_rows} Adult rows, k = 10")
legend_outside(ax)
plt.show()

# %% [markdown]
# The captured variance converges quickly: a few hundred landmarks already recover most of it. The
# subspace converges more slowly, because the trailing components of the top 10 have close
# eigenvalues, so their individual directions are sensitive. At $|L| = n$ both errors reach round-off.
#
# On all 45 222 Adult rows, `FairKernelPCA(10, approximation="nystroem")` with the default 1000
# landmarks stores $n \times 1000$ numbers and fits in seconds (`benchmarks/bench_kernel_pca.py`
# times it); the exact solver would need the $n \times n$ Gram matrix, 16 GB.
#
# (sec-fkpca-continuous)=
# ## A continuous attribute in feature space
#
# The kernel constraint is a covariance too: $\tilde Z^\top K \alpha = 0$ says that every component
# $f(x) = \sum_i \alpha_i k(x_i, x)$ has zero covariance with the centred attribute on the training rows.
# With a continuous attribute (age) in place of the group indicators, `FairKernelPCA(sensitive_type=
# "continuous")` finds the kernel components uncorrelated with it, as `FairPCA` does in
# {ref}`sec-fpca-continuous`.
#
# Störck, Hinder and Hammer {cite}`storck2026kernel` go one step further: they project the attribute out
# of the *kernel itself*. In the feature space of $k$, the directions $A = \Phi^\top\tilde S$ carry every
# linear function of $\varphi(x)$ that covaries with $s$; projecting them out gives the fair kernel
#
# $$
# k_\perp(x, x') = k(x, x') - k(x, X)\,\tilde S\,(\tilde S^\top K\tilde S)^{+}\,\tilde S^\top k(X, x'),
# $$
#
# which any kernel method (SVR, kernel ridge) can use instead of $k$: `FairKernelProjection`. On the
# training rows, the centred $K_\perp$ is the matrix $G$ of fair kernel PCA, so kernel PCA of the fair
# kernel is fair kernel PCA. We check both on the Adult rows above, with age (one of the features)
# as the attribute in place of sex.

# %%
age_adult = adult.X["age"].to_numpy(float)[rows_adult]
fkpca_age = FairKernelPCA(10, sensitive_type="continuous", random_state=seed).fit(
    X_adult, sensitive_features=age_adult)
kpca = FairKernelPCA(10, random_state=seed).fit(X_adult, sensitive_features=s_adult)
projection = FairKernelProjection(gamma=fkpca_age.gamma_).fit(X_adult, sensitive_features=age_adult)
K_fair = projection.fair_kernel(X_adult)
H = np.eye(len(age_adult)) - 1.0 / len(age_adult)
top = np.linalg.eigvalsh(H @ K_fair @ H)[::-1][:10]
print("kernel PCA of the fair kernel = fair kernel PCA (eigenvalues to 1e-9):",
      bool(np.allclose(top, fkpca_age.eigenvalues_, rtol=1e-9)))


print("Σ corr² of the ten components with age:")
for name, E in [("fair kernel PCA, sex", kpca.transform(X_adult)),
                ("fair kernel PCA, age", fkpca_age.transform(X_adult)),
                ("features of the fair kernel", projection.transform(X_adult))]:
    print(f"  {name}: {metrics.cov2(E, age_adult, sensitive_type='continuous', standardize=True):.3f}")

# %% [markdown]
# Both remove every *linear* function of the feature map that covaries with age. That is not
# independence: with an RBF kernel on the attribute too, the HSIC of the components and age need not
# vanish, and {doc}`18_auditing_a_representation` measures what a nonlinear adversary still recovers.
#
# ## Exercises
#
# ```{exercise}
# :label: ex-fkpca-alg3-ridge
#
# Show that with a centred kernel matrix $K_c$, the vector $\mathbf 1/\sqrt n$ lies in the null space
# $R$ of $Z^\top K_c$ and in the null spaces of both $R^\top K_c K_c R$ and $R^\top K_c R$. What does
# this mean for the generalized eigenproblem of Algorithm 3, why is the paper's ridge $10^{-5} I$
# harmless for that particular direction, and what does it cost the others?
# ```
#
# ```{solution} ex-fkpca-alg3-ridge
# :class: dropdown
#
# $K_c\mathbf 1 = HKH\mathbf 1 = 0$, so $Z^\top K_c \mathbf 1 = 0$ and $\mathbf 1 \in \operatorname{range}(R)$.
# Write $\mathbf 1/\sqrt n = R e$. Then $K_c R e = 0$, so both $R^\top K_c K_c R\, e$ and $R^\top K_c R\, e$
# vanish. The pencil is singular: every $w$ is a "generalized eigenvalue" for $e$, and a Cholesky- or
# LU-based solver for $R^\top K_c R$ breaks down or returns garbage. With the ridge, $e$ becomes an
# eigenvector with eigenvalue $0$, which is never among the top $k$. The ridge does perturb all the
# other directions, by a relative amount of about $10^{-5}/\lambda_j$. Removing $\mathbf 1$ from $R$
# (it carries no variance) and restricting the pencil to the range of $R^\top K_c R$ makes it regular
# without any perturbation; that is what `eigen_solver="generalized"` does. The projected-Gram solver
# never forms the pencil.
# ```
#
# ```{exercise}
# :label: ex-fkpca-linear
#
# Take the linear kernel $K = X_cX_c^\top$. Show that $G = X_c P X_c^\top$ with $P$ the projector onto
# the orthogonal complement of $X_c^\top Z$. Then show that the embedding $v_j\sqrt{\lambda_j}$ equals
# $X_c u_j$, where $u_j$ are the fair PCA directions of the paper's Algorithms 1 and 2. Check it numerically with
# `FairKernelPCA(kernel="linear")` and `FairPCA`.
# ```
#
# ```{solution} ex-fkpca-linear
# :class: dropdown
#
# With $\Phi = X_c$, the proposition gives $G = \Phi P\Phi^\top$ directly. The top eigenvectors of
# $P X_c^\top X_c P$ are the fair PCA directions $u_j = R q_j$ of the paper's Algorithm 2. Here $R$ spans
# $\operatorname{range}(P)$ and $q_j$ are the top eigenvectors of $R^\top X_c^\top X_c R$. Hence
# $X_c u_j = X_c P X_c^\top v_j/\sqrt{\lambda_j} = G v_j/\sqrt{\lambda_j} = v_j\sqrt{\lambda_j}$.
# Numerically, `FairKernelPCA(k, kernel="linear").fit_transform(X, sensitive_features=s)` and
# `FairPCA(k).fit_transform(X, sensitive_features=s)` agree to about $10^{-12}$, up to the sign of
# each column.
# ```
