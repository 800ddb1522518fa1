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
* each chapter's download button gives its notebook.

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
        browser.viewport(DESKTOP)
        checks[f"layout at {DESKTOP}px"] = browser.evaluate(f"{CHECK_JS}(false)")
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
