"""Sphinx extension: each script once per HTML page.

Sphinx 7.4 puts a script that an extension adds after the builder has started into the page
twice (once from its registry, once from the builder). For sphinx-thebe's inline configuration
the second copy redeclares a ``const`` and throws "Identifier 'THEBE_JS_URL' has already been
declared" in the browser, on every page. This drops the repeats, keeping the first copy.
"""


def _drop_repeated_scripts(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        filename = getattr(script, "filename", script) or ""
        attributes = getattr(script, "attributes", {})
        key = (str(filename), tuple(sorted((k, str(v)) for k, v in attributes.items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


def setup(app):
    app.connect("html-page-context", _drop_repeated_scripts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
