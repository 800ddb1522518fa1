"""The precision each exercise's answer is judged at: label -> role -> one step per entry.

A check hashes an answer binned at these steps (:mod:`._hashing`): a number within one step of
the reference is taken, one farther than one and a half steps is not.  ``None`` marks a name,
compared exactly.  The roles other than ``"answer"`` are the typical mistakes a check
recognises to give their hint.
"""

STEPS = {
    "ex-datasets-age": {"answer": (5e-4, 5e-4), "swapped": (5e-4, 5e-4),
                        "bad-credit-ge": (5e-3,), "bad-credit-gt": (5e-3,)},
    "ex-insep-test": {"answer": (5e-4, 5e-4), "swapped": (5e-4, 5e-4)},
    "ex-fpca-numerical": {"answer": (1e-3, 1e-3)},
    "ex-variants-l": {"answer": (5e-3,) * 8},
    "ex-repro-ddof": {"answer": (5e-4,), "variances": (5e-4,), "inverted": (5e-4,)},
    "ex-repro-protocol": {"answer": (None,), "largest": (None,)},
    "ex-erasure-parity": {role: (5e-3, 5e-3) for role in ("answer", "pixels", "pca",
                                                          "fair-pca-s")},
    "ex-ps-encoding": {"answer": (3e-5,), "columns": (1e-3,)},
    "ex-ps-measure": {"answer": (None,), "binary": (None,)},
    "ex-dediego-ci": {role: (5e-3, 5e-3) for role in ("answer", "pooled", "ninety")},
    "ex-scaling-shift": {"answer": (0.25,)},
    "ex-audit-train-test": {"answer": (1e-3,)},
}
