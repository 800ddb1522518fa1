"""Kleindessner et al. (2023) §5.1, the work units of the ledger: the paper-scale grid and one
unit's rows.
"""

import numpy as np
import pandas as pd

from ...datasets import load_lee2022_split
from .. import methods as registry
from ._data import (
    DATASETS,
    METHODS,
    REFERENCE_CODE_METHODS,
    SAMADI_METHOD,
    TABLES,
    _dataset_key,
    estimators,
    gaussian_splits,
    score_splits,
)

#: The paper's key in :mod:`fairlab.published`.
PAPER = "kleindessner2023"
#: A unit is one method fitted at one k on one split of one data set.
UNIT_KEYS = ("dataset", "method", "k", "split")
#: Paper-scale parameters: the paper's train-on-test protocol, RLACE's 10 000 outer iterations,
#: seed 0 for the stochastic methods and for Lee et al.'s synthetic data.
PARAMETERS = {"protocol": "train_on_test", "rlace_max_iter": 10_000, "random_state": 0}
#: Lee et al.'s synthetic data of Figs. 2 and 3 (d = 20, 60, 100 at k = 5) and of Fig. 7 (d = 100).
SYNTHETIC = {20: "synthetic20", 60: "synthetic60", 100: "synthetic100"}
#: The methods of Figs. 2 and 3; Fig. 7 leaves out FPCA ("extremely slow").
SYNTHETIC_METHODS = registry.names(registry.KLEINDESSNER_SYNTHETIC)
#: The target dimensions of Fig. 7 (d = 100).
FIG7_KS = (2, 5, 10, 20, 50)
#: Metrics that are wall-clock times: machine-dependent, so never compared by :func:`verify`.
TIMINGS = ("fit_seconds",)
#: Downstream models whose scores follow the BLAS kernel's rounding: the MLP's thousands of Adam
#: steps from one random start drift apart, although every method's embedding is the same on
#: each kernel.  The other models' rows are compared on any kernel, so a recomputation elsewhere
#: reports a unit where a solver's tolerance meets the last digits of its input.
KERNEL_DEPENDENT_MODELS = ("MLP",)
#: The "reference run" of a method: Lee et al.'s saved loading matrices, scored by our protocol.
REFERENCE_SUFFIX = registry.REFERENCE_SUFFIX
#: Method -> the folder of its saved loadings (:func:`fairlab.datasets.load_lee2022_loadings`).
REFERENCE_METHODS = registry.names(registry.KLEINDESSNER_REFERENCE)
REFERENCE_SETTINGS = {registry.get(m).base: registry.get(m).parameters["setting"]
                      for m in REFERENCE_METHODS}
#: The "as in the reference code" run of a method: fairlab's fit, handed on in the reference
#: code's basis or fitted on its input (:class:`AsInReferenceCode`).
REFERENCE_CODE_SUFFIX = registry.REFERENCE_CODE_SUFFIX
REFERENCE_CODE_RUNS = registry.names(registry.KLEINDESSNER_REFERENCE_CODE)
#: The suffixes of the rows held against the printed cells of another method's name.
VARIANT_SUFFIXES = (REFERENCE_SUFFIX, REFERENCE_CODE_SUFFIX)
#: Methods whose results follow the rounding of the BLAS kernel (and their runs as in the
#: reference code, which fit the same way):
#:
#: * INLP: its d − k rounds of liblinear, each trained to a tolerance on data projected by the
#:   previous rounds, end elsewhere on another kernel;
#: * MbF-PCA at τ = 10⁻⁶, whose penalty path reaches ρ ≈ 10⁹–10¹⁰, where the subproblems follow
#:   the rounding (the ``MbFPCA`` Notes);
#: * FPCA: the interior-point method's solution follows the rounding of the Cholesky
#:   factorisations of its Schur complement in the last digits, and where the k-th and (k+1)-th
#:   eigenvalues of the solution tie, the rounded subspace is arbitrary (the ``FPCA`` Notes);
#: * Samadi et al.'s run as in the reference code: on COMPAS at k = 10 its d-dimensional map has
#:   rank 8 on rows that repeat many times, and the linear SVM's solution there moves with the
#:   last digits of its kernel matrix (a test row or two of split 0 change sides).
_KERNEL_DEPENDENT_METHODS = ("INLP", "MbF-PCA (10^-6)", "FPCA (0.1, 0.01)", "FPCA (0, 0.01)")
KERNEL_DEPENDENT = _KERNEL_DEPENDENT_METHODS + tuple(
    m + REFERENCE_CODE_SUFFIX for m in _KERNEL_DEPENDENT_METHODS if m in REFERENCE_CODE_METHODS
) + (SAMADI_METHOD + REFERENCE_CODE_SUFFIX,)


def base_method(name):
    """The printed method a row name stands for: a variant's base in the registry
    (:attr:`fairlab.experiments.methods.Method.base`), otherwise ``name`` itself."""
    return registry.base(name)


def _has_reference(dataset, method, k):
    # Lee et al. saved no MbF-PCA (10^-3) loadings at k = 10 for Adult and COMPAS
    return not (base_method(method) == "MbF-PCA (10^-3)" and k == 10 and dataset != "german")


def _grid(dataset):
    """(methods, ks) of one data set's units."""
    if dataset in DATASETS:
        return [*METHODS, SAMADI_METHOD, *REFERENCE_METHODS, *REFERENCE_CODE_RUNS], (2, 10)
    if dataset == SYNTHETIC[100]:
        return list(SYNTHETIC_METHODS), FIG7_KS
    return list(SYNTHETIC_METHODS), (5,)


def units(datasets=None, methods=None, ks=None, splits=range(10)):
    """The unit keys of Tables 1–4 and Figs. 2, 3, 7: data set × method × k × split.

    Default: the three real data sets with the eleven methods of Tables 1–3, Samadi et al.'s
    of Table 4, the reference runs (:data:`REFERENCE_METHODS`: Lee et al.'s saved PCA, FPCA
    and MbF-PCA loadings) and the runs as in the reference code (:data:`REFERENCE_CODE_RUNS`) at
    k = 2 and 10, and Lee et al.'s synthetic data (``"synthetic20"``,
    ``"synthetic60"``, ``"synthetic100"``) with the eight methods of Fig. 2 at k = 5 and, at
    d = 100, the seven of Fig. 7 (all but FPCA) at k = 2, 5, 10, 20, 50 — each on ten splits.
    ``datasets``, ``methods`` and ``ks`` narrow the grid.
    """
    names = [*DATASETS, *SYNTHETIC.values()]
    chosen = names if datasets is None else [d if d in SYNTHETIC.values() else _dataset_key(d)
                                             for d in datasets]
    everything = {*METHODS, SAMADI_METHOD, *SYNTHETIC_METHODS, *REFERENCE_METHODS,
                  *REFERENCE_CODE_RUNS}
    unknown = [m for m in (methods or ()) if m not in everything]
    if unknown:
        raise ValueError(f"unknown method(s) {unknown}; choose among {sorted(everything)}.")
    keys = []
    for dataset in chosen:
        grid_methods, grid_ks = _grid(dataset)
        for method in grid_methods:
            for k in grid_ks:
                if ((methods is not None and method not in methods)
                        or (ks is not None and k not in ks)
                        or (method == "FPCA (0, 0.01)" and k != 5 and dataset not in DATASETS)
                        or (method in REFERENCE_METHODS
                            and not _has_reference(dataset, method, k))):
                    continue
                keys += [{"dataset": dataset, "method": method, "k": int(k), "split": int(i)}
                         for i in splits]
    return keys


def parse_key(fields):
    """A unit key from the text fields of its id (:func:`fairlab.experiments.unit_id`)."""
    return {"dataset": fields["dataset"], "method": fields["method"], "k": int(fields["k"]),
            "split": int(fields["split"])}


def _rows(scores, key, tables):
    return pd.DataFrame({
        "paper": PAPER, "table": tables, "dataset": scores["dataset"].to_numpy(),
        "method": scores["method"].to_numpy(), "k": key["k"], "eta": np.nan,
        "model": scores["model"].to_numpy(), "metric": scores["metric"].to_numpy(),
        "split": key["split"], "value": scores["value"].to_numpy(),
    })


def run_unit(key, parameters):
    """Fit ``key["method"]`` at ``key["k"]`` on one split and score it on the test part.

    Real data (Tables 1–4): Lee et al.'s split, the rows of :func:`score_splits` with the
    downstream classifiers (for a reference run, of :class:`~fairlab.evaluation.FixedProjection`
    on Lee et al.'s saved loadings of that split; for a run as in the reference code, of
    :class:`AsInReferenceCode`); ``table`` is the data set's table
    (``table4`` for Samadi et al.).
    Synthetic data: split ``key["split"]`` of :func:`gaussian_splits`, %Var, MMD² and linear
    inseparability (``fig2``, at k = 5) and the fit time (``fig3`` at k = 5, and ``fig7`` at
    d = 100).  ``eta`` is NaN: the paper has no η.
    """
    if key["method"] in REFERENCE_METHODS:
        model = {key["method"]: registry.build(key["method"], key["k"],
                                               dataset=key["dataset"], split=key["split"])}
    elif key["method"] in REFERENCE_CODE_RUNS:
        model = {key["method"]: registry.build(key["method"], key["k"],
                                               random_state=parameters["random_state"])}
    else:
        model = estimators(key["k"], [key["method"]], rlace_max_iter=parameters["rlace_max_iter"],
                           random_state=parameters["random_state"])
    if key["dataset"] in SYNTHETIC.values():
        d = next(dim for dim, name in SYNTHETIC.items() if name == key["dataset"])
        split = gaussian_splits(d, n_splits=key["split"] + 1,
                                random_state=parameters["random_state"])[key["split"]]
        scores = score_splits(model, [split], classifiers={}, linear_inseparability=True)
        scores["dataset"] = key["dataset"]
        timing = scores["metric"].isin(TIMINGS)
        frames = []
        if key["k"] == 5:
            frames += [_rows(scores[~timing], key, "fig2"), _rows(scores[timing], key, "fig3")]
        if d == 100:
            frames.append(_rows(scores[timing], key, "fig7"))
        return pd.concat(frames, ignore_index=True)
    dataset = _dataset_key(key["dataset"])
    split = load_lee2022_split(dataset, key["split"])
    split.dataset = dataset
    scores = score_splits(model, [split], protocols=(parameters["protocol"],))
    scores = scores[~scores["metric"].isin(TIMINGS)]
    table4 = base_method(key["method"]) == SAMADI_METHOD
    return _rows(scores, key, "table4" if table4 else TABLES[dataset])
