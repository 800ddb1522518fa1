"""The papers' experiments, one module per paper section, and the ledger of their results.

* :mod:`~fairlab.experiments.kleindessner` — Kleindessner et al. (2023) §5.1, fair PCA against
  its competitors (Tables 1–4, Figs. 2, 3, 7);
* :mod:`~fairlab.experiments.kleindessner_tradeoffs` — §5.2, trade-off curves against the
  reductions approach (Figs. 4, 8, 9);
* :mod:`~fairlab.experiments.concept_erasure` — §5.3, concept erasure on images (Figs. 5, 10–15);
* :mod:`~fairlab.experiments.perez_suay` — Pérez-Suay et al. (2017) §4 (Figs. 4–6);
* :mod:`~fairlab.experiments.de_diego` — De-Diego et al. (2025) §4 (Tables 1–5);
* :mod:`~fairlab.experiments.text_representations` — De-Diego et al. §4.3's application done:
  fair representations of a transformer's sentence embeddings (a ledger: the embeddings, and
  one unit per method and trade-off value).

:func:`scorecard` puts a method of one's own through the papers' protocols, as work units of a
ledger of its own, and ranks it among the published methods
(:mod:`~fairlab.experiments.example_method` is such a method); :mod:`~fairlab.experiments.cards`
holds its protocols, their settings and the card's renderer.

:mod:`~fairlab.experiments.methods` is the registry of the methods these experiments run: each
with the name the paper prints, its settings and the experiments' lists it belongs to.

The public names of each module drop the paper's name (the module is the namespace):
``kleindessner.table("german", 2)``, ``perez_suay.regression(...)``.

Paper scale is data.  An experiment is a grid of **work units**, each a pure function of its key
and parameters; :func:`run` computes the units the committed **ledger** lacks (on a Dask cluster,
resumably) and :func:`read_ledger` reads it — one tidy CSV per experiment in the results folder
(:func:`results_dir`: ``path=``, ``$FAIRLAB_RESULTS``, or the nearest ``notebooks/results``
above the working directory), per split, with the commit, date, machine and seconds of every
unit.
The book's chapters render the ledger beside the printed numbers and recompute a few units live
(:func:`recompute`, :func:`equal_to_ledger`); :func:`verify` reruns a sample.  From the shell::

    python -m fairlab.experiments run kleindessner [--where method="Fair PCA"] [--scheduler ...]
    python -m fairlab.experiments verify kleindessner
    python -m fairlab.experiments status
    python -m fairlab.experiments repair kleindessner
    python -m fairlab.experiments scorecard fairlab.experiments.example_method:GapPCA --quick
"""

from . import (
    cards,
    concept_erasure,
    de_diego,
    kleindessner,
    kleindessner_tradeoffs,
    methods,
    perez_suay,
    text_representations,
)
from ._ledger import (
    EXPERIMENTS,
    LEDGER_COLUMNS,
    MISSING,
    RESULT_COLUMNS,
    SIGNIFICANT_DIGITS,
    LedgerError,
    describe_ledger,
    equal_to_ledger,
    ledger_path,
    parameters_json,
    read_ledger,
    recompute,
    recompute_against_ledger,
    repair,
    results_dir,
    run,
    select_units,
    summarize_ledger,
    unit_id,
    verification_sample,
    verify,
)
from ._provenance import write_results_csv
from .cards import scorecard

__all__ = [
    "EXPERIMENTS",
    "LEDGER_COLUMNS",
    "LedgerError",
    "MISSING",
    "RESULT_COLUMNS",
    "SIGNIFICANT_DIGITS",
    "cards",
    "concept_erasure",
    "de_diego",
    "describe_ledger",
    "equal_to_ledger",
    "kleindessner",
    "kleindessner_tradeoffs",
    "ledger_path",
    "methods",
    "parameters_json",
    "perez_suay",
    "read_ledger",
    "recompute",
    "recompute_against_ledger",
    "repair",
    "results_dir",
    "run",
    "scorecard",
    "select_units",
    "summarize_ledger",
    "text_representations",
    "unit_id",
    "verification_sample",
    "verify",
    "write_results_csv",
]
