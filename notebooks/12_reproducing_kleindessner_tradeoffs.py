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
# **Time.** About 30 minutes to read and work through; the notebook runs in {{ run_time_12 }} at its defaults
# (paper scale, `make reproduce`: more than a day on two cores, almost all of it the reductions).
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
#   for equal opportunity the representations are learned from the training rows with $y = 1$;
# * reductions: fairlearn's `ExponentiatedGradient` around the same classifier with `DemographicParity` or
#   `TruePositiveRateParity` and `difference_bound` $\varepsilon \in \{0.001, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05,
#   0.07, 0.1, 0.15, 0.2\}$;
# * classifiers: `LogisticRegression(C = 1/(2 n 0.01))` ($C = 0.01$ at $n = 5000$) and
#   `SVC(C = 2, gamma = 1/(d Var X_train))`;
# * metrics on the test rows: error $P(\hat y \ne y)$, $\Delta_\text{DP} = |P(\hat y = 1|z=0) - P(\hat y = 1|z=1)|$,
#   $\Delta_\text{EO} = |\text{TPR}_0 - \text{TPR}_1|$.
#
# The committed outputs are at a reduced scale (Adult, logistic regression, one run, 2 000 training rows, four
# values of $\varepsilon$); the parameters restore the paper's, and `make reproduce` runs it.

# %% tags=["parameters"]
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

from fairlab.experiments import kleindessner_tradeoffs, write_results_csv
from fairlab.plotting import book_style, figure_legend, panel_grid, plot_runtime, plot_tradeoff

book_style()
print("λ grid of the fair curves:", list(kleindessner_tradeoffs.LAMBDAS))

# %% [markdown]
# ## The data
#
# One draw per data set, the training and test rows and the base rates. Adult's positive rate (income above
# 50K) is about 24 %, its men about two thirds (the paper's App. C.2: 23.9 % and 66.8 %).

# %%
pd.DataFrame([{"dataset": name, "d": sp.X_train.shape[1], "train rows": len(sp.y_train),
               "test rows": len(sp.y_test), "P(y=1), test": round(float(sp.y_test.mean()), 2),
               "P(z=1), test": round(float(sp.s_test.mean()), 2)}
              for name in datasets
              for sp in kleindessner_tradeoffs.load_splits(name, n_runs=1, n_train=n_train, n_test=n_test,
                                                     first_run=seed)]
             ).set_index("dataset")

# %% [markdown]
# ## Figures 4 and 8: the trade-off curves
#
# One call computes every curve: for each data set, run, fairness notion, classifier and method, the error and
# the violation on the test rows at each value of $\lambda$ (fair methods) or $\varepsilon$ (reductions), and the
# training time of each point. The fair and the standard representations are fitted **once per curve** and only
# the standard block is rescaled for each $\lambda$ (`FairTradeoff`'s fit does not depend on $\lambda$;
# `reuse_fit=False` refits them for every point and gives the same representations, a test checks it).
#
# Every number below is a count of test points divided by a count (an error, a difference of rates), so it is
# the same on every machine as long as the predictions are, and they are: the notebook tests compare this table
# under two OpenBLAS kernels. One case needed care. For equal opportunity the representations are learned from the
# positive training rows only, on which some one-hot columns of Adult are constant, and among Fair PCA-S's $l$
# directions fewer have non-zero variance on those rows than the $k$ components it returns. The remaining
# components have zero variance there, so any choice is optimal for the fit, but not for the classifier, which
# sees all rows; an eigensolver's choice followed the BLAS kernel and moved Fair PCA-S's equal-opportunity curve.
# `FairPCA` now takes them by a fixed rule (the coordinate axes projected onto that subspace, in feature order;
# see its `equalize_covariance` parameter).

# %%
curves = kleindessner_tradeoffs.curves(datasets, methods=methods, fairness=fairness, classifiers=classifiers,
                                      n_runs=n_runs, n_train=n_train, n_test=n_test, first_run=seed, eps=eps,
                                      progress=progress)
curves.groupby(["dataset", "fairness", "classifier", "method"], sort=False)[["error", "violation"]].agg(
    ["min", "max"]).round(3)

# %% [markdown]
# Each panel draws both kinds of curve, as the paper does (it plots accuracy; we plot the error, so lower is
# better on both axes and the good corner is the bottom left). Points are averaged over the runs; the labels give
# the two ends of each curve's parameter.

# %% mystnb={"figure": {"caption": "Our Figs. 4 and 8 of Kleindessner et al. at the chapter's default scale: test error against the fairness violation for Fair PCA and Fair PCA-S with the knob \u03bb (each point a logistic regression trained on the representation) and for fairlearn's exponentiated-gradient reduction over its bound \u03b5, one panel per data set, fairness notion and classifier. Fair PCA's curve and the reductions' lie in the same region; Fair PCA-S, with a quarter of the dimensions, pays a higher error at every violation.", "name": "fig-tradeoff-curves"}, "image": {"alt": "Panels side by side, one per fairness notion (demographic parity, equal opportunity) on Adult with logistic regression. In each, test error on the vertical axis (about 0.17 to 0.25) against the violation on the horizontal axis (0 to 0.14 for demographic parity, 0 to 0.3 for equal opportunity). The Fair PCA curve runs from a small violation at lambda 0 to a larger one at lambda 1 with the error falling slightly, and the reductions' points lie on or next to it; the Fair PCA-S curve starts far higher, at an error near 0.25, and falls towards 0.18 to 0.19 as its violation grows."}}
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
# The two claims of §5.2 about the curves, judged on these gaps by `kleindessner_tradeoffs.verdicts` (the
# criterion is part of the printed claim; gaps in percentage points of error):

# %%
for row in kleindessner_tradeoffs.verdicts(gaps).itertuples():
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
# Where the time goes: on Adult at $n = 5000$ with single-threaded BLAS, `make bench` measured the reductions'
# 11-point curve at 12.4 s on an otherwise idle two-core machine (1.1 s per point: each point runs up to 50
# reweighted logistic regressions). The fair PCA curve took 0.52 s when everything is refitted for every
# $\lambda$ (the paper's pipeline; ratio 0.042), 0.22 s with fair PCA and PCA fitted once and reused (0.018), and
# 0.19 s when, in addition, each $\lambda$'s logistic regression starts from the previous $\lambda$'s weights
# (**0.015, 67× faster**). On the same machine under load the ratios were 0.031, 0.012 and 0.0093 (108×): the
# reductions suffer more from a busy machine than the fair curve does. On a faster two-core machine the latest
# `make bench` run gave 0.12 s against 5.3 s (**0.023, 44×**): the reductions gained more from the faster processor
# than the eleven logistic regressions did, and the goal of 0.01 is missed there by more than twice. The paper's
# 0.04 s against 4.6 s is 0.0087.
# What remains of the fair curve is eleven logistic regressions on $2(d-1) = 196$ columns; the reductions solve
# several hundred of them on $d = 99$ columns.
#
# **At paper scale.** The paper's Fig. 9 settings (DP, logistic regression, both 11-point grids, 10 draws per
# size, one BLAS thread, the same two-core machine with another single-threaded job on its second core) gave,
# as whole-curve seconds, mean over the draws, and ratio to the reductions:
#
# | $n$ | Fair PCA | Fair PCA-S | reductions | Fair PCA / reductions | Fair PCA-S / reductions |
# |---|---|---|---|---|---|
# | 1 000 | 0.09 | 0.07 | 11.6 | 0.0078 | 0.0061 |
# | 5 000 | 0.28 | 0.14 | 12.9 | 0.022 | 0.011 |
# | 10 000 | 0.77 | 0.22 | 20.9 | 0.037 | 0.011 |
# | 20 000 | 1.53 | 0.42 | 38.9 | 0.039 | 0.011 |
# | 30 000 | 2.29 | 0.63 | 59.9 | 0.038 | 0.011 |
# | 40 000 | 2.97 | 0.96 | 77.1 | 0.039 | 0.012 |
#
# The paper's two statements hold: no point of a fair curve took more than 0.5 s (at most 0.32 s, Fair PCA at
# $n = 40\,000$), and the reductions' points took 7.0 s on average at $n = 40\,000$ (the paper: more than 32 s).
# The ratios are smaller than the paper's because the reductions became faster on this software stack than
# the fair pipeline did: 1.17 s per point at $n = 5000$ against the paper's 4.6 s, while a Fair PCA point
# costs 0.026 s here against 0.04 s. Fair PCA's curve grows faster with $n$ than Fair PCA-S's because its
# classifier sees $2(d-1) = 196$ columns, Fair PCA-S's only $2\lfloor d/4\rfloor = 48$: at large $n$ the eleven
# logistic regressions, not the representation, are the cost.

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
# **Reading the comparison.** At the default scale Fair PCA's curve and the reductions' lie within a fraction of
# a percentage point of error of each other over the violations they both reach, the paper's "similar curves".
# Fair PCA-S keeps only a quarter of the dimensions and pays for it with a higher error, as in the paper's
# Fig. 8, where it is competitive only with the kernel SVM. For equal opportunity both Fair PCA and the
# reductions stay at small violations over their whole parameter range ($\Delta_\text{EO}$ below 0.06), so the
# curves there are short and the errors differ by tenths of a point. The timing is what §5.2 reports, in ratios:
# the fair curves cost one to two hundredths of the reductions' at every size of the default figure, because a fair curve
# costs one representation and a few ordinary fits, the reductions one cost-sensitive problem per iteration and
# point.
#
# **The settings the defaults leave out**, one draw each at the paper's $n = 5000$ (run with the parameters of
# `make reproduce`): on **Bank** with logistic regression, Fair PCA's mean gap to the reductions is $-0.15$ (DP)
# and $-0.17$ (EO) points of error, slightly *better* at matched violation, and Fair PCA-S's $+0.55$ and
# $+1.08$ points. On **Adult with the kernel SVM** (DP), Fair PCA's curve stays at $\Delta_\text{DP}$ between
# 0.14 and 0.15: its guarantee is linear, and a kernel SVM recovers the group from non-linear functions of
# the fair components. Fair kernel PCA does reach small violations (0.001 to 0.067), but at 4.2 points more
# error than the reductions at matched violation, so on this draw it is *not* competitive with them, unlike
# the paper's Fig. 8. The whole kernel-SVM curves took 22 s (Fair PCA), 55 s (fair kernel PCA) and 946 s
# (reductions).

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
