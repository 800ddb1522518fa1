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
# # Reproducing Kleindessner et al. (2023), §5.2: trade-off curves against the reductions
#
# Section 5.2 of {cite}`kleindessner2023efficient` uses fair PCA as a *pre-processing* step for bias mitigation:
# learn a fair representation once, train an ordinary classifier on it, and trace the accuracy–fairness
# trade-off by turning the knob $\lambda$ of §3.1. It compares the curves with the state-of-the-art
# *in-processing* method, the exponentiated-gradient reduction of {cite}`agarwal2018reductions` in fairlearn,
# and finds similar curves at a fraction of the cost. This chapter redoes Figs. 4, 8 and 9 with `fairlab` and
# checks both claims by numbers. The paper's figures are named in words ("the paper's Figure 4"); this chapter's
# own carry the book's numbers (Fig. 12.1). The chapter opens with its verdict, then takes the paper's figures one
# section each, and closes with a summary.
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. explain why a representation plus an ordinary, regularised classifier can trace an accuracy–fairness
#    trade-off, and what the knob $\lambda$ does;
# 2. run the paper's comparison with `kleindessner_tradeoffs.curves` and read a curve of error against
#    $\Delta_\text{DP}$ or $\Delta_\text{EO}$;
# 3. turn "the curves are similar" into a number (the area between lower envelopes, `tradeoff_curve_gap`);
# 4. say where the time of a trade-off curve goes, and why fitting the representation once makes the whole fair
#    curve tens of times cheaper than the reductions' curve (the paper: about 115 times at $n = 5000$).
#
# **Prerequisites.** {doc}`04_fair_pca_derivation` (Fair PCA), {doc}`05_fair_pca_variants` (Fair PCA-S and the
# knob `FairTradeoff`), {doc}`03_measuring_fairness` ($\Delta_\text{DP}$, $\Delta_\text{EO}$) and
# {doc}`11_reproducing_kleindessner` (the protocol conventions of these reproductions). The maths needed: logistic
# regression with an $L_2$ penalty.
#
# **Time.** About 30 minutes to read and work through; the notebook runs in {{ run_time_12 }} at its defaults,
# which read the curves at paper scale from the results ledger ({ref}`appendix-ledger-kleindessner-tradeoffs`
# gives its provenance and cost).
#
# {{ run_it }}
# :::

# %% tags=["parameters"]
use_ledger = True            # the paper's Figures 4 and 8 at paper scale, read from the ledger; False: computed here
live_units = [["adult", "Fair PCA", "DP", "logistic regression", 0],
              ["adult", "Fair PCA-S", "EO", "logistic regression", 0],
              ["bank", "Reductions", "DP", "logistic regression", 0]]  # units recomputed here against the ledger
seed = 0                     # first run: run r draws its rows with default_rng of r times 1111; paper: runs 0 to 9
datasets = ["adult"]         # data sets of Figures 4 and 8; paper: adult, bank
methods = ["Fair PCA", "Fair PCA-S", "Reductions"]  # curves; paper: also Fair Kernel PCA
fairness = ["DP", "EO"]      # fairness notions; paper: DP and EO
classifiers = ["logistic regression"]  # downstream models; paper: also kernel SVM
n_runs = 1                   # random draws of train and test data; paper: 10
n_train = 2000               # training rows per draw; paper: 5000
n_test = 5000                # test rows per draw; paper: 5000
eps = [0.001, 0.01, 0.05, 0.2]  # difference_bound values of the reductions; paper: 11 values, 0.001 to 0.2
runtime_methods = ["Fair PCA", "Fair PCA-S", "Reductions"]  # curves timed for Figure 9; paper: the same
runtime_n_train = [500, 1000, 2000]  # training sizes of Figure 9; paper: 1000, 5000, 10000, 20000, 30000, 40000
runtime_runs = 1             # draws per training size in Figure 9; paper: 10
runtime_lambdas = [0.0, 0.008, 0.125, 1.0]  # λ grid of the timed fair curves; paper: the 11 values i cubed over 1000
runtime_eps = [0.001, 0.01, 0.05, 0.2]  # ε grid of the timed reductions' curves; paper: the 11 values
results_csv = ""             # path of a CSV for the tidy results, empty for none; make reproduce sets it
progress = False             # tqdm progress bars; turn on when running interactively

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import display

from fairlab import check_parameters, experiments, published
from fairlab.evaluation import benchmark_ratios
from fairlab.experiments import kleindessner_tradeoffs, write_results_csv
from fairlab.plotting import book_style, figure_legend, panel_grid, plot_runtime, plot_tradeoff

curve_methods = ["Fair PCA", "Fair PCA-S", "Fair Kernel PCA", "Reductions"]
check_parameters(globals(), use_ledger=bool, live_units=list, seed=int, datasets=(list, ["adult", "bank"]),
                 methods=(list, curve_methods), fairness=(list, ["DP", "EO"]),
                 classifiers=(list, ["logistic regression", "kernel SVM"]), n_runs=int, n_train=int, n_test=int,
                 eps=list, runtime_methods=(list, curve_methods), runtime_n_train=list, runtime_runs=int,
                 runtime_lambdas=list, runtime_eps=list, results_csv=str, progress=bool)
book_style()

# %% [markdown]
# ## The verdict
#
# The paper's §5.2 prints no table: its results are the curves of its Figures 4 and 8 and the times of its
# Figure 9, and its claims are about them. Each claim is checked below on the curves at paper scale (the results
# ledger: both data sets, both classifiers, ten runs); one row per figure and classifier, and a last row that
# recomputes units of the ledger here, on the machine that runs this chapter. The sentence under the table is
# generated from the same checks; each row has its section below.

# %% tags=["hide-input"]
ledger = experiments.read_ledger("kleindessner_tradeoffs")
curves = (kleindessner_tradeoffs.curves_from_ledger(ledger) if use_ledger else
          kleindessner_tradeoffs.curves(datasets, methods=methods, fairness=fairness, classifiers=classifiers,
                                        n_runs=n_runs, n_train=n_train, n_test=n_test, first_run=seed, eps=eps,
                                        progress=progress))
gaps = kleindessner_tradeoffs.gaps(curves)
claims = {classifier: kleindessner_tradeoffs.verdicts(gaps, classifier=classifier)
          for classifier in dict.fromkeys(gaps.classifier)}
cost = kleindessner_tradeoffs.curve_seconds(ledger)
fair_cost = cost.xs("Fair PCA", level="method").ratio
live = experiments.recompute_against_ledger("kleindessner_tradeoffs", live_units, ledger)
rows = [published.verdict_row(f"Figures 4 and 8, {classifier}",
                              checks={f"{r.claim} ({r.measured})": r.holds for r in found.itertuples()})
        for classifier, found in claims.items() if len(found)]
rows += [
    published.verdict_row("Figure 9 and §5.2: running time", checks={
        "Fair PCA's whole curve is more than ten times faster than the reductions' on every data set and classifier "
        f"(ours at paper scale: {published.format_range(1 / fair_cost, 0)} times)": bool((fair_cost < 0.1).all())}),
    published.verdict_row("The ledger, recomputed here",
                          checks=dict(zip(live.unit, live.equal.fillna(False).astype(bool)))),
]
verdict = published.verdict(rows)
display(verdict.table, verdict.sentence)

# %% [markdown]
# ## What §5.2 claims, and its protocol
#
# **What §5.2 claims.** On Adult Income and Bank Marketing, with a logistic regression or a kernel SVM trained on
# top, (i) Fair PCA's trade-off curves are *similar* to those of the reductions (the paper's Figure 4; Fair PCA-S
# and fair kernel PCA are only competitive with the kernel SVM, its Figure 8), and (ii) Fair PCA is much faster:
# "including the classifier training, fair PCA runs for 0.04 seconds on average while the method by Agarwal et al.
# 2018 runs for 4.6 seconds", and more than 32 s at 40 000 training points (its Figure 9).
#
# **Why a representation can trace a trade-off.** Let $U_\text{fair}$ be Fair PCA's projection and $U_\text{st}$
# standard PCA's. The knob feeds the classifier
#
# $$
# z_\lambda(x) = \bigl(U_\text{fair}^\top x;\; \lambda\, U_\text{st}^\top x\bigr), \qquad \lambda \in [0, 1].
# $$
#
# At $\lambda = 0$ the classifier sees only the fair block, so it inherits the representation's fairness. For
# $\lambda > 0$ all of standard PCA's information is there, but a linear model $w_1^\top z_1 + w_2^\top z_2$ with
# penalty $\|w\|^2$ pays $\|w_2\|^2 = \|v\|^2/\lambda^2$ to put weight $v$ on the standard block: the smaller
# $\lambda$, the more expensive the unfair directions. Turning $\lambda$ up moves the classifier continuously from
# the fair to the unconstrained one, and no fairness constraint enters the training. The reductions, instead,
# solve a sequence of reweighted (cost-sensitive) classification problems per point of the curve and return a
# *randomised* classifier.
#
# **The protocol** (the paper's App. C.1–C.2 and its code, `comparison_with_Agarwal`):
#
# * data: `load_adult(variant="agarwal")` (UCI Adult, 48 842 rows, every column one-hot encoded, $d = 99$,
#   $z$ = sex) and `load_bank(variant="agarwal")` (41 188 rows, $d = 52$, $z = 1[\text{age} > 40]$);
# * run $r$: a permutation drawn by `np.random.default_rng(r * 1111)`, the first 5 000 rows for training, the next
#   5 000 for testing, standardised with the training statistics (`kleindessner_tradeoffs.load_splits`); 10 runs;
# * fair methods: Fair PCA with $k = d - 1$, Fair PCA-S with $k = \lfloor d/4\rfloor$, $l = \lfloor d/2\rfloor$,
#   fair kernel PCA (RBF, $k = d - 1$), each paired with standard (kernel) PCA of the same $k$ in the knob, for
#   $\lambda = (i/10)^3$, $i = 0, \dots, 10$ (the reference code multiplies the standard block by $\lambda^3$);
#   for equal opportunity the representations are learned from the training rows with $y = 1$. On Adult those rows
#   have fewer directions of positive variance than $k$ (categories that no positive row has), so standard PCA must
#   keep some directions of zero variance: the reference code keeps whichever LAPACK returns, which change with the
#   BLAS kernel; `fairlab` keeps canonical ones (the coordinate axes projected onto that null space, in column
#   order), so the curves do not depend on the kernel;
# * reductions: fairlearn's `ExponentiatedGradient` around the same classifier with `DemographicParity` or
#   `TruePositiveRateParity` and `difference_bound` $\varepsilon \in \{0.001, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05,
#   0.07, 0.1, 0.15, 0.2\}$;
# * classifiers: `LogisticRegression(C = 1/(2 n 0.01))` ($C = 0.01$ at $n = 5000$) and
#   `SVC(C = 2, gamma = 1/(d Var X_train))`;
# * metrics on the test rows: error $P(\hat y \ne y)$, $\Delta_\text{DP} = |P(\hat y = 1|z=0) - P(\hat y = 1|z=1)|$,
#   $\Delta_\text{EO} = |\text{TPR}_0 - \text{TPR}_1|$.
#
# **Scale.** The curves are read from the **results ledger** (`notebooks/results/kleindessner_tradeoffs.csv.gz`):
# each curve of the paper's grid (data set × method × fairness notion × classifier × run, 5 000 + 5 000 rows, the
# 11-point grids) is a work unit computed once by `make reproduce`, with its commit, date, machine and time. With
# `use_ledger = False` the chapter computes the curves here instead, at the reduced parameters below (Adult,
# logistic regression, one run, 2 000 training rows, four values of $\varepsilon$).

# %% [markdown]
# ## The data
#
# One draw per data set at the scale the figures use, the training and test rows and the base rates (the
# paper's App. C.2 gives Adult's positive rate as 23.9 % and its share of men as 66.8 %).

# %%
scale = kleindessner_tradeoffs.PARAMETERS if use_ledger else {"n_train": n_train, "n_test": n_test}
shown = kleindessner_tradeoffs.DATASETS if use_ledger else datasets
published.reader_table(pd.DataFrame(
    [{"data set": name.capitalize(), "features": sp.X_train.shape[1], "training rows": len(sp.y_train),
      "test rows": len(sp.y_test), "P(y = 1) on the test rows": float(sp.y_test.mean()),
      "P(z = 1) on the test rows": float(sp.s_test.mean())}
     for name in shown
     for sp in kleindessner_tradeoffs.load_splits(name, n_runs=1, n_train=scale["n_train"], n_test=scale["n_test"],
                                                  first_run=seed)]).set_index("data set"), decimals=2)

# %% [markdown]
# (sec-tradeoff-ledger)=
# ## Where the curves come from: the ledger
#
# Each curve is a **work unit** of `fairlab.experiments.kleindessner_tradeoffs`: a pure function of its key (data
# set, method, fairness notion, classifier, run) that draws the run's rows, fits the method along its whole
# parameter grid ($\lambda = (i/10)^3$, $i = 0, \dots, 10$, for the fair methods) and returns one row per point —
# test error, violation and training time. `make reproduce` computes the units the committed ledger lacks, on a
# Dask cluster, resuming where an interrupted run stopped. The costliest units are the kernel-SVM curves, the
# reductions' above all: each of their curves trains up to 50 reweighted kernel SVMs at each of the 11 values of
# $\varepsilon$. Its provenance — commits, machines, BLAS kernels, unit times — is in
# {ref}`appendix-ledger-kleindessner-tradeoffs`. A setting whose curves the ledger does not hold is left out of the
# figure, and a gap or a claim that needs them is not computed.
#
# A ledger is only worth reading if the code still produces it. The units in `live_units` are recomputed in the
# verdict's cell and compared with their ledger rows: equal means every value rounds to the stored one at 8
# significant digits, the training times excepted. The notebook tests compare that output, so `make test` proves
# these units current wherever it runs.

# %% tags=["hide-input"]
held = ledger.drop_duplicates("unit")
held = held.join(held.method.str.extract(r"^(?P<curve>.*) \((?P<notion>DP|EO)\)$"))
runs_held = held.groupby(["model", "curve", "dataset", "notion"], sort=False).size().unstack(
    ["dataset", "notion"], fill_value=0)
runs_held.columns = [f"{d.capitalize()}, {n}" for d, n in runs_held.columns]
display(published.Prose(
    f"{int(live.equal.fillna(False).sum())} of the {len(live)} units recomputed here equal the ledger. The ledger "
    f"holds {published.format_range(runs_held.to_numpy().ravel(), 0)} runs per curve (the paper: "
    f"{kleindessner_tradeoffs.N_RUNS})."),
        published.Details(
            published.reader_table(runs_held.rename_axis(index=["classifier", "curve"]), title="Runs held per curve"),
            published.reader_table(live[["unit", "values", "in_ledger", "equal"]].set_index("unit"),
                                   missing="the ledger holds no row of this unit yet", title="The units recomputed"),
            summary="The runs the ledger holds, and the units recomputed one by one"))

# %% [markdown]
# ## The paper's Figures 4 and 8: the trade-off curves
#
# `kleindessner_tradeoffs.curves` computes every curve (a unit calls it for one): for each data set, run, fairness
# notion, classifier and method, the error and the violation on the test rows at each value of $\lambda$ (fair
# methods) or $\varepsilon$ (reductions), and the training time of each point; `curves_from_ledger` reads the
# ledger's units back into the same table. The fair and the standard representations are fitted **once per curve**
# and only the standard block is rescaled for each $\lambda$ (`FairTradeoff`'s fit does not depend on $\lambda$;
# `reuse_fit=False` refits them for every point and gives the same representations, a test checks it).
#
# Every number below is a count of test points divided by a count (an error, a difference of rates), so it is
# the same on every machine as long as the predictions are, and the logistic regression's are: the notebook tests
# compare the live units above, and the reduced run of `use_ledger = False`, under two OpenBLAS kernels. The kernel
# SVM's are not quite: the representation it is trained on moves in its last digits from one BLAS kernel to
# another, and libsvm, which stops at a tolerance, can then put a test row that lies near its boundary on the other
# side (`kleindessner_tradeoffs.KERNEL_DEPENDENT_MODELS` gives the measurement; `make verify-results` does not
# compare those rows on another kernel than the ledger's). One case needed care. For equal opportunity the
# representations are learned from the positive training rows only, on which some one-hot columns of Adult are
# constant, and among Fair PCA-S's $l$ directions fewer have non-zero variance on those rows than the $k$
# components it returns. The remaining components have zero variance there, so any choice is optimal for the fit,
# but not for the classifier, which sees all rows; an eigensolver's choice followed the BLAS kernel and moved Fair
# PCA-S's equal-opportunity curve. `FairPCA` now takes them by a fixed rule (the coordinate axes projected onto
# that subspace, in feature order; see its `equalize_covariance` parameter).
#
# {numref}`fig-tradeoff-curves` draws both kinds of curve, as the paper does (it plots accuracy; we plot the
# error, so lower is better on both axes and the good corner is the bottom left). Points are averaged over the
# runs. One panel per data set, fairness notion and classifier.

# %% tags=["hide-input"]
ranges = curves.groupby(["dataset", "fairness", "classifier", "method"], sort=False)[["error", "violation"]].agg(
    ["min", "max"])
ranges.columns = [f"{measure}, {end}" for measure, end in ranges.columns]
published.Details(published.reader_table(ranges.rename(index=str.capitalize, level="dataset"), decimals=3,
                                         title="Error and violation on the test rows: the ends of each curve"),
                  summary="The range of each curve, by data set, fairness notion, classifier and method")

# %% mystnb={"figure": {"caption": "The paper's Figures 4 and 8, redrawn: test error against the fairness violation on the test rows, one panel per data set, fairness notion and downstream classifier, each point the mean over its runs. Fair PCA, Fair PCA-S and fair kernel PCA trace their curves with the knob \u03bb, fairlearn's exponentiated-gradient reduction with its bound \u03b5. How close the curves are is measured in the next section.", "name": "fig-tradeoff-curves"}, "image": {"alt": "A grid of panels, one per data set, fairness notion and classifier: Adult and Bank, demographic parity and equal opportunity, each with logistic regression and with the kernel SVM. In each, test error on the vertical axis against the violation on the horizontal axis, one line per method with its parameter's two ends labelled. With logistic regression the Fair PCA curve and the reductions' points lie in the same region, the Fair PCA-S curve lies higher and fair kernel PCA's points sit at zero violation and a high error. With the kernel SVM, on Adult, the Fair PCA curve lies at larger violations than the reductions' points and the other two curves."}} tags=["hide-input"]
settings = list(curves.groupby(["dataset", "fairness", "classifier"], sort=False).groups)
notions = {"DP": "demographic parity", "EO": "equal opportunity"}
fig, axes = panel_grid(len(settings), panel_height=3.0)
for ax, (name, notion, clf) in zip(axes, settings):
    panel = curves[(curves.dataset == name) & (curves.fairness == notion) & (curves.classifier == clf)]
    plot_tradeoff(panel, x="violation", y="error", hue="method", param="param", legend=False, ax=ax,
                  param_labels={"Reductions": "ε", None: "λ"})
    ax.set_xlabel(f"Δ{notion} on the test rows")
    ax.set_ylabel("test error")
    ax.set_title(f"{name.capitalize()} · {notions[notion]} · {clf}", fontsize=10)
figure_legend(fig, axes, title="method")
plt.show()

# %% [markdown]
# ## "Similar curves", as a number
#
# The paper only draws its curves. To compare two of them we summarise each by its **lower envelope**
# $E(v) = \min\{\text{error of a point with violation} \le v\}$, the best error reachable within a violation
# budget $v$, and integrate the difference over the violation range the curves cover (`tradeoff_curve_gap`;
# `kleindessner_tradeoffs.gaps` applies it to each method's run-averaged curve against the reductions'). The
# *mean gap* is the error difference at matched violation, averaged over that range: positive when the method is
# worse than the reductions. It is read against the *error range*, the spread of errors along the two curves. The
# values move with the runs (the parameters), not with the machine: they are exact functions of the points above.
# The table gives the mean gap of each method, in percentage points of error; the complete table is one click away.

# %%
mean_gap = (gaps.assign(gap=100 * gaps.mean_gap)
            .pivot_table(index=["classifier", "dataset", "fairness"], columns="method", values="gap", sort=False)
            .rename(index=str.capitalize, level="dataset"))
display(published.reader_table(mean_gap, decimals=2,
                               title="Mean gap to the reductions' curve, points of error (positive: worse)"),
        published.Details(published.reader_table(
            gaps.set_index(["dataset", "fairness", "classifier", "method"])
            .rename(columns={"lo": "violation from", "hi": "violation to", "mean_abs_gap": "mean absolute gap"}),
            decimals=4, title="The gaps in full (error as a fraction)"), summary="The gaps in full"))

# %% [markdown]
# The claims of §5.2 about the curves, judged on these gaps by `kleindessner_tradeoffs.verdicts`: with the
# logistic regression, that Fair PCA's curves are similar to the reductions' and that Fair PCA-S cannot compete;
# with the kernel SVM, that Fair PCA-S and fair kernel PCA can (a claim is judged on the settings where the ledger
# holds both its method's and the reductions' curves; the criterion is part of the printed claim). Each line is
# generated from the gaps:

# %% tags=["hide-input"]
published.checks_prose([{f"{r.claim} ({r.measured})": r.holds for r in found.itertuples()}
                        for found in claims.values()])

# %% [markdown]
# **Reading the curves.** Fair kernel PCA under a logistic regression is the odd one out; the sentence below gives
# its range of violations and errors, generated from the curves. A linear classifier finds almost nothing to use in
# its components — in line with the paper, which calls fair kernel PCA competitive only with the kernel SVM. The
# kernel SVM shows the other side of that claim: Fair PCA's guarantee is about linear functions of the
# representation (equal group means, §3 of the paper), and a kernel SVM can recover the group from non-linear
# functions of the fair components; whether it does depends on the data. The second sentence compares Fair PCA's
# smallest violation under the two classifiers on each data set.

# %% tags=["hide-input"]
kpca = curves[(curves.method == "Fair Kernel PCA") & (curves.classifier == "logistic regression")]
smallest = (curves[curves.method == "Fair PCA"].groupby(["dataset", "fairness", "classifier", "param"], sort=False)
            .violation.mean().groupby(["dataset", "classifier"], sort=False).min())
published.Prose(
    (f"Fair kernel PCA under the logistic regression: violation at most {kpca.violation.max():.3f}, error "
     f"{published.format_range(kpca.error, 3)}. " if len(kpca) else "")
    + "Fair PCA's smallest mean violation: "
    + "; ".join(f"{name.capitalize()}: " + ", ".join(f"{c} {smallest[(name, c)]:.3f}"
                                                    for c in smallest.loc[name].index)
                for name in dict.fromkeys(smallest.index.get_level_values("dataset"))) + ".")

# %% [markdown]
# ## The paper's Figure 9: running time against $n$
#
# For each training size and run, every method's *whole curve* is trained and timed (no test rows: the paper's
# runtime script uses test size 0). The paper plots the mean over the grid points and runs, so its
# "0.04 s vs 4.6 s" is a time *per point*; with grids of the same length, the ratio of whole curves is the same
# number. The paper's statements are in `kleindessner_tradeoffs.reported_runtimes` (their laptop, 2022; compare
# ratios, not seconds).
#
# Where the time goes: each point of the reductions' curve runs up to 50 reweighted fits of the classifier;
# a point of a fair curve is one fit on a representation computed once per curve.
#
# **At paper scale, from the ledger.** Every unit of the ledger records the training time of its whole curve at
# $n = 5000$, single-threaded, on the machines its appendix page names. The mean over the runs and both fairness
# notions, and each fair curve's time as a ratio to the reductions' on the same data set and classifier (stored
# numbers, so this table is the same wherever the chapter runs). `make bench` times the two curves side by side on
# Adult at $n = 5000$ with logistic regression ({ref}`appendix-benchmarks`); the sentence under the table gives its
# last measurement beside the paper's ratio.

# %%
bench = benchmark_ratios("fair PCA curve").iloc[0]
paper = kleindessner_tradeoffs.reported_runtimes().query("source == '§5.2'").set_index("method")
display(published.reader_table(cost.rename(index=str.capitalize, level="dataset")
                               .rename(columns={"seconds": "seconds per curve", "ratio": "ratio to the reductions"}),
                               decimals={"seconds per curve": 2, "ratio to the reductions": 4},
                               title="Whole-curve training time at paper scale"),
        published.Prose(
            f"make bench, Adult at n = 5000 with logistic regression: a Fair PCA curve takes {bench.ours:.3f} s, the "
            f"reductions' {bench.reference:.2f} s, a ratio of {bench.ratio:.4f} (the project's goal: {bench.goal}, "
            f"{bench.status}); the paper's 0.04 s / 4.6 s is "
            f"{paper.loc['Fair PCA', 'seconds'] / paper.loc['Reductions', 'seconds']:.4f}."))

# %% [markdown]
# **The paper's Figure 9 here.** The cells below time the curves on this machine at the training sizes of the
# parameters (`make reproduce` runs them at the paper's sizes, 1 000 to 40 000 rows, 10 draws each). Timings never
# reproduce, so these cells are not compared by the notebook tests; the measured table and the paper's statements
# are one click away, and {numref}`fig-tradeoff-runtime` draws them.

# %% tags=["nbval-ignore-output", "hide-input"]
runtimes = kleindessner_tradeoffs.runtimes(runtime_n_train, dataset=datasets[0], methods=runtime_methods,
                                          n_runs=runtime_runs, first_run=seed, lambdas=runtime_lambdas,
                                          eps=runtime_eps, progress=progress)
timing = kleindessner_tradeoffs.runtime_summary(runtimes)
published.Details(
    published.reader_table(timing.set_index(["n_train", "method"]).rename_axis(index=["training rows", "method"])
                           .rename(columns={"seconds_per_point": "seconds per point", "ratio": "ratio to the reductions"}),
                           decimals=4, title="Whole-curve training time on this machine"),
    published.reader_table(kleindessner_tradeoffs.reported_runtimes().set_index(["source", "method"])
                           .rename(columns={"n_train": "training rows"}), decimals=2,
                           title="The paper's statements (§5.2 and App. C.7)"),
    summary="The times measured here, and the paper's")

# %% mystnb={"figure": {"caption": "The paper's Figure 9, redrawn on the machine that built this page: training time per point of a trade-off curve (a whole curve's time over its number of points) against the number of training rows (Adult, logistic regression, demographic parity, log scales), the mean over the runs, beside the times the paper states (hollow; an arrow where it says more or less than). The collapsed tables above the figure give each method's time as a ratio to the reductions'.", "name": "fig-tradeoff-runtime"}, "image": {"alt": "Line plot of seconds on a log scale against the number of training rows, one line per method. The reductions' line lies far above the Fair PCA and Fair PCA-S lines at every size."}} tags=["nbval-ignore-output", "hide-input"]
stated = kleindessner_tradeoffs.reported_runtimes()
fig, ax = plt.subplots(figsize=(6.5, 3.6))
plot_runtime(timing, x="n_train", y="seconds_per_point", hue="method", logx=True, ax=ax,
             published=stated[stated.method.isin(timing.method)].rename(columns={"seconds": "seconds_per_point"}))
ax.set_xlabel("training rows n")
ax.set_ylabel("training time per point of a curve (s)")
ax.set_title("Training time per point of a curve against n")
plt.show()

# %% [markdown]
# ## Writing the results
#
# With `results_csv` set (as `make reproduce` does), the curves and the runtimes are written with the commit, the
# date and the machine (`fairlab.experiments.write_results_csv`).

# %%
if results_csv:
    path = write_results_csv(curves, results_csv, chapter="12_reproducing_kleindessner_tradeoffs")
    write_results_csv(runtimes, str(path).replace(".csv", "_runtimes.csv"),
                      chapter="12_reproducing_kleindessner_tradeoffs")
    print("wrote", path)

# %% [markdown]
# ## Summary
#
# A representation learned once, with an ordinary classifier on top, traces an accuracy–fairness curve at a
# fraction of the reductions' cost; whether that curve is as good as the reductions' is a number here (the mean
# gap at matched violation), and the paper's claims are judged on it, one by one. The sentence below is generated
# from the verdict and names every check that fails; where the curves come from is in
# {ref}`appendix-ledger-kleindessner-tradeoffs`.

# %% tags=["hide-input"]
verdict.sentence

# %% [markdown]
# ## Exercises
#
# ```{exercise}
# :label: ex-tradeoff-lambda-price
#
# Take $k = 1$ and a logistic regression $h(u, v) = w_1 u + w_2 v + b$ on $(x_\text{f}; \lambda x_\text{s})$ with
# penalty $\tfrac12(w_1^2 + w_2^2)$. Show that the model which uses the standard feature with an effective weight
# $\beta$ (that is, $w_2 \lambda = \beta$) pays the penalty $\beta^2 / (2\lambda^2)$ for it. What happens as
# $\lambda \to 0$, and why does the curve start at the fair representation's violation?
# ```
#
# ```{solution} ex-tradeoff-lambda-price
# :class: dropdown
#
# $w_2 = \beta/\lambda$, so $\tfrac12 w_2^2 = \beta^2/(2\lambda^2)$. As $\lambda \to 0$ every $\beta \ne 0$ costs an
# unbounded penalty while the gain in the likelihood stays bounded, so the optimal $\beta \to 0$ and the model
# tends to the one trained on $x_\text{f}$ alone. At $\lambda = 0$ the standard block is zero and the classifier
# *is* a classifier of the fair representation, whose violation it inherits (the first row of each fair curve
# above; `tests/test_reproduce_kleindessner_tradeoffs.py` checks it).
# ```
#
# ```{exercise}
# :label: ex-tradeoff-gap
#
# Run `kleindessner_tradeoffs.curves` with `eps=[0.001, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15,
# 0.2]` and `n_runs=3`, and recompute `kleindessner_tradeoffs.gaps`. Does Fair PCA's mean gap to the reductions
# change sign? Why is a gap computed on lower envelopes not affected by points that lie above a curve?
# ```
#
# ```{solution} ex-tradeoff-gap
# :class: dropdown
#
# The envelope $E(v) = \min\{\text{error}_i : v_i \le v\}$ only ever takes the error of a point that no other point
# beats at a smaller or equal violation (a point of the curve's Pareto front), so a dominated point changes no
# value of $E$. More runs and more values of $\varepsilon$ add points to the reductions' front and move its
# envelope down where they fill a gap; whether the sign changes depends on the draw, which is the point: at the
# paper's scale the two envelopes cross, and the mean gap stays a small fraction of `error_range`.
# ```

# %% tags=["solution", "hide-input", "remove-output"]
from fairlab import exercises

paper_eps = [0.001, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2]
curves_paper_eps = kleindessner_tradeoffs.curves(datasets, methods=["Fair PCA", "Reductions"], fairness=fairness,
                                                 classifiers=classifiers, n_runs=3, n_train=n_train,
                                                 n_test=n_test, eps=paper_eps)
gap_words = {"lo": "violation from", "hi": "violation to", "mean_abs_gap": "mean absolute gap"}
gaps_paper_eps = kleindessner_tradeoffs.gaps(curves_paper_eps).set_index(
    ["dataset", "fairness", "classifier", "method"]).rename(columns=gap_words)
display(published.reader_table(gaps_paper_eps, decimals=4,
                               title=f"The gaps over the paper's {len(paper_eps)} values of ε and "
                                     f"{curves_paper_eps['run'].nunique()} runs (error as a fraction)"))
exercises.check("ex-tradeoff-gap", curves_paper_eps)
