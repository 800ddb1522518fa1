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
# # Auditing a representation
#
# Every method of this book removes something: equal group means (Fair PCA), zero cross-covariance
# (LEACE), a small HSIC (FDR), a small covariance with the target kept (Fair PLS). After fitting one, a
# practitioner asks a simpler question: *is the sensitive attribute still in there?* This chapter answers
# it the way an attacker would. It trains several adversaries, linear and nonlinear, to recover the
# attribute from the representation, and reports each one's score with a confidence interval and the
# chance level beside it, together with two kernel tests of independence. It then audits the methods of
# this book on Adult and COMPAS, and removes a *continuous* attribute, age, which none of the three
# papers handles.
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. say what *linear guardedness* guarantees and what it does not, and build an example where a linear
#    eraser leaves the attribute fully recoverable;
# 2. run and read a leakage audit (`fairlab.metrics.leakage`): cross-validated adversaries, bootstrap
#    intervals, chance levels, permutation tests;
# 3. compare the methods of this book by what a nonlinear adversary still recovers;
# 4. remove a continuous attribute with `FairPCA(sensitive_type="continuous")` or
#    `FairKernelProjection`, and audit the result with $R^2$ adversaries.
#
# **Prerequisites.** {doc}`03_measuring_fairness` (linear guardedness, MMD², HSIC),
# {doc}`04_fair_pca_derivation` and {doc}`06_fair_kernel_pca` (Fair PCA and its kernel version), and
# {doc}`17_one_theory` (what each method provably removes). The statistics needed: cross-validation,
# the bootstrap and permutation tests, at the level of an introductory course.
#
# **Time.** About 45 minutes to read and work through; the notebook runs in {{ run_time_18 }} at its
# defaults.
#
# {{ run_it }}
# :::

# %% tags=["parameters"]
seed = 0               # seed of the data draws, the splits, the adversaries and the resampling
n_train = 2000         # training rows drawn from each data set (the methods are fitted on them)
n_test = 2000          # test rows drawn from each data set (the audit runs on their representation)
n_components = 5       # dimension k of every representation (COMPAS has 11 features)
cv = 5                 # folds of the adversaries' cross-validation
n_bootstrap = 200      # bootstrap draws of each adversary's score
n_permutations = 100   # permutations of each independence test
n_circle = 600         # rows of the toy example
adversaries = ["logistic", "rbf_svm", "gradient_boosting"]  # "mlp" too: slower, and its fits
                                                            # follow the BLAS kernel's last bits

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.decomposition import PCA

from fairlab import (
    FairKernelPCA,
    FairPCA,
    FairPLS,
    check_parameters,
    evaluation,
    metrics,
    published,
)
from fairlab.baselines import LEACE, RLACE
from fairlab.datasets import load_adult, load_compas, make_circle_counterexample
from fairlab.plotting import COLUMN_WIDTH, book_style, figure_legend, plot_leakage

check_parameters(globals(), seed=int, n_train=int, n_test=int, n_components=int, cv=int,
                 n_bootstrap=int, n_permutations=int, n_circle=int,
                 adversaries=(list, ["logistic", "rbf_svm", "mlp", "gradient_boosting"]))

book_style()
audit = dict(cv=cv, n_bootstrap=n_bootstrap, n_permutations=n_permutations, random_state=seed)

# %% [markdown]
# ## What a linear eraser guarantees
#
# Fair PCA, LEACE, INLP and R-LACE are *linear* erasers. LEACE's guarantee {cite}`belrose2023leace` is the
# sharpest form of what they aim at: after erasure, the representation has zero cross-covariance with the
# attribute, so **no linear classifier** trained on it does better than a constant predictor (for the
# losses of a large family). This is *linear guardedness*. It says nothing about a nonlinear classifier,
# and Ravfogel, Goldberg and Cotterell {cite}`ravfogel2023loglinear` show that even a multiclass
# log-linear model, built on top of a linearly guarded binary representation, can recover the attribute.
#
# The smallest example is Kleindessner et al.'s origin-versus-circle data ({doc}`06_fair_kernel_pca`):
# group 0 sits at the origin, group 1 on a circle around it. Both group means are the origin, so every
# linear projection already satisfies Fair PCA's constraint and LEACE has nothing to erase. The radius
# still tells the groups apart.

# %%
X_circle, z_circle = make_circle_counterexample(n_circle, noise=0.1, random_state=seed)
erased = LEACE().fit_transform(X_circle, sensitive_features=z_circle)
circle_audit = metrics.leakage(erased, z_circle, adversaries=adversaries, **audit)
published.reader_table(
    circle_audit.assign(method=circle_audit["method"].map(published.header_label),
                        measure=circle_audit["measure"].map(published.header_label))
    .set_index(["method", "measure"])[
        ["score", "ci_low", "ci_high", "chance", "p_value", "detected"]],
    decimals=3, title="Leakage audit of the circle data after LEACE",
    missing={"ci_low": "a permutation test has no bootstrap interval",
             "ci_high": "a permutation test has no bootstrap interval",
             "p_value": "an adversary is judged by its interval, not by a p-value"})

# %% [markdown]
# Each row is one way of looking for the attribute. Every row sees each column of the representation
# standardised robustly (by its median and interquartile range, a gross outlier read at a fence), so that an
# offset, a unit or one huge value cannot hide a leak. The **adversaries** are trained with `cv`-fold
# cross-validation on the audited rows, so every row is predicted by a model that never saw it. Their score
# is the balanced accuracy (the mean over groups of the share of a group's rows predicted correctly, chance
# $1/m$ whatever the group sizes) and, for two groups, the ROC AUC (chance ½). The interval is a bootstrap of
# the out-of-fold predictions, each side stretched by $\sqrt{1 + K/(K-1)}$ for $K$ folds, Nadeau and
# Bengio's correction for the variation of the fitted adversaries, which a bootstrap of fixed predictions
# does not see (without it, a 95 % interval covered chance on only about 82 % of independent data sets):
# it tells how precisely $n$ rows measure the score. An adversary *detects*
# leakage when its whole interval lies above chance. The two **permutation tests** compare the
# representation's MMD² between the groups and its HSIC with the attribute against their values under
# random relabelling; their *chance* is the mean of those permuted values, and they detect leakage
# when the p-value is below 5 %.
#
# Here the logistic adversary is at chance, as linear guardedness promises, while the RBF SVM and the
# gradient-boosted trees read the group off the radius, and both kernel tests reject independence.

# %% mystnb={"figure": {"caption": "Leakage audit of the origin-versus-circle data after LEACE: each adversary's cross-validated score (dot) with its bootstrap interval (bar) and the chance level (black tick). A filled dot marks an interval above chance.", "name": "fig-audit-circle"}, "image": {"alt": "Dot-and-interval plot with one row per adversary and measure. The logistic regression's balanced accuracy and ROC AUC sit at the chance level of one half with hollow markers; the RBF SVM and the gradient-boosted trees sit at about 0.9, far to the right of chance, with filled markers."}}
plot_leakage(circle_audit)
plt.show()

# %% [markdown]
# (sec-audit-real)=
# ## Auditing the methods of this book on Adult and COMPAS
#
# We now audit every representation method of the book on two real data sets, with sex (Adult) and race
# (COMPAS) as the attribute. Each method is fitted on `n_train` rows, maps `n_test` other rows to
# `n_components` dimensions, and the audit runs on that test representation, as an attacker who gets the
# released representation of new people would. The methods are PCA (the unfair reference), Fair PCA and
# Fair PCA-S {cite}`kleindessner2023efficient`, Fair kernel PCA with an RBF kernel, LEACE followed by PCA
# {cite}`belrose2023leace`, R-LACE {cite}`ravfogel2022linear`, and Fair PLS with $\eta = \infty$
# {cite}`dediego2025pls`, the only one that also sees the label. INLP {cite}`ravfogel2020null` is left
# out: its rounds of iterative linear classifiers carry the last bits of the BLAS kernel into clearly
# different projections, so its audit would differ from machine to machine.

# %%
methods = {
    "PCA": PCA(n_components),
    "Fair PCA": FairPCA(n_components),
    "Fair PCA-S": FairPCA(n_components, equalize_covariance=0.5),
    "Fair kernel PCA": FairKernelPCA(n_components, random_state=seed),
    "LEACE": LEACE(n_components),
    "R-LACE": RLACE(n_components, random_state=seed),
    "Fair PLS (η = ∞)": FairPLS(n_components, eta=np.inf),
}
data = {"Adult (sex)": load_adult(), "COMPAS (race)": load_compas()}
real_audits, real_splits = [], {}
for label, bunch in data.items():
    real_splits[label] = next(evaluation.repeated_splits(
        bunch.X, bunch.y, bunch.sensitive, n_splits=1, train_size=n_train, test_size=n_test,
        standardize=True, random_state=seed))
    real_audits.append(evaluation.audit_representations(
        methods, [real_splits[label]], adversaries=adversaries, tests=("hsic",), **audit
    ).assign(data=label))
real_audit = pd.concat(real_audits, ignore_index=True)

# %% [markdown]
# The table puts, for each data set and representation, the balanced accuracy of each adversary with its
# interval, and the HSIC test's p-value. A ✓ marks a detection (interval above chance, or p < 0.05).

# %%
published.reader_table(evaluation.format_audit(real_audit, by=["data", "representation"]),
                       title="Balanced accuracy of each adversary [95 % interval], HSIC test")

# %% mystnb={"figure": {"caption": "Balanced accuracy of three adversaries recovering sex from each test representation of Adult (left) and race from COMPAS (right), with bootstrap intervals; the black ticks mark chance (one half). A filled marker is an interval above chance.", "name": "fig-audit-real"}, "image": {"alt": "Two dot-and-interval panels, Adult on the left and COMPAS on the right, one row per representation and adversary (logistic regression, RBF SVM, gradient-boosted trees). PCA's rows lie well to the right of the chance tick; the rows of the fair methods lie closer to it, some touching it."}}
fig, axes = plt.subplots(1, 2, figsize=(COLUMN_WIDTH, 1.2 + 0.25 * len(adversaries) * len(methods)),
                         sharey=True)
for ax, (label, part) in zip(axes, real_audit.groupby("data", sort=False)):
    plot_leakage(part[part["measure"] == "balanced_accuracy"], ax=ax)
    ax.set_title(label, fontsize=10)
    ax.set_xlabel("balanced accuracy")
for ax in axes[1:]:
    ax.tick_params(axis="y", labelleft=False)
figure_legend(fig, axes, title="hollow: interval not above chance")
plt.show()

# %% [markdown]
# Reading the table row by row:
#
# - **PCA** keeps the attribute for every adversary: it never tried to remove it.
# - The **exact linear methods** (Fair PCA, Fair PCA-S, LEACE, Fair PLS with $\eta=\infty$) make the
#   training representation linearly guarded; on *new* rows the group means of the representation differ
#   again by sampling noise, so a logistic adversary can sit slightly above chance on the test rows.
#   Whatever a nonlinear adversary gains beyond the logistic one is leakage that linear guardedness leaves by
#   construction.
# - **Fair PCA-S** also equalises the group covariances in most directions, which removes part of what the
#   RBF SVM used.
# - **Fair kernel PCA** equalises the group means in the RBF feature space, a much larger family of
#   functions, but only of the training rows and only of the means.
# - **R-LACE** is approximate: its guarantee holds only to the accuracy of its adversarial game, and the
#   logistic adversary is the right first check for it.
#
# The representations that the logistic adversary reads at chance, and what the nonlinear ones read, come off
# the same table.

# %%
adv = real_audit[(real_audit["kind"] == "adversary") & (real_audit["measure"] == "balanced_accuracy")]
linear_ok = adv[(adv["method"] == "logistic") & ~adv["detected"]].set_index(["data", "representation"])
nonlinear = adv[adv["method"] != "logistic"].groupby(["data", "representation"])["detected"].any()
guarded = pd.DataFrame({"nonlinear adversary": nonlinear[linear_ok.index].map(
    {True: "detects the attribute", False: "at chance"})}, index=linear_ok.index)
published.reader_table(guarded.reset_index("representation").rename_axis("data"),
                       title="Representations the logistic adversary reads at chance")

# %% [markdown]
# (sec-audit-age)=
# ## A continuous attribute: age
#
# None of the three papers removes a continuous attribute, yet age is the attribute most anti-discrimination
# laws name besides sex and race. `FairPCA(sensitive_type="continuous")` ({ref}`sec-fpca-continuous`) makes
# every component uncorrelated with age, and `FairKernelPCA(sensitive_type="continuous")` does the same for
# the kernel components ({ref}`sec-fkpca-continuous`). The audit of a continuous attribute uses regression
# adversaries, scored by the out-of-fold $R^2$ (chance: 0), and an HSIC test with an RBF kernel on age, which
# also finds a non-monotone dependence. Age is dropped from Adult's features, so what remains is what the
# other features say about it.

# %%
adult = data["Adult (sex)"]
age_methods = {
    "PCA": PCA(n_components),
    "Fair PCA, age": FairPCA(n_components, sensitive_type="continuous"),
    "Fair kernel PCA, age": FairKernelPCA(n_components, sensitive_type="continuous",
                                          random_state=seed),
}
age_splits = evaluation.repeated_splits(adult.X.drop(columns="age"), adult.y,
                                        adult.X["age"].to_numpy(float), n_splits=1,
                                        train_size=n_train, test_size=n_test, standardize=True,
                                        random_state=seed)
age_audit = evaluation.audit_representations(
    age_methods, age_splits, adversaries=adversaries, tests=("hsic",), sensitive_type="continuous",
    **audit)
published.reader_table(evaluation.format_audit(age_audit),
                       title="Out-of-fold R² for age of each adversary [95 % interval], HSIC test")

# %% mystnb={"figure": {"caption": "Out-of-fold R\u00b2 of three regression adversaries predicting age from each test representation of Adult (age itself removed from the features), with bootstrap intervals; chance is 0 (black ticks).", "name": "fig-audit-age"}, "image": {"alt": "Dot-and-interval plot with one row per representation and adversary (ridge regression, RBF SVR, gradient-boosted trees). PCA's rows lie well to the right of zero; the rows of Fair PCA and fair kernel PCA with age lie closer to zero."}}
ax = plot_leakage(age_audit)
ax.set_xlabel("out-of-fold R² for age")
plt.show()

# %% [markdown]
# Fair PCA with age removes every linear trace of age on the training rows, so the ridge adversary can only
# use the sampling differences of new rows; what the nonlinear adversaries find beyond it is the part of age
# the representation encodes nonlinearly, which the HSIC test with an RBF kernel on age also sees. The
# kernel version removes the linear trace in the RBF feature space, a larger family of functions.
#
# ## What an audit can and cannot say
#
# An audit is evidence, not proof. A detection is proof that the attribute is recoverable (up to the
# interval's 5 % error); a non-detection only says that *these* adversaries, trained on *these* rows, did
# not find it. Larger samples shrink the intervals; stronger adversaries (an MLP, more trees, a tuned SVM)
# can find more. The guarantee of an eraser and the audit of its output answer different questions, and a
# report of a fair representation should give both: what the method removes by construction, and what an
# attacker still recovers.
#
# ## Exercises
#
# ```{exercise}
# :label: ex-audit-train-test
#
# Fair PCA's constraint holds exactly on the training rows. On Adult's split of
# {numref}`sec-audit-real`, fit `FairPCA(n_components)` on the training rows and compute the largest
# absolute difference between the two groups' means of a component, over the components, on the
# training representation and on the test representation. Give the pair (train gap, test gap). Then
# explain why the logistic adversary of the audit can sit above chance on the test rows.
# ```
#
# ```{solution} ex-audit-train-test
# :class: dropdown
#
# The training gap is at rounding level, the test gap is not (the cell below prints both). The
# constraint equalises the group means of the rows it was imposed on; the group means of new rows differ
# from each other by a sampling error of order $1/\sqrt{n_\text{test}}$ per direction, a small but real
# linear signal that a cross-validated adversary trained on enough test rows can detect. Linear
# guardedness is a property of the distribution the constraint was imposed on, here the empirical one.
# ```

# %% tags=["solution", "hide-input"]
from fairlab import exercises

adult_split = real_splits["Adult (sex)"]
fair = FairPCA(n_components).fit(adult_split.X_train, sensitive_features=adult_split.s_train)
gaps = []
for X_part, s_part in [(adult_split.X_train, adult_split.s_train),
                       (adult_split.X_test, adult_split.s_test)]:
    E = fair.transform(X_part)
    gaps.append(float(np.abs(E[s_part == 1].mean(axis=0) - E[s_part == 0].mean(axis=0)).max()))
print(f"train gap below 1e-10: {gaps[0] < 1e-10}; test gap: {gaps[1]:.3f}")
exercises.check("ex-audit-train-test", gaps)

# %% [markdown]
# ```{exercise}
# :label: ex-audit-mlp
#
# Add `"mlp"` to the adversaries and rerun the Adult audit. Does the MLP find more than the RBF SVM? Rerun
# the cell under another OpenBLAS kernel (`OPENBLAS_CORETYPE=Sandybridge`) and compare the MLP's scores.
# What does that suggest about using an MLP in a reproducible audit?
# ```
#
# ```{solution} ex-audit-mlp
# :class: dropdown
#
# The MLP is trained by L-BFGS from a seeded start; its loss surface is non-convex, so the last bits of the
# matrix products, which depend on the BLAS kernel, can send it to a different local minimum and change its
# predictions on some rows. Its score therefore moves slightly between machines while the SVM's (libsvm,
# no BLAS) and the trees' do not. An audit meant to be reproduced to the printed digit uses adversaries whose
# fits do not depend on the BLAS kernel, or reports the MLP with the spread over several seeds.
# ```
#
# ```{exercise}
# :label: ex-audit-guardedness
#
# Construct a representation that is linearly guarded with respect to a *three*-group attribute (every
# group has the same mean) but from which a multinomial logistic regression on the squared coordinates
# recovers the group. Relate your construction to the result of Ravfogel, Goldberg and Cotterell
# {cite}`ravfogel2023loglinear`.
# ```
#
# ```{solution} ex-audit-guardedness
# :class: dropdown
#
# Take one coordinate $x = \sigma_g \varepsilon$ with $\varepsilon$ standard normal and three different
# spreads $\sigma_1 < \sigma_2 < \sigma_3$: every group mean is 0, so $x$ is linearly guarded, but $x^2$ has
# group means $\sigma_g^2$, and a multinomial logistic regression on $x^2$ separates the groups above chance.
# Ravfogel et al. show the subtler fact that even without such a feature map, a *multiclass* log-linear
# model on a representation that is guarded against *binary* log-linear classifiers can still recover the
# attribute; guardedness is a property of the family of adversaries, and a richer family needs a stronger
# guarantee.
# ```
