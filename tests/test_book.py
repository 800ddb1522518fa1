"""The book: it builds with warnings as errors, and every page works in a browser.

The book is built once, with warnings (broken references, bad directives, bad citations) as
errors; notebooks are not executed (their stored outputs are rendered; nbval re-executes them).
It is served from a loopback HTTP server. Debian's Chromium, headless, with every other host
unreachable, loads each page through the Chrome DevTools Protocol and the tests assert, page by
page:

* no JavaScript error and no failed request for one of the book's own files;
* no request to any host but the loopback server (the book works offline);
* every formula typeset by MathJax, and no MathJax error;
* nothing cut off: a display equation, table, code block or output wider than its column scrolls
  inside its own box with both edges reachable, at desktop width (1280 px) and on a phone
  (390 px); in print, where nothing scrolls, it must fit the page;
* each chapter's download button gives its notebook;
* nothing wider than its column unless inside a scroll box, at 1280 px and at 390 px, and nothing
  wider than the phone's screen; figure text at least 9 px as displayed at 1280 px; no raw TeX
  (``$…$``, ``\\(``) in the rendered text; these per page, so that a page can be marked;
* result tables: at 1280 px a table wider than the column scrolls inside its own box with its
  label column sticky; every chapter shows at most 10 tables outside collapsed detail
  (``<details>``) and no header in snake_case, no raw LaTeX, no printed dict and no commit hash
  in an output; no chapter shows a console output over 10 lines, not even behind a click (a
  longer one goes into a table or a generated sentence), nor a table printed as console text (a
  pandas Series or DataFrame printed as text: a reader meets tables through the renderer);
  chapter 11 is at most 15 000 px tall at 1280 px with its detail collapsed;
* figures on a phone: at 390 px every figure's text is 8 px or more as displayed, or the figure
  links to its file at full size;
* math: inline formulas in MathJax's own layout (an inline-block), so that a superscript such as
  the transpose sign lies inside its formula's box (laid out inline it lost its bar);
* the navigation works: at 390 px tapping ☰ and "Contents" opens the panel, at 1280 px the
  sidebar button hides and shows the sidebar; exactly one search box; search snippets show
  formulas as text;
* links only to places that exist: with ``repository.url`` unset (the default) no page links to
  a repository, a clone or Binder; every reference with a DOI or arXiv number links to it.

FAIRLAB_BOOK_HTML=_build/html checks a book built already instead of building one.

Chromium is driven directly over the DevTools websocket (no chromedriver, nothing downloaded).
Without Chromium the browser tests skip, saying how to install it: ``apt-get install chromium``.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import book_build
import pytest
import websocket
import yaml

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DESKTOP, PHONE, PRINT = 1280, 390, 718  # px; PRINT: an A4 page less Chromium's default margins
MIN_FIGURE_TEXT_PX = 9  # the smallest text of a figure as displayed at DESKTOP width
MIN_PHONE_FIGURE_TEXT_PX = 8  # ... at PHONE width, unless the figure links to its full size
MAX_TABLES, MAX_CONSOLE_LINES = 10, 10  # per chapter: tables outside <details>; lines per output
MAX_CHAPTER_11_HEIGHT = 15_000  # px at DESKTOP width, its detail collapsed
INSTALL_HINT = "install Debian's Chromium with `apt-get install chromium` (run as root)"



# --------------------------------------------------------------------------------------------
# The book, served from 127.0.0.1


@pytest.fixture(scope="module")
def html_dir(tmp_path_factory) -> Path:
    if os.environ.get("FAIRLAB_BOOK_HTML"):  # a book built already, e.g. by make book
        return Path(os.environ["FAIRLAB_BOOK_HTML"]).resolve()
    if not book_build.JUPYTER_BOOK.exists():
        pytest.skip("jupyter-book is not installed (install the 'book' extra)")
    out = tmp_path_factory.mktemp("book")
    result = book_build.build(out)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return out / "_build" / "html"


def test_config_keeps_notebook_errors_fatal_and_math_offline():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert config["sphinx"]["config"]["nb_execution_raise_on_error"] is True
    assert "sphinx-mathjax-offline" in config["sphinx"]["extra_extensions"]
    assert {".*", "_build", "tests", "fairlab"} <= set(config["exclude_patterns"])


def test_book_builds_with_warnings_as_errors(html_dir):
    assert (html_dir / "index.html").exists()
    assert (html_dir / "_static" / "mathjax").is_dir(), "MathJax must be bundled for offline math"


def test_api_inventory_holds_every_public_name(html_dir):
    """objects.inv, the built book's index of documented objects, names each public name of
    fairlab and its sub-packages (their ``__all__``; tests/test_api_pages.py lists them)."""
    from sphinx.util.inventory import InventoryFile
    from test_api_pages import public_names

    with open(html_dir / "objects.inv", "rb") as stream:
        inventory = InventoryFile.load(stream, "", lambda base, uri: uri)
    documented = {name for role, entries in inventory.items() if role.startswith("py:")
                  for name in entries}
    missing = sorted(set(public_names()) - documented)
    assert not missing, f"on no API page of the built book: {missing}"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # the browser hung up: fine
            super().handle_error(request, client_address)


@pytest.fixture(scope="module")
def server(html_dir):
    handler = functools.partial(_QuietHandler, directory=str(html_dir))
    httpd = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


def _toc_pages() -> list[str]:
    """The book's pages in reading order, from _toc.yml, as paths of HTML files."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                files.append(node["file"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc.get("parts", []))
    return [str(Path(f).with_suffix(".html").as_posix()) for f in files]


def _pages(html_dir: Path) -> list[str]:
    """Every HTML page of the book, relative to the site root, less redirects (index.html)."""
    pages = sorted(p.relative_to(html_dir).as_posix() for p in html_dir.rglob("*.html")
                   if not p.relative_to(html_dir).parts[0].startswith("_")
                   and 'http-equiv="refresh"' not in p.read_text(errors="replace")[:2000].lower())
    return pages


# --------------------------------------------------------------------------------------------
# A minimal Chrome DevTools Protocol client


class Browser:
    """One headless Chromium with one tab, driven over its DevTools websocket."""

    def __init__(self, user_data_dir: str):
        flags = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-extensions", "--disable-default-apps", "--no-default-browser-check",
            "--hide-scrollbars", "--mute-audio",
            # every host but the loopback server is unreachable
            "--no-proxy-server", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
            f"--user-data-dir={user_data_dir}", "--remote-debugging-port=0",
            "--remote-allow-origins=*", "about:blank",
        ]
        self.process = subprocess.Popen(
            [CHROMIUM, *flags], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True,
        )
        port_file = Path(user_data_dir) / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().strip()):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Chromium did not start (exit code {self.process.poll()})")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(
            page["webSocketDebuggerUrl"], timeout=60, suppress_origin=True
        )
        self._id = 0
        self.events: list[dict] = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")

    def send(self, method: str, **params):
        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self._id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method: str, timeout: float = 60):
        """Wait for the next event METHOD (events already received count)."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for event in self.events[seen:]:
                if event.get("method") == method:
                    return event
            seen = len(self.events)
            self.ws.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                self.events.append(json.loads(self.ws.recv()))
            except websocket.WebSocketTimeoutException:
                raise TimeoutError(f"no {method} within {timeout} s") from None
            finally:
                self.ws.settimeout(60)

    def evaluate(self, expression: str):
        result = self.send("Runtime.evaluate", expression=expression, awaitPromise=True,
                           returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:60]}...: {result['exceptionDetails']}")
        return result["result"].get("value")

    def viewport(self, width: int, media: str = "screen"):
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=900,
                  deviceScaleFactor=1, mobile=width < 600)
        self.send("Emulation.setEmulatedMedia", media=media)
        # let the layout settle: resize and media listeners, then the theme's CSS transitions
        self.evaluate(SETTLE_JS)

    def load(self, url: str) -> list[dict]:
        """Navigate to URL, wait until loaded and typeset; return the events of this load."""
        self.events.clear()
        self.send("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")
        self.evaluate(READY_JS)
        events, self.events = self.events, []
        return events

    def close(self):
        try:
            self.ws.close()
        finally:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            self.process.wait(timeout=30)


SETTLE_JS = """(async () => {
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  await Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)));
  return true;
})()"""

READY_JS = """(async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  await document.fonts.ready;
  return true;
})().then(() => SETTLE)""".replace("SETTLE", SETTLE_JS)

# Problems of layout and typesetting on the page as laid out now, as a list of strings.
# An element is "cut" when part of it lies where no reader can see it: outside a box that clips
# (overflow hidden/clip), outside the scrollable area of a scrolling box (content that overflows
# a scroll box to the left cannot be scrolled to), or outside the page. In print nothing scrolls.
CHECK_JS = r"""((print) => {
  const problems = [];
  const name = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const cls = [...el.classList].slice(0, 2);
    return cls.length ? s + '.' + cls.join('.') : s;
  };
  const where = (el) => {  // the element, the nearest ancestor with an id, the section title
    const named = el.parentElement.closest('[id]');
    const section = el.closest('section[id]');
    const heading = section && section.querySelector('h1, h2, h3, h4');
    const title = heading ? heading.textContent.replace(/[#¶]/g, '').trim().slice(0, 60) : '';
    return name(el) + (named ? ` in ${name(named)}` : '') + (title ? ` (section "${title}")` : '');
  };
  const text = (el) => {
    const math = el.closest('.math');
    const t = (math ? math.textContent : el.textContent).replace(/\s+/g, ' ').trim();
    return t.length > 90 ? t.slice(0, 90) + '…' : t;
  };

  // every formula typeset, no MathJax error
  for (const el of document.querySelectorAll('span.math, div.math')) {
    if (!el.querySelector('mjx-container'))
      problems.push(`formula not typeset: ${where(el)}: ${text(el)}`);
  }
  for (const el of document.querySelectorAll('mjx-merror')) {
    const message = el.getAttribute('data-mjx-error') || el.textContent;
    problems.push(`MathJax error "${message}": ${where(el)}: ${text(el)}`);
  }

  // nothing cut off
  const root = document.querySelector('main') || document.body;
  const wide = root.querySelectorAll(
    'mjx-container > mjx-math, table, pre, img, .cell_output .output, .sd-tab-set');
  const pageWidth = document.documentElement.clientWidth;
  const tol = 1.5;
  const outside = '.bd-sidebar-primary, .bd-sidebar-secondary, header, footer, [hidden]';
  for (const el of wide) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || el.closest(outside)) continue;  // not shown
    let kind = name(el);
    if (el.tagName === 'MJX-MATH') {
      const display = el.parentElement.getAttribute('display') === 'true';
      kind = display ? 'display equation' : 'inline formula';
    }
    let left = r.left, right = r.right;
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'visible') continue;
      const ar = a.getBoundingClientRect();
      const viewLeft = ar.left + a.clientLeft, viewRight = viewLeft + a.clientWidth;
      const scrolls = (ox === 'auto' || ox === 'scroll') && !print;
      const areaLeft = scrolls ? viewLeft - a.scrollLeft : viewLeft;
      const areaRight = scrolls ? areaLeft + a.scrollWidth : viewRight;
      if (left < areaLeft - tol || right > areaRight + tol) {
        const side = left < areaLeft - tol ? 'left' : 'right';
        const by = Math.round(side === 'left' ? areaLeft - left : right - areaRight);
        const how = scrolls ? 'and cannot be scrolled into view'
          : (print ? '(nothing scrolls in print)' : '(overflow hidden)');
        const by_whom = `by ${name(a)}: ${where(el)}: ${text(el)}`;
        problems.push(`${kind} cut off on the ${side} by ${by}px ${how} ${by_whom}`);
        break;
      }
      left = Math.max(left, viewLeft);
      right = Math.min(right, viewRight);
    }
    left += window.scrollX;  // page coordinates
    right += window.scrollX;
    if (left < -tol || right > pageWidth + tol) {
      const side = left < -tol ? 'left' : 'right';
      const by = Math.round(side === 'left' ? -left : right - pageWidth);
      const what = `${where(el)}: ${text(el)}`;
      problems.push(`${kind} sticks out of the page on the ${side} by ${by}px: ${what}`);
    }
  }
  const pageScroll = document.documentElement.scrollWidth;
  if (!print && pageScroll > pageWidth + tol)
    problems.push(`the whole page scrolls sideways: ${pageScroll}px wide, window ${pageWidth}px`);
  return [...new Set(problems)];
})"""


# Elements wider than their column. The column is the article's content box; an element inside a
# box that scrolls sideways (a scroll box) may be wider than the column, the scroll box may not,
# and on a desktop a table of the text (not a notebook's output) may not scroll at all.
# Elements not shown (no size, visibility hidden) and MathJax's hidden copy for screen readers
# are left out. On a phone, nothing may reach past the screen either.
WIDTH_JS = r"""((phone) => {
  const problems = [];
  const article = document.querySelector('article.bd-article');
  if (!article) return problems;
  const cs = getComputedStyle(article);
  const ar = article.getBoundingClientRect();
  const colLeft = ar.left + parseFloat(cs.paddingLeft) + article.clientLeft;
  const colRight = ar.right - parseFloat(cs.paddingRight) - article.clientLeft;
  const screen = document.documentElement.clientWidth;
  const tol = 1.5;
  const scrolls = (el) => {
    for (let a = el.parentElement; a && a !== article; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'auto' || ox === 'scroll') return true;
    }
    return false;
  };
  const label = (el) => {
    let s = el.tagName.toLowerCase();
    const cls = [...el.classList].slice(0, 2);
    if (cls.length) s += '.' + cls.join('.');
    const t = el.textContent.replace(/\s+/g, ' ').trim().slice(0, 70);
    const section = el.closest('section[id]');
    return `${s} (${Math.round(el.getBoundingClientRect().width)}px)` +
      (section ? ` in #${section.id}` : '') + (t ? `: ${t}` : '');
  };
  const reported = new Set();
  for (const el of article.querySelectorAll('*')) {
    if (el.closest('mjx-assistive-mml, .headerlink, [hidden]')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const st = getComputedStyle(el);
    if (st.visibility === 'hidden' || st.position === 'fixed') continue;
    if (scrolls(el)) continue;
    const parent = [...reported].some((p) => p.contains(el));
    if (parent) continue;
    if (r.left < colLeft - tol || r.right > colRight + tol) {
      problems.push(`wider than the column (${Math.round(colRight - colLeft)}px): ${label(el)}`);
      reported.add(el);
    } else if (phone && (r.left < -tol || r.right > screen + tol)) {
      problems.push(`reaches past the screen (${screen}px): ${label(el)}`);
      reported.add(el);
    }
  }
  if (!phone) {  // on a desktop a table of the text fits the column: no sideways scrolling
    for (const table of article.querySelectorAll('table')) {
      if (table.closest('.cell_output')) continue;  // a notebook's output table may scroll
      const r = table.getBoundingClientRect();
      if (r.width > colRight - colLeft + tol)
        problems.push(`table wider than the column (${Math.round(colRight - colLeft)}px), ` +
                      `it scrolls sideways: ${label(table)}`);
    }
  }
  if (phone) {
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      const st = getComputedStyle(el);
      if (r.width === 0 || st.visibility === 'hidden' || st.display === 'none') continue;
      if (el.closest('dialog:not([open]), [hidden]')) continue;
      if (scrolls(el) || el.closest('article.bd-article')) continue;
      if (r.right > screen + tol && !el.closest('.bd-sidebar-secondary, .bd-sidebar-primary')) {
        problems.push(`page furniture reaches past the screen: ${label(el)}`);
        break;
      }
    }
    if (document.documentElement.scrollWidth > screen + tol)
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px`);
  }
  return problems;
})"""

# Text of the figures as displayed. An SVG figure is read back and laid out at the size of its
# image, so every text's size on screen is its font size times the scale of its coordinates. A
# raster figure's text cannot be measured: it may not be shrunk below 2/3 of its natural size,
# which keeps matplotlib's smallest default text (10 pt at 100 dpi, 13.9 px) at 9 px or more.
FIGURE_TEXT_JS = r"""(async (minPx) => {
  const problems = [];
  const images = [...document.querySelectorAll('article.bd-article img')]
    .filter((img) => img.closest('.cell_output') && img.getBoundingClientRect().width > 0);
  for (const img of images) {
    const shown = img.getBoundingClientRect().width;
    const name = img.getAttribute('src').split('/').pop();
    if (!/\.svg$/i.test(img.getAttribute('src'))) {
      const scale = shown / img.naturalWidth;
      if (scale < 2 / 3 - 1e-3)
        problems.push(`raster figure ${name} shrunk to ${(100 * scale).toFixed(0)}% ` +
                      `(${img.naturalWidth}px into ${Math.round(shown)}px): its text is too small`);
      continue;
    }
    const text = await (await fetch(img.src)).text();
    const holder = document.createElement('div');
    holder.style.cssText = 'position:absolute; left:0; top:0; visibility:hidden';
    holder.innerHTML = text;
    const svg = holder.querySelector('svg');
    svg.setAttribute('width', `${shown}px`);
    svg.removeAttribute('height');
    document.body.appendChild(holder);
    let smallest = Infinity, which = '';
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent.trim()) continue;
      const m = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      if (px < smallest) { smallest = px; which = t.textContent.trim().slice(0, 40); }
    }
    holder.remove();
    if (smallest === Infinity)
      problems.push(`SVG figure ${name} has no text elements (text as paths cannot be checked)`);
    else if (smallest < minPx - 0.05)
      problems.push(`figure ${name}: text "${which}" is ${smallest.toFixed(1)}px < ${minPx}px`);
  }
  return problems;
})"""

# Raw TeX in the rendered text (outside code, formulas and scripts): a formula MathJax missed.
RAW_TEX_JS = r"""(() => {
  const problems = [];
  const root = document.querySelector('article.bd-article') || document.body;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const skip = 'code, pre, kbd, samp, script, style, mjx-container, .math, .highlight, textarea';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip)) continue;
    const t = node.textContent;
    const m = t.match(/\\[()[\]]|\$\$|\$[^$\s][^$]*\$/);
    if (m) problems.push(`raw TeX "${m[0].slice(0, 40)}" in: ${t.trim().slice(0, 90)}`);
  }
  return problems;
})"""

# Tables wider than the column (a chapter's result tables): each must sit in a box that scrolls
# sideways and fits the column, with its label column sticky (position: sticky on the first cell
# of its body rows that is not a group row's heading across the table), so that the labels stay
# in view while the numbers scroll.
WIDE_TABLE_JS = r"""(() => {
  const problems = [];
  const article = document.querySelector('article.bd-article');
  if (!article) return problems;
  const cs = getComputedStyle(article);
  const ar = article.getBoundingClientRect();
  const column = ar.width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  for (const table of article.querySelectorAll('table')) {
    const r = table.getBoundingClientRect();
    if (r.width === 0 || r.width <= column + 1.5 || table.closest('details:not([open])')) continue;
    let box = null;
    for (let a = table.parentElement; a && a !== article; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'auto' || ox === 'scroll') { box = a; break; }
    }
    const cell = [...table.querySelectorAll('tbody tr')].map((row) => row.firstElementChild)
      .find((c) => c && c.colSpan === 1);  // a label cell, not a group row's heading
    const sticky = cell && getComputedStyle(cell).position === 'sticky';
    const name = (table.querySelector('caption') || table).textContent.replace(/\s+/g, ' ')
      .trim().slice(0, 60);
    if (!box || box.getBoundingClientRect().width > column + 1.5)
      problems.push(`table ${Math.round(r.width)}px wide in a ${Math.round(column)}px column ` +
                    `does not scroll in its own box: ${name}`);
    else if (!sticky)
      problems.push(`table ${Math.round(r.width)}px wide scrolls without a sticky label ` +
                    `column: ${name}`);
  }
  return problems;
})()"""

# What a chapter shows: tables outside collapsed detail, console outputs (stream or plain text,
# with their line counts, behind a click or not), and what a reader should never see in an output:
# a table printed as console text, a snake_case header, raw LaTeX, a printed dict, a commit hash.
# Also the page's height with its detail collapsed.
CHAPTER_JS = r"""(() => {
  const article = document.querySelector('article.bd-article');
  if (!article) return null;
  const tables = [...article.querySelectorAll('table')].filter(
    (t) => !t.closest('details') && t.getBoundingClientRect().height > 0);
  // a table printed as text, as tests/test_conventions.py reads it: a pandas Series (its dtype
  // footer), or a DataFrame's to_string (two lines of equal width, the first indented, columns
  // apart by two spaces or more)
  const printedTable = (text) => {
    if (/^(Name: .+, )?(Length: \d+, )?dtype: \w+$/m.test(text)) return true;
    const lines = text.replace(/\n+$/, '').split('\n');
    return lines.slice(1).some((b, i) => lines[i].length === b.length && b.length >= 8
      && lines[i][0] === ' ' && (/\S {2,}\S/.test(lines[i]) || /\S {2,}\S/.test(b)));
  };
  const consoles = [...article.querySelectorAll(
    '.cell_output .output.stream pre, .cell_output .output.text_plain pre')]
    .map((p) => ({lines: p.textContent.replace(/\n+$/, '').split('\n').length,
                  table: printedTable(p.textContent),
                  first: p.textContent.trim().split('\n')[0].slice(0, 70)}));
  const unseen = [];
  for (const out of article.querySelectorAll('.cell_output')) {
    for (const th of out.querySelectorAll('th')) {
      const t = th.textContent.trim();
      if (/^[a-z0-9]+(_[a-z0-9]+)+$/.test(t)) unseen.push(`snake_case header "${t}"`);
    }
    const text = out.textContent;
    const latex = text.match(/\$[^$\n]*\\[a-zA-Z]+[^$\n]*\$|\\pm\b/);
    if (latex) unseen.push(`raw LaTeX "${latex[0].slice(0, 40)}"`);
    const dict = text.match(/\{'[^'\n]{1,40}': /);
    if (dict) unseen.push(`a printed dict "${dict[0]}"`);
    const hash = text.match(/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{10,40}\b/);
    if (hash) unseen.push(`a commit hash "${hash[0]}"`);
  }
  return {tables: tables.length, consoles, unseen: [...new Set(unseen)],
          height: document.documentElement.scrollHeight};
})()"""

# Figures as displayed on a phone: the smallest text of each SVG figure in px at its displayed
# size, and whether the figure links to its own file (a version at full size).
PHONE_FIGURE_JS = r"""(async () => {
  const found = [];
  const images = [...document.querySelectorAll('article.bd-article img')]
    .filter((img) => img.closest('.cell_output') && img.getBoundingClientRect().width > 0);
  for (const img of images) {
    const shown = img.getBoundingClientRect().width;
    const src = img.getAttribute('src');
    const link = img.closest('a[href]');
    const linked = !!link && link.href === img.src;
    let smallest = null;
    if (/\.svg$/i.test(src)) {
      const holder = document.createElement('div');
      holder.style.cssText = 'position:absolute; left:0; top:0; visibility:hidden';
      holder.innerHTML = await (await fetch(img.src)).text();
      const svg = holder.querySelector('svg');
      svg.setAttribute('width', `${shown}px`);
      svg.removeAttribute('height');
      document.body.appendChild(holder);
      for (const t of svg.querySelectorAll('text')) {
        if (!t.textContent.trim()) continue;
        const m = t.getScreenCTM();
        const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
        smallest = smallest === null ? px : Math.min(smallest, px);
      }
      holder.remove();
    } else {
      smallest = 13.9 * shown / img.naturalWidth;  // matplotlib's smallest default text, scaled
    }
    found.push({name: src.split('/').pop(), smallest, linked});
  }
  return found;
})()"""

# Inline formulas: MathJax's own layout (mjx-math an inline-block) and every transpose sign (⊤,
# U+22A4) inside its formula's box; laid out inline, the box was a line of zero height and the
# superscript sat 14 px above it, where the next line's box cut its bar.
TRANSPOSE_JS = r"""(() => {
  const problems = [];
  const inline = [...document.querySelectorAll(
    'mjx-container[jax="CHTML"]:not([display="true"]) > mjx-math')];
  const wrong = inline.filter((m) => getComputedStyle(m).display !== 'inline-block');
  if (wrong.length)
    problems.push(`${wrong.length} of ${inline.length} inline formulas are not inline-blocks ` +
                  `(${getComputedStyle(wrong[0]).display})`);
  let glyphs = 0;
  for (const c of document.querySelectorAll('mjx-c')) {
    if (!/\bmjx-c22A4\b/.test(c.className)) continue;
    const r = c.getBoundingClientRect();
    if (r.height === 0) continue;
    glyphs += 1;
    const box = c.closest('mjx-math').getBoundingClientRect();
    if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
      problems.push(`a transpose sign sticks out of its formula's box by ` +
                    `${Math.round(Math.max(box.top - r.top, r.bottom - box.bottom))}px: ` +
                    (c.closest('.math') || c).textContent.slice(0, 40));
  }
  return {problems: [...new Set(problems)], glyphs};
})()"""


# Links and buttons to a repository, a clone or Binder.
REPOSITORY_LINKS_JS = r"""(() => [
  ...[...document.querySelectorAll('a[href]')]
     .filter((a) => /github\.com|gitlab\.com|mybinder\.org|git\+https?:/.test(a.href))
     .map((a) => `link to ${a.href}`),
  ...[...document.querySelectorAll(
       '.btn-source-repository-button, .btn-source-issues-button, .btn-launch-binder')]
     .map((b) => `button ${b.className}`),
  ...[...document.querySelectorAll('article.bd-article pre')]
     .filter((p) => /git clone|git\+https?:/.test(p.textContent))
     .map((p) => `command: ${p.textContent.trim().slice(0, 80)}`),
])()"""


@pytest.fixture(scope="module")
def browser(server):
    if not Path(CHROMIUM).exists():
        print(f"\nSKIP: Chromium not found; {INSTALL_HINT}")
        pytest.skip(f"Chromium not found at {CHROMIUM}; {INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="fairlab-chromium-") as profile:
        chromium = Browser(profile)
        try:
            yield chromium
        finally:
            chromium.close()


def _host_of(url: str, base: str) -> str | None:
    """The host:port URL goes to, or None for the loopback server and for data:, blob:, about:."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss", "ftp"):
        return None
    if parts.netloc == urllib.parse.urlsplit(base).netloc:
        return None
    return parts.netloc


def _load_problems(events: list[dict], base: str) -> tuple[list[str], list[str]]:
    """(JavaScript errors and failed local requests, requests to other hosts) of one load."""
    errors, external = [], []
    requests = {}
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            description = details.get("exception", {}).get("description") or details.get("text")
            errors.append(f"uncaught exception at {details.get('url', '?')}:"
                          f"{details.get('lineNumber', 0) + 1}: {description}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
            errors.append(f"console.{params['type']}: {args}")
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            errors.append(f"{entry['source']} error: {entry['text']} {entry.get('url', '')}")
        elif method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            requests[params["requestId"]] = url
            if _host_of(url, base):
                external.append(url)
        elif method == "Network.responseReceived" and params["response"]["status"] >= 400:
            errors.append(f"HTTP {params['response']['status']} for {params['response']['url']}")
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            url = requests.get(params["requestId"], "?")
            if not _host_of(url, base):
                errors.append(f"request failed ({params.get('errorText')}): {url}")
    return errors, external


@pytest.fixture(scope="module")
def report(html_dir, server, browser):
    """Load every page once and check it at each width and in print; problems per page."""
    found: dict[str, dict[str, list[str]]] = {}
    for page in _pages(html_dir):
        browser.viewport(PHONE)
        events = browser.load(server + page)
        errors, external = _load_problems(events, server)
        checks = {"errors": errors, "external": external}
        checks[f"layout at {PHONE}px"] = browser.evaluate(f"{CHECK_JS}(false)")
        checks[f"width at {PHONE}px"] = browser.evaluate(f"{WIDTH_JS}(true)")
        checks["figures at phone"] = browser.evaluate(PHONE_FIGURE_JS)
        browser.viewport(DESKTOP)
        checks[f"layout at {DESKTOP}px"] = browser.evaluate(f"{CHECK_JS}(false)")
        checks[f"width at {DESKTOP}px"] = browser.evaluate(f"{WIDTH_JS}(false)")
        checks["figure text"] = browser.evaluate(f"{FIGURE_TEXT_JS}({MIN_FIGURE_TEXT_PX})")
        checks["raw tex"] = browser.evaluate(RAW_TEX_JS)
        checks["wide tables"] = browser.evaluate(WIDE_TABLE_JS)
        checks["chapter"] = browser.evaluate(CHAPTER_JS)
        checks["transpose"] = browser.evaluate(TRANSPOSE_JS)
        checks["repository links"] = browser.evaluate(REPOSITORY_LINKS_JS)
        browser.viewport(PRINT, media="print")
        checks["layout in print"] = browser.evaluate(f"{CHECK_JS}(true)")
        browser.viewport(DESKTOP)
        checks["downloads"] = browser.evaluate(
            "[...document.querySelectorAll('a.btn-download-source-button')].map(a => a.href)")
        found[page] = checks
    return found


def _failures(report: dict, key: str) -> list[str]:
    return [f"{page}: {problem}" for page, checks in report.items()
            for check, problems in checks.items() if check.startswith(key) for problem in problems]


def test_every_page_of_the_book_is_checked(html_dir, report):
    pages = set(report)
    chapters = {p for p in pages if p.startswith("notebooks/")}
    assert len(chapters) == len(list((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")))
    assert {"book/intro.html", "genindex.html", "search.html"} <= pages


def test_no_javascript_error_and_no_failed_request(report):
    failures = _failures(report, "errors")
    assert not failures, "\n".join(failures)


def test_no_request_leaves_the_loopback_server(report):
    failures = _failures(report, "external")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("layout", [f"{PHONE}px", f"{DESKTOP}px", "print"])
def test_every_formula_typeset_and_nothing_cut_off(report, layout):
    failures = _failures(report, f"layout {'in' if layout == 'print' else 'at'} {layout}")
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures)


def test_each_chapter_offers_its_notebook_for_download(report, server):
    chapters = [page for page in report if page.startswith("notebooks/")]
    assert chapters
    for page in chapters:
        notebook = Path(page).with_suffix(".ipynb").name
        links = [url for url in report[page]["downloads"] if url.endswith("/" + notebook)]
        assert links, f"{page}: no download link to {notebook} (found {report[page]['downloads']})"
        assert not _host_of(links[0], server), f"{page}: {links[0]} is not served by the book"
        with urllib.request.urlopen(links[0]) as response:
            assert response.status == 200, f"{page}: {links[0]} answered {response.status}"
            cells = json.load(response)["cells"]
        assert cells, f"{page}: {links[0]} is not a notebook with cells"


# --------------------------------------------------------------------------------------------
# Page by page: widths, figure text, raw TeX, links to a repository


@pytest.mark.parametrize("page", _toc_pages())
def test_page_fits_its_column_on_desktop_and_phone(report, page):
    assert page in report, f"{page} is in _toc.yml but was not built"
    problems = [f"{check}: {problem}" for check in (f"width at {DESKTOP}px", f"width at {PHONE}px")
                for problem in report[page][check]]
    assert not problems, f"{page}, {len(problems)} problems:\n" + "\n".join(problems)


@pytest.mark.parametrize("page", _toc_pages())
def test_page_figure_text_is_legible(report, page):
    problems = report[page]["figure text"]
    assert not problems, f"{page} at {DESKTOP}px:\n" + "\n".join(problems)


@pytest.mark.parametrize("page", _toc_pages())
def test_page_shows_no_raw_tex(report, page):
    problems = report[page]["raw tex"]
    assert not problems, f"{page}:\n" + "\n".join(problems)


@pytest.mark.parametrize("page", _toc_pages())
def test_page_wide_tables_scroll_in_their_box_with_sticky_labels(report, page):
    problems = report[page]["wide tables"]
    assert not problems, f"{page} at {DESKTOP}px:\n" + "\n".join(problems)


@pytest.mark.parametrize("page", [p for p in _toc_pages() if p.startswith("notebooks/")])
def test_chapter_shows_at_most_ten_tables_outside_collapsed_detail(report, page):
    tables = report[page]["chapter"]["tables"]
    assert tables <= MAX_TABLES, f"{page}: {tables} tables outside collapsed detail"


@pytest.mark.parametrize("page", [p for p in _toc_pages() if p.startswith("notebooks/")])
def test_chapter_has_no_long_console_output(report, page):
    problems = [f"console output of {c['lines']} lines (at most {MAX_CONSOLE_LINES}): {c['first']}"
                for c in report[page]["chapter"]["consoles"] if c["lines"] > MAX_CONSOLE_LINES]
    assert not problems, f"{page}:\n" + "\n".join(problems)


@pytest.mark.parametrize("page", [p for p in _toc_pages() if p.startswith("notebooks/")])
def test_chapter_prints_no_table_as_console_text(report, page):
    problems = [f"a table printed as console text: {c['first']}"
                for c in report[page]["chapter"]["consoles"] if c["table"]]
    assert not problems, f"{page}:\n" + "\n".join(problems)


@pytest.mark.parametrize("page", [p for p in _toc_pages() if p.startswith("notebooks/")])
def test_chapter_outputs_hold_only_readers_words(report, page):
    problems = report[page]["chapter"]["unseen"]
    assert not problems, f"{page}:\n" + "\n".join(problems)


def test_chapter_11_is_short_with_its_detail_collapsed(report):
    height = report["notebooks/11_reproducing_kleindessner.html"]["chapter"]["height"]
    assert height <= MAX_CHAPTER_11_HEIGHT, f"{height}px tall at {DESKTOP}px"


@pytest.mark.parametrize("page", _toc_pages())
def test_page_figures_legible_on_a_phone_or_linked_at_full_size(report, page):
    problems = [f"figure {f['name']}: smallest text {f['smallest']:.1f}px at {PHONE}px, and no "
                "link to its full size" for f in report[page]["figures at phone"]
                if f["smallest"] is not None and f["smallest"] < MIN_PHONE_FIGURE_TEXT_PX - 0.05
                and not f["linked"]]
    assert not problems, f"{page}:\n" + "\n".join(problems)


def test_transpose_sign_keeps_its_bar(report):
    for page in ("notebooks/04_fair_pca_derivation.html", "notebooks/15_reproducing_de_diego.html"):
        assert report[page]["transpose"]["glyphs"] > 0, f"{page}: no transpose sign to check"
    failures = [f"{page}: {problem}" for page, checks in report.items()
                for problem in checks["transpose"]["problems"]]
    assert not failures, "\n".join(failures)


def test_no_page_links_to_an_unset_repository(report):
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    if (config.get("repository") or {}).get("url"):
        pytest.skip("_config.yml names a repository: its links are wanted")
    failures = _failures(report, "repository links")
    assert not failures, "\n".join(failures)


def test_references_link_their_doi_or_arxiv_number(html_dir):
    import pybtex.database

    bib = pybtex.database.parse_file(str(ROOT / "book" / "references.bib"))
    page = (html_dir / "book" / "references.html").read_text()
    for key in ("kleindessner2023efficient", "perezsuay2017fair", "dediego2025pls"):
        fields = bib.entries[key].fields
        assert "doi" in fields or "eprint" in fields, f"{key}: no DOI or arXiv number"
    missing = []
    for key, entry in bib.entries.items():
        if "doi" in entry.fields:
            url = f'href="https://doi.org/{entry.fields["doi"]}"'
            if url not in page:
                missing.append(f"{key}: {url}")
        if "eprint" in entry.fields:
            url = f'href="https://arxiv.org/abs/{entry.fields["eprint"]}"'
            if url not in page:
                missing.append(f"{key}: {url}")
    assert not missing, "references.html lacks the links:\n" + "\n".join(missing)


# --------------------------------------------------------------------------------------------
# Navigation: the sidebar buttons, one search box, search snippets

NAV_PAGES = ["book/intro.html", "notebooks/04_fair_pca_derivation.html",
             "notebooks/17_one_theory.html"]

VISIBLE_JS = """((selector) => [...document.querySelectorAll(selector)].filter((el) => {
  const r = el.getBoundingClientRect();
  const st = getComputedStyle(el);
  return r.width > 0 && r.height > 0 && st.visibility !== 'hidden' && !el.closest('[hidden]')
    && r.right > 0 && r.left < document.documentElement.clientWidth;
}).map((el) => {
  const r = el.getBoundingClientRect();
  return {x: r.left + r.width / 2, y: r.top + r.height / 2, width: r.width, name: el.className};
}))"""


def _visible(browser, selector):
    return browser.evaluate(f"{VISIBLE_JS}({json.dumps(selector)})")


def _tap(browser, selector):
    """Press and release the mouse on the one visible element matching SELECTOR."""
    found = _visible(browser, selector)
    assert len(found) == 1, f"{len(found)} visible elements match {selector}: {found}"
    x, y = found[0]["x"], found[0]["y"]
    for kind in ("mousePressed", "mouseReleased"):
        browser.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                     clickCount=1)
    browser.evaluate(SETTLE_JS)


OPEN_DIALOG_JS = """((id) => {
  const dialog = document.getElementById(id);
  if (!dialog || !dialog.open) return null;
  const links = [...dialog.querySelectorAll('a[href]')]
    .filter((a) => a.getBoundingClientRect().width > 0);
  const r = dialog.getBoundingClientRect();
  return {links: links.length, width: r.width};
})"""


@pytest.mark.parametrize("page", NAV_PAGES)
def test_phone_menu_and_contents_buttons_open_their_panels(browser, server, page):
    browser.viewport(PHONE)
    browser.load(server + page)
    _tap(browser, ".bd-header-article .primary-toggle")
    panel = browser.evaluate(f"{OPEN_DIALOG_JS}('pst-primary-sidebar-modal')")
    assert panel and panel["links"] > 5 and panel["width"] > 200, \
        f"{page}: the menu button did not open the navigation panel ({panel})"
    browser.evaluate("document.getElementById('pst-primary-sidebar-modal').close()")
    if "notebooks/" in page:  # chapters have sections, so a "Contents" button
        _tap(browser, ".bd-header-article .secondary-toggle")
        panel = browser.evaluate(f"{OPEN_DIALOG_JS}('pst-secondary-sidebar-modal')")
        assert panel and panel["links"] > 2, \
            f"{page}: the Contents button did not open the page's contents ({panel})"
        browser.evaluate("document.getElementById('pst-secondary-sidebar-modal').close()")


@pytest.mark.parametrize("page", NAV_PAGES)
def test_desktop_sidebar_button_hides_and_shows_the_sidebar(browser, server, page):
    browser.viewport(DESKTOP)
    browser.load(server + page)
    sidebar = ".bd-sidebar-primary a.reference"
    assert _visible(browser, sidebar), f"{page}: no sidebar to start with"
    _tap(browser, ".bd-header-article .primary-toggle")
    assert not _visible(browser, sidebar), f"{page}: the sidebar button did not hide the sidebar"
    assert browser.evaluate("document.querySelector('dialog[open]')") is None
    _tap(browser, ".bd-header-article .primary-toggle")
    assert _visible(browser, sidebar), f"{page}: the sidebar button did not show it again"


SEARCH_BOXES = ".search-button-field, .search-button, form.bd-search, input[type=search]"


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
@pytest.mark.parametrize("page", NAV_PAGES)
def test_one_search_box(browser, server, page, width):
    browser.viewport(width)
    browser.load(server + page)
    boxes = _visible(browser, SEARCH_BOXES)
    assert len(boxes) == 1, f"{page} at {width}px: {len(boxes)} search boxes: {boxes}"


SEARCH_DONE_JS = """(async () => {
  for (let i = 0; i < 600; i++) {
    const status = document.querySelector('#search-results .search-summary, #search-results > p');
    if (status && /found|did not match/i.test(status.textContent)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return [...document.querySelectorAll('#search-results li')].map((li) => li.textContent);
})()"""


def test_search_snippets_show_formulas_as_text(browser, server):
    browser.viewport(DESKTOP)
    browser.load(server + "search.html?q=constraint")
    results = browser.evaluate(SEARCH_DONE_JS)
    assert len(results) >= 5, f"too few results: {results}"
    raw = [r for r in results if any(t in r for t in ("\\(", "\\)", "\\[", "$"))]
    assert not raw, "search snippets with raw TeX:\n" + "\n".join(r[:300] for r in raw)


# --------------------------------------------------------------------------------------------
# book/_ext/repository_links.py: the repository setting, without building the book


def _repository_extension():
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        import repository_links
    finally:
        sys.path.pop(0)
    return repository_links


class _FakeApp:
    def __init__(self, options):
        from types import SimpleNamespace

        self.tags = set()
        self.config = SimpleNamespace(html_theme_options=options, fairlab_repository_url="")


@pytest.mark.parametrize("url", [None, "", "  "])
def test_repository_links_off_without_a_repository(url):
    ext = _repository_extension()
    options = {"repository_url": url, "launch_buttons": {"binderhub_url": "https://mybinder.org",
                                                         "notebook_interface": "jupyterlab"}}
    app = _FakeApp(options)
    ext._configure(app, app.config)
    opts = app.config.html_theme_options
    assert opts["use_repository_button"] is False and opts["use_issues_button"] is False
    assert opts["launch_buttons"]["binderhub_url"] == ""
    assert "repository_url" not in opts and ext.TAG not in app.tags
    assert opts["navbar_persistent"] == []  # one search box
    source = ["git clone {{ repository_url }}.git"]
    ext._substitute(app, "book/run_this_book", source)
    assert source == ["git clone .git"]  # inside an only block that is left out


def test_repository_links_on_with_a_repository():
    ext = _repository_extension()
    url = "https://example.org/team/fairlab"
    options = {"repository_url": url + "/", "launch_buttons": {"binderhub_url": "https://mybinder.org"}}
    app = _FakeApp(options)
    ext._configure(app, app.config)
    opts = app.config.html_theme_options
    assert opts["use_repository_button"] is True and opts["use_issues_button"] is True
    assert opts["launch_buttons"]["binderhub_url"] == "https://mybinder.org"
    assert opts["repository_url"] == url and ext.TAG in app.tags
    source = ["git clone {{ repository_url }}.git"]
    ext._substitute(app, "book/run_this_book", source)
    assert source == [f"git clone {url}.git"]
    notebook = ["{{ repository_url }}"]
    ext._substitute(app, "notebooks/01_quickstart", notebook)
    assert notebook == ["{{ repository_url }}"]  # only the pages of book/
