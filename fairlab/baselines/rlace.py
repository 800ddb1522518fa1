r"""R-LACE — Relaxed Linear Adversarial Concept Erasure (Ravfogel, Twiton, Goldberg, Cotterell;
ICML 2022), in numpy.

R-LACE looks for the rank-r orthogonal projection whose removal hurts the best linear
classifier of the attribute most.  The game over rank-r projections is relaxed to the Fantope
F_r = {P = Pᵀ, 0 ⪯ P ⪯ I, tr P = r} and played by alternating stochastic gradient steps::

    P ~ 0.1·N(0,1)^{d×d} (symmetrised);  θ, β: a linear softmax predictor (torch's init)
    for t in 1..max_iter:
        P ← P + η(∇_P L(θ; X_b(I − P)) − λP)      # adversary: ascent on the cross-entropy
        P ← Π_F(P): eigh(P) = V diag(w) Vᵀ; find τ with Σ clip(w − τ, 0, 1) = r;
             P = V diag(clip(w − τ, 0, 1)) Vᵀ
        θ ← θ − η(∇_θ L(θ; X_b'(I − P)) + λθ)     # predictor: descent, fresh minibatch
        every eval_every steps: round P (W = its top-r eigenvectors), fit a logistic regression
            of z on X(I − WWᵀ); keep the P with the HIGHEST log-loss; stop early (see below)
    output: X (I − WWᵀ), W = top-r eigenvectors of the best relaxed P  (the paper's rounding)

For a linear predictor the gradients are closed form (no torch): with G = (softmax − onehot)/b
the gradient of the mean cross-entropy L of logits X_b(I − P)θ + β is

    ∇_θ L = (X_b(I − P))ᵀ G,   ∇_β L = 1ᵀG,   ∇_P L = −sym(X_bᵀ G θᵀ)   (P symmetric).

Defaults are the reference's (``rlace.py`` of the authors' repository): SGD with learning rate
0.005 and weight decay 1e-4 for both players, minibatches of 128 rows (without replacement),
evaluation every 1000 steps, ``epsilon`` = 0.0015, and the 10 000 steps with which Kleindessner
et al. ran it (rank d − k) as the default budget ``max_iter``.  Differences (documented in the
class): the evaluation classifier is one deterministic ``LogisticRegression`` instead of three
SGD classifiers; the Fantope shift τ is solved exactly (the trace is piecewise linear in τ)
rather than by 25 bisection steps; an optional stagnation rule ``n_iter_no_change``.  Each
step costs one d×d symmetric eigendecomposition.
"""

# SPDX-License-Identifier: BSD-3-Clause

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import linalg
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval

from .._core.linalg import as_seed
from .._core.threads import limit_threads
from ._common import BaseEraser, Eraser

_MIN_IMPROVEMENT = 1e-4  # nats: a smaller rise of the evaluation log-loss is no improvement


def _fantope_shift(w, rank):
    """τ with Σ clip(w − τ, 0, 1) = rank, exactly.

    f(τ) = Σ clip(w − τ, 0, 1) is continuous, non-increasing and linear between its 2d
    breakpoints {w_i, w_i − 1}, with f(w_min − 1) = d ≥ rank > 0 = f(w_max): the bracketing
    segment is found among the breakpoints and f is inverted on it (the exact limit of the
    reference's 25-step bisection on [w_min − 1, w_max]).
    """
    points = np.sort(np.concatenate([w - 1.0, w]))
    f = np.clip(w[None, :] - points[:, None], 0.0, 1.0).sum(axis=1)
    j = min(int(np.searchsorted(-f, -rank, side="right")) - 1, points.size - 2)
    drop = f[j] - f[j + 1]
    if drop <= 0.0:
        return float(points[j])
    return float(points[j] + (f[j] - rank) / drop * (points[j + 1] - points[j]))


def fantope_projection(P, rank):
    """Euclidean projection of the symmetric P onto F_r = {0 ⪯ P ⪯ I, tr P = r}.

    Returns the projection and its eigen-decomposition ``(lam, V)`` (``lam`` ascending).
    """
    w, V = linalg.eigh((P + P.T) / 2, driver="evd", check_finite=False)
    lam = np.clip(w - _fantope_shift(w, rank), 0.0, 1.0)
    d = P.shape[0]
    partial = lam < 1.0
    if np.count_nonzero(lam) <= d - np.count_nonzero(~partial):  # few non-zero eigenvalues
        keep = lam > 0.0
        out = (V[:, keep] * lam[keep]) @ V[:, keep].T
    else:  # mostly eigenvalue 1: P = I − V diag(1 − λ) Vᵀ over the others
        out = np.eye(d) - (V[:, partial] * (1.0 - lam[partial])) @ V[:, partial].T
    return (out + out.T) / 2, lam, V


def loss_and_gradients(Xb, Yb, P, theta, beta, blocks):
    """Mean cross-entropy of softmax(X_b(I − P)θ + β) (one softmax per attribute block).

    Returns the loss and the gradients with respect to P (symmetric), θ and β.  Products are
    arranged so that no b×d×d term appears: O(d²c + bdc) for c output columns.
    """
    b = Xb.shape[0]
    Ptheta = P @ theta
    logits = Xb @ theta - Xb @ Ptheta + beta
    G = np.empty_like(logits)
    loss = 0.0
    for sl in blocks:
        lg = logits[:, sl] - logits[:, sl].max(axis=1, keepdims=True)
        logp = lg - np.log(np.exp(lg).sum(axis=1, keepdims=True))
        loss -= float(np.sum(Yb[:, sl] * logp)) / b
        G[:, sl] = (np.exp(logp) - Yb[:, sl]) / b
    XtG = Xb.T @ G  # d × c
    grad_theta = XtG - P @ XtG  # ((I − P) Xbᵀ) G, P symmetric
    grad_beta = G.sum(axis=0)
    M = XtG @ theta.T
    grad_P = -(M + M.T) / 2
    return loss, grad_P, grad_theta, grad_beta


def _minibatches(rng, n, size):
    """Endless minibatches of ``size`` rows, without replacement within each epoch."""
    size = min(size, n)
    while True:
        perm = rng.permutation(n)
        for start in range(0, n - size + 1, size):
            yield perm[start : start + size]


def _evaluate(X, codes, W):
    """Training log-loss (summed over attributes) and accuracies of a logistic regression of
    each attribute on X(I − WWᵀ) — the adversary's score of a rounded projection."""
    Xe = X - (X @ W) @ W.T
    loss, accuracy = 0.0, []
    for a in range(codes.shape[1]):
        clf = LogisticRegression(max_iter=1000)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf.fit(Xe, codes[:, a])
        loss += log_loss(codes[:, a], clf.predict_proba(Xe), labels=clf.classes_)
        accuracy.append(clf.score(Xe, codes[:, a]))
    return loss, np.array(accuracy)


def rlace(X, groups, rank, *, max_iter, eval_every, batch_size, learning_rate, weight_decay,
          tol, n_iter_no_change, random_state):
    """Run the relaxed game on the (centred) X; returns a dict of the results."""
    rng = check_random_state(as_seed(random_state))
    n, d = X.shape
    codes = groups.codes
    Y = groups.one_hot(center=False)
    edges = np.cumsum([0, *groups.n_groups])
    blocks = [slice(edges[a], edges[a + 1]) for a in range(len(groups.n_groups))]
    majority = np.array([np.bincount(codes[:, a]).max() / n for a in range(codes.shape[1])])
    bound = 1.0 / np.sqrt(d)  # torch.nn.Linear's initialisation
    theta = rng.uniform(-bound, bound, size=(d, Y.shape[1]))
    beta = rng.uniform(-bound, bound, size=Y.shape[1])
    P = 0.1 * rng.standard_normal((d, d))
    P = (P + P.T) / 2
    batches = _minibatches(rng, n, batch_size)
    best = {"loss": -np.inf, "iter": 0, "W": None, "P": None, "accuracy": None}
    stale = 0
    t = 0
    for t in range(1, max_iter + 1):
        idx = next(batches)
        _, grad_P, _, _ = loss_and_gradients(X[idx], Y[idx], P, theta, beta, blocks)
        P, lam, V = fantope_projection(P + learning_rate * (grad_P - weight_decay * P), rank)
        idx = next(batches)
        _, _, grad_theta, grad_beta = loss_and_gradients(X[idx], Y[idx], P, theta, beta, blocks)
        theta -= learning_rate * (grad_theta + weight_decay * theta)
        beta -= learning_rate * (grad_beta + weight_decay * beta)
        if t % eval_every and t != max_iter:
            continue
        W = V[:, np.argsort(-lam, kind="stable")[:rank]]  # rounding: top-r eigenvectors
        loss, accuracy = _evaluate(X, codes, W)
        if loss > best["loss"] + _MIN_IMPROVEMENT or best["W"] is None:
            best.update(loss=loss, iter=t, W=W, P=P.copy(), accuracy=accuracy)
            stale = 0
        else:
            stale += 1
        if np.all(np.abs(best["accuracy"] - majority) <= tol):
            break
        if n_iter_no_change is not None and stale >= n_iter_no_change:
            break
    best["n_iter"] = t
    best["majority"] = majority
    return best


class RLACE(BaseEraser):
    r"""Relaxed Linear Adversarial Concept Erasure (Ravfogel et al. 2022), optionally with PCA.

    Solves the relaxed minimax game

    .. math::

        \min_{\theta}\ \max_{P \in \mathcal F_r}\ -\,\mathcal L\bigl(\theta;\ X(I - P)\bigr),
        \qquad \mathcal F_r = \{P = P^\top,\ 0 \preceq P \preceq I,\ \operatorname{tr}P = r\},

    (L the cross-entropy of a linear softmax predictor of the attribute) by alternating SGD
    steps with a Fantope projection after each adversary step, then rounds the best relaxed P
    to the orthogonal projection I − WWᵀ onto the complement of its top-r eigenvectors W.

    Parameters
    ----------
    n_components : int, default=None
        ``None`` outputs the d-dimensional X(I − WWᵀ).  An int k sets r = d − k by default
        (Kleindessner et al.) and adds a PCA to k dimensions inside range(I − WWᵀ).
    n_removed : int, default=None
        The rank r.  ``None``: d − ``n_components``, or, without ``n_components``, the number
        of independent group contrasts (m − 1 per attribute; at most d − 1).
        ``n_removed + n_components <= n_features``.
    max_iter : int, default=10000
        Budget of outer steps (one adversary and one predictor step each); 10 000 is
        Kleindessner et al.'s setting, the reference's default is 75 000.
    eval_every : int, default=1000
        Steps between evaluations (and at the last step).
    batch_size : int, default=128
    learning_rate : float, default=0.005
        SGD step of both players.
    weight_decay : float, default=1e-4
        L2 penalty of both players (added to the gradients, as torch's SGD does).
    tol : float, default=0.0015
        Early stop when the evaluation accuracy of the best iterate is within ``tol`` of the
        majority rate for every attribute (the reference's ``epsilon``).
    n_iter_no_change : int or None, default=3
        Also stop after that many evaluations in a row whose log-loss does not exceed the best
        one by more than 1e-4 nats.  ``None`` disables the rule (the reference's behaviour).
    random_state : int, RandomState instance or None, default=None
        Initial P and θ and the minibatches.  ``None`` is the fixed seed 0.

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,)
        Mean of the training rows (the game is played on the centred data).
    relaxed_projection_ : ndarray of shape (n_features, n_features)
        The best relaxed P (in F_r); zeros without the attribute.
    n_iter_ : int
        Steps run (0 without the attribute: nothing to iterate).
    best_iter_ : int
        Step of the best iterate.
    eval_accuracy_ : ndarray of shape (n_attributes,)
        Evaluation accuracy of the best iterate, per attribute.
    majority_rate_ : ndarray of shape (n_attributes,)
        Share of the largest group, per attribute.
    projection_ : ndarray of shape (n_features, n_features)
        I − WWᵀ.
    removed_directions_ : ndarray of shape (``n_removed_``, n_features)
        Wᵀ.
    n_removed_ : int
    components_ : ndarray of shape (n_components, n_features)
        Only with ``n_components``.
    explained_variance_, explained_variance_ratio_ : ndarray of shape (n_components,)
        Only with ``n_components``.
    n_components_ : int
        Output dimension.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Only when X has string feature names.

    Notes
    -----
    Early stopping (checked at every evaluation): (a) the best iterate's accuracy is within
    ``tol`` of the majority rate for every attribute (the reference's rule), or (b)
    ``n_iter_no_change`` evaluations without improvement.  The evaluation is the reference's
    adversary on the *training* rows, with one ``LogisticRegression()`` (L2, C = 1, lbfgs;
    deterministic) instead of the best of three ``SGDClassifier(loss="log")``.
    Several attributes: one softmax head per attribute, losses summed.  A binary attribute uses
    a two-class softmax (the same model class as the reference's single logit).
    The game runs on centred data (the reference did not centre; the predictor's bias makes
    that immaterial for the classifier, and centring keeps the SGD steps well scaled).  SGD
    step sizes assume features of unit scale: standardise X first.  Cost: one d×d
    eigendecomposition per step, O(d³·max_iter); the game runs with one BLAS thread (many
    small calls, where waking threads costs more than the work).
    ``sensitive_features=None`` removes nothing (PCA or the identity) and warns.

    References
    ----------
    * S. Ravfogel, M. Twiton, Y. Goldberg, R. Cotterell. "Linear adversarial concept
      erasure." ICML 2022.
    * M. Kleindessner, M. Donini, C. Russell, M. B. Zafar. "Efficient fair PCA for fair
      representation learning." AISTATS 2023 (R-LACE as a baseline, §5).

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab.baselines.rlace import RLACE
    >>> rng = np.random.default_rng(0)
    >>> z = np.repeat([0, 1], 100)
    >>> X = rng.normal(size=(200, 4)); X[:, 0] += 3.0 * z
    >>> rlace = RLACE(n_removed=1, max_iter=500, eval_every=100).fit(X, sensitive_features=z)
    >>> bool(abs(rlace.removed_directions_[0, 0]) > 0.9)
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "n_removed": [Interval(Integral, 1, None, closed="left"), None],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "eval_every": [Interval(Integral, 1, None, closed="left")],
        "batch_size": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "weight_decay": [Interval(Real, 0, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "n_iter_no_change": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        n_components=None,
        *,
        n_removed=None,
        max_iter=10000,
        eval_every=1000,
        batch_size=128,
        learning_rate=0.005,
        weight_decay=1e-4,
        tol=0.0015,
        n_iter_no_change=3,
        random_state=None,
    ):
        self.n_components = n_components
        self.n_removed = n_removed
        self.max_iter = max_iter
        self.eval_every = eval_every
        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.weight_decay = weight_decay
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.random_state = random_state

    def _set_run_attributes(self, P, n_iter, best_iter, accuracy, majority):
        self.relaxed_projection_ = P
        self.n_iter_ = n_iter
        self.best_iter_ = best_iter
        self.eval_accuracy_ = accuracy
        self.majority_rate_ = majority

    def _fit_unconstrained(self, X):
        d = X.shape[1]
        self._set_run_attributes(np.zeros((d, d)), 0, 0, np.zeros(0), np.zeros(0))
        return super()._fit_unconstrained(X)

    def _fit_eraser(self, X, groups):
        n, d = X.shape
        k = self.n_components
        upper = self._removal_budget(d)
        self._check_n_removed(
            self.n_removed, upper,
            "n_features - 1" if k is None else f"n_features - n_components = {d} - {k}",
        )
        if self.n_removed is not None:
            rank = self.n_removed
        else:
            rank = min(groups.n_constraints, d - 1) if k is None else d - k
        with limit_threads():
            result = rlace(
                X - X.mean(axis=0), groups, rank,
                max_iter=self.max_iter, eval_every=self.eval_every,
                batch_size=self.batch_size, learning_rate=self.learning_rate,
                weight_decay=self.weight_decay, tol=self.tol,
                n_iter_no_change=self.n_iter_no_change, random_state=self.random_state,
            )
        self._set_run_attributes(
            result["P"], result["n_iter"], result["iter"],
            result["accuracy"], result["majority"],
        )
        return Eraser.orthogonal(np.ascontiguousarray(result["W"]))
