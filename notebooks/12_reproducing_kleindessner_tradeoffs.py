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
# checks both claims by numbers. Figure numbers without a chapter prefix (Fig. 4) are the paper's.
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
# which read the curves at paper scale from the results ledger (its cost is printed in
# {numref}`Section %s <sec-tradeoff-ledger>`).
#
# {{ run_it }}
# :::
#
# **What §5.2 claims.** On Adult Income and Bank Marketing, with a logistic regression or a kernel SVM trained on
# top, (i) Fair PCA's trade-off curves are *similar* to those of the reductions (Fig. 4; Fair PCA-S and fair
# kernel PCA are only competitive with the kernel SVM, Fig. 8), and (ii) Fair PCA is much faster: "including the
# classifier training, fair PCA runs for 0.04 seconds on average while the method by Agarwal et al. 2018 runs for
# 4.6 seconds", and more than 32 s at 40 000 training points (Fig. 9).
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

# %% tags=["parameters"]
use_ledger = True            # Figs 4 and 8 at paper scale, read from the ledger (False: computed here, below)
live_units = [["adult", "Fair PCA", "DP", "logistic regression", 0],
              ["adult", "Fair PCA-S", "EO", "logistic regression", 0],
              ["bank", "Reductions", "DP", "logistic regression", 0]]  # units recomputed here against the ledger
seed = 0                     # first run: run r draws its rows with default_rng(r * 1111) (paper: runs 0 to 9)
datasets = ["adult"]         # data sets of Figs 4 and 8 (paper: adult, bank)
methods = ["Fair PCA", "Fair PCA-S", "Reductions"]  # curves (paper: also Fair Kernel PCA)
fairness = ["DP", "EO"]      # fairness notions (paper: DP and EO)
classifiers = ["logistic regression"]  # downstream models (paper: also kernel SVM)
n_runs = 1                   # random draws of train and test data (paper: 10)
n_train = 2000               # training rows per draw (paper: 5000)
n_test = 5000                # test rows per draw (paper: 5000)
eps = [0.001, 0.01, 0.05, 0.2]  # difference_bound values of the reductions (paper: 11 values, 0.001 to 0.2)
runtime_methods = ["Fair PCA", "Fair PCA-S", "Reductions"]  # curves timed in Fig 9 (paper: the same; fair kernel PCA is cubic in n)
runtime_n_train = [500, 1000, 2000]  # training sizes of Fig 9 (paper: 1000, 5000, 10000, 20000, 30000, 40000)
runtime_runs = 1             # draws per training size in Fig 9 (paper: 10)
runtime_lambdas = [0.0, 0.008, 0.125, 1.0]  # λ grid of the timed fair curves (paper: the 11 values (i/10)^3)
runtime_eps = [0.001, 0.01, 0.05, 0.2]  # ε grid of the timed reductions' curves (paper: the 11 values)
results_csv = ""             # path of a CSV for the tidy results ("" = none; make reproduce sets it)
progress = False             # tqdm progress bars (turn on when running interactively)

# %%
import matplotlib.pyplot as plt
import pandas as pd

from fairlab import experiments
from fairlab.evaluation import benchmark_ratios
from fairlab.experiments import kleindessner_tradeoffs, write_results_csv
from fairlab.plotting import book_style, figure_legend, panel_grid, plot_runtime, plot_tradeoff

book_style()
print("λ grid of the fair curves:", list(kleindessner_tradeoffs.LAMBDAS))
print("Figs 4 and 8:", "the paper-scale ledger" if use_ledger else
      f"{n_runs} run(s) of {n_train} + {n_test} rows, ε in {eps}, {', '.join(classifiers)}")

# %% [markdown]
# ## The data
#
# One draw per data set at the scale the figures use, the training and test rows and the base rates (the
# paper's App. C.2 gives Adult's positive rate as 23.9 % and its share of men as 66.8 %).

# %%
scale = kleindessner_tradeoffs.PARAMETERS if use_ledger else {"n_train": n_train, "n_test": n_test}
shown = kleindessner_tradeoffs.DATASETS if use_ledger else datasets
pd.DataFrame([{"dataset": name, "d": sp.X_train.shape[1], "train rows": len(sp.y_train),
               "test rows": len(sp.y_test), "P(y=1), test": round(float(sp.y_test.mean()), 2),
               "P(z=1), test": round(float(sp.s_test.mean()), 2)}
              for name in shown
              for sp in kleindessner_tradeoffs.load_splits(name, n_runs=1, n_train=scale["n_train"],
                                                           n_test=scale["n_test"], first_run=seed)]
             ).set_index("dataset")

# %% [markdown]
# (sec-tradeoff-ledger)=
# ## Paper scale: the ledger
#
# Each curve is a **work unit** of `fairlab.experiments.kleindessner_tradeoffs`: a pure function of its key (data
# set, method, fairness notion, classifier, run) that draws the run's rows, fits the method along its whole
# parameter grid and returns one row per point — test error, violation and training time. `make reproduce`
# computes the units the committed ledger lacks, on a Dask cluster, resuming where an interrupted run stopped;
# every row carries its unit's commit, date, machine and time. The figures below are drawn from the units the
# ledger holds; the cells say which those are.

# %%
ledger = experiments.read_ledger("kleindessner_tradeoffs")
print(experiments.describe_ledger(ledger, "kleindessner_tradeoffs"))
held = ledger.drop_duplicates("unit")
held = held.join(held.method.str.extract(r"^(?P<curve>.*) \((?P<notion>DP|EO)\)$"))
print(f"\nruns held per curve (the paper: {kleindessner_tradeoffs.N_RUNS}):")
print(held.groupby(["model", "curve", "dataset", "notion"], sort=False).size()
      .unstack(["dataset", "notion"], fill_value=0).to_string())

# %% [markdown]
# The costliest units of the grid are the kernel-SVM curves, the reductions' above all: each of their curves
# trains up to 50 reweighted kernel SVMs at each of the 11 values of $\varepsilon$. A setting whose curves the
# ledger does not hold yet is left out of the figure, and a gap or a claim that needs them is not computed.
#
# A ledger is only worth reading if the code still produces it. The units in `live_units` are recomputed here and
# compared with their ledger rows: equal means every value rounds to the stored one at 8 significant digits, the
# training times excepted. The notebook tests compare this output, so `make test` proves these units current
# wherever it runs.

# %%
verdict = experiments.recompute_against_ledger("kleindessner_tradeoffs", live_units, ledger)
print(verdict[["unit", "values", "in_ledger", "equal"]].to_string(index=False))
print(f"\n{int(verdict.equal.sum())} of {len(verdict)} recomputed units equal the ledger")

# %% [markdown]
# ## Figures 4 and 8: the trade-off curves
#
# `kleindessner_tradeoffs.curves` computes every curve (a unit calls it for one): for each data set, run, fairness
# notion, classifier and method, the error and the violation on the test rows at each value of $\lambda$ (fair
# methods) or $\varepsilon$ (reductions), and the training time of each point; `curves_from_ledger` reads the
# ledger's units back into the same table. The fair and the standard representations are fitted **once per curve** and only
# the standard block is rescaled for each $\lambda$ (`FairTradeoff`'s fit does not depend on $\lambda$;
# `reuse_fit=False` refits them for every point and gives the same representations, a test checks it).
#
# Every number below is a count of test points divided by a count (an error, a difference of rates), so it is
# the same on every machine as long as the predictions are, and the logistic regression's are: the notebook tests
# compare the live units above, and the reduced run of `use_ledger = False`, under two OpenBLAS kernels. The kernel
# SVM's are not quite: the representation it is trained on moves in its last digits from one BLAS kernel to
# another, and libsvm, which stops at a tolerance, can then put a test row that lies near its boundary on the other
# side (`kleindessner_tradeoffs.KERNEL_DEPENDENT_MODELS` gives the measurement; `make verify-results` does not
# compare those rows on another kernel than the ledger's). One case needed care. For equal opportunity the representations are learned from the
# positive training rows only, on which some one-hot columns of Adult are constant, and among Fair PCA-S's $l$
# directions fewer have non-zero variance on those rows than the $k$ components it returns. The remaining
# components have zero variance there, so any choice is optimal for the fit, but not for the classifier, which
# sees all rows; an eigensolver's choice followed the BLAS kernel and moved Fair PCA-S's equal-opportunity curve.
# `FairPCA` now takes them by a fixed rule (the coordinate axes projected onto that subspace, in feature order;
# see its `equalize_covariance` parameter).

# %%
if use_ledger:
    curves = kleindessner_tradeoffs.curves_from_ledger(ledger)
else:
    curves = kleindessner_tradeoffs.curves(datasets, methods=methods, fairness=fairness, classifiers=classifiers,
                                           n_runs=n_runs, n_train=n_train, n_test=n_test, first_run=seed, eps=eps,
                                           progress=progress)
curves.groupby(["dataset", "fairness", "classifier", "method"], sort=False)[["error", "violation"]].agg(
    ["min", "max"]).round(3)

# %% [markdown]
# Each panel draws both kinds of curve, as the paper does (it plots accuracy; we plot the error, so lower is
# better on both axes and the good corner is the bottom left). Points are averaged over the runs; the labels give
# the two ends of each curve's parameter. One panel per data set, fairness notion and classifier.

# %% mystnb={"figure": {"caption": "Our Figs. 4 and 8 of Kleindessner et al.: test error against the fairness violation on the test rows, one panel per data set, fairness notion and downstream classifier the ledger holds, each point the mean over its runs (their number is printed above). Fair PCA, Fair PCA-S and fair kernel PCA trace their curves with the knob \u03bb, fairlearn's exponentiated-gradient reduction with its bound \u03b5. How close the curves are is measured in the next section.", "name": "fig-tradeoff-curves"}, "image": {"alt": "A grid of panels, one per data set, fairness notion and classifier the ledger holds: Adult and Bank, demographic parity and equal opportunity, each with logistic regression and with the kernel SVM. In each, test error on the vertical axis against the violation on the horizontal axis, one line per method with its parameter's two ends labelled. With logistic regression the Fair PCA curve and the reductions' points lie in the same region, the Fair PCA-S curve lies higher and fair kernel PCA's points sit at zero violation and a high error. With the kernel SVM, on Adult, the Fair PCA curve lies at larger violations than the reductions' points and the other two curves."}}
settings = list(curves.groupby(["dataset", "fairness", "classifier"], sort=False).groups)
fig, axes = panel_grid(len(settings), panel_height=3.0)
for ax, (name, notion, clf) in zip(axes, settings):
    panel = curves[(curves.dataset == name) & (curves.fairness == notion) & (curves.classifier == clf)]
    plot_tradeoff(panel, x="violation", y="error", hue="method", param="param", legend=False, ax=ax)
    ax.set_xlabel(f"Δ_{notion} on the test rows")
    ax.set_ylabel("test error")
    ax.set_title(f"{name}, {notion}, {clf}", fontsize=10)
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
# worse than the reductions. It is read against `error_range`, the spread of errors along the two curves. The
# values move with the runs (the parameters), not with the machine: they are exact functions of the points above.

# %%
gaps = kleindessner_tradeoffs.gaps(curves)
gaps.round(4)

# %% [markdown]
# The claims of §5.2 about the curves, judged on these gaps by `kleindessner_tradeoffs.verdicts`: with the
# logistic regression, that Fair PCA's curves are similar to the reductions' and that Fair PCA-S cannot compete;
# with the kernel SVM, that Fair PCA-S and fair kernel PCA can (a claim is judged on the settings where the ledger
# holds both its method's and the reductions' curves; the criterion is part of the printed claim; gaps in
# percentage points of error):

# %%
for classifier in dict.fromkeys(gaps.classifier):
    for row in kleindessner_tradeoffs.verdicts(gaps, classifier=classifier).itertuples():
        print(f"[{'holds' if row.holds else 'fails'}] {row.claim}\n        {row.measured}")

# %% [markdown]
# ## Figure 9: running time against $n$
#
# For each training size and run, every method's *whole curve* is trained and timed (no test rows: the paper's
# runtime script uses test size 0). The paper plots the mean over the grid points and runs, so its
# "0.04 s vs 4.6 s" is a time *per point*; with grids of the same length, the ratio of whole curves is the same
# number. The paper's statements are in `kleindessner_tradeoffs.reported_runtimes` (their laptop, 2022; compare
# ratios, not seconds). Timings never reproduce, so the cells that measure and draw them are not compared by the
# notebook tests.
#
# Where the time goes: each point of the reductions' curve runs up to 50 reweighted fits of the classifier;
# a point of a fair curve is one fit on a representation computed once per curve. `make bench` times the two
# curves side by side on Adult at $n = 5000$ with logistic regression; its last measurement, and the ratio the
# paper's "0.04 seconds ... 4.6 seconds" makes:

# %%
bench = benchmark_ratios("fair PCA curve")
print(bench[["measure", "case", "ours", "reference", "ratio", "goal", "status"]].round(4).to_string(index=False))
print(bench.attrs["provenance"])
paper = kleindessner_tradeoffs.reported_runtimes().query("source == '§5.2'").set_index("method")
print(f"the paper (§5.2): {paper.loc['Fair PCA', 'seconds']} s / {paper.loc['Reductions', 'seconds']} s "
      f"= {paper.loc['Fair PCA', 'seconds'] / paper.loc['Reductions', 'seconds']:.4f}")

# %% [markdown]
#
# **At paper scale, from the ledger.** Every unit of the ledger records the training time of its whole curve at
# $n = 5000$, single-threaded, on the machine named in {numref}`Section %s <sec-tradeoff-ledger>`. The mean over
# the runs and both fairness notions, and each fair curve's time as a ratio to the reductions' on the same data
# set and classifier (these are stored numbers, so this table is the same wherever the chapter runs):

# %%
print(kleindessner_tradeoffs.curve_seconds(ledger).to_string())

# %% [markdown]
# **Fig. 9 here.** The cells below time the curves on this machine at the training sizes of the parameters
# (`make reproduce` runs them at the paper's sizes, 1 000 to 40 000 rows, 10 draws each).

# %% tags=["nbval-ignore-output"]
runtimes = kleindessner_tradeoffs.runtimes(runtime_n_train, dataset=datasets[0], methods=runtime_methods,
                                          n_runs=runtime_runs, first_run=seed, lambdas=runtime_lambdas,
                                          eps=runtime_eps, progress=progress)
timing = kleindessner_tradeoffs.runtime_summary(runtimes)
print(timing.round(4).to_string(index=False))

# %% [markdown]
# The paper's statements, to compare the ratios with:

# %%
print("paper (text of §5.2 and App. C.7):")
print(kleindessner_tradeoffs.reported_runtimes().to_string(index=False))

# %% mystnb={"figure": {"caption": "Our Fig. 9 of Kleindessner et al.: training time of a whole trade-off curve against the number of training rows (Adult, logistic regression, demographic parity, log scale), mean and standard deviation over the runs, on the machine that built this page. The table above gives each method's time as a ratio to the reductions'.", "name": "fig-tradeoff-runtime"}, "image": {"alt": "Line plot of seconds on a log scale against the number of training rows, one line per method. The reductions' line lies far above the Fair PCA and Fair PCA-S lines at every size."}} tags=["nbval-ignore-output"]
fig, ax = plt.subplots(figsize=(6.5, 3.6))
plot_runtime(timing, x="n_train", y="seconds", hue="method", logx=False, ax=ax)
for i, (method, df) in enumerate(timing.groupby("method", sort=False)):
    ax.errorbar(df.n_train, df.seconds, yerr=df.seconds_std, fmt="none", ecolor=f"C{i}", alpha=0.5)
ax.set_xlabel("training rows n")
ax.set_ylabel("whole-curve training time on this machine (s)")
ax.set_title("Fig. 9: running time vs n")
plt.show()

# %% [markdown]
# **Reading the comparison.** The gaps table gives, for every setting the ledger covers, how far each fair
# method's curve lies from the reductions' at matched violation, in the same units as the error; the verdicts
# above turn the paper's two claims about logistic regression into a pass or a fail, with the worst setting
# named. Fair kernel PCA under a logistic regression is the odd one out in the first table: its violation rounds
# to zero at every $\lambda$ while its error stays near the rate of the larger class, so the linear classifier
# finds almost nothing to use in its components — in line with the paper, which calls fair kernel PCA
# competitive only with the kernel SVM (Fig. 8). The kernel-SVM rows show the other side of that claim on Adult:
# under the kernel SVM, Fair PCA's smallest violation there lies far above its smallest under logistic regression.
# Its guarantee is about linear functions of the representation (equal group means, §3 of the paper), and a kernel
# SVM can recover the group from non-linear functions of the fair components; fair kernel PCA and Fair PCA-S still
# reach violations near zero there. On Bank, Fair PCA's smallest violation is near zero under both classifiers
# (the same table): whether a kernel SVM finds the group depends on the data. Whether Fair PCA-S and fair kernel
# PCA are *competitive* under the kernel SVM is judged by the kernel-SVM verdicts above, where the ledger holds the
# reductions' kernel-SVM curves (its section above prints which curves it holds; a setting without them is not
# judged). The timing table is §5.2's other claim, in ratios: a fair curve costs one
# representation and a few ordinary fits, the reductions one cost-sensitive problem per iteration and point.

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

# %% tags=["solution", "hide-input"]
from fairlab import exercises

paper_eps = [0.001, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2]
curves_paper_eps = kleindessner_tradeoffs.curves(datasets, methods=["Fair PCA", "Reductions"], fairness=fairness,
                                                 classifiers=classifiers, n_runs=3, n_train=n_train,
                                                 n_test=n_test, eps=paper_eps)
print(kleindessner_tradeoffs.gaps(curves_paper_eps).round(4).to_string())
exercises.check("ex-tradeoff-gap", curves_paper_eps)
