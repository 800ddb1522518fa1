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
# # Fair regression with HSIC: the toy example of Fair Kernel Learning
#
# A regression model can be unfair even when the sensitive variable is *not* one of its inputs:
# another input may carry the same information. Pérez-Suay et al. {cite}`perezsuay2017fair` add to the
# regularised least-squares loss a term that measures how much the predictions depend on the sensitive
# variables $\mathbf S$, the Hilbert–Schmidt independence criterion (HSIC) {cite}`gretton2005measuring`:
#
# $$
# \mathcal L(f) = \frac1n\sum_{i=1}^n \big(y_i - f(\mathbf x_i)\big)^2 + \lambda\,\Omega(f)
#   + \mu\,\mathrm{HSIC}\big(f(\mathbf X), \mathbf S\big).
# $$
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. write the HSIC-penalised least-squares losses of fair linear and fair kernel regression and derive their closed forms;
# 2. show that a model that does not use $s$ as an input can still depend on it, and measure that dependence with an RBF-kernel HSIC;
# 3. trace error-versus-unfairness paths over $\mu$ with `fit_path` and read off the lowest error at a given level of fairness.
#
# **Prerequisites.** {doc}`03_measuring_fairness` (HSIC, and why HSIC with linear kernels is Cov²); ridge and kernel ridge regression, setting a gradient to zero, and (for one exercise) Woodbury's identity.
#
# **Time.** About 40 minutes to read and work through; the notebook runs in {{ run_time_07 }} at its defaults.
#
# {{ run_it }}
# :::
#
# With $\mathbf H = \mathbf I - \tfrac1n\mathbf 1\mathbf 1^\top$, $\tilde{\mathbf X} = \mathbf H\mathbf X$ and
# $\tilde{\mathbf S} = \mathbf H\mathbf S$, the biased HSIC estimator with linear kernels is
# $\mathrm{HSIC}(\hat{\mathbf Y}, \mathbf S) = \frac1{n^2}\|\tilde{\mathbf S}^\top\tilde{\hat{\mathbf Y}}\|_F^2$.
# Everything stays quadratic, so both fair models have closed forms:
#
# * **fair linear regression (FLR)**, eq. (2) of the paper:
#   $\mathbf W = (\tilde{\mathbf X}^\top\tilde{\mathbf X} + \lambda\mathbf I + \tfrac{\mu}{n^2}\tilde{\mathbf X}^\top\tilde{\mathbf S}\tilde{\mathbf S}^\top\tilde{\mathbf X})^{-1}\tilde{\mathbf X}^\top\mathbf Y$;
# * **fair kernel regression (FKR)**, eq. (3) of the paper: with centred kernel matrices $\tilde{\mathbf K} = \mathbf H\mathbf K\mathbf H$
#   on the inputs and $\tilde{\mathbf K}_S$ on $\mathbf S$,
#   $\boldsymbol\Lambda = (\tilde{\mathbf K} + \lambda\mathbf I + \tfrac{\mu}{n^2}\tilde{\mathbf K}_S\tilde{\mathbf K})^{-1}\tilde{\mathbf Y}$
#   and $f(\mathbf x) = \tilde{\mathbf k}(\mathbf x)^\top\boldsymbol\Lambda + \bar y$.
#
# `fairlab` implements them as `fairlab.FairLinearRegression` and
# `fairlab.FairKernelRegression`. Two details matter for anyone re-deriving them:
#
# * setting the gradient of the FKR loss to zero gives
#   $\tilde{\mathbf K}[(\tilde{\mathbf K} + \lambda\mathbf I + t\tilde{\mathbf K}_S\tilde{\mathbf K})\boldsymbol\Lambda - \tilde{\mathbf Y}] = 0$
#   ($t = \mu/n^2$): the product is $\tilde{\mathbf K}_S\tilde{\mathbf K}$, as in the paper's Lemma 1 and its
#   MATLAB code; eq. (3) prints it the other way round;
# * test points are centred with the *training* means in feature space, exactly as training points.
#
# ```{prf:proposition} FKR with linear kernels is FLR
# :label: prop-fkr-linear
#
# With $k(\mathbf x,\mathbf x') = \mathbf x^\top\mathbf x'$ and a linear kernel on $\mathbf S$, the FKR
# predictor equals the FLR predictor for every $\lambda > 0$ and $\mu \ge 0$.
# ```
#
# ```{prf:proof}
# Here $\tilde{\mathbf K} = \tilde{\mathbf X}\tilde{\mathbf X}^\top$ and $\tilde{\mathbf K}_S = \tilde{\mathbf S}\tilde{\mathbf S}^\top$.
# Multiplying out shows
# $\tilde{\mathbf X}^\top(\tilde{\mathbf X}\tilde{\mathbf X}^\top + \lambda\mathbf I + t\tilde{\mathbf S}\tilde{\mathbf S}^\top\tilde{\mathbf X}\tilde{\mathbf X}^\top)
# = (\tilde{\mathbf X}^\top\tilde{\mathbf X} + \lambda\mathbf I + t\tilde{\mathbf X}^\top\tilde{\mathbf S}\tilde{\mathbf S}^\top\tilde{\mathbf X})\tilde{\mathbf X}^\top$.
# Both brackets are invertible, so $\tilde{\mathbf X}^\top\boldsymbol\Lambda = \mathbf W$, and
# $\tilde{\mathbf k}(\mathbf x)^\top\boldsymbol\Lambda = (\mathbf x - \bar{\mathbf x})^\top\tilde{\mathbf X}^\top\boldsymbol\Lambda = (\mathbf x - \bar{\mathbf x})^\top\mathbf W$.
# The order $\tilde{\mathbf K}_S\tilde{\mathbf K}$ is what makes the identity work.
# ```
#
# The test suite checks this identity to $10^{-9}$, the equality of FLR at $\mu = 0$ with scikit-learn's
# `Ridge`, and the equality of FKR at $\mu = 0$ with `KernelRidge` fitted on the centred kernel.

# %% [markdown]
# ## Parameters
#
# The defaults run in well under a minute. The paper does not give its sample size; `n_train` and
# `n_test` are ours. With `paper_grids=True` the grids are those of the reference code: 7 values of λ in
# $[10^{-4}, 10^3]$ and 10 kernel widths σ in $[10^{-4}, 10^4]$ (RBF kernel
# $\exp(-\|\mathbf x-\mathbf x'\|^2/2\sigma^2)$); the default is a coarse grid around the values they select.
# In both cases σ_S runs over 10 values in $[10^{-1}, 10^2]$ and μ over $n^2\cdot$`logspace(-7, 3, 25)`.

# %% tags=["parameters"]
n_train = 400          # training points
n_test = 400           # test points (MSE and HSIC are measured on them)
n_mus = 25             # points on each fairness path
seed = 0               # seed of the data generator
sigma_s = 1.0          # std of the sensitive variable s
sigma_f = 0.1          # std of the noise n_f of a, which is log(1 + |s|) + n_f
sigma_y = 0.1          # std of the noise n_y of y, which is s² + a² + n_y
paper_grids = False    # True: the reference code's grids (7 λ × 10 σ, slower); False: a coarse grid
cv_folds = 3           # folds of the cross-validation choosing λ and σ

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import display
from sklearn.model_selection import GridSearchCV

from fairlab import FairKernelRegression, FairLinearRegression, check_parameters, published
from fairlab.datasets import make_fkl_regression
from fairlab.metrics import hsic
from fairlab.plotting import book_style, legend_outside, plot_tradeoff

check_parameters(globals(), n_train=int, n_test=int, n_mus=int, seed=int, sigma_s=float,
                 sigma_f=float, sigma_y=float, paper_grids=bool, cv_folds=int)

book_style()

# %% [markdown]
# ## The data: a sensitive variable that leaks through another input
#
# The toy problem of the paper draws $s \sim \mathcal N(0, \sigma_s)$, an intermediate variable
# $a = f_s(s) + n_f$ and a response $y = g_s(s) + g_r(a) + n_y$ with $g_s(x) = g_r(x) = x^2$.
# The paper's $f_s = \log$ is undefined for $s \le 0$; `fairlab.datasets.make_fkl_regression`
# uses $\log(1 + |s|)$ (its docstring explains why). Because $a$ is a function of $s$, dropping $s$
# from the inputs does not make a model independent of it.

# %%
X, y, s = make_fkl_regression(n_train + n_test, sigma_s=sigma_s, sigma_f=sigma_f,
                              sigma_y=sigma_y, random_state=seed)
a_tr, a_te, y_tr, y_te = X[:n_train], X[n_train:], y[:n_train], y[n_train:]
s_tr, s_te = s[:n_train], s[n_train:]
inputs = {"with s": (np.column_stack([a_tr, s_tr]), np.column_stack([a_te, s_te])),
          "without s": (a_tr, a_te)}
print("corr(a, s) =", round(np.corrcoef(X[:, 0], s)[0, 1], 3),
      "  corr(a, |s|) =", round(np.corrcoef(X[:, 0], np.abs(s))[0, 1], 3))

# %% [markdown]
# The linear correlation between $a$ and $s$ is almost zero while $a$ is nearly a function of $|s|$:
# the dependence is *even*. A linear HSIC cannot see it, so we measure unfairness with an RBF kernel on
# $s$: $\mathrm{HSIC}(\hat y, s) = \frac1{n^2}\hat{\mathbf y}^\top\mathbf H\mathbf K_S\mathbf H\hat{\mathbf y}$
# (`fairlab.metrics.hsic` with `kernel_y="rbf"`), as the reference code does.
#
# ## Hyper-parameters, as in the reference protocol
#
# For each input set we choose λ (and σ for the kernel model) by cross-validated MSE of the unfair model
# ($\mu = 0$). Then σ_S, the width of the kernel on $s$ inside the FKR penalty, is the value that
# *maximises* the HSIC of the unfair model's predictions: the penalty then looks at the dependence that
# is actually there.

# %%
alphas = np.logspace(-4, 3, 7) if paper_grids else np.logspace(-4, 0, 3)
sigmas = np.logspace(-4, 4, 10) if paper_grids else np.logspace(-0.5, 1, 4)
gammas = 1 / (2 * sigmas**2)                                  # γ = 1/(2σ²)
gammas_s = 1 / (2 * np.logspace(-1, 2, 10) ** 2)
chosen = {}
for name, (A_tr, _) in inputs.items():
    lin = GridSearchCV(FairLinearRegression(), {"alpha": alphas}, cv=cv_folds,
                       scoring="neg_mean_squared_error").fit(A_tr, y_tr, sensitive_features=s_tr)
    ker = GridSearchCV(FairKernelRegression(), {"alpha": alphas, "gamma": gammas}, cv=cv_folds,
                       scoring="neg_mean_squared_error").fit(A_tr, y_tr, sensitive_features=s_tr)
    f_unfair = ker.best_estimator_.predict(A_tr)
    gamma_s = max(gammas_s, key=lambda g: hsic(f_unfair, s_tr, kernel_y="rbf", gamma_y=g))
    chosen[name] = {"linear alpha": lin.best_params_["alpha"], "kernel alpha": ker.best_params_["alpha"],
                    "kernel gamma": ker.best_params_["gamma"], "sensitive gamma": gamma_s}
pd.DataFrame(chosen).T.map(lambda v: float(f"{v:.3g}"))

# %% [markdown]
# ## Fairness paths from one factorisation
#
# The closed forms make a whole path in μ cheap. `fit_path` factorises once — a Cholesky factor and a
# $q\times q$ eigendecomposition for FLR (Woodbury's identity on the rank-$q$ penalty), a simultaneous
# diagonalisation of $\tilde{\mathbf K}$ and $\tilde{\mathbf K}_S$ for FKR — and returns one fitted model per μ,
# equal to refitting with that μ (tested). We add $\mu = 0$ to the grid: those models are ordinary ridge
# (LR) and kernel ridge regression (KRR).

# %%
mus = np.r_[0.0, n_train**2 * np.logspace(-7, 3, n_mus)]
gamma_eval = chosen["with s"]["sensitive gamma"]   # one HSIC kernel for every model
rows = []
for name, (A_tr, A_te) in inputs.items():
    p = chosen[name]
    models = {
        "FLR": FairLinearRegression(alpha=p["linear alpha"]),
        "FKR": FairKernelRegression(alpha=p["kernel alpha"], gamma=p["kernel gamma"],
                                    sensitive_gamma=p["sensitive gamma"]),
    }
    for label, est in models.items():
        for mu, model in zip(mus, est.fit_path(A_tr, y_tr, mus, sensitive_features=s_tr)):
            pred = model.predict(A_te)
            rows.append({"method": label + ("" if name == "with s" else r"\S"), "mu": mu,
                         "mse": np.mean((pred - y_te) ** 2),
                         "hsic": hsic(pred, s_te, kernel_y="rbf", gamma_y=gamma_eval)})
results = pd.DataFrame(rows)
print(len(results), "fitted models")

# %% [markdown]
# ## The paper's Figure 1: error versus unfairness
#
# Each curve is one configuration traced by μ; the crosses are the $\mu = 0$ solutions (LR and KRR, with
# and without $s$ among the inputs). An ideal model sits at the origin.

# %% mystnb={"figure": {"caption": "Test MSE against test HSIC (RBF kernel on $s$) along the fairness paths in $\\mu$, with (FLR, FKR) and without (FLR\\S, FKR\\S) $s$ among the inputs; crosses mark $\\mu = 0$. Only the kernel models reach low error and low dependence together.", "name": "fig-fair-regression-paths"}, "image": {"alt": "A line plot of test HSIC (vertical, 0 to 0.37) against test MSE (horizontal, 0 to 3.5) with four curves. The FKR and FKR\\S curves start near the top left at MSE below 0.3 and bend down towards HSIC 0 as the MSE grows to about 3.5; the FLR\\S curve starts at MSE about 0.9 and falls more steeply to the right; the FLR curve stays at its starting cross near MSE 0.88, HSIC 0.35."}}
fig, ax = plt.subplots(figsize=(6.8, 4))
plot_tradeoff(results, x="mse", y="hsic", hue="method", param="mu", errorbars=False,
              annotate=False, ax=ax)
unfair = results[results["mu"] == 0]
ax.scatter(unfair["mse"], unfair["hsic"], marker="x", s=90, color="black", zorder=5,
           label="μ = 0 (LR / KRR)")
ax.set_xlabel("test MSE")
ax.set_ylabel("test HSIC(ŷ, s), RBF kernel on s")
legend_outside(ax, title="method")
plt.show()

# %%
summary = unfair.assign(model=unfair["method"].str.replace("FLR", "LR").str.replace("FKR", "KRR"))
summary[["model", "mse", "hsic"]].round(4).reset_index(drop=True)

# %% [markdown]
# What the figure shows, and how it compares with the paper:
#
# * **kernel beats linear**: the response is a sum of squares, so the linear models have a large MSE
#   whatever μ is, while KRR fits it closely. The paper reports the same ordering.
# * **dropping $s$ does not remove the dependence**: KRR\S is almost as dependent on $s$ as KRR,
#   because $a$ carries $|s|$.
# * **the paths**: increasing μ moves every model towards HSIC $= 0$, at a price in MSE; for
#   $\mu\to\infty$ the prediction becomes independent of $s$ (as measured by the penalty's kernel) and
#   the MSE tends to the variance of $y$ explained by what is left.
# * **a linear HSIC term cannot remove an even dependence**: FLR's penalty is the linear-kernel HSIC
#   with $s$; it removes the *correlation* with $s$, but $\hat y$ stays a function of $|s|$ through $a$.
#   With $s$ among the inputs the FLR path barely moves in the RBF-HSIC measured here, and never reaches
#   the level of KRR\S. Passing several columns, e.g. `sensitive_features=np.column_stack([s, s**2])`,
#   is the linear way out; a kernel on $s$ (FKR) is the general one.
# * **using $s$ as an input helps the fair model**: the paper's point is that FKR with $s$ can be
#   tuned to the fairness level of KRR\S at a much lower error (≈30 % in the paper). The next cell
#   measures this on our data.

# %%
target = unfair.loc[unfair["method"] == r"FKR\S", "hsic"].item()
best = {m: df.loc[df["hsic"] <= target, "mse"].min() for m, df in results.groupby("method")}
krr_s = unfair.loc[unfair["method"] == r"FKR\S", "mse"].item()
change = 100 * (best["FKR"] / krr_s - 1)
display(published.reader_table(
    pd.DataFrame({"lowest test MSE at that HSIC or below": best}).rename_axis("method"), decimals=4,
    title=f"At the fairness level of KRR\\S (test HSIC {target:.4f})",
    missing="the path never gets as fair as KRR\\S"),
    published.Prose(f"KRR\\S has a test HSIC of {target:.4f} at an MSE of {krr_s:.4f}. At that fairness "
                    f"level FKR, with s among its inputs, reaches an MSE of {best['FKR']:.4f}: "
                    f"{abs(change):.0f} % {'lower' if change < 0 else 'higher'} than KRR\\S's."))

# %% [markdown]
# ## What the paper's Lemma 1 does and does not say
#
# Lemma 1 states that KRR and FKR dual weights are bounded by the same quantity, through
# $\|(\tilde{\mathbf K} + \lambda\mathbf I + t\tilde{\mathbf K}_S\tilde{\mathbf K})^{-1}\| \le \|(\tilde{\mathbf K} + \lambda\mathbf I)^{-1}\|$.
# The proof uses the Loewner order, which needs a symmetric penalty — true for FLR
# ($\tilde{\mathbf X}^\top\tilde{\mathbf S}\tilde{\mathbf S}^\top\tilde{\mathbf X} \succeq 0$) but not for
# $\tilde{\mathbf K}_S\tilde{\mathbf K}$, and the inequality indeed fails on random instances (the test suite
# exhibits one). A bound that does hold for both models follows from comparing the loss at the solution
# with the loss at $\boldsymbol\Lambda = 0$.
#
# ```{prf:proposition} A common bound for KRR and FKR
# :label: prop-fkr-bound
#
# For every $\mu \ge 0$, the FKR solution satisfies $\lambda\,\|f\|_{\mathcal H}^2 = \lambda\,\mathrm{tr}(\boldsymbol\Lambda^\top\tilde{\mathbf K}\boldsymbol\Lambda) \le \|\tilde{\mathbf Y}\|_F^2$.
# ```
#
# ```{prf:proof}
# The loss $\|\tilde{\mathbf Y} - \tilde{\mathbf K}\boldsymbol\Lambda\|_F^2 + \lambda\,\mathrm{tr}(\boldsymbol\Lambda^\top\tilde{\mathbf K}\boldsymbol\Lambda) + t\,\mathrm{tr}(\boldsymbol\Lambda^\top\tilde{\mathbf K}\tilde{\mathbf K}_S\tilde{\mathbf K}\boldsymbol\Lambda)$
# is convex, and the FKR solution is a stationary point, hence a minimiser. Its value there is at most its
# value at $\boldsymbol\Lambda = 0$, which is $\|\tilde{\mathbf Y}\|_F^2$; the other two terms are non-negative.
# ```

# %%
krr, fkr = (FairKernelRegression(alpha=0.01, mu=mu, gamma=1.0).fit(a_tr, y_tr, sensitive_features=s_tr)
            for mu in (0.0, 1e3 * n_train**2))
for name, m in (("KRR", krr), ("FKR", fkr)):
    f_train = m.predict(a_tr) - m.intercept_            # = K̃Λ on the training points
    ratio = 0.01 * m.dual_coef_ @ f_train / np.sum((y_tr - y_tr.mean()) ** 2)
    print(name, "λ‖f‖² / ‖ỹ‖² =", round(ratio, 4))

# %% [markdown]
# ## Exercises
#
# ```{exercise}
# :label: ex-fkl-monotone
#
# Let $w_\mu$ minimise $F(w) + \mu G(w)$ for each $\mu \ge 0$, with $F, G$ any functions. Show that
# $\mu \mapsto G(w_\mu)$ is non-increasing and $\mu \mapsto F(w_\mu)$ non-decreasing. What does this say
# about the curves of the figure, measured on the *training* set with the penalty's kernel?
# ```
#
# ```{solution} ex-fkl-monotone
# :class: dropdown
#
# For $\mu < \nu$, optimality gives $F(w_\mu) + \mu G(w_\mu) \le F(w_\nu) + \mu G(w_\nu)$ and
# $F(w_\nu) + \nu G(w_\nu) \le F(w_\mu) + \nu G(w_\mu)$. Adding them,
# $(\nu - \mu)(G(w_\nu) - G(w_\mu)) \le 0$, so $G(w_\nu) \le G(w_\mu)$; plugging back into the first
# inequality gives $F(w_\mu) \le F(w_\nu)$. On the training set, with the HSIC kernel used in the penalty,
# the fairness term never increases and the fit term (squared error plus ridge) never decreases along
# the path — the unit tests check this. On test data, or with another HSIC kernel, small
# non-monotonicities are possible.
# ```
#
# ```{exercise}
# :label: ex-fkl-path
#
# For FLR, write $\mathbf A = \tilde{\mathbf X}^\top\tilde{\mathbf X} + \lambda\mathbf I$ and
# $\mathbf G = \tilde{\mathbf X}^\top\tilde{\mathbf S}$ ($d\times q$). Use Woodbury's identity to express
# $\mathbf W(\mu)$ through one factorisation of $\mathbf A$ and an eigendecomposition of the $q\times q$ matrix
# $\mathbf G^\top\mathbf A^{-1}\mathbf G$. What is the limit $\mu\to\infty$?
# ```
#
# ```{solution} ex-fkl-path
# :class: dropdown
#
# With $t = \mu/n^2$ and $\mathbf G^\top\mathbf A^{-1}\mathbf G = \mathbf E\boldsymbol\Delta\mathbf E^\top$,
# $(\mathbf A + t\mathbf G\mathbf G^\top)^{-1} = \mathbf A^{-1} - \mathbf A^{-1}\mathbf G\mathbf E\,\mathrm{diag}\big(\tfrac{t}{1+t\delta_j}\big)\mathbf E^\top\mathbf G^\top\mathbf A^{-1}$,
# so $\mathbf W(\mu) = \mathbf W_0 - \mathbf A^{-1}\mathbf G\mathbf E\,\mathrm{diag}\big(\tfrac{t}{1+t\delta_j}\big)\mathbf E^\top\mathbf G^\top\mathbf W_0$
# with $\mathbf W_0$ the ridge solution. As $t\to\infty$ the weights tend to $1/\delta_j$, and
# $\mathbf W(\infty)$ is the ridge solution constrained to $\mathbf G^\top\mathbf W = 0$, i.e. predictions
# exactly uncorrelated with every column of $\mathbf S$. This is `FairLinearRegression.fit_path`.
# ```
