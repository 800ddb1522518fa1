"""Session-wide settings of the test suite (``tests`` and the notebooks under nbval)."""

import pytest


def pytest_collection_modifyitems(config, items):
    """Keep each module's and each notebook's items on one pytest-xdist worker, bar papermill runs.

    ``make test`` runs ``--dist loadgroup``: items of one group go to one worker, in order, and
    an item without a group is scheduled on its own.  Every item is grouped by its file, as
    ``--dist loadscope`` would (a notebook's cells run in order in one kernel, a module's
    fixtures are built once), except the papermill runs: each executes a whole notebook by
    itself, and together they are minutes of work that one worker would otherwise do alone.
    """
    for item in items:
        if "papermill" not in item.name:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
