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
# # Quickstart: why plain PCA is not fair
#
# Principal component analysis keeps the directions of largest variance. When the demographic groups
# of a dataset differ in their means, those directions often *are* the directions that separate the
# groups, and a model trained on the PCA representation can read group membership off it.
#
# This notebook shows the problem on two Gaussian groups, then fixes it with one line of `fairlab`.
# Every number printed here is checked by the test suite; rerun it with other parameters through
# `make notebook NB=01_quickstart PARAMS="-p seed 3"`.
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. explain why the top principal components of data whose groups differ in their means reveal the group;
# 2. measure the group-mean gap of a representation;
# 3. fit `fairlab.FairPCA` with `sensitive_features` and check that the gap of its representation is zero.
#
# **Prerequisites.** None in this book. Python with NumPy and scikit-learn, and what PCA computes (the projection onto the directions of largest variance).
#
# **Time.** About 15 minutes to read and work through; the notebook runs in {{ run_time_01 }} at its defaults.
#
# {{ run_it }}
# :::

# %% tags=["parameters"]
n_per_group = 300   # points in each of the two groups
n_features = 6      # dimension d of the data
mean_shift = 2.5    # distance between the two group means, along the first feature
seed = 0            # random seed of the data

# %%
import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns
from sklearn.datasets import make_blobs
from sklearn.decomposition import PCA

from fairlab import FairPCA, check_parameters, plotting
from fairlab.metrics import mean_gap

check_parameters(globals(), n_per_group=int, n_features=int, mean_shift=float, seed=int)

plotting.book_style()

# %% [markdown]
# ## Two groups whose means differ
#
# Both groups are Gaussian with the same covariance, stretched along the first two features; group 1
# is shifted by `mean_shift` along the first feature. The group label $s$ is not a feature, but it is
# written all over the data.

# %%
stds = np.array([3.0, 2.0] + [1.0] * (n_features - 2))
centers = np.zeros((2, n_features))
centers[1, 0] = mean_shift
X, s = make_blobs(n_samples=[n_per_group, n_per_group], centers=centers, cluster_std=1.0,
                  random_state=seed)
X = X * stds / 1.0
print("X shape:", X.shape, "| group sizes:", np.bincount(s).tolist())

# %% [markdown]
# ## Standard PCA keeps the group difference
#
# We project onto the top two principal components with scikit-learn and compare the mean of each
# group in the projection. The *group-mean gap* $\lVert \bar u_1 - \bar u_0\rVert$ is the distance
# between the two group means of the 2-D representation (`fairlab.metrics.mean_gap`).

# %%
pca = PCA(n_components=2).fit(X)
E_pca = pca.transform(X)
gap_pca = mean_gap(E_pca, s)
print(f"explained variance (PCA, k=2): {pca.explained_variance_ratio_.sum():.3f}")
print(f"group-mean gap after PCA:      {gap_pca:.3f}")

# %% [markdown]
# ## Fair PCA removes it
#
# `FairPCA` solves the same problem under the constraint that the projected group means coincide
# {cite}`kleindessner2023efficient`. The sensitive attribute is passed to `fit` only; `transform`
# does not need it.

# %%
fair = FairPCA(n_components=2).fit(X, sensitive_features=s)
E_fair = fair.transform(X)
gap_fair = mean_gap(E_fair, s)
print(f"explained variance (Fair PCA, k=2): {fair.explained_variance_ratio_.sum():.3f}")
print(f"group-mean gap after Fair PCA is below 1e-10: {gap_fair < 1e-10}")

# %% mystnb={"figure": {"caption": "The two-dimensional PCA and Fair PCA representations of the same data, coloured by group. With PCA the group means (black markers) lie far apart along component 1; with Fair PCA they coincide.", "name": "fig-quickstart-embeddings"}, "image": {"alt": "Two scatter plots side by side, titled PCA and Fair PCA, of 600 points coloured by group 0 and group 1. In the PCA panel the two groups form clouds shifted left and right with their black mean markers far apart; in the Fair PCA panel the groups overlap and the two mean markers sit on top of each other."}}
fig, axes = plt.subplots(1, 2, figsize=(6.8, 3.4), sharex=True, sharey=True)
for ax, E, title in [(axes[0], E_pca, "PCA"), (axes[1], E_fair, "Fair PCA")]:
    sns.scatterplot(x=E[:, 0], y=E[:, 1], hue=np.where(s == 1, "group 1", "group 0"), hue_order=["group 0", "group 1"],
                    s=12, alpha=0.6, ax=ax)
    for g, marker in [(0, "X"), (1, "P")]:
        ax.scatter(*E[s == g].mean(axis=0), marker=marker, s=150, color="black",
                   label=f"mean of group {g}")
    ax.set(title=title, xlabel="component 1", ylabel="component 2", ylim=(-10, 7))
axes[0].get_legend().remove()
plotting.legend_outside(axes[1], markerscale=0.7)
plt.show()

# %% [markdown]
# With PCA the two group means (black markers) sit far apart along the first component; with Fair
# PCA they coincide, at the cost of some explained variance. The rest of the book explains why this
# is optimal, how to trade some fairness back for accuracy, and how the same idea extends to kernels,
# to supervised components (PLS) and to regression.
