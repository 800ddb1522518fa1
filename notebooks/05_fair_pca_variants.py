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
# # Fair PCA variants: groups, attributes, equal opportunity, covariances, and the λ knob
#
# The previous chapter derived fair PCA for one binary attribute. The same null-space argument extends in
# several directions {cite}`kleindessner2023efficient`: more than two groups (§3.4, the paper's Algorithm 2), several
# attributes at once (§3.5), equal opportunity instead of demographic parity (§3.2), a higher-order variant that
# also equalises group covariances (§3.6, "Fair PCA-S"), and a knob $\lambda$ that trades accuracy for fairness
# (§3.1). All of them are options of `fairlab.FairPCA` or a composition with `fairlab.FairTradeoff`.
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. fit fair PCA for several groups and for several attributes at once, and state the largest feasible $k$ in each case;
# 2. choose between demographic parity and equal opportunity (`fairness=`) and check which group means the representation equalises;
# 3. use Fair PCA-S (`equalize_covariance=l`) to hide differences in spread from a non-linear classifier, and say what it costs;
# 4. trace an accuracy–fairness curve with `FairTradeoff` and `fairlab.evaluation.sweep`.
#
# **Prerequisites.** {doc}`04_fair_pca_derivation` (fair PCA as PCA on a null space) and {doc}`03_measuring_fairness` ($\Delta_{DP}$ and trade-off curves); the rank of a matrix and the eigenvectors of a symmetric matrix.
#
# **Time.** About 45 minutes to read and work through; the notebook runs in {{ run_time_05 }} at its defaults.
#
# {{ run_it }}
# :::

# %% tags=["parameters"]
n_samples = 900            # rows of the synthetic examples (sections 5.1-5.3)
n_features = 8             # dimension d of the synthetic examples
fig1_per_group = 500       # points per group in the example of the paper's Figure 1
fig1_l = 5                 # l of Fair PCA-S in that example: floor(0.5 d)
tradeoff_dataset = "adult" # "adult" (UCI Adult, §5.2 encoding) or "german"
n_train = 2000             # training rows per split for the trade-off curve (paper: 5000)
n_test = 2000              # test rows per split (paper: 5000)
n_splits = 3               # random splits (paper: 10)
seed = 0                   # random seed

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import display
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.svm import SVC

from fairlab import FairPCA, FairTradeoff, check_parameters, metrics, published
from fairlab.datasets import load_adult, load_german, make_covariance_mismatch
from fairlab.evaluation import classifier_score, repeated_splits, summarize, sweep
from fairlab.metrics import reconstruction_error
from fairlab.plotting import book_style, plot_embedding, plot_tradeoff

check_parameters(globals(), n_samples=int, n_features=int, fig1_per_group=int, fig1_l=int,
                 tradeoff_dataset=["adult", "german"], n_train=int, n_test=int, n_splits=int,
                 seed=int)

book_style()
rng = np.random.default_rng(seed)

# %% [markdown]
# ## More than two groups (the paper's Algorithm 2)
#
# With $m$ groups the single centred indicator becomes the $n\times m$ matrix $\tilde Z$ of centred one-hot
# columns, and the constraint $\tilde Z^\top X U = 0$ says that **every** group has the same projected mean
# (equal to the overall mean). Since $\operatorname{rank}\tilde Z = m-1$, the feasible set is non-empty for
# $k \le d-m+1$. For $m=2$ the two columns of $\tilde Z$ are negatives of each other and the paper's
# Algorithm 2 is its Algorithm 1 ({prf:ref}`alg-fair-pca`).
#
# Here three groups with different means; `FairPCA` accepts any labels.

# %%
groups = rng.choice(["a", "b", "c"], size=n_samples, p=[0.5, 0.3, 0.2])
group_means = {"a": 0.0, "b": 2.0, "c": -1.5}
direction = rng.normal(size=n_features)
X = rng.normal(size=(n_samples, n_features)) * np.linspace(3, 1, n_features)
X += np.array([group_means[g] for g in groups])[:, None] * direction

fair3 = FairPCA(3).fit(X, sensitive_features=groups)
components = [f"component {j + 1}" for j in range(3)]
means = pd.concat({"Fair PCA": pd.DataFrame(fair3.transform(X), columns=components).groupby(groups).mean(),
                   "PCA": pd.DataFrame(PCA(3).fit_transform(X), columns=components).groupby(groups).mean()})
largest = np.abs(means.loc["Fair PCA"].to_numpy()).max()
published.reader_table(means.rename_axis(["method", "group"]), decimals=3,
                       title="Projected group means, m = 3 groups",
                       note="Fair PCA's group means are all below 10⁻⁸ in size." if largest < 1e-8
                       else f"Fair PCA's largest group mean in size: {largest:.1e}.")

# %% [markdown]
# The bound is enforced up front, with the reason:

# %%
try:
    FairPCA(n_components=n_features - 1).fit(X, sensitive_features=groups)
except ValueError as err:
    print(err)

# %% [markdown]
# ## Several attributes at once (§3.5)
#
# With $p$ attributes, attribute $r$ having $m_r$ groups, stack their $\tilde Z_r$ side by side. The constraint
# equalises the projected means of the groups **of each attribute separately**, and is feasible for
# $k\le d-\sum_r m_r + p$. Pass the attributes as the columns of a DataFrame (or a 2-D array).
#
# Note what is *not* promised: the groups of the *intersections* (e.g. "sex = 1 and region = b") are not
# constrained, and their projected means can differ. To protect intersections, pass the intersection as one
# attribute with $\prod_r m_r$ groups.

# %%
S = pd.DataFrame({"sex": rng.integers(0, 2, n_samples),
                  "region": rng.choice(["north", "south", "east"], n_samples)})
effect = 1.5 * S["sex"].to_numpy()[:, None] * rng.normal(size=n_features)
effect += (S["region"] == "south").to_numpy()[:, None] * rng.normal(size=n_features)
effect += 1.5 * (S["sex"].to_numpy() * (S["region"] == "east").to_numpy())[:, None] * rng.normal(size=n_features)
X2 = rng.normal(size=(n_samples, n_features)) + effect

fair_multi = FairPCA(2).fit(X2, sensitive_features=S)
E2 = pd.DataFrame(fair_multi.transform(X2), columns=["u0", "u1"])
print("largest feasible k:", n_features - (2 + 3) + 2)
for col in S.columns:
    gap = E2.groupby(S[col]).mean().pipe(lambda m: (m - m.mean()).abs().to_numpy().max())
    print(f"group means of {col!r} equal (to 1e-10):", bool(gap < 1e-10))
inter = E2.groupby([S["sex"], S["region"]]).mean()
print("max deviation over the 6 intersections:", round(float((inter - E2.mean()).abs().to_numpy().max()), 2))

# %% [markdown]
# (sec-fpca-continuous)=
# ## A continuous attribute: age
#
# The paper constrains groups, and its code takes a binary $z$. Yet the constraint never needed groups:
# $\tilde z^\top X U = 0$ says that every component has **zero covariance** with the centred attribute
# $\tilde z$. For a continuous attribute $s$ (age, income) the same sentence defines fair PCA: replace
# $\tilde z$ by $\tilde s = s - \bar s\mathbf 1$, one constraint per column,
#
# $$
# \max_{U^\top U = I_k} \operatorname{tr}(U^\top X^\top X U)
# \quad\text{s.t.}\quad \tilde S^\top X U = 0 ,
# $$
#
# solved by the same null-space argument, feasible for $k \le d - \operatorname{rank}(X^\top\tilde S)$. In
# `fairlab` this is `FairPCA(sensitive_type="continuous")`, and a DataFrame of mixed attributes takes one
# type per column. A two-valued column gives exactly the categorical fit either way: its centred indicator
# and the centred column span the same line.
#
# On Adult, age is a feature of the data; we drop it and ask Fair PCA to remove what the *other* features
# say about it linearly (marital status, relationship, hours of work all covary with age).

# %%
adult_age = load_adult()
rows = np.random.default_rng(seed).choice(len(adult_age.y), n_train, replace=False)
X_age = adult_age.X.drop(columns="age").to_numpy(float)[rows]
X_age = (X_age - X_age.mean(axis=0)) / np.where(X_age.std(axis=0) > 0, X_age.std(axis=0), 1.0)
age = adult_age.X["age"].to_numpy(float)[rows]
sex = adult_age.sensitive.to_numpy()[rows]
k_age = 10
fits = {
    "PCA": PCA(k_age).fit(X_age),
    "Fair PCA, sex": FairPCA(k_age).fit(X_age, sensitive_features=sex),
    "Fair PCA, age": FairPCA(k_age, sensitive_type="continuous").fit(X_age, sensitive_features=age),
    "Fair PCA, sex and age": FairPCA(k_age, sensitive_type=["categorical", "continuous"]).fit(
        X_age, sensitive_features=pd.DataFrame({"sex": sex, "age": age})),
}
rows_out = []
for name, est in fits.items():
    E = est.transform(X_age)
    rows_out.append({"representation": name,
                     "variance kept (%)": round(100 * metrics.explained_variance(X_age, est.components_), 1),
                     "Σ corr² with age": round(metrics.cov2(E, age, sensitive_type="continuous",
                                                            standardize=True), 3),
                     "Σ corr² with sex": round(metrics.cov2(E, sex, standardize=True), 3)})
pd.DataFrame(rows_out).set_index("representation")

# %% [markdown]
# The table gives the variance each representation keeps and the sum over its ten components of their
# squared correlations with each attribute (`metrics.cov2` with both sides standardised). Removing an
# attribute costs some variance; the correlations with the removed attribute fall to rounding level (0.0
# at three decimals), and the mixed fit removes both. A binary attribute read as a
# number gives the same components as read as groups:

# %%
as_groups = FairPCA(k_age).fit(X_age, sensitive_features=sex)
as_number = FairPCA(k_age, sensitive_type="continuous").fit(X_age, sensitive_features=sex.astype(float))
print("components equal to 1e-12:",
      bool(np.abs(as_groups.components_ - as_number.components_).max() < 1e-12))

# %% [markdown]
# Zero covariance is *linear* guardedness: no linear function of the components predicts age better than a
# constant. A nonlinear one may still do better; {doc}`18_auditing_a_representation` measures how much.

# %% [markdown]
# ## Equal opportunity (§3.2)
#
# Demographic parity asks the *prediction* to be independent of the group; equality of opportunity asks this
# only among the positives ($y = 1$). The paper's adaptation is simple: run fair PCA on the rows with $y=1$ only.
# The representation then has equal group means **among the positives**, and any downstream model sees, on
# the positives, a representation whose first moment does not depend on the group.
#
# `FairPCA(fairness="equal_opportunity")` does exactly this (the rows with `y == pos_label`); `fit` then needs `y`.

# %%
s3 = rng.integers(0, 2, n_samples)
y3 = (rng.random(n_samples) < np.where(s3 == 1, 0.6, 0.3)).astype(int)  # base rates differ
X3 = rng.normal(size=(n_samples, n_features)) + np.outer(s3 + y3, rng.normal(size=n_features))

rows = []
for mode in ["demographic_parity", "equal_opportunity"]:
    E3 = FairPCA(2, fairness=mode).fit(X3, y3, sensitive_features=s3).transform(X3)
    gap_all = metrics.mean_gap(E3, s3)
    pos = y3 == 1
    gap_pos = metrics.mean_gap(E3[pos], s3[pos])
    rows.append({"fairness": mode.replace("_", " "), "mean gap, all rows": gap_all,
                 "mean gap, y = 1": gap_pos})
published.reader_table(pd.DataFrame(rows).set_index("fairness"), decimals=4,
                       title="Distance between the groups' mean embeddings")

# %% [markdown]
# (sec-fpca-s)=
# ## Equalising covariances too: Fair PCA-S (§3.6, the paper's Figure 1)
#
# Equal means are all that linear functions can see, but a non-linear classifier also sees the *spread*. If
# the group covariances $\Sigma_0, \Sigma_1$ differ, fair PCA can leave the groups perfectly separable by a
# quadratic rule. Adding the constraint $U^\top(\Sigma_0-\Sigma_1)U = 0$ is often infeasible, so the paper
# approximates: inside the fair subspace $R$, keep only the $l$ directions in which the covariance gap is
# smallest, the eigenvectors of $R^\top(\Sigma_0-\Sigma_1)R$ with the smallest **absolute** eigenvalues, and
# run PCA inside them. Smaller $l$ equalises more; $l=d-1$ is plain fair PCA. `FairPCA(equalize_covariance=l)`
# takes an integer $l$, or a fraction $f$ meaning $l=\max(k,\lfloor f d\rfloor)$ as in the paper's
# "Fair PCA-S (0.5)" and "(0.85)". `fairlab` uses a dense symmetric eigensolver sorted by $|\lambda|$ (the
# reference code's ARPACK `'SM'` mode returns the same subspace, only more slowly).
#
# Figure 1 of the paper: $d=10$, group 1 stretched by a $3\times3$ block, $k=2$, $l=5$, both groups centred at
# $0$, so the mean constraint is void and fair PCA is just PCA. For each representation the table gives
# the accuracy of an RBF support vector machine predicting the group (5-fold cross-validated; 0.5 is
# chance), the gap $\lVert\hat\Sigma_0-\hat\Sigma_1\rVert_F$ between the groups' covariances in the
# representation, and the reconstruction error $\lVert X-XUU^\top\rVert_F$.

# %%
Xf, zf = make_covariance_mismatch(fig1_per_group, 10, random_state=seed)
fair_f = FairPCA(2, center=False).fit(Xf, sensitive_features=zf)
fair_s = FairPCA(2, center=False, equalize_covariance=fig1_l).fit(Xf, sensitive_features=zf)

rows = []
for name, est in [("Fair PCA", fair_f), (f"Fair PCA-S (l = {fig1_l})", fair_s)]:
    Ef = est.transform(Xf)
    rows.append({
        "method": name,
        "RBF-SVM accuracy": cross_val_score(SVC(), Ef, zf, cv=5).mean(),
        "‖Σ̂₀ − Σ̂₁‖, Frobenius": metrics.covariance_gap(Ef, zf),
        "‖X − XUUᵀ‖, Frobenius": np.sqrt(len(Xf) * reconstruction_error(Xf, est.components_)),
    })
published.reader_table(pd.DataFrame(rows).set_index("method"),
                       title="The paper's Figure 1 data: group accuracy, covariance gap, reconstruction")

# %% mystnb={"figure": {"caption": "The paper's Figure 1 data in two dimensions: Fair PCA (left) and Fair PCA-S with $l = 5$ (right). With equal means only, group 0 stays a narrow stripe inside group 1's wide cloud; Fair PCA-S also equalises the spreads.", "name": "fig-fpca-variants-covariances"}, "image": {"alt": "Two scatter plots coloured by group. Left, Fair PCA: group 0 forms a thin vertical stripe at component 1 near 0 while group 1 spreads from -60 to 50. Right, Fair PCA-S: both groups form the same round cloud of radius about 3."}}
fig, axes = plt.subplots(1, 2, figsize=(6.8, 3.4))
plot_embedding(fair_f.transform(Xf), zf, ax=axes[0], alpha=0.5, s=8, legend=False)
axes[0].set_title("Fair PCA (equal means)")
plot_embedding(fair_s.transform(Xf), zf, ax=axes[1], alpha=0.5, s=8)
axes[1].set_title(f"Fair PCA-S, l = {fig1_l}\n(means and covariances)")
plt.show()

# %% [markdown]
# Fair PCA-S pays in reconstruction error for a representation in which even an RBF support vector machine
# is at chance.
#
# **More than two groups.** The paper defines Fair PCA-S for two groups. `fairlab` extends it with a rule that
# reduces to the paper's for $m=2$: with $T_g = R^\top(\Sigma_g-\bar\Sigma)R$, $\bar\Sigma=\sum_g \frac{n_g}{n}\Sigma_g$, keep
# the $l$ smallest eigenvectors of $S=\sum_g \frac{n_g}{n}T_g^2$. They minimise $\sum_g \frac{n_g}{n}\lVert T_g E\rVert_F^2$,
# an upper bound on the projected covariance gaps $\sum_g\frac{n_g}{n}\lVert E^\top T_g E\rVert_F^2$; for two groups
# $S \propto (R^\top(\Sigma_0-\Sigma_1)R)^2$, whose smallest eigenvectors are those of smallest $|\lambda|$.

# %%
g4 = rng.integers(0, 3, n_samples)
scales = np.ones((3, n_features))
scales[:, :3] = [[1.0, 1.0, 1.0], [3.0, 0.5, 2.0], [0.3, 3.0, 1.0]]  # groups differ in 3 coordinates
X4 = rng.normal(size=(n_samples, n_features)) * scales[g4]
print("majority-group share (chance level):", round(float(np.bincount(g4).max() / n_samples), 2))
rows = []
for name, est in [("Fair PCA", FairPCA(2)), ("Fair PCA-S (l = 3)", FairPCA(2, equalize_covariance=3))]:
    E4 = est.fit(X4, sensitive_features=g4).transform(X4)
    gap = metrics.covariance_gap(E4, g4, reference="all")
    rows.append({"method": name,
                 "RBF-SVM accuracy": cross_val_score(SVC(), E4, g4, cv=5).mean(),
                 "covariance gap, summed over the groups": gap})
published.reader_table(pd.DataFrame(rows).set_index("method"), title="Three groups",
                       note="A group's covariance gap: the Frobenius norm of its covariance less "
                            "that of all rows, in the representation.")

# %% [markdown]
# ## The accuracy–fairness knob λ (§3.1)
#
# Fair PCA either removes the group's linear information or it does not. To get a curve, the paper concatenates
# the fair representation with a down-weighted standard one,
# $x\mapsto\bigl(U_\text{fair}^\top x;\ \lambda\,U_\text{st}^\top x\bigr)\in\mathbb R^{2k}$. A regularised model pays
# $\lVert w_2\rVert^2/\lambda^2$ to exploit the second block, so small λ keeps it approximately fair and $\lambda=1$
# gives it everything standard PCA knows. `FairTradeoff(FairPCA(k), PCA(k), lam=λ)` implements this. The reference
# code multiplies by $\lambda^3$ and sweeps $\lambda\in\{0, 0.1, \dots, 1\}$; we sweep the weights $(i/10)^3$
# directly, the same points.
#
# The setting follows §5.2 at a smaller scale (see the parameters): UCI Adult with the paper's encoding
# (sex is the sensitive attribute, 99 one-hot features), random train/test splits standardised with the
# training statistics, $k=d-1$, and logistic regression with $C = 1/(2\,n_\text{train}\cdot 0.01)$. Each point is
# the mean over the splits of the test accuracy and the test $\Delta_\text{DP}$.
# Each split needs `n_train + n_test` distinct rows; a smaller data set caps them (German credit has 1000
# rows: at most half of the rows train, the rest test, so 500 + 500), and the cell prints the sizes it used.

# %%
data = load_adult(variant="agarwal") if tradeoff_dataset == "adult" else load_german(variant="pls")
n_rows = len(data.y)
train_rows = min(n_train, n_rows // 2)        # capped by the size of the data set
test_rows = min(n_test, n_rows - train_rows)
if (train_rows, test_rows) != (n_train, n_test):
    print(f"{tradeoff_dataset} has {n_rows} rows: {train_rows} train + {test_rows} test per split")
splits = list(repeated_splits(data.X, data.y, data.sensitive, train_size=train_rows,
                              test_size=test_rows, seeds=[1111 * r for r in range(n_splits)],
                              standardize=True))
k = data.X.shape[1] - 1
lams = [(i / 10) ** 3 for i in range(11)]
clf = LogisticRegression(C=1 / (2 * train_rows * 0.01), max_iter=10_000)
curve = sweep(lambda lam: FairTradeoff(FairPCA(k), PCA(k), lam=lam), "lam", lams, splits,
              score=classifier_score(clf))
table = summarize(curve, by="lam", columns=["accuracy", "dp_violation"])
published.reader_table(table.set_axis(table.index.round(3)).rename_axis("λ"), decimals=3,
                       title=f"{tradeoff_dataset.capitalize()}: test accuracy and ΔDP against λ, over the splits")

# %% mystnb={"figure": {"caption": "Accuracy against demographic-parity violation of logistic regression on the concatenation of the fair and the $\\lambda$-weighted standard representation (mean and \u00b11 std over the splits). Raising $\\lambda$ moves along the curve from fair to accurate.", "name": "fig-fpca-variants-tradeoff"}, "image": {"alt": "A line plot with demographic-parity violation on the horizontal axis and accuracy on the vertical axis; eleven points with error bars rise from about 0.02 violation and 0.83 accuracy at lambda 0 to about 0.14 violation and 0.844 accuracy at lambda 1."}}
fig, ax = plt.subplots(figsize=(6.8, 3.6))
plot_tradeoff(curve.assign(method="Fair PCA + λ·PCA"), param="lam", ax=ax)
ax.set_title(f"{tradeoff_dataset}: logistic regression on [fair, λ·standard]")
plt.show()

# %% [markdown]
# At $\lambda=0$ the classifier sees only the fair block and its demographic-parity violation is small; as λ grows
# it recovers the accuracy (and the unfairness) of standard PCA, along a smooth curve. Because the knob is a
# post-hoc composition, any fair/standard pair works, e.g. `FairKernelPCA` with scikit-learn's `KernelPCA`.
#
# ## Exercises
#
# ```{exercise}
# :label: ex-variants-eo
#
# Why does equal opportunity fit fair PCA on the positives only, rather than constraining the means of the
# four cells (group × label)? What would constraining all four cells guarantee, and what would it cost?
# ```
#
# ```{solution} ex-variants-eo
# :class: dropdown
#
# Equality of opportunity only constrains $P(\hat Y = 1\mid Z, Y=1)$: among the positives, the prediction must not
# depend on the group. Fitting on the rows with $y=1$ equalises exactly the group means of the positives and uses the
# whole remaining budget of $d-1$ directions for approximation. Constraining all four cells (the attribute
# "group × label" with one constraint per label) would give equal group means among the positives *and* among
# the negatives, a first-moment version of equalized odds, at the price of one more forbidden direction, and it
# needs labels at representation time only for fitting, not for transforming.
# ```
#
# ```{exercise}
# :label: ex-variants-l
#
# For the data of the paper's Figure 1 ({numref}`sec-fpca-s`), sweep `equalize_covariance` over $l = 2, \dots, 9$ and plot the reconstruction error and
# the covariance gap against $l$. At which $l$ does the RBF-SVM accuracy reach chance?
# ```
#
# ```{solution} ex-variants-l
# :class: dropdown
#
# Loop over `l`, fit `FairPCA(2, center=False, equalize_covariance=l)` and reuse the table of {numref}`sec-fpca-s`.
# The reconstruction error decreases and the covariance gap increases with $l$ (at $l=9=d-1$ it is plain fair PCA).
# Because group 1 only differs from group 0 in the first three coordinates, the gap stays (nearly) zero as long as the
# kept directions can avoid that block. At least $(d-1)-3 = 6$ of the $d - 1 = 9$ admissible directions do; the
# table below the exercise shows one more here (the sample mean difference that fair PCA removes lies mostly in the
# block of large variance, so the constraint already takes up part of it): the SVM is at chance up to $l = 7$ and
# leaves it from $l = 8$ on.
# ```

# %% tags=["solution", "hide-input"]
from fairlab import exercises

sweep_rows, accuracy = [], {}
for l in range(2, 10):
    El = FairPCA(2, center=False, equalize_covariance=l).fit(Xf, sensitive_features=zf).transform(Xf)
    accuracy[l] = cross_val_score(SVC(), El, zf, cv=5).mean()
    sweep_rows.append({"l": l, "RBF-SVM accuracy": accuracy[l],
                       "‖Σ̂₀ − Σ̂₁‖, Frobenius": metrics.covariance_gap(El, zf)})
display(published.reader_table(pd.DataFrame(sweep_rows).set_index("l"),
                               title="Fair PCA-S on the Figure 1 data, by l"))
exercises.check("ex-variants-l", accuracy)

# %% [markdown]
# ```{exercise}
# :label: ex-variants-lambda
#
# Show that for $\lambda>0$ the representation $(U_\text{fair}^\top x;\ \lambda U_\text{st}^\top x)$ carries exactly the same
# information as $(U_\text{fair}^\top x;\ U_\text{st}^\top x)$. Why does λ still matter for a downstream model?
# ```
#
# ```{solution} ex-variants-lambda
# :class: dropdown
#
# The map between the two is the invertible linear map $\operatorname{diag}(I_k, \lambda I_k)$, so any function of one is a
# function of the other. λ matters because models are not scale invariant once they are regularised (or trained by
# early-stopped gradient descent): using the second block with weights $w_2$ costs $\lVert w_2\rVert^2/\lambda^2$ in the
# penalty, so a small λ makes the unfair information expensive.
# ```
