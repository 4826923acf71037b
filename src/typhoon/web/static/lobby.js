// Typhoon lobby: start a game, load a record, list the games on this server.
// Plain JavaScript, no build step. Every rule lives on the server.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const { el, api, cap, plain, wordsWithSources, keyWords } = window.TyphoonUI;
  let META = null;

  function remember(id, token) {
    try { localStorage.setItem("typhoon:token:" + id, token); } catch (e) { /* private mode */ }
  }

  // The game chosen in the lobby (the server's default game first). The lobby knows no game by
  // name: what each needs (its word for an edition, a notice) comes from /api/meta.
  function game() {
    const key = $("game").value;
    return META.games.find((g) => g.key === key) || META.games[0];
  }

  function fillGames() {
    const sel = $("game");
    sel.innerHTML = "";
    for (const g of META.games) sel.append(el("option", { value: g.key, text: g.title, selected: g.key === META.default_game }));
  }

  function fillEditions() {
    const g = game();
    $("edition-label").textContent = g.edition_label;
    $("game-note").innerHTML = "";
    if (g.reconstruction) $("game-note").append(wordsWithSources(g.reconstruction, "notice-words"));
    $("game-note").hidden = !g.reconstruction;
    const sel = $("edition");
    sel.innerHTML = "";
    for (const ed of g.editions) {
      sel.append(el("option", { value: ed.key, text: plain(ed.title), selected: ed.key === g.default_edition }));
    }
    fillOptions();
    fillLevels();
  }

  function fillOptions() {
    const ed = game().editions.find((e) => e.key === $("edition").value);
    const box = $("options");
    box.innerHTML = "";
    for (const o of ed.options) {
      const id = "opt-" + o.name;
      const sel = el("select", { id, "data-option": o.name, "aria-describedby": id + "-note" });
      for (const c of o.choices) sel.append(el("option", { value: c, text: keyWords(c) + (c === o.default ? " (default)" : ""), selected: c === o.default }));
      // The option's name in words (a trailing game key, as in "mud_soviet_<key>", says nothing).
      const name = keyWords(o.name.replace(new RegExp(`_${game().key}$`), ""));
      const note = wordsWithSources(o.note, "note");
      note.id = id + "-note";
      box.append(el("div", { class: "opt" }, el("label", { for: id, text: name + " " }), sel, note));
    }
  }

  // The computer levels as a short ladder, weakest first, in words (issue 15). A level the
  // framework does not describe here is a game's own (offered only with its game); the search
  // budgets (search:16 ... search:512) are for experiments, behind "All levels".
  const LADDER = [
    ["random", "Easy — random moves (instant)"],
    ["heuristic", "Normal — heuristic: rules of thumb (about a second a turn)"],
    ["search:fast", "Strong, quick — a short search (a few seconds a turn)"],
    ["search", "Strong — search: plays each plan out before choosing (up to half a minute a turn)"],
    ["search:strong", "Strongest — a deeper search (up to a minute a turn)"],
  ];
  const BUDGET_RE = /^search:(\d+)$/;

  function ladder(levels) {
    const known = new Map(LADDER);
    const out = LADDER.filter(([k]) => levels.includes(k));
    const own = levels.filter((l) => !known.has(l) && !BUDGET_RE.test(l));
    // A game's own player plays above the heuristic it builds on: after "Normal".
    const at = out.findIndex(([k]) => k === "heuristic") + 1;
    out.splice(at, 0, ...own.map((l) => [l, `${cap(l)} — this game's own computer player (a few seconds a turn)`]));
    const budgets = levels.filter((l) => BUDGET_RE.test(l)).sort((a, b) => BUDGET_RE.exec(a)[1] - BUDGET_RE.exec(b)[1]);
    return { main: out, more: budgets.map((l) => [l, `Search with ${BUDGET_RE.exec(l)[1]} roll-outs per plan`]) };
  }

  function fillLevel(id, levels, all) {
    const sel = $(id);
    const was = sel.value;
    const { main, more } = ladder(levels);
    sel.innerHTML = "";
    const pick = levels.includes(was) ? was : (levels.includes(META.default_level) ? META.default_level : main[0] && main[0][0]);
    for (const [k, words] of main) sel.append(el("option", { value: k, text: words, selected: k === pick }));
    if (all && more.length) {
      const grp = el("optgroup", { label: "Search budgets (for experiments)" });
      for (const [k, words] of more) grp.append(el("option", { value: k, text: words, selected: k === pick }));
      sel.append(grp);
    }
    if (!sel.value && main.length) sel.value = main.some(([k]) => k === META.default_level) ? META.default_level : main[0][0];
  }

  // The chosen game's levels; a loaded record's game is not known before it is read, so the
  // upload offers the levels every game has.
  function fillLevels() {
    fillLevel("level", game().levels || META.levels, $("level-all").open);
    const common = META.games.reduce((acc, g) => acc.filter((l) => (g.levels || META.levels).includes(l)), META.levels);
    fillLevel("up-level", common, false);
  }

  function mode() { return document.querySelector("input[name=mode]:checked").value; }

  function showLinks(out) {
    const box = $("links");
    box.innerHTML = "";
    const origin = location.origin;
    if (out.mode === "remote") {
      box.append(el("p", { text: "Two secret links: keep yours, send the other to your opponent. Anyone with a link plays that side." }));
      for (const side of ["german", "soviet"]) {
        const url = origin + out.links[side];
        const id = "link-" + side;
        box.append(el("div", { class: "row" },
          el("label", { for: id, text: (side === out.side ? "Your link (" : "Opponent's link (") + side + ")" }),
          el("input", { id, value: url, readonly: true, onfocus: (e) => e.target.select() })));
      }
      box.append(el("p", {}, el("a", { href: out.links[out.side], id: "open-mine", text: "Open my side now" })));
      box.hidden = false;
    }
  }

  // A game was created (new or loaded): keep its token, then open it, or show both links.
  function opened(out) {
    remember(out.id, out.token);
    if (out.mode === "remote") { showLinks(out); listGames(); }
    else location.href = Object.values(out.links)[0];
  }

  async function submitNew(ev) {
    ev.preventDefault();
    $("new-error").textContent = "";
    const options = {};
    for (const s of document.querySelectorAll("#options select")) options[s.dataset.option] = s.value;
    const body = { game: game().key, mode: mode(), side: $("side").value, level: $("level").value, edition: $("edition").value, options };
    const seed = $("seed").value.trim();
    if (seed !== "") body.seed = parseInt(seed, 10);
    $("start").disabled = true;
    try {
      opened(await api("POST", "/api/games", body));
    } catch (e) {
      $("new-error").textContent = e.message;
    } finally {
      $("start").disabled = false;
    }
  }

  async function submitUpload(ev) {
    ev.preventDefault();
    $("up-error").textContent = "";
    const fd = new FormData($("upload"));
    try {
      opened(await api("POST", "/api/records", fd));
    } catch (e) {
      $("up-error").textContent = e.message;
    }
  }

  async function listGames() {
    const tbody = document.querySelector("#games tbody");
    try {
      const out = await api("GET", "/api/games");
      tbody.innerHTML = "";
      if (!out.games.length) tbody.append(el("tr", {}, el("td", { colspan: 6, text: "No games yet." })));
      for (const g of out.games) {
        let token = null;
        try { token = localStorage.getItem("typhoon:token:" + g.id); } catch (e) { token = null; }
        const href = "/g/" + g.id + (token ? "#t=" + token : "");
        const ai = Object.entries(g.ai).map(([s, l]) => `${s} AI: ${l}`).join(", ");
        tbody.append(el("tr", {},
          el("td", { text: `${g.id} (${g.edition_text || g.edition})` }),
          el("td", { text: g.mode + (ai ? ` — ${ai}` : "") }),
          el("td", { text: g.turn || "set-up" }),
          el("td", { text: g.phase.replace(/_/g, " ") }),
          el("td", { text: g.result || "in progress" }),
          el("td", {}, el("a", { href, text: token ? "Continue" : "Watch / replay" }),
            token ? " " : "", token ? el("button", { type: "button", class: "delete", "data-delete": g.id, "aria-label": `Delete game ${g.id}`, onclick: () => deleteGame(g.id, token), text: "Delete" }) : "")));
      }
    } catch (e) {
      tbody.innerHTML = "";
      tbody.append(el("tr", {}, el("td", { colspan: 6, text: "Cannot list games: " + e.message })));
    }
  }

  // Delete a saved game (issue 15), after a confirm; only the link that made it may (the
  // server says so otherwise).
  async function deleteGame(id, token) {
    $("list-error").textContent = "";
    if (!window.confirm(`Delete game ${id}? Its record is gone for good (download it first to keep it).`)) return;
    try {
      await api("DELETE", `/api/games/${encodeURIComponent(id)}`, undefined, token);
      try { localStorage.removeItem("typhoon:token:" + id); } catch (e) { /* private mode */ }
      await listGames();
    } catch (e) {
      $("list-error").textContent = `Cannot delete game ${id}: ${e.message}`;
    }
  }

  // A hot seat plays both sides: no "Your side" (issue 15); a level only against the computer.
  function syncMode() {
    $("level-row").hidden = mode() !== "ai";
    $("level-all").hidden = mode() !== "ai";
    $("side-row").hidden = mode() === "hotseat";
    const up = $("up-mode").value;
    $("up-level-row").hidden = up !== "ai";
    $("up-side-row").hidden = up === "hotseat";
  }

  async function init() {
    META = await api("GET", "/api/meta");
    fillGames();
    fillEditions();
    $("game").addEventListener("change", fillEditions);
    $("level-all").addEventListener("toggle", fillLevels);
    $("edition").addEventListener("change", fillOptions);
    for (const r of document.querySelectorAll("input[name=mode]")) r.addEventListener("change", syncMode);
    $("up-mode").addEventListener("change", syncMode);
    syncMode();
    $("new-game").addEventListener("submit", submitNew);
    $("upload").addEventListener("submit", submitUpload);
    listGames();
  }

  init().catch((e) => { $("new-error").textContent = "Cannot reach the server: " + e.message; });
})();
