"""fairlab's erasers against other packages' implementations of the same methods, in one run.

Each row times fit + transform of the same training data by fairlab and by the package, with
one BLAS thread (and one PyTorch thread): the least CPU time of three calls of each, after a
warm-up, the two sides' calls alternating (:func:`paired`):

- ``LEACE`` (``method="leace"`` and ``"orthogonal"``) against the ``concept-erasure``
  package's ``LeaceFitter`` (``method="leace"`` and ``"orth"``), whose ``LeaceEraser`` then
  erases.  The package runs in float64, as fairlab does, with ``shrinkage=False``: its exact
  eraser, the map fairlab computes (its default shrinks Σ_XX, an estimator for small samples);
  its other settings are its defaults.  It takes the attribute one-hot, as a tensor: building
  that from the labels is part of its time, as parsing the labels is part of fairlab's.
- ``OracleLEACE`` against the package's ``OracleFitter`` / ``OracleEraser``, and against
  fairlearn's ``CorrelationRemover`` given X with the one-hot columns appended (the same
  eraser; fairlab has no adapter of its own for it): appending them is part of its time.
- ``LEACE`` against itself with the whitening it had before the current one: the thin SVD of
  the n × d centred data X̃ with its left vectors A, then AᵀZ̃ (:func:`former_svd_and_cross`,
  kept here as the baseline, not in the library), where ``_svd_and_cross`` now reads AᵀZ̃ and
  the SVD from a Householder QR of [X̃ Z̃].  Two rows per shape: that step alone on the same
  X̃ and Z̃, and fit + transform with the former step in its place.

Shapes 200 000 × 50, 50 000 × 50 and 20 000 × 500, two groups (group means differ along
every feature).  Goals: ≤ 1× each package, ≤ 0.5× the former whitening.  LEACE's whitening is a
Householder QR of the n × (d + m − 1) data, taken a cache-sized block of rows at a time, where the
package forms X̃ᵀX̃ (a matrix product, in several passes over the data) and its
eigendecomposition; a matrix product runs closer to the processor's peak than a QR does, and on
data a processor's cache can hold (50 000 × 50 is 20 MB) its passes cost least, which is why
that shape is in the table.

A package that is not installed (``pip install 'fairlab[compare]'`` brings concept-erasure and
PyTorch, the ``reductions`` extra fairlearn) leaves its rows out with a message; nothing fails.
INLP has no packaged implementation to compare with, and FairPCA's comparison with
scikit-learn's PCA is ``bench_pca``'s.

Run ``python benchmarks/bench_peers.py`` for the rows alone (``--quick``: 100 000 × 50 only,
as ``make bench-quick`` runs it).
"""

import argparse
import importlib
import sys
import time
from contextlib import contextmanager
from unittest import mock

import numpy as np
import pandas as pd
from scipy import linalg
from threadpoolctl import threadpool_limits

from fairlab._core.linalg import cross
from fairlab.baselines import LEACE, OracleLEACE
from fairlab.baselines import leace as leace_module

SHAPES = ((200_000, 50), (50_000, 50), (20_000, 500))
QUICK_SHAPES = ((100_000, 50),)
PACKAGE_GOAL = 1.0
FORMER_GOAL = 0.5


def make_data(n, d, m=2, seed=0):
    """n × d Gaussian rows whose m groups differ in mean along every feature."""
    rng = np.random.default_rng(seed)
    z = rng.integers(0, m, n)
    X = rng.standard_normal((n, d)) + rng.normal(size=(m, d))[z]
    return X, z


def former_svd_and_cross(Xc, Zc, mean=None):
    """The whitening LEACE had before: the thin SVD of X̃ with its left vectors A, then AᵀZ̃.

    The baseline of the speed-up row only; same outputs as ``_svd_and_cross`` to rounding
    (X̃ = ``Xc − mean`` when ``mean`` is given, as there).
    """
    if mean is not None:
        Xc = Xc - mean
    A, s, Bt = linalg.svd(Xc, full_matrices=False, lapack_driver="gesdd", check_finite=False)
    return s, Bt, cross(A, Zc)


@contextmanager
def one_thread(torch=None):
    """One BLAS thread, and one PyTorch thread when ``torch`` is given; restored on exit."""
    before = torch.get_num_threads() if torch is not None else None
    with threadpool_limits(limits=1):
        if torch is not None:
            torch.set_num_threads(1)
        try:
            yield
        finally:
            if torch is not None:
                torch.set_num_threads(before)


def ours(X, z, method):
    return LEACE(method=method).fit(X, sensitive_features=z).transform(X)


def ours_oracle(X, z):
    return OracleLEACE().fit(X, sensitive_features=z).transform(X, sensitive_features=z)


def package_leace(torch, concept_erasure, X, z, method):
    x = torch.from_numpy(X)
    onehot = torch.nn.functional.one_hot(torch.from_numpy(z)).to(torch.float64)
    fitter = concept_erasure.LeaceFitter.fit(x, onehot, method=method, shrinkage=False)
    return fitter.eraser(x).numpy()


def package_oracle(torch, concept_erasure, X, z):
    x = torch.from_numpy(X)
    onehot = torch.nn.functional.one_hot(torch.from_numpy(z)).to(torch.float64)
    eraser = concept_erasure.OracleFitter.fit(x, onehot).eraser
    return eraser(x, onehot).numpy()


def correlation_remover(CorrelationRemover, X, z):
    m = int(z.max()) + 1
    XZ = np.hstack([X, np.eye(m)[z]])
    ids = list(range(X.shape[1], X.shape[1] + m))
    return CorrelationRemover(sensitive_feature_ids=ids).fit(XZ).transform(XZ)


def _import(name):
    """The module, or None with a message that its rows are left out."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        print(f"bench_peers: the rows against {name} are left out ({exc})")
        return None


def goals(quick=False):
    """fairlab's LEACE and OracleLEACE against concept-erasure and fairlearn, and the former
    whitening; rows for ``benchmarks/goals.py``."""
    torch = _import("torch")
    peers = {"torch": torch,
             "concept_erasure": _import("concept_erasure") if torch is not None else None,
             "fairlearn": _import("fairlearn.preprocessing")}
    rows = []
    with one_thread(torch):
        for n, d in QUICK_SHAPES if quick else SHAPES:
            rows += shape_rows(*make_data(n, d), f"{n}×{d}, 2 groups, 1 thread, CPU time", **peers)
    return rows


def paired(ours, reference, repeats=3):
    """Least CPU seconds of ``repeats`` calls of each, after one warm-up of each.

    The calls alternate, so that a change in the load of a shared machine during the run falls
    on both sides alike; with one thread the process's CPU time is the wall time it would take
    on an otherwise idle core.
    """
    best = [np.inf, np.inf]
    ours(), reference()
    for _ in range(repeats):
        for i, func in enumerate((ours, reference)):
            t0 = time.process_time()
            func()
            best[i] = min(best[i], time.process_time() - t0)
    return best


def shape_rows(X, z, case, torch, concept_erasure, fairlearn):
    """The rows of one data set: each package that is installed, then the former whitening."""
    from timing import Goal

    rows = []

    def oracle():
        return ours_oracle(X, z)

    if concept_erasure is not None:
        for method, theirs in (("leace", "leace"), ("orthogonal", "orth")):
            rows.append(Goal(
                f'LEACE(method="{method}") fit + transform / concept-erasure '
                f'LeaceFitter(method="{theirs}", shrinkage=False)', case,
                *paired(lambda method=method: ours(X, z, method),
                        lambda theirs=theirs: package_leace(torch, concept_erasure, X, z, theirs)),
                PACKAGE_GOAL))
        rows.append(Goal(
            "OracleLEACE fit + transform / concept-erasure OracleFitter", case,
            *paired(oracle, lambda: package_oracle(torch, concept_erasure, X, z)), PACKAGE_GOAL))
    if fairlearn is not None:
        rows.append(Goal(
            "OracleLEACE fit + transform / fairlearn CorrelationRemover (one-hot columns)", case,
            *paired(oracle, lambda: correlation_remover(fairlearn.CorrelationRemover, X, z)),
            PACKAGE_GOAL))
    # LEACE's whitening (QR of [X̃ Z̃]) against the former full SVD of X̃: the step alone on
    # the same X̃ and Z̃, then fit + transform with the former step in its place.
    Xc = X - X.mean(axis=0)
    Zc = np.eye(int(z.max()) + 1)[z][:, 1:]
    Zc -= Zc.mean(axis=0)
    rows.append(Goal(
        "LEACE whitening: QR of [X̃ Z̃] / former full SVD of X̃ (benchmark's copy)", case,
        *paired(lambda: leace_module._svd_and_cross(Xc, Zc),
                lambda: former_svd_and_cross(Xc, Zc)), FORMER_GOAL))

    def former():
        with mock.patch.object(leace_module, "_svd_and_cross", former_svd_and_cross):
            return ours(X, z, "leace")

    rows.append(Goal(
        "LEACE fit + transform / the same with the former whitening (full SVD of X̃)", case,
        *paired(lambda: ours(X, z, "leace"), former), FORMER_GOAL))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 000 × 50 only")
    args = parser.parse_args(argv)
    rows = goals(quick=args.quick)
    frame = pd.DataFrame([{"measure": g.measure, "case": g.case, "ours (s)": g.ours,
                           "reference (s)": g.reference, "ratio": g.ratio,
                           "goal": f"≤ {g.goal:g}",
                           "status": "met" if g.ratio <= g.goal else "missed"} for g in rows])
    with pd.option_context("display.width", 250, "display.max_colwidth", 90,
                           "display.float_format", "{:.4g}".format):
        print(frame.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
