"""What a protocol of the scorecard is: the record each protocol's room fills in."""

from dataclasses import dataclass


@dataclass(frozen=True)
class _Protocol:
    """A protocol of :func:`~fairlab.experiments.scorecard`: its units, how one runs, and its
    card's published rows.

    ``run(factory, key, parameters)`` computes one unit (``key``: method, protocol, data set,
    k, split) and returns its ledger rows (:data:`~fairlab.experiments.LEDGER_COLUMNS` up to
    ``value``) and the test representation and sensitive attribute that the audit reads;
    ``published(ledger)`` turns the committed ledger ``experiment`` into ledger rows of the
    published methods (the card keeps those of the units' data sets, k and splits);
    ``ks(dataset)`` gives the k of a data set (a quick card takes the first);
    ``parameters`` are the experiment's settings recorded with each unit; ``datasets`` maps a
    unit's data set to the name the ledger rows print.  The rest is how
    :func:`~fairlab.experiments.cards.render` prints it: the ``title``, the ``columns`` as
    (metric, model) pairs, the metrics' printed ``labels`` and ``decimals``, the reason a value
    can be ``missing``, which direction is ``better`` in words, and the published ``methods``
    in their printed order.

    Optional: ``quick``, the data sets of a quick card (default all of them); ``summarize(mine,
    theirs)``, the card's rows of the method's and the published methods' ledger rows (default
    :func:`~fairlab.experiments.summarize_ledger` of each, the metrics of ``RANK_DIRECTION``),
    with a ``yours`` column; ``points``, the (x, y) metrics of curve points that
    :func:`~fairlab.experiments.cards.render` prints in a table of their own.
    """

    name: str
    experiment: str
    datasets: dict
    splits: tuple
    ks: object
    parameters: dict
    run: object
    published: object
    title: str
    columns: tuple
    labels: dict
    decimals: dict
    missing: str
    better: str
    methods: tuple
    quick: tuple = None
    summarize: object = None
    points: tuple = ()
