// Typhoon: overlays a player switches on over the map (issue 15): enemy zones of control,
// supply, the victory status. Game-blind: the layers are whatever the game's
// FrontEnds.overlays returns (GET /api/games/<id>/overlays); board.js calls draw(layer) each
// time it redraws its highlights, and this file draws the switched-on layers under them.
// Plain JavaScript, no build step. Every rule lives on the server.
"use strict";

window.TyphoonOverlays = (function () {
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const S = {
    data: null, // the last answer: {side, layers: [...], victory}
    key: null, // the position it is for
    loading: null, // the position being asked for
    on: new Set(), // layer keys switched on
    game: null,
    built: false,
    error: null,
  };

  function G() { return window.typhoon; }
  function cur(g) { return g.replay ? g.replay.state : g.view; }
  function storeKey() { return `typhoon:overlays:${S.game || ""}`; }

  function remember() {
    try { localStorage.setItem(storeKey(), JSON.stringify([...S.on])); } catch (e) { /* private mode */ }
  }

  function recall() {
    try {
      const got = JSON.parse(localStorage.getItem(storeKey()) || "[]");
      if (Array.isArray(got)) S.on = new Set(got.filter((k) => typeof k === "string"));
    } catch (e) { S.on = new Set(); }
  }

  // The side whose overlays are shown: the one you play that is to move, else your first,
  // else (a spectator) the side to move (the server's default).
  function side(g) {
    const v = g.view;
    if (!v || !v.you || !v.you.length) return null;
    return v.you.includes(v.to_move) ? v.to_move : v.you[0];
  }

  function positionKey(g) {
    const v = g.view;
    return `${v.id}:${v.version}:${v.actions}:${g.replay ? g.replay.step : ""}:${side(g) || ""}`;
  }

  function wanted() {
    const box = $("ov-status-box");
    return !S.built || S.on.size > 0 || (box && box.open);
  }

  async function fetchFor(g, key) {
    S.loading = key;
    const params = new URLSearchParams();
    const sd = side(g);
    if (sd) params.set("side", sd);
    if (g.replay) params.set("step", String(g.replay.step));
    try {
      const data = await window.TyphoonUI.api("GET", `/api/games/${encodeURIComponent(g.view.id)}/overlays?${params}`, undefined, g.token);
      if (S.loading !== key) return;
      S.data = data;
      S.key = key;
      S.error = null;
    } catch (e) {
      if (S.loading !== key) return;
      S.data = S.data || { layers: [], victory: null };
      S.key = key;
      S.error = e.message;
    }
    S.loading = null;
    build();
    if (g.redraw) g.redraw();
  }

  // -- the panel: a checkbox per layer and the victory status -------------------------------

  function section() {
    let box = $("overlays-box");
    if (box) return box;
    const el = window.TyphoonUI.el;
    box = el("section", { id: "overlays-box", "aria-labelledby": "ov-h" },
      el("h2", { id: "ov-h", text: "Overlays" }),
      el("div", { id: "ov-list", class: "ov-list" }),
      el("details", { id: "ov-status-box" }, el("summary", { text: "Victory status now" }), el("div", { id: "ov-status", "aria-live": "polite" })),
      el("p", { id: "ov-error", class: "error" }));
    const more = $("more-h");
    const panel = $("panel");
    if (more && more.closest("section")) more.closest("section").before(box);
    else if (panel) panel.append(box);
    $("ov-status-box").addEventListener("toggle", () => { const g = G(); if (g && g.redraw) g.redraw(); });
    return box;
  }

  function build() {
    const data = S.data;
    if (!data) return;
    section();
    const el = window.TyphoonUI.el;
    const list = $("ov-list");
    list.innerHTML = "";
    for (const layer of data.layers || []) {
      const id = `ov-${layer.key}`;
      const off = layer.available === false;
      const box = el("input", { type: "checkbox", id, "data-layer": layer.key, disabled: off, checked: !off && S.on.has(layer.key) });
      box.addEventListener("change", () => {
        if (box.checked) S.on.add(layer.key); else S.on.delete(layer.key);
        remember();
        const g = G();
        if (g && g.redraw) g.redraw();
      });
      const count = off ? "" : ` (${(layer.hexes || []).length + (layer.units || []).length})`;
      list.append(el("div", { class: `ov-item ov-swatch-${layer.class || "plain"}` },
        el("label", { for: id }, box, ` ${layer.label}${count}`),
        layer.words ? el("span", { class: "ov-words", text: ` ${layer.words}` }) : null));
    }
    const vic = $("ov-status");
    vic.innerHTML = "";
    const v = data.victory;
    if (v) {
      if (v.title) vic.append(el("p", { class: "ov-vtitle", text: v.title }));
      const ul = el("ul", { class: "ov-vlines" });
      for (const line of v.lines || []) ul.append(el("li", { text: line }));
      vic.append(ul);
    } else vic.append(el("p", { text: "This game gives no victory status." }));
    $("ov-error").textContent = S.error ? `Overlays: ${S.error}` : "";
    S.built = true;
  }

  // -- drawing -------------------------------------------------------------------------------

  function poly(g, hex, cls, layerKey, text) {
    const p = g.hexInfo(hex);
    if (!p || !p.pts || !p.pts.length) return null;
    const s = 0.86;
    const pts = p.pts.map(([x, y]) => `${(p.cx + (x - p.cx) * s).toFixed(1)},${(p.cy + (y - p.cy) * s).toFixed(1)}`).join(" ");
    const e = document.createElementNS(SVGNS, "polygon");
    e.setAttribute("class", `ov ${cls}`);
    e.setAttribute("points", pts);
    e.setAttribute("data-overlay", layerKey);
    e.setAttribute("data-for", hex);
    if (text) {
      const t = document.createElementNS(SVGNS, "title");
      t.textContent = text;
      e.append(t);
    }
    return e;
  }

  function draw(layer) {
    const g = G();
    if (!g || !g.view || !g.hexInfo) return;
    if (!S.game) { S.game = g.view.game; recall(); }
    const key = positionKey(g);
    if (key !== S.key && S.loading !== key && wanted()) fetchFor(g, key);
    if (!S.data || S.key !== key || !S.on.size) return;
    const group = document.createElementNS(SVGNS, "g");
    group.setAttribute("class", "overlays");
    const where = new Map(cur(g).units.map((u) => [u.id, u.hex]));
    for (const l of S.data.layers || []) {
      if (!S.on.has(l.key) || l.available === false) continue;
      const cls = `ov-${l.class || "plain"}`;
      for (const h of l.hexes || []) {
        const one = typeof h === "string" ? { hex: h } : h;
        const e = poly(g, one.hex, one.class ? `${cls} ov-${one.class}` : cls, l.key, one.text || l.label);
        if (e) group.append(e);
      }
      for (const u of l.units || []) {
        const h = where.get(u);
        const e = h ? poly(g, h, `${cls} ov-unit`, l.key, `${u}: ${l.label}`) : null;
        if (e) { e.setAttribute("data-unit", u); group.append(e); }
      }
    }
    layer.append(group);
  }

  // The overlays' look (kept here, not in style.css, so the page's styles stay the map's).
  function addStyle() {
    const css = `
      #overlay .ov { fill-opacity: 0.28; stroke-width: 2; stroke-opacity: 0.9; }
      #overlay .ov-zoc { fill: #d32f2f; stroke: none; fill-opacity: 0.22; }
      #overlay .ov-cut { fill: none; stroke: #e65100; stroke-width: 4; stroke-dasharray: 5 3; }
      #overlay .ov-entry { fill: #2e7d32; stroke: #1b5e20; }
      #overlay .ov-supply { fill: #1565c0; stroke: none; fill-opacity: 0.15; }
      #overlay .ov-victory { fill: none; stroke: #6a1b9a; stroke-width: 4; }
      #overlay .ov-victory.ov-first { stroke: #455a64; }
      #overlay .ov-victory.ov-second { stroke: #b71c1c; }
      #overlay .ov-victory.ov-contested { stroke: #f9a825; }
      #overlay .ov-plain { fill: #6a1b9a; stroke: none; }
      .ov-list .ov-item { margin: 0.15em 0; }
      .ov-list .ov-words { color: #555; font-size: 0.9em; }
      .ov-vlines { margin: 0.3em 0; padding-left: 1.2em; }
    `;
    const st = document.createElement("style");
    st.id = "overlays-style";
    st.textContent = css;
    document.head.append(st);
  }

  addStyle();
  return { draw, state: S };
})();
