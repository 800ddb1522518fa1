"""Benchmark: exact Fair PLS vs scikit-learn's PLSRegression and vs the paper's gradient solver.

Setting of seed 002, Fig. 8: fit time as a function of the dimension d, with Lee et al.'s
"synthetic data #2" (``fairlab.datasets.make_lee_gaussians``: two Gaussian groups, the group
is the sensitive attribute).  The paper does not say which target it used; here
y = X β + noise with a fixed random β (so y is related to, but not a function of, the group).
n = 1000 rows (500 per group), d ∈ {10, 50, 100, 200, 500, 1000, 2000}.

Methods (all fits include the centring/scaling of the data):

* ``sklearn PLS``        ``PLSRegression(k)`` (NIPALS, one power step per component for one target);
* ``FairPLS eta=0``      ``FairPLS(k, eta=0)`` — identical output (checked: max |Δ prediction|);
* ``FairPLS eta=1``      ``FairPLS(k, eta=1)`` — the exact closed form per component;
* ``FairPLS gradient``   ``FairPLS(k, eta=1, solver="gradient")`` — seed 002's gradient ascent
  (default step, tol 1e-10), the algorithm the paper times.

k = 1 component as in Fig. 8 and k = 5 (the default table prints both).  Times are medians over
repeats; ratios < 1 mean "faster than scikit-learn".

Run:  python benchmarks/bench_pls.py           (about a minute on 2 cores)
      python benchmarks/bench_pls.py --quick   (smoke run, < 60 s)
"""

import argparse
import warnings

import numpy as np
import pandas as pd
from sklearn.cross_decomposition import PLSRegression

from fairlab import FairPLS
from fairlab.datasets import make_lee_gaussians
from fairlab.evaluation import runtime_sweep


def make_data(d, n_per_group=500, seed=0):
    X, _, z = make_lee_gaussians(n_per_group=n_per_group, n_features=d, n_latent=200,
                                 random_state=seed)
    rng = np.random.default_rng(seed)
    y = X @ rng.normal(size=d) / np.sqrt(d) + rng.normal(size=len(X))
    return {"X": X, "y": y, "s": z}


def methods(k):
    return {
        "sklearn PLS": lambda D: PLSRegression(k).fit(D["X"], D["y"]),
        "FairPLS eta=0": lambda D: FairPLS(k, eta=0.0).fit(D["X"], D["y"],
                                                           sensitive_features=D["s"]),
        "FairPLS eta=1": lambda D: FairPLS(k, eta=1.0).fit(D["X"], D["y"],
                                                           sensitive_features=D["s"]),
        "FairPLS gradient": lambda D: FairPLS(k, eta=1.0, solver="gradient").fit(
            D["X"], D["y"], sensitive_features=D["s"]),
    }


def agreement(D, k):
    """Max |Δ| of predictions (η=0 vs sklearn) and of weights (gradient vs exact)."""
    sk = PLSRegression(k).fit(D["X"], D["y"])
    f0 = FairPLS(k, eta=0.0).fit(D["X"], D["y"], sensitive_features=D["s"])
    ex = FairPLS(k, eta=1.0).fit(D["X"], D["y"], sensitive_features=D["s"])
    gr = FairPLS(k, eta=1.0, solver="gradient").fit(D["X"], D["y"], sensitive_features=D["s"])
    return (float(np.abs(sk.predict(D["X"]) - f0.predict(D["X"])).max()),
            float(np.abs(ex.x_weights_ - gr.x_weights_).max()), gr.n_iter_)


def main(quick=False):
    dims = [10, 100, 500] if quick else [10, 50, 100, 200, 500, 1000, 2000]
    repeats = 3 if quick else 5
    ks = [1] if quick else [1, 5]
    tables = []
    for k in ks:
        grid = [{"d": d} for d in dims]
        df = runtime_sweep(methods(k), make_data, grid, repeats=repeats, warmup=True)
        wide = df.pivot(index="d", columns="method", values="seconds")
        base = wide["sklearn PLS"]
        out = pd.DataFrame({
            "k": k,
            "sklearn PLS [ms]": 1e3 * base,
            "FairPLS η=0 / sklearn": wide["FairPLS eta=0"] / base,
            "FairPLS η=1 / sklearn": wide["FairPLS eta=1"] / base,
            "gradient / exact (η=1)": wide["FairPLS gradient"] / wide["FairPLS eta=1"],
        })
        checks = [agreement(make_data(d), k) for d in dims]
        out["max|Δŷ| vs sklearn"] = [c[0] for c in checks]
        out["max|Δw| grad-exact"] = [c[1] for c in checks]
        out["grad iters"] = [c[2] for c in checks]
        tables.append(out.reset_index())
    table = pd.concat(tables, ignore_index=True)
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(table.to_string(index=False, float_format=lambda v: f"{v:.3g}"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small grid, smoke run (< 60 s)")
    args = parser.parse_args()
    warnings.simplefilter("ignore", UserWarning)
    main(quick=args.quick)
