"""Optional extras in the tests: skipped where not installed, required where CI installed them.

``FAIRLAB_REQUIRE_EXTRAS`` (space-separated extra names, set by .ci/run after it installs them)
turns the skip into an ImportError, so an install that silently failed cannot pass as a skip.
"""

import importlib
import os

import pytest


def import_extra(module, extra):
    """``module``, or skip the calling test module when the extra ``extra`` is not installed."""
    if extra in os.environ.get("FAIRLAB_REQUIRE_EXTRAS", "").split():
        return importlib.import_module(module)
    return pytest.importorskip(module, reason=f"needs pip install 'fairlab[{extra}]'")
