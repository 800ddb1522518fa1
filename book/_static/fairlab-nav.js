// Navigation and search that work on every screen.
//
// 1. The sidebar buttons. pydata-sphinx-theme (0.17) and sphinx-book-theme (1.3) each attach their
//    click handler to the FIRST ".primary-toggle" / ".secondary-toggle" of the page, which is the
//    hidden button of pydata's header; the visible buttons in the article header (☰ and
//    "Contents") get no handler and only show their tooltip. Here a click on any other toggle
//    is passed on to that first one, whose handlers do the rest: on a wide screen
//    sphinx-book-theme collapses or expands the sidebar, on a narrow one pydata opens the
//    sidebar as a dialog.
// 2. Search result snippets are cut from the pages' HTML before MathJax runs, so they showed the
//    TeX source between \( and \). Formulas are written out as plain text in the snippets.
(() => {
  "use strict";

  function wireToggles() {
    for (const kind of ["primary-toggle", "secondary-toggle"]) {
      const buttons = [...document.querySelectorAll(`.${kind}`)];
      const wired = buttons[0];
      for (const button of buttons.slice(1)) {
        button.addEventListener("click", (event) => {
          event.preventDefault();
          event.stopPropagation();
          button.blur();  // dismiss the tooltip
          wired.click();
        });
      }
    }
  }

  // TeX to readable plain text, for search snippets only.
  const SYMBOLS = {
    alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ε", varepsilon: "ε", eta: "η",
    theta: "θ", kappa: "κ", lambda: "λ", mu: "μ", nu: "ν", pi: "π", rho: "ρ", sigma: "σ",
    tau: "τ", phi: "φ", varphi: "φ", chi: "χ", psi: "ψ", omega: "ω", Gamma: "Γ", Delta: "Δ",
    Theta: "Θ", Lambda: "Λ", Sigma: "Σ", Phi: "Φ", Psi: "Ψ", Omega: "Ω", top: "ᵀ", le: "≤",
    leq: "≤", ge: "≥", geq: "≥", neq: "≠", ne: "≠", approx: "≈", in: "∈", notin: "∉",
    subseteq: "⊆", cap: "∩", cup: "∪", times: "×", cdot: "·", pm: "±", infty: "∞", to: "→",
    mapsto: "↦", perp: "⊥", sum: "∑", prod: "∏", int: "∫", partial: "∂", nabla: "∇",
    ldots: "…", dots: "…", cdots: "⋯", mid: "|", lVert: "‖", rVert: "‖", Vert: "‖",
    langle: "⟨", rangle: "⟩", otimes: "⊗", circ: "∘", sim: "∼", propto: "∝", forall: "∀",
    exists: "∃", Rightarrow: "⇒", iff: "⇔", setminus: "∖", emptyset: "∅",
  };

  function texToText(tex) {
    return tex
      .replace(/^\s*(\\\(|\\\[|\$\$?)|(\\\)|\\\]|\$\$?)\s*$/g, "")
      .replace(/\\(?:begin|end)\{[^}]*\}/g, " ")
      .replace(/\\mathbb\{R\}/g, "ℝ")
      .replace(/\\(?:operatorname|mathrm|mathbf|mathbb|mathcal|boldsymbol|text|textrm|bm)\b\s*/g, "")
      .replace(/\\(?:left|right|big|Big|bigg|Bigg)\b\s*/g, "")
      .replace(/\\([A-Za-z]+)/g, (whole, name) => SYMBOLS[name] ?? name)
      .replace(/\\[,;:!> ]|~/g, " ")
      .replace(/\\([{}|%&_#$])/g, "$1")
      .replace(/\\\\|&/g, " ")
      .replace(/[{}]/g, "")
      .replace(/\s+/g, " ")
      .trim();
  }

  function plainMathInSearch() {
    if (typeof Search === "undefined" || !Search.htmlToText) return;  // not the search page
    const htmlToText = Search.htmlToText;
    Search.htmlToText = (htmlString, anchor) => {
      const doc = new DOMParser().parseFromString(htmlString, "text/html");
      for (const el of doc.querySelectorAll(".math, mjx-container")) {
        el.textContent = ` ${texToText(el.textContent)} `;
      }
      return htmlToText(doc.documentElement.outerHTML, anchor);
    };
  }

  function onReady(callback) {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", callback);
    } else {
      callback();
    }
  }

  onReady(wireToggles);
  onReady(plainMathInSearch);
})();
