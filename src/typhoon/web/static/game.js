// Typhoon game page: renders what the server says and sends actions taken from the server's
// list of legal actions. No rule lives here: which units may move where, which attacks are
// possible, the odds and the results all come from the server.
// Plain JavaScript, no build step.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const TyphoonUI = window.TyphoonUI;
  const { el, cap, readToken, whoText, waitingText, fillPhases, bindReplay } = window.TyphoonUI;
  const SVGNS = "http://www.w3.org/2000/svg";
  const PLACE_KINDS = ["place", "rebuild", "reinforce"];
  const UNIT_KINDS = ["lose", "advance", "restore"];

  const G = {
    id: decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || ""),
    token: null,
    view: null,
    legal: [],
    sel: null, // {type: "unit", unit, hex} | {type: "pool", unit}
    attack: null, // {target, chosen: Set of unit ids}
    choices: null, // list of actions to pick from
    focus: null,
    hover: null,
    replay: null,
    numbers: false,
    busy: false,
    hexes: {},
    hexOrder: [],
    marked: new Set(),
    r: 40,
    previewSeq: 0,
    renderedLog: 0,
  };

  // -- helpers ---------------------------------------------------------------------------

  function svgEl(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }

  const pct = (p) => `${Math.round(p * 100)}%`;

  // The JSON API, with this page's token.
  const api = (method, path, body) => window.TyphoonUI.api(method, path, body, G.token);

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

  // -- reading the view ------------------------------------------------------------------

  function cur() { return G.replay ? G.replay.state : G.view; }
  function canAct() { return !!(G.view && G.view.your_turn && !G.replay && !G.view.result); }
  function unitsAt(hex) { return cur().units.filter((u) => u.hex === hex); }
  function unitById(id) { return cur().units.find((u) => u.id === id); }
  function has(kind) { return G.legal.some((a) => a.kind === kind); }
  function acts(pred) { return G.legal.filter(pred); }
  function sideWord(s) { return s === "chance" ? "Die" : cap(s); }

  function attackersFor(target) {
    return acts((a) => a.kind === "attack" && a.target === target).map((a) => a.unit);
  }
  function declaredFor(target) {
    const b = (G.view.battles || []).find((x) => x.hex === target);
    return b ? b.attackers : [];
  }

  function unitLabel(id) {
    const u = unitById(id);
    return u ? `${u.id} ${u.strength}-${u.move}` : id;
  }

  function describeAction(a) {
    switch (a.kind) {
      case "move": {
        const via = a.via && a.via.length ? ` through ${a.via.map(cityOr).join(", ")}` : "";
        return `Move ${a.unit} ${a.src} to ${a.dst}${via}` + (a.path ? ` (path ${a.path.join("-")})` : "");
      }
      case "attack": return `${a.unit} attacks ${a.target}`;
      case "resolve": {
        const b = (G.view.battles || []).find((x) => x.hex === a.target);
        return b ? `Resolve ${b.summary}` : `Resolve the battle in ${a.target}`;
      }
      case "lose": return `${unitLabel(a.unit)} loses a step`;
      case "retreat": return `Retreat ${a.path.join("-")}`;
      case "advance": return a.unit ? `${unitLabel(a.unit)} advances` : "No advance";
      case "standfast": return a.accept ? "Stand fast (lose a step, stay)" : "Retreat instead";
      case "place": return `Place ${a.unit} in ${a.hex}`;
      case "rebuild": return `Rebuild ${a.unit} in ${a.hex}`;
      case "reinforce": return `${a.unit} arrives in ${a.hex}`;
      case "restore": return `Restore ${unitLabel(a.unit)} to full strength`;
      case "setupstandard": return "Standard set-up";
      case "end": return endLabel();
      default: return a.text;
    }
  }

  function cityOr(hex) {
    const c = cur().cities.find((x) => x.hex === hex);
    return c ? `${c.name} (${hex})` : hex;
  }

  function endLabel() {
    const v = G.view;
    if (v.phase.kind === "combat") return v.battles.length ? "Done declaring: fight the battles" : "End the combat phase (no attacks)";
    if (v.phase.kind === "movement") return "End the movement phase";
    if (v.phase.kind === "replacement") return "End the replacement phase";
    return "End";
  }

  // -- view updates ----------------------------------------------------------------------

  function setView(v, { force = false } = {}) {
    if (!force && G.view && v.version < G.view.version) return;
    const changed = !G.view || v.version !== G.view.version;
    G.view = v;
    G.legal = v.legal || [];
    if (changed) {
      G.sel = null;
      G.attack = null;
      G.choices = null;
      showError("");
    }
    if (G.view.stack && canAct()) {
      const m = acts((a) => a.kind === "move" && a.unit === G.view.stack);
      if (m.length) G.sel = { type: "unit", unit: G.view.stack, hex: m[0].src };
    }
    render();
  }

  async function load() {
    const v = await api("GET", `/api/games/${encodeURIComponent(G.id)}?svg=1&legal=1`);
    setView(v, { force: true });
  }

  const page = { setView, announce, showError, canAct };
  const REQ = { svg: true, legal: true };

  function send(texts) {
    return TyphoonUI.sendActions(G, page, texts, REQ, "The game had moved on; this is the current position. ");
  }

  function undo() {
    if (!G.replay) return TyphoonUI.undoLast(G, page, REQ);
  }

  function pollLoop() {
    return TyphoonUI.pollGame(G, page, "svg=1&legal=1", true);
  }

  // -- rendering -------------------------------------------------------------------------

  function render() {
    document.body.classList.toggle("replaying", !!G.replay);
    const v = cur();
    const svgText = G.replay ? G.replay.svg : G.view.svg;
    const board = $("board");
    board.innerHTML = svgText;
    const svg = board.querySelector("svg");
    svg.classList.toggle("numbers", G.numbers);
    svg.setAttribute("aria-hidden", "false");
    G.r = parseFloat(svg.dataset.r || "40");
    G.hexes = {};
    G.hexOrder = [];
    for (const g of svg.querySelectorAll("g.hex")) {
      G.hexes[g.dataset.hex] = { cx: parseFloat(g.dataset.cx), cy: parseFloat(g.dataset.cy) };
      G.hexOrder.push(g.dataset.hex);
    }
    if (!G.focus || !G.hexes[G.focus]) {
      const mine = v.units.find((u) => u.hex && G.view.you.includes(u.side)) || v.units.find((u) => u.hex);
      G.focus = mine ? mine.hex : G.hexOrder[0];
    }
    renderHeader();
    renderTrack(v);
    if (G.replay) renderReplayPanel(); else renderPrompt();
    renderLog();
    drawOverlay();
    updateFocusInfo();
  }

  function renderHeader() {
    const v = G.view;
    $("edition").textContent = v.title;
    $("rules").textContent = `Edition in force: ${v.rules}`;
    document.title = `Typhoon — ${v.title} — ${v.id}`;
    let who = whoText(v);
    if (v.mode === "remote") who += " · remote opponent";
    $("who").textContent = who;
    $("record-link").href = `/api/games/${encodeURIComponent(v.id)}/record`;
    const share = $("share");
    share.innerHTML = "";
    if (G.token) {
      share.append(el("p", {}, "Your secret link (keep it to come back): ",
        el("input", { value: `${location.origin}/g/${v.id}#t=${G.token}`, readonly: true, "aria-label": "Your secret link", onfocus: (e) => e.target.select() })));
    }
    share.append(el("p", {}, el("a", { href: `/g/${v.id}`, text: "Link for spectators (watch and replay only)" })));
  }

  function renderTrack(v) {
    const turns = $("turns");
    turns.innerHTML = "";
    for (const t of v.turn_track) {
      const cls = [t.mud ? "mud" : "", t.turn === v.turn ? "now" : "", t.turn < v.turn ? "past" : ""].join(" ");
      const label = `Turn ${t.turn}, ${t.label}${t.mud ? ", mud" : ""}${t.turn === v.turn ? ", current" : ""}`;
      turns.append(el("li", { class: cls, "aria-label": label, "aria-current": t.turn === v.turn ? "step" : false },
        `${t.turn}: ${t.label}${t.mud ? " (mud)" : ""}`));
    }
    fillPhases(v);
    const st = $("status");
    st.innerHTML = "";
    const parts = [];
    parts.push(v.turn ? `Turn ${v.turn} (${v.turn_label})${v.mud ? ", mud" : ""}` : "Set-up");
    parts.push(v.phase.name);
    if (v.phase.kind === "replacement") parts.push(`${v.replacements} replacement(s) left`);
    st.append(parts.join(" · "));
    if (!v.result) {
      const tm = v.to_move;
      st.append(el("br"), el("span", { class: `side-${tm}` }, tm === "chance" ? "Die roll due" : `${cap(tm)} to decide`));
    }
  }

  function banner(text, cls) { return el("div", { class: `banner ${cls || ""}` }, text); }

  function renderPrompt() {
    const v = G.view;
    const prompt = $("prompt");
    const buttons = $("buttons");
    const choices = $("choices");
    const pool = $("pool");
    buttons.innerHTML = "";
    choices.innerHTML = "";
    pool.innerHTML = "";
    if (!G.attack) $("preview").innerHTML = "";
    if (v.result) {
      prompt.textContent = "";
      prompt.append(banner(v.result_text || `Game over: ${v.result}`, "over"));
      fillDatalist();
      return;
    }
    if (!canAct()) {
      prompt.textContent = waitingText(v);
      if (v.can_undo) buttons.append(el("button", { type: "button", onclick: undo, text: "Undo (U)" }));
      fillDatalist();
      return;
    }
    prompt.textContent = promptText();
    const roll = lastRoll();
    if (roll) prompt.append(el("div", { class: "banner roll", id: "last-roll" }, roll));
    // Buttons for actions that are not a place on the map.
    for (const a of acts((x) => x.kind === "setupstandard")) {
      buttons.append(el("button", { type: "button", id: "setup-std", class: "primary", onclick: () => send([a.text]), text: "Standard set-up" }));
    }
    for (const a of acts((x) => x.kind === "standfast")) {
      buttons.append(el("button", { type: "button", onclick: () => send([a.text]), text: describeAction(a) }));
    }
    const listed = acts((x) => ["resolve", "lose", "advance", "restore"].includes(x.kind) || (x.kind === "retreat" && G.legal.length <= 12));
    listed.forEach((a) => {
      buttons.append(el("button", { type: "button", onclick: () => send([a.text]), text: describeAction(a), "data-action": a.text }));
    });
    for (const a of acts((x) => x.kind === "end")) {
      buttons.append(el("button", { type: "button", id: "end-btn", onclick: () => send([a.text]), text: endLabel() + " (E)" }));
    }
    if (v.can_undo) buttons.append(el("button", { type: "button", id: "undo-btn", onclick: undo, text: "Undo (U)" }));
    if (G.sel || G.attack) buttons.append(el("button", { type: "button", onclick: clearSel, text: "Cancel (Esc)" }));
    // Units to place (set-up, rebuilds, reinforcements).
    const placeUnits = [...new Set(acts((x) => PLACE_KINDS.includes(x.kind)).map((x) => x.unit))];
    if (placeUnits.length) {
      pool.append(el("span", { text: "Units to place: " }));
      for (const u of placeUnits) {
        const spec = unitById(u);
        const pressed = G.sel && G.sel.type === "pool" && G.sel.unit === u;
        const label = spec ? `${u} ${spec.full}-${spec.move}` : u;
        pool.append(el("button", {
          type: "button", class: pressed ? "sel" : "", "aria-pressed": pressed ? "true" : "false", "data-unit": u,
          title: spec ? spec.name : u, text: label,
          onclick: () => { G.sel = pressed ? null : { type: "pool", unit: u }; renderPrompt(); drawOverlay(); announce(pressed ? "Cancelled." : `${spec ? spec.name : u} selected: choose a highlighted hex.`); },
        }));
      }
    }
    if (G.choices) {
      choices.append(el("span", { text: "Choose: " }));
      G.choices.forEach((a, i) => {
        choices.append(el("button", { type: "button", "data-action": a.text, onclick: () => send([a.text]), text: `${i + 1}. ${describeAction(a)}` }));
      });
    }
    fillDatalist();
  }

  function promptText() {
    const v = G.view;
    if (has("setupstandard") || has("place")) {
      return G.sel ? `Click a highlighted hex to place ${G.sel.unit}.` : "Set up: use the standard set-up, or pick a unit below and click a highlighted hex.";
    }
    if (has("move")) {
      if (v.stack) return `${v.stack} shares a hex and must move off first: click a green hex.`;
      if (G.sel) return `${unitLabel(G.sel.unit)} selected: click a green hex to move it there (Esc to cancel).`;
      return "Click a unit with a dashed blue outline to see where it can go, then click a green hex. End the phase when done.";
    }
    if (has("attack") || (v.phase.kind === "combat" && v.step === "declare")) {
      if (G.attack) return `Attack on ${G.attack.target}: click orange units to add or remove attackers, then declare (D).`;
      const n = v.battles.length;
      return `Click an enemy unit outlined in red to plan an attack.${n ? ` ${n} attack(s) declared.` : ""} When done, end the declarations to fight.`;
    }
    if (has("resolve")) return "Choose the next battle to resolve: click a defender outlined in red, or a button.";
    if (has("lose")) {
      const b = v.battle;
      const owed = b && b.owed > 0 ? ` (${b.owed} more strength point(s) to lose)` : "";
      return `Choose the attacking unit that loses a step${owed}.`;
    }
    if (has("retreat")) return "Choose where the defender retreats: click a highlighted hex.";
    if (has("advance")) return "One attacker may advance into the emptied hex: click it, or choose no advance.";
    if (has("standfast")) return "The defender may stand fast (and lose a step) instead of retreating.";
    if (has("rebuild") || has("restore") || has("reinforce")) {
      return `${v.replacements} replacement(s) left: pick an eliminated unit below and click a highlighted hex to rebuild it, or click a half-strength unit to restore it.`;
    }
    if (has("end")) return endLabel() + ".";
    return "";
  }

  function lastRoll() {
    // The die roll of the battle just fought (shown until the next decision after it).
    const log = G.view.log;
    for (let i = log.length - 1; i >= 0 && i >= log.length - 3; i--) {
      const e = log[i];
      if (e.actor === "chance") return e.events.map((x) => x.text).join(" ");
    }
    return null;
  }

  function fillDatalist() {
    const dl = $("legal-list");
    dl.innerHTML = "";
    for (const a of G.legal.slice(0, 400)) dl.append(el("option", { value: a.text }));
  }

  function renderLog() {
    const v = G.view;
    const ol = $("log");
    ol.innerHTML = "";
    const mine = v.you;
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
        if (!mine.includes(e.actor)) lastExpl = e.explanation;
      }
      ol.append(li);
    }
    G.renderedLog = v.actions;
    ol.scrollTop = ol.scrollHeight;
    $("ai-box").hidden = !lastExpl;
    $("ai-text").textContent = lastExpl || "";
  }

  // -- the overlay: highlights drawn over the map ------------------------------------------

  function hexPoints(hex, scale) {
    const h = G.hexes[hex];
    const r = G.r * (scale || 0.93);
    const pts = [];
    for (let k = 0; k < 6; k++) {
      const a = (Math.PI / 3) * k;
      pts.push(`${(h.cx + r * Math.cos(a)).toFixed(1)},${(h.cy + r * Math.sin(a)).toFixed(1)}`);
    }
    return pts.join(" ");
  }

  function mark(layer, hex, cls, scale) {
    if (!G.hexes[hex]) return;
    const key = `${cls}@${hex}@${scale || ""}`;
    if (G.marked.has(key)) return;
    G.marked.add(key);
    layer.append(svgEl("polygon", { class: `hl ${cls}`, points: hexPoints(hex, scale), "data-mark": cls, "data-for": hex }));
  }

  function drawPath(layer, path) {
    const pts = path.filter((h) => G.hexes[h]).map((h) => `${G.hexes[h].cx},${G.hexes[h].cy}`);
    if (pts.length < 2) return;
    layer.append(svgEl("polyline", { class: "path", points: pts.join(" ") }));
    for (const h of path.slice(1)) {
      if (G.hexes[h]) layer.append(svgEl("circle", { class: "pathdot", cx: G.hexes[h].cx, cy: G.hexes[h].cy, r: 5 }));
    }
  }

  function drawOverlay() {
    const layer = $("board").querySelector("#overlay");
    if (!layer) return;
    layer.innerHTML = "";
    G.marked = new Set();
    const pointer = G.hover || G.focus;
    if (!G.replay) {
      drawRecent(layer);
      if (canAct()) {
        if (G.sel && G.sel.type === "unit") {
          mark(layer, G.sel.hex, "sel");
          const ms = acts((a) => a.kind === "move" && a.unit === G.sel.unit);
          for (const a of ms) if (a.dst !== G.sel.hex) mark(layer, a.dst, "reach");
          const onPtr = ms.find((a) => a.dst === pointer);
          if (onPtr && onPtr.path) drawPath(layer, onPtr.path);
        } else if (G.sel && G.sel.type === "pool") {
          for (const a of acts((x) => PLACE_KINDS.includes(x.kind) && x.unit === G.sel.unit)) mark(layer, a.hex, "reach");
        } else if (G.attack) {
          mark(layer, G.attack.target, "target-sel");
          for (const u of declaredFor(G.attack.target)) { const s = unitById(u); if (s && s.hex) mark(layer, s.hex, "declared"); }
          for (const u of attackersFor(G.attack.target)) {
            const s = unitById(u);
            if (s && s.hex) mark(layer, s.hex, G.attack.chosen.has(u) ? "chosen" : "attacker");
          }
        } else {
          const srcs = new Set(acts((a) => a.kind === "move").map((a) => a.src));
          for (const h of srcs) mark(layer, h, "movable");
          const targets = new Set(acts((a) => a.kind === "attack" || a.kind === "resolve").map((a) => a.target));
          for (const h of targets) mark(layer, h, "target");
          for (const b of G.view.battles || []) {
            if (!b.hex) continue;
            mark(layer, b.hex, "declared", 0.8);
            for (const u of b.attackers) { const s = unitById(u); if (s && s.hex) mark(layer, s.hex, "declared", 0.8); }
          }
          for (const a of acts((x) => UNIT_KINDS.includes(x.kind) && x.unit)) {
            const s = unitById(a.unit);
            if (s && s.hex) mark(layer, s.hex, "act");
          }
          const rts = acts((a) => a.kind === "retreat");
          for (const a of rts) mark(layer, a.dst, "reach");
          const onPtr = rts.find((a) => a.dst === pointer);
          if (onPtr && G.view.battle) drawPath(layer, [G.view.battle.hex, ...onPtr.path]);
          if (G.view.battle && (has("advance") || has("retreat") || has("lose"))) mark(layer, G.view.battle.hex, "target-sel", 0.8);
        }
      }
    }
    if (G.focus) mark(layer, G.focus, "focus", 0.99);
    updateFocusInfo();
  }

  function drawRecent(layer) {
    // Arrows for the other side's moves, retreats and advances since your last decision
    // (each event says where the unit came from).
    const v = G.view;
    if (!v.you.length) return;
    let lastMine = 0;
    for (const e of v.log) if (v.you.includes(e.actor)) lastMine = e.n;
    if (!lastMine) return;
    for (const e of v.log) {
      if (e.n <= lastMine || v.you.includes(e.actor)) continue;
      for (const ev of e.events) {
        const d = ev.data || {};
        const to = { move: [d.to], retreat: d.path, advance: [d.hex] }[ev.kind];
        const hexes = to ? [d.from, ...to] : [];
        if (hexes.length < 2 || !hexes.every((h) => G.hexes[h])) continue;
        const points = hexes.map((h) => `${G.hexes[h].cx},${G.hexes[h].cy}`).join(" ");
        layer.append(svgEl("polyline", { class: "recent", points }));
      }
    }
  }

  // -- acting on a hex (mouse and keyboard share this) ------------------------------------

  function clearSel() {
    G.sel = null;
    G.attack = null;
    G.choices = null;
    $("preview").innerHTML = "";
    renderPrompt();
    drawOverlay();
    announce("Selection cleared.");
  }

  function choose(list) {
    G.choices = list;
    renderPrompt();
    drawOverlay();
    announce(`${list.length} choices: ` + list.map((a, i) => `${i + 1}: ${describeAction(a)}`).join("; ") + ". Press a number.");
  }

  // What a click (or Enter) on a hex does, from the legal actions: {hint, run}, or null when
  // nothing. activate() runs it and the focus description shows its hint, so they agree.
  function planFor(hex) {
    if (!canAct()) return null;
    const sendOrChoose = (list) => () => (list.length === 1 ? send([list[0].text]) : choose(list));
    if (G.sel && G.sel.type === "unit") {
      if (hex === G.sel.hex && !G.view.stack) return { hint: `${G.sel.unit} is selected; Enter cancels.`, run: clearSel };
      const ms = acts((a) => a.kind === "move" && a.unit === G.sel.unit && a.dst === hex);
      if (ms.length) {
        const by = ms[0].path ? ` by ${ms[0].path.join("-")}` : "";
        return { hint: `Enter moves ${G.sel.unit} here${by}.`, run: sendOrChoose(ms) };
      }
    }
    if (G.sel && G.sel.type === "pool") {
      const ps = acts((a) => PLACE_KINDS.includes(a.kind) && a.unit === G.sel.unit && a.hex === hex);
      if (ps.length) return { hint: `Enter places ${G.sel.unit} here.`, run: () => send([ps[0].text]) };
    }
    if (G.attack) {
      if (hex === G.attack.target) return { hint: "Enter cancels this attack.", run: clearSel };
      const here = unitsAt(hex).map((u) => u.id);
      const elig = attackersFor(G.attack.target).filter((u) => here.includes(u));
      if (elig.length) return { hint: "Enter adds or removes this unit from the attack.", run: () => toggleAttackers(elig) };
    }
    // Nothing selected (or the click was elsewhere): what can start here?
    const movers = acts((a) => a.kind === "move" && a.src === hex);
    if (movers.length) return { hint: "Enter selects this unit to move.", run: () => selectMover(hex, movers) };
    if (acts((a) => a.kind === "attack" && a.target === hex).length) {
      return { hint: "Enter plans an attack on it.", run: () => startAttack(hex) };
    }
    const res = acts((a) => a.kind === "resolve" && a.target === hex);
    if (res.length) return { hint: "Enter resolves this battle.", run: () => send([res[0].text]) };
    const ids = unitsAt(hex).map((u) => u.id);
    const byUnit = acts((a) => UNIT_KINDS.includes(a.kind) && ids.includes(a.unit));
    if (byUnit.length) {
      const hint = byUnit.length === 1 ? `Enter: ${describeAction(byUnit[0])}.` : `Enter lists ${byUnit.length} choices.`;
      return { hint, run: sendOrChoose(byUnit) };
    }
    const rts = acts((a) => a.kind === "retreat" && a.dst === hex);
    if (rts.length) return { hint: "Enter retreats the defender here.", run: sendOrChoose(rts) };
    const places = acts((a) => PLACE_KINDS.includes(a.kind) && a.hex === hex);
    if (places.length) {
      const units = [...new Set(places.map((a) => a.unit))];
      if (units.length === 1) return { hint: `Enter places ${units[0]} here.`, run: () => send([places[0].text]) };
      return {
        hint: "Pick the unit to place from the list first.",
        run: () => {
          announce("Pick the unit to place from the list of units first.");
          showError("Pick a unit to place from the list first.");
        },
      };
    }
    return null;
  }

  function activate(hex) {
    if (!hex) return;
    G.focus = hex;
    const plan = planFor(hex);
    if (canAct()) G.choices = null;
    if (plan) { plan.run(); return; }
    if (canAct() && (G.sel || G.attack)) clearSel();
    drawOverlay();
    updateFocusInfo();
    announce(hexWords(hex));
  }

  function selectMover(hex, movers) {
    const unit = G.view.stack && movers.some((m) => m.unit === G.view.stack) ? G.view.stack : movers[0].unit;
    G.sel = { type: "unit", unit, hex };
    G.attack = null;
    renderPrompt();
    drawOverlay();
    updateFocusInfo();
    const n = new Set(movers.filter((m) => m.unit === unit).map((m) => m.dst)).size;
    announce(`${unitLabel(unit)} selected: it can reach ${n} hex(es). Move the focus to one and press Enter.`);
  }

  function toggleAttackers(units) {
    for (const u of units) {
      if (G.attack.chosen.has(u)) G.attack.chosen.delete(u); else G.attack.chosen.add(u);
      announce(`${unitLabel(u)} ${G.attack.chosen.has(u) ? "added to" : "removed from"} the attack.`);
    }
    drawOverlay();
    updatePreview();
  }

  function startAttack(target) {
    G.sel = null;
    G.attack = { target, chosen: new Set(attackersFor(target)) };
    renderPrompt();
    drawOverlay();
    updatePreview();
    const d = unitsAt(target)[0];
    announce(`Planning an attack on ${d ? d.words : target}. Possible attackers: ${attackersFor(target).map(unitLabel).join(", ")}; all are chosen. Odds follow.`);
  }

  async function updatePreview() {
    const box = $("preview");
    if (!G.attack) { box.innerHTML = ""; return; }
    const target = G.attack.target;
    const all = [...declaredFor(target), ...G.attack.chosen];
    const seq = ++G.previewSeq;
    box.innerHTML = "";
    if (!all.length) {
      box.append(el("p", { text: "Choose at least one attacker (orange)." }));
      return;
    }
    try {
      const p = await api("GET", `/api/games/${encodeURIComponent(G.id)}/preview?target=${target}&attackers=${all.join(",")}`);
      if (seq !== G.previewSeq || !G.attack) return;
      renderPreview(p);
    } catch (e) {
      if (seq === G.previewSeq) box.append(el("p", { class: "error", text: e.message }));
    }
  }

  function renderPreview(p) {
    const box = $("preview");
    box.innerHTML = "";
    const defender = unitById(p.defender);
    box.append(el("h3", { text: `${p.attackers.join(" + ")} against ${p.defender} in ${p.hex}` }));
    if (defender) box.append(el("p", { text: defender.words }));
    box.append(el("p", { id: "odds", text: `Odds: ${p.odds_text}.` }));
    const base = p.column >= 1 ? `${p.column}:1` : "below 1:1";
    const ul = el("ul", { "aria-label": "Column shifts" });
    ul.append(el("li", { text: `Attack ${p.attack} against defence ${p.defense}: ${base} column.` }));
    for (const s of p.shifts) ul.append(el("li", { text: `One column left: ${s}.` }));
    ul.append(el("li", { text: p.no_effect ? "Final: below 1:1, the attack would have no effect." : `Final column: ${p.final}:1.` }));
    box.append(ul);
    if (!p.no_effect) {
      const t = el("table", { "aria-label": "Result by die roll" });
      const head = el("tr", {}, el("th", { scope: "row", text: "Die" }));
      const row = el("tr", {}, el("th", { scope: "row", text: "Result" }));
      p.by_die.forEach((r, i) => { head.append(el("td", { text: String(i + 1) })); row.append(el("td", { text: r })); });
      t.append(head, row);
      box.append(t);
      const rt = el("table", { "aria-label": "Probability of each result" });
      for (const [r, prob] of Object.entries(p.results)) {
        rt.append(el("tr", {}, el("th", { scope: "row", text: r }), el("td", { text: pct(prob) }),
          el("td", {}, el("span", { class: "bar", style: `width:${Math.round(prob * 120)}px` }))));
      }
      box.append(rt);
      const outs = Object.entries(p.defender_outcomes).map(([k, prob]) => `${k.replace(/_/g, " ")} ${pct(prob)}`).join(", ");
      box.append(el("p", { text: `Defender: ${outs}.` }));
      box.append(el("p", { text: `An attacker loses a step: ${pct(p.attacker_loses_step)}. Expected losses: defender ${p.defender_loss_points.toFixed(2)}, attacker ${p.attacker_loss_points.toFixed(2)} strength points.` }));
    }
    for (const n of p.notes) box.append(el("p", { class: "note", text: n }));
    const newOnes = [...G.attack.chosen];
    box.append(el("div", { class: "buttons" },
      el("button", {
        type: "button", class: "primary", id: "declare-btn", disabled: !newOnes.length,
        onclick: declare, text: `Declare this attack (D)`,
      }),
      el("button", { type: "button", onclick: clearSel, text: "Cancel (Esc)" })));
    announce(`Odds ${p.odds_text}. ` + (p.no_effect ? "" : Object.entries(p.results).map(([r, prob]) => `${r} ${pct(prob)}`).join(", ")));
  }

  function declare() {
    if (!G.attack || !G.attack.chosen.size) return;
    const target = G.attack.target;
    send([...G.attack.chosen].map((u) => `attack ${u} ${target}`));
  }

  // -- words for the focus hex ------------------------------------------------------------

  function hexWords(hex) {
    const v = cur();
    return (v.hexes && v.hexes[hex]) || hex;
  }

  function hintFor(hex) {
    const plan = planFor(hex);
    return plan ? ` ${plan.hint}` : "";
  }

  function updateFocusInfo() {
    if (!G.focus) return;
    $("focus-info").textContent = `Focus: ${hexWords(G.focus)}.${hintFor(G.focus)}`;
  }

  // -- replay -------------------------------------------------------------------------------

  async function replayGo(step) {
    try {
      const r = await api("GET", `/api/games/${encodeURIComponent(G.id)}/replay?step=${Math.max(0, step)}`);
      G.replay = r;
      render();
      const e = r.entry;
      announce(`Step ${r.step} of ${r.total}.` + (e ? ` ${sideWord(e.actor)}: ${e.action}. ${e.events.map((x) => x.text).join(" ")}` : " The start."));
    } catch (e) {
      showError(e.message);
    }
  }

  function renderReplayPanel() {
    const r = G.replay;
    $("prompt").textContent = "Replay: the board shows the position after the step below. Leave the replay to play on.";
    $("buttons").innerHTML = "";
    $("choices").innerHTML = "";
    $("pool").innerHTML = "";
    $("preview").innerHTML = "";
    const e = r.entry;
    $("rp-info").textContent = `Step ${r.step} of ${r.total}` + (e ? ` — ${sideWord(e.actor)}: ${e.action}. ${e.events.map((x) => x.text).join(" ")}` : " — the start of the game.");
    const sel = $("rp-turn");
    sel.innerHTML = "";
    for (const t of r.turns) {
      const opt = el("option", { value: t.step, text: t.turn ? `Turn ${t.turn} (${t.label})` : "Set-up" });
      sel.append(opt);
    }
    const currentTurn = [...r.turns].reverse().find((t) => t.step <= r.step);
    if (currentTurn) sel.value = String(currentTurn.step);
  }

  // -- keyboard -----------------------------------------------------------------------------

  function moveFocus(dc, dr) {
    const f = G.focus || G.hexOrder[0];
    let c = parseInt(f.slice(0, 2), 10) + dc;
    let r = parseInt(f.slice(2), 10) + dr;
    const id = String(c).padStart(2, "0") + String(r).padStart(2, "0");
    if (!G.hexes[id]) {
      // the shorter columns of some maps: try the row above
      r -= 1;
      const alt = String(c).padStart(2, "0") + String(r).padStart(2, "0");
      if (dc && G.hexes[alt]) { G.focus = alt; } else return;
    } else {
      G.focus = id;
    }
    G.hover = null;
    drawOverlay();
    updateFocusInfo();
    announce(hexWords(G.focus) + "." + hintFor(G.focus));
  }

  function onBoardKey(e) {
    const k = e.key;
    if (k === "ArrowUp") { moveFocus(0, -1); e.preventDefault(); }
    else if (k === "ArrowDown") { moveFocus(0, 1); e.preventDefault(); }
    else if (k === "ArrowLeft") { moveFocus(-1, 0); e.preventDefault(); }
    else if (k === "ArrowRight") { moveFocus(1, 0); e.preventDefault(); }
    else if (k === "Enter" || k === " ") { activate(G.focus); e.preventDefault(); }
  }

  function onKey(e) {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    if (k === "Escape") { if (G.sel || G.attack || G.choices) clearSel(); return; }
    if (G.replay) {
      if (k === "," || k === "PageUp") replayGo(G.replay.step - 1);
      else if (k === "." || k === "PageDown") replayGo(G.replay.step + 1);
      return;
    }
    const lower = k.length === 1 ? k.toLowerCase() : k;
    if (lower === "e") { const a = acts((x) => x.kind === "end"); if (a.length && canAct()) send([a[0].text]); }
    else if (lower === "u") undo();
    else if (lower === "d") declare();
    else if (lower === "n") { $("numbers").checked = !$("numbers").checked; toggleNumbers(); }
    else if (lower === "t") { e.preventDefault(); $("type-input").focus(); }
    else if (lower === "l") {
      const last = G.view.log.slice(-4).map((x) => `${sideWord(x.actor)}: ${x.events.map((y) => y.text).join(" ") || x.action}`);
      announce(last.join(" ") || "No events yet.");
    } else if (lower === "s") announce(`${$("status").textContent}. ${$("prompt").textContent}`);
    else if (lower === "h" || k === "?") announce($("board").getAttribute("aria-label"));
    else if (/^[1-9]$/.test(k) && G.choices) {
      const a = G.choices[parseInt(k, 10) - 1];
      if (a) send([a.text]);
    }
  }

  function toggleNumbers() {
    G.numbers = $("numbers").checked;
    const svg = $("board").querySelector("svg");
    if (svg) svg.classList.toggle("numbers", G.numbers);
    try { localStorage.setItem("typhoon:numbers", G.numbers ? "1" : "0"); } catch (e) { /* ignore */ }
  }

  // -- start --------------------------------------------------------------------------------

  function bind() {
    const board = $("board");
    board.addEventListener("click", (e) => {
      const g = e.target.closest("[data-hex]");
      if (g) activate(g.dataset.hex);
    });
    board.addEventListener("mouseover", (e) => {
      const g = e.target.closest("[data-hex]");
      const h = g ? g.dataset.hex : null;
      if (h !== G.hover) { G.hover = h; if (G.sel || has("retreat")) drawOverlay(); }
    });
    board.addEventListener("mouseleave", () => { G.hover = null; drawOverlay(); });
    board.addEventListener("keydown", onBoardKey);
    document.addEventListener("keydown", onKey);
    $("numbers").addEventListener("change", toggleNumbers);
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
    bindReplay(G, replayGo, render, announce);
  }

  async function init() {
    G.token = readToken(G.id);
    try { G.numbers = localStorage.getItem("typhoon:numbers") === "1"; } catch (e) { G.numbers = false; }
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

  window.typhoon = G; // for debugging and tests
  init();
})();
