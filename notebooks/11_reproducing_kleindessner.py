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
# # Reproducing Kleindessner et al. (2023), §5.1: fair PCA against its competitors
#
# Section 5.1 of {cite}`kleindessner2023efficient` reruns the experiments of {cite}`lee2022fast` and adds the
# paper's own methods and two concept-erasure baselines. This chapter redoes that section with `fairlab` and
# puts every number beside the printed one. Table and figure numbers without a chapter prefix
# (Table 1, Fig. 2) are the paper's; this chapter's own figures carry the chapter's
# number first.
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. state the protocol of Tables 1–4 precisely (data, splits, metrics, downstream models) and say which parts of it
#    are unusual;
# 2. read the paper-scale results — a ledger of work units with their provenance (`fairlab.experiments`) — beside
#    the printed tables, and check that the code still produces them;
# 3. tell a reproduction (same number from the same data and protocol) from a replication (same conclusion on data
#    drawn again), and explain which cells can and which cannot be expected to agree to the printed decimals.
#
# **Prerequisites.** {doc}`04_fair_pca_derivation` and {doc}`05_fair_pca_variants` (Fair PCA and
# Fair PCA-S, the methods under test), {doc}`06_fair_kernel_pca` (Fair Kernel PCA) and
# {doc}`03_measuring_fairness` (MMD², $\Delta_\text{DP}$, and why a classifier scored on its own
# training rows is inflated). The maths needed: means, standard deviations, and what a kernel SVM
# and a linear SVM are.
#
# **Time.** About 45 minutes to read and work through. The paper-scale numbers are read from the ledger (its
# summed unit time is printed below); the cells that compute run in {{ run_time_11 }}.
#
# {{ run_it }}
# :::
#
# **What the paper did.** Three real data sets in the preprocessing of Lee et al. (Adult Income: 97 features, sex;
# German Credit: 57 features, age ≥ 25; COMPAS: 11 features, race — the sensitive attribute stays *among the
# features*), Lee et al.'s ten published 70/30 splits, target dimensions $k = 2$ and $k = 10$, and eleven methods:
# PCA, FPCA {cite}`olfat2019convex` and MbF-PCA {cite}`lee2022fast` in two settings each, INLP
# {cite}`ravfogel2020null`, RLACE {cite}`ravfogel2022linear`, and the authors' Fair PCA, Fair Kernel PCA and
# Fair PCA-S (0.5)/(0.85). Table 4 adds the fair PCA of {cite}`samadi2018price`. Figures 2–3 and 7 use Lee et
# al.'s synthetic Gaussians ($d = 20, 60, 100$, $k = 5$) for the quality of the representation and the running
# times.
#
# **The protocol.** On each split the method is fitted on the training part; everything else is measured on the
# **test** part:
#
# * %Var $= 100\cdot\operatorname{tr}(U^\top\Sigma_\text{test}U)/\operatorname{tr}\Sigma_\text{test}$;
# * MMD² between the groups' test embeddings (biased V-statistic, Gaussian kernel whose width $\sigma$ is the median
#   heuristic of the *training* data projected by PCA-$k$, the same $\sigma$ for every method of a split);
# * accuracy and $\Delta_\text{DP}$ of a kernel SVM, a linear SVM and an MLP (hidden layers 10 and 5) that are
#   **trained on the test embedding and evaluated on the same rows** — Lee et al.'s protocol, kept unchanged by the
#   paper.
#
# The last point matters for reading the accuracy columns. A classifier scored on its own training rows measures
# how much label information survives in the representation, *not* how well anything generalises: a flexible
# model can memorise (German Credit, $k = 10$: the kernel SVM reaches 99.9 %). {doc}`03_measuring_fairness`
# shows the inflation on a held-out split; below, `protocols=("train_on_test", "train_test")` measures it for these
# tables. Means and standard deviations are over the splits, the std with `ddof=0` (`np.std`, as the authors'
# `write_results.py`: Adult PCA $k=2$ prints $7.78_{0.77}$; `ddof=1` would give 0.82).
#
# **Two data modes.** `lee_splits = True`, the default, reads Lee et al.'s split files, which ship with `fairlab`
# (MIT licence; `fairlab.datasets.load_lee2022_split`): the only exact copy of the paper's data, since AIF360
# shuffled it without a seed. That is the *reproduction*. `lee_splits = False` rebuilds the same features from the
# raw files shipped with the package, draws a subsample of Lee's size and seeded 70/30 splits
# (`repeated_splits`), standardised as Lee's files. That is a *replication*: the numbers move by a few standard
# deviations' worth of sampling noise, the conclusions should not.

# %% tags=["parameters"]
seed = 0                     # random seed (subsamples, splits, RLACE, MbF-PCA)
lee_splits = True            # True: Lee et al.'s exact splits (shipped); False: our splits of the shipped raw data
n_splits = 1                 # train/test splits per data set for the live cells (the ledger has the paper's 10)
datasets = ["adult", "german", "compas"]   # data sets of Tables 1-3
live_units = [["german", "PCA", 2, 0], ["german", "Fair PCA", 2, 0], ["german", "Fair PCA-S (0.5)", 10, 0],
              ["compas", "Fair PCA", 10, 0], ["compas", "Fair Kernel PCA", 2, 0],
              ["adult", "Fair PCA-S (0.85)", 2, 0],
              ["synthetic60", "Fair PCA", 5, 0]]  # units (dataset, method, k, split) recomputed against the ledger

# %%
import matplotlib.pyplot as plt
import pandas as pd

from IPython.display import display

from fairlab import experiments, published
from fairlab.evaluation import runtime_ratios
from fairlab.experiments import kleindessner
from fairlab.plotting import COLUMN_WIDTH, book_style, plot_boxplots, plot_runtime

book_style()
mode = "Lee et al.'s exact splits" if lee_splits else "our splits of the shipped data (replication)"
print(f"live cells: {mode}, {n_splits} split(s) per data set")

# %% [markdown]
# ## The data and the splits
#
# `kleindessner.load_splits` returns the splits as `Bunch` objects (`X_train`, `y_train`, `s_train`, `X_test`, …). The
# sizes are Lee et al.'s in both modes; the label and group rates of the test parts show that our re-drawn
# subsamples look like theirs (Table 1's header: $P(Y=1) = 0.2489$ for Adult).

# %%
splits = {name: kleindessner.load_splits(name, lee_splits=lee_splits, n_splits=n_splits, random_state=seed)
          for name in datasets}
pd.DataFrame([{"dataset": name, "train rows": len(sp[0].X_train), "test rows": len(sp[0].X_test),
               "d": sp[0].X_train.shape[1],
               "P(y=1), test": round(float(sum(s.y_test.mean() for s in sp) / len(sp)), 2),
               "P(s=1), test": round(float(sum(s.s_test.mean() for s in sp) / len(sp)), 2)}
              for name, sp in splits.items()]).set_index("dataset")

# %% [markdown]
# ## Tables 1–4 at paper scale: the ledger
#
# Paper scale is data. Every cell of Tables 1–4 is the mean over Lee et al.'s ten splits of one number per split,
# and each (data set, method, $k$, split) is a **work unit** of `fairlab.experiments.kleindessner`: a pure function
# of its key that loads the split, fits the method, scores it and returns one row per metric. `make reproduce`
# computes the units that the **ledger** lacks — the committed file `notebooks/results/kleindessner.csv.gz`, one
# row per split with the commit, date, machine and seconds of its unit — on a Dask cluster, resuming where an
# interrupted run stopped. This section only reads the ledger, so it shows the paper-scale numbers in seconds on
# any machine; the next section recomputes a few units live and checks that they equal it.

# %%
ledger = experiments.read_ledger("kleindessner")
print(experiments.describe_ledger(ledger, "kleindessner"))

# %% [markdown]
# `experiments.summarize_ledger` turns the per-split rows into the printed cells (mean and population std over
# the splits, `ddof=0` as the authors' `np.std`), and `kleindessner.compare` matches each with the paper's. A cell
# of ours with fewer than ten splits is marked in the coverage count below; a method the ledger does not hold yet
# shows `n/a`.

# %%
summary = experiments.summarize_ledger(ledger)
tables_1_3 = summary[summary.table.isin(["table1", "table2", "table3"])]
compared = kleindessner.compare(tables_1_3) if len(tables_1_3) else None
compared4 = (kleindessner.compare(summary[summary.table == "table4"], "table4")
             if (summary.table == "table4").any() else None)
printed = {name: published.table("kleindessner2023", name) for name in ["table1", "table2", "table3", "table4"]}
own = lambda frame: frame[frame.method.map(kleindessner.base_method) == frame.method]  # no variant rows
coverage = []
for name, pub in printed.items():
    shown = compared4 if name == "table4" else compared
    shown = None if shown is None else own(shown[shown.dataset.isin(pub.dataset.unique())])
    ours_cells = 0 if shown is None else int(shown.ours_mean.notna().sum())
    coverage.append({"table": name, "printed cells": len(pub), "with our number": ours_cells,
                     "of them on all 10 splits": 0 if shown is None else int(
                         (shown.ours_mean.notna() & (shown.n_splits == 10)).sum()),
                     "within the paper's std": 0 if shown is None else int(shown.within.fillna(False).sum()),
                     "equal at the printed decimals": 0 if shown is None else int(shown.status.isin(
                         ["equal", "mean equal"]).sum())})
coverage = pd.DataFrame(coverage).set_index("table")
coverage.loc["all"] = coverage.sum()
coverage

# %% [markdown]
# The tables, one block per data set and group of columns. Each cell shows the paper's mean ± std, ours (over the
# splits the ledger holds; `(n=…)` where fewer than the rest), the difference and a mark: **=** mean and std equal
# at the authors' decimals, **≈** the mean does, **~** within the paper's std, **✗** beyond it.
#
# The rows marked *Lee et al.'s loadings* are **reference runs**: the paper did not refit PCA, FPCA and MbF-PCA but
# evaluated the loading matrices that Lee et al.'s own experiments saved (`fairlab.datasets.load_lee2022_loadings`,
# shipped). Scoring those matrices with this chapter's protocol (`fairlab.evaluation.FixedProjection`) separates
# the two questions a miss can hide: is our protocol the paper's (then the reference run equals the printed row),
# and does our fit of the method land where theirs did (then our row equals it too).

# %%
groups = {"representation": lambda v: v.model == "", "Kernel SVM": lambda v: v.model == "Kernel SVM",
          "Linear SVM": lambda v: v.model == "Linear SVM", "MLP": lambda v: v.model == "MLP"}
for name, pub in printed.items():
    if name == "table4":
        continue
    view = compared[(compared.dataset == pub.dataset.iloc[0])
                    & ~compared.method.str.endswith(kleindessner.REFERENCE_CODE_SUFFIX)]
    for group, chosen in groups.items():
        display(kleindessner.side_by_side(view[chosen(view)],
                                          title=f"{name.replace('table', 'Table ')} ({pub.dataset.iloc[0]}): {group}"))

# %% [markdown]
# **Reading the comparison.** The counts per method and metric, printed from the comparison above (without the
# MLP, whose case follows):

# %%
no_mlp = own(compared[compared.ours_mean.notna() & (compared.model != "MLP")])
kleindessner.match_counts(no_mlp, by=["method", "metric"])

# %%
closed_form = ["PCA", "Fair PCA", "Fair PCA-S (0.5)", "Fair PCA-S (0.85)"]
rep = compared[compared.method.isin(closed_form) & (compared.model == "") & compared.ours_mean.notna()]
svm = compared[compared.method.isin(closed_form) & compared.model.isin(["Kernel SVM", "Linear SVM"])
               & compared.ours_mean.notna()]
mlp = own(compared[(compared.model == "MLP") & compared.ours_mean.notna()])
print(f"PCA, Fair PCA and Fair PCA-S: {(rep.status == 'equal').sum()} of {len(rep)} %Var and MMD² cells equal the "
      f"printed mean and std; {(svm.status == 'equal').sum()} of {len(svm)} SVM cells do, "
      f"{svm.within.fillna(False).sum()} are within the paper's std.")
off = svm[svm.status != "equal"]
if len(off):
    print(f"the other SVM cells: {sorted(off.metric.unique())}, |difference| from {off.difference.abs().min():.2f} "
          f"to {off.difference.abs().max():.2f}")
print(f"MLP: {(mlp.status == 'equal').sum()} of {len(mlp)} cells equal, {mlp.within.fillna(False).sum()} within "
      "the paper's std")
runs = compared[compared.method.str.endswith(kleindessner.REFERENCE_SUFFIX) & compared.ours_mean.notna()]
print(f"reference runs (Lee et al.'s saved loadings, all four classifiers): {(runs.status == 'equal').sum()} of "
      f"{len(runs)} cells equal the printed mean and std, {runs.within.fillna(False).sum()} within the paper's std")

# %% [markdown]
# The reference runs answer whether a miss of our FPCA or MbF-PCA is the protocol's or the fit's: where Lee et al.'s
# own loadings, scored here, equal the printed row, the protocol is the paper's and only the fit differs.
#
# Where the SVM accuracies differ, they differ by a few hundredths of a point: scikit-learn's libsvm solves the same
# SVM as MATLAB's `fitcsvm` with Lee et al.'s defaults, but with another solver and stopping rule, which puts one or
# two of the test rows of a split on the other side of the margin.
#
# ## Runs as in the reference code: the misses the protocol explains
#
# Three differences between `fairlab`'s fits and the authors' runs change printed numbers without changing the
# method. Each is measured by running the method *as the reference code ran it*
# (`kleindessner.AsInReferenceCode`; the ledger's rows marked *as in the reference code*), with `fairlab`'s own
# default kept as the method:
#
# 1. **The MLP's columns** (Fair PCA, Fair PCA-S). The MLP's random initialisation meets the embedding's columns in
#    the order and with the signs the eigensolver returned ({ref}`ex-repro-mlp`). The reference code hands on
#    $U = RQ$, $R$ from `null_space`, $Q$ from LAPACK's `eigh` in *ascending* order; `fairlab` hands on the same
#    subspace in descending order with the largest entry of each column positive, because a reader
#    expects the leading direction first and the same signs on every machine. %Var, MMD² and both SVMs see only the
#    subspace and do not change; the MLP does. Fair PCA-S adds ARPACK's eigenvectors of smallest magnitude, whose
#    signs follow ARPACK's random start vector, drawn by a generator whose state carries over between calls of the
#    authors' process: that part of their basis cannot be recovered, so a seeded start vector stands in for it.
# 2. **INLP's basis** (INLP). Without an intercept, LinearSVC stops finding new directions after a few dozen of its
#    $d - k$ rounds, so the projection $P$ keeps a range far wider than $k$. The reference code takes
#    `eigsh(P, k)`: every eigenvalue in that range is 1, so it returns an arbitrary $k$-dimensional subspace of it,
#    chosen by ARPACK's start vector. `fairlab`'s `INLP(n_components=k)` takes the $k$ principal directions of the
#    projected data inside range($P$) instead — a defined subspace, with far more variance.
# 3. **FPCA's input** (FPCA). Lee et al. ran Olfat and Aswani's code, which standardises the columns again and, by a
#    quirk of its CSV reader, drops the first data row: `FPCA(scale=True)` fitted on `X[1:]`. `fairlab`'s runner
#    fits the split as it is, as every other method. Where the SDP's optimum has a tied top eigenvalue (German
#    Credit at $k = 2$; the package's tests show it on split 0), every $k$-dimensional subspace of the tied
#    eigenspace is optimal, and the run as in the reference code need not pick the one Lee et al.'s solver did.
#
# The cell prints, for each of these methods and each group of cells, how many printed cells our own fit and the
# run as in the reference code reproduce (over the units the ledger holds).

# %%
as_ref = compared[compared.method.str.endswith(kleindessner.REFERENCE_CODE_SUFFIX)]
as_ref = as_ref.assign(run="as in the reference code", method=as_ref.method.map(kleindessner.base_method))
both_runs = pd.concat([compared[compared.method.isin(as_ref.method.unique())].assign(run="fairlab"), as_ref])
both_runs = both_runs[both_runs.ours_mean.notna()].assign(cells=lambda f: f.model.replace("", "%Var, MMD²"))
by_run = both_runs.groupby(["method", "cells", "run"], sort=False)
pd.DataFrame({"equal": by_run.status.agg(lambda s: int((s == "equal").sum())),
              "within std": by_run.within.agg(lambda s: int(s.fillna(False).sum())),
              "printed cells": by_run.size()}).unstack("run")

# %% [markdown]
# PCA needs no run as in the reference code: the paper scored the PCA loadings Lee et al. saved (MATLAB's `pca`).
# They are scikit-learn's components column by column, in the same order, but on German Credit and COMPAS some
# columns come with the other sign (the package's tests check both facts on all ten splits). Only the MLP sees a
# sign. PCA's MLP cells, from our PCA and from Lee et al.'s loadings:

# %%
pca_mlp = compared[(compared.model == "MLP") & compared.ours_mean.notna()
                   & compared.method.isin(["PCA", "PCA" + kleindessner.REFERENCE_SUFFIX])]
kleindessner.match_counts(pca_mlp, by=["method", "metric"])

# %% [markdown]
# INLP's and FPCA's representation cells, with both runs beside the paper (and, for FPCA, Lee et al.'s own saved
# loadings), one table per data set:

# %%
iterative = compared[compared.method.map(kleindessner.base_method).isin(["INLP", "FPCA (0.1, 0.01)", "FPCA (0, 0.01)"])
                     & (compared.model == "")]
for dataset in iterative.dataset.unique():
    display(kleindessner.side_by_side(iterative[iterative.dataset == dataset],
                                      title=f"INLP and FPCA, {dataset}: %Var and MMD²"))

# %% [markdown]
# ## The misses that remain, and their causes
#
# Every cell of our own rows that lies beyond the paper's standard deviation, counted by method and group of cells:

# %%
beyond = own(compared[compared.ours_mean.notna() & (compared.status == "differs")])
beyond = beyond.assign(cells=beyond.model.replace("", "%Var, MMD²"))
print(beyond.groupby(["method", "cells"], sort=False).size().rename("cells beyond the paper's std").to_string())
print(f"\nin all {len(beyond)} of {int(own(compared).ours_mean.notna().sum())} cells with our number")

# %% [markdown]
# Each has a cause, measured where the ledger can hold the measurement:
#
# * **INLP** — its basis of range($P$) (item 2): the run as in the reference code brings its %Var and MMD² within
#   the paper's std where `fairlab`'s own run is not (the counts above), and the SVM cells follow the
#   representation.
# * **MLP cells** — the columns' order and signs (item 1): in the reference code's basis most of Fair PCA's MLP
#   cells equal the printed ones, and with Lee et al.'s own PCA loadings more of PCA's ΔDP means do than with
#   scikit-learn's signs (the counts above). Fair PCA-S's basis and Fair Kernel PCA's (`eigsh(H₁, k, M=H₂)`) come from
#   ARPACK, whose start vector the authors' process drew from ARPACK's own generator, whose state depends on every
#   earlier call in that process: it cannot be recovered. Their MLP cells, and those of the methods whose basis
#   is their own solver's (FPCA, MbF-PCA, RLACE), are one MLP run from another random start each: most land within
#   the paper's std, none can be expected on the digit, and the few beyond it are counted above. The MLP also
#   follows the BLAS kernel's rounding (`kleindessner.KERNEL_DEPENDENT_MODELS`).
# * **RLACE** — a stochastic method: 10 000 minibatch steps of a minimax game from a random start, drawn by PyTorch
#   in the reference and by NumPy here; the subspace it ends in is another draw.
# * **MbF-PCA (10⁻⁶)** — where a non-convex search starts. Lee et al.'s saved loadings (the reference-run rows)
#   keep far more variance than our fit at $k = 10$ while meeting the constraint on the training data (the next cell
#   checks it on one split): both are stationary points of the same penalised problem. `fairlab`'s `MbFPCA` starts
#   from the PCA solution, a deterministic start with which it finds Lee et al.'s own loadings at τ = 10⁻³ (the
#   package's tests check it on German Credit and COMPAS); at τ = 10⁻⁶ and $k = 10$ the penalty ρ doubles until the
#   path is pinned wherever its start led it. Lee et al.'s code starts from the best of eleven random orthonormal
#   matrices (`init="auxiliary"`), drawn by MATLAB's generator, which cannot be replayed; NumPy's draws lead to
#   another optimum again. Where ρ reaches $10^9$–$10^{10}$ the path even follows the rounding: summing the MMD²
#   terms in another order moves the $k = 10$ solutions (the `MbFPCA` docstring's Notes give the spread measured),
#   so these cells hold one local solution among several. Another OpenBLAS kernel moves them too: at $k = 2$ in the
#   last digits, at $k = 10$ to another solution (`kleindessner.KERNEL_DEPENDENT` gives the measurement). The ledger's
#   `machine` column names the kernel its rows were computed with; recomputed under another, these units are
#   reported by `make verify-results` as not judged.

# %%
from fairlab import metrics
from fairlab.datasets import load_lee2022_loadings, load_lee2022_split

german0 = load_lee2022_split("german", 0)
lee_V = load_lee2022_loadings("german", "10_mbfpca_6", 0).V
centred = german0.X_train - german0.X_train.mean(axis=0)
lee_mmd2 = metrics.mmd2(centred @ lee_V, german0.s_train, sigma=metrics.lee_bandwidth(german0.X_train, 10))
print(f"Lee et al.'s MbF-PCA (10^-6) loadings, German Credit, k = 10, split 0: training MMD² {lee_mmd2:.1e} "
      f"(tau = 1e-06); training %Var {100 * metrics.explained_variance(centred, lee_V.T):.2f}")
mbf = ledger[(ledger.dataset == "German Credit") & (ledger.k == 10) & (ledger.split == 0)
             & ledger.method.str.startswith("MbF-PCA (10^-6)") & (ledger.metric == "var_pct")]
print(mbf[["method", "value"]].rename(columns={"value": "test %Var"}).round(2).to_string(index=False))

# %% [markdown]
# **What the paper concluded, checked.** "There is no single best method"; Fair PCA-S achieves a smaller DP
# violation than Fair PCA for the non-linear classifiers except on COMPAS (whose $d=11$ makes Fair PCA-S equal
# to Fair PCA at $k=10$), and Fair Kernel PCA has the smallest $\Delta_\text{DP}$ of the kernel SVM. The next cell
# checks these statements on the paper-scale means, for the kernel SVM and the MLP, and lists where the first one
# fails; the cell after it runs the same check on the printed means, which tells a failure of the claim on the
# paper's own numbers from one on ours.

# %%
checks = kleindessner.fair_pca_s_dp_checks(tables_1_3)
print(checks.to_string(), "\n")
print("Fair PCA-S has a larger ΔDP than Fair PCA at:", kleindessner.claim_failures(checks), "\n")
dp = tables_1_3[(tables_1_3.metric == "delta_dp") & tables_1_3.model.isin(["Kernel SVM", "MLP"])]
wide = dp.pivot_table(index=["dataset", "k", "model"], columns="method", values="mean", sort=True)
if "Fair Kernel PCA" in wide:
    ksvm = wide.xs("Kernel SVM", level="model")
    smallest = ksvm["Fair Kernel PCA"] <= ksvm.drop(columns="Fair Kernel PCA").min(axis=1) + 1e-12
    print(smallest.rename("Fair Kernel PCA has the smallest kernel-SVM ΔDP").to_string())

# %% [markdown]
# The same check on the paper's printed means (the printed values, rounded to two decimals, so ties count as
# "not larger"):

# %%
printed_1_3 = pd.concat([printed[t] for t in ["table1", "table2", "table3"]])
print("printed: Fair PCA-S has a larger ΔDP than Fair PCA at:",
      kleindessner.claim_failures(kleindessner.fair_pca_s_dp_checks(printed_1_3)))

# %% [markdown]
# ## The ledger is current: units recomputed live
#
# A ledger is only worth reading if the code still produces it. The units in `live_units` are recomputed here, on
# the machine that runs this notebook, at the book's defaults (the paper's parameters), and each is compared with
# its ledger rows: equal means every value rounds to the stored one at 8 significant digits. The notebook tests
# compare this cell's output, so `make test` proves the ledger current wherever it runs. The MLP's scores are left
# out here: its thousands of Adam steps follow the rounding of the machine's BLAS kernel
# (`kleindessner.KERNEL_DEPENDENT_MODELS` gives the measurement), while the embeddings it is trained on, and every
# other score, do not. `make verify-results` recomputes a larger sample, the MLP included where the kernel is the
# ledger's: the quickest unit of every data set and method. Under another kernel than the ledger's it reports the
# units of INLP, MbF-PCA (10⁻⁶) and FPCA that differ as not judged, with the size of the difference: their
# solvers follow the kernel's rounding (for FPCA, the interior-point method's factorisations in the last digits, and
# ties among the SDP solution's eigenvalues; `kleindessner.KERNEL_DEPENDENT` gives the measurements).

# %%
verdict = experiments.recompute_against_ledger(  # the MLP left out: see above
    "kleindessner", live_units, ledger, leave_out_models=kleindessner.KERNEL_DEPENDENT_MODELS)
print(verdict[["unit", "values", "in_ledger", "equal"]].to_string(index=False))
print(f"\n{int(verdict.equal.sum())} of {len(verdict)} recomputed units equal the ledger"
      + (f"; {int((~verdict.in_ledger).sum())} not in it yet" if not verdict.in_ledger.all() else ""))

# %% [markdown]
# (sec-kleindessner-inflation)=
# ## How much does train-on-test inflate the accuracies?
#
# The same fits, scored once more with the classifiers trained on the *training* embedding (`protocols=
# ("train_on_test", "train_test")`). German Credit is the clearest case (300 test rows, 57 features): at $k=10$
# the in-sample kernel SVM is almost perfect, the held-out one is not better than predicting the majority. (The MLP shows the same inflation; it is left out
# of this checked table for the reason given above.)

# %%
both = kleindessner.table("german", [10], ["PCA", "Fair PCA", "Fair PCA-S (0.5)"], splits=splits.get("german") or
                          kleindessner.load_splits("german", lee_splits=lee_splits, n_splits=n_splits, random_state=seed),
                          protocols=("train_on_test", "train_test"), random_state=seed)
acc = both[(both.metric == "accuracy_pct") & (both.model != "MLP")].pivot_table(index=["method", "model"], columns="protocol", values="mean",
                                                      sort=False)
acc["inflation (points)"] = acc["train_on_test"] - acc["train_test"]
acc.round(1)

# %% [markdown]
# ## Table 4: the fair PCA of Samadi et al.
#
# Samadi et al. equalise the two groups' *reconstruction losses*, a different notion of fairness from the equal
# projected distributions above, so large $\Delta_\text{DP}$ are expected. `fairlab.baselines.SamadiFairPCA`
# solves their problem exactly and returns a rank-$k$ projection; the paper ran Samadi et al.'s MATLAB
# multiplicative-weights code (η = 20, T = 5 iterations) and fed the downstream models the $d$-dimensional $XP$ of
# its fractional solution. The representations differ, so this table compares the idea, not the digits. Its cells
# come from the ledger.

# %%
if compared4 is None:
    print("the ledger holds no unit of Table 4 yet (make reproduce computes them)")
else:
    for dataset in compared4.dataset.unique():
        view4 = compared4[compared4.dataset == dataset]
        display(kleindessner.side_by_side(view4, title=f"Table 4 ({dataset})"))

# %% [markdown]
# ## Figures 2 and 3: Lee et al.'s synthetic data
#
# Two Gaussian groups in a 1000-dimensional latent space, seen through two *different* random projections to
# $d$ dimensions (`make_lee_gaussians`; 240 points per group, 168 of them for training, the same indices in both
# groups, no centring). $k = 5$. Each unit of the synthetic data sets (`synthetic20`, `synthetic60`,
# `synthetic100`) gives %Var, MMD² and the error of a logistic model predicting the group (Fig. 2's third panel;
# higher is fairer) on one of ten splits, and the fit time of its method (Fig. 3). They come from the ledger,
# like the tables; the fit times are those of the machine the ledger names. fairlab does not read Lee's synthetic
# CSV files (drawn by MATLAB's generator): same distribution, other numbers.

# %%
synth = (ledger[ledger.table.isin(["fig2", "fig3", "fig7"])]
         .assign(d=lambda f: f.dataset.str.removeprefix("synthetic").astype(int))
         .sort_values(["d", "k", "method", "split"], kind="stable"))
fig2 = synth[synth.table == "fig2"].pivot_table(index=["split", "d", "method"], columns="metric",
                                                values="value", sort=False).reset_index()
runs = fig2.groupby(["d", "method"], sort=False).size().unstack("d")
print("splits per method and d in the ledger:", runs.to_string(), sep="\n")
summary2 = fig2.groupby(["d", "method"], sort=False)[["var_pct", "mmd2", "linear_inseparability"]].mean()
print(summary2.round(2).to_string())

# %% mystnb={"figure": {"caption": "Our Fig. 2 of Kleindessner et al., from the ledger: %Var, MMD\u00b2 and linear inseparability of the test embeddings of Lee et al.'s synthetic Gaussians ($k = 5$), one box per method and dimension $d$ over the splits counted above.", "name": "fig-kleindessner-synthetic-quality"}, "image": {"alt": "Three box-plot panels stacked, one per metric (%Var, MMD\u00b2 on a log scale, linear inseparability), with the methods on the horizontal axis and one box per dimension d; the table above the figure gives the means."}}
fig, axes = plt.subplots(3, 1, figsize=(COLUMN_WIDTH, 10), sharex=True)
for ax, metric, title in zip(axes, ["var_pct", "mmd2", "linear_inseparability"],
                             ["%Var (higher: better approximation)", "MMD² (lower: fairer)",
                              "linear inseparability (higher: fairer)"]):
    plot_boxplots(fig2, metric, by="method", hue="d", ax=ax)
    ax.set_title(title)
axes[1].set_yscale("symlog", linthresh=0.01)
plt.show()

# %% [markdown]
# The paper's reading of Fig. 2: PCA explains about 50 % of the variance but is unfair (MMD² above 0.5,
# linear inseparability ≈ 0); Fair PCA keeps more than 30 % with MMD² below 0.07; the other fair methods reach lower
# MMD² at a lower %Var, and Fair PCA-S behaves like FPCA. Checked on the ledger's means, at every $d$. Our data come
# from `fairlab`'s generator, not Lee's MATLAB draws, so thresholds this close can fail on a fair reading.

# %%
m = summary2.reset_index()
pca, fair = m[m.method == "PCA"], m[m.method == "Fair PCA"]
print("PCA: %Var in", [round(float(pca.var_pct.min())), round(float(pca.var_pct.max()))],
      "| MMD² > 0.5:", bool((pca.mmd2 > 0.5).all()),
      "| linear inseparability < 0.05:", bool((pca.linear_inseparability < 0.05).all()))
print("Fair PCA: %Var > 30:", bool((fair.var_pct > 30).all()), "| MMD² < 0.07:", bool((fair.mmd2 < 0.07).all()))
others = m[~m.method.isin(["PCA", "Fair PCA", "Fair Kernel PCA"])]
lower = others.merge(fair[["d", "mmd2", "var_pct"]], on="d", suffixes=("", "_fair"))
print("other fair methods: lower MMD² than Fair PCA in", int((lower.mmd2 < lower.mmd2_fair).sum()), "of",
      len(lower), "(method, d) pairs, at lower %Var in", int((lower.var_pct < lower.var_pct_fair).sum()))

# %% [markdown]
# **Figure 3: running time against $d$** (fit only, averaged over the splits). The paper's times are from a 2019
# laptop, with MbF-PCA in MATLAB, the ledger's from the machine it names. What should transfer is the *ratio* to
# Fair PCA. The paper's statements, as reference points: Fair PCA, Fair PCA-S and Fair Kernel PCA under 0.5 s
# even at $d = 800$; at $d = 100$ FPCA more than 2000 s, RLACE about 20 s, MbF-PCA 1.3 s, INLP 0.8 s; at
# $d = 800$ RLACE 260 s, MbF-PCA 43 s, INLP 1270 s. `make bench` measures Fair PCA against scikit-learn's default
# `PCA` on the same shapes; {doc}`04_fair_pca_derivation` shows its table.

# %%
times = (synth[synth.table == "fig3"].groupby(["d", "method"], sort=False, as_index=False)["value"].mean()
         .rename(columns={"value": "seconds"}).assign(k=5))
reported = kleindessner.reported_runtimes()
print(runtime_ratios(times, by=("d",)).pivot_table(index="method", columns="d", values="ratio", sort=False)
      .round(1).to_string())
print("\npaper (text of §5.1, seconds):")
print(reported[reported.figure == "Fig. 3"].to_string(index=False))

# %% mystnb={"figure": {"caption": "Our Fig. 3 of Kleindessner et al., from the ledger: mean fit time of each method against the dimension $d$ ($k = 5$, log scale) on the machine the ledger names; the cell above prints each method's time as a ratio to Fair PCA's, the quantity that transfers between machines.", "name": "fig-kleindessner-runtime-d"}, "image": {"alt": "Line plot of fit time in seconds on a log scale against the data dimension d, one line per method."}}
fig, ax = plt.subplots(figsize=(COLUMN_WIDTH, 4.2))
plot_runtime(times, x="d", y="seconds", hue="method", logx=False, ax=ax)
ax.set_xlabel("data dimension d")
ax.set_ylabel("fit time (s)")
ax.set_title("Fig. 3: running time vs d (k = 5)")
plt.show()

# %% [markdown]
# ## Figure 7: running time against $k$ ($d = 100$)
#
# The paper: the time of the closed-form methods grows only moderately with $k$, MbF-PCA's drastically (about
# 290 s at $k = 50$), and INLP's *decreases* — it runs $d - k$ rounds. Ours need not follow ROPTLIB's here: where
# the dense inverse-Hessian approximation of the Riemannian BFGS would be costly to carry from one iterate to the
# next (large $dk$, or large $k$), `MbFPCA` keeps a limited memory instead, to the same solution (its Notes).

# %% mystnb={"figure": {"caption": "Our Fig. 7 of Kleindessner et al., from the ledger: mean fit time of each method against the target dimension $k$ at $d = 100$ (log scale) on the machine the ledger names; the cell prints the ratios to Fair PCA.", "name": "fig-kleindessner-runtime-k"}, "image": {"alt": "Line plot of fit time in seconds on a log scale against the target dimension k, one line per method."}}
fig7 = (synth[synth.table == "fig7"].groupby(["k", "method"], sort=False, as_index=False)["value"].mean()
        .rename(columns={"value": "seconds"}))
print(runtime_ratios(fig7.assign(d=100), by=("k",)).pivot_table(index="method", columns="k", values="ratio",
                                                                  sort=False).round(1).to_string())
fig, ax = plt.subplots(figsize=(COLUMN_WIDTH, 4.2))
plot_runtime(fig7, x="k", y="seconds", hue="method", logx=False, ax=ax)
ax.set_xlabel("target dimension k")
ax.set_ylabel("fit time (s)")
ax.set_title("Fig. 7: running time vs k (d = 100)")
plt.show()

# %% [markdown]
# ## Exercises
#
# ```{exercise}
# :label: ex-repro-ddof
#
# The paper's standard deviations are population standard deviations over ten splits. By which factor would they
# grow with the sample standard deviation, and which printed std of Table 1 ($k = 2$, PCA) would change in its
# second decimal?
# ```
#
# ```{solution} ex-repro-ddof
# :class: dropdown
#
# $\sqrt{10/9}\approx 1.054$. For PCA at $k=2$ on Adult: %Var $0.77 \to 0.82$, MMD² $0.026\to 0.027$, kernel SVM
# accuracy $1.09\to 1.15$; a std of $0.05$ stays $0.05$. Pass `ddof=1` to `kleindessner.table` to see all of them.
# ```

# %% tags=["solution", "hide-input"]
import numpy as np

from fairlab import exercises

exercises.check("ex-repro-ddof", np.sqrt(10 / 9))

# %% [markdown]
# ```{exercise}
# :label: ex-repro-mlp
#
# Where Fair PCA's %Var and MMD² equal the paper's, its MLP accuracies need not (the counts above). Show that %Var, MMD² and
# both SVMs are invariant under $E \mapsto EQ$ for an orthogonal $k\times k$ matrix $Q$ (here: a permutation with
# signs), and explain why the MLP is not.
# ```
#
# ```{solution} ex-repro-mlp
# :class: dropdown
#
# %Var depends on $UU^\top$ only; MMD² and the RBF kernel on distances $\lVert (x-x')UQ\rVert = \lVert (x-x')U\rVert$;
# the linear SVM's problem in $w$ maps to the same problem in $Q^\top w$. The MLP starts from random first-layer
# weights $W_0$ that do not depend on the data: with $EQ$ its first pre-activations are $EQW_0$, which is the model
# for $E$ started at $QW_0$ — another random start, hence after training another local optimum and other
# predictions. PCA's columns come in the same (descending) order as MATLAB's and, on Adult, with the same signs:
# there its MLP cells match the paper. Fair PCA handed on in the reference code's basis (ascending, LAPACK's signs)
# is the other case: the run as in the reference code above. Where a sign differs, or the training drifts (another
# BLAS kernel), they do not.
# ```
#
# ```{exercise}
# :label: ex-repro-protocol
#
# Rerun {numref}`Section %s <sec-kleindessner-inflation>` with `ks = [2]` and all three data sets. On which data set
# does train-on-test inflate the kernel SVM's accuracy least (averaged over the three methods), and why does the
# linear SVM's inflation stay small everywhere?
# ```
#
# ```{solution} ex-repro-protocol
# :class: dropdown
#
# The inflation is the gap between fitting and generalising; it grows with the flexibility of the model relative to
# the number of rows it fits. The kernel SVM with $\gamma = 1$ on standardised features is very flexible: its gap,
# averaged over the three methods, is largest where the test part is smallest (German Credit, 300 rows) and
# smallest on Adult, whose 679 test rows are the most. A linear SVM on $k$ features has only $k+1$ parameters, so it
# cannot memorise a few hundred rows: its in-sample and held-out accuracies differ by a few points at most, in either
# direction — the two accuracies are measured on different rows, and that sampling noise is all that separates them.
# ```

# %% tags=["solution", "hide-input"]
from fairlab import exercises

exercises.check("ex-repro-protocol", "adult")
