// Search result snippets show formulas as text.
//
// Sphinx cuts each snippet from the page's HTML before MathJax has run, so the snippets showed
// the TeX source between \( and \). Here each formula of that HTML is written out as plain
// text first (Greek letters and common symbols as Unicode, other commands by name).
//
// (The sidebar buttons need no script: book/_ext/repository_links.py removes pydata-sphinx-theme's
// header, whose hidden duplicates of the buttons were the ones the themes' handlers attached to.)
(() => {
  "use strict";

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

  onReady(plainMathInSearch);
})();
