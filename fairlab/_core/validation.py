"""Input checks shared by every estimator, and the encoding of sensitive attributes.

Two encodings of a sensitive attribute appear in the papers:

* categorical (Kleindessner et al., §3.4–3.5): an attribute with m groups becomes the n×m one-hot
  matrix Z, centred column-wise (Z̃ = Z − 1 z̄ᵀ).  Several attributes are stacked side by
  side.  Z̃ᵀX = 0 is then equivalent to "every group has the same mean as the whole sample";
* continuous (De-Diego et al. and Pérez-Suay et al.): S is used as an n×q real matrix.  FKL's
  estimators keep numeric columns and one-hot encode the others
  (:func:`check_continuous_sensitive`); FairPLS and the metrics read integer and string
  columns as group labels, weighted so that a binary attribute gives the value of its 0/1
  code (:func:`encode_sensitive`).

FairPCA and FairKernelPCA read each column as ``sensitive_type`` says (:func:`check_sensitive`:
group labels, or a continuous column whose centred version joins the constraint), with the
per-column checks of :func:`check_groups` and :func:`encode_sensitive`.

Ranks known by construction are never decided numerically.  The m centred indicator columns of
one attribute sum to zero, so they span m − 1 dimensions; several attributes can be collinear
(one a coarsening of another).  :meth:`SensitiveGroups.contrasts` picks a basis of the span of
the centred indicators by exact integer elimination on the group codes, and
:func:`check_continuous_sensitive` marks the one redundant indicator column of every
categorical attribute, so the estimators hand their constraint builder
(:func:`fairlab._core.linalg.constraint_basis`) matrices whose only possible rank deficiencies are
genuine ones of the data.

Every check raises a ``ValueError``/``TypeError`` that names the argument and the fix.
"""

import warnings
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from numbers import Integral

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.utils import check_array as _sk_check_array
from sklearn.utils.validation import validate_data as _sk_validate_data


class UnconstrainedFallbackWarning(UserWarning):
    """Fit was called without ``sensitive_features``; the unconstrained method was fitted."""


def warn_unconstrained(estimator, fallback):
    """Warn that ``estimator`` falls back to ``fallback`` because no attribute was given."""
    warnings.warn(
        f"{type(estimator).__name__}.fit was called with sensitive_features=None, so it "
        f"fitted the unconstrained method ({fallback}). Pass sensitive_features=... to fit "
        "(in a Pipeline: enable metadata routing and call "
        ".set_fit_request(sensitive_features=True)).",
        UnconstrainedFallbackWarning,
        stacklevel=3,
    )


@dataclass(frozen=True)
class SensitiveGroups:
    """Integer group codes of one or more categorical sensitive attributes.

    Attributes
    ----------
    codes : ndarray of shape (n_samples, n_attributes)
        ``codes[i, r]`` is the index of row ``i``'s group in ``categories[r]``.
    categories : list of ndarray
        The sorted group labels of each attribute.
    """

    codes: np.ndarray
    categories: list

    @property
    def n_groups(self):
        """Number of groups m_r of each attribute."""
        return tuple(len(c) for c in self.categories)

    def one_hot(self, center=True):
        """Stacked one-hot matrix Z (n × Σ m_r), centred column-wise when ``center``."""
        n = self.codes.shape[0]
        blocks = []
        for r, m in enumerate(self.n_groups):
            block = np.zeros((n, m))
            block[np.arange(n), self.codes[:, r]] = 1.0
            blocks.append(block)
        Z = np.hstack(blocks)
        if center:
            Z -= Z.mean(axis=0)
        return Z

    def indicator(self):
        """The one-hot matrix Z (n × Σ m_r) as a sparse CSR array: one 1 per attribute per row.

        ``indicator().T @ X`` gives every group's column sums of X in one pass over X.
        """
        n, attributes = self.codes.shape
        offsets = np.cumsum([0, *self.n_groups[:-1]])
        columns = (self.codes + offsets).reshape(-1)  # sorted within each row
        return sparse.csr_array(
            (np.ones(columns.size), columns, np.arange(0, columns.size + 1, attributes)),
            shape=(n, sum(self.n_groups)),
        )

    @cached_property
    def counts(self):
        """Group sizes n_g of every group of every attribute, stacked as in ``one_hot()``."""
        return np.concatenate([
            np.bincount(self.codes[:, r], minlength=m) for r, m in enumerate(self.n_groups)
        ])

    @cached_property
    def independent_columns(self):
        """Indices of a basis of span(Z̃) among the columns of ``one_hot()``, chosen exactly.

        Z̃ is the centred one-hot matrix of all attributes.  span(Z̃) is the part of
        span([1, Z]) orthogonal to 1, so a basis of it is given by the columns of Z that are
        linearly independent of 1 and of the columns before them.  One attribute: its first
        m − 1 groups (the last indicator is 1 minus the others).  Several attributes: exact
        rational elimination on the integer co-occurrence matrix [1, Z]ᵀ[1, Z] of the distinct
        code rows (its null space is that of [1, Z]), so collinear attributes — one a
        function of another, or two that together determine a third — are detected exactly.
        """
        if self.codes.shape[1] == 1:
            return np.arange(self.n_groups[0] - 1)
        offsets = np.cumsum([0, *self.n_groups])
        distinct = np.unique(self.codes, axis=0)
        design = np.zeros((distinct.shape[0], 1 + offsets[-1]), dtype=np.int64)
        design[:, 0] = 1
        for r in range(self.codes.shape[1]):
            design[np.arange(distinct.shape[0]), 1 + offsets[r] + distinct[:, r]] = 1
        pivots = _exact_pivot_columns((design.T @ design).tolist())
        return np.array([j - 1 for j in pivots if j > 0], dtype=np.intp)

    @property
    def n_constraints(self):
        """Rank of the centred one-hot matrix Z̃: Σ_r(m_r − 1) unless attributes are collinear."""
        return int(self.independent_columns.size)

    def contrasts(self):
        """Centred indicator columns that form a basis of span(Z̃) (n × ``n_constraints``).

        Z̃ᵀXU = 0 and ``contrasts()ᵀXU = 0`` are the same constraint, and the contrasts have
        full column rank by construction.
        """
        return self.one_hot(center=True)[:, self.independent_columns]


def _exact_pivot_columns(matrix):
    """Pivot columns of a small integer matrix by Gaussian elimination over the rationals.

    The pivot columns are the lexicographically first set of linearly independent columns.
    """
    rows = [[Fraction(v) for v in row] for row in matrix]
    pivots, r = [], 0
    for j in range(len(rows[0]) if rows else 0):
        p = next((i for i in range(r, len(rows)) if rows[i][j] != 0), None)
        if p is None:
            continue
        rows[r], rows[p] = rows[p], rows[r]
        for i in range(r + 1, len(rows)):
            if rows[i][j] != 0:
                f = rows[i][j] / rows[r][j]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[r])]
        pivots.append(j)
        r += 1
    return pivots


# --------------------------------------------------------------------------------------------
# X and y: scikit-learn's checks, with a non-numeric input named
# --------------------------------------------------------------------------------------------
_CONVERSION_ERRORS = ("could not convert", "argument must be a string", "Unable to convert",
                      "dtype='numeric' is not compatible")


def _is_conversion_error(exc):
    return isinstance(exc, (TypeError, ValueError)) and any(
        pattern in str(exc) for pattern in _CONVERSION_ERRORS)


def _converts(a):
    """Whether ``a`` converts to a float array (only called on the error path)."""
    try:
        np.asarray(a.to_numpy() if hasattr(a, "to_numpy") else a, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return True


def _non_numeric(exc, name, owner):
    """``exc`` (a failed float conversion of ``name``) re-raised naming the argument and the fix."""
    if name == "y":
        fix = (f"{owner} fits numeric targets: pass y as numbers (encode class labels first, "
               "e.g. with sklearn.preprocessing.LabelEncoder or pandas.factorize).")
    else:
        fix = (f"{owner} fits a numeric matrix: encode categorical columns first (e.g. "
               "sklearn.preprocessing.OneHotEncoder in a ColumnTransformer) and pass the "
               "sensitive attribute as sensitive_features, not as a column of X.")
    return type(exc)(f"{name} must be numeric, but it holds a value that is not a number "
                     f"({exc}). {fix}")


def validate_data(estimator, X="no_validation", y="no_validation", **kwargs):
    """scikit-learn's ``validate_data``; a non-numeric X or y is named in the error, with the fix.

    Same exception type as scikit-learn's, whose message it includes.
    """
    try:
        return _sk_validate_data(estimator, X, y, **kwargs)
    except (TypeError, ValueError) as exc:
        if not _is_conversion_error(exc):
            raise
        name = "y" if (not isinstance(y, str) and _converts(X)) else "X"
        raise _non_numeric(exc, name, type(estimator).__name__) from exc


#: The one dtype policy of transform and predict: every transformer and fair regressor of fairlab
#: computes in float64 and returns float64, whatever the input's dtype.
TRANSFORM_DTYPE = np.float64


def check_transform_input(estimator, X):
    """X of ``transform``/``predict``/``inverse_transform``, checked against the fit and in float64.

    The dtype policy of every transformer of fairlab (estimators and baselines alike): the
    input is converted to float64 (``TRANSFORM_DTYPE``) and the output is float64.  float32,
    float16 and integer inputs convert exactly, so the numbers are those of the float64 input;
    the fitted attributes are float64, and a float32 product would round differently from
    the fit.  scikit-learn's ``preserves_dtype`` tag of these transformers is ``["float64"]``.
    """
    return validate_data(estimator, X, reset=False, dtype=TRANSFORM_DTYPE)


def check_array(array, *, input_name, owner, **kwargs):
    """scikit-learn's ``check_array``; a non-numeric ``input_name`` gets the error of
    :func:`validate_data` (``owner``: the estimator's name, for the message)."""
    try:
        return _sk_check_array(array, input_name=input_name, **kwargs)
    except (TypeError, ValueError) as exc:
        if not _is_conversion_error(exc):
            raise
        raise _non_numeric(exc, input_name, owner) from exc


def _as_2d_columns(sensitive_features, n_samples, name):
    """Return a list of 1-D object/number arrays, one per attribute column."""
    sensitive_features = as_sensitive_container(sensitive_features)
    if isinstance(sensitive_features, pd.Series):
        columns = [sensitive_features.to_numpy()]
    elif isinstance(sensitive_features, pd.DataFrame):
        frame = sensitive_features
        columns = [frame.iloc[:, j].to_numpy() for j in range(frame.shape[1])]
    else:
        if isinstance(sensitive_features, (str, bytes)) or np.isscalar(sensitive_features):
            raise TypeError(
                f"{name} must be array-like with one entry per row of X (1-D for one attribute, "
                "2-D (n_samples, n_attributes) for several); got "
                f"{type(sensitive_features).__name__}."
            )
        arr = np.asarray(sensitive_features)
        if arr.ndim == 1:
            columns = [arr]
        elif arr.ndim == 2:
            columns = [arr[:, j] for j in range(arr.shape[1])]
        else:
            raise ValueError(
                f"{name} must be 1-D (one attribute) or 2-D (n_samples, n_attributes); "
                f"got an array with {arr.ndim} dimensions."
            )
    if len(columns) == 0:
        raise ValueError(f"{name} has no columns; pass at least one sensitive attribute.")
    for col in columns:
        if col.shape[0] != n_samples:
            raise ValueError(
                f"{name} has {col.shape[0]} entries but X has {n_samples} rows; pass one "
                "sensitive value per row of X."
            )
    return columns


def _is_missing(col):
    if col.dtype.kind in "biu":  # integers and booleans have no missing value
        return np.zeros(col.shape[0], dtype=bool)
    if col.dtype.kind == "f":
        return np.isnan(col)
    return pd.isna(pd.Series(col, dtype=object if col.dtype.kind == "O" else None)).to_numpy()


_INTP_MAX = int(np.iinfo(np.intp).max)


def _encode(col):
    """Group labels, codes and counts of one attribute, as ``np.unique`` gives them.

    Group labels are usually small integers (0/1, 0..m−1, or integer-valued floats): their
    codes are then ``col − min`` looked up in a table of the values present, one O(n) pass
    instead of an O(n log n) sort.  Labels, codes and counts equal ``np.unique(col,
    return_inverse=True, return_counts=True)``'s.
    """
    n = col.shape[0]
    if n == 0 or col.dtype.kind not in "biuf":
        return np.unique(col, return_inverse=True, return_counts=True)
    if col.dtype.kind == "f":
        if not (np.all(np.abs(col) < 2.0**52) and np.array_equal(np.floor(col), col)):
            return np.unique(col, return_inverse=True, return_counts=True)
        values = col.astype(np.int64)
    else:
        values = col.view(np.uint8) if col.dtype.kind == "b" else col
    low, high = int(values.min()), int(values.max())
    if high > _INTP_MAX or high - low > max(n, 1024):
        # labels beyond the index range, or a table larger than the column: sorting is cheaper
        return np.unique(col, return_inverse=True, return_counts=True)
    offsets = values.astype(np.intp) - low
    counts = np.bincount(offsets)
    present = np.flatnonzero(counts)
    if col.dtype.kind == "f":  # the labels as they are stored (-0.0 stays -0.0)
        row_of = np.empty(counts.size, dtype=np.intp)
        row_of[offsets] = np.arange(n)  # some row holding each value (which one does not matter)
        labels = col[row_of[present]]
    else:  # integers and booleans are their own offsets plus the minimum
        labels = (present + low).astype(col.dtype)
    if present.size == counts.size:  # every value between min and max occurs
        return labels, offsets, counts
    code_of = np.zeros(counts.size, dtype=np.intp)
    code_of[present] = np.arange(present.size)
    return labels, code_of[offsets], counts[present]


def check_groups(sensitive_features, n_samples, *, min_group_size=1, name="sensitive_features"):
    """Validate categorical sensitive attributes and return their :class:`SensitiveGroups`.

    Parameters
    ----------
    sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
        Group labels (any hashable values), a Series or a DataFrame.
    n_samples : int
        Number of rows of X.
    min_group_size : int, default=1
        Smallest admissible group size.

    Raises
    ------
    ValueError
        On a length mismatch, missing labels, an attribute with a single group, or a group
        smaller than ``min_group_size``.
    """
    columns = _as_2d_columns(sensitive_features, n_samples, name)
    return _groups_of(columns, range(len(columns)), n_samples, min_group_size, name)


def _groups_of(columns, attributes, n_samples, min_group_size, name):
    """:class:`SensitiveGroups` of ``columns`` (attribute numbers ``attributes``, for messages)."""
    codes = np.empty((n_samples, len(columns)), dtype=np.intp)
    categories = []
    for j, (r, col) in enumerate(zip(attributes, columns)):
        if _is_missing(col).any():
            raise ValueError(
                f"{name} contains missing values (NaN/None) in attribute {r}; give every row a "
                "group label (e.g. an explicit 'unknown' group)."
            )
        if col.dtype.kind == "f" and not np.isfinite(col).all():
            raise ValueError(f"{name} contains infinite values in attribute {r}.")
        _check_one_label_kind(col, f"{name} attribute {r}")
        labels, inverse, counts = _encode(col)
        if len(labels) < 2:
            raise ValueError(
                f"{name} attribute {r} has a single group ({labels[0]!r}); a fairness constraint "
                "needs at least two groups. Pass sensitive_features=None for the unconstrained "
                "method."
            )
        if counts.min() < min_group_size:
            small = labels[np.argmin(counts)]
            raise ValueError(
                f"{name} attribute {r}: group {small!r} has {counts.min()} row(s), fewer than the "
                f"{min_group_size} needed; merge it with another group or drop those rows."
            )
        codes[:, j] = inverse.reshape(-1)
        categories.append(labels)
    return SensitiveGroups(codes=codes, categories=categories)


def _check_one_label_kind(col, where):
    """Refuse labels of several kinds in one attribute (e.g. 1 and "1"), which do not sort."""
    if sortable_labels(col):
        return
    kinds = sorted({label_kind(v) for v in pd.unique(pd.Series(col, dtype=object))
                    if not pd.isna(v)})
    raise TypeError(
        f"{where} mixes group labels of different types ({', '.join(kinds)}), e.g. 1 and '1', "
        "which would be different groups; give every label of one attribute the same type "
        "(e.g. sensitive_features.astype(str))."
    )


def check_continuous_sensitive(sensitive_features, n_samples, *, name="sensitive_features",
                               return_independent=False):
    """Return S as a float matrix (n_samples, q) for the HSIC/covariance-based estimators.

    Numeric columns are kept; columns of strings, booleans or categories are one-hot encoded
    (all m columns, since S is centred by the estimators anyway).

    With ``return_independent=True`` also returns a boolean mask over the columns of S that is
    False on the last indicator column of every one-hot encoded attribute: once S is centred,
    that column is minus the sum of the others, so the remaining columns span the same space
    (used where a constraint needs a basis of range(XᵀS̃), not for penalties).
    """
    columns = _as_2d_columns(sensitive_features, n_samples, name)
    dtypes = column_dtypes(sensitive_features, len(columns))
    blocks, independent = [], []
    for r, (col, dtype) in enumerate(zip(columns, dtypes)):
        if col.dtype.kind in "iuf" and not isinstance(dtype, pd.CategoricalDtype):
            col = col.astype(float)
            if not np.isfinite(col).all():
                raise ValueError(
                    f"{name} attribute {r} contains NaN or infinite values; impute or drop "
                    "those rows."
                )
            blocks.append(col[:, None])
            independent.append([True])
        else:
            if _is_missing(col).any():
                raise ValueError(
                    f"{name} attribute {r} contains missing values; impute or drop them."
                )
            _check_one_label_kind(col, f"{name} attribute {r}")
            labels, inverse = np.unique(col.astype(str) if col.dtype.kind == "O" else col,
                                        return_inverse=True)
            block = np.zeros((n_samples, len(labels)))
            block[np.arange(n_samples), inverse.reshape(-1)] = 1.0
            blocks.append(block)
            independent.append([True] * (len(labels) - 1) + [False])
    S = np.hstack(blocks)
    if np.allclose(S, S[0]):
        raise ValueError(
            f"{name} is constant; a fairness term needs a varying sensitive attribute. Pass "
            "sensitive_features=None for the unconstrained method."
        )
    if return_independent:
        return S, np.concatenate(independent).astype(bool)
    return S


_SENSITIVE_TYPES = ("auto", "categorical", "continuous")


def auto_sensitive_kind(dtype):
    """How ``sensitive_type="auto"`` reads a column of this dtype: the one rule of fairlab.

    ``"continuous"`` for floating-point columns — NumPy floats and pandas' nullable
    ``Float64``/``Float32``; ``"categorical"`` (group labels) for everything else: booleans,
    integers (NumPy or pandas' nullable ``Int64``, ``boolean``), strings, objects, dates, and
    every ``pd.Categorical``/``CategoricalDtype`` column *whatever the dtype of its
    categories* (a Categorical of floats is a set of named groups that happen to be numbers).
    The rule looks at the dtype as the user passed it, never at the values: the estimators
    (:func:`sensitive_kinds_of`), the encoding of the metrics (:func:`encode_sensitive`) and
    the leakage audit all call this function, so one column is read alike everywhere.

    Parameters
    ----------
    dtype : NumPy dtype or pandas extension dtype

    Returns
    -------
    {"categorical", "continuous"}
    """
    if isinstance(dtype, pd.CategoricalDtype):
        return "categorical"
    if pd.api.types.is_bool_dtype(dtype):
        return "categorical"
    if pd.api.types.is_float_dtype(dtype):
        return "continuous"
    if pd.api.types.is_complex_dtype(dtype):
        return "continuous"  # numbers: refused as such, with the message of continuous columns
    return "categorical"


def as_sensitive_container(sensitive_features):
    """A bare ``pd.Categorical`` or ``pd.Index`` as a Series, so that its dtype is kept.

    ``np.asarray`` of a Categorical of floats gives floats: the dtype that says "groups"
    would be lost before :func:`auto_sensitive_kind` sees it.
    """
    if isinstance(sensitive_features, (pd.Categorical, pd.Index)):
        return pd.Series(sensitive_features)
    return sensitive_features


def column_dtypes(sensitive_features, n_columns):
    """The dtype of every column of ``sensitive_features`` as passed (before any conversion)."""
    sensitive_features = as_sensitive_container(sensitive_features)
    if isinstance(sensitive_features, pd.DataFrame):
        return list(sensitive_features.dtypes)
    if isinstance(sensitive_features, pd.Series):
        return [sensitive_features.dtype]
    dtype = getattr(sensitive_features, "dtype", None)
    if dtype is None:
        dtype = np.asarray(sensitive_features).dtype
    return [dtype] * n_columns


@dataclass(frozen=True)
class SensitiveEncoding:
    """A sensitive attribute as numbers: columns, their weights, and where they came from.

    Attributes
    ----------
    matrix : ndarray of shape (n_samples, q)
        Continuous attributes as they are; a categorical one with two groups as the single
        indicator of its second group, with m ≥ 3 groups as its m indicators.
    weights : ndarray of shape (q,)
        1 for continuous columns and two-group indicators, 1/√2 for the indicators of m ≥ 3
        groups, so that Σ_g w²Cov²(t, 1[S = g]) = ½ Σ_g Cov²(t, 1[S = g]) for every m (the two
        centred indicators of a binary attribute are opposite: its single indicator already
        gives that value).  Applied by the caller, after any centring or scaling.
    independent : ndarray of bool, shape (q,)
        False on the last indicator of every m ≥ 3 attribute: once centred it is minus the sum
        of the others, so a constraint built from the other columns is the same constraint.
    attribute : ndarray of int, shape (q,)
        The input attribute (column) each output column encodes.
    n_groups : list of int or None
        Number of groups of each attribute (None for a continuous one).
    """

    matrix: np.ndarray
    weights: np.ndarray
    independent: np.ndarray
    attribute: np.ndarray
    n_groups: list


def label_kind(value):
    """"number" for numbers and booleans, else the type name (labels of one kind sort)."""
    numeric = (bool, int, float, np.number, np.bool_)
    return "number" if isinstance(value, numeric) else type(value).__name__


def sortable_labels(col):
    """Whether the labels of ``col`` can be sorted (numbers, or strings only)."""
    if col.dtype.kind != "O":
        return True
    kinds = {label_kind(v) for v in pd.unique(pd.Series(col, dtype=object)) if not pd.isna(v)}
    return len(kinds) <= 1


def _label_columns(a, name):
    """The columns of a 1-D/2-D array-like as (label, 1-D array, is_categorical_under_auto)."""
    a = as_sensitive_container(a)
    if isinstance(a, pd.Series):
        a = a.to_frame()
    if isinstance(a, pd.DataFrame):
        out = []
        for c in a.columns:
            dtype = a[c].dtype
            nullable = pd.api.types.is_extension_array_dtype(dtype) and (
                pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype))
            # nullable Int64/Float64/boolean: floats with NaN for <NA>, so that missing is caught
            values = a[c].to_numpy(dtype=float, na_value=np.nan) if nullable else a[c].to_numpy()
            out.append((repr(c), values, auto_sensitive_kind(dtype) == "categorical"))
        return out
    a = as_column_matrix(a, name)
    categorical = auto_sensitive_kind(a.dtype) == "categorical"
    return [(str(j), a[:, j], categorical) for j in range(a.shape[1])]


def as_column_matrix(a, name):
    """A 1-D or 2-D array-like (not a DataFrame) as a 2-D array, a 1-D one as one column."""
    if isinstance(a, (str, bytes)) or np.isscalar(a):
        raise TypeError(f"{name} must be array-like (n_samples rows); got {type(a).__name__}.")
    a = np.asarray(a)
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2:
        raise ValueError(f"{name} must be 1-D or 2-D (n_samples, n_columns); got shape {a.shape}.")
    return a


def encode_sensitive(sensitive_features, n_samples=None, *, name="sensitive_features",
                     sensitive_type="auto"):
    """Encode a sensitive attribute that may be continuous or group labels (FairPLS, metrics).

    ``sensitive_type="auto"`` reads float columns as continuous and integer, boolean, string,
    object and pandas categorical columns (of any categories) as group labels
    (:func:`auto_sensitive_kind`); ``"categorical"`` and
    ``"continuous"`` force one reading.  See :class:`SensitiveEncoding` for the encoding.

    Raises
    ------
    ValueError
        An unknown ``sensitive_type``, a length different from ``n_samples`` (when given), no
        column or no row, missing group labels, NaN/inf in a continuous column.
    TypeError
        Not array-like, or non-numeric values read as continuous.
    """
    if not isinstance(sensitive_type, str) or sensitive_type not in _SENSITIVE_TYPES:
        raise ValueError(
            f"sensitive_type={sensitive_type!r} is not supported; choose 'auto' (floats "
            "continuous, integer/bool/string/categorical labels as groups), 'categorical' or "
            "'continuous'."
        )
    columns = _label_columns(sensitive_features, name)
    if not columns:
        raise ValueError(f"{name} has no columns; pass at least one variable.")
    n = columns[0][1].shape[0]
    if n_samples is not None and n != n_samples:
        raise ValueError(
            f"{name} has {n} entries but X has {n_samples} rows; pass one sensitive value per "
            "row of X."
        )
    if n == 0:
        raise ValueError(f"{name} is empty; pass at least one sample.")
    blocks, weights, independent, attribute, n_groups = [], [], [], [], []
    for r, (label, col, categorical) in enumerate(columns):
        where = f"{name}" if len(columns) == 1 else f"{name} column {label}"
        if sensitive_type != "auto":
            categorical = sensitive_type == "categorical"
        if categorical:
            if col.dtype.kind in "biu":  # no missing value possible; sorted codes in one pass
                groups, codes, _ = _encode(col)
            else:
                codes, groups = pd.factorize(col, sort=sortable_labels(col))
            if (codes < 0).any():
                raise ValueError(
                    f"{where} contains missing group labels (NaN/None); give every row a group "
                    "(e.g. an explicit 'unknown' group) or drop those rows."
                )
            m = len(groups)
            if m <= 2:
                block = (codes == 1).astype(float)[:, None]
                w, keep = [1.0], [True]
            else:
                block = np.zeros((n, m))
                block[np.arange(n), codes] = 1.0
                w, keep = [np.sqrt(0.5)] * m, [True] * (m - 1) + [False]
            n_groups.append(m)
        else:
            block, w, keep = continuous_column(col, where)[:, None], [1.0], [True]
            n_groups.append(None)
        blocks.append(block)
        weights += w
        independent += keep
        attribute += [r] * block.shape[1]
    return SensitiveEncoding(np.hstack(blocks), np.array(weights), np.array(independent),
                             np.array(attribute), n_groups)


def check_continuous_dtype(dtype, where):
    """Refuse a column declared continuous whose values are not numbers (dtype known upfront)."""
    if np.dtype(dtype).kind not in "biuf":
        raise TypeError(
            f"{where} holds non-numeric values (dtype {dtype}), so it cannot be "
            "used as a continuous variable; pass sensitive_type='categorical' (or "
            "'auto') to encode its values as groups."
        )


def check_continuous_finite(values, where):
    """Refuse NaN/inf in a float column read as continuous."""
    if not np.isfinite(values).all():
        raise ValueError(f"{where} contains NaN or infinite values; impute or drop those rows.")


def continuous_column(col, where):
    """A sensitive column read as a continuous variable: float64, checked numeric and finite."""
    check_continuous_dtype(col.dtype, where)
    col = np.asarray(col, dtype=np.float64)
    check_continuous_finite(col, where)
    return col


def sensitive_kinds_of(sensitive_type, columns, name="sensitive_features", dtypes=None):
    """The reading of every sensitive column: a tuple of "categorical"/"continuous".

    ``sensitive_type`` is the estimators' parameter: one of "categorical", "continuous",
    "auto" (float columns continuous, all others group labels, as :func:`encode_sensitive`
    reads an array), or a list/tuple with one of them per column.  ``columns`` are the
    columns of ``sensitive_features`` (anything with a ``dtype``: NumPy or dask arrays);
    ``dtypes``, when given, are the columns' dtypes as the user passed them (a
    ``pd.Categorical`` of floats converts to floats), which "auto" reads through
    :func:`auto_sensitive_kind`.
    """
    if isinstance(sensitive_type, str):
        types = [sensitive_type] * len(columns)
    else:
        types = list(sensitive_type)
        if len(types) != len(columns):
            raise ValueError(
                f"sensitive_type has {len(types)} entries but {name} has {len(columns)} "
                f"column(s); pass one type per column ('categorical' or 'continuous'), or a "
                "single string for all of them."
            )
    for t in types:
        if not isinstance(t, str) or t not in _SENSITIVE_TYPES:
            raise ValueError(
                f"sensitive_type entry {t!r} is not supported; choose 'categorical' (group "
                "labels), 'continuous' (numbers) or 'auto' (float columns continuous, "
                "integer/bool/string labels as groups) for every column."
            )
    if dtypes is None:
        dtypes = [c.dtype for c in columns]
    return tuple(auto_sensitive_kind(dt) if t == "auto" else t for t, dt in zip(types, dtypes))


@dataclass(frozen=True)
class SensitiveColumns:
    """Sensitive attributes split by their reading (:func:`check_sensitive`).

    Attributes
    ----------
    kinds : tuple of {"categorical", "continuous"}
        The reading of every input column, in order.
    groups : SensitiveGroups or None
        The categorical columns (in order), None when there is none.
    continuous : ndarray of shape (n_samples, q) or None
        The continuous columns (in order) as float64, None when there is none.
    """

    kinds: tuple
    groups: SensitiveGroups | None
    continuous: np.ndarray | None


def check_sensitive(sensitive_features, n_samples, sensitive_type, *, min_group_size=1,
                    name="sensitive_features"):
    """Validate sensitive attributes that may be categorical or continuous (``sensitive_type``).

    Categorical columns get the checks of :func:`check_groups`, continuous ones those of
    :func:`encode_sensitive` (numeric, finite) and must not be constant.  With every column
    categorical the result is that of :func:`check_groups`.  Continuous columns are returned
    scaled by exact powers of two, max|s| in [½, 1) (:func:`_unit_binade`): the constraints
    use only their span, and their norms and rank decisions are then free of overflow and
    underflow whatever the unit of the attribute (1e-300 … 1e300).

    Returns
    -------
    SensitiveColumns
    """
    columns, kinds = read_sensitive(sensitive_features, n_samples, sensitive_type, name=name)
    return check_sensitive_columns(columns, kinds, min_group_size=min_group_size, name=name)


def read_sensitive(sensitive_features, n_samples, sensitive_type, *, name="sensitive_features"):
    """The columns of ``sensitive_features`` (1-D arrays) and the reading of each: parsed once.

    The first half of :func:`check_sensitive`, for a caller that also needs the columns before
    the checks (the equal-opportunity mode of :class:`~fairlab.FairPCA` keeps the rows with
    y = pos_label, and warns about the groups that have none, on the same parsed columns).
    """
    columns = _as_2d_columns(sensitive_features, n_samples, name)
    kinds = sensitive_kinds_of(sensitive_type, columns, name,
                               dtypes=column_dtypes(sensitive_features, len(columns)))
    return columns, kinds


def check_sensitive_columns(columns, kinds, *, min_group_size=1, name="sensitive_features"):
    """The checks of :func:`check_sensitive` on columns parsed by :func:`read_sensitive`."""
    n_samples = columns[0].shape[0]
    categorical = [r for r, kind in enumerate(kinds) if kind == "categorical"]
    groups = None
    if categorical:
        groups = _groups_of([columns[r] for r in categorical], categorical, n_samples,
                            min_group_size, name)
    continuous = []
    for r, kind in enumerate(kinds):
        if kind == "continuous":
            col = continuous_column(columns[r], f"{name} attribute {r}")
            if col.size and np.all(col == col[0]):
                raise ValueError(
                    f"{name} attribute {r} (continuous) is constant; a fairness constraint "
                    "needs a varying attribute. Drop that column, or pass "
                    "sensitive_features=None for the unconstrained method."
                )
            continuous.append(_unit_binade(col))
    S = np.column_stack(continuous) if continuous else None
    return SensitiveColumns(kinds=kinds, groups=groups, continuous=S)


def _unit_binade(col):
    """``col`` times the power of two that puts max|col| in [½, 1): exact, span unchanged.

    A continuous attribute enters a constraint only through the span of its centred column,
    which a scale does not change; at 1e154 its squares overflow and at 1e-200 they underflow,
    and the norms and rank decisions built from them then lost the constraint silently.  A
    power of two rescales without rounding, so every value keeps its bits.
    """
    top = np.max(np.abs(col), initial=0.0)
    if top == 0.0:
        return col
    return np.ldexp(col, -int(np.frexp(top)[1]))


def check_n_components(n_components, upper, *, name="n_components", bound_text=None):
    """Check ``1 <= n_components <= upper``; ``None`` means ``upper``; a bool is refused."""
    reject_bool(n_components, name)
    if n_components is None:
        return int(upper)
    if upper < 1:
        raise ValueError(
            f"the problem admits no component: {bound_text or 'the upper bound'} is {upper}."
        )
    if n_components > upper:
        why = f" ({bound_text})" if bound_text else ""
        raise ValueError(
            f"{name}={n_components} is too large: at most {upper} components are feasible "
            f"here{why}. "
            f"Choose {name} <= {upper}."
        )
    return int(n_components)


def check_int(value, name, *, minimum=1, maximum=None, allow_none=False):
    """``value`` as an int in [``minimum``, ``maximum``], else a ValueError naming ``name``.

    The one check of an integer argument (a count, a size, an index): a bool is refused
    although it passes an ``Integral`` test, and so is a float that happens to be whole.
    ``allow_none`` lets ``None`` through unchanged.  The default range is the positive integers.
    """
    if value is None and allow_none:
        return None
    in_range = (isinstance(value, Integral) and not isinstance(value, (bool, np.bool_))
                and value >= minimum and (maximum is None or value <= maximum))
    if not in_range:
        if maximum is not None:
            wanted = f"an integer in [{minimum}, {maximum}]"
        elif minimum == 1:
            wanted = "a positive integer"
        else:
            wanted = f"an integer >= {minimum}"
        raise ValueError(f"{name} must be {wanted}{' or None' if allow_none else ''}; "
                         f"got {value!r}.")
    return int(value)


def reject_bool_params(estimator, names):
    """Refuse a bool in any of the numeric hyper-parameters ``names`` of ``estimator``.

    ``True`` passes scikit-learn's ``Interval(Integral, ...)`` and ``Real`` constraints as 1
    (``n_landmarks=True`` would draw one landmark, ``degree=True`` fit a linear kernel), and a
    bool is neither a count nor a coefficient: the message names the parameter and the fix.
    """
    for name in names:
        value = getattr(estimator, name)
        if isinstance(value, (bool, np.bool_)):
            raise TypeError(
                f"{name}={value!r} is a bool, and a bool is neither a count nor a "
                f"coefficient; pass a number (e.g. {name}={_NUMERIC_EXAMPLES.get(name, 1)}) "
                f"or leave the default "
                f"({name}={_default_of(estimator, name)!r}).")


_NUMERIC_EXAMPLES = {"n_landmarks": 500, "degree": 2, "coef0": 1.0, "gamma": 0.1,
                     "random_state": 0}


def _default_of(estimator, name):
    import inspect

    return inspect.signature(type(estimator).__init__).parameters[name].default


def reject_bool(value, name="n_components"):
    """Refuse a bool where a number is expected (``True`` passes an ``Integral`` check as 1)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(
            f"{name} must be a number, got the bool {value!r}; pass an int (e.g. {name}=2).")
