// In print nothing scrolls: each formula and table wider than its column is scaled
// down (CSS zoom, which also shrinks its layout box) until it fits; back on screen the
// original size returns. Runs on the print dialog and on any switch to print media.
(() => {
  "use strict";
  const SELECTOR = [
    "div.math > mjx-container[display='true']",
    ".bd-article mjx-container[display='true']",
    ".bd-article table",
    "span.math > mjx-container",  // an inline formula longer than a line
  ].join(", ");
  const scaled = new Set();

  function available(el) {
    // the width of the column the element has to fit in
    for (let a = el.parentElement; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.display.startsWith("inline") || style.display === "contents") continue;
      return a.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    }
    return document.documentElement.clientWidth;
  }

  function fit() {
    for (const el of document.querySelectorAll(SELECTOR)) {
      if (scaled.has(el) || el.getClientRects().length === 0) continue;
      const room = available(el);
      const width = el.scrollWidth;
      if (room > 0 && width > room + 1) {
        el.style.zoom = (Math.floor((room / width) * 1000) / 1000).toString();
        scaled.add(el);
      }
    }
  }

  function unfit() {
    for (const el of scaled) el.style.removeProperty("zoom");
    scaled.clear();
  }

  window.addEventListener("beforeprint", fit);
  window.addEventListener("afterprint", unfit);
  window.matchMedia("print").addEventListener("change", (event) => (event.matches ? fit() : unfit()));
})();
