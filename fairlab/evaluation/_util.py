"""Small helpers shared by the evaluation protocols and the experiments.
"""


import numpy as np
import pandas as pd


def _progress(iterable, enabled, total=None, desc=None):
    """tqdm around ``iterable`` when enabled (quiet by default, so nbval outputs reproduce)."""
    if not enabled:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, total=total, desc=desc, leave=False)


def _to_numpy(a):
    return a.to_numpy() if isinstance(a, (pd.Series, pd.DataFrame)) else np.asarray(a)


def _check_names(values, allowed, name):
    values = (values,) if isinstance(values, str) else tuple(values)
    bad = [v for v in values if v not in allowed]
    if bad or not values:
        raise ValueError(f"{name} must be among {list(allowed)}; got {list(values)!r}.")
    return values



def _dataset_key(dataset, names):
    """The key of ``dataset`` in ``names`` (key -> printed name), from the key or printed name."""
    if isinstance(dataset, str):
        key = dataset.strip().lower()
        for k, name in names.items():
            if key in (k, name.lower()):
                return k
    raise ValueError(
        f"dataset must be one of {list(names)} (or the printed names {list(names.values())}); "
        f"got {dataset!r}."
    )
