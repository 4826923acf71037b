// Typhoon: helpers shared by the lobby (lobby.js) and the game page (game.js).
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

  return { el, api };
})();
