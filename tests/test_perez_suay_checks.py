"""The verdict of chapter 14 over a band of thresholds, and its paired intervals, by hand.

``perez_suay.checks`` decides each check at the chapter's thresholds and with all of them halved
and doubled; two-method checks read a Student-t interval of paired differences.  Here: the
interval of five differences worked out by hand, a value just past a threshold that flips the
verdict, the ends of one check's band, and the counts the chapter prints from the ledger.
"""

import numpy as np
import pandas as pd
import pytest

from fairlab import experiments
from fairlab.experiments import perez_suay


def test_paired_interval_of_five_differences_by_hand():
    d = [0.1, 0.3, -0.2, 0.4, 0.0]
    # mean 0.12; squared deviations .0004 + .0324 + .1024 + .0784 + .0144 = .228, s² = .057;
    # t(0.975, 4 df) = 2.776445; half-width 2.776445 · √(.057 / 5) = 0.296443
    mean, low, high = perez_suay.paired_interval(d)
    assert mean == pytest.approx(0.12)
    assert low == pytest.approx(0.12 - 0.296443, abs=2e-6)
    assert high == pytest.approx(0.12 + 0.296443, abs=2e-6)
    # one difference: a mean but no interval
    assert np.isnan(perez_suay.paired_interval([0.5])[1])
    with pytest.raises(ValueError, match="level"):
        perez_suay.paired_interval(d, level=1.5)
    with pytest.raises(ValueError, match="finite"):
        perez_suay.paired_interval([0.1, np.nan])


def test_matched_dependence_interpolates_on_log_hsic():
    # FLR: error 0.30 at HSIC 1e-2 down to... 0.34 at 1e-4; FKR: 0.29 → 0.31 over 1e-3 → 1e-5.
    # Common log range [-4, -3]: FLR there is 0.32 → 0.34 (mean 0.33), FKR 0.29 → 0.30 (0.295).
    fkr = {"error": np.array([[0.29, 0.30, 0.31]]), "hsic": np.array([[1e-3, 1e-4, 1e-5]])}
    flr = {"error": np.array([[0.30, 0.32, 0.34]]), "hsic": np.array([[1e-2, 1e-3, 1e-4]])}
    got = perez_suay.matched_dependence(fkr, flr, n_points=101)
    assert got == pytest.approx([0.295 - 0.33])
    apart = {"error": np.array([[0.3, 0.3]]), "hsic": np.array([[1e-8, 1e-9]])}
    assert np.isnan(perez_suay.matched_dependence(apart, flr)[0])


def _dr(ratio, repetitions=3):
    """Rows of dimensionality_reduction for the sex panel: PCA's HSIC max/min is ``ratio``."""
    rows = []
    points = {"PCA": [(1, 0.26, 1e-2), (2, 0.25, 1e-2 * ratio)],
              "KPCA": [(1, 0.26, 5e-3), (2, 0.25, 5e-3)],
              "FDR": [(2, 0.25, 1e-5)], "KFDR": [(2, 0.24, 1e-6)]}
    for rep in range(repetitions):
        for method, pts in points.items():
            for k, e, h in pts:
                rows.append({"dataset": "adult", "sensitive": "sex", "variant": "with S",
                             "method": method, "repetition": rep, "n_components": k,
                             "error": e + 0.001 * rep, "hsic": h, "sigma": np.nan,
                             "seconds": 0.0})
    return pd.DataFrame(rows)


def _n_p(checks):
    (row,) = [r for r in checks.itertuples() if r.conclusion.startswith("PCA/KPCA")]
    return row


def test_a_value_just_past_the_threshold_flips_the_verdict():
    # "minimally the fairness score": HSIC max/min within a factor 10 over n_p
    assert _n_p(perez_suay.checks(dimensionality_reduction=_dr(10 * (1 - 1e-9)))).holds
    assert not _n_p(perez_suay.checks(dimensionality_reduction=_dr(10 * (1 + 1e-9)))).holds
    # the same at another reading: the threshold moves with the factor
    assert _n_p(perez_suay.checks(dimensionality_reduction=_dr(29.9), scale=3)).holds
    assert not _n_p(perez_suay.checks(dimensionality_reduction=_dr(30.1), scale=3)).holds
    with pytest.raises(ValueError, match="scale"):
        perez_suay.checks(dimensionality_reduction=_dr(2), scale=0)


@pytest.mark.parametrize("ratio, band", [(3.0, (True, True, True)), (7.0, (False, True, True)),
                                         (15.0, (False, False, True)),
                                         (25.0, (False, False, False))])
def test_the_ends_of_a_band_by_hand(ratio, band):
    # thresholds: 10 · ½ = 5 (strict), 10, 10 · 2 = 20 (lenient)
    c = perez_suay.checks(dimensionality_reduction=_dr(ratio))
    row = _n_p(c)
    assert (row.holds_at_half, row.holds, row.holds_at_double) == band
    assert row.thresholded and row.words in row.sentence
    assert "HSIC within a factor 10 over n_p" == row.reading
    # the paired KFDR check has no threshold: the same at every reading
    (kfdr,) = [r for r in c.itertuples() if r.conclusion.startswith("KFDR has a lower")]
    assert not kfdr.thresholded and kfdr.holds == kfdr.holds_at_half == kfdr.holds_at_double
    assert kfdr.holds and "[" in kfdr.interval  # −1 pt at every repetition: below 0
    # the two other checks of the panel (best trade-offs, KFDR's error) hold at every reading
    assert perez_suay.band_counts(c) == {0.5: 2 + band[0], 1.0: 2 + band[1], 2.0: 2 + band[2]}


def test_every_check_quotes_the_paper():
    words = perez_suay.WORDS
    assert set(words) == set(perez_suay.SENTENCES)
    for key, text in words.items():
        assert text in perez_suay.SENTENCES[key], key
    assert set(perez_suay.THRESHOLDED) <= set(words)


@pytest.fixture(scope="module")
def ledger_checks():
    ledger = experiments.read_ledger("perez_suay")
    fig4, fig5, fig6 = (perez_suay.results_from_ledger(ledger, name)
                        for name in ("fig4", "fig5", "fig6"))
    return perez_suay.checks(pd.concat([fig4, fig5], ignore_index=True), fig6)


def test_the_chapters_counts_and_band_from_the_ledger(ledger_checks):
    c = ledger_checks
    assert len(c) == 28 and int(c.thresholded.sum()) == 13
    assert perez_suay.band_counts(c) == {0.5: 10, 1.0: 12, 2.0: 16}
    per_figure = c.groupby("figure", sort=False)[["holds_at_half", "holds",
                                                 "holds_at_double"]].sum()
    assert per_figure.to_numpy().tolist() == [[3, 5, 8], [2, 2, 3], [5, 5, 5]]
    # monotone in the thresholds; a check without one reads the same at every factor
    assert (c.holds_at_half <= c.holds).all() and (c.holds <= c.holds_at_double).all()
    plain = c[~c.thresholded]
    assert (plain.holds_at_half == plain.holds).all()
    assert (plain.holds == plain.holds_at_double).all()
    # every failing check has a cause; the threshold cause only where doubling makes it hold
    failing = c[~c.holds]
    assert (failing.cause != "").all() and (c[c.holds].cause == "").all()
    threshold = failing.cause.str.startswith("a threshold")
    assert (failing[threshold].holds_at_double).all()
    # Fig. 5's "in all the hyperparameter space" fails at equal μ; at matched HSIC FKR's error
    # is lower than FLR's on every panel
    outperforms = c[c.conclusion.str.startswith("FKR outperforms")]
    assert len(outperforms) == 4 and not outperforms.holds.any()
    assert outperforms.cause.str.contains("error is lower than FLR's at equal HSIC").all()
    verdict = perez_suay.verdict(c, {"Fig. 4": 25, "Fig. 5": 25, "Fig. 6": 25})
    assert verdict.sentence.startswith("Between 10 and 16 of the 28 checks")
    assert "12 at the chapter's own thresholds" in verdict.sentence
    table = perez_suay.band_table(c)._repr_html_()
    assert "10 of 28" in table and "16 of 28" in table
