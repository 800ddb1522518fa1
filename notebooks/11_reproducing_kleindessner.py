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
# puts every number beside the printed one. The paper's tables and figures are named in words ("the paper's
# Table 1", "the paper's Figure 3"); this chapter's own figures carry the book's numbers (Fig. 11.1). The
# chapter opens with its verdict, then takes the paper's tables and figures one section each, and closes with a
# summary.
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
# **Time.** About 45 minutes to read and work through. The paper-scale numbers are read from the results ledger
# ({ref}`appendix-ledger-kleindessner` gives its provenance); the cells that compute run in {{ run_time_11 }}.
#
# {{ run_it }}
# :::
#
# **What the paper did.** Lee et al.'s three real data sets and ten splits, $k = 2$ and $10$, eleven methods
# (Tables 1–3), Samadi et al.'s fair PCA (Table 4), and synthetic Gaussians for quality and time (Figures 2, 3
# and 7); the dropdown below gives the details.
#
# **The protocol.** On each split the method is fitted on the training part; %Var, MMD² and the accuracy and
# $\Delta_\text{DP}$ of three classifiers are measured on the test part — the classifiers trained and scored on
# the same test rows, as Lee et al. did.
#
# :::{admonition} What the paper did, its protocol in detail, the accuracy columns, and the two data modes
# :class: dropdown
# **What the paper did.** Three real data sets in the preprocessing of Lee et al. (Adult Income: 97 features, sex;
# German Credit: 57 features, age ≥ 25; COMPAS: 11 features, race — the sensitive attribute stays *among the
# features*), Lee et al.'s ten published 70/30 splits, target dimensions $k = 2$ and $k = 10$, and eleven methods:
# PCA, FPCA {cite}`olfat2019convex` and MbF-PCA {cite}`lee2022fast` in two settings each, INLP
# {cite}`ravfogel2020null`, RLACE {cite}`ravfogel2022linear`, and the authors' Fair PCA, Fair Kernel PCA and
# Fair PCA-S (0.5)/(0.85). Table 4 adds the fair PCA of {cite}`samadi2018price`. Figures 2–3 and 7 use Lee et
# al.'s synthetic Gaussians ($d = 20, 60, 100$, $k = 5$) for the quality of the representation and the running
# times.
#
# On each split the method is fitted on the training part; everything else is measured on the
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
# model can memorise (German Credit, $k = 10$: {numref}`Section %s <sec-kleindessner-inflation>` measures how
# much). {doc}`03_measuring_fairness` shows the inflation on a held-out split. Means and standard deviations are
# over the splits, the std with `ddof=0` (`np.std`, as the authors' `write_results.py`; {ref}`ex-repro-ddof`
# asks what `ddof=1` would change).
#
# **Two data modes.** `lee_splits = True`, the default, reads Lee et al.'s split files, which ship with `fairlab`
# (MIT licence; `fairlab.datasets.load_lee2022_split`): the only exact copy of the paper's data, since AIF360
# shuffled it without a seed. That is the *reproduction*. `lee_splits = False` rebuilds the same features from the
# raw files shipped with the package, draws a subsample of Lee's size and seeded 70/30 splits
# (`repeated_splits`), standardised as Lee's files. That is a *replication*: the numbers move by a few standard
# deviations' worth of sampling noise, the conclusions should not.
# :::

# %% tags=["parameters", "hide-input"]
seed = 0                     # random seed for subsamples, splits, RLACE and MbF-PCA
lee_splits = True            # True: Lee et al.'s exact splits, shipped; False: our splits of the shipped raw data
n_splits = 1                 # train/test splits per data set for the live cells; the ledger has the paper's 10
datasets = ["adult", "german", "compas"]   # data sets of Tables 1-3
live_units = [["german", "PCA", 2, 0], ["german", "Fair PCA", 2, 0], ["german", "Fair PCA-S (0.5)", 10, 0],
              ["compas", "Fair PCA", 10, 0], ["compas", "Fair Kernel PCA", 2, 0],
              ["adult", "Fair PCA-S (0.85)", 2, 0],
              ["synthetic60", "Fair PCA", 5, 0]]  # units recomputed against the ledger: dataset, method, k, split

# %% tags=["hide-input"]
import matplotlib.pyplot as plt
import pandas as pd

from IPython.display import display

from fairlab import check_parameters, experiments, published
from fairlab.evaluation import runtime_ratios
from fairlab.experiments import kleindessner
from fairlab.plotting import COLUMN_WIDTH, book_style, plot_boxplots, plot_runtime

check_parameters(globals(), seed=int, lee_splits=bool, n_splits=int,
                 datasets=(list, ["adult", "german", "compas"]), live_units=list)
book_style()

# %% [markdown]
# ## The verdict
#
# One row per printed table or figure of §5.1 — its cells at paper scale beside the printed ones, or how many of
# the paper's claims about it hold — and a last row that recomputes units of the ledger here. The sentence under
# the table is generated from the same numbers; each row has its section below.

# %% tags=["hide-input"]
ledger = experiments.read_ledger("kleindessner")
summary = experiments.summarize_ledger(ledger)
tables_1_3 = summary[summary.table.isin(["table1", "table2", "table3"])]
compared = kleindessner.compare(tables_1_3)
compared4 = kleindessner.compare(summary[summary.table == "table4"], "table4")
own = lambda frame: frame[frame.method.map(kleindessner.base_method) == frame.method]  # no variant rows
synth = (ledger[ledger.table.isin(["fig2", "fig3", "fig7"])]
         .assign(d=lambda f: f.dataset.str.removeprefix("synthetic").astype(int))
         .sort_values(["d", "k", "method", "split"], kind="stable"))
fig2 = synth[synth.table == "fig2"].pivot_table(index=["split", "d", "method"], columns="metric",
                                                values="value", sort=False).reset_index()
means2 = fig2.groupby(["d", "method"], sort=False)[["var_pct", "mmd2", "linear_inseparability"]].mean()
times = (synth[synth.table == "fig3"].groupby(["d", "method"], sort=False, as_index=False)["value"].mean()
         .rename(columns={"value": "seconds"}))
times7 = (synth[synth.table == "fig7"].groupby(["k", "method"], sort=False, as_index=False)["value"].mean()
          .rename(columns={"value": "seconds"}))
dp_checks = kleindessner.fair_pca_s_dp_checks(tables_1_3)
kernel_checks = kleindessner.fair_kernel_pca_dp_checks(tables_1_3)
live = experiments.recompute_against_ledger(  # the MLP left out: see the section on the ledger
    "kleindessner", live_units, ledger, leave_out_models=kleindessner.KERNEL_DEPENDENT_MODELS)
names = {"table1": "Adult Income", "table2": "German Credit", "table3": "COMPAS"}
rows = [published.verdict_row(f"Table {t[-1]} ({name})", own(compared[compared.dataset == name]))
        for t, name in names.items()]
rows += [
    published.verdict_row("Table 4 (Samadi et al.'s fair PCA)", own(compared4)),
    published.verdict_row("Conclusions from Tables 1–3",
                          checks=[dp_checks.drop(index="COMPAS", level="dataset"), kernel_checks]),
    published.verdict_row("Figure 2 (quality on synthetic data)",
                          checks=kleindessner.figure2_checks(means2.reset_index())),
    published.verdict_row("Figure 3 (time against d)", checks=kleindessner.runtime_checks(times, "d")),
    published.verdict_row("Figure 7 (time against k)", checks=kleindessner.runtime_checks(times7, "k")),
    published.verdict_row("The ledger, recomputed here",
                          checks=dict(zip(live.unit, live.equal.fillna(False).astype(bool)))),
]
verdict = published.verdict(rows)
display(verdict.table, verdict.sentence)

# %% [markdown]
# ## The data and the splits
#
# `kleindessner.load_splits` gives the splits (`Bunch` objects); the sizes are Lee et al.'s in both modes (the
# paper's Table 1 gives $P(Y=1) = 0.2489$ for Adult).

# %% tags=["remove-input"]
splits = {name: kleindessner.load_splits(name, lee_splits=lee_splits, n_splits=n_splits, random_state=seed)
          for name in datasets}
published.reader_table(pd.DataFrame(
    [{"data set": kleindessner.DATASETS[name], "training rows": len(sp[0].X_train), "test rows": len(sp[0].X_test),
      "features": sp[0].X_train.shape[1],
      "P(y = 1) on the test rows": float(sum(s.y_test.mean() for s in sp) / len(sp)),
      "P(s = 1) on the test rows": float(sum(s.s_test.mean() for s in sp) / len(sp))}
     for name, sp in splits.items()]).set_index("data set"), decimals=2,
    title="Lee et al.'s splits" if lee_splits else "Our splits of the shipped data (replication)")

# %% [markdown]
# ## Where the numbers come from: the ledger
#
# Paper scale is data. Every cell of the paper's Tables 1–4 is the mean over Lee et al.'s ten splits of one number
# per split, and each (data set, method, $k$, split) is a **work unit** of `fairlab.experiments.kleindessner`: a
# pure function of its key that loads the split, fits the method, scores it and returns one row per metric. `make
# reproduce` computes the units that the **ledger** (`notebooks/results/kleindessner.csv.gz`) lacks, on a Dask
# cluster. This chapter only reads it; its provenance — commits, machines, BLAS kernels, the time of every unit —
# is in {ref}`appendix-ledger-kleindessner`.
# `experiments.summarize_ledger` turns the per-split rows into the printed cells, `kleindessner.compare` matches
# each with the paper's.
#
# The units in `live_units` are recomputed in the verdict's cell and compared with their rows (equal: every value
# rounds to the stored one at 8 significant digits); the notebook tests compare that, so `make test` proves the
# ledger current wherever it runs.
#
# :::{admonition} What is left out, and what `make verify-results` adds
# :class: dropdown
# The MLP's scores
# are left out here: its thousands of Adam steps follow the rounding of the machine's BLAS kernel
# (`kleindessner.KERNEL_DEPENDENT_MODELS` gives the measurement), while the embeddings it is trained on, and every
# other score, do not. `make verify-results` recomputes a larger sample, the MLP included where the kernel is the
# ledger's: the quickest unit of every data set and method. Under another kernel than the ledger's it reports the
# units of INLP, MbF-PCA (10⁻⁶) and FPCA that differ as not judged, with the size of the difference: their
# solvers follow the kernel's rounding (for FPCA, the interior-point method's factorisations in the last digits,
# and ties among the SDP solution's eigenvalues; `kleindessner.KERNEL_DEPENDENT` gives the measurements).
# :::

# %% tags=["remove-input"]
display(published.Prose(
    f"{int(live.equal.fillna(False).sum())} of the {len(live)} units recomputed here equal the ledger"
    + (f"; {int((~live.in_ledger).sum())} are not in it yet" if not live.in_ledger.all() else "") + "."),
        published.Details(published.reader_table(live[["unit", "values", "in_ledger", "equal"]].set_index("unit"),
                                                 missing="the ledger holds no row of this unit yet"),
                          summary="The units recomputed, one by one"))

# %% [markdown]
# **How to read the tables.** Each table shows, per group of columns, the paper's mean and ours, with a mark:
# **=** mean and std equal at the authors' decimals, **≈** the mean does, **~** within the paper's std, **✗**
# beyond it. The representation's columns (%Var and MMD² at both $k$) are shown; the three classifiers' columns,
# and the complete table with the standard deviations and the differences, are one click away under it. The rows
# marked *Lee et al.'s loadings* in the complete table are **reference runs**: the paper did not refit PCA, FPCA
# and MbF-PCA but evaluated the loading matrices that Lee et al.'s own experiments saved
# (`fairlab.datasets.load_lee2022_loadings`, shipped). Scoring those matrices with this chapter's protocol
# (`fairlab.evaluation.FixedProjection`) separates the two questions a miss can hide: is our protocol the paper's
# (then the reference run equals the printed row), and does our fit of the method land where theirs did (then our
# row equals it too).

# %% [markdown]
# ## The paper's Table 1: Adult Income


# %%
glance, detail = kleindessner.printed_table_views(compared, "Adult Income", "The paper's Table 1 (Adult Income)")
misses = kleindessner.misses_in_words(own(compared[compared.dataset == "Adult Income"]))
display(glance, published.Prose(f"Beyond the paper's standard deviation in this table: {misses}."), detail)

# %% [markdown]
# ## The paper's Table 2: German Credit

# %% tags=["remove-input"]
glance, detail = kleindessner.printed_table_views(compared, "German Credit", "The paper's Table 2 (German Credit)")
misses = kleindessner.misses_in_words(own(compared[compared.dataset == "German Credit"]))
display(glance, published.Prose(f"Beyond the paper's standard deviation in this table: {misses}."), detail)

# %% [markdown]
# ## The paper's Table 3: COMPAS

# %% tags=["remove-input"]
glance, detail = kleindessner.printed_table_views(compared, "COMPAS", "The paper's Table 3 (COMPAS)")
misses = kleindessner.misses_in_words(own(compared[compared.dataset == "COMPAS"]))
display(glance, published.Prose(f"Beyond the paper's standard deviation in this table: {misses}."), detail)

# %% [markdown]
# ## Runs as in the reference code: the misses the protocol explains
#
# The reference runs (Lee et al.'s saved loadings) tell whether a miss of our FPCA or MbF-PCA is the protocol's or
# the fit's: where they equal the printed row, the protocol is the paper's and only the fit differs.
#
# Three differences between `fairlab`'s fits and the authors' runs change printed numbers without changing the
# method. Each is measured by running the method *as the reference code ran it*
# (`kleindessner.AsInReferenceCode`; the ledger's rows marked *as in the reference code*), with `fairlab`'s own
# default kept as the method — the MLP's columns, INLP's basis and FPCA's input:
#
# :::{admonition} The three differences, in detail
# :class: dropdown
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
# :::
#
# How many printed cells our own fit and the run as in the reference code reproduce, for these methods:

# %% tags=["remove-input"]
by_run = kleindessner.counts_by_run(compared.assign(cells=compared.model.replace("", "%Var, MMD²")),
                                    by=["method", "cells"])
totals = by_run.sum()
display(published.Prose(
    f"Over these methods' {int(totals['fairlab: printed cells'])} printed cells: fairlab's fit equals "
    f"{int(totals['fairlab: equal'])} and lies within the paper's std in {int(totals['fairlab: within std'])}; "
    f"run as in the reference code, {int(totals['as in the reference code: equal'])} and "
    f"{int(totals['as in the reference code: within std'])}."),
        published.Details(published.reader_table(
            by_run.drop(columns="as in the reference code: printed cells")
            .rename(columns={"fairlab: printed cells": "printed cells"}),
            title="Cells equal and within the paper's std: fairlab's fit and the run as in the reference code"),
            summary="The counts by method and group of cells"))

# %% [markdown]
# PCA needs no such run: Lee et al.'s saved PCA loadings are scikit-learn's components, some with the other sign
# on German Credit and COMPAS (the package's tests check it), which only the MLP sees:


# %% tags=["remove-input"]
pca_mlp = compared[(compared.model == "MLP") & compared.ours_mean.notna()
                   & compared.method.isin(["PCA", "PCA" + kleindessner.REFERENCE_SUFFIX])]
counts = kleindessner.match_counts(pca_mlp, by=["method", "metric"])
equal_mlp = counts.get("equal", pd.Series(0, index=counts.index)).groupby(level="method", sort=False).sum()
display(published.Prose(
    "PCA's MLP cells equal at the printed mean and std: "
    + "; ".join(f"{published.method_label(m)}: {int(n)} of {int((pca_mlp.method == m).sum())}"
                for m, n in equal_mlp.items()) + "."),
        published.Details(published.reader_table(
            counts.rename(index=kleindessner.METRIC_LABELS, level="metric").rename(columns=str.capitalize),
            title="PCA's MLP cells by status"),
            summary="PCA's MLP cells by status, from our PCA and from Lee et al.'s loadings"))

# %% [markdown]
# INLP's and FPCA's representation cells, with both runs beside the paper (and, for FPCA, Lee et al.'s own saved
# loadings), one table per data set, are under the click:

# %% tags=["remove-input"]
iterative = compared[compared.method.map(kleindessner.base_method).isin(["INLP", "FPCA (0.1, 0.01)", "FPCA (0, 0.01)"])
                     & (compared.model == "")]
published.Details(*[kleindessner.side_by_side(iterative[iterative.dataset == name],
                                              title=f"INLP and FPCA, {name}: %Var and MMD²")
                    for name in iterative.dataset.unique()],
                  summary="INLP and FPCA: fairlab's fit, the run as in the reference code and Lee et al.'s loadings")

# %% [markdown]
# ## The misses that remain, and their causes
#
# Every cell of our own rows that lies beyond the paper's standard deviation, counted:

# %% tags=["remove-input"]
beyond = own(compared[compared.ours_mean.notna() & (compared.status == "differs")])
beyond = beyond.assign(cells=beyond.model.replace("", "%Var, MMD²"))
beyond_counts = beyond.groupby(["method", "cells"], sort=False).size().rename("cells beyond the paper's std")
by_method = beyond.groupby("method", sort=False).size().sort_values(ascending=False, kind="stable")
display(published.Prose(
    f"In all {len(beyond)} of the {int(own(compared).ours_mean.notna().sum())} cells with our number lie beyond the "
    "paper's standard deviation: "
    + ", ".join(f"{published.method_label(m)} {n}" for m, n in by_method.items()) + "."),
        published.Details(published.reader_table(beyond_counts.to_frame(),
                                                 title="Cells beyond the paper's std, by method and group"),
                          published.reader_table(
            kleindessner.match_counts(own(compared[compared.ours_mean.notna() & (compared.model != "MLP")]),
                                      by=["method", "metric"]).rename(index=kleindessner.METRIC_LABELS, level="metric")
            .rename(columns=str.capitalize), title="Cells of each status, by method and measure (without the MLP)"),
                          summary="The cells beyond the paper's std, and every status, by method"))

# %% [markdown]
# Each has a cause, measured where the ledger can hold the measurement; the last of them is checked in the cell
# after the list.
#
# :::{admonition} The causes, method by method
# :class: dropdown
# * **SVM accuracies** that differ by a few hundredths of a point: scikit-learn's libsvm solves the same SVM as
#   MATLAB's `fitcsvm` with Lee et al.'s defaults, but with another solver and stopping rule, which puts one or two
#   of the test rows of a split on the other side of the margin.
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
# :::

# %% tags=["remove-input"]
from fairlab import metrics
from fairlab.datasets import load_lee2022_loadings, load_lee2022_split

german0 = load_lee2022_split("german", 0)
lee_V = load_lee2022_loadings("german", "10_mbfpca_6", 0).V
centred = german0.X_train - german0.X_train.mean(axis=0)
lee_mmd2 = metrics.mmd2(centred @ lee_V, german0.s_train, sigma=metrics.lee_bandwidth(german0.X_train, 10))
mbf = ledger[(ledger.dataset == "German Credit") & (ledger.k == 10) & (ledger.split == 0)
             & ledger.method.str.startswith("MbF-PCA (10^-6)") & (ledger.metric == "var_pct")].set_index("method").value
published.Prose(
    f"Lee et al.'s MbF-PCA (10⁻⁶) loadings on German Credit, k = 10, split 0: training MMD² {lee_mmd2:.1e} "
    f"{'≤' if lee_mmd2 <= 1e-6 else '>'} τ = 10⁻⁶, training %Var "
    f"{100 * metrics.explained_variance(centred, lee_V.T):.2f}, test %Var "
    f"{mbf['MbF-PCA (10^-6)' + kleindessner.REFERENCE_SUFFIX]:.2f}; our fit's test %Var "
    f"{mbf['MbF-PCA (10^-6)']:.2f}.")

# %% [markdown]
# ## The paper's conclusions from Tables 1–3
#
# Fair PCA-S achieves a smaller DP violation than Fair PCA for the non-linear classifiers except on COMPAS, and
# Fair Kernel PCA has the smallest $\Delta_\text{DP}$ of the kernel SVM. The sentence says where each fails, on
# our means and on the printed ones (ties count as "not larger"; the verdict counts the first off COMPAS).

# %% tags=["remove-input"]
printed_1_3 = pd.concat([published.table("kleindessner2023", t) for t in ["table1", "table2", "table3"]])
kernel_printed = kleindessner.fair_kernel_pca_dp_checks(printed_1_3)
where = lambda checks: "; ".join(f"{d}, k = {int(k)}" for d, k in checks.index[~checks]) or "nowhere"
display(published.Details(published.reader_table(dp_checks, title="Fair PCA-S's ΔDP at most Fair PCA's, on our means"),
                          summary="The check of the first statement, row by row"),
        published.Prose(
            "Fair PCA-S has a larger ΔDP than Fair PCA, on our means at: "
            f"{kleindessner.claim_failures(dp_checks)}; on the printed means at: "
            f"{kleindessner.claim_failures(kleindessner.fair_pca_s_dp_checks(printed_1_3))}. Fair Kernel PCA's "
            f"kernel-SVM ΔDP is not the smallest, on our means at: {where(kernel_checks)}; on the printed means at: "
            f"{where(kernel_printed)}."))

# %% [markdown]
# (sec-kleindessner-inflation)=
# ## How much does train-on-test inflate the accuracies?
#
# The same fits, scored once more with the classifiers trained on the *training* embedding (`protocols=
# ("train_on_test", "train_test")`). German Credit is the clearest case (300 test rows, 57 features). The MLP
# shows the same inflation; it is left out of this checked table for the reason given above.

# %% tags=["hide-input"]
both = kleindessner.table("german", [10], ["PCA", "Fair PCA", "Fair PCA-S (0.5)"], splits=splits.get("german") or
                          kleindessner.load_splits("german", lee_splits=lee_splits, n_splits=n_splits, random_state=seed),
                          protocols=("train_on_test", "train_test"), random_state=seed)
acc = both[(both.metric == "accuracy_pct") & (both.model != "MLP")].pivot_table(
    index=["method", "model"], columns="protocol", values="mean", sort=False)
acc["inflation (points)"] = acc["train_on_test"] - acc["train_test"]
ksvm = acc.xs("Kernel SVM", level="model")
display(published.reader_table(acc, decimals=1, title="German Credit, k = 10: accuracy in %"),
        published.Prose(
            f"The kernel SVM scores {published.format_range(ksvm.train_on_test, 1, ' %')} on the rows it was trained on "
            f"and {published.format_range(ksvm.train_test, 1, ' %')} on held-out rows."))

# %% [markdown]
# ## The paper's Table 4: the fair PCA of Samadi et al.
#
# Samadi et al. equalise the two groups' *reconstruction losses*, another notion of fairness, so large
# $\Delta_\text{DP}$ are expected. `fairlab.baselines.SamadiFairPCA` solves their problem exactly (a rank-$k$
# projection); the paper ran their multiplicative weights and fed the models a $d$-dimensional map of its
# fractional solution, which the ledger's rows *as in the reference code* redo (`kleindessner.AsInReferenceCode`).

# %% tags=["remove-input"]
table = kleindessner.side_by_side(own(compared4), title="The paper's Table 4 beside ours", rows=("dataset", "k"))
by_run4 = kleindessner.counts_by_run(compared4, by="model")
totals4 = by_run4.sum()
beyond = "; ".join(f"{r.dataset}, k = {int(r.k)}, {r.model} {'accuracy' if r.metric == 'accuracy_pct' else 'ΔDP'}"
                   for r in compared4[compared4.method.str.endswith(kleindessner.REFERENCE_CODE_SUFFIX)
                                      & ~compared4.within.fillna(False).astype(bool)].itertuples())
causes = kleindessner.null_direction_causes(compared4, kleindessner.read_null_direction_scores())


causes_table = published.reader_table(
    causes.set_index("model")[["paper_mean", "paper_std", "ledger", "shares_low", "shares_high", "seeds_low",
                               "seeds_high", "cause"]]
    .rename(columns={"paper_mean": "paper", "paper_std": "paper's std", "ledger": "ours (ledger)",
                     "shares_low": "over t: lowest", "shares_high": "over t: highest",
                     "seeds_low": "other MLP seeds: lowest", "seeds_high": "other MLP seeds: highest"}),
    missing="an SVM has no random start",
    title="COMPAS, k = 10: the two misses' mean accuracy (%) over the admissible choices among the null "
          "directions (share t of the attribute's direction kept) and over the MLP's other seeds")
display(table.compact(table.groups[:4]),
        published.Details(table.compact(table.groups[4:]), table,
                          summary="The MLP; the complete table with standard deviations and differences"),
        published.Details(
            published.reader_table(by_run4.drop(columns="as in the reference code: printed cells")
                                   .rename(columns={"fairlab: printed cells": "printed cells"}),
                                   title="Table 4: cells within the paper's std, fairlab's fit and the run as in the "
                                   "reference code"),
            causes_table,
            summary=f"Run as in the reference code, {int(totals4['as in the reference code: within std'])} of "
                    f"{int(totals4['fairlab: printed cells'])} printed cells lie within the paper's std "
                    f"(fairlab's exact projection: {int(totals4['fairlab: within std'])}); beyond it: {beyond}"),
        published.Prose(kleindessner.null_direction_causes_in_words(causes)))

# %% [markdown]
# ## The paper's Figure 2: Lee et al.'s synthetic data
#
# Two Gaussian groups in a 1000-dimensional latent space, seen through two *different* random projections to
# $d$ dimensions (`make_lee_gaussians`; 240 points per group, 168 for training), $k = 5$, ten splits from the
# ledger; the third measure is the error of a logistic model predicting the group (higher is fairer). Same
# distribution as Lee's MATLAB draws, other numbers. {numref}`fig-kleindessner-synthetic-quality` redraws it.

# %% mystnb={"figure": {"caption": "The paper's Figure 2, redrawn from the ledger: %Var, MMD\u00b2 and linear inseparability of the test embeddings of Lee et al.'s synthetic Gaussians ($k = 5$), one box per method and dimension $d$ over ten splits.", "name": "fig-kleindessner-synthetic-quality"}, "image": {"alt": "Three box-plot panels stacked, one per metric (%Var, MMD\u00b2 on a log scale, linear inseparability), with the methods on the horizontal axis and one box per dimension d; the collapsed table under the figure gives the means."}} tags=["hide-input"]
fig, axes = plt.subplots(3, 1, figsize=(COLUMN_WIDTH, 5.6), sharex=True)
for ax, metric, title in zip(axes, ["var_pct", "mmd2", "linear_inseparability"],
                             ["%Var (higher: better approximation)", "MMD² (lower: fairer)",
                              "linear inseparability (higher: fairer)"]):
    plot_boxplots(fig2, metric, by="method", hue="d", ax=ax)
    ax.set_title(title)
axes[1].set_yscale("symlog", linthresh=0.01)
plt.show()

# %% [markdown]
# The paper's reading of its Figure 2, checked on the ledger's means at every $d$ (each line generated from the
# numbers; our data come from `fairlab`'s generator, not Lee's MATLAB draws, so thresholds this close can fail on a
# fair reading):

# %% tags=["remove-input"]
display(published.checks_prose(kleindessner.figure2_checks(means2.reset_index())),
        published.Details(published.reader_table(
            means2.rename(columns={"var_pct": "%Var", "mmd2": "MMD²"}).reorder_levels(["d", "method"]),
            decimals={"%Var": 2, "MMD²": 3, "linear_inseparability": 2},
            missing={"%Var": "not defined for a kernel method's embedding",
                     "MMD²": "not defined for a kernel method's embedding"},
            title="Means over the ten splits"), summary="The means of the figure, by d and method"))

# %% [markdown]
# ## The paper's Figure 3: running time against $d$
#
# Fit times from a 2019 laptop (the paper) and from the ledger's machine: what transfers is the order of the
# methods and the *ratio* to Fair PCA, under the click ({ref}`appendix-benchmarks` compares Fair PCA with
# scikit-learn's `PCA`). {numref}`fig-kleindessner-runtime-d` redraws the figure.

# %% tags=["remove-input"]
reported = kleindessner.reported_runtimes()
ratios = runtime_ratios(times, by=("d",)).pivot_table(index="method", columns="d", values="ratio", sort=False)
ratios.columns = [f"d = {d}" for d in ratios.columns]
display(published.checks_prose(kleindessner.runtime_checks(times, "d")),
        published.Details(
            published.reader_table(ratios, decimals=1, title="Fit time as a multiple of Fair PCA's"),
            published.reader_table(reported[reported.figure == "Fig. 3"].drop(columns="figure").set_index("method")
                                   .rename(columns={"seconds": "seconds (paper)"}), decimals=1,
                                   title="The paper's statements (§5.1, seconds on its laptop)"),
            summary="Our time ratios and the paper's seconds"))

# %% mystnb={"figure": {"caption": "The paper's Figure 3, redrawn from the ledger: mean fit time of each method against the dimension $d$ ($k = 5$, log scale) on the machine the ledger names, with the times the paper states (hollow; an arrow where it says more or less than); the ratios to Fair PCA's time, the quantity that transfers between machines, are under the click above.", "name": "fig-kleindessner-runtime-d"}, "image": {"alt": "Line plot of fit time in seconds on a log scale against the data dimension d, one line per method."}} tags=["hide-input"]
fig, ax = plt.subplots(figsize=(COLUMN_WIDTH, 2.9))
plot_runtime(times, x="d", y="seconds", hue="method", logx=False, ax=ax,
             published=reported[reported.figure == "Fig. 3"])
ax.set_xlabel("data dimension d")
ax.set_ylabel("fit time (s)")
ax.set_title("Fit time against d (k = 5)")
plt.show()

# %% [markdown]
# ## The paper's Figure 7: running time against $k$ ($d = 100$)
#
# The paper: the closed-form methods' time grows moderately with $k$, MbF-PCA's drastically, INLP's *decreases*
# ($d - k$ rounds); `MbFPCA` keeps a limited-memory BFGS where ROPTLIB's dense one is costly (its Notes).
# {numref}`fig-kleindessner-runtime-k` redraws the figure.

# %% tags=["remove-input"]
ratios7 = runtime_ratios(times7.assign(d=100), by=("k",)).pivot_table(index="method", columns="k", values="ratio",
                                                                      sort=False)
ratios7.columns = [f"k = {k}" for k in ratios7.columns]
display(published.checks_prose(kleindessner.runtime_checks(times7, "k")),
        published.Details(published.reader_table(ratios7, decimals=1, missing="the paper times FPCA at k = 5 only",
                                                 title="Fit time as a multiple of Fair PCA's"),
                          summary="Our time ratios"))

# %% mystnb={"figure": {"caption": "The paper's Figure 7, redrawn from the ledger: mean fit time of each method against the target dimension $k$ at $d = 100$ (log scale) on the machine the ledger names, with the time the paper states (hollow); the ratios to Fair PCA's time are under the click above.", "name": "fig-kleindessner-runtime-k"}, "image": {"alt": "Line plot of fit time in seconds on a log scale against the target dimension k, one line per method."}} tags=["hide-input"]
fig, ax = plt.subplots(figsize=(COLUMN_WIDTH, 2.9))
plot_runtime(times7, x="k", y="seconds", hue="method", logx=False, ax=ax,
             published=reported[reported.figure == "Fig. 7"])
ax.set_xlabel("target dimension k")
ax.set_ylabel("fit time (s)")
ax.set_title("Fit time against k (d = 100)")
plt.show()

# %% [markdown]
# ## Summary
#
# PCA, Fair PCA and Fair PCA-S leave no freedom once the data and $k$ are fixed, so their %Var and MMD² should
# equal the printed ones to the digit (the first sentence below gives the counts). The other misses have the
# causes measured above: an MLP's column order and signs, INLP's basis, FPCA's input and ties, RLACE's random path,
# MbF-PCA's start. The second sentence is the verdict's; provenance: {ref}`appendix-ledger-kleindessner`.

# %% tags=["remove-input"]
closed_form = ["PCA", "Fair PCA", "Fair PCA-S (0.5)", "Fair PCA-S (0.85)"]
rep = compared[compared.method.isin(closed_form) & (compared.model == "") & compared.ours_mean.notna()]
svm = compared[compared.method.isin(closed_form) & compared.model.isin(["Kernel SVM", "Linear SVM"])
               & compared.ours_mean.notna()]
mlp = own(compared[(compared.model == "MLP") & compared.ours_mean.notna()])
runs = compared[compared.method.str.endswith(kleindessner.REFERENCE_SUFFIX) & compared.ours_mean.notna()]
off = svm[svm.status != "equal"]
reading = published.Prose(
    f"PCA, Fair PCA and Fair PCA-S: {(rep.status == 'equal').sum()} of {len(rep)} %Var and MMD² cells equal the "
    f"printed mean and std. Of their {len(svm)} SVM cells, {(svm.status == 'equal').sum()} are equal and "
    f"{svm.within.fillna(False).sum()} within the paper's std"
    + (f"; the others differ by {published.format_range(off.difference.abs(), 2)} points" if len(off) else "")
    + f". Of all methods' {len(mlp)} MLP cells, {(mlp.status == 'equal').sum()} are equal and "
    f"{mlp.within.fillna(False).sum()} within the paper's std. The reference runs (Lee et al.'s saved loadings, "
    f"all four classifiers): {(runs.status == 'equal').sum()} of {len(runs)} cells equal the printed mean and std, "
    f"{runs.within.fillna(False).sum()} lie within the paper's std.")
display(reading, verdict.sentence)

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

# %% tags=["solution", "hide-input", "remove-output"]
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

# %% tags=["solution", "hide-input", "remove-output"]
from fairlab import exercises

exercises.check("ex-repro-protocol", "adult")
