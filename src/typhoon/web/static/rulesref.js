// Typhoon: the rules reference in the page (issue 15): the sequence of play with the phase in
// force marked, the CRT and terrain chart of the edition in force, the weather track. Opened by
// the "Rules" button by the map or the R key; the sections are the game's own
// (FrontEnds.rules_reference, GET /api/games/<id>/reference), so this file names no game.
// Plain JavaScript, no build step.
"use strict";

window.TyphoonRulesRef = (function () {
  const $ = (id) => document.getElementById(id);

  function G() { return window.typhoon; }

  function dialog() {
    let d = $("rulesref");
    if (d) return d;
    const el = window.TyphoonUI.el;
    d = el("dialog", { id: "rulesref", class: "rulesref", "aria-labelledby": "rr-title" },
      el("div", { class: "rr-head" },
        el("h2", { id: "rr-title", text: "Rules reference" }),
        el("button", { type: "button", id: "rr-close", "aria-label": "Close the rules reference", text: "Close" })),
      el("nav", { id: "rr-nav", class: "rr-nav", "aria-label": "Sections" }),
      el("div", { id: "rr-body", class: "rr-body" }));
    document.body.append(d);
    $("rr-close").addEventListener("click", () => d.close());
    return d;
  }

  function table(sec, el) {
    const t = el("table", { class: "rr-table" });
    if (sec.head) {
      const tr = el("tr");
      for (const h of sec.head) tr.append(el("th", { scope: "col", text: String(h) }));
      t.append(el("thead", {}, tr));
    }
    const body = el("tbody");
    (sec.rows || []).forEach((row, i) => {
      const now = sec.current === i;
      const tr = el("tr", { class: now ? "current" : null, "aria-current": now ? "true" : null });
      row.forEach((c, j) => {
        const text = j === 0 && now ? `▶ ${c}` : String(c);
        tr.append(el(j === 0 ? "th" : "td", { scope: j === 0 ? "row" : null, text }));
      });
      body.append(tr);
    });
    t.append(body);
    return t;
  }

  function fill(data) {
    const el = window.TyphoonUI.el;
    $("rr-title").textContent = data.title || "Rules reference";
    const nav = $("rr-nav");
    const body = $("rr-body");
    nav.innerHTML = "";
    body.innerHTML = "";
    for (const sec of data.sections || []) {
      const id = `rr-${sec.key}`;
      nav.append(el("a", { href: `#${id}`, text: sec.title }), " ");
      const box = el("section", { id, class: "rr-section", "data-section": sec.key }, el("h3", { text: sec.title }));
      for (const line of sec.lines || []) box.append(el("p", { text: line }));
      if (sec.rows && sec.rows.length) box.append(table(sec, el));
      body.append(box);
    }
  }

  async function open() {
    const g = G();
    if (!g || !g.view) return;
    const d = dialog();
    try {
      fill(await window.TyphoonUI.api("GET", `/api/games/${encodeURIComponent(g.view.id)}/reference`, undefined, g.token));
    } catch (e) {
      $("rr-body").textContent = `No rules reference: ${e.message}`;
    }
    if (!d.open) d.showModal();
    $("rr-close").focus();
  }

  function toggle() {
    const d = $("rulesref");
    if (d && d.open) d.close(); else open();
  }

  function bind() {
    const tools = document.querySelector(".map-tools");
    if (tools && !$("rules-ref")) {
      const b = window.TyphoonUI.el("button", { type: "button", id: "rules-ref", title: "Rules reference: sequence of play, CRT, terrain, weather (R)", text: "Rules" });
      b.addEventListener("click", toggle);
      const info = $("hover-info");
      if (info) info.before(b); else tools.append(b);
    }
    document.addEventListener("keydown", (e) => {
      const t = e.target;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "r" || e.key === "R") { e.preventDefault(); toggle(); }
    });
    const css = `
      dialog.rulesref { max-width: min(56em, 96vw); max-height: 88vh; overflow: auto; padding: 0.8em 1.2em; }
      .rr-head { display: flex; justify-content: space-between; align-items: center; gap: 1em; }
      .rr-nav a { margin-right: 0.6em; }
      .rr-table { border-collapse: collapse; margin: 0.4em 0 0.8em; font-size: 0.9em; }
      .rr-table th, .rr-table td { border: 1px solid #bbb; padding: 0.15em 0.45em; text-align: left; }
      .rr-table tr.current { background: #fff3c4; font-weight: bold; }
    `;
    const st = document.createElement("style");
    st.id = "rulesref-style";
    st.textContent = css;
    document.head.append(st);
  }

  bind();
  return { open, toggle };
})();
