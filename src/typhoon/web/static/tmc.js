// Typhoon, The Moscow Campaign game page: shows what the server says and sends actions taken
// from the server's list of legal actions. No rule lives here. The 78x63 map (a
// RECONSTRUCTION) is one SVG: a static layer drawn once, a counters layer swapped in for each
// position, and a highlight layer drawn here. Pan and zoom change the viewBox; a click is
// turned into a hex from the layout numbers on the <svg>.
// Plain JavaScript, no build step.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const TyphoonUI = window.TyphoonUI;
  const { el, cap, readToken, whoText, waitingText, fillPhases, bindReplay } = window.TyphoonUI;
  const SVGNS = "http://www.w3.org/2000/svg";
  // Actions that put a unit on a hex: chosen by selecting the unit, then clicking the hex.
  const MAP_KINDS = ["move", "railmove", "enter", "arrive", "relocate", "place", "retreat", "advance", "join"];
  const OFFMAP_KINDS = ["enter", "arrive", "place"];

  const G = {
    id: decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || ""),
    token: null,
    view: null,
    legal: [],
    sel: null, // {unit, hex|null}
    hexPick: null, // hex clicked without a selection
    layout: null,
    vb: null,
    busy: false,
    drag: null,
    focus: null, // keyboard focus hex
    replay: null, // {step, total, turns, entry, state} while replaying
    byUnit: new Map(), // unit -> map actions
    byHexUnits: new Map(), // hex -> units standing there with map actions
  };

  // -- helpers ---------------------------------------------------------------------------

  const api = (method, path, body) => window.TyphoonUI.api(method, path, body, G.token);
  const gpath = (rest) => `/api/games/${encodeURIComponent(G.id)}${rest || ""}`;

  function announce(msg) {
    const live = $("announce");
    live.textContent = "";
    setTimeout(() => { live.textContent = msg; }, 40);
  }
  function showError(msg) { $("error").textContent = msg || ""; }
  function canAct() { return !!(G.view && G.view.your_turn && !G.view.result && !G.replay); }
  function cur() { return G.replay ? G.replay.state : G.view; }
  function unitById(id) { return cur().units.find((u) => u.id === id); }
  function unitsAt(hex) { return cur().units.filter((u) => u.hex === hex); }
  function counter(id) {
    const u = unitById(id);
    return u ? `${u.id} ${u.cf_text}-${u.ma}` : id;
  }
  function dest(a) {
    if (a.kind === "move" || a.kind === "railmove") return a.dst;
    if (a.kind === "advance") return a.unit ? a.hex : null;
    return a.hex || null;
  }

  function describe(a) {
    switch (a.kind) {
      case "move": return `Move ${counter(a.unit)} ${a.src} → ${a.dst}`;
      case "railmove": return `Rail move ${counter(a.unit)} ${a.src} → ${a.dst}`;
      case "enter": return `${counter(a.unit)} enters the map at ${a.hex}`;
      case "arrive": return `${counter(a.unit)} arrives by rail at ${a.hex}`;
      case "entrain": return `Entrain ${counter(a.unit)}`;
      case "detrain": return `Detrain ${counter(a.unit)}`;
      case "relocate": return `Relocate ${counter(a.unit)} to ${a.hex}`;
      case "place": return `Place ${counter(a.unit)} in ${a.hex}`;
      case "overrun": return `Overrun ${a.hex} with ${a.units.map(counter).join(" + ")}`;
      case "join": return `${counter(a.unit)} joins the overrun of ${a.hex}`;
      case "attack": return a.units.length ? `${a.units.map(counter).join(" + ")} attack${a.units.length > 1 ? "" : "s"} ${a.target}` : `The attack also takes in hex ${a.target}`;
      case "odds": return `Resolve on the ${a.column} column${a.column === bestOdds() ? " (the computed odds)" : " (lower)"}`;
      case "ignore": return a.accept ? "Ignore the ignorable result" : "Do not ignore it";
      case "lose": return `Eliminate ${counter(a.unit)} (loss)`;
      case "disrupt": return `Disrupt ${counter(a.unit)}`;
      case "retreat": return `Retreat ${counter(a.unit)} to ${a.hex}`;
      case "advance": return a.unit ? `${counter(a.unit)} advances into ${a.hex}` : "Stop advancing";
      case "setupstandard": return "Standard set-up (every unit on its reconstructed start hex)";
      case "end": return endLabel();
      default: return a.text;
    }
  }

  // The attacker may resolve on the computed column or a lower one: the highest listed is the computed one.
  function bestOdds() {
    const val = (c) => { const [x, y] = c.split("-").map(Number); return x / y; };
    const cols = G.legal.filter((x) => x.kind === "odds").map((x) => x.column);
    return cols.length ? cols.reduce((m, c) => (val(c) > val(m) ? c : m)) : null;
  }

  function endLabel() {
    const v = G.view;
    if (v.phase.kind === "setup") return "End the set-up";
    if (v.phase.kind === "movement") return /relocation/.test(v.step) ? "End the EB relocation" : (/overrun/.test(v.step) ? "End" : "End the movement phase");
    if (v.phase.kind === "combat") return G.legal.some((a) => a.kind === "attack") ? "End (close the attack / the declarations)" : "End";
    return "End";
  }

  function indexLegal() {
    G.byUnit = new Map();
    G.byHexUnits = new Map();
    for (const a of G.legal) {
      if (!MAP_KINDS.includes(a.kind) || !a.unit || !dest(a)) continue;
      if (!G.byUnit.has(a.unit)) G.byUnit.set(a.unit, []);
      G.byUnit.get(a.unit).push(a);
    }
    for (const uid of G.byUnit.keys()) {
      const u = unitById(uid);
      if (!u || !u.hex) continue;
      if (!G.byHexUnits.has(u.hex)) G.byHexUnits.set(u.hex, []);
      G.byHexUnits.get(u.hex).push(uid);
    }
  }

  // -- geometry ----------------------------------------------------------------------------

  function readLayout(svg) {
    const d = svg.dataset;
    const r = parseFloat(d.r);
    G.layout = {
      r, h: (r * Math.sqrt(3)) / 2, x0: parseFloat(d.x0), y0: parseFloat(d.y0),
      cols: parseInt(d.cols, 10), rows: parseInt(d.rows, 10),
      width: parseFloat(d.width), height: parseFloat(d.height),
    };
  }

  function centre(hex) {
    const L = G.layout;
    const c = parseInt(hex.slice(0, 2), 10);
    const r = parseInt(hex.slice(2), 10);
    return [L.x0 + (c - 1) * 1.5 * L.r, L.y0 + (r - 1) * 2 * L.h + (c % 2 === 0 ? L.h : 0)];
  }

  const pad = (n) => String(n).padStart(2, "0");

  // The hex under an SVG point: the nearest hex centre is the hex that holds the point.
  function hexAt(x, y) {
    const L = G.layout;
    const c0 = Math.round((x - L.x0) / (1.5 * L.r)) + 1;
    let best = null;
    let bd = Infinity;
    for (let c = c0 - 1; c <= c0 + 1; c++) {
      if (c < 1 || c > L.cols) continue;
      const r0 = Math.round((y - L.y0 - (c % 2 === 0 ? L.h : 0)) / (2 * L.h)) + 1;
      for (let r = r0 - 1; r <= r0 + 1; r++) {
        if (r < 1 || r > L.rows) continue;
        const hex = pad(c) + pad(r);
        const [cx, cy] = centre(hex);
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

  function hexPolygon(hex, cls) {
    const L = G.layout;
    const [x, y] = centre(hex);
    const pts = [];
    for (let k = 0; k < 6; k++) {
      const a = (Math.PI / 3) * k;
      pts.push(`${(x + L.r * 0.92 * Math.cos(a)).toFixed(1)},${(y + L.r * 0.92 * Math.sin(a)).toFixed(1)}`);
    }
    const p = document.createElementNS(SVGNS, "polygon");
    p.setAttribute("points", pts.join(" "));
    p.setAttribute("class", cls);
    p.dataset.hex = hex;
    return p;
  }

  // -- pan and zoom ------------------------------------------------------------------------

  function svgEl() { return $("board").querySelector("svg"); }

  function setViewBox(vb) {
    const L = G.layout;
    const w = Math.max(120, Math.min(vb.w, L.width * 1.2));
    const h = w * (vb.h / vb.w);
    const x = Math.max(-L.width * 0.1, Math.min(vb.x, L.width - w * 0.5));
    const y = Math.max(-L.height * 0.1, Math.min(vb.y, L.height - h * 0.5));
    G.vb = { x, y, w, h };
    const svg = svgEl();
    if (svg) svg.setAttribute("viewBox", `${x.toFixed(1)} ${y.toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}`);
  }

  function aspect() {
    const b = $("board");
    return Math.max(0.4, (b.clientHeight || 600) / (b.clientWidth || 900));
  }

  function zoom(factor, cx, cy) {
    const vb = G.vb;
    const x = cx === undefined ? vb.x + vb.w / 2 : cx;
    const y = cy === undefined ? vb.y + vb.h / 2 : cy;
    const w = vb.w * factor;
    const h = vb.h * factor;
    setViewBox({ x: x - (x - vb.x) * factor, y: y - (y - vb.y) * factor, w, h });
  }

  function viewHexes(hexes, minW) {
    const L = G.layout;
    if (!hexes.length) { viewAll(); return; }
    let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
    for (const hx of hexes) {
      const [x, y] = centre(hx);
      x1 = Math.min(x1, x); y1 = Math.min(y1, y); x2 = Math.max(x2, x); y2 = Math.max(y2, y);
    }
    const a = aspect();
    let w = Math.max(minW || 520, x2 - x1 + 6 * L.r);
    let h = w * a;
    if (y2 - y1 + 6 * L.r > h) { h = y2 - y1 + 6 * L.r; w = h / a; }
    setViewBox({ x: (x1 + x2) / 2 - w / 2, y: (y1 + y2) / 2 - h / 2, w, h });
  }

  function viewAll() {
    const L = G.layout;
    const a = aspect();
    let w = L.width;
    let h = w * a;
    if (h < L.height) { h = L.height; w = h / a; }
    setViewBox({ x: (L.width - w) / 2, y: 0, w, h });
  }

  function activeHexes() {
    const v = G.view;
    const side = v.to_move === "german" || v.to_move === "soviet" ? v.to_move : v.phase.side;
    const mine = [...G.byHexUnits.keys()];
    if (mine.length) return mine;
    return v.units.filter((u) => u.hex && u.side === side).map((u) => u.hex);
  }

  // The units of the side to move, legible: centred on their median hex, at most ~30 hexes wide.
  function viewActive() {
    const hexes = activeHexes();
    if (!hexes.length) { viewAll(); return; }
    const xs = hexes.map((h) => centre(h)[0]).sort((a, b) => a - b);
    const ys = hexes.map((h) => centre(h)[1]).sort((a, b) => a - b);
    const mx = xs[xs.length >> 1];
    const my = ys[ys.length >> 1];
    const a = aspect();
    const w = Math.min(Math.max(700, (xs[xs.length - 1] - xs[0]) + 8 * G.layout.r), 1100);
    setViewBox({ x: mx - w / 2, y: my - (w * a) / 2, w, h: w * a });
  }

  // Centre the map on a hex without changing the zoom (tests and the keyboard use it).
  function centreOn(hex) {
    const [x, y] = centre(hex);
    setViewBox({ ...G.vb, x: x - G.vb.w / 2, y: y - G.vb.h / 2 });
  }

  // -- view updates ------------------------------------------------------------------------

  function setView(v, { force = false, svg = null } = {}) {
    if (!force && G.view && v.version < G.view.version) return;
    const changed = !G.view || v.version !== G.view.version;
    const firstMap = !svgEl();
    const newTurn = !G.view || v.phase.key !== G.view.phase.key || v.turn !== G.view.turn || v.your_turn !== G.view.your_turn;
    G.view = v;
    G.legal = v.legal || [];
    if (changed) { G.sel = null; G.hexPick = null; showError(""); }
    const svgText = svg || v.svg;
    if (svgText && (firstMap || svg)) {
      const keep = G.vb;
      $("board").innerHTML = svgText;
      readLayout(svgEl());
      if (keep) setViewBox(keep);
    }
    indexLegal();
    if (svgEl() && (firstMap || (newTurn && canAct()))) viewActive();
    render();
  }

  async function load() {
    const v = await api("GET", gpath("?svg=1&legal=1"));
    setView(v, { force: true });
  }

  const page = { setView, announce, showError, canAct };

  function send(texts) {
    return TyphoonUI.sendActions(G, page, texts, { legal: true });
  }

  function undo() {
    return TyphoonUI.undoLast(G, page, { legal: true });
  }

  function pollLoop() {
    return TyphoonUI.pollGame(G, page, "legal=1", false);
  }

  // -- rendering ---------------------------------------------------------------------------

  function render() {
    document.body.classList.toggle("replaying", !!G.replay);
    const dyn = svgEl() && svgEl().querySelector("#dyn");
    if (dyn) dyn.innerHTML = cur().overlay;
    renderHeader();
    renderStatus();
    if (G.replay) renderReplayPanel(); else renderPrompt();
    renderLog();
    drawHighlights();
  }

  function renderHeader() {
    const v = G.view;
    $("edition").textContent = `${v.title} (RECONSTRUCTION)`;
    $("recon").textContent = v.reconstruction;
    document.title = `Typhoon — TMC scenario ${v.edition} — ${v.id}`;
    $("who").textContent = whoText(v);
    $("record-link").href = gpath("/record");
    const share = $("share");
    share.innerHTML = "";
    if (G.token) {
      share.append(el("p", {}, "Your secret link: ",
        el("input", { value: `${location.origin}/g/${v.id}#t=${G.token}`, readonly: true, "aria-label": "Your secret link", onfocus: (e) => e.target.select() })));
    }
  }

  function renderStatus() {
    const v = cur();
    const st = $("status");
    st.innerHTML = "";
    st.append(el("strong", { text: `Scenario ${v.edition}` }), ` · ${v.turn_label} · ${v.step}`, el("br"),
      `Weather: ${v.weather} · VP German ${v.vp.german}, Soviet ${v.vp.soviet}`);
    if (!v.result && !G.replay) {
      const tm = v.to_move;
      st.append(el("br"), el("span", { class: `side-${tm}`, id: "to-move" }, tm === "chance" ? "Die roll due" : `${cap(tm)} to decide`));
    }
    $("rules").textContent = `In force: ${v.rules}`;
    fillPhases(v);
  }

  function actionButton(a, extra) {
    return el("button", { type: "button", "data-action": a.text, class: extra || "", onclick: () => send([a.text]), text: describe(a) });
  }

  function renderPrompt() {
    const v = G.view;
    const prompt = $("prompt");
    const buttons = $("buttons");
    const choices = $("choices");
    const pool = $("pool");
    const stack = $("stack");
    const selinfo = $("selinfo");
    for (const b of [buttons, choices, pool, stack, selinfo]) b.innerHTML = "";
    if (v.result) {
      prompt.textContent = "";
      prompt.append(el("div", { class: "banner over" }, v.result_text || `Game over: ${v.result}${v.level ? ` (${v.level})` : ""}`));
      return;
    }
    if (!canAct()) {
      prompt.textContent = waitingText(v);
      if (v.can_undo) buttons.append(el("button", { type: "button", onclick: undo, text: "Undo (U)" }));
      return;
    }
    prompt.textContent = promptText();
    for (const a of G.legal.filter((x) => x.kind === "setupstandard")) buttons.append(actionButton(a, "primary"));
    for (const a of G.legal.filter((x) => x.kind === "end")) {
      buttons.append(el("button", { type: "button", id: "end-btn", "data-action": a.text, onclick: () => send([a.text]), text: endLabel() + " (E)" }));
    }
    if (v.can_undo) buttons.append(el("button", { type: "button", id: "undo-btn", onclick: undo, text: "Undo (U)" }));
    if (G.sel || G.hexPick) buttons.append(el("button", { type: "button", onclick: clearSel, text: "Cancel (Esc)" }));
    // The selected unit: what it is and what else it can do.
    if (G.sel) {
      const u = unitById(G.sel.unit);
      const n = new Set((G.byUnit.get(G.sel.unit) || []).map(dest)).size;
      selinfo.append(el("p", { id: "sel-words", text: `Selected: ${u ? u.words : G.sel.unit}. ${n} hex(es) highlighted: click one.` },
        el("span", { class: "recon-tag", text: " RECONSTRUCTION: counter values reconstructed, not the SPI counter sheet." })));
      const own = G.legal.filter((a) => !MAP_KINDS.includes(a.kind) && (a.unit === G.sel.unit || (a.units || []).includes(G.sel.unit)));
      for (const a of own.slice(0, 30)) choices.append(actionButton(a));
    }
    // A hex clicked without a selection: its units to choose from, and actions on that hex.
    if (G.hexPick && !G.sel) {
      const here = G.byHexUnits.get(G.hexPick) || [];
      if (here.length) stack.append(el("span", { text: `Units in ${G.hexPick}: ` }));
      for (const uid of here) stack.append(el("button", { type: "button", "data-unit": uid, onclick: () => selectUnit(uid), text: counter(uid) }));
      const ids = unitsAt(G.hexPick).map((u) => u.id);
      const onHex = G.legal.filter((a) => !MAP_KINDS.includes(a.kind) && (a.target === G.hexPick
        || (a.kind === "overrun" && a.hex === G.hexPick) || ids.includes(a.unit) || (a.units || []).some((x) => ids.includes(x))));
      for (const a of onHex.slice(0, 40)) choices.append(actionButton(a));
    }
    // Units off the map that can come on (set-up, reinforcements).
    const off = [...new Set(G.legal.filter((a) => OFFMAP_KINDS.includes(a.kind)).map((a) => a.unit))];
    if (off.length) {
      pool.append(el("span", { text: v.phase.kind === "setup" ? "Units to place: " : "Reinforcements: " }));
      for (const uid of off.slice(0, 160)) {
        const pressed = G.sel && G.sel.unit === uid;
        pool.append(el("button", { type: "button", class: pressed ? "sel" : "", "aria-pressed": pressed ? "true" : "false", "data-unit": uid, onclick: () => (pressed ? clearSel() : selectUnit(uid)), text: counter(uid) }));
      }
    }
    // Decisions that are not a hex to click (combat steps, entraining...), in words.
    if (!G.sel && !G.hexPick) {
      const other = G.legal.filter((a) => !MAP_KINDS.includes(a.kind) && !["end", "setupstandard"].includes(a.kind) && !OFFMAP_KINDS.includes(a.kind));
      const adv = G.legal.filter((a) => a.kind === "advance" && !a.unit);
      const list = [...other, ...adv];
      if (list.length) {
        choices.append(el("p", { class: "choices-title", text: list.length > 40 ? `${list.length} other actions (first 40; click a hex or a unit to narrow them):` : "Other actions:" }));
        for (const a of list.slice(0, 40)) choices.append(actionButton(a));
      }
    }
  }

  function promptText() {
    const v = G.view;
    const kinds = new Set(G.legal.map((a) => a.kind));
    if (kinds.has("setupstandard") || kinds.has("place")) return `${cap(v.to_move)} set-up: the standard set-up puts every unit on its reconstructed start hex, or pick a unit and a hex.`;
    if (kinds.has("relocate")) return "Soviet EB relocation: select an EB unit and a highlighted rail hex, or end the relocation.";
    if (kinds.has("retreat")) return "Retreat: select the retreating unit (highlighted) and click a highlighted hex.";
    if (kinds.has("advance")) return "Advance after combat: select an attacker and click the vacated hex, or stop advancing.";
    if (kinds.has("lose") || kinds.has("disrupt")) return "Combat result: choose the attacking units that take it.";
    if (kinds.has("odds")) return "Resolve the attack: choose the odds column (the computed one or a lower one).";
    if (kinds.has("attack")) return "Combat: click an enemy hex (or one of your units) to declare an attack, one unit at a time; End closes the attack, then the declarations.";
    if (kinds.has("move") || kinds.has("railmove") || kinds.has("enter") || kinds.has("arrive")) {
      return `${v.step}: click one of your units (outlined), then a highlighted hex. End the phase when done.`;
    }
    return "Choose an action.";
  }

  function renderLog() {
    const v = G.view;
    const log = $("log");
    log.innerHTML = "";
    const entries = v.log.slice(-40);
    for (const e of entries) {
      const text = e.events.map((x) => x.text).join(" ") || e.action;
      log.append(el("li", { class: e.actor, value: e.n }, el("span", { class: "act", text: `${e.action} ` }), el("span", { class: "ev", text })));
    }
    log.scrollTop = log.scrollHeight;
    const lastAi = [...v.log].reverse().find((e) => e.explanation);
    $("ai-box").hidden = !lastAi;
    if (lastAi) $("ai-text").textContent = lastAi.explanation;
  }

  function drawHighlights() {
    const svg = svgEl();
    if (!svg || !G.layout) return;
    const g = svg.querySelector("#hl");
    g.innerHTML = "";
    if (G.focus) g.append(hexPolygon(G.focus, "focus"));
    if (!canAct()) return;
    if (G.sel) {
      const acts = G.byUnit.get(G.sel.unit) || [];
      const seen = new Set();
      for (const a of acts) {
        const d = dest(a);
        if (seen.has(d)) continue;
        seen.add(d);
        g.append(hexPolygon(d, a.kind === "railmove" ? "hl rail" : "hl"));
      }
      if (G.sel.hex) g.append(hexPolygon(G.sel.hex, "hl src"));
      return;
    }
    for (const hex of G.byHexUnits.keys()) g.append(hexPolygon(hex, "hl act"));
    const targets = new Set(G.legal.filter((a) => a.kind === "attack" || a.kind === "overrun").map((a) => a.target || a.hex));
    for (const t of targets) g.append(hexPolygon(t, "hl src"));
    if (G.hexPick) g.append(hexPolygon(G.hexPick, "focus"));
  }

  // -- choosing on the map -----------------------------------------------------------------

  function clearSel() {
    G.sel = null;
    G.hexPick = null;
    renderPrompt();
    drawHighlights();
  }

  function selectUnit(uid) {
    const u = unitById(uid);
    G.sel = { unit: uid, hex: u ? u.hex : null };
    G.hexPick = null;
    renderPrompt();
    drawHighlights();
    const n = new Set((G.byUnit.get(uid) || []).map(dest)).size;
    announce(`${counter(uid)} selected: ${n} hex(es) highlighted.`);
  }

  function clickHex(hex, unitId) {
    if (!hex) return;
    showError("");
    if (!canAct()) { showInfo(hex); return; }
    if (G.sel) {
      const here = (G.byUnit.get(G.sel.unit) || []).filter((a) => dest(a) === hex);
      if (here.length === 1) { send([here[0].text]); return; }
      if (here.length > 1) {
        const choices = $("choices");
        choices.innerHTML = "";
        choices.append(el("p", { text: "Which one?" }));
        for (const a of here) choices.append(actionButton(a));
        return;
      }
      if (unitId && G.byUnit.has(unitId) && unitId !== G.sel.unit) { selectUnit(unitId); return; }
      if (hex === G.sel.hex) { clearSel(); return; }
    }
    if (unitId && G.byUnit.has(unitId)) { selectUnit(unitId); showInfo(hex); return; }
    const movers = G.byHexUnits.get(hex) || [];
    G.sel = null;
    if (movers.length === 1) { selectUnit(movers[0]); showInfo(hex); return; }
    G.hexPick = hex;
    renderPrompt();
    drawHighlights();
    showInfo(hex);
  }

  async function showInfo(hex, speak) {
    try {
      const r = await api("GET", gpath(`/hex?hex=${hex}`));
      $("focus-info").textContent = r.words;
      if (speak) announce(r.words);
    } catch (e) {
      $("focus-info").textContent = hex;
    }
  }

  // -- input -------------------------------------------------------------------------------

  function bind() {
    const board = $("board");
    board.addEventListener("mousedown", (e) => {
      if (e.button !== 0 || !svgEl()) return;
      G.drag = { x: e.clientX, y: e.clientY, vb: { ...G.vb }, moved: false };
    });
    window.addEventListener("mousemove", (e) => {
      const svg = svgEl();
      if (svg && G.layout) {
        const [x, y] = svgPoint(svg, e);
        const hex = hexAt(x, y);
        $("hover-info").textContent = hex ? `Hex ${hex}${unitsAt(hex).length ? ": " + unitsAt(hex).map((u) => counter(u.id)).join(", ") : ""}` : "";
      }
      if (!G.drag) return;
      const dx = e.clientX - G.drag.x;
      const dy = e.clientY - G.drag.y;
      if (!G.drag.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
      G.drag.moved = true;
      const scale = G.drag.vb.w / board.clientWidth;
      setViewBox({ ...G.drag.vb, x: G.drag.vb.x - dx * scale, y: G.drag.vb.y - dy * scale });
    });
    window.addEventListener("mouseup", () => { setTimeout(() => { G.drag = null; }, 0); });
    board.addEventListener("click", (e) => {
      const svg = svgEl();
      if (!svg || (G.drag && G.drag.moved)) return;
      const unitG = e.target.closest("g.unit");
      const [x, y] = svgPoint(svg, e);
      const hex = unitG ? unitG.dataset.hex : hexAt(x, y);
      clickHex(hex, unitG ? unitG.dataset.unit : null);
    });
    board.addEventListener("wheel", (e) => {
      const svg = svgEl();
      if (!svg) return;
      e.preventDefault();
      const [x, y] = svgPoint(svg, e);
      zoom(e.deltaY > 0 ? 1.2 : 1 / 1.2, x, y);
    }, { passive: false });
    $("zoom-in").addEventListener("click", () => zoom(1 / 1.4));
    $("zoom-out").addEventListener("click", () => zoom(1.4));
    $("view-all").addEventListener("click", viewAll);
    $("view-active").addEventListener("click", viewActive);
    $("view-moscow").addEventListener("click", () => viewHexes(["5622", "5623", "5723"], 500));
    board.addEventListener("keydown", (e) => {
      const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      if (moves[e.key] && !e.shiftKey) { moveFocus(...moves[e.key]); e.preventDefault(); e.stopPropagation(); }
      else if (e.key === "Enter" || e.key === " ") {
        if (G.focus) { const u = unitsAt(G.focus).find((x) => G.byUnit.has(x.id)); clickHex(G.focus, G.sel ? null : (u ? u.id : null)); }
        e.preventDefault(); e.stopPropagation();
      }
    });
    document.addEventListener("keydown", (e) => {
      const t = e.target;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
      if (e.ctrlKey || e.metaKey || e.altKey || !G.vb) return;
      const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      const step = G.vb.w * 0.15;
      if (k === "ArrowLeft") setViewBox({ ...G.vb, x: G.vb.x - step });
      else if (k === "ArrowRight") setViewBox({ ...G.vb, x: G.vb.x + step });
      else if (k === "ArrowUp") setViewBox({ ...G.vb, y: G.vb.y - step });
      else if (k === "ArrowDown") setViewBox({ ...G.vb, y: G.vb.y + step });
      else if (k === "+" || k === "=") zoom(1 / 1.4);
      else if (k === "-") zoom(1.4);
      else if (k === "w") viewAll();
      else if (k === "a") viewActive();
      else if (k === "Escape") clearSel();
      else if (G.replay && (k === "," || k === "PageUp")) replayGo(G.replay.step - 1);
      else if (G.replay && (k === "." || k === "PageDown")) replayGo(G.replay.step + 1);
      else if (k === "u") undo();
      else if (k === "e") { const a = G.legal.find((x) => x.kind === "end"); if (a && canAct()) send([a.text]); }
      else return;
      e.preventDefault();
    });
    bindReplay(G, replayGo, render, announce);
    $("type-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("type-input").value.trim();
      if (!text) return;
      if (!canAct()) { showError("It is not your decision now."); return; }
      $("type-input").value = "";
      send([text]);
    });
  }

  // -- keyboard focus hex -------------------------------------------------------------------

  function moveFocus(dc, dr) {
    const L = G.layout;
    if (!L) return;
    const f = G.focus || (G.sel && G.sel.hex) || activeHexes()[0] || "5622";
    const c = Math.max(1, Math.min(L.cols, parseInt(f.slice(0, 2), 10) + dc));
    const r = Math.max(1, Math.min(L.rows, parseInt(f.slice(2), 10) + dr));
    G.focus = pad(c) + pad(r);
    const [x, y] = centre(G.focus);
    const vb = G.vb;
    if (x < vb.x + L.r || x > vb.x + vb.w - L.r || y < vb.y + L.r || y > vb.y + vb.h - L.r) centreOn(G.focus);
    drawHighlights();
    showInfo(G.focus, true);
  }

  // -- replay ------------------------------------------------------------------------------

  async function replayGo(step) {
    try {
      const r = await api("GET", gpath(`/replay?step=${Math.max(0, step)}`));
      G.replay = r;
      G.sel = null;
      G.hexPick = null;
      render();
      const e = r.entry;
      announce(`Step ${r.step} of ${r.total}.` + (e ? ` ${cap(e.actor)}: ${e.action}. ${e.events.map((x) => x.text).join(" ")}` : " The start."));
    } catch (e) {
      showError(e.message);
    }
  }

  function renderReplayPanel() {
    const r = G.replay;
    $("prompt").textContent = "Replay: the map shows the position after the step below. Leave the replay to play on.";
    for (const id of ["buttons", "choices", "pool", "stack", "selinfo"]) $(id).innerHTML = "";
    const e = r.entry;
    $("rp-info").textContent = `Step ${r.step} of ${r.total}` + (e ? ` — ${cap(e.actor)}: ${e.action}. ${e.events.map((x) => x.text).join(" ")}` : " — the start of the game.");
    const sel = $("rp-turn");
    sel.innerHTML = "";
    for (const t of r.turns) sel.append(el("option", { value: t.step, text: t.label }));
    const now = [...r.turns].reverse().find((t) => t.step <= r.step);
    if (now) sel.value = String(now.step);
  }

  async function init() {
    G.token = readToken(G.id);
    bind();
    try {
      await load();
    } catch (e) {
      showError(`Cannot open game ${G.id}: ${e.message}`);
      return;
    }
    pollLoop();
  }

  G.centreOn = centreOn;
  window.typhoon = G; // for debugging and tests
  init();
})();
