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
# # Invariant feature extraction: the noisy sinusoid
#
# Fair dimensionality reduction (FDR) {cite}`perezsuay2017fair` looks for projections of the data that
# keep as much of it as possible while depending as little as possible on chosen variables $\mathbf S$.
# Both "as much" and "as little" are measured with HSIC {cite}`gretton2005measuring`, which turns the
# problem into a Rayleigh quotient:
#
# $$
# \begin{aligned}
# &\max_{\mathbf v}\;\frac{\mathrm{HSIC}(\tilde{\mathbf X}\mathbf v, \tilde{\mathbf X})}{\mathrm{HSIC}(\tilde{\mathbf X}\mathbf v, \tilde{\mathbf S})}
# = \frac{\mathbf v^\top(\tilde{\mathbf X}^\top\tilde{\mathbf X})^2\mathbf v}{\mathbf v^\top\tilde{\mathbf X}^\top\tilde{\mathbf S}\tilde{\mathbf S}^\top\tilde{\mathbf X}\mathbf v},\\
# &\text{i.e.}\quad \mathbf C_{xx}\mathbf C_{xx}^\top\mathbf v = \lambda\,\mathbf C_{xs}\mathbf C_{xs}^\top\mathbf v .
# \end{aligned}
# $$
#
# Kernel FDR (KFDR) does the same in a reproducing-kernel Hilbert space, with dual coefficients
# $\boldsymbol\alpha$: $\tilde{\mathbf K}^3\boldsymbol\alpha = \lambda\,\tilde{\mathbf K}\tilde{\mathbf K}_S\tilde{\mathbf K}\boldsymbol\alpha$.
# The paper's first illustration is a sinusoid: $b = \sin a + n$, $a\sim\mathcal U(0, 1.5\pi)$,
# $n\sim\mathcal N(0, 0.1)$, where either coordinate can be declared sensitive.
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. write FDR and kernel FDR as generalized eigenproblems of HSIC terms and say which directions the denominator's ridge selects;
# 2. read a component's colour map over the plane and tell what the projection ignores;
# 3. explain why linear FDR removes only linear dependence on $S$ and why kernel FDR needs a non-linear kernel on $S$ as well.
#
# **Prerequisites.** {doc}`07_fair_regression_toy` (HSIC as a measure of dependence) and {doc}`06_fair_kernel_pca` (kernel PCA); generalized symmetric eigenproblems and the Courant–Fischer characterisation of eigenvalues.
#
# **Time.** About 35 minutes to read and work through; the notebook runs in {{ run_time_08 }} at its defaults.
#
# {{ run_it }}
# :::
#
# **The singular denominator.** $\mathbf C_{xs}\mathbf C_{xs}^\top$ has rank at most $q$ (the number of
# sensitive columns), so every direction with $\tilde{\mathbf S}^\top\tilde{\mathbf X}\mathbf v = 0$ has an
# *infinite* ratio. The reference code adds $10^{-7}\mathbf I$ to the denominator;
# `fairlab.FairDR` does the same by default (`ridge=1e-7`) and solves the limit exactly with
# `ridge=0`.
#
# ```{prf:proposition} What the ridge selects
# :label: prop-fdr-limit
#
# Let $\mathbf A = (\tilde{\mathbf X}^\top\tilde{\mathbf X})^2$, $\mathbf B = \tilde{\mathbf X}^\top\tilde{\mathbf S}\tilde{\mathbf S}^\top\tilde{\mathbf X}$
# and $\mathcal N = \{\mathbf v : \tilde{\mathbf S}^\top\tilde{\mathbf X}\mathbf v = 0\}$ of dimension $m$.
# As $\varepsilon\to0$, the top $k\le m$ generalized eigenvectors of $(\mathbf A, \mathbf B + \varepsilon\mathbf I)$ span the
# top-$k$ eigenvectors of $\mathbf A$ restricted to $\mathcal N$: projections uncorrelated with every column
# of $\mathbf S$, ordered by $\|\tilde{\mathbf X}^\top\tilde{\mathbf X}\mathbf v\|^2$.
# ```
#
# ```{prf:proof}
# For $\mathbf v \in \mathcal N$ the quotient is $\mathbf v^\top\mathbf A\mathbf v/(\varepsilon\|\mathbf v\|^2)$, which
# grows like $1/\varepsilon$; for $\mathbf v\notin\mathcal N$ it stays below
# $\mathbf v^\top\mathbf A\mathbf v/\mathbf v^\top\mathbf B\mathbf v$, bounded on the unit sphere away from $\mathcal N$.
# By the Courant–Fischer characterisation the top $m$ generalized eigenvalues are those of order
# $1/\varepsilon$, and $\varepsilon$ times them converge to the eigenvalues of $\mathbf A$ compressed to
# $\mathcal N$; the eigenvectors converge with them when those eigenvalues are distinct.
# ```
#
# The library's tests check that the reference ridge converges to `ridge=0` and that the exact
# components satisfy $\tilde{\mathbf S}^\top\tilde{\mathbf X}\mathbf v = 0$ to $10^{-10}$.

# %% tags=["parameters"]
n_samples = 600        # points on the sinusoid (the paper uses 1000)
noise = 0.1            # std of the noise n of b, which is sin(a) + n
seed = 0               # seed of the generator
gamma = 1.0            # RBF coefficient of KPCA / KFDR on (a, b): exp(-γ‖x − x'‖²)
ridge = 1e-7           # denominator ridge of FDR and KFDR (the reference code's value)
resolution = 90        # grid points per axis of the colour maps

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.decomposition import PCA, KernelPCA

from fairlab import FairDR, KernelFairDR, check_parameters
from fairlab.datasets import make_sinusoid
from fairlab.metrics import hsic
from fairlab.plotting import book_style, plot_component_map

check_parameters(globals(), n_samples=int, noise=float, seed=int, gamma=float, ridge=float,
                 resolution=int)

book_style()
X = make_sinusoid(n_samples, noise=noise, random_state=seed)
a, b = X[:, 0], X[:, 1]
X.shape

# %% [markdown]
# ## Fitting the models of the paper's Figure 2
#
# PCA and kernel PCA ignore $\mathbf S$; FDR is fitted once with $\mathbf S = \mathbf a$ and once with
# $\mathbf S = \mathbf b$. For the kernel version we use an RBF kernel on $\mathbf S$ as well
# (`sensitive_kernel="rbf"`): with a linear kernel on $\mathbf S$ KFDR would only remove the *linear*
# correlation with $a$, and a function such as $\cos(2a)$, uncorrelated with $a$ but entirely determined
# by it, would still be allowed. With an RBF kernel, $\tilde{\mathbf K}_S$ has (numerically) full rank,
# there is no exactly independent direction, and the ridge plays the role of a trade-off parameter.

# %%
models = {
    "PCA": PCA(n_components=1).fit(X),
    "FDR, S = a": FairDR(n_components=1, ridge=ridge).fit(X, sensitive_features=a),
    "FDR, S = b": FairDR(n_components=1, ridge=ridge).fit(X, sensitive_features=b),
    "KPCA": KernelPCA(n_components=1, kernel="rbf", gamma=gamma).fit(X),
    "KFDR, S = a": KernelFairDR(n_components=1, gamma=gamma, sensitive_kernel="rbf",
                                ridge=ridge).fit(X, sensitive_features=a),
    "KFDR, S = b": KernelFairDR(n_components=1, gamma=gamma, sensitive_kernel="rbf",
                                ridge=ridge).fit(X, sensitive_features=b),
}

# %% [markdown]
# ## The paper's Figure 2: the first component as a colour map
#
# The background colour at a point $\mathbf x$ of the plane is the value of the first projection at
# $\mathbf x$ (dark = small, bright = large); the white dots are the data. The left column holds the
# linear models, the right column their kernel versions.

# %% mystnb={"figure": {"caption": "The first component of each model as a colour map over the $(a, b)$ plane, with the sinusoid data as white dots; linear models on the left, kernel models on the right. Notice that KFDR with $S = a$ changes colour across the arc, not along it.", "name": "fig-sinusoid-component-maps"}, "image": {"alt": "Six colour maps in three rows and two columns, each showing the arch of the noisy sinusoid as white dots. PCA: colour increases from upper left to lower right. FDR with S = a: colour changes mostly from bottom to top. FDR with S = b: colour changes mostly from left to right. KPCA: dark at the top of the arch, bright at its lower right end, so the colour follows the position along the arc. KFDR with S = a: a bright blob below the arch and dark above it, so the colour separates the two sides of the curve. KFDR with S = b: alternating light and dark patches along the arc."}}
fig, axes = plt.subplots(3, 2, figsize=(6.8, 8.4))
for ax, (name, model) in zip(axes.T.ravel(), models.items()):
    plot_component_map(model, X, ax=ax, resolution=resolution, xlabel="a", ylabel="b",
                       colorbar_label="first component")
    ax.set_title(name)
plt.show()

# %% [markdown]
# How much does each first component still know about $a$ and about $b$? We measure HSIC with RBF
# kernels on both sides (median-heuristic widths, `fairlab.metrics.hsic`), and also the
# correlation of the component with the *residual* $b - \sin a$ — the part of the data that is
# independent of $a$.

# %%
residual = b - np.sin(a)
rows = []
for name, model in models.items():
    t = model.transform(X)[:, 0]
    rows.append({"model": name,
                 "HSIC(t, a)": hsic(t, a, kernel="rbf", kernel_y="rbf"),
                 "HSIC(t, b)": hsic(t, b, kernel="rbf", kernel_y="rbf"),
                 "|corr(t, b − sin a)|": abs(np.corrcoef(t, residual)[0, 1])})
pd.DataFrame(rows).set_index("model").round(3)

# %% [markdown]
# Reading the maps and the table:
#
# * **PCA** finds the long diagonal axis of the cloud: its component mixes $a$ and $b$.
# * **FDR with $\mathbf S = \mathbf a$**: in two dimensions the only direction uncorrelated with $a$ is
#   $\mathbf v \propto (-\mathrm{Cov}(a,b),\ \mathrm{Var}(a))$. Because $\mathrm{Var}(a) = (1.5\pi)^2/12 \approx 1.85$
#   dominates $\mathrm{Cov}(a, b)$, the colour changes mostly along $b$: the iso-lines are nearly
#   horizontal, which is what the paper describes as a "vertical" component. It is not exactly vertical —
#   the component is $b$ minus its linear regression on $a$.
# * **FDR with $\mathbf S = \mathbf b$** is, symmetrically, $a$ minus its regression on $b$.
# * **KPCA** follows the curved manifold: its first component is essentially the position along the arc,
#   i.e. $a$.
# * **KFDR** discards what $a$ (respectively $b$) explains, also non-linearly: with $\mathbf S = \mathbf a$
#   the map separates the two sides of the arc — it measures how far a point lies above or below the
#   curve, a non-linear version of "$b$ minus what $a$ predicts" (large correlation with $b - \sin a$,
#   and the smallest HSIC with $a$ in the table).
#
# Linear FDR can only remove linear information: its HSIC with $a$ drops but is not zero, because the
# residual of a linear regression on $a$ still depends on $a$ through $\sin a$.

# %% [markdown]
# ## Does the ridge matter?
#
# For the linear model the ridge only matters through its limit (the proposition above). For KFDR with
# an RBF kernel on $\mathbf S$ there is no exactly independent direction, so the ridge could act as a
# trade-off parameter, as μ does in fair regression. The table shows both regimes: a large ridge
# (0.1, comparable to the small eigenvalues of the denominator) selects another direction, while from
# $10^{-4}$ down to the reference value $10^{-7}$ the first component no longer changes — the ridge has
# reached its limit, and only the directions that the RBF kernel on $\mathbf a$ barely sees compete.

# %%
rows = []
for r in (1e-1, 1e-4, 1e-7):
    t = KernelFairDR(n_components=1, gamma=gamma, sensitive_kernel="rbf", ridge=r).fit(
        X, sensitive_features=a).transform(X)[:, 0]
    rows.append({"ridge": f"{r:g}", "HSIC(t, a)": hsic(t, a, kernel="rbf", kernel_y="rbf"),
                 "|corr(t, b − sin a)|": abs(np.corrcoef(t, residual)[0, 1])})
pd.DataFrame(rows).round(4)

# %% [markdown]
# ## Exercises
#
# ```{exercise}
# :label: ex-fdr-2d
#
# Let $\mathbf X = [\mathbf a, \mathbf b]$ be centred, with covariance $\begin{pmatrix}\sigma_a^2 & c\\ c & \sigma_b^2\end{pmatrix}$,
# and $\mathbf S = \mathbf a$. Show that the exact FDR direction (`ridge=0`) is
# $\mathbf v\propto(-c, \sigma_a^2)$ and that the projection is, up to a factor, the residual of the least-squares
# regression of $\mathbf b$ on $\mathbf a$.
# ```
#
# ```{solution} ex-fdr-2d
# :class: dropdown
#
# $\tilde{\mathbf S}^\top\tilde{\mathbf X}\mathbf v = n(\sigma_a^2 v_1 + c\,v_2)$, which vanishes exactly for
# $\mathbf v\propto(-c, \sigma_a^2)$; the admissible subspace is one-dimensional, so this is the solution
# whatever the numerator. Then $\mathbf X\mathbf v \propto \sigma_a^2\mathbf b - c\,\mathbf a = \sigma_a^2(\mathbf b - \tfrac{c}{\sigma_a^2}\mathbf a)$,
# and $c/\sigma_a^2$ is the least-squares slope of $\mathbf b$ on $\mathbf a$.
# ```
#
# ```{exercise}
# :label: ex-fdr-vs-fairpca
#
# Fair PCA {cite}`kleindessner2023efficient` maximises the variance $\mathbf v^\top\tilde{\mathbf X}^\top\tilde{\mathbf X}\mathbf v$ over
# the same subspace $\{\mathbf v : \tilde{\mathbf S}^\top\tilde{\mathbf X}\mathbf v = 0\}$ (for a categorical $\mathbf S$). In what
# sense does the exact FDR solution differ? When do the two coincide?
# ```
#
# ```{solution} ex-fdr-vs-fairpca
# :class: dropdown
#
# FDR maximises $\|\tilde{\mathbf X}^\top\tilde{\mathbf X}\mathbf v\|^2 = \mathbf v^\top\mathbf C^2\mathbf v$ on the subspace,
# fair PCA $\mathbf v^\top\mathbf C\mathbf v$, with $\mathbf C = \tilde{\mathbf X}^\top\tilde{\mathbf X}$. With $\mathbf N$ an orthonormal basis
# of the subspace, FDR diagonalises $\mathbf N^\top\mathbf C^2\mathbf N$ and fair PCA $\mathbf N^\top\mathbf C\mathbf N$. They coincide
# when $\mathbf C$ maps the subspace into itself (then $\mathbf N^\top\mathbf C^2\mathbf N = (\mathbf N^\top\mathbf C\mathbf N)^2$), for example when
# $\tilde{\mathbf X}^\top\tilde{\mathbf S}$ spans an invariant subspace of $\mathbf C$ — e.g. the sensitive columns are
# uncorrelated with the rest. In general the orders of the components (and the components) differ.
# ```
