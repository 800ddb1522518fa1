// Every figure of a chapter links to its own file (an SVG, drawn at the column's width): on a
// phone the figure is shrunk to the screen and its text with it, and the link opens it at full
// size, where it can be zoomed. A line under it says so on narrow screens (fairlab.css).
(() => {
  "use strict";

  function link() {
    for (const img of document.querySelectorAll(".bd-article .cell_output img")) {
      if (img.closest("a[href]")) continue;
      const a = document.createElement("a");
      a.href = img.getAttribute("src");
      a.className = "fairlab-figure-link";
      a.title = "Open the figure at full size";
      img.replaceWith(a);
      a.appendChild(img);
      const hint = document.createElement("span");
      hint.className = "fairlab-figure-hint";
      hint.textContent = "Open at full size ↗";
      a.appendChild(hint);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", link);
  else link();
})();
