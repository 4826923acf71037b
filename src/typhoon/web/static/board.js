// Typhoon: the one game page. It plays any registered game from the game's views alone (the
// fields are documented in games/frontends.py): the server-drawn SVG board, the position, the
// legal actions (each with the units and hexes it involves), hex words, the odds preview,
// records, undo and replay. No rule lives here: what may be done comes from the server.
// Plain JavaScript, no build step.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const TyphoonUI = window.TyphoonUI;
  const { el, cap, readToken, whoText, waitingText, fillPhases, bindReplay, plain, wordsWithSources, keyWords } = TyphoonUI;
  const SVGNS = "http://www.w3.org/2000/svg";
  const LIST_MAX = 40;

  const G = {
    id: decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || ""),
    token: null,
    view: null,
    legal: [],
    sel: null, // {unit, hex}: a unit chosen to act
    group: null, // {target, acts, chosen: Set of unit ids}: actions sent together (attacks)
    choices: null, // actions to pick one from
    focus: null,
    hover: null,
    replay: null,
    where: new Map(), // unit id -> hex in the live position
    movers: null, // units with somewhere to go (cached per position)
    numbers: false,
    busy: false,
    hexes: {}, // hex id -> {cx, cy, pts, col, row}
    grid: null, // a declared grid (large maps draw no element per hex)
    layered: false, // the map has a <g id="layer"> the state view's `layer` replaces
    vb: null,
    home: null, // the SVG's own viewBox
    drag: null,
    marked: new Set(),
    words: {}, // hex id -> words fetched from the server (this version)
    previewSeq: 0,
    renderedLog: 0,
    confirmEnd: false, // the End was asked for while units could still act: E again confirms
    thinkingSince: null, // when the computer's turn was first seen (the "thinking… Ns" clock)
    online: true,
  };

  const api = (method, path, body) => TyphoonUI.api(method, path, body, G.token);
  const gpath = (rest) => `/api/games/${encodeURIComponent(G.id)}${rest || ""}`;

  let announceTimer = null;
  function announce(msg) {
    const live = $("announce");
    live.textContent = "";
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => { live.textContent = msg; }, 40);
  }

  function showError(msg) {
    $("error").textContent = msg || "";
    if (msg) $("alert").textContent = msg;
  }

  function svgEl(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }

  // -- reading the views -------------------------------------------------------------------

  function cur() { return G.replay ? G.replay.state : G.view; }
  function canAct() { return !!(G.view && G.view.your_turn && !G.replay && !G.view.result); }
  function unitById(id) { return cur().units.find((u) => u.id === id); }
  function unitsAt(hex) { return cur().units.filter((u) => u.hex === hex); }
  // Where each unit of the live position stands (the legal actions are that position's).
  function unitHex(id) { return G.where.has(id) ? G.where.get(id) : null; }
  function sideWord(s) { return s === "chance" ? "Die" : cap(s); }
  function label(a) { return a.label || a.text; }
  function unitsOf(a) { return a.units || []; }
  function hexesOf(a) { return a.hexes || []; }
  function toHex(a) { const h = hexesOf(a); return h.length ? h[h.length - 1] : null; }
  function unitLabel(id) {
    const u = unitById(id);
    return u && u.words ? `${id} (${u.words})` : id;
  }
  // An action that takes a unit somewhere: chosen by selecting the unit, then the hex.
  function goes(a) {
    const to = toHex(a);
    return !!to && unitsOf(a).length > 0 && !a.group && unitsOf(a).some((u) => unitHex(u) !== to);
  }
  function isButton(a) { return !unitsOf(a).length && !hexesOf(a).length; }
  function actsOf(uid) { return G.legal.filter((a) => unitsOf(a).includes(uid)); }
  function goesOf(uid) { return actsOf(uid).filter(goes); }
  function movers() {
    if (!G.movers) G.movers = [...new Set(G.legal.filter(goes).flatMap(unitsOf))];
    return G.movers;
  }

  // -- geometry: hexes from the SVG's elements, or from the grid it declares ----------------

  const pad = (n) => String(n).padStart(2, "0");

  function readMap(svg) {
    G.hexes = {};
    G.grid = null;
    const d = svg.dataset;
    G.r = parseFloat(d.r || "30");
    if (d.grid === "columns") {
      G.grid = { r: G.r, h: (G.r * Math.sqrt(3)) / 2, x0: parseFloat(d.x0), y0: parseFloat(d.y0), cols: parseInt(d.cols, 10), rows: parseInt(d.rows, 10) };
    } else {
      for (const e of svg.querySelectorAll("[data-hex]")) {
        if (e.closest(".unit") || e.closest("#overlay")) continue;
        const id = e.dataset.hex;
        const shape = e.tagName.toLowerCase() === "g" ? e.querySelector("polygon, rect") : e;
        const pts = shapePoints(shape);
        let cx = parseFloat(e.dataset.cx);
        let cy = parseFloat(e.dataset.cy);
        if (Number.isNaN(cx) && pts.length) {
          cx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
          cy = pts.reduce((s, p) => s + p[1], 0) / pts.length;
        }
        if (Number.isNaN(cx)) continue;
        G.hexes[id] = { cx, cy, pts, col: parseInt(e.dataset.col, 10), row: parseInt(e.dataset.row, 10) };
      }
    }
    const vb = (svg.getAttribute("viewBox") || "0 0 100 100").split(/[\s,]+/).map(Number);
    G.home = { x: vb[0], y: vb[1], w: vb[2], h: vb[3] };
  }

  function shapePoints(shape) {
    if (!shape) return [];
    if (shape.tagName.toLowerCase() === "rect") {
      const [x, y, w, h] = ["x", "y", "width", "height"].map((k) => parseFloat(shape.getAttribute(k) || "0"));
      return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
    }
    return (shape.getAttribute("points") || "").trim().split(/\s+/).map((p) => p.split(",").map(Number)).filter((p) => p.length === 2);
  }

  function gridCentre(hex) {
    const L = G.grid;
    const c = parseInt(hex.slice(0, 2), 10);
    const r = parseInt(hex.slice(2), 10);
    return [L.x0 + (c - 1) * 1.5 * L.r, L.y0 + (r - 1) * 2 * L.h + (c % 2 === 0 ? L.h : 0)];
  }

  function hexInfo(hex) {
    if (!hex) return null;
    if (!G.grid) return G.hexes[hex] || null;
    if (!/^\d{4}$/.test(hex)) return null;
    const c = parseInt(hex.slice(0, 2), 10);
    const r = parseInt(hex.slice(2), 10);
    if (c < 1 || c > G.grid.cols || r < 1 || r > G.grid.rows) return null;
    const [cx, cy] = gridCentre(hex);
    const pts = [];
    for (let k = 0; k < 6; k++) pts.push([cx + G.r * Math.cos((Math.PI / 3) * k), cy + G.r * Math.sin((Math.PI / 3) * k)]);
    return { cx, cy, pts, col: c, row: r };
  }

  function allHexes() {
    if (!G.grid) return Object.keys(G.hexes);
    const out = [];
    for (let c = 1; c <= G.grid.cols; c++) for (let r = 1; r <= G.grid.rows; r++) out.push(pad(c) + pad(r));
    return out;
  }

  // The hex under an SVG point: the nearest centre within a radius (a label drawn over the
  // hexes, or a map with a declared grid, has no hex element under the pointer).
  function hexAt(x, y) {
    if (!G.grid) {
      let best = null;
      let bd = G.r * G.r;
      for (const [id, p] of Object.entries(G.hexes)) {
        const dd = (p.cx - x) ** 2 + (p.cy - y) ** 2;
        if (dd <= bd) { bd = dd; best = id; }
      }
      return best;
    }
    const L = G.grid;
    const c0 = Math.round((x - L.x0) / (1.5 * L.r)) + 1;
    let best = null;
    let bd = Infinity;
    for (let c = c0 - 1; c <= c0 + 1; c++) {
      if (c < 1 || c > L.cols) continue;
      const r0 = Math.round((y - L.y0 - (c % 2 === 0 ? L.h : 0)) / (2 * L.h)) + 1;
      for (let r = r0 - 1; r <= r0 + 1; r++) {
        if (r < 1 || r > L.rows) continue;
        const hex = pad(c) + pad(r);
        const [cx, cy] = gridCentre(hex);
        const dd = (cx - x) ** 2 + (cy - y) ** 2;
        if (dd < bd) { bd = dd; best = hex; }
      }
    }
    return bd <= L.r * L.r ? best : null;
  }

  function svgPoint(svg, evt) {
    const pt = svg.createSVGPoint();
    pt.x = evt.clientX;
    pt.y = evt.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return [p.x, p.y];
  }

  function mapSvg() { return $("board").querySelector("svg"); }

  // -- pan and zoom (the viewBox) ------------------------------------------------------------

  function setViewBox(vb) {
    const H = G.home;
    if (!H) return;
    const w = Math.max(Math.min(120, H.w), Math.min(vb.w, H.w * 1.2));
    const h = w * (vb.h / vb.w);
    const x = Math.max(H.x - H.w * 0.1, Math.min(vb.x, H.x + H.w - w * 0.5));
    const y = Math.max(H.y - H.h * 0.1, Math.min(vb.y, H.y + H.h - h * 0.5));
    G.vb = { x, y, w, h };
    const svg = mapSvg();
    if (svg) {
      svg.setAttribute("viewBox", `${x.toFixed(1)} ${y.toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}`);
      // Semantic zoom (games/frontends.py): map units per screen pixel, and "far" when a hex
      // is under 16 px across, for the game's map styles to keep only what reads at that size.
      const px = w / ($("board").clientWidth || 900);
      svg.style.setProperty("--px", px.toFixed(3));
      svg.toggleAttribute("data-far", (2 * G.r) / px < 16);
      if (G.grid && !G.numbersDue) {
        G.numbersDue = true; // once a frame while dragging
        requestAnimationFrame(() => { G.numbersDue = false; const m = mapSvg(); if (m) gridNumbers(m); });
      }
    }
  }

  // Hex numbers of a map that declares its grid (too large for a label per hex): the client
  // writes them for the hexes in view only, and none when the view is far out.
  function gridNumbers(svg) {
    let g = svg.querySelector("#ty-hexnums");
    if (!G.grid) return;
    if (!g) {
      g = svgEl("g", { id: "ty-hexnums", "pointer-events": "none" });
      const under = svg.querySelector("#layer") || svg.querySelector("#overlay"); // counters cover them
      if (under && under.parentNode) under.parentNode.insertBefore(g, under);
      else svg.append(g);
    }
    g.replaceChildren();
    const vb = G.vb;
    if (!G.numbers || !vb || svg.hasAttribute("data-far")) return;
    const L = G.grid;
    const c0 = Math.max(1, Math.floor((vb.x - L.x0) / (1.5 * L.r)));
    const c1 = Math.min(L.cols, Math.ceil((vb.x + vb.w - L.x0) / (1.5 * L.r)) + 2);
    const r0 = Math.max(1, Math.floor((vb.y - L.y0) / (2 * L.h)));
    const r1 = Math.min(L.rows, Math.ceil((vb.y + vb.h - L.y0) / (2 * L.h)) + 2);
    const size = (G.r * 0.32).toFixed(1);
    for (let c = c0; c <= c1; c++) {
      for (let r = r0; r <= r1; r++) {
        const id = pad(c) + pad(r);
        const [cx, cy] = gridCentre(id);
        const t = svgEl("text", { class: "ty-hexnum", x: cx.toFixed(1), y: (cy - L.h * 0.62).toFixed(1), "font-size": size, "text-anchor": "middle", fill: "#5a5540", "fill-opacity": "0.6" });
        t.textContent = id;
        g.append(t);
      }
    }
  }

  function aspect() {
    const b = $("board");
    return Math.max(0.4, (b.clientHeight || 600) / (b.clientWidth || 900));
  }

  function zoom(factor, cx, cy) {
    const vb = G.vb;
    if (!vb) return;
    const x = cx === undefined ? vb.x + vb.w / 2 : cx;
    const y = cy === undefined ? vb.y + vb.h / 2 : cy;
    setViewBox({ x: x - (x - vb.x) * factor, y: y - (y - vb.y) * factor, w: vb.w * factor, h: vb.h * factor });
  }

  function viewAll() {
    const H = G.home;
    const a = aspect();
    let w = H.w;
    let h = w * a;
    if (h < H.h) { h = H.h; w = h / a; }
    setViewBox({ x: H.x + (H.w - w) / 2, y: H.y, w, h });
  }

  function activeHexes() {
    const v = G.view;
    const fromActs = movers().map(unitHex).filter(Boolean);
    if (fromActs.length) return fromActs;
    return v.units.filter((u) => u.hex && (u.side === v.to_move || u.side === (v.phase && v.phase.side))).map((u) => u.hex);
  }

  // The units of the side to move, legible: centred on their median hex, at most ~30 hexes wide.
  function viewActive() {
    const pts = activeHexes().map(hexInfo).filter(Boolean);
    if (!pts.length || !G.home) { viewAll(); return; }
    const xs = pts.map((p) => p.cx).sort((a, b) => a - b);
    const ys = pts.map((p) => p.cy).sort((a, b) => a - b);
    const a = aspect();
    const w = Math.min(Math.max(35 * G.r, xs[xs.length - 1] - xs[0] + 8 * G.r), 55 * G.r, G.home.w);
    setViewBox({ x: xs[xs.length >> 1] - w / 2, y: ys[ys.length >> 1] - (w * a) / 2, w, h: w * a });
  }

  function centreOn(hex) {
    const p = hexInfo(hex);
    if (!p || !G.vb) return;
    setViewBox({ ...G.vb, x: p.cx - G.vb.w / 2, y: p.cy - G.vb.h / 2 });
  }

  function large() { return allHexes().length > 600; }

  // -- view updates ------------------------------------------------------------------------

  function setView(v, { force = false } = {}) {
    if (!force && G.view && v.version < G.view.version) return;
    const changed = !G.view || v.version !== G.view.version;
    const first = !G.view;
    const newTurn = G.view && v.turn !== G.view.turn;
    G.view = v;
    G.legal = v.legal || [];
    G.where = new Map(v.units.map((u) => [u.id, u.hex]));
    G.movers = null;
    if (changed) {
      G.sel = null;
      G.group = null;
      G.choices = null;
      G.confirmEnd = false;
      G.words = {};
      showError("");
    }
    if (v.svg && (first || !G.layered || !mapSvg())) putSvg(v.svg);
    if (canAct() && !G.sel && !G.group && v.selected && goesOf(v.selected).length) {
      G.sel = { unit: v.selected, hex: unitHex(v.selected) }; // the rules have picked it
    }
    if (first && mapSvg() && large()) viewActive();
    else if (newTurn && canAct() && large()) viewActive();
    render();
  }

  function putSvg(text) {
    const board = $("board");
    const keep = G.vb;
    board.innerHTML = text;
    const svg = mapSvg();
    if (!svg) return;
    svg.setAttribute("aria-hidden", "false");
    readMap(svg);
    G.layered = !!svg.querySelector("#layer");
    let overlay = svg.querySelector("#overlay");
    if (!overlay) svg.append((overlay = svgEl("g", { id: "overlay" })));
    overlay.classList.add("overlay"); // the highlights' style, and clicks go through them
    overlay.setAttribute("pointer-events", "none");
    // The page's own arrowheads for move trails (issue 15: trails without them were a tangle).
    if (!svg.querySelector("#ty-arrow")) {
      const defs = svgEl("defs");
      for (const [id, colour] of [["ty-arrow", "#7b1fa2"], ["ty-arrow-path", "#b37800"]]) {
        const m = svgEl("marker", { id, viewBox: "0 0 10 10", refX: "7", refY: "5", markerWidth: "3.2", markerHeight: "3.2", orient: "auto-start-reverse" });
        m.append(svgEl("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }));
        defs.append(m);
      }
      svg.insertBefore(defs, svg.firstChild);
    }
    svg.classList.toggle("numbers", G.numbers);
    if (keep) setViewBox(keep); else G.vb = { ...G.home };
  }

  // What to ask for with each decision: the whole map only when it has no swappable layer.
  function req() { return { svg: !G.layered, legal: true }; }
  function query() { return `legal=1${G.layered ? "" : "&svg=1"}`; }

  async function load() {
    setView(await api("GET", gpath("?svg=1&legal=1")), { force: true });
  }

  // The server answered (or not): a banner while it cannot be reached (issue 15).
  function connection(ok) {
    if (ok === G.online) return;
    G.online = ok;
    $("conn").hidden = ok;
    if (!ok) announce("Cannot reach the server; retrying.");
  }

  const page = { setView, announce, showError, canAct, connection };

  function send(texts) {
    return TyphoonUI.sendActions(G, page, texts, req(), "The game had moved on; this is the current position. ");
  }

  function undo() {
    if (!G.replay) return TyphoonUI.undoLast(G, page, req());
  }

  function pollLoop() {
    return TyphoonUI.pollGame(G, page, query, true); // query() changes once the map is known layered
  }

  // -- rendering ---------------------------------------------------------------------------

  function render() {
    document.body.classList.toggle("replaying", !!G.replay);
    const svg = mapSvg();
    if (svg && G.layered) {
      const layer = svg.querySelector("#layer");
      if (layer && typeof cur().layer === "string") layer.innerHTML = cur().layer;
    }
    if (!G.focus || !hexInfo(G.focus)) G.focus = firstFocus();
    renderHeader();
    renderTrack();
    if (G.replay) renderReplayPanel(); else renderPrompt();
    renderLog();
    drawOverlay();
  }

  // Where the keyboard focus starts (issue 15: not an empty corner): a unit that can act, else
  // a unit of the side to move, else one of yours, else the hex nearest the map's middle.
  function firstFocus() {
    const v = cur();
    const onMap = v.units.filter((u) => u.hex && hexInfo(u.hex));
    const act = G.replay ? null : movers().map(unitHex).find((h) => h && hexInfo(h));
    const side = v.to_move === "chance" ? v.phase && v.phase.side : v.to_move;
    const u = onMap.find((x) => x.side === side) || onMap.find((x) => G.view.you.includes(x.side));
    if (act) return act;
    if (u) return u.hex;
    return middleHex();
  }

  function middleHex() {
    const H = G.home;
    if (!H) return allHexes()[0];
    const mx = H.x + H.w / 2;
    const my = H.y + H.h / 2;
    let best = null;
    let bd = Infinity;
    for (const id of allHexes()) {
      const p = hexInfo(id);
      const d = (p.cx - mx) ** 2 + (p.cy - my) ** 2;
      if (d < bd) { bd = d; best = id; }
    }
    return best;
  }

  function renderHeader() {
    const v = G.view;
    $("edition").textContent = plain(v.title || v.edition || "");
    // A badge in the tab's title while a remote player has a decision to make (issue 15).
    const badge = v.mode === "remote" && v.your_turn && !v.result ? "● Your turn — " : "";
    document.title = `${badge}Typhoon — ${plain(v.title || v.game)} — ${v.id}`;
    const notice = $("notice");
    notice.hidden = !v.notice;
    if (notice.dataset.text !== (v.notice || "")) { // rebuilt only when it changes: an open disclosure stays open
      notice.dataset.text = v.notice || "";
      notice.innerHTML = "";
      if (v.notice) notice.append(wordsWithSources(v.notice, "notice-words"));
    }
    let who = whoText(v);
    // A spectator has no opponent (issue 15: "Watching (no side) · remote opponent").
    if (v.mode === "remote" && v.you.length) who += " · your opponent plays from their own link";
    else if (v.mode === "remote") who += ": two players, each with a secret link";
    $("who").textContent = who;
    $("record-link").href = gpath("/record");
    const share = $("share");
    share.innerHTML = "";
    if (G.token) {
      share.append(el("p", {}, "Your secret link (keep it to come back): ",
        el("input", { value: `${location.origin}/g/${v.id}#t=${G.token}`, readonly: true, "aria-label": "Your secret link", onfocus: (e) => e.target.select() })));
    }
    share.append(el("p", {}, el("a", { href: `/g/${v.id}`, text: "Link for spectators (watch and replay only)" })));
    renderChat(v);
    const legend = v.legend || [];
    $("legend-box").hidden = !legend.length;
    $("legend").innerHTML = "";
    for (const line of legend) $("legend").append(el("li", { text: line }));
  }

  // -- messages between the players of a remote game (issue 15): plain text, never markup ----

  function renderChat(v) {
    const box = $("chat-box");
    box.hidden = !Array.isArray(v.messages);
    if (box.hidden) return;
    const list = $("chat-list");
    const last = v.messages.length ? v.messages[v.messages.length - 1].n : 0;
    if (list.dataset.last === String(last)) return;
    const seen = list.dataset.last === undefined ? last : parseInt(list.dataset.last, 10);
    list.dataset.last = String(last);
    list.innerHTML = "";
    for (const m of v.messages) {
      list.append(el("li", { class: `side-${m.side}` }, el("span", { class: "who", text: `${cap(m.side)}: ` }), el("span", { class: "msg", text: m.text })));
    }
    const fresh = v.messages.filter((m) => m.n > seen && !v.you.includes(m.side));
    if (fresh.length) announce(`Message from the ${cap(fresh[fresh.length - 1].side)} player: ${fresh[fresh.length - 1].text}`);
  }

  async function sendChat(e) {
    e.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    try {
      await api("POST", gpath("/messages"), { text });
      input.value = "";
      showError("");
      await load();
    } catch (err) {
      showError(err.message);
    }
  }

  function renderTrack() {
    const v = cur();
    const turns = $("turns");
    turns.innerHTML = "";
    for (const t of v.turn_track || []) {
      const cls = [t.mud ? "mud" : "", t.turn === v.turn ? "now" : "", t.turn < v.turn ? "past" : ""].join(" ");
      const words = `Turn ${t.turn}, ${t.label}${t.mud ? ", mud" : ""}${t.turn === v.turn ? ", current" : ""}`;
      turns.append(el("li", { class: cls, "aria-label": words, "aria-current": t.turn === v.turn ? "step" : false },
        `${t.turn}: ${t.label}${t.mud ? " (mud)" : ""}`));
    }
    if (v.phases) fillPhases(v); else $("phases").innerHTML = "";
    const st = $("status");
    st.innerHTML = "";
    st.append(v.status || `${v.turn ? `Turn ${v.turn}` : "Set-up"} · ${v.phase.name}`);
    if (!v.result && !G.replay) {
      const tm = v.to_move;
      st.append(el("br"), el("span", { class: `side-${tm}`, id: "to-move" }, tm === "chance" ? "Die roll due" : `${cap(tm)} to decide`));
    }
    renderRules(v);
  }

  // The rules in force, in words: the edition's name, then the options (a trailing
  // "[edition; key=value, ...]" list) each in words, behind a disclosure.
  function renderRules(v) {
    const box = $("rules");
    if (box.dataset.text === (v.rules || "")) return;
    box.dataset.text = v.rules || "";
    box.innerHTML = "";
    if (!v.rules) return;
    let text = String(v.rules);
    let opts = [];
    const m = /\s*\[([^\]]*)\]\s*$/.exec(text);
    if (m) {
      text = text.slice(0, m.index);
      opts = m[1].split(/[;,]\s*/).filter((x) => x.includes("=")).map((x) => x.split("="));
    }
    box.append(`${v.rules_label || "Rules in force"}: `, wordsWithSources(text, "rules-words"));
    if (opts.length) {
      const list = el("ul", { class: "opt-list" });
      for (const [k, val] of opts) list.append(el("li", { text: `${keyWords(k)}: ${keyWords(val)}` }));
      box.append(el("details", { class: "rules-opts" }, el("summary", { text: `Options (${opts.length})` }), list));
    }
  }

  function actionButton(a, attrs) {
    return el("button", { type: "button", "data-action": a.text, onclick: () => send([a.text]), text: label(a), ...(attrs || {}) });
  }

  function renderPrompt() {
    const v = G.view;
    const prompt = $("prompt");
    for (const id of ["buttons", "choices", "pool", "stack", "selinfo", "others"]) $(id).innerHTML = "";
    if (!G.group) { $("preview").innerHTML = ""; $("group-buttons").innerHTML = ""; }
    $("end-confirm").hidden = true;
    fillDatalist();
    if (v.result) {
      prompt.textContent = "";
      prompt.append(el("div", { class: "banner over" }, v.result_text || `Game over: ${v.result}`));
      return;
    }
    if (!canAct()) {
      prompt.textContent = waitingText(v);
      if (computerTurn(v)) prompt.append(" ", el("span", { id: "thinking", class: "thinking", role: "status" }, thinkingText()));
      if (v.can_undo) $("buttons").append(el("button", { type: "button", onclick: undo, text: "Undo (U)" }));
      return;
    }
    prompt.textContent = promptText();
    const roll = lastRoll();
    if (roll) prompt.append(el("div", { class: "banner roll", id: "last-roll" }, roll));
    // Decisions that are no place on the map: buttons (the end of the phase last).
    const buttons = $("buttons");
    for (const a of G.legal.filter((x) => isButton(x) && x.kind !== "end")) {
      buttons.append(actionButton(a, a.kind === "setupstandard" || a.primary ? { class: "primary" } : {}));
    }
    // Buttons that send several legal actions together (the view's ``batches``).
    for (const b of v.batches || []) {
      buttons.append(el("button", { type: "button", class: "primary", "data-batch": b.kind, onclick: () => send(b.texts), text: b.label }));
    }
    const end = G.legal.find((x) => x.kind === "end");
    if (end) buttons.append(el("button", { type: "button", id: "end-btn", "data-action": end.text, onclick: askEnd, text: `${endText(end)} (E)` }));
    renderEndConfirm(end);
    if (v.can_undo) buttons.append(el("button", { type: "button", id: "undo-btn", onclick: undo, text: "Undo (U)" }));
    if (G.sel || G.group || G.choices) buttons.append(el("button", { type: "button", onclick: clearSel, text: "Cancel (Esc)" }));
    // A choice between several actions that one click could mean.
    if (G.choices) {
      const box = $("choices");
      box.append(el("p", { class: "choices-title", text: "Which one? (or press its number)" }));
      G.choices.slice(0, LIST_MAX).forEach((a, i) => box.append(actionButton(a, { text: `${i + 1}. ${label(a)}` })));
    }
    // The selected unit: what it is, and what else it can do.
    if (G.sel) {
      const n = new Set(goesOf(G.sel.unit).map(toHex)).size;
      $("selinfo").append(el("p", { id: "sel-words", text: `Selected: ${unitLabel(G.sel.unit)}. ${n} hex(es) highlighted: click one.` }));
      if (!G.choices) {
        for (const a of actsOf(G.sel.unit).filter((x) => !goes(x)).slice(0, LIST_MAX)) $("choices").append(actionButton(a));
      }
      renderStackPicker();
    }
    // Units off the map that can come on (set-up, reinforcements, rebuilt units).
    const off = [...new Set(G.legal.filter((a) => hexesOf(a).length).flatMap(unitsOf).filter((u) => !unitHex(u)))];
    if (off.length) {
      const pool = $("pool");
      pool.append(el("span", { text: "Units to bring on the map: " }));
      for (const uid of off.slice(0, 200)) {
        const pressed = !!(G.sel && G.sel.unit === uid);
        pool.append(el("button", { type: "button", class: pressed ? "sel" : "", "aria-pressed": pressed ? "true" : "false", "data-unit": uid, onclick: () => (pressed ? clearSel() : selectUnit(uid)), text: uid }));
      }
    }
    // Everything a click on a unit or a hex does without a selection, in words too.
    if (!G.sel && !G.group && !G.choices) {
      const list = G.legal.filter((a) => !isButton(a) && !goes(a));
      if (list.length) {
        const box = $("others");
        box.append(el("p", { class: "choices-title", text: list.length > LIST_MAX ? `${list.length} actions (the first ${LIST_MAX}; click a unit or a hex to narrow them):` : "Or choose:" }));
        for (const a of list.slice(0, LIST_MAX)) box.append(actionButton(a));
      }
    }
  }

  // -- stacks (issue 15): every unit of the selected unit's hex, and moving them together ------

  // The stack picker: each unit in the hex with its words; those that can act are buttons.
  function renderStackPicker() {
    const all = G.sel.hex ? unitsAt(G.sel.hex).map((u) => u.id) : [];
    if (all.length < 2) return;
    const box = $("stack");
    box.append(el("p", { class: "choices-title", text: `Units in ${G.sel.hex} (${all.length}):` }));
    for (const uid of all) {
      const on = uid === G.sel.unit;
      box.append(el("button", { type: "button", class: on ? "sel" : "", "aria-pressed": on ? "true" : "false", "data-unit": uid,
        disabled: !actsOf(uid).length, onclick: () => selectUnit(uid), text: unitLabel(uid) }));
    }
    const mates = stackMates(G.sel.unit);
    if (mates.length > 1) {
      const on = !!G.sel.stack;
      box.append(el("button", { type: "button", id: "stack-move", class: on ? "sel" : "", "aria-pressed": on ? "true" : "false", onclick: toggleStack,
        text: on ? `Moving the stack (${G.sel.stack.length} units): click a highlighted hex, or here to move one unit` : `Move the stack together (${mates.length} units)` }));
    }
  }

  // The units of a unit's hex that can go somewhere (itself first).
  function stackMates(uid) {
    const h = unitHex(uid);
    return h ? [uid, ...unitsAt(h).map((u) => u.id).filter((u) => u !== uid && goesOf(u).length)] : [uid];
  }

  function toggleStack() {
    if (!G.sel) return;
    G.sel.stack = G.sel.stack ? null : stackMates(G.sel.unit);
    renderPrompt();
    drawOverlay();
    const n = stackReach().length;
    announce(G.sel.stack ? `The stack of ${G.sel.stack.length} units moves together: ${n} hex(es) every one of them can reach.` : `Only ${G.sel.unit} moves.`);
  }

  // One action per unit of the moving stack to ``hex`` (the same kind as the selected unit's),
  // or null when one of them cannot go there. Sent as one batch: all or nothing on the server.
  function stackActs(hex) {
    const first = goesOf(G.sel.unit).find((a) => toHex(a) === hex);
    if (!first) return null;
    const out = [first];
    for (const u of G.sel.stack.slice(1)) {
      const a = goesOf(u).find((x) => toHex(x) === hex && x.kind === first.kind);
      if (!a) return null;
      out.push(a);
    }
    return out;
  }

  // The selected unit's actions to the hexes the whole stack can reach.
  function stackReach() {
    if (!G.sel || !G.sel.stack) return [];
    return goesOf(G.sel.unit).filter((a, i, all) => all.findIndex((b) => toHex(b) === toHex(a)) === i && stackActs(toHex(a)));
  }

  // -- ending a phase is deliberate (issue 15) ------------------------------------------------

  // The end button says what it ends: the game's own words, or the phase's name.
  function endText(end) {
    const l = label(end).trim();
    return /^end$/i.test(l) && G.view.phase && G.view.phase.name ? `End the ${G.view.phase.name}` : l;
  }

  // The units that could still do something other than end the phase.
  function stillActive() {
    return new Set(G.legal.filter((a) => a.kind !== "end").flatMap((a) => (a.group ? [...unitsOf(a), a.group] : unitsOf(a)))).size;
  }

  function askEnd() {
    const end = G.legal.find((x) => x.kind === "end");
    if (!end || !canAct()) return;
    if (G.confirmEnd || !stillActive()) {
      G.confirmEnd = false;
      send([end.text]);
      return;
    }
    G.confirmEnd = true;
    renderPrompt();
    const yes = $("end-yes");
    if (yes) yes.focus();
    announce($("end-confirm").textContent);
  }

  function renderEndConfirm(end) {
    const box = $("end-confirm");
    box.innerHTML = "";
    box.hidden = !(end && G.confirmEnd);
    if (box.hidden) return;
    const n = stillActive();
    box.append(el("p", { text: `${n} unit${n === 1 ? "" : "s"} could still act. ${endText(end)} anyway?` }),
      el("button", { type: "button", id: "end-yes", class: "primary", onclick: askEnd, text: "Yes, end it (E)" }),
      " ", el("button", { type: "button", id: "end-no", onclick: keepPlaying, text: "Keep playing (Esc)" }));
  }

  function keepPlaying() {
    G.confirmEnd = false;
    renderPrompt();
    announce("The phase goes on.");
  }

  // -- the computer's turn: a clock while it thinks (issue 15) -----------------------------

  function computerTurn(v) { return !v.result && (v.ai_thinking || !!v.ai[v.to_move]); }

  function thinkingText() {
    const secs = G.thinkingSince ? Math.floor((Date.now() - G.thinkingSince) / 1000) : 0;
    return `The computer is thinking… ${secs}s`;
  }

  function tickThinking() {
    const v = G.view;
    if (v && computerTurn(v) && !G.replay) {
      if (!G.thinkingSince) G.thinkingSince = Date.now();
    } else G.thinkingSince = null;
    const t = $("thinking");
    if (t) t.textContent = thinkingText();
  }

  function promptText() {
    const base = G.view.prompt || "Click a highlighted unit or hex, or choose below.";
    if (G.group) return `Attack on ${G.group.target}: click the outlined units to add or remove them, then declare (D).`;
    if (G.sel && !G.view.selected) return `${unitLabel(G.sel.unit)} selected: click a highlighted hex (Esc to cancel).`;
    return base;
  }

  function lastRoll() {
    // The die roll just made (shown until the next decision after it).
    // Not into the next phase (issue 15): a phase or turn begun after the roll ends its banner,
    // and a roll that itself ended the phase shows only until the next decision.
    const log = G.view.log;
    const newPhase = (e) => e.events.some((x) => x.kind === "phase" || x.kind === "turn");
    for (let i = log.length - 1; i >= 0 && i >= log.length - 3; i--) {
      if (log[i].actor === "chance") {
        if (newPhase(log[i]) && i < log.length - 1) return null;
        return log[i].events.map((x) => x.text).join(" ") || log[i].action;
      }
      if (newPhase(log[i])) return null;
    }
    return null;
  }

  function fillDatalist() {
    const dl = $("legal-list");
    dl.innerHTML = "";
    if (!canAct()) return;
    for (const a of G.legal.slice(0, 600)) dl.append(el("option", { value: a.text, label: label(a) }));
  }

  function renderLog() {
    const v = G.view;
    const ol = $("log");
    ol.innerHTML = "";
    let lastExpl = null;
    let prevExpl = null;
    for (const e of v.log) {
      const li = el("li", { value: e.n, class: `${e.actor} ${e.n > G.renderedLog && G.renderedLog ? "fresh" : ""}` });
      li.append(el("span", { class: "who", text: `${sideWord(e.actor)}: ` }), el("span", { class: "act", text: e.action }));
      for (const ev of e.events) li.append(" ", el("span", { class: "ev", text: ev.text }));
      if (e.explanation) {
        if (e.explanation !== prevExpl) li.append(el("div", { class: "expl", text: e.explanation }));
        else li.title = e.explanation;
        prevExpl = e.explanation;
        if (!v.you.includes(e.actor)) lastExpl = e.explanation;
      }
      ol.append(li);
    }
    G.renderedLog = v.actions;
    // In the replay the log follows the step shown (issue 15): that entry marked and in view.
    const shown = G.replay && G.replay.step ? ol.querySelector(`li[value="${G.replay.step}"]`) : null;
    if (shown) {
      shown.classList.add("current");
      shown.setAttribute("aria-current", "step");
      ol.scrollTop = Math.max(0, shown.offsetTop - ol.offsetTop - ol.clientHeight / 2);
    } else if (G.replay) ol.scrollTop = 0;
    else ol.scrollTop = ol.scrollHeight;
    $("ai-box").hidden = !lastExpl;
    $("ai-text").textContent = lastExpl || "";
  }

  // -- the overlay: highlights drawn over the map --------------------------------------------

  function mark(layer, hex, cls, scale) {
    const p = hexInfo(hex);
    if (!p || !p.pts.length) return;
    const key = `${cls}@${hex}@${scale || ""}`;
    if (G.marked.has(key)) return;
    G.marked.add(key);
    const s = scale || 0.93;
    const pts = p.pts.map(([x, y]) => `${(p.cx + (x - p.cx) * s).toFixed(1)},${(p.cy + (y - p.cy) * s).toFixed(1)}`).join(" ");
    layer.append(svgEl("polygon", { class: `hl ${cls}`, points: pts, "data-mark": cls.split(" ")[0], "data-for": hex }));
  }

  function drawPath(layer, hexes) {
    const pts = hexes.map(hexInfo).filter(Boolean);
    if (pts.length < 2) return;
    layer.append(svgEl("polyline", { class: "path", "marker-end": "url(#ty-arrow-path)", points: pts.map((p) => `${p.cx},${p.cy}`).join(" ") }));
    for (const p of pts.slice(1, -1)) layer.append(svgEl("circle", { class: "pathdot", cx: p.cx, cy: p.cy, r: Math.max(2, G.r / 8) }));
  }

  function drawOverlay() {
    const svg = mapSvg();
    const layer = svg && svg.querySelector("#overlay");
    if (!layer) return;
    layer.innerHTML = "";
    G.marked = new Set();
    if (window.TyphoonOverlays) window.TyphoonOverlays.draw(layer); // switched-on overlays (overlays.js), under the highlights
    const pointer = G.hover || G.focus;
    if (!G.replay) {
      drawRecent(layer);
      if (canAct()) {
        if (G.group) {
          mark(layer, G.group.target, "target-sel");
          for (const u of G.group.with) { const h = unitHex(u); if (h) mark(layer, h, "declared"); }
          for (const a of G.group.acts) {
            for (const u of unitsOf(a)) { const h = unitHex(u); if (h) mark(layer, h, G.group.chosen.has(u) ? "chosen" : "attacker"); }
          }
        } else if (G.sel || movers().length === 1) {
          // The selected unit's destinations; those of the one unit that can go anywhere
          // (a retreat, say) are shown without a click.
          const uid = G.sel ? G.sel.unit : movers()[0];
          if (G.sel && G.sel.hex) mark(layer, G.sel.hex, "sel");
          else if (unitHex(uid)) mark(layer, unitHex(uid), "movable");
          const acts = G.sel && G.sel.stack ? stackReach() : goesOf(uid);
          for (const a of acts) mark(layer, toHex(a), `reach k-${a.kind}`);
          const onPtr = acts.find((a) => toHex(a) === pointer);
          if (onPtr && hexesOf(onPtr).length > 1) drawPath(layer, hexesOf(onPtr));
        } else {
          for (const m of G.view.marks || []) for (const h of m.hexes) mark(layer, h, m.class || "declared", 0.8);
          for (const uid of movers()) { const h = unitHex(uid); if (h) mark(layer, h, "movable"); }
          for (const a of G.legal) {
            if (a.group) mark(layer, a.group, "target");
            else if (!unitsOf(a).length && toHex(a)) mark(layer, toHex(a), "target");
            else if (unitsOf(a).length && !hexesOf(a).length) for (const u of unitsOf(a)) { const h = unitHex(u); if (h) mark(layer, h, "act"); }
          }
        }
      }
    }
    if (G.focus) mark(layer, G.focus, "focus", 0.99);
    updateFocusInfo();
  }

  function drawRecent(layer) {
    // Arrows for the other side's moves since your last decision (each event says where the
    // unit came from: data.from, and data.to, data.path or data.hex).
    const v = G.view;
    if (!v.you.length) return;
    let lastMine = 0;
    for (const e of v.log) if (v.you.includes(e.actor)) lastMine = e.n;
    if (!lastMine) return;
    for (const e of v.log) {
      if (e.n <= lastMine || v.you.includes(e.actor)) continue;
      for (const ev of e.events) {
        const d = ev.data || {};
        // A path that starts where the unit stood needs no `from` (a game may give either).
        const path = Array.isArray(d.path) ? d.path : [];
        if (!d.from && path.length < 2) continue;
        const to = path.length ? path : d.to ? [d.to] : d.hex ? [d.hex] : [];
        const hexes = d.from && to[0] !== d.from ? [d.from, ...to] : to;
        const pts = hexes.map(hexInfo);
        if (pts.length < 2 || !pts.every(Boolean)) continue;
        layer.append(svgEl("polyline", { class: "recent", "marker-end": "url(#ty-arrow)", points: pts.map((p) => `${p.cx},${p.cy}`).join(" ") }));
      }
    }
  }

  // -- acting on a hex (mouse and keyboard share this) ---------------------------------------

  function clearSel() {
    G.sel = null;
    G.group = null;
    G.choices = null;
    G.confirmEnd = false;
    $("preview").innerHTML = "";
    $("group-buttons").innerHTML = "";
    renderPrompt();
    drawOverlay();
    announce("Selection cleared.");
  }

  function choose(list) {
    G.choices = list;
    renderPrompt();
    drawOverlay();
    announce(`${list.length} choices: ` + list.slice(0, 9).map((a, i) => `${i + 1}: ${label(a)}`).join("; ") + ". Press a number.");
  }

  function playOrChoose(list) { return () => (list.length === 1 ? send([list[0].text]) : choose(list)); }

  // What a click (or Enter) on a hex does, from the legal actions: {hint, run}, or null.
  // `unit` is the counter clicked, if any. activate() runs it; the focus line shows the hint.
  function planFor(hex, unit) {
    if (!canAct()) return null;
    const here = unitsAt(hex).map((u) => u.id);
    if (G.group) {
      if (hex === G.group.target) return { hint: "Enter cancels this attack.", run: clearSel };
      const elig = [...new Set(G.group.acts.flatMap(unitsOf))].filter((u) => here.includes(u));
      if (elig.length) return { hint: "Enter adds or removes this unit from the attack.", run: () => toggleGroup(elig) };
    }
    if (G.sel && G.sel.stack) {
      const batch = stackActs(hex);
      if (batch) return { hint: `Enter moves the stack (${batch.length} units) to ${hex}.`, run: () => send(batch.map((a) => a.text)) };
    }
    if (G.sel) {
      const ms = goesOf(G.sel.unit).filter((a) => toHex(a) === hex);
      if (ms.length) {
        return { hint: ms.length === 1 ? `Enter: ${label(ms[0])}.` : `Enter lists ${ms.length} choices.`, run: playOrChoose(ms) };
      }
      if (hex === G.sel.hex && (!unit || unit === G.sel.unit) && !G.view.selected) {
        return { hint: `${G.sel.unit} is selected; Enter cancels.`, run: clearSel };
      }
    }
    // Nothing selected (or the click was elsewhere): what can start here?
    const starters = here.filter((u) => goesOf(u).length);
    if (starters.length) {
      const uid = unit && starters.includes(unit) ? unit : starters[0];
      if (!G.sel || G.sel.unit !== uid) return { hint: `Enter selects ${uid}.`, run: () => selectUnit(uid) };
    }
    const grouped = G.legal.filter((a) => a.group === hex);
    if (grouped.length) return { hint: "Enter plans an attack on it.", run: () => startGroup(hex, grouped) };
    const byUnit = G.legal.filter((a) => !goes(a) && !a.group && unitsOf(a).some((u) => (unit ? u === unit : here.includes(u))));
    if (byUnit.length) {
      return { hint: byUnit.length === 1 ? `Enter: ${label(byUnit[0])}.` : `Enter lists ${byUnit.length} choices.`, run: playOrChoose(byUnit) };
    }
    const onHex = G.legal.filter((a) => toHex(a) === hex && !a.group);
    if (onHex.length) {
      return { hint: onHex.length === 1 ? `Enter: ${label(onHex[0])}.` : `Enter lists ${onHex.length} choices.`, run: playOrChoose(onHex) };
    }
    return null;
  }

  function activate(hex, unit) {
    if (!hex) return;
    G.focus = hex;
    showError("");
    const plan = planFor(hex, unit);
    if (canAct()) G.choices = null;
    if (plan) { plan.run(); return; }
    if (canAct() && (G.sel || G.group)) { clearSel(); return; }
    if (canAct()) renderPrompt();
    drawOverlay();
    speakHex(hex);
  }

  function selectUnit(uid) {
    G.sel = { unit: uid, hex: unitHex(uid) };
    G.group = null;
    G.choices = null;
    renderPrompt();
    drawOverlay();
    const n = new Set(goesOf(uid).map(toHex)).size;
    announce(`${unitLabel(uid)} selected: it can reach ${n} hex(es). Move the focus to one and press Enter.`);
  }

  function startGroup(target, acts) {
    G.sel = null;
    G.choices = null;
    G.group = { target, acts, with: acts[0].with || [], chosen: new Set(acts.flatMap(unitsOf)) };
    renderPrompt();
    drawOverlay();
    updatePreview();
    announce(`Planning an attack on ${target}. Possible attackers: ${[...G.group.chosen].join(", ")}; all are chosen.`);
  }

  function toggleGroup(units) {
    for (const u of units) {
      if (G.group.chosen.has(u)) G.group.chosen.delete(u); else G.group.chosen.add(u);
      announce(`${u} ${G.group.chosen.has(u) ? "added to" : "removed from"} the attack.`);
    }
    drawOverlay();
    updatePreview();
  }

  function chosenActs() {
    return G.group ? G.group.acts.filter((a) => unitsOf(a).some((u) => G.group.chosen.has(u))) : [];
  }

  async function updatePreview() {
    const box = $("preview");
    const bar = $("group-buttons");
    bar.innerHTML = "";
    if (!G.group) { box.innerHTML = ""; return; }
    const attackers = [...G.group.with, ...G.group.chosen];
    const seq = ++G.previewSeq;
    G.group.then = []; // until this set's preview says otherwise
    box.innerHTML = "";
    // The declare button sits in the action bar, always in view (issue 15).
    const declare = el("button", { type: "button", class: "primary", id: "declare-btn", disabled: !chosenActs().length, onclick: declareGroup, text: "Declare (D)" });
    bar.append(declare);
    if (!attackers.length) {
      box.append(el("p", { text: "Choose at least one attacker (outlined)." }));
      return;
    }
    try {
      const p = await api("GET", gpath(`/preview?target=${encodeURIComponent(G.group.target)}&attackers=${attackers.map(encodeURIComponent).join(",")}`));
      if (seq !== G.previewSeq || !G.group) return;
      G.group.then = p.then || []; // what the declaration needs after the attackers (e.g. closing it)
      renderPreview(p);
      if (p.action) declare.textContent = `${p.action} (D)`;
    } catch (e) {
      if (seq !== G.previewSeq) return;
      box.append(el("p", { class: "note", text: e.message }));
    }
  }

  function renderPreview(p) {
    const box = $("preview");
    box.innerHTML = "";
    const pct = (x) => `${Math.round(x * 100)}%`;
    if (p.title) box.append(el("h3", { text: p.title }));
    if (p.lines) for (const line of p.lines) box.append(el("p", { text: line }));
    else {
      for (const [k, val] of Object.entries(p)) {
        if (k === "title" || k === "action") continue;
        box.append(el("p", { text: `${k.replace(/_/g, " ")}: ${Array.isArray(val) ? val.join("; ") : typeof val === "object" && val ? JSON.stringify(val) : val}` }));
      }
    }
    if (p.table) {
      const t = el("table", { "aria-label": "Result by die roll" });
      t.append(el("tr", {}, ...p.table.head.map((h, i) => el(i ? "td" : "th", { scope: i ? null : "row", text: h }))));
      for (const row of p.table.rows) t.append(el("tr", {}, ...row.map((c, i) => el(i ? "td" : "th", { scope: i ? null : "row", text: c }))));
      box.append(t);
    }
    if (p.chances) {
      const rt = el("table", { "aria-label": "Probability of each result" });
      for (const [r, prob] of Object.entries(p.chances)) {
        rt.append(el("tr", {}, el("th", { scope: "row", text: r }), el("td", { text: pct(prob) }),
          el("td", {}, el("span", { class: "bar", style: `width:${Math.round(prob * 120)}px` }))));
      }
      box.append(rt);
    }
    announce((p.lines || []).slice(0, 3).join(" ") + (p.chances ? " " + Object.entries(p.chances).map(([r, x]) => `${r} ${pct(x)}`).join(", ") : ""));
  }

  function declareGroup() {
    const acts = chosenActs();
    if (acts.length) send([...acts.map((a) => a.text), ...(G.group.then || [])]);
  }

  // -- words for the focus hex ---------------------------------------------------------------

  async function hexWords(hex) {
    const v = cur();
    if (v.hexes && v.hexes[hex]) return v.hexes[hex];
    if (G.words[hex]) return G.words[hex];
    if (G.replay) return hex;
    try {
      const r = await api("GET", gpath(`/hex?hex=${encodeURIComponent(hex)}`));
      G.words[hex] = r.words;
      return r.words;
    } catch (e) {
      return hex;
    }
  }

  function hintFor(hex) {
    const plan = planFor(hex);
    return plan ? ` ${plan.hint}` : "";
  }

  async function updateFocusInfo() {
    const hex = G.focus;
    if (!hex) return;
    const words = await hexWords(hex);
    if (hex === G.focus) $("focus-info").textContent = `Focus: ${words}.${hintFor(hex)}`;
  }

  async function speakHex(hex) {
    announce(`${await hexWords(hex)}.${hintFor(hex)}`);
  }

  // -- replay --------------------------------------------------------------------------------

  async function replayGo(step) {
    try {
      const r = await api("GET", gpath(`/replay?step=${Math.max(0, step)}`));
      G.replay = r;
      G.sel = null;
      G.group = null;
      if (!G.layered || typeof r.state.layer !== "string") putSvg(r.svg);
      render();
      const e = r.entry;
      announce(`Step ${r.step} of ${r.total}.` + (e ? ` ${sideWord(e.actor)}: ${e.action}. ${e.events.map((x) => x.text).join(" ")}` : " The start."));
    } catch (e) {
      showError(e.message);
    }
  }

  // Autoplay (issue 15): a play/pause button and a speed beside the replay's step buttons.
  function bindAutoplay() {
    const box = $("rp-controls");
    if (!box || $("rp-play")) return;
    const play = el("button", { type: "button", id: "rp-play", "aria-pressed": "false", text: "Play ⏵" });
    const speed = el("select", { id: "rp-speed", "aria-label": "Autoplay speed" },
      el("option", { value: "2000", text: "slow (2 s a step)" }),
      el("option", { value: "1000", text: "1 s a step" }),
      el("option", { value: "400", text: "fast (0.4 s a step)" }));
    speed.value = "1000";
    play.addEventListener("click", () => (G.autoplay ? stopAutoplay() : startAutoplay()));
    speed.addEventListener("change", () => { if (G.autoplay) startAutoplay(); });
    box.append(" ", play, " ", speed);
  }

  function startAutoplay() {
    if (!G.replay) return;
    clearInterval(G.autoplay);
    if (G.replay.step >= G.replay.total) replayGo(0);
    G.autoplay = setInterval(() => {
      if (!G.replay || G.replay.step >= G.replay.total) { stopAutoplay(); return; }
      if (!G.stepping) { G.stepping = true; replayGo(G.replay.step + 1).finally(() => { G.stepping = false; }); }
    }, parseInt($("rp-speed").value, 10) || 1000);
    $("rp-play").textContent = "Pause ⏸";
    $("rp-play").setAttribute("aria-pressed", "true");
    announce("Autoplay on.");
  }

  function stopAutoplay() {
    if (!G.autoplay) return;
    clearInterval(G.autoplay);
    G.autoplay = null;
    const b = $("rp-play");
    if (b) { b.textContent = "Play ⏵"; b.setAttribute("aria-pressed", "false"); }
  }

  function leaveReplay() {
    stopAutoplay();
    if (!G.layered && G.view.svg) putSvg(G.view.svg);
    render();
  }

  function renderReplayPanel() {
    const r = G.replay;
    $("prompt").textContent = "Replay: the map shows the position after the step below. Leave the replay to play on.";
    for (const id of ["buttons", "choices", "pool", "stack", "selinfo", "others", "preview", "group-buttons"]) $(id).innerHTML = "";
    $("end-confirm").hidden = true;
    const e = r.entry;
    $("rp-info").textContent = `Step ${r.step} of ${r.total}` + (e ? ` — ${sideWord(e.actor)}: ${e.action}. ${e.events.map((x) => x.text).join(" ")}` : " — the start of the game.");
    const sel = $("rp-turn");
    sel.innerHTML = "";
    for (const t of r.turns) sel.append(el("option", { value: t.step, text: t.turn ? `Turn ${t.turn} (${t.label})` : "Set-up" }));
    const now = [...r.turns].reverse().find((t) => t.step <= r.step);
    if (now) sel.value = String(now.step);
  }

  // -- keyboard ------------------------------------------------------------------------------

  // The next hex from the focus: by grid position when the map gives one (left/right: next
  // column, up/down: next row), else the nearest centre in that direction.
  function moveFocus(dc, dr) {
    const f = hexInfo(G.focus) ? G.focus : allHexes()[0];
    const p = hexInfo(f);
    let next = null;
    if (p && !Number.isNaN(p.col) && p.col !== undefined) {
      const byPos = {};
      if (G.grid) {
        const c = p.col + dc;
        const r = p.row + dr;
        const id = pad(c) + pad(r);
        next = hexInfo(id) ? id : null;
      } else {
        for (const [id, q] of Object.entries(G.hexes)) byPos[`${q.col},${q.row}`] = id;
        next = byPos[`${p.col + dc},${p.row + dr}`] || (dc ? byPos[`${p.col + dc},${p.row + dr - 1}`] : null) || null;
      }
    }
    if (!next && p) {
      let bd = Infinity;
      for (const id of Object.keys(G.hexes)) {
        const q = G.hexes[id];
        const dx = q.cx - p.cx;
        const dy = q.cy - p.cy;
        const along = dc ? dx * dc : dy * dr;
        if (along <= 1) continue;
        const d = along + 2 * Math.abs(dc ? dy : dx);
        if (d < bd) { bd = d; next = id; }
      }
    }
    if (!next) return;
    G.focus = next;
    G.hover = null;
    const q = hexInfo(next);
    const vb = G.vb;
    if (vb && (q.cx < vb.x + G.r || q.cx > vb.x + vb.w - G.r || q.cy < vb.y + G.r || q.cy > vb.y + vb.h - G.r)) centreOn(next);
    drawOverlay();
    speakHex(next);
  }

  function pan(dx, dy) {
    if (!G.vb) return;
    const step = G.vb.w * 0.15;
    setViewBox({ ...G.vb, x: G.vb.x + dx * step, y: G.vb.y + dy * step });
  }

  const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  function onBoardKey(e) {
    if (ARROWS[e.key] && !e.shiftKey) { moveFocus(...ARROWS[e.key]); e.preventDefault(); e.stopPropagation(); }
    else if (e.key === "Enter" || e.key === " ") {
      const u = G.focus ? unitsAt(G.focus).find((x) => actsOf(x.id).length) : null;
      activate(G.focus, G.sel ? null : (u ? u.id : null));
      e.preventDefault();
      e.stopPropagation();
    }
  }

  function onKey(e) {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    const lower = k.length === 1 ? k.toLowerCase() : k;
    if (ARROWS[k]) { pan(...ARROWS[k]); e.preventDefault(); return; }
    if (k === "+" || k === "=") { zoom(1 / 1.4); return; }
    if (k === "-") { zoom(1.4); return; }
    if (lower === "w") { viewAll(); return; }
    if (lower === "a") { viewActive(); return; }
    if (k === "Escape") { if (G.confirmEnd) keepPlaying(); else if (G.sel || G.group || G.choices) clearSel(); return; }
    if (G.replay) {
      if (k === "," || k === "PageUp") replayGo(G.replay.step - 1);
      else if (k === "." || k === "PageDown") replayGo(G.replay.step + 1);
      return;
    }
    if (lower === "e") askEnd();
    else if (lower === "u") undo();
    else if (lower === "d") declareGroup();
    else if (lower === "n") { $("numbers").checked = !$("numbers").checked; toggleNumbers(); }
    else if (lower === "t") { e.preventDefault(); $("type-input").focus(); }
    else if (lower === "l") {
      const last = G.view.log.slice(-4).map((x) => `${sideWord(x.actor)}: ${x.events.map((y) => y.text).join(" ") || x.action}`);
      announce(last.join(" ") || "No events yet.");
    } else if (lower === "s") announce(statusSentences());
    else if (lower === "h" || k === "?") announce($("board").getAttribute("aria-label"));
    else if (/^[1-9]$/.test(k) && G.choices) {
      const a = G.choices[parseInt(k, 10) - 1];
      if (a) send([a.text]);
    }
  }

  // The status and the prompt read as separate sentences (issue 15: the "S" key ran the lines
  // of the status together): each line, block or banner is one sentence.
  function statusSentences() {
    const parts = [];
    const walk = (node) => {
      for (const n of node.childNodes) {
        if (n.nodeType === Node.TEXT_NODE) {
          if (parts.length && parts[parts.length - 1] !== null) parts[parts.length - 1] += n.textContent;
          else parts.push(n.textContent);
        } else if (n.nodeType === Node.ELEMENT_NODE) {
          const block = n.tagName === "BR" || n.tagName === "DIV" || n.tagName === "P" || n.classList.contains("thinking") || n.id === "to-move";
          if (block) parts.push(null);
          walk(n);
          if (block) parts.push(null);
        }
      }
    };
    for (const id of ["status", "prompt"]) { walk($(id)); parts.push(null); }
    return parts.filter((x) => x !== null).map((x) => x.replace(/\s+/g, " ").trim()).filter(Boolean)
      .map((x) => (/[.!?…:]$/.test(x) ? x : `${x}.`)).join(" ");
  }

  function toggleNumbers() {
    G.numbers = $("numbers").checked;
    const svg = mapSvg();
    if (svg) { svg.classList.toggle("numbers", G.numbers); gridNumbers(svg); }
    try { localStorage.setItem("typhoon:numbers", G.numbers ? "1" : "0"); } catch (e) { /* private mode */ }
  }

  // The hex (and counter) under a pointer event.
  function pointed(e) {
    const svg = mapSvg();
    if (!svg) return [null, null];
    const unitG = e.target.closest && e.target.closest("g.unit");
    if (unitG) return [unitG.dataset.hex, unitG.dataset.unit];
    const g = e.target.closest && e.target.closest("[data-hex]");
    if (g && svg.contains(g)) return [g.dataset.hex, null];
    const [x, y] = svgPoint(svg, e);
    return [hexAt(x, y), null];
  }

  // Every unit in the hex under the pointer (issue 15: not only the top one of a stack).
  function hoverText(hex) {
    const us = unitsAt(hex);
    if (us.length < 2) return `Hex ${hex}${us.length ? ": " + us[0].id : ""}`;
    return `Hex ${hex}, ${us.length} units: ${us.map((u) => unitLabel(u.id)).join("; ")}`;
  }

  // Touch (issue 15: a phone could not zoom or pan the map): one finger drags the map, two pinch
  // to zoom about their midpoint. Pointer events of pen and touch only; the mouse has its own.
  function bindTouch(board) {
    const pts = new Map(); // pointer id -> {x, y} (client pixels)
    let start = null; // the gesture's start: {vb, pts (copy), mid, dist}
    const mid = () => {
      const a = [...pts.values()];
      const x = a.reduce((s, p) => s + p.x, 0) / a.length;
      const y = a.reduce((s, p) => s + p.y, 0) / a.length;
      const dist = a.length > 1 ? Math.hypot(a[0].x - a[1].x, a[0].y - a[1].y) : 0;
      return { x, y, dist };
    };
    const begin = () => { start = pts.size && G.vb ? { vb: { ...G.vb }, ...mid() } : null; };
    board.addEventListener("pointerdown", (e) => {
      if (e.pointerType === "mouse" || !mapSvg()) return;
      pts.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (board.setPointerCapture) { try { board.setPointerCapture(e.pointerId); } catch (err) { /* synthetic */ } }
      if (pts.size === 1) G.drag = { x: e.clientX, y: e.clientY, vb: { ...G.vb }, moved: false };
      else if (G.drag) G.drag.moved = true; // a pinch is never a tap
      begin();
    });
    board.addEventListener("pointermove", (e) => {
      if (!pts.has(e.pointerId) || !start) return;
      pts.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const m = mid();
      if (G.drag && !G.drag.moved && Math.abs(m.x - start.x) + Math.abs(m.y - start.y) < 8 && pts.size === 1) return;
      if (G.drag) G.drag.moved = true;
      const rect = board.getBoundingClientRect();
      const scale = start.vb.w / (rect.width || 1);
      const f = pts.size > 1 && start.dist > 0 && m.dist > 0 ? start.dist / m.dist : 1;
      // The map point under the gesture's start midpoint stays under the fingers' midpoint.
      const ax = start.vb.x + (start.x - rect.left) * scale;
      const ay = start.vb.y + (start.y - rect.top) * scale;
      const w = start.vb.w * f;
      const h = start.vb.h * f;
      setViewBox({ x: ax - (m.x - rect.left) * scale * f, y: ay - (m.y - rect.top) * scale * f, w, h });
      e.preventDefault();
    });
    const end = (e) => {
      if (!pts.delete(e.pointerId)) return;
      begin();
      if (!pts.size) setTimeout(() => { if (!pts.size) G.drag = null; }, 0);
    };
    board.addEventListener("pointerup", end);
    board.addEventListener("pointercancel", end);
  }

  function bind() {
    const board = $("board");
    board.addEventListener("mousedown", (e) => {
      if (e.button !== 0 || !mapSvg() || !G.vb) return;
      G.drag = { x: e.clientX, y: e.clientY, vb: { ...G.vb }, moved: false };
      G.dragged = false;
    });
    window.addEventListener("mousemove", (e) => {
      if (!G.drag) return;
      const dx = e.clientX - G.drag.x;
      const dy = e.clientY - G.drag.y;
      if (!G.drag.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
      G.drag.moved = true;
      const scale = G.drag.vb.w / (board.clientWidth || 1);
      setViewBox({ ...G.drag.vb, x: G.drag.vb.x - dx * scale, y: G.drag.vb.y - dy * scale });
    });
    // The drag ends at once on mouseup: a drag still open when the pointer next moves (a
    // deferred reset runs after queued input under load) panned the map under a quick second
    // click. `dragged` tells the click that follows a drag's mouseup not to act.
    window.addEventListener("mouseup", () => {
      if (G.drag) G.dragged = G.drag.moved;
      G.drag = null;
    });
    board.addEventListener("click", (e) => {
      if (G.dragged || (G.drag && G.drag.moved)) return;
      const [hex, unit] = pointed(e);
      activate(hex, unit);
    });
    board.addEventListener("mousemove", (e) => {
      if (G.drag && G.drag.moved) return;
      const [hex] = pointed(e);
      $("hover-info").textContent = hex ? hoverText(hex) : "";
      $("hover-info").title = $("hover-info").textContent; // the whole line when it is cut
      if (hex !== G.hover) { G.hover = hex; if (G.sel || movers().length === 1) drawOverlay(); }
    });
    board.addEventListener("mouseleave", () => { G.hover = null; drawOverlay(); });
    board.addEventListener("wheel", (e) => {
      const svg = mapSvg();
      if (!svg) return;
      e.preventDefault();
      const [x, y] = svgPoint(svg, e);
      zoom(e.deltaY > 0 ? 1.2 : 1 / 1.2, x, y);
    }, { passive: false });
    bindTouch(board);
    board.addEventListener("keydown", onBoardKey);
    document.addEventListener("keydown", onKey);
    $("zoom-in").addEventListener("click", () => zoom(1 / 1.4));
    $("zoom-out").addEventListener("click", () => zoom(1.4));
    $("view-all").addEventListener("click", viewAll);
    $("view-active").addEventListener("click", viewActive);
    $("numbers").addEventListener("change", toggleNumbers);
    $("chat-form").addEventListener("submit", sendChat);
    $("type-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("type-input").value.trim();
      if (!text) return;
      if (!canAct()) {
        showError(G.replay ? "Leave the replay to play." : "It is not your decision now.");
        return;
      }
      $("type-input").value = "";
      send([text]);
    });
    bindReplay(G, replayGo, leaveReplay, announce);
    bindAutoplay();
    // The browser knows at once when the network goes; the next answer clears the banner.
    window.addEventListener("offline", () => connection(false));
    window.addEventListener("online", () => { load().then(() => connection(true), () => connection(false)); });
    setInterval(tickThinking, 500);
  }

  async function init() {
    G.token = readToken(G.id);
    // Hex numbers on unless the player turned them off (issue 15: retreats, the log and typed
    // notation all name hexes by number).
    try { G.numbers = localStorage.getItem("typhoon:numbers") !== "0"; } catch (e) { G.numbers = true; }
    $("numbers").checked = G.numbers;
    bind();
    try {
      await load();
    } catch (e) {
      $("prompt").textContent = "";
      showError(`Cannot open game ${G.id}: ${e.message}`);
      return;
    }
    pollLoop();
  }

  G.hexInfo = hexInfo; // for overlays.js: a hex's centre and corners
  G.redraw = drawOverlay; // for overlays.js: draw again once its data came
  G.centreOn = centreOn; // for tests: bring a hex into view without changing the zoom
  G.send = send; // for tests: play notation as the page would
  G.page = page; // for tests: show a given view
  window.typhoon = G; // for debugging and tests
  init();
})();
