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
# (Table 1, Fig. 2) are the paper's; this chapter's own figures are numbered 11.1, 11.2, ….
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. state the protocol of Tables 1–4 precisely (data, splits, metrics, downstream models) and say which parts of it
#    are unusual;
# 2. run the whole comparison with three calls (`kleindessner.load_splits`, `kleindessner.table`,
#    `kleindessner.compare` from `fairlab.experiments`) and read the side-by-side view;
# 3. tell a reproduction (same number from the same data and protocol) from a replication (same conclusion on data
#    drawn again), and explain which cells can and which cannot be expected to agree to the printed decimals.
#
# **Prerequisites.** {doc}`04_fair_pca_derivation` and {doc}`05_fair_pca_variants` (Fair PCA and
# Fair PCA-S, the methods under test), {doc}`06_fair_kernel_pca` (Fair Kernel PCA) and
# {doc}`03_measuring_fairness` (MMD², $\Delta_\text{DP}$, and why a classifier scored on its own
# training rows is inflated). The maths needed: means, standard deviations, and what a kernel SVM
# and a linear SVM are.
#
# **Time.** About 45 minutes to read and work through; the notebook runs in about 2 minutes at its
# defaults. At paper scale (`make reproduce`) Tables 1–3 alone take about 10 hours on two cores: about 7 h
# for Adult, 3 h for German and 50 min for COMPAS, nearly all of it FPCA's SDP and MbF-PCA ($10^{-6}$).
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
# **Two data modes.** `lee_splits = True` reads Lee et al.'s split files (`$FAIRLAB_DATA/fair-manifold-pca`), the
# only exact copy of the paper's data: AIF360 shuffled without a seed. That is the *reproduction*; the test
# `tests/test_reproduce_kleindessner.py` runs it. The default, `lee_splits = False`, needs nothing outside
# `fairlab`: it rebuilds the same features from the raw files shipped with the package, draws a subsample of
# Lee's size and seeded 70/30 splits (`repeated_splits`), standardised as Lee's files. That is a *replication*:
# the numbers move by a few standard deviations' worth of sampling noise, the conclusions should not. The committed
# outputs are in the default mode, at a reduced scale that fits the book's time budget; the parameters restore the
# paper's scale, and `make reproduce` runs it.

# %% tags=["parameters"]
seed = 0                     # random seed (subsamples, splits, RLACE, MbF-PCA)
lee_splits = False           # True: Lee et al.'s exact splits (needs FAIRLAB_DATA); False: our splits of the shipped data
n_splits = 1                 # train/test splits per data set (paper: 10)
datasets = ["adult", "german", "compas"]   # data sets of Tables 1-3
ks = [2, 10]                 # target dimensions (paper: 2 and 10)
methods = ["PCA", "FPCA (0.1, 0.01)", "FPCA (0, 0.01)", "MbF-PCA (10^-3)", "MbF-PCA (10^-6)", "INLP",
           "RLACE", "Fair PCA", "Fair Kernel PCA", "Fair PCA-S (0.5)", "Fair PCA-S (0.85)"]  # rows of Tables 1-3
slow_methods = ["FPCA (0.1, 0.01)", "FPCA (0, 0.01)", "MbF-PCA (10^-3)", "MbF-PCA (10^-6)", "RLACE"]  # the slow rows
slow_datasets = ["compas"]   # data sets on which FPCA and RLACE run (paper: all three)
mbfpca_datasets = []         # data sets on which MbF-PCA runs (paper: all three; 13-270 s per fit on COMPAS)
rlace_max_iter = 1000        # RLACE outer iterations (paper: 10000)
samadi_datasets = ["compas"]  # data sets of Table 4 (paper: all three)
synthetic_dims = [20, 60, 100]  # data dimensions d of Figs 2-3 (paper: 20, 60, 100)
synthetic_splits = 2         # splits of the synthetic data (paper: 10)
synthetic_slow_dims = [20]   # d at which the slow methods run in Figs 2-3 (paper: all)
fig7_ks = [2, 5, 10, 20]     # target dimensions of Fig 7, d = 100 (paper: up to 50)
fig7_methods = ["PCA", "INLP", "Fair PCA", "Fair Kernel PCA", "Fair PCA-S (0.85)"]  # methods of Fig 7 (paper: also MbF-PCA, RLACE)
results_csv = ""             # path of a CSV for the tidy results ("" = none; make reproduce sets it)
progress = False             # tqdm progress bars (turn on when running interactively)

# %%
import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns

from fairlab.evaluation import runtime_ratios
from fairlab.experiments import kleindessner, write_results_csv
from fairlab.plotting import plot_boxplots, plot_runtime

sns.set_theme(style="whitegrid", palette="colorblind")
pd.set_option("display.width", 250)
pd.set_option("display.max_columns", 20)
mode = "Lee et al.'s exact splits" if lee_splits else "our splits of the shipped data (replication)"
print(f"data: {mode}; {n_splits} split(s) per data set; k in {ks}")

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
# ## Tables 1–3: every method, side by side with the paper
#
# One call per data set: `kleindessner.table(dataset, ks, methods, splits)` fits every method on every split and
# returns the tidy long table (`dataset, method, k, protocol, model, metric, mean, std, n_splits`, with the
# identifiers of `fairlab.published.table("kleindessner2023", "table1")`). The methods and their settings are
# `kleindessner.estimators` (see its docstring): Fair PCA uncentred as in the paper's code (`standardize=False`),
# Fair PCA-S with $l = \max(k, \lfloor f d\rfloor)$, Fair Kernel PCA with an RBF kernel, $\gamma = 1/(d\,\mathrm{Var}X)$
# and no centring, INLP with $d-k$ rounds of a linear SVM, RLACE of rank $d-k$, FPCA with $\mu = 0.01$ and
# $\delta \in \{0.1, 0\}$, MbF-PCA with $\tau \in \{10^{-3}, 10^{-6}\}$.
#
# At the defaults the slow methods are cut down: FPCA's semidefinite program and RLACE's adversarial game (with
# fewer iterations) run on COMPAS only, and MbF-PCA's manifold optimisation does not run at all (13 to 270 s per
# fit on COMPAS, τ = 10⁻⁶ being the slow one); the next cell says what ran where, and `slow_datasets`,
# `mbfpca_datasets`, `rlace_max_iter` and `n_splits` restore the paper's scale.

# %%
tables = {}
for name in datasets:
    chosen = [m for m in methods if m not in slow_methods
              or (name in mbfpca_datasets if m.startswith("MbF") else name in slow_datasets)]
    skipped = [m for m in methods if m not in chosen]
    tables[name] = kleindessner.table(name, ks, chosen, splits=splits[name], rlace_max_iter=rlace_max_iter,
                                      random_state=seed, progress=progress)
    print(f"{name}: {len(chosen)} methods" + (f"; not run (slow_datasets, mbfpca_datasets): {', '.join(skipped)}"
                                              if skipped else ""))
if "RLACE" in methods and rlace_max_iter < 10_000:
    print(f"RLACE ran {rlace_max_iter} outer iterations (paper: 10000)")
ours = pd.concat(tables.values(), ignore_index=True)
compared = kleindessner.compare(ours)

# %% [markdown]
# `kleindessner.compare` matches every printed cell (`fairlab.published.compare`) and adds the status of each:
# **=** our mean and std rounded to the authors' decimals equal the printed ones, **≈** the mean does but not the
# std, **~** the difference is within the paper's standard deviation, **✗** it is not. Each cell below reads
# `ours | paper mark`. The deterministic methods (PCA and the paper's own, solved by one eigendecomposition each)
# come first, with the two SVMs; their printed digits reproduce on any machine. The MLP columns follow in a cell of
# their own (see below why).

# %%
closed_form = ["PCA", "Fair PCA", "Fair Kernel PCA", "Fair PCA-S (0.5)", "Fair PCA-S (0.85)"]
for name in datasets:
    view = compared[(compared.dataset == ours.loc[ours.dataset.str.lower().str.startswith(name[:4]), "dataset"].iloc[0])
                    & compared.method.isin(closed_form)]
    print(f"Table {['adult', 'german', 'compas'].index(name) + 1} ({view.dataset.iloc[0]}), closed-form methods:")
    print(kleindessner.side_by_side(view[view.model != "MLP"]).to_string(), "\n")

# %% [markdown]
# The MLP is trained by hundreds to thousands of Adam steps from a random start. On another OpenBLAS kernel
# the products inside each step round differently, the trajectory drifts and a few predictions flip (measured:
# German Credit, $k = 2$, one method's accuracy 72.33 % on one kernel, 73.33 % on another). Its columns are
# therefore shown here, in a cell the notebook tests do not compare (tagged `nbval-ignore-output`), and left out of every
# checked cell below.

# %% tags=["nbval-ignore-output"]
for name in datasets:
    label = ours.loc[ours.dataset.str.lower().str.startswith(name[:4]), "dataset"].iloc[0]
    view = compared[(compared.dataset == label) & compared.method.isin(closed_form) & (compared.model == "MLP")]
    print(f"{label}, MLP, closed-form methods:")
    print(kleindessner.side_by_side(view).to_string(), "\n")

# %% [markdown]
# The iterative methods follow. INLP's rounds of linear SVMs, RLACE's stochastic game, FPCA's SDP (solved by
# SCS to a tolerance) and MbF-PCA's quasi-Newton steps end wherever their stopping rules fire, and on another
# OpenBLAS kernel the last digits of the floating-point sums they iterate on change, so the stopping point and
# the printed digits can move. That cell is therefore not compared by the notebook tests (tagged `nbval-ignore-output`);
# its counts are summarised in prose below instead.

# %% tags=["nbval-ignore-output"]
iterative = [m for m in methods if m not in closed_form]
for name in datasets:
    label = ours.loc[ours.dataset.str.lower().str.startswith(name[:4]), "dataset"].iloc[0]
    view = compared[(compared.dataset == label) & compared.method.isin(iterative) & compared.ours_mean.notna()]
    if len(view):
        print(f"{label}, iterative methods:")
        print(kleindessner.side_by_side(view).to_string(), "\n")

# %% [markdown]
# How many printed cells does each method reproduce? (Counts over the data sets and both $k$, without the MLP;
# cells of methods that did not run are not counted.)

# %%
counts = kleindessner.match_counts(compared[compared.ours_mean.notna() & compared.method.isin(closed_form)
                                            & (compared.model != "MLP")],
                                   by=["method", "metric"])
counts

# %% [markdown]
# **Reading the comparison.** On Lee et al.'s splits (`lee_splits = True`) the reproduction is exact where it can
# be: for PCA, Fair PCA and Fair PCA-S (0.5)/(0.85), **all 48 %Var and MMD² cells of Tables 1–3 equal the printed
# mean and std**, and so do 83 of the 96 kernel- and linear-SVM cells (all 48 $\Delta_\text{DP}$ cells and all of
# Adult). The other 13 are accuracies off by 0.01 to 0.07 points, within the paper's std: scikit-learn's libsvm
# solves the same SVM as MATLAB's `fitcsvm` with Lee et al.'s defaults, but with another solver and stopping rule,
# which puts one or two of the 300 (German) or 741 (COMPAS) test rows of a split on the other side of the margin.
# Only 7 of the 48 MLP cells are equal (37 more within the paper's std, 2 not). They agree for PCA on Adult
# ($81.21_{1.22}$ at $k=2$, $89.06$ at $k=10$), but not for the fair methods:
# the MLP's random initialisation meets the embedding's columns in the order and with the signs that the
# eigensolver returned, and the reference code's embedding has them in ascending eigenvalue order with LAPACK's
# signs, `fairlab`'s in descending order with a fixed sign convention. Same subspace, same %Var and MMD², another
# MLP. The test of this chapter asserts exactly this (and lists the SVM exceptions one by one).
#
# **The other methods on Lee et al.'s splits**, measured with this chapter's functions at the paper's settings
# (RLACE with 10 000 iterations): Fair Kernel PCA's 36 printed cells (kernel SVM, linear SVM and MLP) are all
# within the paper's std, 24 of them equal. INLP has 38 of 48 within the std; its accuracies and
# $\Delta_\text{DP}$ agree, but on Adult and German its %Var is higher than printed (Adult $k = 10$: 13.3 against
# $10.79_{0.84}$; German $k = 10$: 25.9 against $15.5_{0.92}$), while on COMPAS it equals the paper. The difference is
# systematic, not sampling noise, so the two INLPs remove different directions; we have not found which setting
# of the reference run causes it. The slow methods were run on the first split only (one fit of MbF-PCA
# ($10^{-6}$) takes 2 to 10 minutes, one of FPCA on Adult 4 to 5), so their cells can only be compared with the
# paper's spread over splits, not matched: of the 240 cells of FPCA, RLACE and MbF-PCA on German, COMPAS and
# Adult, 159 lie within the paper's std of its mean. The large misses are FPCA on Adult at $k = 2$,
# whose embedding leaves the classifiers at the majority rate (72.3 % against the printed 75 to 77 %: the SDP
# solver stops elsewhere than the paper's), and MbF-PCA ($10^{-6}$) on German at $k = 10$ (%Var 4.7 against
# $16.82_{1.11}$: the penalty iteration converges to another stationary point).
#
# In the default mode the data are re-drawn, so cells agree only within sampling noise: the pattern, not the
# digits, is what replicates.
#
# **What the paper concluded, checked.** "There is no single best method"; Fair PCA-S achieves a smaller DP
# violation than Fair PCA for the non-linear classifiers except on COMPAS (whose $d=11$ makes Fair PCA-S equal
# to Fair PCA at $k=10$), and Fair Kernel PCA has the smallest $\Delta_\text{DP}$ of the kernel SVM. The next cell
# checks these statements on our numbers, for the kernel SVM (the MLP's $\Delta_\text{DP}$ are in the
# unchecked cell above).

# %%
dp = ours[(ours.metric == "delta_dp") & (ours.model == "Kernel SVM")]
wide = dp.pivot_table(index=["dataset", "k", "model"], columns="method", values="mean", sort=False)
checks = pd.DataFrame({
    "Fair PCA-S (0.5) ΔDP ≤ Fair PCA": (wide["Fair PCA-S (0.5)"] <= wide["Fair PCA"] + 1e-12),
    "Fair PCA-S (0.85) ΔDP ≤ Fair PCA": (wide["Fair PCA-S (0.85)"] <= wide["Fair PCA"] + 1e-12),
})
ksvm = wide.xs("Kernel SVM", level="model")
checks_kpca = (ksvm["Fair Kernel PCA"] <= ksvm.drop(columns="Fair Kernel PCA").min(axis=1) + 1e-12).rename(
    "Fair Kernel PCA has the smallest kernel-SVM ΔDP")
print(checks.to_string(), "\n")
print(checks_kpca.to_string())

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
# projected distributions above, so large $\Delta_\text{DP}$ are expected. `fairlab.baselines.SamadiFairPCA` solves
# their SDP and linear program exactly and returns a rank-$k$ projection; the paper ran Samadi et al.'s MATLAB
# multiplicative-weights code (η = 20, T = 5 iterations) and fed the downstream models the $d$-dimensional $XP$ of
# its fractional solution. The representations differ, so this table is a comparison of the idea, not of the
# digits. At the defaults it runs on the data sets in `samadi_datasets`; the MLP columns are left out (see above). The SDP is solved by SCS, an iterative solver,
# and at $k = 10$ of $d = 11$ (COMPAS) its solution is nearly degenerate: on another OpenBLAS kernel it lands on
# another projection (measured: kernel-SVM accuracy 72.60 % on one, 73.82 % on another), so this cell is not
# compared by the notebook tests.

# %% tags=["nbval-ignore-output"]
samadi = pd.concat([kleindessner.table(name, ks, [kleindessner.SAMADI_METHOD], splits=splits.get(name) or
                                       kleindessner.load_splits(name, lee_splits=lee_splits, n_splits=n_splits,
                                                           random_state=seed), random_state=seed)
                    for name in samadi_datasets], ignore_index=True)
compared4 = kleindessner.compare(samadi, "table4")
view4 = compared4[compared4.ours_mean.notna() & (compared4.model != "MLP")]
side4 = kleindessner.side_by_side(view4)
side4.index = [f"{d}, k = {k}" for d, k in zip(view4.drop_duplicates(["dataset", "k"]).dataset,
                                               side4.index.get_level_values("k"))]
print(side4.to_string())

# %% [markdown]
# ## Figures 2 and 3: Lee et al.'s synthetic data
#
# Two Gaussian groups in a 1000-dimensional latent space, seen through two *different* random projections to
# $d$ dimensions (`make_lee_gaussians`; 240 points per group, 168 of them for training, the same indices in both
# groups, no centring). $k = 5$. `kleindessner.score_splits(..., classifiers={}, linear_inseparability=True)` gives %Var,
# MMD² and the error of a logistic model predicting the group (Fig. 2's third panel; higher is fairer), and the
# fit time of every method on every split (Fig. 3). The slow methods run only at the dimensions in
# `synthetic_slow_dims`. fairlab does not read Lee's synthetic CSV files (drawn by MATLAB's generator): same
# distribution, other numbers, in both data modes.

# %%
synth_methods = ["PCA", "FPCA (0, 0.01)", "MbF-PCA (10^-3)", "INLP", "RLACE", "Fair PCA", "Fair Kernel PCA",
                 "Fair PCA-S (0.85)"]
frames = []
for d in synthetic_dims:
    chosen = [m for m in synth_methods if m not in slow_methods or d in synthetic_slow_dims]
    ests = kleindessner.estimators(5, chosen, rlace_max_iter=rlace_max_iter, random_state=seed)
    frames.append(kleindessner.score_splits(ests, kleindessner.gaussian_splits(d, n_splits=synthetic_splits, random_state=seed),
                                      classifiers={}, linear_inseparability=True, progress=progress).assign(d=d))
synth = pd.concat(frames, ignore_index=True)
fig2 = synth[synth.metric != "fit_seconds"].pivot_table(index=["split", "d", "method"], columns="metric",
                                                        values="value", sort=False).reset_index()
print("slow methods ran at d =", synthetic_slow_dims)
summary2 = fig2.groupby(["d", "method"], sort=False)[["var_pct", "mmd2", "linear_inseparability"]].mean()
print(summary2.loc[summary2.index.get_level_values("method").isin(closed_form)].round(2).to_string())

# %% mystnb={"figure": {"caption": "Our Fig. 2 of Kleindessner et al.: %Var, MMD\u00b2 and linear inseparability of the test embeddings of Lee et al.'s synthetic Gaussians ($k = 5$), one box per method and dimension $d$. PCA keeps the most variance and is the least fair; every fair method pays for an MMD\u00b2 near zero and a near-chance inseparability with variance, Fair PCA the least among the closed-form ones.", "name": "fig-kleindessner-synthetic-quality"}, "image": {"alt": "Three box-plot panels side by side, one per metric, with the eight methods on the horizontal axis and one box per dimension d = 20, 60 and 100. Left, %Var: PCA highest at about 63, FPCA about 49, Fair PCA 28 to 39, Fair PCA-S lowest at 7 to 27. Middle, MMD\u00b2 on a log scale: PCA about 0.5, every fair method between 0.005 and 0.07. Right, linear inseparability: PCA near 0, every fair method between 0.38 and 0.48."}}
fig, axes = plt.subplots(1, 3, figsize=(13, 4))
for ax, metric, title in zip(axes, ["var_pct", "mmd2", "linear_inseparability"],
                             ["%Var (higher: better approximation)", "MMD² (lower: fairer)",
                              "linear inseparability (higher: fairer)"]):
    plot_boxplots(fig2, metric, by="method", hue="d", ax=ax)
    ax.set_title(title, fontsize=10)
axes[1].set_yscale("symlog", linthresh=0.01)
fig.tight_layout()
plt.show()

# %% [markdown]
# The paper's reading of Fig. 2: PCA explains about 50 % of the variance but is unfair (MMD² above 0.5,
# linear inseparability ≈ 0); Fair PCA keeps more than 30 % with MMD² below 0.07; the other fair methods reach lower
# MMD² at a lower %Var, and Fair PCA-S behaves like FPCA. Checked on our numbers (closed-form methods, all $d$).
# Our data come from `fairlab`'s generator, not Lee's MATLAB draws, so thresholds this close can fail: at the
# defaults Fair PCA keeps 27–28 % of the variance at $d = 60, 100$ (the paper: "above 30 %") with MMD² up to 0.07.

# %%
m = summary2.reset_index()
pca, fair = m[m.method == "PCA"], m[m.method == "Fair PCA"]
print("PCA: %Var in", [round(float(pca.var_pct.min())), round(float(pca.var_pct.max()))],
      "| MMD² > 0.5:", bool((pca.mmd2 > 0.5).all()),
      "| linear inseparability < 0.05:", bool((pca.linear_inseparability < 0.05).all()))
print("Fair PCA: %Var > 30:", bool((fair.var_pct > 30).all()), "| MMD² < 0.07:", bool((fair.mmd2 < 0.07).all()))

# %% [markdown]
# **Figure 3: running time against $d$** (fit only, one run per split, on this machine; the paper's times are from
# a 2019 laptop, with MbF-PCA in MATLAB). What should transfer is the *ratio* to Fair PCA. The paper's statements,
# as reference points: Fair PCA, Fair PCA-S and Fair Kernel PCA under 0.5 s even at $d = 800$; at $d = 100$ FPCA
# more than 2000 s, RLACE about 20 s, MbF-PCA 1.3 s, INLP 0.8 s; at $d = 800$ RLACE 260 s, MbF-PCA 43 s, INLP 1270 s.
# Timings never reproduce, so these cells are not compared by the notebook tests. Against scikit-learn's
# default `PCA` on the same data, `make bench` measured Fair PCA's (exact) fit at 0.51–0.53× the time at this
# figure's largest shape ($n = 480$, $d = 800$, where `PCA` picks its randomized solver), 1.35–1.39× at
# $336 \times 20$ (a fit of a third of a millisecond, mostly input validation), and 0.73–0.84× on every larger
# shape up to $10^6 \times 50$ and $5000 \times 3000$; see {doc}`04_fair_pca_derivation`.

# %% tags=["nbval-ignore-output"]
times = synth[synth.metric == "fit_seconds"].groupby(["d", "method"], sort=False, as_index=False)["value"].mean()
times = times.rename(columns={"value": "seconds"}).assign(k=5)
reported = kleindessner.reported_runtimes()
print(runtime_ratios(times, by=("d",)).pivot_table(index="method", columns="d", values="ratio", sort=False)
      .round(1).to_string())
print("\npaper (text of §5.1, seconds):")
print(reported[reported.figure == "Fig. 3"].to_string(index=False))

# %% mystnb={"figure": {"caption": "Our Fig. 3 of Kleindessner et al.: fit time against the dimension $d$ ($k = 5$, log scale) on the machine that built this page. Compare ratios, not seconds: the closed-form methods (PCA, Fair PCA, Fair Kernel PCA, Fair PCA-S) stay at hundredths of a second, while INLP grows with $d$ and the slow methods, run at $d = 20$ only by default, are one to two orders of magnitude slower.", "name": "fig-kleindessner-runtime-d"}, "image": {"alt": "Line plot of fit time in seconds on a log scale against data dimension d from 20 to 100, one line per method. FPCA, MbF-PCA and RLACE appear only at d = 20, near one second; INLP rises from under 0.1 s to near 1 s; PCA, Fair PCA, Fair Kernel PCA and Fair PCA-S stay between a few thousandths and a few hundredths of a second."}} tags=["nbval-ignore-output"]
fig, ax = plt.subplots(figsize=(6.5, 4.2))
plot_runtime(times, x="d", y="seconds", hue="method", logx=False, ax=ax)
ax.set_xlabel("data dimension d")
ax.set_ylabel("fit time on this machine (s)")
ax.set_title("Fig. 3: running time vs d (k = 5)")
fig.tight_layout()
plt.show()

# %% [markdown]
# ## Figure 7: running time against $k$ ($d = 100$)
#
# The paper: the time of the closed-form methods grows only moderately with $k$, MbF-PCA's drastically (about
# 290 s at $k = 50$), and INLP's *decreases* — it runs $d - k$ rounds.

# %% mystnb={"figure": {"caption": "Our Fig. 7 of Kleindessner et al.: fit time against the target dimension $k$ at $d = 100$ (log scale) on the machine that built this page. INLP, which runs $d - k$ rounds, is the slowest and gets no slower as $k$ grows; the closed-form methods stay near a hundredth of a second for every $k$.", "name": "fig-kleindessner-runtime-k"}, "image": {"alt": "Line plot of fit time in seconds on a log scale against target dimension k from 2 to 20, one line per method: INLP highest, just under one second and slowly falling with k; PCA, Fair PCA, Fair Kernel PCA and Fair PCA-S between about 0.007 and 0.04 s."}} tags=["nbval-ignore-output"]
rows = []
data100 = kleindessner.gaussian_splits(100, n_splits=1, random_state=seed)
for k in fig7_ks:
    rows.append(kleindessner.score_splits(kleindessner.estimators(k, fig7_methods, rlace_max_iter=rlace_max_iter,
                                                         random_state=seed), data100, classifiers={}))
fig7 = pd.concat(rows, ignore_index=True)
fig7 = fig7[fig7.metric == "fit_seconds"].rename(columns={"value": "seconds"})[["k", "method", "seconds"]]
print(runtime_ratios(fig7.assign(d=100), by=("k",)).pivot_table(index="method", columns="k", values="ratio",
                                                                  sort=False).round(1).to_string())
fig, ax = plt.subplots(figsize=(6.5, 4.2))
plot_runtime(fig7, x="k", y="seconds", hue="method", logx=False, ax=ax)
ax.set_xlabel("target dimension k")
ax.set_ylabel("fit time on this machine (s)")
ax.set_title("Fig. 7: running time vs k (d = 100)")
fig.tight_layout()
plt.show()

# %% [markdown]
# ## Writing the results
#
# With `results_csv` set (as `make reproduce` does), the tidy tables of this chapter are written with the commit,
# the date and the machine (`fairlab.experiments.write_results_csv`).

# %%
if results_csv:
    tidy = pd.concat([ours, samadi], ignore_index=True)
    path = write_results_csv(tidy, results_csv, chapter="11_reproducing_kleindessner")
    write_results_csv(compared, str(path).replace(".csv", "_compared.csv"), chapter="11_reproducing_kleindessner")
    print("wrote", path)

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
#
# ```{exercise}
# :label: ex-repro-mlp
#
# Fair PCA's %Var and MMD² equal the paper's in every cell, its MLP accuracies do not. Show that %Var, MMD² and
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
# there its MLP cells match the paper; where a sign differs, or the training drifts (another BLAS kernel), they do
# not.
# ```
#
# ```{exercise}
# :label: ex-repro-protocol
#
# Rerun {numref}`Section %s <sec-kleindessner-inflation>` with `ks = [2]` and all three data sets. On which data set does train-on-test inflate the
# accuracy least, and why does the linear SVM's inflation stay small everywhere?
# ```
#
# ```{solution} ex-repro-protocol
# :class: dropdown
#
# The inflation is the gap between fitting and generalising; it grows with the flexibility of the model relative to
# the number of rows. A linear SVM on $k$ features has only $k+1$ parameters, so it cannot memorise a few hundred
# rows, and its in-sample and held-out accuracies nearly coincide. The kernel SVM with $\gamma = 1$ on standardised
# features is very flexible: its gap is largest where the test part is small (German Credit, 300 rows) and smallest
# on COMPAS, whose 11 features leave little to memorise at $k=2$.
# ```
