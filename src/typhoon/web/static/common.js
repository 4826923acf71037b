// Typhoon: helpers shared by the lobby (lobby.js) and the game page (board.js, which plays
// every registered game from the game's views).
// Plain JavaScript, no build step. Every rule lives on the server.
"use strict";

window.TyphoonUI = (function () {
  // A DOM element: attributes ("text" sets the text, "on..." adds a listener, true is a bare
  // attribute, false/null/undefined leave it out) and children.
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : v);
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  }

  // A call to the JSON API. A FormData body is sent as it is, anything else as JSON; the
  // token (if any) goes in the X-Typhoon-Token header. A refusal throws an Error with the
  // server's words, the HTTP status and the JSON body (a 409 carries the current position).
  async function api(method, path, body, token) {
    const opts = { method, headers: {} };
    if (token) opts.headers["X-Typhoon-Token"] = token;
    if (body instanceof FormData) opts.body = body;
    else if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const r = await fetch(path, opts);
    let data = null;
    try { data = await r.json(); } catch (e) { data = null; }
    if (!r.ok) {
      const err = new Error((data && data.error) || `${r.status} ${r.statusText}`);
      err.status = r.status;
      err.data = data;
      throw err;
    }
    return data;
  }

  const $ = (id) => document.getElementById(id);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

  // -- the game pages ----------------------------------------------------------------------

  // The player's token for game `id`: taken from a secret link's #t= (and remembered), or the
  // one remembered from an earlier visit.
  function readToken(id) {
    const m = /(?:^|[#&])t=([^&]+)/.exec(location.hash);
    let t = m ? decodeURIComponent(m[1]) : null;
    try {
      if (t) localStorage.setItem("typhoon:token:" + id, t);
      else t = localStorage.getItem("typhoon:token:" + id);
    } catch (e) { /* private mode */ }
    return t;
  }

  // Which side(s) the viewer plays and which the computer plays.
  function whoText(v) {
    let who;
    if (!v.you.length) who = "Watching this game";
    else if (v.you.length === 2) who = "Hot seat: you play both sides";
    else who = `You play the ${cap(v.you[0])} side`;
    const ai = Object.entries(v.ai).map(([s, l]) => `${cap(s)}: computer (${l})`).join(", ");
    if (ai) who += ` · ${ai}`;
    return who;
  }

  // The prompt while the viewer has nothing to decide.
  function waitingText(v) {
    const side = cap(v.to_move);
    let msg;
    if (v.ai[v.to_move]) msg = `The computer (${v.ai[v.to_move]}) is playing the ${side} side…`;
    else if (!v.you.length) msg = `Watching: ${side} to decide.`;
    else msg = `Waiting for the ${side} player.`;
    if (v.ai_error) msg += ` ${v.ai_error}`;
    return msg;
  }

  // The phases of the turn, the current one marked.
  function fillPhases(v) {
    const phases = $("phases");
    phases.innerHTML = "";
    for (const p of v.phases) {
      const now = p.key === v.phase.key && v.turn > 0;
      phases.append(el("li", { class: `${p.side} ${now ? "now" : ""}`, "aria-current": now ? "step" : false }, p.name.replace(" phase", "")));
    }
  }

  // Posting a decision from a game page. `page` holds the page's setView, announce, showError
  // and canAct; `extra` adds to the request body (svg, legal). A refusal that carries the
  // current position (409 stale, 403 not your side) shows it; `staleNote` prefixes a 409's words.
  async function sendActions(G, page, texts, extra, staleNote) {
    if (G.busy || !page.canAct()) return;
    G.busy = true;
    page.showError("");
    try {
      const r = await api("POST", `/api/games/${encodeURIComponent(G.id)}/actions`, { actions: texts, seen: G.view.version, ...extra }, G.token);
      page.setView(r.state);
      const words = [];
      for (const e of r.log) for (const ev of e.events) words.push(ev.text);
      page.announce(words.join(" ") || "Done.");
    } catch (e) {
      if ((e.status === 409 || e.status === 403) && e.data && e.data.state) {
        page.setView(e.data.state, { force: true });
        page.showError((e.status === 409 ? staleNote || "" : "") + e.message);
      } else if (!e.status) {
        // fetch itself failed: no answer from the server, so nothing was played
        if (page.connection) page.connection(false);
        page.showError("Cannot reach the server: your decision was not sent. Try again when the connection is back.");
      } else {
        page.showError(e.message);
      }
    } finally {
      G.busy = false;
    }
  }

  // Undoing the viewer's last decision (same `page` and `extra` as sendActions).
  async function undoLast(G, page, extra) {
    if (G.busy || !G.view || !G.view.can_undo) return;
    G.busy = true;
    try {
      const r = await api("POST", `/api/games/${encodeURIComponent(G.id)}/undo`, { seen: G.view.version, ...extra }, G.token);
      page.setView(r.state);
      page.announce(`Undone: ${r.undone}.`);
    } catch (e) {
      if (e.status === 409 && e.data && e.data.state) page.setView(e.data.state, { force: true });
      page.showError(e.message);
    } finally {
      G.busy = false;
    }
  }

  // Waiting for the other side (long polls): a newer position is shown; with `announceFresh`
  // the other side's events are read out. `query()` asks for what the page needs (svg, legal).
  async function pollGame(G, page, query, announceFresh) {
    for (;;) {
      if (!G.view) { await sleep(500); continue; }
      try {
        const v = await api("GET", `/api/games/${encodeURIComponent(G.id)}?${query()}&after=${G.view.version}&wait=25`, undefined, G.token);
        if (page.connection) page.connection(true);
        if (v.version > G.view.version) {
          const fresh = announceFresh ? v.log.filter((e) => e.n > G.view.actions && !v.you.includes(e.actor)) : [];
          page.setView(v);
          const words = [];
          for (const e of fresh) for (const ev of e.events) words.push(ev.text);
          if (words.length) page.announce(words.slice(-12).join(" "));
        } else if (v.ai_thinking !== G.view.ai_thinking || v.ai_error !== G.view.ai_error) {
          page.setView(v, { force: true });
        }
      } catch (e) {
        if (page.connection && !e.status) page.connection(false);
        await sleep(2000);
      }
    }
  }

  // The replay controls (rp-* elements) of a page whose state G holds the replay in G.replay;
  // go(step) shows a step. Returns the toggle (replay on/off).
  function bindReplay(G, go, render, announce) {
    function toggle() {
      if (G.replay) {
        G.replay = null;
        $("rp-controls").hidden = true;
        $("rp-toggle").textContent = "Replay this game";
        $("rp-info").textContent = "";
        render();
        announce("Back to the game.");
      } else {
        $("rp-controls").hidden = false;
        $("rp-toggle").textContent = "Leave the replay";
        go(G.view.actions);
      }
    }
    $("rp-toggle").addEventListener("click", toggle);
    $("rp-first").addEventListener("click", () => go(0));
    $("rp-prev").addEventListener("click", () => go(G.replay ? G.replay.step - 1 : 0));
    $("rp-next").addEventListener("click", () => go(G.replay ? G.replay.step + 1 : 0));
    $("rp-last").addEventListener("click", () => go(G.replay ? G.replay.total : 0));
    $("rp-turn").addEventListener("change", (e) => go(parseInt(e.target.value, 10)));
    return toggle;
  }

  // -- words (issue 15: no project jargon in the page) -----------------------------------------

  // A reference to where a reading comes from: a file, a web address, the seed document, a
  // question number, a rule paragraph. Such words go behind a "where this comes from" link.
  const SOURCE_RE = /(https?:\/\/|\bwww\.|\b[\w-]+\.(?:com|org|net|de|md|json)\b|\bdocs\/|\bseed\b|\bQ\d+\b|\b[A-Z]{2}-[A-Z]\d\b|\bcalendar\b|\bUNVERIFIED\b|\breference pack\b|\boberlabs\b)/i;
  const UNVERIFIED_WORDS = "Not yet confirmed against a printed copy of the rules.";

  // Text in words plus its sources: {words, sources}. A leading "reference:" prefix, each
  // sentence or bracket that cites a source, and "UNVERIFIED" move to `sources`.
  function splitSources(text) {
    let t = String(text || "").trim();
    const sources = [];
    if (/\bUNVERIFIED\b/.test(t)) {
      sources.push(UNVERIFIED_WORDS);
      t = t.replace(/\bUNVERIFIED\b(?: for [^.:]+)?[.:]?\s*/g, "").trim();
    }
    // "rules of seed 002" in a title says which text the rules follow: a source.
    t = t.replace(/,?\s*rules of seed \d+/gi, (m) => { sources.push(m.replace(/^,\s*/, "").trim()); return ""; });
    const pre = /^([^:]{1,70}):\s+/.exec(t);
    let topic = null; // "Half side of the 7-4 corps: <readings and their sources>"
    if (pre && (SOURCE_RE.test(pre[1]) || /^\d+\.\d+/.test(pre[1])) && !/^(yes|no)\b/i.test(pre[1])) { sources.push(pre[1]); t = t.slice(pre[0].length); }
    else if (pre && !/^(yes|no)\b/i.test(pre[1])) topic = pre[1];
    // Brackets that cite: "(docs/X.md, docs/Y.md)", "(seed 001 rules exact)", "(steve-and-pattie.com)".
    t = t.replace(/\s*\(([^()]*)\)/g, (m, inner) => (SOURCE_RE.test(inner) ? (sources.push(inner), "") : m));
    const kept = [];
    const cited = [];
    for (const sentence of t.split(/(?<=[.;])\s+/)) (SOURCE_RE.test(sentence) ? cited : kept).push(sentence);
    if (kept.length) sources.push(...cited);
    else if (topic) { kept.push(topic + "."); sources.push(t.slice(topic.length + 1).trim()); } // the readings cite
    else kept.push(...cited); // nothing but cites: keep the words
    t = kept.join(" ").replace(/;$/, ".").replace(/\s+([,.;])/g, "$1").replace(/\(\s*\)/g, "").replace(/\s{2,}/g, " ").trim();
    // A raw key left in the words (a choice named in brackets, say) is said in words too.
    t = t.replace(/\b[a-z0-9]+(?:_[a-z0-9]+)+\b/gi, (m) => keyWords(m));
    return { words: cap(t), sources };
  }

  // Text without its sources (a title, a notice).
  function plain(text) { return splitSources(text).words; }

  // A paragraph of words, with a "where this comes from" disclosure when it cites sources.
  function wordsWithSources(text, cls) {
    const { words, sources } = splitSources(text);
    const box = el("span", { class: cls || "note" }, words);
    if (sources.length) {
      box.append(" ", el("details", { class: "sources" },
        el("summary", { text: "where this comes from" }),
        el("span", { text: sources.join(" · ") })));
    }
    return box;
  }

  // An option key or choice in words: "crt_4to1_die3" -> "CRT 4-1, die 3", "turns_2_4_6" ->
  // "turns 2, 4, 6", "half_strength_7_4" -> "half strength 7-4".
  function keyWords(key) {
    let s = String(key);
    s = s.replace(/(\d+)to(\d+)/g, "$1-$2").replace(/_die(\d)/g, ", die $1");
    s = s.replace(/(\d+(?:_\d+){2,})/g, (m) => m.split("_").join(", "));
    s = s.replace(/(\d+)_(\d+)/g, "$1-$2").replace(/^opt(\d+)_/, "optional rule $1: ").replace(/_/g, " ");
    s = s.replace(/\b([a-z]{2,3})(\d)\b/g, "$1 $2").replace(/\b(german|soviet|russian)\b/g, (m) => cap(m));
    s = s.replace(/\b(crt|zoc|cf|mp|vp|drm|eb|kg|gt|ae)\b/gi, (m) => m.toUpperCase());
    s = s.replace(/\b(x{0,3}(?:ix|iv|v?i{0,3}))\b/gi, (m) => (m.length > 1 && /^[xvi]+$/i.test(m) ? m.toUpperCase() : m));
    return cap(s.trim());
  }

  return { el, api, sleep, cap, readToken, whoText, waitingText, fillPhases, sendActions, undoLast, pollGame, bindReplay, splitSources, plain, wordsWithSources, keyWords };
})();
