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
# # Scaling up: fair representations beyond one machine's memory
#
# The linear methods of this book — Fair PCA {cite}`kleindessner2023efficient`, Fair PLS
# {cite}`dediego2025pls` and fair linear regression {cite}`perezsuay2017fair` — never need the rows of
# $X$ themselves, only a few sums over them. This chapter makes that precise and uses it: the same
# estimators fit data that do not fit in memory, chunk by chunk with `partial_fit` or block by block
# with [Dask](https://docs.dask.org), and give the in-memory result to rounding error.
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. name the sufficient statistics of Fair PCA, Fair PCA-S, Fair PLS and FLR, and explain why they
#    are sums over rows;
# 2. explain why exact kernel methods do not distribute this way, and what the Nyström approximation
#    changes;
# 3. fit from chunks on disk with `partial_fit` and with a Dask array, and check that the results
#    equal the in-memory fit;
# 4. measure the throughput of each route, and point the same code at an existing Dask cluster.
#
# **Prerequisites.** {doc}`04_fair_pca_derivation` and {doc}`05_fair_pca_variants` (Fair PCA and
# Fair PCA-S, whose sums are derived here), {doc}`10_fair_pls` (Fair PLS and its deflation),
# {doc}`07_fair_regression_toy` (FLR) and {doc}`06_fair_kernel_pca` (the Nyström approximation).
# The maths needed: covariance matrices written as sums over rows, and how rounding errors cancel
# in floating point; no earlier use of Dask is assumed.
#
# **Time.** About 40 minutes to read and work through; the notebook runs in {{ run_time_16 }} at
# its defaults, including the start of a local Dask cluster.
#
# {{ run_it }}
# :::
#

# %% [markdown]
# ## Parameters
#
# The defaults write a data set of about 55 MiB to a temporary folder and treat 8 MiB as the memory
# budget of one step, so no step ever holds more than one chunk of rows. `scheduler = "cluster"`
# starts a local Dask cluster of two worker processes inside this notebook (and closes it at the
# end); `"threads"` uses Dask's threaded scheduler in this process. Raise `n_rows` through papermill
# to try larger data: memory use stays at a few chunks, whatever `n_rows` is.

# %% tags=["parameters"]
seed = 0                  # seed of the synthetic data
n_rows = 300_000          # rows written to disk
n_features = 24           # columns of X
memory_budget_mb = 8      # size of one chunk of rows, in MiB
n_components = 3          # fair components
n_landmarks = 200         # Nyström landmarks of the kernel example
scheduler = "cluster"     # "cluster" (a LocalCluster of two worker processes) or "threads"

# %%
import logging
import shutil
import tempfile
import time
from pathlib import Path

import dask
import dask.array as da
import numpy as np
import pandas as pd
from distributed import Client, LocalCluster
from threadpoolctl import threadpool_limits

from fairlab import FairKernelPCA, FairLinearRegression, FairPCA, FairPLS, check_parameters
from fairlab.plotting import book_style

check_parameters(globals(), seed=int, n_rows=int, n_features=int, memory_budget_mb=int,
                 n_components=int, n_landmarks=int, scheduler=["cluster", "threads"])

book_style()

# One BLAS thread per process: the parallelism comes from Dask's workers, and every route below is
# timed under the same rule (Dask's worker processes set OPENBLAS_NUM_THREADS=1 themselves).
blas_limits = threadpool_limits(1)

# %% [markdown]
# ## The sufficient-statistics view
#
# Write $v_i \in \mathbb R^p$ for the numeric variables of row $i$ (the features $x_i$, and for the
# supervised methods the targets $y_i$ and the continuous sensitive columns) and $g_r(i)$ for its
# group in the $r$-th categorical sensitive attribute. Every linear method of the book is a function
# of
#
# $$
# \begin{gathered}
# n,\qquad \sum_i v_i,\qquad \sum_i v_i v_i^\top,\\
# n_g = \#\{i : g_r(i) = g\},\qquad \sum_{i:\,g_r(i)=g} v_i .
# \end{gathered}
# $$
#
# * **Fair PCA** (Algorithms 1 and 2 of {cite}`kleindessner2023efficient`) needs the scatter matrix
#   $C = \sum_i (x_i - \bar x)(x_i - \bar x)^\top$ and the constraint $X^\top\tilde Z$. The column of
#   group $g$ is $\tilde z_g^\top X = \sum_{i \in g} x_i - n_g \bar x$: a group sum. The $d\times d$
#   eigenproblem that follows is the same whatever produced the sums. **Fair PCA-S** (§3.6 of the same paper) also
#   needs the group covariances $\Sigma_g$, and $\sum_{i\in g} x_i x_i^\top$ is a sum too: $m$ more
#   $d\times d$ matrices.
# * **FLR** (eq. (2) of {cite}`perezsuay2017fair`) solves
#   $(\tilde X^\top\tilde X + \lambda I + \tfrac{\mu}{n^2}\tilde X^\top\tilde S\tilde S^\top\tilde X)W
#   = \tilde X^\top\tilde Y$: three cross-product matrices.
# * **Fair PLS** deflates $X$ after each component, which looks like a pass over the data per
#   component. It is not needed: the proposition below shows that the deflation acts on the
#   cross products directly.
#
# ```{prf:proposition} Fair PLS from cross products
# :label: prop-pls-moments
#
# Let $C_h = X_h^\top X_h$ and $A_h = X_h^\top [Y, S]$, let $w$ be the unit weight of component
# $h$, $t = X_h w$ its score and $p = X_h^\top t / t^\top t$ its loading. Then
# $t^\top t = w^\top C_h w$, $p = C_h w / w^\top C_h w$, $t^\top [Y, S] = w^\top A_h$, and the
# deflation $X_{h+1} = X_h - t p^\top$ gives
#
# $$
# \begin{gathered}
# C_{h+1} = C_h - (t^\top t)\, p p^\top,\\
# A_{h+1} = A_h - p\,(w^\top A_h).
# \end{gathered}
# $$
# ```
#
# ```{prf:proof}
# $X_h^\top t = X_h^\top X_h w = C_h w$ and $t^\top t = w^\top C_h w$ give $p$. Expanding,
# $X_{h+1}^\top X_{h+1} = C_h - p\,t^\top X_h - X_h^\top t\, p^\top + (t^\top t)\,pp^\top$, and
# $X_h^\top t = (t^\top t)\,p$ turns the three last terms into $-(t^\top t)\,pp^\top$. Finally
# $X_{h+1}^\top [Y,S] = A_h - p\, t^\top [Y, S]$ with $t^\top [Y,S] = w^\top X_h^\top [Y, S]$.
# ```
#
# So Fair PLS, for every penalty $\eta$ including the hard constraint $\eta = \infty$, needs
# $X^\top X$, $X^\top Y$, $X^\top S$ (and $Y^\top Y$, $Y^\top S$ for equalised odds): sums again.
# Forming $X^\top X$ squares the condition number of $X$, so components whose score variance is
# below about $d\,\varepsilon\,\operatorname{tr}(X^\top X)$ cannot be told from zero this way; for
# the data of any real application this is far below what matters.
#
# **Kernel methods do not distribute this way.** Fair kernel PCA, FKR and kernel Fair PLS work with
# the $n\times n$ Gram matrix $K$. Its constraint $K\tilde Z$ and its eigenproblem couple every pair
# of rows, and no fixed-size summary of the rows determines them: the solution lives in the span of
# all $n$ feature maps. The Nyström approximation {cite}`williams2001nystrom` replaces the kernel by
# explicit features $f(x) = W^{-1/2}k(L, x)$ built on a fixed set $L$ of landmarks. On those
# features fair kernel PCA becomes linear Fair PCA, whose statistics are sums again. That is the only
# kernel route of `fairlab` that scales past memory.
#
# **Accuracy far from the origin.** $\sum_i x_i x_i^\top - n\bar x\bar x^\top$ cancels
# catastrophically when $\|\bar x\|$ is large next to the spread. Every row is therefore shifted by a
# fixed $c$, the mean of the first chunk, before it is summed:
# $C = \sum_i (x_i - c)(x_i - c)^\top - n\delta\delta^\top$ with $\delta = \bar x - c$ small. The
# in-memory fit shifts its row blocks the same way, so the two agree to rounding, and the column
# norms of the shifted rows, which set the tolerance of the constraint's rank decision, are read off
# the diagonal of the same sum.

# %% [markdown]
# ## A data set on disk
#
# The data are three groups with different means, far from the origin, written by Dask block by
# block as a stack of `.npy` files (`da.to_npy_stack`, one file per chunk). The rows never exist in
# this process all at once. With `scheduler = "cluster"`, two worker processes do the work.

# %% tags=["nbval-ignore-output"]
folder = Path(tempfile.mkdtemp(prefix="fairlab-scaling-"))  # the data, and the workers' scratch space
if scheduler == "cluster":
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR,
                           local_directory=folder / "dask-scratch-space")
    client = Client(cluster)
    # import fairlab once on every worker, so that no timing below includes it
    client.run(exec, "import fairlab.hsic_regression, fairlab.kernel_pca, fairlab.pca, fairlab.pls")
    print("workers:", len(client.scheduler_info()["workers"]))
else:
    dask.config.set(scheduler="threads")
    print("workers: threads of this process")

# %%
chunk_rows = memory_budget_mb * 2**20 // (8 * n_features)
rng = da.random.default_rng(seed)
group = rng.choice(3, size=n_rows, p=[0.5, 0.3, 0.2], chunks=chunk_rows)
group_means = np.random.default_rng(seed).normal(scale=1.5, size=(3, n_features))
X = (rng.standard_normal((n_rows, n_features), chunks=(chunk_rows, n_features))
     * np.linspace(0.5, 3.0, n_features)
     + (group[:, None] == np.arange(3)) @ group_means + 100.0)
y = X @ np.linspace(-1.0, 1.0, n_features) + rng.standard_normal(n_rows, chunks=chunk_rows)
for name, values in {"X": X, "y": y, "group": group}.items():
    da.to_npy_stack(folder / name, values)
X_disk, y_disk, group_disk = (da.from_npy_stack(folder / name) for name in ("X", "y", "group"))
print(f"X: {n_rows} × {n_features} float64 = {X_disk.nbytes / 2**20:.1f} MiB on disk,\n"
      f"{X_disk.numblocks[0]} chunks of at most {chunk_rows} rows "
      f"({memory_budget_mb} MiB each)")

# %% [markdown]
# ## Three ways to fit the same model
#
# 1. **In memory** — the reference; here the data still fit, so we can load them whole.
# 2. **`partial_fit`** over the chunks: each file is opened as a memory map
#    (`np.load(..., mmap_mode="r")`) and only its sums are kept. Each call then solves the small
#    $d \times d$ eigenproblem of the sums so far, as scikit-learn's `IncrementalPCA` does, so
#    `components_` is current after every chunk; with few columns that costs little beside
#    reading the chunk.
# 3. **Dask**: `fit` receives the lazy array. One `dask.compute` sums every block on the workers
#    (the group labels are collected in the same pass) and merges the sums by a tree reduction;
#    the small eigenproblem is then solved locally by the code of the in-memory fit.

# %%
n_chunks = X_disk.numblocks[0]
X_mem = np.concatenate([np.load(folder / "X" / f"{i}.npy") for i in range(n_chunks)])
y_mem = np.concatenate([np.load(folder / "y" / f"{i}.npy") for i in range(n_chunks)])
g_mem = np.concatenate([np.load(folder / "group" / f"{i}.npy") for i in range(n_chunks)])

seconds = {}
start = time.perf_counter()
pca_mem = FairPCA(n_components).fit(X_mem, sensitive_features=g_mem)
seconds["in memory"] = time.perf_counter() - start

start = time.perf_counter()
pca_stream = FairPCA(n_components)
for i in range(n_chunks):
    pca_stream.partial_fit(np.load(folder / "X" / f"{i}.npy", mmap_mode="r"),
                           sensitive_features=np.load(folder / "group" / f"{i}.npy"))
seconds["chunks (partial_fit)"] = time.perf_counter() - start

start = time.perf_counter()
pca_dask = FairPCA(n_components).fit(X_disk, sensitive_features=group_disk)
seconds["Dask"] = time.perf_counter() - start

# %% [markdown]
# The three fits agree to rounding error. The table compares components, explained variance and
# the projections of all rows; `transform` of a Dask array is itself lazy and is computed block by
# block here.

# %%
rows = []
for name, est in {"chunks (partial_fit)": pca_stream, "Dask": pca_dask}.items():
    projected = est.transform(X_disk).compute()
    rows.append({
        "route": name,
        "components": np.abs(est.components_ - pca_mem.components_).max() < 1e-10,
        "explained variance": np.allclose(est.explained_variance_, pca_mem.explained_variance_,
                                          rtol=1e-10, atol=0),
        "projections": np.abs(projected - pca_mem.transform(X_mem)).max()
        < 1e-10 * np.abs(projected).max(),
    })
print("explained variance ratio (all routes):", np.round(pca_mem.explained_variance_ratio_, 4))
pd.DataFrame(rows).set_index("route")

# %%
projected = pca_mem.transform(X_mem)
gap = max(np.abs(projected[g_mem == g].mean(axis=0) - projected.mean(axis=0)).max()
          for g in range(3))
print("largest group-mean gap of the fair components / their spread < 1e-10:",
      bool(gap < 1e-10 * projected.std()))

# %% [markdown]
# ### Throughput
#
# Rows per second of each route on the machine that ran this page, with one BLAS thread per
# process; timings vary from run to run, so nbval does not compare them. The in-memory fit reads a
# matrix that is already in RAM; the other two read the files. `partial_fit` runs in this process
# on one core; Dask spreads the blocks over its two workers, but its fixed cost — building the
# graph, shipping tasks and sums between processes — weighs heavily at this size and fades as the
# data grow. For scale, `tests/test_dask.py` fits `FairPCA` with the threaded scheduler on a
# $2\cdot10^7 \times 50$ array (7.5 GiB) generated block by block with `da.random` and never
# materialised, and checks that the peak memory stays below 1 GiB: only a few blocks of 38 MiB are
# held at a time.

# %% tags=["nbval-ignore-output"]
pd.DataFrame({"seconds": seconds, "rows per second": {k: n_rows / v for k, v in seconds.items()}}
             ).round({"seconds": 3, "rows per second": 0})

# %% [markdown]
# ## Fair PLS and fair linear regression
#
# The supervised methods take the target too; everything else is the same. Fair PLS with the hard
# constraint $\eta = \infty$ makes every score uncorrelated with the group indicators, and FLR with a
# large $\mu$ shrinks the covariance of the predictions with them. Both are fitted from the chunks
# and from the Dask arrays and compared with the in-memory fit.

# %%
pls_mem = FairPLS(n_components, eta=np.inf).fit(X_mem, y_mem, sensitive_features=g_mem)
flr_mem = FairLinearRegression(alpha=1.0, mu=1e6).fit(X_mem, y_mem, sensitive_features=g_mem)
pls_stream = FairPLS(n_components, eta=np.inf)
flr_stream = FairLinearRegression(alpha=1.0, mu=1e6)
for i in range(n_chunks):
    chunk = np.load(folder / "X" / f"{i}.npy", mmap_mode="r")
    target = np.load(folder / "y" / f"{i}.npy")
    groups = np.load(folder / "group" / f"{i}.npy")
    pls_stream.partial_fit(chunk, target, sensitive_features=groups)
    flr_stream.partial_fit(chunk, target, sensitive_features=groups)
pls_dask = FairPLS(n_components, eta=np.inf).fit(X_disk, y_disk, sensitive_features=group_disk)
flr_dask = FairLinearRegression(alpha=1.0, mu=1e6).fit(X_disk, y_disk,
                                                       sensitive_features=group_disk)
rows = []
for name, pls, flr in [("chunks (partial_fit)", pls_stream, flr_stream),
                        ("Dask", pls_dask, flr_dask)]:
    rows.append({
        "route": name,
        "Fair PLS weights": np.abs(pls.x_weights_ - pls_mem.x_weights_).max() < 1e-10,
        "Fair PLS coef": np.abs(pls.coef_ - pls_mem.coef_).max()
        < 1e-10 * np.abs(pls_mem.coef_).max(),
        "FLR coef": np.abs(flr.coef_ - flr_mem.coef_).max() < 1e-10 * np.abs(flr_mem.coef_).max(),
    })
scores = pls_mem.transform(X_mem)
print("Fair PLS (η = ∞): max |corr(score, group indicator)| < 1e-10:",
      bool(max(abs(np.corrcoef(scores[:, j], g_mem == g)[0, 1])
               for j in range(n_components) for g in range(3)) < 1e-10))
print("R² of Fair PLS and of FLR:", round(pls_mem.score(X_mem, y_mem), 3),
      round(flr_mem.score(X_mem, y_mem), 3))
pd.DataFrame(rows).set_index("route")

# %% [markdown]
# ## Nyström fair kernel PCA on a Dask array
#
# `FairKernelPCA(approximation="nystroem")` draws its landmarks once, with the same seed as in memory
# (fetched from the Dask array by indexing), computes the Nyström features block by block, never
# storing them, and fits the Dask `FairPCA` on them. The exact solver refuses a Dask array: it needs
# the $n\times n$ Gram matrix. The example uses the first 20 000 rows, standardised.

# %%
X_small = X_disk[:20_000]
X_small = (X_small - X_mem[:20_000].mean(axis=0)) / X_mem[:20_000].std(axis=0)
kpca_mem = FairKernelPCA(n_components, approximation="nystroem", n_landmarks=n_landmarks,
                         random_state=seed).fit(X_small.compute(),
                                                sensitive_features=g_mem[:20_000])
kpca_dask = FairKernelPCA(n_components, approximation="nystroem", n_landmarks=n_landmarks,
                          random_state=seed).fit(X_small, sensitive_features=group_disk[:20_000])
embedding = kpca_dask.transform(X_small)
print("lazy embedding:", type(embedding).__name__, embedding.shape)
print("same landmarks:", bool(np.array_equal(kpca_dask.landmark_indices_,
                                              kpca_mem.landmark_indices_)))
print("embeddings equal to 1e-10:",
      bool(np.abs(embedding.compute() - kpca_mem.transform(X_small.compute())).max()
           < 1e-10 * np.abs(kpca_mem.eigenvalues_).max() ** 0.5))

# %% [markdown]
# ## Pointing it at an existing cluster
#
# Nothing in `fairlab` depends on where Dask runs its tasks. To use a cluster that already exists,
# connect a client to its scheduler before fitting, and store the data where every worker can read it
# (a shared file system, object storage, Parquet or Zarr files):
#
# ```python
# from dask.distributed import Client
#
# client = Client("tcp://scheduler.example.org:8786")  # the address of the cluster's scheduler
# X = da.from_npy_stack("/shared/data/X")              # or da.from_zarr, dd.read_parquet, ...
# z = da.from_npy_stack("/shared/data/group")
# model = FairPCA(3).fit(X, sensitive_features=z)      # one pass, on the cluster's workers
# ```
#
# Only sums travel: $p^2 + (\text{number of groups})\cdot p$ numbers per block between the
# workers, and one merged set of them to the client, whatever the number of rows. `fit` also accepts Dask DataFrames (`dd.read_parquet(...)`),
# whose partition lengths it computes first. This notebook ran on a local cluster of two worker
# processes (`scheduler = "cluster"`); pass `scheduler="threads"` to use the threaded scheduler of
# one process instead. With the threaded scheduler, one BLAS thread per task
# (`OPENBLAS_NUM_THREADS=1`) avoids oversubscribing the cores; Dask's worker processes set that
# themselves.

# %%
if scheduler == "cluster":
    client.close()
    cluster.close()
shutil.rmtree(folder)
print("cleaned up")

# %% [markdown]
# ## Exercises
#
# ```{exercise}
# :label: ex-scaling-pca-s
#
# Fair PCA-S (§3.6 of {cite}`kleindessner2023efficient`) needs the group covariance matrices
# $\Sigma_g$. Write them in terms of sums that a chunked pass can accumulate, including the shift
# $c$ of the first chunk, and count the extra memory for $m$ groups and $d$ features. Check your
# formula with `FairPCA(equalize_covariance=0.5).partial_fit(...)` against `fit`.
# ```
#
# ```{solution} ex-scaling-pca-s
# :class: dropdown
#
# With $S_g = \sum_{i\in g}(x_i - c)(x_i - c)^\top$, $s_g = \sum_{i\in g}(x_i - c)$ and
# $\delta_g = s_g / n_g = \bar x_g - c$,
#
# $$
# \Sigma_g = \frac{1}{n_g - 1}\Bigl(S_g - n_g\,\delta_g\delta_g^\top\Bigr),
# $$
#
# the covariance of the group about its own mean (divisor $n_g - 1$, as `np.cov`). The shift keeps
# $\delta_g$ of the order of the spread between the groups, so nothing cancels. The extra memory is
# $m\,d^2$ numbers, independent of $n$. In code:
#
#     est = FairPCA(2, equalize_covariance=0.5)
#     for i in range(n_chunks):
#         est.partial_fit(np.load(folder / "X" / f"{i}.npy", mmap_mode="r"),
#                         sensitive_features=np.load(folder / "group" / f"{i}.npy"))
#     ref = FairPCA(2, equalize_covariance=0.5).fit(X_mem, sensitive_features=g_mem)
#     np.abs(est.components_ - ref.components_).max()   # about 1e-14
# ```
#
# ```{exercise}
# :label: ex-scaling-shift
#
# The data of this chapter have mean 100 in every feature. Compute the covariance of `X_mem` with
# the textbook formula $\tfrac{1}{n-1}(\sum_i x_i x_i^\top - n\bar x\bar x^\top)$ and compare it
# with `np.cov(X_mem, rowvar=False)`. How many digits are lost, and why does the shift by the mean
# of the first chunk recover them? What would happen with a mean of $10^8$?
# ```
#
# ```{solution} ex-scaling-shift
# :class: dropdown
#
# `(X_mem.T @ X_mem - n * np.outer(m, m)) / (n - 1)` with `m = X_mem.mean(axis=0)` differs from
# `np.cov` by about $\varepsilon\,\|\bar x\|^2 \approx 10^{-16}\cdot 10^4 = 10^{-12}$ per entry in
# absolute terms, against entries of order 1: several of the sixteen digits are gone (the cell below
# counts them as `lost`, relative to the largest entry). Rounding errors
# of the sum are of the order of $\varepsilon$ times its terms, $x_i x_i^\top \approx 10^4$, while
# the result is of order 1. After the shift, the terms $(x_i - c)(x_i - c)^\top$ are of the size of
# the result, and $n\delta\delta^\top$ is tiny because $c$, the mean of a chunk of tens of thousands
# of rows, is within about $\sigma/\sqrt{n_{\text{chunk}}}$ of $\bar x$. With a mean of $10^8$ the
# textbook formula loses all sixteen digits ($\|\bar x\|^2 \approx 10^{16}$): the computed
# covariance is noise, possibly with negative eigenvalues, while the shifted sums are as accurate as
# before.
# ```

# %% tags=["solution", "hide-input"]
from fairlab import exercises

m = X_mem.mean(axis=0)
textbook = (X_mem.T @ X_mem - len(X_mem) * np.outer(m, m)) / (len(X_mem) - 1)
reference = np.cov(X_mem, rowvar=False)
lost = 16 + np.log10(np.abs(textbook - reference).max() / np.abs(reference).max())
exercises.check("ex-scaling-shift", lost)
