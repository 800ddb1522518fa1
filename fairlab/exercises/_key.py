"""The instructor's key: the reference value of every checked exercise and of its typical mistakes.

This module stays with the instructor: the student bundle leaves it out and ships only the salted
digests of these values at the precisions that ``_precision.STEPS`` declares (``_hashing``). Values
are those of the chapters at their default parameters: where one is cheap it is computed here,
otherwise it is the value the chapter's solution cell prints, to more digits than the check's
precision (``tests/test_exercises.py`` recomputes each from the instructor's solution and checks
that the key accepts it).
"""

from __future__ import annotations

import math

_Z95, _Z90 = 1.959963984540054, 1.6448536269514722  # standard normal quantiles 0.975, 0.95


def _di_interval(rate_0, rate_1, n_per_group, z):
    """The Wald interval of the ratio rate_0 / rate_1 (delta method), as in chapter 15."""
    di = rate_0 / rate_1
    se = di * math.sqrt((1 - rate_0) / (n_per_group * rate_0)
                        + (1 - rate_1) / (n_per_group * rate_1))
    return di - z * se, di + z * se


def references():
    """``{label: {role: values}}``: role "answer" is the reference, the others typical mistakes."""
    age_ge, age_gt = 0.821248, 0.794826         # chapter 2's summary tables (good credit)
    train, test = 526 / 1582, 0.331370         # chapter 3: the women's share of the training rows
    return {
        "ex-datasets-age": {
            "answer": (age_ge, age_gt),
            "swapped": (age_gt, age_ge),
            "bad-credit-ge": (0.6860,),            # the same ratio for the bad-credit label
            "bad-credit-gt": (0.8393,),
        },
        "ex-insep-test": {"answer": (train, test), "swapped": (test, train)},
        "ex-fpca-numerical": {
            # sum and maximum of |U^T R| (chapter 4, d = 6): invariant under the columns' signs
            "answer": (10.334883, 0.666178),
        },
        "ex-variants-l": {
            # chapter 5's sweep (500 points per group, seed 0), l = 2, ..., 9
            "answer": (0.496, 0.500, 0.487, 0.492, 0.464, 0.474, 0.617, 0.926),
        },
        "ex-repro-ddof": {"answer": (math.sqrt(10 / 9),), "variances": (10 / 9,),
                          "inverted": (math.sqrt(9 / 10),)},
        "ex-repro-protocol": {"answer": ("adult",), "largest": ("german",)},
        "ex-erasure-parity": {
            # chapter 13, seed 0, all 1 797 digits: the rows of concept_erasure.scores
            "answer": (0.503893, 0.850945),
            "pixels": (0.901001, 0.944383),
            "pca": (0.846496, 0.879867),
            "fair-pca-s": (0.503893, 0.274750),
        },
        "ex-ps-encoding": {
            # LR's test HSIC for n_children ("with S", repetition 0) at chapter 14's defaults
            "answer": (0.00104,),
            "columns": (0.0494,),
        },
        "ex-ps-measure": {"answer": ("sex+race",), "binary": ("sex",)},
        "ex-dediego-ci": {
            "answer": _di_interval(0.4, 0.5, 100, _Z95),
            "pooled": _di_interval(0.4, 0.5, 200, _Z95),   # divided by the 200 rows together
            "ninety": _di_interval(0.4, 0.5, 100, _Z90),   # a 90 % interval
        },
        "ex-scaling-shift": {
            # chapter 16's X_mem: 5.746 (OpenBLAS SkylakeX), 5.759 (Sandybridge, Nehalem)
            "answer": (5.75,),
        },
        "ex-audit-train-test": {
            # chapter 18: the test gap of Fair PCA (5 components) on Adult's split
            "answer": (0.182322,),
        },
    }
