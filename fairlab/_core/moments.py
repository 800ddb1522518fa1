r"""Sufficient statistics of the linear methods: sums over rows, from chunks or dask blocks.

FairPCA, FairPLS and FairLinearRegression need only sums over the rows of [X, Y, S]:

* the count n, the column sums and the scatter matrix Σᵢ vᵢvᵢᵀ of the numeric variables
  v = [x, y, s_continuous] (X, the targets, the continuous sensitive columns);
* for every categorical sensitive attribute, the group sizes n_g and the group sums Σ_{i∈g} vᵢ
  (which give XᵀZ̃, the constraint of fair PCA, and XᵀS̃ of FLR and Fair PLS), and, for Fair
  PCA-S only, the group scatter matrices Σ_{i∈g} xᵢxᵢᵀ;
* for several attributes, the distinct combinations of their labels (to find the rank of the
  centred indicators exactly, as :meth:`~fairlab._core.validation.SensitiveGroups.contrasts`).

:class:`Moments` holds them; it is updated by a chunk of rows (``partial_fit``) and merged with
another one (the tree reduction over the blocks of a dask array), so a fit on a stream or on a
dask array equals the fit on the concatenated rows to rounding.  Both paths hand the statistics
to the same "statistics → solution" code as the in-memory fit.

Accuracy.  Every row is shifted by a fixed c, the mean of the first chunk (``partial_fit``) or of
the first row block (dask), before it is summed: Σ(v − c)(v − c)ᵀ − nδδᵀ with δ = v̄ − c is the
centred scatter matrix without the cancellation of Σvvᵀ − n v̄v̄ᵀ for data far from the origin
(the in-memory fit shifts its row blocks the same way).  The column norms of the shifted rows,
the scale of the rounding error of the constraint, are the square roots of the scatter's diagonal.

Groups.  Labels are collected as they come (a label → index map per attribute); statistics are
padded when a new label appears, and sorted by label when the solution is computed, so their
order is the in-memory one (``np.unique``).  On a dask array the label sets are found in the
same single pass: each block reports its own labels, and the merge aligns them.

Dask is optional: :func:`is_dask` recognises its collections without importing it, and
:func:`import_dask` raises a clear ``ImportError`` when one is passed but dask is missing.
"""

# SPDX-License-Identifier: BSD-3-Clause

import warnings
from dataclasses import dataclass, replace

import numpy as np
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from .linalg import cross, gram
from .validation import SensitiveGroups, _as_2d_columns, _is_missing, check_continuous_finite

_SPLIT_EVERY = 8  # fan-in of the tree reduction of the block statistics
_SLICE_ROWS = 8192  # rows shifted and summed at a time (no copy of a whole chunk)


# ---------------------------------------------------------------------------------------------
# Dask detection (without importing it)
# ---------------------------------------------------------------------------------------------
def is_dask(obj):
    """True for a dask collection (Array, DataFrame, Series); dask itself is not imported."""
    return obj is not None and (type(obj).__module__ or "").startswith("dask")


def any_dask(*objects):
    """True when any of ``objects`` is a dask collection."""
    return any(is_dask(o) for o in objects)


def import_dask():
    """Import ``dask`` and ``dask.array``, or explain how to get them."""
    try:
        import dask
        import dask.array as da
    except ImportError as exc:
        raise ImportError(
            "a dask collection was passed, but dask is not installed. Install it with "
            "pip install 'fairlab[dask]' (or pip install 'dask[array]'), or pass a NumPy array "
            "or a pandas DataFrame instead (e.g. X.compute() for data that fit in memory)."
        ) from exc
    return dask, da


def reject_dask(estimator, *objects, alternative=""):
    """Refuse dask input for an estimator that has no blockwise fit (instead of materialising)."""
    if any_dask(*objects):
        raise TypeError(
            f"{type(estimator).__name__} does not accept dask collections: it needs all rows in "
            f"memory at once.{(' ' + alternative) if alternative else ''} For data that fit in "
            "memory, pass X.compute()."
        )


# ---------------------------------------------------------------------------------------------
# The statistics
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Spec:
    """What to accumulate.

    n_features : int
        d, the columns of X (the first d numeric variables).
    n_targets : int
        Columns of Y kept as numeric variables (FairPLS, FLR); 0 for FairPCA.
    kinds : tuple of {"continuous", "categorical"}
        One per sensitive attribute, in order.  Continuous ones are numeric variables (after X
        and Y); categorical ones get group statistics.
    group_scatter : bool
        Also accumulate Σ_{i∈g}(xᵢ − c)(xᵢ − c)ᵀ per group (Fair PCA-S).
    combinations : bool
        Also collect the distinct label combinations of the categorical attributes.
    row_filter : tuple or None
        ``(label,)``: only the rows with y == label are summed (equal opportunity); y is then
        not a variable.
    """

    n_features: int
    n_targets: int = 0
    kinds: tuple = ()
    group_scatter: bool = False
    combinations: bool = False
    row_filter: tuple | None = None

    @property
    def n_numeric(self):
        return self.n_features + self.n_targets + self.kinds.count("continuous")

    @property
    def n_categorical(self):
        return self.kinds.count("categorical")


class Moments:
    """Mergeable sums over rows (see the module docstring).

    Parameters
    ----------
    spec : Spec
    shift : ndarray of shape (spec.n_numeric,)
        The fixed shift c subtracted from every row before it is summed.
    """

    def __init__(self, spec, shift):
        self.spec = spec
        self.shift = np.array(shift, dtype=np.float64).reshape(-1)
        p, d = self.shift.size, spec.n_features
        self.n = 0
        self.total = np.zeros(p)  # Σ(v − c)
        self.scatter = np.zeros((p, p))  # Σ(v − c)(v − c)ᵀ
        r = spec.n_categorical
        self.labels = [[] for _ in range(r)]  # labels in order of appearance
        self._index = [{} for _ in range(r)]
        self.counts = [np.zeros(0, dtype=np.int64) for _ in range(r)]
        self.group_totals = [np.zeros((0, p)) for _ in range(r)]  # Σ_{i∈g}(v − c)
        self.group_scatters = (
            [np.zeros((0, d, d)) for _ in range(r)] if spec.group_scatter else None
        )
        self.combinations = set() if spec.combinations else None

    # -- accumulation ------------------------------------------------------------------------
    def _register(self, r, labels):
        """Global indices of ``labels`` in attribute r, adding (and padding for) new ones."""
        index = self._index[r]
        new = [lab for lab in labels if lab not in index]
        if new:
            for lab in new:
                index[lab] = len(self.labels[r])
                self.labels[r].append(lab)
            m = len(new)
            self.counts[r] = np.concatenate([self.counts[r], np.zeros(m, dtype=np.int64)])
            self.group_totals[r] = np.vstack([self.group_totals[r],
                                              np.zeros((m, self.shift.size))])
            if self.group_scatters is not None:
                d = self.spec.n_features
                self.group_scatters[r] = np.concatenate([self.group_scatters[r],
                                                         np.zeros((m, d, d))])
        return np.array([index[lab] for lab in labels], dtype=np.intp)

    def update(self, V, categorical):
        """Add a chunk: numeric variables V (rows × p), one label array per categorical attribute.

        The chunk is read in slices of ``_SLICE_ROWS`` rows, shifted one at a time: no copy of
        the chunk is made, whatever its size.
        """
        rows = V.shape[0]
        if rows == 0:
            return self
        groups = []
        for r, col in enumerate(categorical):
            labels, inverse = np.unique(col, return_inverse=True)
            idx = self._register(r, labels.tolist())
            inverse = inverse.reshape(-1)
            self.counts[r][idx] += np.bincount(inverse, minlength=labels.size)
            groups.append((idx, inverse))
        d = self.spec.n_features
        for start in range(0, rows, _SLICE_ROWS):
            B = V[start : start + _SLICE_ROWS] - self.shift
            self.total += B.sum(axis=0)
            self.scatter += gram(B)
            for r, (idx, inverse) in enumerate(groups):
                part = inverse[start : start + _SLICE_ROWS]
                Z = np.zeros((B.shape[0], idx.size))
                Z[np.arange(B.shape[0]), part] = 1.0
                self.group_totals[r][idx] += cross(Z, B)
                if self.group_scatters is not None:
                    for j in np.unique(part):
                        self.group_scatters[r][idx[j]] += gram(B[part == j, :d])
        self.n += rows
        if self.combinations is not None and groups:
            codes = np.column_stack([idx[inverse] for idx, inverse in groups])
            self.combinations.update(
                tuple(self.labels[r][c] for r, c in enumerate(row))
                for row in np.unique(codes, axis=0).tolist()
            )
        return self

    def merge(self, other):
        """Add the statistics of ``other`` (same spec and shift) to these; returns self."""
        if other.spec != self.spec or not np.array_equal(other.shift, self.shift, equal_nan=True):
            raise ValueError("cannot merge statistics accumulated with different specs or shifts")
        self.n += other.n
        self.total += other.total
        self.scatter += other.scatter
        for r in range(self.spec.n_categorical):
            idx = self._register(r, other.labels[r])
            self.counts[r][idx] += other.counts[r]
            self.group_totals[r][idx] += other.group_totals[r]
            if self.group_scatters is not None:
                self.group_scatters[r][idx] += other.group_scatters[r]
        if self.combinations is not None:
            self.combinations |= other.combinations
        return self

    def empty_copy(self):
        return Moments(self.spec, self.shift)

    # -- centred quantities ----------------------------------------------------------------------
    @property
    def delta(self):
        """Mean of the shifted rows, v̄ − c."""
        return self.total / self.n

    def mean(self):
        """Column means v̄ of the numeric variables."""
        return self.shift + self.delta

    def centred_scatter(self):
        """Σ(v − v̄)(v − v̄)ᵀ = Σ(v − c)(v − c)ᵀ − nδδᵀ."""
        delta = self.delta
        return self.scatter - self.n * np.outer(delta, delta)

    def row_norms(self):
        """Column norms of the rows as read (shifted): the scale of the products' rounding."""
        return np.sqrt(np.maximum(np.diag(self.scatter), 0.0))

    def check_finite(self, what="X"):
        """Raise if a NaN/inf reached the sums (NaN or infinity in the data, or overflow)."""
        if not (np.all(np.isfinite(self.total)) and np.all(np.isfinite(self.scatter))):
            raise ValueError(
                f"Input {what} contains NaN or infinity (or values so large that their squares "
                "overflow float64): the accumulated statistics are not finite. Remove or impute "
                "those rows, or rescale the data."
            )

    def groups(self, r):
        """Sorted labels, sizes n_g and centred group sums Σ_{i∈g}(v − v̄) of attribute r.

        The centred sums are Z_gᵀ(V − 1v̄ᵀ) = Z̃_gᵀ V: the constraint columns of fair PCA, and
        the cross products X̃ᵀS̃ of the categorical part of S (one-hot columns).
        """
        labels = self.labels[r]
        order = sorted(range(len(labels)), key=labels.__getitem__)
        counts = self.counts[r][order]
        centred = self.group_totals[r][order] - counts[:, None] * self.delta[None, :]
        return [labels[i] for i in order], counts, centred, order

    def group_covariance(self, r, g_sorted):
        """Covariance (divisor n_g − 1) of X in group ``g_sorted`` (sorted order) of attribute r."""
        order = self.groups(r)[3]
        g = order[g_sorted]
        n_g = self.counts[r][g]
        d = self.spec.n_features
        delta_g = self.group_totals[r][g, :d] / n_g
        return (self.group_scatters[r][g] - n_g * np.outer(delta_g, delta_g)) / (n_g - 1)

    def sensitive_groups(self):
        """:class:`~fairlab._core.validation.SensitiveGroups` of the distinct label combinations.

        Its ``codes`` are the distinct code rows (not one per row of the data): enough for
        ``n_groups``, ``independent_columns`` and ``n_constraints``, which only use them.
        """
        categories = [np.array(self.groups(r)[0]) for r in range(self.spec.n_categorical)]
        if self.combinations is None:
            codes = np.zeros((1, len(categories)), dtype=np.intp)
        else:
            position = [{lab: i for i, lab in enumerate(self.groups(r)[0])}
                        for r in range(self.spec.n_categorical)]
            codes = np.array([[position[r][lab] for r, lab in enumerate(combo)]
                              for combo in sorted(self.combinations, key=repr)], dtype=np.intp)
        return SensitiveGroups(codes=codes, categories=categories)


def check_groups_of(moments, min_group_size, name="sensitive_features"):
    """The checks of :func:`~fairlab._core.validation.check_groups`, on accumulated group sizes."""
    for r in range(moments.spec.n_categorical):
        labels, counts, _, _ = moments.groups(r)
        if len(labels) < 2:
            single = labels[0] if labels else None
            raise ValueError(
                f"{name} attribute {r} has a single group ({single!r}); a fairness constraint "
                "needs at least two groups. Pass sensitive_features=None for the unconstrained "
                "method."
            )
        if counts.min() < min_group_size:
            small = labels[int(np.argmin(counts))]
            raise ValueError(
                f"{name} attribute {r}: group {small!r} has {counts.min()} row(s), fewer than the "
                f"{min_group_size} needed; merge it with another group or drop those rows."
            )


# ---------------------------------------------------------------------------------------------
# Chunks: numeric variables and labels of a block of rows
# ---------------------------------------------------------------------------------------------
def sensitive_kinds(columns, continuous_kinds):
    """"continuous" for columns whose dtype kind is in ``continuous_kinds``, else "categorical"."""
    return tuple("continuous" if np.dtype(c.dtype).kind in continuous_kinds else "categorical"
                 for c in columns)


#: The largest |s| of a continuous sensitive column whose squares, summed over up to 1e8 rows,
#: stay finite in float64.
MAX_SUMMABLE = 1e150


def _check_summable(values, where):
    """Refuse a continuous column whose squares overflow in the streamed sums.

    The in-memory fits rescale such a column by an exact power of two before they decide its
    rank; the streamed sums (dask arrays, ``partial_fit``) cannot, since a scale chosen on one
    chunk may not suit the next, so they say so instead of blaming X for an infinity.
    """
    top = float(np.max(np.abs(values), initial=0.0))
    if top > MAX_SUMMABLE:
        raise ValueError(
            f"{where} reaches |s| = {top:.3g}: its squares overflow float64 in the streamed "
            f"sums (dask arrays, partial_fit), which need max|s| <= {MAX_SUMMABLE:g}: "
            "rescale the column (e.g. divide it by its standard deviation: a fairness "
            "constraint does not change; a penalty's weight does) or fit it in memory, where "
            "it is rescaled exactly.")


def chunk_variables(spec, X, Y, columns, name="sensitive_features"):
    """(V, categorical label arrays) of one chunk: V = [X, Y, continuous sensitive columns]."""
    parts = [np.asarray(X, dtype=np.float64)]
    if spec.n_targets:
        parts.append(np.asarray(Y, dtype=np.float64).reshape(X.shape[0], -1))
    categorical = []
    for r, (kind, col) in enumerate(zip(spec.kinds, columns)):
        col = np.asarray(col)
        if kind == "continuous":
            try:
                values = col.astype(np.float64)
            except (TypeError, ValueError):
                raise ValueError(
                    f"{name} attribute {r} was numeric (continuous) in the first chunk but holds "
                    f"{col.dtype} values here; keep the encoding of an attribute across chunks."
                ) from None
            check_continuous_finite(values, f"{name} attribute {r}")
            _check_summable(values, f"{name} attribute {r} (continuous)")
            parts.append(values[:, None])
        else:
            if col.size and _is_missing(col).any():
                raise ValueError(
                    f"{name} contains missing values (NaN/None) in attribute {r}; give every "
                    "row a group label (e.g. an explicit 'unknown' group)."
                )
            categorical.append(col)
    V = np.hstack(parts) if len(parts) > 1 else parts[0]
    return V, categorical


def _block_moments(X, *rest, spec, shift, has_y, n_columns):
    """Statistics of one row block of dask arrays (run on the workers)."""
    Y = rest[0] if has_y else None
    columns = list(rest[1 if has_y else 0:][:n_columns])
    rows = X.shape[0]
    if (Y is not None and Y.shape[0] != rows) or any(c.shape[0] != rows for c in columns):
        raise ValueError(
            "the row blocks of X, y and sensitive_features do not line up (different partition "
            "lengths); give them the same row chunks."
        )
    if spec.row_filter is not None:
        keep = positive_rows(Y, spec.row_filter[0])
        X, columns = X[keep], [c[keep] for c in columns]
        Y = None
    V, categorical = chunk_variables(spec, X, Y, columns)
    out = np.empty((1,), dtype=object)
    out[0] = Moments(spec, shift).update(V, categorical)
    return out


def positive_rows(y, pos_label):
    """Boolean mask of the rows with y == pos_label of one chunk (equal opportunity)."""
    y = np.asarray(y).reshape(-1)
    if y.dtype.kind == "f" and y.size and not np.all(y == np.round(y)):
        raise ValueError(
            "fairness='equal_opportunity' needs class labels in y (it fits on the rows with "
            "y == pos_label); got continuous values. Binarise y first, e.g. "
            "y = (y >= threshold).astype(int), or use fairness='demographic_parity'."
        )
    return y == pos_label


def _flatten(parts):
    if isinstance(parts, (list, tuple)):
        for p in parts:
            yield from _flatten(p)
    elif isinstance(parts, np.ndarray) and parts.dtype == object:
        yield from parts.ravel().tolist()
    else:
        yield parts


def _merge_blocks(parts, axis=None, keepdims=None):
    """Combine/aggregate step of the tree reduction: merge the Moments of several blocks."""
    found = list(_flatten(parts))
    acc = found[0].empty_copy()
    for m in found:
        acc.merge(m)
    out = np.empty((1,), dtype=object)
    out[0] = acc
    return out


def _chunk_identity(x, axis=None, keepdims=None):
    return x


# ---------------------------------------------------------------------------------------------
# Dask inputs
# ---------------------------------------------------------------------------------------------
def _known_chunks(A, name):
    if any(np.isnan(c) for cs in A.chunks for c in cs):
        raise ValueError(
            f"{name} is a dask array with unknown chunk sizes (NaN), e.g. after boolean "
            f"indexing; call {name}.compute_chunk_sizes() first (one pass over the data), or "
            "build it with known chunks."
        )
    return A


def _to_dask_array(obj, da, name, lengths=None):
    """A dask array from a dask Array/DataFrame/Series or from an in-memory array."""
    if is_dask(obj) and hasattr(obj, "to_dask_array"):  # dask DataFrame or Series
        with warnings.catch_warnings():
            # categorical / string columns become object arrays of their labels: what we need
            warnings.filterwarnings("ignore", message=".*extension dtypes to arrays")
            return obj.to_dask_array(lengths=True if lengths is None else lengths)
    if is_dask(obj):
        return _known_chunks(obj, name)
    return None


def dask_inputs(estimator, X, y=None, sensitive_features=None, *, reset=True):
    """Validated dask inputs: X (n × d float64, known chunks, one column chunk), y, columns.

    ``y`` comes back as a 2-D dask array (n × m) or None and ``sensitive_features`` as a list of
    1-D dask arrays (one per attribute) or None.  A dask DataFrame/Series is converted with
    ``to_dask_array(lengths=True)`` (which computes the partition lengths); the others reuse
    X's row chunks, and blocks whose lengths do not match are refused when they are computed.
    In-memory arrays passed next to dask ones are wrapped with X's row chunks.
    """
    _, da = import_dask()
    from sklearn.utils.validation import _check_feature_names, _check_n_features

    if X is None:
        raise ValueError("X is None; pass a 2-D array of shape (n_samples, n_features).")
    _check_feature_names(estimator, _names_only(X), reset=reset)
    if is_dask(X):
        A = _to_dask_array(X, da, "X")
    else:
        A = np.asarray(X)
        A = da.from_array(A, chunks=(_row_chunks(y, sensitive_features, A.shape[0]), -1))
    if A.ndim != 2:
        raise ValueError(
            f"Expected a 2-D array for X, got a dask array with {A.ndim} dimension(s); reshape "
            "it to (n_samples, n_features)."
        )
    if A.dtype.kind not in "biuf":
        raise ValueError(
            f"X must hold numbers; got a dask array of dtype {A.dtype}. Convert it, e.g. "
            "X.astype(float), or encode its categorical columns first."
        )
    _check_n_features(estimator, A, reset=reset)
    n = A.shape[0]
    if A.chunks[1] != (A.shape[1],):
        A = A.rechunk({1: -1})
    A = A.astype(np.float64)
    rows = A.chunks[0]

    Y = None
    if y is not None:
        Y = _to_dask_array(y, da, "y", lengths=rows if _is_frame(y) else None)
        if Y is None:
            Y = da.from_array(np.asarray(y), chunks=(rows,) + np.shape(y)[1:])
        if Y.ndim not in (1, 2) or Y.shape[0] != n:
            raise ValueError(
                f"y must be 1-D or 2-D with one row per row of X ({n}); got shape {Y.shape}."
            )
        if Y.ndim == 1:
            Y = Y[:, None]

    columns = None
    if sensitive_features is not None:
        columns = _dask_columns(sensitive_features, da, n, rows)
    return A, Y, columns


def _names_only(X):
    """An empty pandas DataFrame with the columns of a dask DataFrame (for the feature names)."""
    if _is_frame(X) and getattr(X, "ndim", 1) == 2:
        import pandas as pd

        return pd.DataFrame(columns=X.columns)
    return X


def _is_frame(obj):
    return is_dask(obj) and hasattr(obj, "to_dask_array")


def _row_chunks(y, sensitive_features, n):
    for obj in (y, sensitive_features):
        if is_dask(obj) and not _is_frame(obj):
            return _known_chunks(obj, "y" if obj is y else "sensitive_features").chunks[0]
    return "auto"


def _dask_columns(sensitive_features, da, n, rows, name="sensitive_features"):
    s = sensitive_features
    if _is_frame(s):
        frame_columns = [s] if s.ndim == 1 else [s[c] for c in s.columns]
        columns = [_to_dask_array(c, da, name, lengths=rows) for c in frame_columns]
    elif is_dask(s):
        s = _known_chunks(s, name)
        if s.ndim == 1:
            columns = [s]
        elif s.ndim == 2:
            columns = [s[:, j] for j in range(s.shape[1])]
        else:
            raise ValueError(
                f"{name} must be 1-D (one attribute) or 2-D (n_samples, n_attributes); got a "
                f"dask array with {s.ndim} dimensions."
            )
    else:
        columns = [da.from_array(c, chunks=(rows,))
                   for c in _as_2d_columns(sensitive_features, n, name)]
    for c in columns:
        if c.shape[0] != n:
            raise ValueError(
                f"{name} has {c.shape[0]} entries but X has {n} rows; pass one sensitive value "
                "per row of X."
            )
    if not columns:
        raise ValueError(f"{name} has no columns; pass at least one sensitive attribute.")
    return columns


def dask_moments(spec, X, Y=None, columns=()):
    """The :class:`Moments` of dask arrays: all the sums in one ``dask.compute``.

    The shift c is the mean of the first row block of each numeric variable, computed first
    (that block only); then every row block becomes one :class:`Moments` (``blockwise``), and
    they are merged by a tree reduction (``dask.array.reduction``), in a single compute.  With
    ``spec.row_filter`` only the rows with Y == label are summed (equal opportunity; Y then is
    not a variable).
    """
    dask, da = import_dask()
    columns = list(columns or ())
    numeric = [X]
    if spec.n_targets:
        numeric.append(Y)
    numeric += [c[:, None].astype(np.float64) for kind, c in zip(spec.kinds, columns)
                if kind == "continuous"]
    # the shift: a small compute of its own (one block), so that each block's task depends on its
    # own rows only and the scheduler can free every block as soon as it is summed
    (shift,) = dask.compute(da.concatenate([a.blocks[0].mean(axis=0) for a in numeric]))
    shift = np.asarray(shift, dtype=np.float64)
    has_y = Y is not None and (spec.n_targets > 0 or spec.row_filter is not None)
    args = [X, "ij"]
    if has_y:
        args += [Y, "il"]
    for c in columns:
        args += [c, "i"]
    blocks = da.blockwise(
        _block_moments, "i", *args,
        spec=spec, shift=shift, has_y=has_y, n_columns=len(columns),
        dtype=object, adjust_chunks={"i": 1}, concatenate=True,
        meta=np.empty((0,), dtype=object),
    )
    total = da.reduction(
        blocks, _chunk_identity, _merge_blocks, combine=_merge_blocks, axis=0,
        keepdims=True, dtype=object, concatenate=False, split_every=_SPLIT_EVERY,
        meta=np.empty((0,), dtype=object),
    )
    (result,) = dask.compute(total)
    return result.ravel()[0]


# ---------------------------------------------------------------------------------------------
# Lazy transforms of dask arrays
# ---------------------------------------------------------------------------------------------
def map_rows(X, func, n_out, *args, drop_columns=False):
    """``func(block, *args)`` on every row block of the 2-D dask array X (lazy result).

    The result has X's row chunks and ``n_out`` columns (1-D when ``drop_columns``).
    """
    if X.chunks[1] != (X.shape[1],):
        X = X.rechunk({1: -1})
    if drop_columns:
        return X.map_blocks(func, *args, drop_axis=1, chunks=(X.chunks[0],), dtype=np.float64,
                            meta=np.empty((0,), dtype=np.float64))
    return X.map_blocks(func, *args, chunks=(X.chunks[0], (n_out,)), dtype=np.float64,
                        meta=np.empty((0, 0), dtype=np.float64))


def dask_transform_input(estimator, X):
    """X of ``transform``/``predict`` as a 2-D float64 dask array with the fitted feature count."""
    _, da = import_dask()
    from sklearn.utils.validation import _check_feature_names

    _check_feature_names(estimator, _names_only(X), reset=False)
    A = _to_dask_array(X, da, "X")
    if A.ndim != 2:
        raise ValueError(f"Expected a 2-D array, got a dask array with {A.ndim} dimension(s).")
    if A.shape[1] != estimator.n_features_in_:
        raise ValueError(
            f"X has {A.shape[1]} features, but {type(estimator).__name__} is expecting "
            f"{estimator.n_features_in_} features as input."
        )
    if A.dtype.kind not in "biuf":
        raise ValueError(f"X must hold numbers; got a dask array of dtype {A.dtype}.")
    return A.astype(np.float64)


# ---------------------------------------------------------------------------------------------
# partial_fit: a stream of chunks
# ---------------------------------------------------------------------------------------------
def check_fitted(estimator):
    """``check_is_fitted``, saying why when ``partial_fit``'s sums have no solution yet."""
    error = estimator.__dict__.get("_stream_error")
    if error is not None:
        raise NotFittedError(
            f"The statistics accumulated by partial_fit so far have no solution yet: {error}"
        ) from error
    check_is_fitted(estimator)


class StreamingMixin:
    """``partial_fit`` plumbing shared by the linear estimators.

    Every ``partial_fit`` adds the :class:`Moments` of its chunk (O(rows·p²)) and then solves
    the small "statistics → solution" problem (O(p³), as scikit-learn's ``IncrementalPCA``), so
    the fitted attributes are plain attributes, current after every call.  A stream may pass
    through states that have no solution yet (a group with one row so far): the error is then
    kept, the attributes are removed, and ``check_is_fitted`` (``transform``, ``predict``)
    raises it until a later chunk makes the statistics solvable.  Subclasses define
    ``_stream_spec`` (the :class:`Spec` of a chunk), ``_stream_chunk`` (its variables and
    labels), ``_fit_moments`` (the solution), ``_stream_attributes`` (what it sets) and
    ``_fallback`` (the unconstrained method's name, for the warning without an attribute).
    """

    _stream_attributes = ()

    def __sklearn_is_fitted__(self):
        return all(name in self.__dict__ for name in type(self)._stream_attributes[:1])

    def _reset_stream(self):
        for key in ("_stream", "_stream_error", "n_samples_seen_"):
            self.__dict__.pop(key, None)

    def _drop_solution(self):
        for key in type(self)._stream_attributes:
            self.__dict__.pop(key, None)

    def _partial_fit(self, X, y, sensitive_features):
        from .validation import validate_data

        if any_dask(X, y, sensitive_features):
            raise TypeError(
                "partial_fit takes in-memory chunks (NumPy arrays, pandas DataFrames, memory-"
                "mapped arrays); pass a dask array to fit instead, which reads it blockwise."
            )
        first = self.__dict__.get("_stream") is None
        X = validate_data(self, X, dtype=np.float64, reset=first)
        columns = None
        if sensitive_features is not None:
            columns = _as_2d_columns(sensitive_features, X.shape[0], "sensitive_features")
        spec = self._stream_spec(X, y, columns)
        if first:
            self._drop_solution()
            if columns is None:
                from .validation import warn_unconstrained

                warn_unconstrained(self, self._fallback)
        else:
            stored = self._stream.spec
            if len(spec.kinds) != len(stored.kinds):
                raise ValueError(
                    f"partial_fit got {len(spec.kinds)} sensitive attribute(s) in this chunk "
                    f"but {len(stored.kinds)} in the first one; pass the same "
                    "sensitive_features columns (or None) with every chunk."
                )
            # an attribute keeps the encoding (continuous or categorical) of the first chunk
            spec = replace(spec, kinds=stored.kinds)
            if spec != stored:
                raise ValueError(
                    "the parameters or the shape of y changed between partial_fit calls; the "
                    "statistics accumulated so far do not fit them. Call fit, or clone the "
                    "estimator to start a new stream."
                )
        V, categorical = self._stream_chunk(spec, X, y, columns)
        if first:
            self._stream = Moments(spec, self._stream_shift(spec, X, columns, V))
        self._stream.update(V, categorical)
        self.n_samples_seen_ = (0 if first else self.n_samples_seen_) + X.shape[0]
        self._solve_stream()
        return self

    def _stream_shift(self, spec, X, columns, V):
        """The fixed shift c: the mean of the numeric variables of the first chunk.

        Of all its rows, also when only some are summed (the equal-opportunity mode): X and the
        continuous sensitive columns are variables of every row, so their means exist even when
        no row of the first chunk is kept.
        """
        if spec.n_numeric == X.shape[1]:
            return X.mean(axis=0)
        if spec.row_filter is not None and not spec.n_targets:
            cont = []
            for kind, c in zip(spec.kinds, columns):
                if kind == "continuous":  # (checked finite on the kept rows only)
                    values = np.asarray(c, dtype=np.float64)
                    values = values[np.isfinite(values)]
                    cont.append([values.mean() if values.size else 0.0])
            return np.concatenate([X.mean(axis=0), *cont])
        return V.mean(axis=0)

    def _solve_stream(self):
        """The solution of the statistics so far, or the reason there is none yet."""
        self._drop_solution()
        self.__dict__.pop("_stream_error", None)
        try:
            self._fit_moments(self._stream)
        except ValueError as error:  # e.g. a group with one row so far: later chunks may add
            self._drop_solution()
            self._stream_error = error
