// Tablesmith companion: the table page's shell, the same for every game (no build step, no
// framework). It keeps the connection (live stream, catch-up, outbox), the status line, undo,
// the action log and the dice; the game's own script (companion/views/<game>/view.js) draws
// the table and registers itself with Tablesmith.register({...}).
//
// The contract with a game view: Tablesmith.register({render(ctx, previous), status(ctx),
// describe(event, ctx), purposes}); ctx = {view, role, send(action), write(path, fields), fmt,
// toast, T, playerName, myTurn, busy}; send and write return a promise of {status, data} (or
// null when nothing was sent). Games played with decks get Tablesmith.deckPicker (decks.js).
//
// Plain http on a LAN is not a secure context: no crypto.randomUUID, no service worker;
// ids come from crypto.getRandomValues (ARCHITECTURE.md, Companion).
"use strict";

const Tablesmith = (() => {
  const app = document.getElementById("app");
  const T = JSON.parse(document.getElementById("strings").textContent);
  const ROLE = app.dataset.role;
  const TOKEN = app.dataset.token;
  const API = app.dataset.api; // ".../api/t/<table>/"
  const $ = (id) => document.getElementById(id);

  let game = null; // the registered game view
  let view = null; // the latest table view from the server
  let seen = 0; // the last event seq received
  let source = null;
  let busy = false; // a write is on its way: write controls are disabled
  const log = new Map(); // seq -> event, for the action log

  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, (_, key) => values[key]);
  }

  function newId() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function toast(text) {
    const box = $("toast");
    box.textContent = text;
    box.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => (box.hidden = true), 3500);
  }

  // A refusal as translated text; the server's English detail stays in the console.
  function problem(data) {
    if (data && data.message) console.info(data.error, data.message);
    return (data && T["err_" + data.error]) || T.err_other;
  }

  async function call(method, path, body) {
    const response = await fetch(API + path, {
      method,
      headers: { "Content-Type": "application/json", "X-Seat-Token": TOKEN },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
    let data = null;
    try {
      data = await response.json();
    } catch (e) {
      data = null;
    }
    return { status: response.status, data };
  }

  function setBusy(value) {
    busy = value;
    app.classList.toggle("busy", value);
  }

  // Send a write; retries with the SAME client_action_id are harmless (idempotent).
  function send(action) {
    return write("actions", { action });
  }

  // Any write endpoint of the table ("actions", "deck"): the body gets the revision the phone
  // saw and a fresh client_action_id; the answer's view is drawn, a refusal is shown.
  async function write(path, fields) {
    if (busy || !view || ROLE === "watch") return null;
    setBusy(true);
    const body = { expected_revision: view.revision, client_action_id: newId(), ...fields };
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        let result;
        try {
          result = await call("POST", path, body);
        } catch (e) {
          await new Promise((r) => setTimeout(r, 400 * (attempt + 1)));
          continue;
        }
        if (result.status === 200) {
          render(result.data.view);
        } else if (result.data && result.data.view) {
          toast(result.status === 409 ? T.stale : problem(result.data));
          render(result.data.view);
        } else {
          toast(problem(result.data));
        }
        return result;
      }
      toast(T.offline);
      return null;
    } finally {
      setBusy(false);
    }
  }

  // ----------------------------------------------------------------------------- live stream

  function connect() {
    if (source) source.close();
    source = new EventSource(API + "events?since=" + seen + "&token=" + encodeURIComponent(TOKEN));
    source.onmessage = (message) => {
      seen = Math.max(seen, Number(message.lastEventId) || seen);
      const data = JSON.parse(message.data);
      if (data.event) remember(data.event);
      if (data.view) render(data.view);
    };
    source.onerror = () => {
      // A new EventSource does not resend Last-Event-ID with our ?since: reconnect ourselves.
      source.close();
      setTimeout(connect, 1500);
    };
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      refresh();
      connect();
    }
  });

  async function refresh() {
    try {
      const result = await call("GET", "state");
      if (result.status === 200) render(result.data);
    } catch (e) {
      toast(T.offline);
    }
  }

  // ---------------------------------------------------------------------------------- render

  function playerName(seat) {
    const name = seat === "A" ? T.player_a : T.player_b;
    return seat === ROLE ? name + " (" + T.you + ")" : name;
  }

  function myTurn() {
    return !!view && view.to_act === ROLE;
  }

  function context() {
    return { view, role: ROLE, send, write, fmt, toast, T, playerName, myTurn: myTurn(), busy };
  }

  function render(next) {
    if (view && next.revision < view.revision) return; // never step back
    const previous = view;
    view = next;
    seen = Math.max(seen, view.revision);
    app.dataset.revision = view.revision;
    const invite = $("invite");
    if (invite && view.seats.B && !render.invited) invite.open = false;
    render.invited = view.seats.B;
    renderStatus();
    if (game) game.render(context(), previous);
    $("undo").hidden = ROLE === "watch" || view.undo_seat !== ROLE;
    if ($("dice").open) loadDice();
    if ($("log").open) renderLog();
  }

  function renderStatus() {
    const who = $("who");
    const ended = view.outcome;
    const line = game && game.status ? game.status(context()) : {};
    if (!view.state) {
      who.textContent = view.seats.B ? T.not_set_up : T.waiting_b;
      who.className = "who";
    } else if (ended) {
      who.textContent = ended.winner ? fmt(T.winner, { player: playerName(ended.winner) }) : T.draw;
      who.className = "who" + (ended.winner ? " turn-" + ended.winner : "");
    } else {
      who.textContent =
        ROLE === "watch" ? T.watching + " · " + playerName(view.to_act)
        : myTurn() ? T.your_turn : T.their_turn;
      who.className = "who turn-" + view.to_act;
    }
    $("hint").textContent = line.hint || (ended ? T.over : "");
  }

  // ------------------------------------------------------------------------------ action log

  function remember(event) {
    log.set(event.seq, event);
  }

  async function loadLog() {
    const result = await call("GET", "log");
    if (result.status !== 200) return;
    for (const event of result.data.events) remember(event);
    renderLog();
  }

  function describe(event) {
    if (event.kind === "join") return T.log_join;
    if (event.kind === "undo") return fmt(T.log_undo, { seq: event.payload.undoes });
    if (event.kind === "roll") {
      const purpose = (game && game.purposes && game.purposes[event.payload.purpose])
        || event.payload.purpose;
      const faces = event.payload.sides > 100 ? "…" : event.payload.faces.join(" ");
      return `${purpose}: ${event.payload.count}d${event.payload.sides} ${faces}`;
    }
    const text = game && game.describe ? game.describe(event, context()) : null;
    return text || event.kind;
  }

  function renderLog() {
    const list = $("log-list");
    list.innerHTML = "";
    const undone = new Set([...log.values()].filter((e) => e.kind === "undo").map((e) => e.payload.undoes));
    const events = [...log.values()].sort((a, b) => b.seq - a.seq);
    for (const event of events) {
      const item = document.createElement("li");
      item.id = "log-" + event.seq;
      if (undone.has(event.seq)) item.className = "undone";
      const when = new Date(event.created_at * 1000).toLocaleTimeString([], {
        hour: "2-digit", minute: "2-digit", second: "2-digit",
      });
      const who = event.seat ? playerName(event.seat) : T.server;
      const head = document.createElement("span");
      head.className = "log-head";
      head.textContent = `#${event.seq} · ${when} · ${who}`;
      const what = document.createElement("span");
      what.textContent = describe(event);
      item.append(head, what);
      list.append(item);
    }
  }

  // ------------------------------------------------------------------------------------ dice

  async function loadDice() {
    const result = await call("GET", "dice");
    if (result.status !== 200) return;
    const box = $("dice-history");
    box.innerHTML = "";
    const heading = document.createElement("h3");
    heading.textContent = T.rolls;
    const list = document.createElement("ol");
    list.className = "rolls";
    for (const roll of result.data.rolls.slice().reverse()) {
      const item = document.createElement("li");
      const faces = roll.sides > 100 ? roll.count + "×d" + roll.sides : roll.faces.join(" ");
      const purpose = (game && game.purposes && game.purposes[roll.purpose]) || roll.purpose;
      item.textContent = `#${roll.seq} ${purpose} · ${roll.count}d${roll.sides}: ${faces} · ${T.by} ${roll.seat}`;
      list.append(item);
    }
    box.append(heading, list);
    for (const stats of result.data.frequencies) {
      const table = document.createElement("table");
      table.className = "freq";
      const head = table.insertRow();
      for (const text of ["d" + stats.sides + " " + T.face, T.observed, T.expected]) {
        head.insertCell().textContent = text;
      }
      stats.observed.forEach((count, index) => {
        const row = table.insertRow();
        row.insertCell().textContent = index + 1;
        row.insertCell().textContent = count;
        row.insertCell().textContent = stats.expected.toFixed(1);
      });
      const caption = table.createCaption();
      caption.textContent = `${T.chi_square} = ${stats.chi_square.toFixed(2)} (${stats.dice})`;
      box.append(table);
    }
  }

  $("dice").addEventListener("toggle", () => $("dice").open && loadDice());
  $("log").addEventListener("toggle", () => $("log").open && loadLog());
  $("undo").onclick = () => send({ type: "undo" });
  const rollForm = $("roll-form");
  if (rollForm) {
    rollForm.onsubmit = async (event) => {
      event.preventDefault();
      if (busy) return;
      setBusy(true);
      const data = new FormData(rollForm);
      try {
        const result = await call("POST", "dice", {
          client_action_id: newId(),
          count: Number(data.get("count")),
          sides: Number(data.get("sides")),
          purpose: String(data.get("purpose")),
        });
        if (result.status === 200) {
          render(result.data.view);
          loadDice();
        } else toast(problem(result.data));
      } catch (e) {
        toast(T.offline);
      } finally {
        setBusy(false);
      }
    };
  }

  // ------------------------------------------------------------------------------------ boot

  function register(gameView) {
    game = gameView;
  }

  function start() {
    refresh().then(connect);
  }

  return { register, start, fmt, newId, toast, role: ROLE, $ };
})();

window.addEventListener("load", Tablesmith.start);
