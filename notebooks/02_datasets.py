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
# # Datasets
#
# Every experiment in this book runs on data that `fairlab.datasets` provides: the toy data the
# three seed papers draw by hand, and the real tabular data sets they evaluate on, prepared with
# each paper's own recipe. This page lists them all, with their size, their groups, their base
# rates and how biased their labels already are — the quantity De-Diego et al. (2025) report in its Table 2
# {cite}`dediego2025pls` — together with where every file comes from and under which licence.
#
# :::{admonition} About this chapter
# :class: tip
# **Learning goals.** After this chapter you can
# 1. load any data set of the book offline with the recipe (`variant=`) of a given paper, and read its preprocessing in `DESCR`;
# 2. compute the label bias of a data set (its disparate impact) and explain how the definition of the groups changes it;
# 3. say which data sets ship with `fairlab`, which must be supplied, and under which licence each one is used;
# 4. draw the synthetic data of the three papers with a fixed seed.
#
# **Prerequisites.** {doc}`01_quickstart` (what a sensitive attribute and a representation are); pandas DataFrames, and conditional probabilities such as $P(y=1\mid\text{group})$.
#
# **Time.** About 25 minutes to read and work through; the notebook runs in {{ run_time_02 }} at its defaults.
#
# {{ run_it }}
# :::
#
# **Data policy.** Every data set that is openly licensed ships inside the package, xz-compressed
# (3.8 MB in all): UCI Adult {cite}`kohavi1996adult`, UCI German credit {cite}`hofmann1994german`,
# ProPublica's COMPAS data {cite}`angwin2016machine`, and — under CC BY 4.0 — Bank Marketing
# {cite}`moro2014data`, Diabetes 130-US {cite}`strack2014impact`, Communities and Crime
# {cite}`redmond2002data`, CMC {cite}`lim1997cmc` and LIBSVM a9a {cite}`chang2011libsvm` (the
# binarised Adult). They load offline with nothing to set up, and the SHA-256 of the original bytes
# is checked every time they are read, so a corrupted file is refused rather than silently
# analysed. A copy of your own (the `data_home` argument, or `$FAIRLAB_DATA/<name>/`) takes
# precedence over the shipped one. Law School {cite}`wightman1998lsac,kusner2017counterfactual`
# is **external**: the LSAC terms are not an open licence, so its loader looks in `data_home`,
# then `$FAIRLAB_DATA/lawschool/`, then the user cache, and otherwise downloads the file from its
# source and verifies its SHA-256; offline, it raises an error that says which file to put where.
# Lee et al.'s exact train/test splits of Adult, German credit and COMPAS {cite}`lee2022fast`, and
# the PCA, FPCA and MbF-PCA loading matrices they saved, ship as well (MIT licence), so the
# reproductions of Kleindessner et al. (2023) §5.1 run offline too.

# %% [markdown]
# The parameters below are the only knobs of this page. By default it runs offline with the
# shipped data only; set `include_external = True` (and `data_home`, or the environment variable
# `FAIRLAB_DATA`) to load Law School from a local copy as well.

# %% tags=["parameters"]
seed = 0                     # random seed of the synthetic generators
n_synthetic = 400            # points drawn by each synthetic generator in the gallery
data_home = None             # folder with your own raw files (None: $FAIRLAB_DATA, then shipped copies)
include_external = False     # also load Law School (from a local copy)

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.decomposition import PCA

from fairlab import check_parameters, datasets, published
from fairlab.metrics import explained_variance, lee_bandwidth, mmd2
from fairlab.plotting import book_style, plot_embedding

check_parameters(globals(), seed=int, n_synthetic=int, data_home=(str, None),
                 include_external=bool)

book_style()

# %% [markdown]
# ## Where the data come from
#
# `datasets.summarize()` without arguments lists every data set fairlab knows, without loading
# any: its loader, whether it is **shipped** (inside the package, offline), **external** (read
# from a local copy or downloaded) or downloaded **on request**, its licence, and its size — the
# original files (size) and, for shipped data, their xz-compressed size in the package
# (shipped); the last column names the loader. Each loader's `DESCR` says the same in words.

# %%
catalogue = datasets.summarize()
print(f"shipped in the package: {catalogue['shipped_mb'].sum():.2f} MB (xz) for "
      f"{catalogue.loc[catalogue['availability'] == 'shipped', 'size_mb'].sum():.1f} MB of raw files")
published.reader_table(
    catalogue[["title", "availability", "license", "size_mb", "shipped_mb", "loader"]]
    .rename(columns={"title": "data set"}),
    missing={"size_mb": "CelebA's file sizes are not recorded",
             "shipped_mb": "not shipped: read from a local copy or downloaded"})

# %% [markdown]
# ## Synthetic data
#
# Each generator is seeded by `random_state` and documents, in its docstring, the paper's recipe
# and every detail the paper leaves open.
#
# | generator | paper | what it shows |
# |---|---|---|
# | `make_lee_gaussians` | Kleindessner et al. (2023) §5.1, Lee et al. {cite}`lee2022fast` | two Gaussian groups with AR(1) block covariances, seen through two *different* random projections (the runtime/variance experiment) |
# | `make_covariance_mismatch` | Kleindessner et al. (2023) Fig. 1 | equal group means, very different covariances: fair PCA cannot hide the group from a non-linear classifier, Fair PCA-S can {cite}`kleindessner2023efficient` |
# | `make_circle_counterexample` | Kleindessner et al. (2023) App. A.1 | the origin versus a circle: every linear projection has equal group means, yet $\mathbb 1[x\neq 0]$ recovers the group |
# | `make_sinusoid` | Pérez-Suay et al. (2017) §3.2 | $a\sim\mathcal U(0,1.5\pi)$, $b=\sin a+\mathcal N(0,0.1^2)$ {cite}`perezsuay2017fair` |
# | `make_banana` | Pérez-Suay et al. (2017) Fig. 3 | a parabola plus nuisance noise along the $\pi/4$ direction |
# | `make_fkl_regression` | Pérez-Suay et al. (2017) §2.3 | $s\sim\mathcal N(0,\sigma_s^2)$, $a=\log(1+\lvert s\rvert)+n_f$, $y=s^2+a^2+n_y$ (the paper's $\log s$ is undefined for $s\le 0$) |
# | `make_pls_synthetic` | De-Diego et al. (2025) App. 8.1 | two groups in $\mathbb R^7$ with group-specific effects of three binary variables and group-specific target coefficients |

# %%
X_lee, _, z_lee = datasets.make_lee_gaussians(n_synthetic // 2, 20, random_state=seed)
X_cov, z_cov = datasets.make_covariance_mismatch(n_synthetic // 2, random_state=seed)
X_circ, z_circ = datasets.make_circle_counterexample(24)
X_sin = datasets.make_sinusoid(n_synthetic, random_state=seed)
X_ban, s_ban = datasets.make_banana(n_synthetic, random_state=seed)
X_fkl, y_fkl, s_fkl = datasets.make_fkl_regression(n_synthetic, random_state=seed)
X_pls, y_pls, s_pls = datasets.make_pls_synthetic(n_synthetic // 2, random_state=seed)
pd.DataFrame(
    {
        "generator": ["make_lee_gaussians", "make_covariance_mismatch", "make_circle_counterexample",
                      "make_sinusoid", "make_banana", "make_fkl_regression", "make_pls_synthetic"],
        "X shape": [X_lee.shape, X_cov.shape, X_circ.shape, X_sin.shape, X_ban.shape, X_fkl.shape,
                    X_pls.shape],
        "sensitive": ["z (binary)", "z (binary)", "z (binary)", "a or b (continuous)",
                      "s (continuous)", "s (continuous)", "s (binary)"],
    }
)

# %% mystnb={"figure": {"caption": "Draws of the seven synthetic generators at their defaults (two-dimensional views). Notice the equal group means but different spreads of `make_covariance_mismatch` and `make_circle_counterexample`: the cases where a fair linear projection cannot hide the group.", "name": "fig-datasets-gallery"}, "image": {"alt": "A grid of seven scatter plots, one per generator. make_lee_gaussians: two overlapping groups shifted apart in the first two principal components. make_covariance_mismatch: a tight group 0 at the centre of a wide cloud of group 1. make_circle_counterexample: group 0 at the origin, group 1 on a circle around it. make_sinusoid: points along one arch of a sine curve. make_banana: a parabola-shaped cloud coloured by the nuisance s, which varies along the diagonal. make_fkl_regression: y grows quadratically with a, coloured by s. make_pls_synthetic: two groups along a rising line of y against variable 0."}}
fig, axes = plt.subplots(3, 3, figsize=(9, 8.4), layout="constrained")
plot_embedding(PCA(2).fit_transform(X_lee), z_lee, ax=axes[0, 0],
               xlabel="PC 1 (of d = 20)", ylabel="PC 2")
axes[0, 0].set_title("make_lee_gaussians")
plot_embedding(X_cov, z_cov, dims=(1, 2), ax=axes[0, 1], xlabel="$x_2$", ylabel="$x_3$")
axes[0, 1].set_title("make_covariance_mismatch")
plot_embedding(X_circ, z_circ, ax=axes[0, 2], xlabel="$x_1$", ylabel="$x_2$", s=40)
axes[0, 2].set_title("make_circle_counterexample")
axes[1, 0].scatter(X_sin[:, 0], X_sin[:, 1], s=8, color="0.3")
axes[1, 0].set(title="make_sinusoid", xlabel="a", ylabel="b")
im = axes[1, 1].scatter(X_ban[:, 0], X_ban[:, 1], c=s_ban, s=8, cmap="coolwarm")
axes[1, 1].set(title="make_banana", xlabel="$x_1$", ylabel="$x_2$")
fig.colorbar(im, ax=axes[1, 1], label="nuisance s")
im = axes[1, 2].scatter(X_fkl[:, 0], y_fkl, c=s_fkl, s=8, cmap="coolwarm")
axes[1, 2].set(title="make_fkl_regression", xlabel="a", ylabel="y")
fig.colorbar(im, ax=axes[1, 2], label="sensitive s")
plot_embedding(np.column_stack([X_pls[:, 0], y_pls]), s_pls, ax=axes[2, 0],
               xlabel="variable 0", ylabel="y")
axes[2, 0].set_title("make_pls_synthetic")
axes[2, 1].axis("off")
axes[2, 2].axis("off")
plt.show()

# %% [markdown]
# ## Real data: the papers' recipes
#
# Every loader returns a scikit-learn `Bunch` with `X` (a DataFrame of float features), `y`,
# `sensitive` (1 marks the privileged group), `feature_names`, `pos_label` and a `DESCR` that spells
# out the preprocessing. The `variant=` argument selects the paper setting:
#
# * `"lee2022"` — Kleindessner et al. (2023) §5.1, the AIF360 preprocessing of Lee et al. {cite}`lee2022fast`: Adult
#   with 97 features (sex kept as a feature), German credit with 57 (age ≥ 25 protected), COMPAS
#   with 6172 rows and 11 features (race protected). On German credit our table equals Lee et al.'s
#   published `full.csv` bit for bit; every row of their COMPAS subsample is one of our rows.
#   Their exact random splits ship with fairlab and are read by `load_lee2022_split` (see the
#   end of this page).
# * `"agarwal"` — Kleindessner et al. (2023) §5.2: Adult with 48 842 rows and 99 one-hot features, Bank Marketing
#   (age > 40 protected).
# * `"pls"` — De-Diego et al. (2025): the sensitive attribute and privileged group of its Table 2.
# * `"fkl"` and `load_a9a` — Pérez-Suay et al. (2017): CMC and the 123-binary-feature Adult.
#
# The table below loads every shipped data set (no network, no setup), one row per recipe; Law
# School is added when `include_external` is on and a copy is available.

# %%
shipped = [
    datasets.load_adult(variant="lee2022", data_home=data_home),
    datasets.load_adult(variant="agarwal", data_home=data_home),
    datasets.load_german(variant="lee2022", data_home=data_home),
    datasets.load_german(variant="pls", data_home=data_home),
    datasets.load_compas(variant="lee2022", data_home=data_home),
    datasets.load_compas(variant="pls", data_home=data_home),
    datasets.load_bank(variant="agarwal", data_home=data_home),
    datasets.load_diabetes(variant="pls", data_home=data_home),
    datasets.load_communities(variant="pls", data_home=data_home),
    datasets.load_cmc(variant="fkl", data_home=data_home),
    datasets.load_a9a(variant="fkl", data_home=data_home),
]
external = []
if include_external:
    for variant in ("pls", "lequy"):
        try:
            external.append(datasets.load_lawschool(variant=variant, data_home=data_home,
                                                    download_if_missing=False))
        except FileNotFoundError as err:
            print(f"skipped load_lawschool(variant={variant!r}): {str(err).splitlines()[0]}")
summary = datasets.summarize(shipped + external)
published.reader_table(
    summary[["dataset", "variant", "n", "d", "sensitive", "base_rate", "bias", "bias_kind"]],
    decimals=4, missing={"base_rate": "undefined for the regression target of Communities"})

# %% [markdown]
# The base rate is $P(y=\mathtt{pos\_label})$ and the bias the **disparate impact of the labels**,
# $\mathrm{DI} = P(y=\text{pos}\mid\text{unprivileged}) / P(y=\text{pos}\mid\text{privileged})$
# (`fairlab.metrics.disparate_impact`; 1 is parity, the "80 % rule" flags values below 0.8). For
# the regression target of Communities and Crime it is the Kolmogorov–Smirnov distance between
# the groups' target distributions (`fairlab.metrics.ks_distance`).
#
# The licence and availability of each data set are in the catalogue above. The sizes and rates behind
# the bias are per group: the privileged and unprivileged rows, and the privileged and
# unprivileged rates, the rate $P(y=\mathtt{pos\_label})$ within each group (— where they are
# undefined: for the regression target of Communities and for CMC's several groups):

# %%
published.reader_table(
    summary[["dataset", "variant", "n_privileged", "n_unprivileged", "rate_privileged",
             "rate_unprivileged"]],
    decimals=4,
    missing="undefined: a regression target (Communities) or several groups (CMC)")

# %% [markdown]
# ### Comparison with De-Diego et al. (2025), Table 2
#
# The `"pls"` variants were built so that the label bias matches the paper. Five of the six values
# are reproduced to the four printed decimals; that pinned down choices the paper does not state:
# Adult uses all 48 842 rows, German credit the strict `age > 25`, COMPAS the unfiltered file
# restricted to African-American and Caucasian defendants, Law School Kusner et al.'s file
# restricted to Black and White students with `first_pf` as the label, and Diabetes the first
# encounter of each patient with *any* readmission as the label.

# %%
table2 = pd.DataFrame(
    {
        "dataset": ["adult", "german", "lawschool", "diabetes", "compas", "communities"],
        "paper sensitive": ["gender", "age", "race", "race", "race", "race"],
        "paper privileged": ["Male", "> 25", "White", "Caucasian", "Caucasian", "not black"],
        "paper bias (Table 2)": [0.3597, 0.7948, 0.6713, 0.8952, 0.8009, 0.129],
        "paper d (Table 3)": [36, 21, 3, 27, 6, 33],
    }
)
ours = summary[summary["variant"].isin(["pls", "agarwal"])].drop_duplicates("dataset")
comparison = table2.merge(ours[["dataset", "variant", "n", "d", "bias"]], on="dataset", how="left")
comparison[["n", "d"]] = comparison[["n", "d"]].astype("Int64")  # <NA>: data set not loaded
comparison = comparison.rename(columns={"bias": "fairlab bias", "d": "fairlab d"})
comparison[["dataset", "paper bias (Table 2)", "fairlab bias", "paper d (Table 3)",
            "fairlab d", "paper sensitive", "paper privileged", "variant", "n"]].round(4)

# %% [markdown]
# Two things do not match, and the loaders' `DESCR` say so:
#
# * **Feature counts.** De-Diego et al. (2025) does not publish its encodings; only Law School (3) matches
#   Table 3. COMPAS keeps, beside the six usual features, the two that the paper's text names among the most
#   relevant — the decile score and `event`, the recidivism indicator from which the label is derived — so it has 8
#   against the printed 6. Adult's `"pls"` variant reuses the 99-feature encoding of `"agarwal"`, German
#   credit one-hot encodes every categorical attribute (47 features), Diabetes keeps 18 documented
#   columns and Communities the 98 complete numeric ones.
# * **Communities and Crime.** Table 2's KS value of 0.129 depends on a binarisation of the
#   sensitive attribute that the paper does not give; with "black community" = `racepctblack`
#   above its median 0.06, the KS distance of the target is about 0.45 (row `communities` above).
#
# Law School is external, so its row stays empty (`<NA>`) unless `include_external` is on and a
# copy of `law_data.csv` is available.

# %% [markdown]
# ### One data set in detail
#
# The `DESCR` of every Bunch records the preprocessing, the files with their SHA-256, the source,
# the licence and the citation. `datasets.describe` gives it as a table, one row per fact (the
# SHA-256 sums are left to `provenance()`); here for Adult with Lee et al.'s recipe (click to open it):

# %%
published.Details(
    published.reader_table(datasets.describe(shipped[0]).rename(columns={"text": "description"}),
                           wrap=["description"]),
    summary=f"The DESCR of {shipped[0].dataset} ({shipped[0].variant!r}), one row per fact")

# %%
shipped[0].X.iloc[:5, :8]

# %% [markdown]
# ## Provenance and licences
#
# `datasets.provenance()` returns the recorded source of every raw file: its size and SHA-256
# (of the original, uncompressed bytes — the hash checked at every load; the table below names
# the check, `provenance()` and each loader's `DESCR` give the hashes), the URL it comes from
# (the table gives each data set's home page),
# and for each data set the licence and the citation of its donors. UCI data are CC BY 4.0, which
# allows redistribution with attribution; ProPublica's COMPAS file has no explicit open-data
# licence; the LSAC law-school data were never released under an open licence and are used, as
# throughout the fairness literature, for research only {cite}`lequy2022survey` — which is why
# they are the one data set fairlab does not ship. Lee et al.'s splits and loading matrices are
# MIT-licensed, so they ship too, xz-compressed; their files are left out of the table below
# (`provenance("lee2022_splits")` and `provenance("lee2022_loadings")` list them, and the
# `DESCR` of a loaded split says how large they are). CelebA (chapter {doc}`13_concept_erasure_images`) may not be redistributed
# either; its files are checked against the MD5 sums published with them, and their sizes are not
# recorded.

# %%
records = datasets.provenance()
published.reader_table(
    pd.DataFrame(
        [
            {
                "data set": rec["title"],
                "file": filename,
                "availability": rec["availability"],
                "licence": rec["license"],
                "MB": f["size"] / 1e6 if f["size"] else float("nan"),
                "checked with": "SHA-256" if f["sha256"] else "MD5",
                "source": rec["homepage"],
            }
            for name, rec in records.items()
            if not name.startswith("lee2022")
            for filename, f in rec["files"].items()
        ]
    ).set_index(["data set", "file"]),
    decimals={"MB": 3},
    missing={"MB": "CelebA's file sizes are not recorded"})

# %%
published.Details(
    published.reader_table(
        pd.DataFrame({"licence": [rec["license"] for rec in records.values()],
                      "citation": [rec["citation"] for rec in records.values()]},
                     index=pd.Index([rec["title"] for rec in records.values()], name="data set")),
        wrap=["citation"]),
    summary="How to cite each data set, and its licence")

# %% [markdown]
# ### Lee et al.'s splits and saved loadings
#
# Lee et al.'s published splits are the only exact copy of the data of Kleindessner et al. (2023) §5.1 (AIF360
# shuffled them without a seed). They ship with fairlab: the 60 files (ten 70/30 splits of Adult,
# German credit and COMPAS, train and test) were copied byte for byte from the public repository
# `nick-jhlee/fair-manifold-pca` at a pinned commit, under its MIT licence, and are checked against
# their SHA-256 at every load. `datasets.load_lee2022_split("adult", 0)` returns the standardised
# train and test arrays of split 0; a copy in `data_home` or `$FAIRLAB_DATA/fair-manifold-pca/`
# takes precedence over the shipped one. Each split is standardised with its *train* mean and
# standard deviation, and the sensitive attribute is also one of the features. The fair PCA
# chapters use these splits for their fidelity checks.

# %%
lee_rows = []
for name in ("adult", "german", "compas"):
    for split_id in (0, 9):
        split = datasets.load_lee2022_split(name, split_id, data_home=data_home)
        lee_rows.append({
            "dataset": name, "split": split_id, "n_train": len(split.X_train),
            "n_test": len(split.X_test), "d": split.X_train.shape[1],
            "privileged (train)": int(split.s_train.sum()),
            "privileged (test)": int(split.s_test.sum()),
            "P(y=1) train": split.y_train.mean(), "P(y=1) test": split.y_test.mean(),
        })
published.reader_table(pd.DataFrame(lee_rows), decimals=3)

# %% [markdown]
# The `DESCR` of a split describes the split and its preprocessing, names the two files it read
# with their SHA-256 and URL and the pinned commit they were copied from, and carries the MIT
# notice of Lee et al.'s repository (the copyright line and permission notice that the licence asks
# every copy to keep). As a table (`datasets.describe`, checksums and commit left to
# `provenance()`), for split 0 of German credit (click to open it):

# %%
split_descr = datasets.describe(datasets.load_lee2022_split("german", 0, data_home=data_home))
published.Details(
    published.reader_table(split_descr.rename(columns={"text": "description"}),
                           wrap=["description"]),
    summary="The DESCR of split 0 of German credit, one row per fact")

# %% [markdown]
# `datasets.load_lee2022_loadings` gives the $d\times k$ loading matrices that Lee et al.'s own
# runs of FPCA {cite}`olfat2019convex` (fairness tolerance $\delta$) and MbF-PCA
# {cite}`lee2022fast` (tolerance $\tau = 10^{-t}$) saved for every split; a setting is named by
# their folder name, e.g. `"2_fpca_0.0"` or `"2_stfpca_3"`. Their PCA loadings (MATLAB's `pca`) are
# `"2_pca"` and `"10_pca"`: the first $k$ columns of the one matrix they saved per split. They are the reference that
# fairlab's re-implementations of these two baselines are held against. Below, on split 0 and $k = 2$: the share of test variance
# they keep and the MMD² between the groups in the test embedding (Kleindessner et al.'s %Var and
# MMD² columns; σ from the training split, as in their protocol).

# %%
load_rows = []
for name in ("adult", "german", "compas"):
    split = datasets.load_lee2022_split(name, 0, data_home=data_home)
    sigma = lee_bandwidth(split.X_train, 2)
    for setting in ("2_pca", "2_fpca_0.0", "2_fpca_0.1", "2_stfpca_3", "2_stfpca_6"):
        saved = datasets.load_lee2022_loadings(name, setting, 0, data_home=data_home)
        load_rows.append({
            "dataset": name, "setting": saved.setting, "method": saved.method,
            "V shape": saved.V.shape,
            "%Var (test)": 100 * explained_variance(split.X_test, saved.V.T),
            "MMD² (test)": mmd2(split.X_test @ saved.V, split.s_test, sigma=sigma),
        })
pd.DataFrame(load_rows).round({"%Var (test)": 2, "MMD² (test)": 3})

# %% [markdown]
# ## Exercises
#
# ```{exercise}
# :label: ex-datasets-age
#
# Kleindessner et al. (2023) protects German credit applicants aged 25 or more (`age >= 25`), De-Diego et al. (2025) those older
# than 25 (`age > 25`). Using `load_german(variant="lee2022")` and `load_german(variant="pls")`,
# compute the disparate impact of the *good-credit* label under both definitions. How much does a
# one-year change of threshold move the measured bias, and why?
# ```
#
# ```{solution} ex-datasets-age
# :class: dropdown
#
# The summary tables above give 0.8212 for `age >= 25` and 0.7948 for `age > 25`. Going from
# `>= 25` to `> 25` moves the 41 applicants aged exactly 25 from the privileged to the
# unprivileged group. Their good-credit rate (22/41 ≈ 0.54) is below both groups' rates, so the
# privileged rate rises (0.7192 → 0.7284) while the unprivileged rate falls (0.5906 → 0.5789), and
# the ratio drops by 0.026. Label bias is a property of the data *and* the group definition
# together, which is why every loader records its definition in `DESCR`.
# ```

# %% tags=["solution", "hide-input"]
from fairlab import exercises
from fairlab.metrics import disparate_impact

german_variants = [datasets.load_german(variant=v) for v in ("lee2022", "pls")]
answer = tuple(disparate_impact(g.y, g.y, sensitive_features=g.sensitive, pos_label=g.pos_label)
               for g in german_variants)
exercises.check("ex-datasets-age", answer)

# %% [markdown]
# ```{exercise}
# :label: ex-datasets-circle
#
# Draw `X, z = make_circle_counterexample(40)`. Check numerically that the two group means are
# equal, so every 1-D projection $u^\top x$ satisfies the fair PCA constraint, and then find a
# function $h$ of $u^\top x$ that predicts $z$ perfectly for $u = (\cos 0.3, \sin 0.3)$.
# ```
#
# ```{solution} ex-datasets-circle
# :class: dropdown
#
# `X[z == 0].mean(0)` and `X[z == 1].mean(0)` are both $0$ (the circle points are equidistant).
# With $u = (\cos 0.3, \sin 0.3)$, no circle point projects exactly to 0 (its angle would have to
# be $0.3 \pm \pi/2$, not a multiple of $2\pi/20$), so $h(t) = \mathbb 1[t \ne 0]$ equals $z$ on
# every row: equal means (no *linear* dependence) do not imply independence — Kleindessner et al. (2023) App. A.1.
# ```

# %% tags=["solution", "hide-input"]
X_40, z_40 = datasets.make_circle_counterexample(40)
print("group means:", X_40[z_40 == 0].mean(axis=0).round(12) + 0.0,
      X_40[z_40 == 1].mean(axis=0).round(12) + 0.0)
exercises.check("ex-datasets-circle", lambda t: (t != 0).astype(int))
