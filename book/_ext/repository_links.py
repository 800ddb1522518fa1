"""Links to the project's repository only when the book names one, and one search box.

``_config.yml`` names the repository in one place, ``repository: url:`` (jupyter-book passes it on
as the theme option ``repository_url``). It is unset by default: a link to an address that does not
exist is worse than none. This extension reads it when the configuration is loaded and

* with a URL, turns on the header's repository and issue buttons and keeps the launch (Binder)
  button; adds the Sphinx tag ``repository``, so that text written inside
  ``:::{only} repository`` (clone commands, ``pip install git+…``) appears; and writes the URL
  wherever a page of ``book/`` says ``{{ repository_url }}``, code blocks included;
* without one, turns those buttons off (the launch buttons too, since Binder needs the
  repository), so the ``only`` blocks are left out and no page links to a repository.

It also empties ``navbar_persistent``, where pydata-sphinx-theme (0.17) puts a search field by
default. That field was the only content of pydata's header bar, which sphinx-book-theme (1.3)
otherwise leaves on the page: it showed a second search box above the sidebar's, and its hidden
sidebar buttons came first in the page, so both themes attached their click handlers to those
(``document.querySelector(".primary-toggle")``) and the visible ☰ and "Contents" buttons did
nothing. Without the field the header is rendered empty, with no buttons, and the visible
buttons are the ones wired.
"""

from sphinx.util import logging

LOGGER = logging.getLogger(__name__)
PLACEHOLDER = "{{ repository_url }}"
TAG = "repository"
_LAUNCHERS = ("binderhub_url", "jupyterhub_url", "colab_url", "deepnote_url", "jupyterlite_url")


def repository_url(config):
    """The repository URL of the configuration, or ``""`` when it names none."""
    url = (config.html_theme_options or {}).get("repository_url") or ""
    return str(url).strip().rstrip("/")


def _configure(app, config):
    options = dict(config.html_theme_options or {})
    options.setdefault("navbar_persistent", [])
    url = repository_url(config)
    for button in ("use_repository_button", "use_issues_button"):
        options[button] = bool(url)
    if url:
        options["repository_url"] = url
        app.tags.add(TAG)
    else:
        options.pop("repository_url", None)
        options["use_edit_page_button"] = False
        launch = dict(options.get("launch_buttons") or {})
        for key in _LAUNCHERS:
            if key in launch:
                launch[key] = ""
        options["launch_buttons"] = launch
    config.html_theme_options = options
    # a config value that the environment depends on: a new URL re-reads every page
    config.fairlab_repository_url = url


def _substitute(app, docname, source):
    if docname.startswith("book/") and PLACEHOLDER in source[0]:
        source[0] = source[0].replace(PLACEHOLDER, app.config.fairlab_repository_url)


def setup(app):
    app.add_config_value("fairlab_repository_url", "", "env")
    app.connect("config-inited", _configure)
    app.connect("source-read", _substitute)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
