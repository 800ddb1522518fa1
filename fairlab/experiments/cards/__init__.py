"""A researcher's own representation method through the papers' protocols: its scorecard.

:func:`~fairlab.experiments.scorecard` fits a method of one's own exactly where the ledger's
experiments fit the published ones — the same splits, the same downstream classifiers, the same
scoring — as work units of a ledger of its own (``scorecard.csv.gz`` in a results folder of the
caller's, never the committed ledgers), and ranks it among the published methods, read from the
committed ledgers; every unit also audits the method's test representation
(:func:`fairlab.metrics.leakage`).  The protocols (:data:`PROTOCOLS`): Kleindessner et al.'s
Tables 1–3 (:data:`KLEINDESSNER`), De-Diego et al.'s Experiment A (:data:`DE_DIEGO_A`) and
Experiment B (:data:`DE_DIEGO_B`), Pérez-Suay et al.'s dimensionality reductions, Fig. 6
(:data:`PEREZ_SUAY_DR`) and Kleindessner et al.'s trade-off curves, Figs. 4 and 8
(:data:`KLEINDESSNER_TRADEOFFS`).  From the shell::

    python -m fairlab.experiments scorecard MODULE:FACTORY [--name NAME] [--protocol P ...]
        [--quick] [--results DIR] [--scheduler ADDRESS]

A method is a **factory** ``factory(n_components)`` that returns an unfitted scikit-learn
transformer whose ``fit`` takes ``sensitive_features`` (a class such as :class:`fairlab.FairPCA`
is one; ``fairlab.experiments.cards:KLEINDESSNER_FAIR_PCA`` is the setting of the ledger's
"Fair PCA" rows).

Every public name is importable from here; the modules behind them hold one purpose each:
``_card`` (the factory checked, the units, their run into the scorecard's ledger, the ranking
and the card), one room per protocol (``_kleindessner``, ``_de_diego_a``, ``_de_diego_b``,
``_perez_suay_dr``, ``_kleindessner_tradeoffs``: its unit, its published rows, its k),
``_registry`` (the protocols, listed in one place), ``_audit`` (the leakage audit of every unit)
and ``_render`` (the card's tables).
"""

from ._audit import AUDIT, AUDIT_QUICK, LEAKAGE
from ._card import (
    CARD_COLUMNS,
    DEFAULT_RESULTS,
    LEDGER,
    RANK_DIRECTION,
    RANK_TARGET,
    describe_factory,
    rank_methods,
    scorecard,
)
from ._de_diego_a import DE_DIEGO_A
from ._de_diego_b import DE_DIEGO_B
from ._kleindessner import KLEINDESSNER, KLEINDESSNER_FAIR_PCA
from ._kleindessner_tradeoffs import KLEINDESSNER_TRADEOFFS
from ._perez_suay_dr import PEREZ_SUAY_DR
from ._registry import PROTOCOLS
from ._render import render

__all__ = [
    "AUDIT",
    "AUDIT_QUICK",
    "CARD_COLUMNS",
    "DEFAULT_RESULTS",
    "DE_DIEGO_A",
    "DE_DIEGO_B",
    "KLEINDESSNER",
    "KLEINDESSNER_FAIR_PCA",
    "KLEINDESSNER_TRADEOFFS",
    "LEAKAGE",
    "LEDGER",
    "PEREZ_SUAY_DR",
    "PROTOCOLS",
    "RANK_DIRECTION",
    "RANK_TARGET",
    "describe_factory",
    "rank_methods",
    "render",
    "scorecard",
]
