// An inline formula is an inline-block (MathJax's own layout), which cannot break across lines.
// Each one wider than the line it sits in is marked data-fairlab-wide, which fairlab.css turns
// into a line of its own that scrolls sideways; marked after MathJax has typeset the page and
// again whenever the text column changes width (a phone turned, a desktop window narrowed).
(() => {
  "use strict";
  const INLINE = 'mjx-container[jax="CHTML"]:not([display="true"])';

  function line(el) {
    // the width of the block the formula runs in (its paragraph, list item or table cell)
    for (let a = el.parentElement; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.display.startsWith("inline") || style.display === "contents") continue;
      return a.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    }
    return document.documentElement.clientWidth;
  }

  function mark() {
    const formulas = [...document.querySelectorAll(INLINE)];
    for (const c of formulas) c.removeAttribute("data-fairlab-wide");
    const wide = formulas.filter((c) => {
      const math = c.querySelector(":scope > mjx-math");
      return math && c.getClientRects().length > 0 &&
        math.getBoundingClientRect().width > line(c) + 1;
    });
    for (const c of wide) c.setAttribute("data-fairlab-wide", "");
  }

  function start() {
    const startup = window.MathJax && window.MathJax.startup;
    if (startup && startup.promise) startup.promise.then(mark);
    else mark();
    // The column's width settles after a resize (the theme's sidebars move in transitions): mark
    // again whenever the article changes size, not on the resize event itself.
    const column = document.querySelector("article.bd-article") || document.body;
    if (window.ResizeObserver) new ResizeObserver(() => mark()).observe(column);
    else window.addEventListener("resize", mark);
  }

  if (document.readyState === "complete") start();
  else window.addEventListener("load", start);
})();
