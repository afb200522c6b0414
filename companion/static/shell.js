// Tablesmith companion: the table page's shell, the same for every game (no build step, no
// framework). It keeps the connection (live stream, catch-up, outbox), the status line, undo,
// the action log, the dice, the other phone's presence, the seat code and the screen lock; the
// game's own script (companion/views/<game>/view.js) draws the table and registers itself with
// Tablesmith.register({...}).
//
// The contract with a game view: Tablesmith.register({render(ctx, previous), status(ctx),
// describe(event, ctx), purposes}); ctx = {view, role, send(action), write(path, fields), fmt,
// toast, T, playerName, whose(name, seat), myTurn, busy, legal (the view's legal actions on
// this phone's turn, else [])}; send and write return a promise of {status, data} once
// the server answered, or of null when nothing was answered now (a double tap, a write while
// another is on its way, or a tap kept in the outbox until the connection returns).
// The view's texts (its "game-strings" block) are Tablesmith.gameStrings. Games played with
// decks get Tablesmith.deckPicker (decks.js); the card games' shared pieces are
// Tablesmith.cardKit(strings) (cardview.js). A platform panel beside the
// game (counters.js) registers with Tablesmith.panel({strings, render(ctx, previous),
// describe(event, ctx)}): its strings join T, it is drawn after the game, and it names the
// log lines of its own event kinds.
//
// Never a lost or doubled tap (issue 9):
// * every write goes through the OUTBOX, kept in localStorage per table and seat, with its
//   client_action_id and the revision the phone saw when it was tapped; a write that got no
//   answer (offline, timeout, 5xx, 429) stays there and is sent again, with the SAME id and
//   revision, when the connection returns (online event, stream open, page shown, a timer, a
//   reload). The server applies an id once (a repeat is answered "duplicate"), or refuses it
//   with a reason (409 stale, 422 illegal ...), which the page shows.
// * one write at a time: while one waits, other writes are not taken (the page says why), and
//   the same request tapped again within REPEAT_MS of its answer is a double tap and ignored;
//   the tapped control is disabled while its write is on its way.
// The page is rebuilt from the view alone (reload, unlock, server restart, other phone).
//
// Plain http on a LAN is not a secure context: no crypto.randomUUID, no service worker, no
// Wake Lock API; ids come from crypto.getRandomValues and the screen is kept on with a playing
// video there (see keepAwake) (ARCHITECTURE.md, Companion).
"use strict";

const Tablesmith = (() => {
  const app = document.getElementById("app");
  const T = JSON.parse(document.getElementById("strings").textContent);
  const FOR_FUN = "for fun"; // the dice form's default purpose as stored (shown as T.for_fun)
  // the game view's own texts (its view.html's "game-strings" block) with the words all game
  // views share (T.kit), lent to its view.js
  const gameStrings = {
    ...T.kit,
    ...JSON.parse((document.getElementById("game-strings") || {}).textContent || "{}"),
  };
  const ROLE = app.dataset.role;
  const TOKEN = app.dataset.token;
  const TABLE = app.dataset.table;
  const API = app.dataset.api; // ".../api/t/<table>/"
  const SEATED = ROLE === "A" || ROLE === "B";
  const $ = (id) => document.getElementById(id);

  const REPEAT_MS = 400; // the same request again this soon after its answer: a double tap
  // (a double tap's second tap comes within ~300 ms; a deliberate second "Decline" for the next
  // prompt, or "+" once more, comes after the new screen was seen: slower than 400 ms)
  const TIMEOUT_MS = 10000; // a write without an answer after this is sent again later
  const OUTBOX_KEY = "tablesmith.outbox." + TABLE + "." + ROLE;

  let game = null; // the registered game view
  const panels = []; // the platform's panels beside the game (Tablesmith.panel)
  let view = null; // the latest table view from the server
  let presence = null; // {"A": {connected, since}, "B": ...} when the server tracks phones
  let seen = 0; // the last event seq received
  let source = null;
  let busy = false; // a write is on its way or waits in the outbox: write controls are disabled
  let sending = false;
  let retryTimer = null;
  let retryDelay = 1000;
  let lastDone = { key: null, at: 0 }; // the last answered write (double-tap guard)
  let tapped = null; // the control of the last tap: {element, at}
  let online = true; // the last request or stream reached the server
  const log = new Map(); // seq -> event, for the action log

  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, (_, key) => values[key]);
  }

  // Small DOM helpers the game views share: an element with a class and text, a button (type
  // "button", a write control by default), and the other seat.
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(text, onclick, cls = "mid write", id) {
    const node = el("button", cls, text);
    node.type = "button";
    if (id) node.id = id;
    node.onclick = onclick;
    return node;
  }

  const other = (seat) => (seat === "A" ? "B" : "A");

  // Each phone sees the table from its own side: seat B sits across from A, so B's view is A's
  // turned through 180 degrees (never mirrored): own side at the bottom, and what lies on A's
  // left lies on B's right. A watcher sees it as A does.
  const TURNED = ROLE === "B";

  // Fill a grid of pieces (`columns` wide, left to right and top to bottom on A's screen) as
  // this phone sees it: on B's screen the last piece comes first, after the gaps that keep each
  // piece in its turned column (A's "1 2 / 3 _" is B's "_ 3 / 2 1").
  function fillFromSide(list, nodes, columns = 2) {
    if (!TURNED) {
      list.append(...nodes);
      return list;
    }
    const gaps = (columns - (nodes.length % columns)) % columns;
    for (let i = 0; i < gaps; i++) list.append(el("div", "unit-gap"));
    list.append(...nodes.slice().reverse());
    return list;
  }

  function newId() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function toast(text, ms = 3500, kind = "") {
    const box = $("toast");
    box.textContent = text;
    box.hidden = false;
    toast.kind = kind;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => (box.hidden = true), ms);
  }

  // A refusal's toast goes as soon as a later write is applied (a deck brought after all, a
  // move made right): it would otherwise say "Not applied" over what was applied.
  function clearRefusalToast() {
    if (toast.kind !== "refused") return;
    clearTimeout(toast.timer);
    $("toast").hidden = true;
    toast.kind = "";
  }

  // A refusal as translated text; the server's own words stay in the console (and, for a
  // refusal the game's view has no text for, behind a tap on the outbox pill). A game's rules
  // give a message id with values and the rule id: the game view's "refusal-strings" block
  // holds the translated texts.
  function translatedRefusal(data) {
    if (!data || !data.message_id) return null;
    const box = document.getElementById("refusal-strings");
    const texts = box ? JSON.parse(box.textContent) : {};
    const text = texts[data.message_id];
    return text ? fmt(text, data.values || {}) : null;
  }

  // A reason the game gives with a message id (a casual deck's broken building rule, a
  // deck refusal's problems: {text, message_id, values, rule}) in the page's language; a
  // plain string (a state written before reasons had ids) or an unknown id shows its text.
  function reason(item) {
    if (!item || typeof item === "string") return item || "";
    const text = translatedRefusal(item);
    if (!text) return item.text || item.message || "";
    return item.rule ? text + " (" + item.rule + ")" : text;
  }

  function problem(data) {
    if (data && data.message) console.info(data.error, data.message);
    const reason = translatedRefusal(data) || (data && T["err_" + data.error]) || T.err_other;
    return data && data.rule ? reason + " (" + data.rule + ")" : reason;
  }

  async function call(method, path, body, timeout = 0) {
    if (method === "POST" && source && source.carries && source.carries(path)) {
      return source.post(path, body, timeout); // the table's socket carries the write
    }
    const abort = new AbortController();
    const timer = timeout ? setTimeout(() => abort.abort(), timeout) : null;
    try {
      const response = await fetch(API + path, {
        method,
        headers: { "Content-Type": "application/json", "X-Seat-Token": TOKEN },
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
        signal: abort.signal,
      });
      let data = null;
      try {
        data = await response.json();
      } catch (e) {
        data = null;
      }
      return { status: response.status, data };
    } finally {
      clearTimeout(timer);
    }
  }

  // ---------------------------------------------------------------------------------- outbox

  function loadOutbox() {
    try {
      const stored = JSON.parse(localStorage.getItem(OUTBOX_KEY) || "[]");
      return Array.isArray(stored) ? stored.filter((e) => e && e.body && e.path) : [];
    } catch (e) {
      return [];
    }
  }

  let outbox = loadOutbox();

  function saveOutbox() {
    try {
      if (outbox.length) localStorage.setItem(OUTBOX_KEY, JSON.stringify(outbox));
      else localStorage.removeItem(OUTBOX_KEY);
    } catch (e) {
      // private mode or a full storage: the outbox still lives in memory for this page
    }
  }

  function setBusy(value) {
    busy = value;
    app.classList.toggle("busy", value);
  }

  // Remember which control a tap hit, so its write can disable exactly that control.
  app.addEventListener("click", (event) => {
    const control = event.target.closest && event.target.closest("button, input[type=submit]");
    tapped = control ? { element: control, at: performance.now() } : null;
  }, true);

  // A press the other phone's update re-rendered under the finger: the mouse button went down
  // on a control that the render then replaced, and came up on its replacement (the element
  // with the same id, or inside it). The browser sends no click then (the old control left the
  // page, so the two have no common ancestor), so the press is completed here, once, on what
  // is under the pointer now. A touch needs none: its click goes to wherever the finger lifts.
  let pressed = null; // {keyed, id}: the pressed element's nearest element with an id
  app.addEventListener("pointerdown", (event) => {
    const keyed = event.pointerType === "touch" || !event.target.closest ? null
      : event.target.closest("[id]");
    pressed = keyed ? { keyed, id: keyed.id } : null;
  }, true);
  app.addEventListener("pointerup", (event) => {
    const down = pressed;
    pressed = null;
    if (!down || down.keyed.isConnected || !event.target.closest) return;
    const keyed = event.target.closest("[id]");
    if (!keyed || keyed.id !== down.id) return;
    const control = event.target.closest("button, input, select");
    if (control && control.disabled) return;
    event.target.dispatchEvent(new MouseEvent("click", {
      bubbles: true, cancelable: true, view: window, clientX: event.clientX, clientY: event.clientY,
    }));
  }, true);

  function markSending(entry) {
    if (!tapped || performance.now() - tapped.at > 1000) return;
    const control = tapped.element;
    control.classList.add("sending");
    control.dataset.outbox = entry.id;
    if ("disabled" in control) control.disabled = true;
    tapped = null;
  }

  function unmarkSending(entry) {
    for (const control of document.querySelectorAll(`[data-outbox="${entry.id}"]`)) {
      control.classList.remove("sending");
      delete control.dataset.outbox;
      if ("disabled" in control) control.disabled = false;
    }
  }

  // Send a game action.
  // Send a game action. The server asks back before an action that would end the game
  // (ask_before_end: 409 confirm_end, see askToEnd).
  function send(action) {
    return write("actions", { action, ask_before_end: true });
  }

  // Any write endpoint of the table ("actions", "deck", "dice"): the body gets the revision the
  // phone saw and a fresh client_action_id, and goes through the outbox.
  async function write(path, fields) {
    if (!view || !SEATED || taken) return null;
    const key = path + " " + JSON.stringify(fields);
    if (outbox.length) {
      // One write at a time; the same tap again is a double tap, anything else is told to wait.
      if (!sending) toast(T.outbox_waiting);
      return null;
    }
    if (key === lastDone.key && performance.now() - lastDone.at < REPEAT_MS) return null;
    const id = newId();
    const entry = {
      id,
      key,
      path,
      body: { expected_revision: view.revision, client_action_id: id, ...fields },
      at: Date.now(),
    };
    outbox.push(entry);
    saveOutbox();
    markSending(entry);
    return deliver();
  }

  // Send the outbox's first write; answered -> applied (shown) or refused (shown with the
  // reason); not answered -> kept, and tried again later with the same id and revision.
  async function deliver() {
    if (sending || !outbox.length) {
      showOutbox();
      return null;
    }
    const entry = outbox[0];
    sending = true;
    setBusy(true);
    showOutbox();
    let result = null;
    try {
      result = await call("POST", entry.path, entry.body, TIMEOUT_MS);
    } catch (e) {
      result = null; // offline, refused connection, timeout: the server may or may not have it
    }
    sending = false;
    const answered = result !== null && result.status < 500 && result.status !== 429
      && result.status !== 408;
    if (!answered) {
      setOnline(false);
      showOutbox();
      scheduleRetry();
      return null;
    }
    reached();
    retryDelay = 1000;
    if (outbox[0] === entry) outbox.shift();
    saveOutbox();
    unmarkSending(entry);
    setBusy(outbox.length > 0);
    lastDone = { key: entry.key, at: performance.now() };
    if (result.status === 200) {
      clearRefusalToast();
      notice({ kind: "sent" });
      if (result.data && result.data.view) render(result.data.view);
      if (entry.path === "dice") loadDice();
    } else {
      refused(entry, result);
    }
    if (outbox.length) deliver();
    return result;
  }

  // The retention sweep removed the table (410 "removed"): the table's page says so, when
  // and why (the live stream stops trying meanwhile). Not a reload: a watch link's token
  // went with the table, so the watch page would say "Page not found".
  let removed = false;
  function tableRemoved(status, data) {
    if (status !== 410 || !data || data.error !== "removed") return false;
    if (!removed) {
      removed = true;
      clearTimeout(streamTimer);
      if (source) source.close();
      location.replace(app.dataset.page);
    }
    return true;
  }

  function refused(entry, result) {
    const data = result.data || {};
    if (tableRemoved(result.status, data)) return;
    if (result.status === 409 && data.error === "confirm_end") {
      askToEnd(entry, data);
      return;
    }
    if (result.status === 403 && data.error === "forbidden") {
      seatTaken({ at: data.taken_at || new Date().toISOString() }); // when the server says
      return;
    }
    const reason = result.status === 409 && data.error === "stale" ? T.refused_stale : problem(data);
    if (data.view) render(data.view); // first: the refusal is about this revision
    toast(fmt(T.refused, { reason }), 7000, "refused");
    notice({ kind: "refused", reason, detail: translatedRefusal(data) ? "" : data.message || "" });
  }

  // The tap that would end the game: nothing was applied; say how it would end and send it
  // again, confirmed, only on "End the game" (the last blow can still be undone afterwards).
  function askToEnd(entry, data) {
    const box = $("confirm-end");
    const ending = data.view && data.view.ending;
    const result = ending && ending.winner ? fmt(T.winner, { player: playerName(ending.winner) }) : T.draw;
    $("confirm-end-text").textContent = fmt(T.confirm_end, { result });
    box.hidden = false;
    const close = () => (box.hidden = true);
    $("confirm-end-no").onclick = close;
    $("confirm-end-yes").onclick = () => {
      close();
      write(entry.path, { action: entry.body.action }); // without ask_before_end: applied
    };
    if (data.view) render(data.view);
  }

  function scheduleRetry() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => deliver(), retryDelay);
    retryDelay = Math.min(retryDelay * 2, 10000);
  }

  // Try the outbox now (the connection may be back).
  function flush() {
    clearTimeout(retryTimer);
    retryDelay = 1000;
    if (outbox.length) deliver();
  }

  // Drop the waiting write (it may still have reached the server: the view will show it).
  function discard() {
    if (sending || !outbox.length) return;
    const entry = outbox.shift();
    saveOutbox();
    unmarkSending(entry);
    setBusy(outbox.length > 0);
    showOutbox();
  }

  let lastNotice = null;

  function notice(next) {
    const shown = { ...next, at: Date.now(), revision: view ? view.revision : 0 };
    lastNotice = shown;
    showOutbox();
    clearTimeout(notice.timer);
    notice.timer = setTimeout(() => {
      if (lastNotice === shown) lastNotice = null;
      showOutbox();
    }, next.kind === "sent" ? 2500 : 30000); // a refusal stays half a minute (tap it: why)
  }

  // The outbox indicator, a pill in the status line (so nothing under the finger moves):
  // pending (sending / waiting for the connection), sent, refused (tap it for the details).
  function showOutbox() {
    const box = $("outbox");
    if (!box) return;
    const text = $("outbox-text");
    let state = "idle";
    if (outbox.length) {
      state = "pending";
      text.textContent = sending ? T.outbox_sending : T.outbox_kept;
    } else if (lastNotice && lastNotice.kind === "refused") {
      state = "refused";
      text.textContent = T.outbox_refused;
    } else if (lastNotice && lastNotice.kind === "sent") {
      state = "sent";
      text.textContent = T.outbox_sent;
    }
    box.dataset.state = state;
    box.title = state === "refused" ? lastNotice.detail : "";
    box.hidden = state === "idle";
    $("outbox-discard").hidden = !outbox.length || sending;
    if (!online) showNet();
  }

  // Tapping the pill repeats what it is about (the refusal's reason and the server's words).
  function explainOutbox() {
    if (outbox.length) toast(T.outbox_waiting);
    else if (lastNotice && lastNotice.kind === "refused") {
      toast(fmt(T.refused, { reason: lastNotice.reason }) + (lastNotice.detail ? " (" + lastNotice.detail + ")" : ""), 7000);
    }
  }

  // ------------------------------------------------------------------------------ connection

  // The banner over the page's header while the phone cannot reach the server.
  function showNet(text) {
    $("net-text").textContent = text || (outbox.length ? T.offline_kept : T.offline);
    $("net").hidden = false;
  }

  function setOnline(value) {
    const changed = online !== value;
    online = value;
    if (value) $("net").hidden = true;
    else showNet();
    if (changed && view) renderPresence();
  }

  // A request (a write, the state) got an answer from the server. A stream that is not open
  // (waiting for its next try, or a try hanging since the network went) is opened again at
  // once: the phone catches up (the events since the last one seen) as soon as anything gets
  // through, not when the retry's timer comes round.
  function reached() {
    const wasOffline = !online;
    setOnline(true);
    const hanging = source && source.readyState === EventSource.CONNECTING
      && performance.now() - streamStarted > STREAM_RETRY_MS[0];
    if (streamTimer !== null || hanging || (wasOffline && source && source.readyState !== EventSource.OPEN)) {
      streamFailures = 0;
      connect();
    }
  }

  // A stream that broke is tried again after STREAM_RETRY_MS[failures - 1], then every
  // STREAM_RETRY_MAX_MS: short, so that a phone back on the network finds the table within a
  // couple of seconds on its own (a try costs the server one refused or one short request).
  // A try that is not open after STREAM_OPEN_MS hangs (a lost network answers nothing, and an
  // EventSource never gives up by itself): it is dropped and counts as a failure. The server
  // answers a stream's headers at once.
  const STREAM_RETRY_MS = [250, 1000];
  const STREAM_RETRY_MAX_MS = 2000;
  const STREAM_OPEN_MS = 4000;
  let streamTimer = null; // the next try of a broken stream, while one is waited for
  let streamFailures = 0; // tries that failed since the stream was last open
  let streamStarted = 0; // when the current stream's try began (performance.now())

  // This phone's seat was taken over by another phone (a move code, a seat code while this
  // phone was away, or the seat key): the server ends its streams and refuses its token. Say
  // so at once, stop connecting and writing, and offer the way back (the page without a seat,
  // where the seat key or a new code is typed).
  let taken = false;

  function seatTaken(info) {
    taken = true;
    clearTimeout(streamTimer);
    streamTimer = null;
    if (source) source.close();
    setBusy(true);
    $("net").hidden = true;
    $("seat-taken-text").textContent = fmt(T.seat_taken, { time: clock(info.at) });
    $("seat-taken").hidden = false;
  }

  function connect() {
    if (taken || removed) return;
    clearTimeout(streamTimer);
    streamTimer = null;
    if (source) source.close();
    const stream = TablesmithSocket.stream(API, TOKEN, seen, connect); // a socket, or SSE (socket.js)
    source = stream;
    streamStarted = performance.now();
    const watchdog = setTimeout(() => {
      if (source === stream && stream.readyState === EventSource.CONNECTING) stream.onerror();
    }, STREAM_OPEN_MS);
    stream.onopen = () => {
      clearTimeout(watchdog);
      streamFailures = 0;
      setOnline(true);
      flush();
    };
    stream.onmessage = (message) => {
      const data = JSON.parse(message.data);
      if (data.revoked) {
        seatTaken(data.revoked);
        return;
      }
      seen = Math.max(seen, Number(message.lastEventId) || seen);
      if (data.presence) setPresence(data.presence);
      if (data.view) render(data.view);
      if (data.event) arrived(data.event);
    };
    stream.onerror = () => {
      // A new EventSource does not resend Last-Event-ID with our ?since: reconnect ourselves.
      clearTimeout(watchdog);
      stream.close();
      if (source !== stream || streamTimer !== null) return; // a newer stream took over
      streamFailures += 1;
      if (streamFailures >= 2) probeStream();
      const wait = STREAM_RETRY_MS[streamFailures - 1] || STREAM_RETRY_MAX_MS;
      streamTimer = setTimeout(connect, wait);
    };
  }

  // The stream failed twice: ask the server why (an EventSource cannot read the answer).
  async function probeStream() {
    const abort = new AbortController();
    try {
      const response = await fetch(
        API + "events?since=" + seen + "&token=" + encodeURIComponent(TOKEN),
        { cache: "no-store", signal: abort.signal },
      );
      if (response.ok) {
        abort.abort(); // the stream works again; the EventSource takes over
        return;
      }
      let data = null;
      try {
        data = await response.json();
      } catch (e) {
        data = null;
      }
      if (tableRemoved(response.status, data)) return;
      if (response.status === 403 && SEATED) { // the token holds no seat any more
        seatTaken({ at: (data && data.taken_at) || new Date().toISOString() });
        return;
      }
      showNet(fmt(T.stream_refused, { reason: problem(data) }));
    } catch (e) {
      setOnline(false);
    }
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      refresh();
      connect();
      keepAwake.resume();
    }
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) { // back from the browser's page cache: the stream is gone
      refresh();
      connect();
    }
  });
  window.addEventListener("online", () => {
    flush();
    refresh();
    connect();
  });
  window.addEventListener("offline", () => setOnline(false));

  async function refresh() {
    try {
      const result = await call("GET", "state", undefined, TIMEOUT_MS);
      if (result.status === 200) {
        reached();
        render(result.data);
        flush();
      } else {
        tableRemoved(result.status, result.data);
      }
    } catch (e) {
      setOnline(false);
    }
  }

  // ---------------------------------------------------------------------------------- render

  function playerName(seat) {
    const name = seat === "A" ? T.player_a : T.player_b;
    return seat === ROLE ? name + " (" + T.you + ")" : name;
  }

  // A piece with its owner, for log lines: "Halo Frigate (Player B)". Both players may field
  // the same unit, so a name alone does not say whose it is.
  function whose(name, seat) {
    return seat ? fmt(T.piece_of, { piece: name, player: seat === "A" ? T.player_a : T.player_b }) : name;
  }

  function myTurn() {
    return !!view && view.to_act === ROLE;
  }

  function context() {
    const legal = myTurn() ? view.legal || [] : []; // what this phone may do now
    return { view, role: ROLE, send, write, fmt, toast, T, playerName, whose, myTurn: myTurn(), busy, legal };
  }

  function render(next) {
    if (view && next.revision < view.revision) return; // never step back
    const previous = view;
    view = next;
    seen = Math.max(seen, view.revision);
    app.dataset.revision = view.revision;
    if (view.presence) setPresence(view.presence);
    // a refusal is about the table as it was: once the table moved on (either phone's
    // action), its pill goes (issue 31: it stayed through later actions)
    if (lastNotice && lastNotice.kind === "refused" && view.revision > lastNotice.revision) {
      lastNotice = null;
      clearRefusalToast();
    }
    if (view.colours) setColours(view.colours);
    // the join card has done its work once seat B is taken: it leaves phone 1 (issue 31: it
    // stayed, empty, for the whole game); a lost seat comes back with a seat code instead
    const invite = $("invite");
    if (invite) invite.hidden = !!view.seats.B;
    if (game) game.render(context(), previous);
    for (const panel of panels) panel.render(context(), previous);
    renderStatus(); // after the view drew: its status may depend on what it reset
    markLastMove();
    signalTurn(previous);
    bringNext();
    // the end in sight on both phones: who won (a phone left scrolled down at its last control
    // showed the board without the result)
    if (view.outcome && previous && !previous.outcome) $("who").scrollIntoView({ block: "nearest" });
    $("undo").hidden = !SEATED || !(view.undo_seats || [view.undo_seat]).includes(ROLE);
    if ($("dice").open) loadDice();
    if ($("log").open) renderLog();
    showOutbox();
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
    renderPresence();
  }

  // ------------------------------------------------------------------- presence and colours

  function setPresence(next) {
    presence = next;
    if (view) renderPresence();
  }

  // Times in the page's language (EN/DE chosen in the top bar), not the browser's: a German
  // page shows 20:30, not 08:30 PM.
  function pageLocale() {
    return document.documentElement.lang || [];
  }

  function clock(iso) {
    const when = new Date(iso);
    if (Number.isNaN(when.getTime())) return "?";
    const options = { hour: "2-digit", minute: "2-digit" };
    if (Date.now() - when.getTime() > 20 * 3600 * 1000) {
      return when.toLocaleString(pageLocale(), { ...options, day: "numeric", month: "short" });
    }
    return when.toLocaleTimeString(pageLocale(), options);
  }

  // "Opponent connected" / "Opponent's phone gone since 19:42" (watchers see both seats).
  function renderPresence() {
    const box = $("presence");
    box.innerHTML = "";
    if (!presence || !view || !online) { // offline, what we knew of the other phone is old
      box.hidden = true;
      return;
    }
    const seats = SEATED ? [ROLE === "A" ? "B" : "A"] : ["A", "B"];
    for (const seat of seats) {
      const state = presence[seat];
      if (!state || !view.seats[seat]) continue;
      const item = document.createElement("span");
      item.className = "presence-item " + (state.connected ? "on" : "off");
      item.dataset.seat = seat;
      item.id = "presence-" + seat;
      let text;
      if (SEATED) {
        text = state.connected ? T.opponent_connected
          : state.since ? fmt(T.opponent_gone_since, { time: clock(state.since) }) : T.opponent_gone;
      } else {
        const name = playerName(seat);
        text = state.connected ? fmt(T.seat_connected, { player: name })
          : state.since ? fmt(T.seat_gone_since, { player: name, time: clock(state.since) })
          : fmt(T.seat_gone, { player: name });
      }
      item.textContent = text;
      box.append(item);
    }
    box.hidden = !box.childElementCount;
  }

  const HEX = /^#[0-9a-fA-F]{6}$/;

  function mix(hex, toward, share) {
    const parts = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const target = [1, 3, 5].map((i) => parseInt(toward.slice(i, i + 2), 16));
    return "#" + parts.map((v, i) => Math.round(v + (target[i] - v) * share)
      .toString(16).padStart(2, "0")).join("");
  }

  function luminance(hex) {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }

  // The fleets' colours of this table (as printed): fill, ink on the fill, text on the page.
  function setColours(colours) {
    const root = document.documentElement.style;
    for (const seat of ["A", "B"]) {
      const hex = colours[seat];
      if (typeof hex !== "string" || !HEX.test(hex)) continue;
      const key = seat.toLowerCase();
      root.setProperty("--" + key, hex);
      root.setProperty("--" + key + "-ink", luminance(hex) > 0.3 ? "#0b0f18" : "#ffffff");
      root.setProperty("--" + key + "-text", luminance(hex) > 0.25 ? hex : mix(hex, "#ffffff", 0.45));
    }
  }

  // ------------------------------------------------------------------------------ action log

  function remember(event) {
    log.set(event.seq, event);
  }

  // An event the live stream brought: kept for the log, its dice shown large, the other
  // player's move marked.
  function arrived(event) {
    remember(event);
    if (event.kind === "roll") showRoll(event);
    markLastMove();
    if ($("log").open) renderLog();
  }

  // ------------------------------------------------------------------ dice in sight (issue 31)

  // A roll shows its faces and their sum large on every phone for DICE_SHOW_MS (the rolls of
  // one write, e.g. both sides of a battle, together); the log keeps it. It takes no taps:
  // the page under it stays usable.
  const DICE_SHOW_MS = 4500;

  function showRoll(event) {
    const roll = event.payload;
    if (roll.sides > 100) return; // a server draw (a random layout) is no dice in a hand
    const box = $("dice-show");
    if (box.hidden || performance.now() - (showRoll.at || 0) > 1500) box.innerHTML = "";
    showRoll.at = performance.now();
    const line = el("div", "dice-line");
    line.append(el("div", "dice-purpose", (event.seat ? playerName(event.seat) + " · " : "") + purposeText(roll.purpose)));
    const faces = el("div", "dice-faces");
    for (const face of roll.faces) faces.append(el("span", "die", String(face)));
    if (roll.faces.length > 1) faces.append(el("span", "dice-sum", "= " + roll.faces.reduce((a, b) => a + b, 0)));
    line.append(faces);
    box.append(line);
    box.hidden = false;
    clearTimeout(showRoll.timer);
    showRoll.timer = setTimeout(() => (box.hidden = true), DICE_SHOW_MS);
  }

  // ------------------------------------------------------- the other player's move (issue 31)

  // The other player's last move stays marked on the board until the next move: the game view
  // names the pieces and places each action touched (marks(event, ctx) -> element ids), the
  // shell frames them (.last-move) after every drawing. A move is all the other seat's actions
  // since this phone's last one (a move and then "end turn" marks the move); a watcher sees
  // the latest seat's.
  function lastMove() {
    const events = [...log.values()].sort((a, b) => b.seq - a.seq);
    const undone = new Set(events.filter((e) => e.kind === "undo").map((e) => e.payload.undoes));
    const actions = events.filter((e) => e.kind === "action" && !undone.has(e.seq));
    const mover = actions.length ? actions[0].seat : null;
    if (!mover || mover === ROLE) return [];
    const move = [];
    for (const event of actions) {
      if (event.seat !== mover) break;
      move.push(event);
    }
    return move;
  }

  function markLastMove() {
    for (const node of document.querySelectorAll(".last-move")) node.classList.remove("last-move");
    if (!view || !game || !game.marks) return;
    for (const event of lastMove()) {
      for (const id of game.marks(event, context()) || []) {
        const node = document.getElementById(id);
        if (node) node.classList.add("last-move");
      }
    }
  }

  // ------------------------------------------------------------ "your turn" (issue 31)

  // The turn coming to this phone reaches it lying on the table: the page title says so, the
  // phone vibrates where the browser lets a page (after a tap on it), and a short tone plays
  // once a tap has allowed sound (WebAudio; no sound file).
  const TITLE = document.title;
  let audio = null;

  function unlockSound() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
  }

  function chime() {
    if (!audio || audio.state !== "running") return false;
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.setValueAtTime(660, now);
    tone.frequency.setValueAtTime(880, now + 0.12);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.25, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.4);
    return true;
  }

  const signals = { turns: 0, vibrated: 0, chimed: 0 }; // for tests and the console

  function signalTurn(previous) {
    const playing = SEATED && !!view.state && !view.outcome;
    const mine = playing && myTurn();
    document.title = mine ? "● " + T.your_turn + " · " + TITLE : TITLE;
    const before = !previous || !previous.state || previous.outcome || previous.to_act === ROLE;
    if (!mine || before) return;
    signals.turns += 1;
    const active = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (navigator.vibrate && active && navigator.vibrate([150, 80, 150])) signals.vibrated += 1;
    if (chime()) signals.chimed += 1;
  }

  // ---------------------------------------------- the control asked for next, in sight

  // After a drawing on this phone's turn, the control the game asks for next (the game view's
  // next(ctx) -> elements) is brought into view when it is not: above anything that sticks
  // to the bottom of the screen (a supply panel). Only when it changed, so that a player who
  // scrolled away to look is not pulled back by every update.
  function bringNext() {
    const nodes = game && game.next && myTurn() && !view.outcome ? (game.next(context()) || []).filter(Boolean) : [];
    const key = nodes.map((n) => n.id).join(" ");
    if (!nodes.length || key === bringNext.key) {
      bringNext.key = nodes.length ? key : null;
      return;
    }
    bringNext.key = key;
    let below = 0;
    for (const node of document.querySelectorAll(".panel")) {
      if (!node.hidden && getComputedStyle(node).position === "sticky") below += node.offsetHeight;
    }
    for (const node of [nodes[nodes.length - 1], nodes[0]]) {
      node.style.scrollMarginBottom = below + 8 + "px";
      node.style.scrollMarginTop = "8px";
      node.scrollIntoView({ block: "nearest" });
    }
  }

  // The log's latest events from the server, kept (not drawn: the log may be folded).
  async function fetchLog() {
    const result = await call("GET", "log");
    if (result.status !== 200) return false;
    for (const event of result.data.events) remember(event);
    loadLog.total = result.data.total;
    markLastMove();
    return true;
  }

  async function loadLog() {
    if (await fetchLog()) renderLog();
  }

  // "2d6: 3 + 5 = 8" ("2W6" on a German phone) for dice a player would hold, without the
  // dice where the purpose names them already ("attacker's 2d6 (PM-21): 3 + 5 = 8"); nothing
  // for a server draw of large numbers (a random layout draws e.g. 28 numbers below
  // 2,000,000: "28d2000000 …" told a player nothing).
  function dice(roll) {
    return fmt(T.dice_notation, { count: roll.count, sides: roll.sides });
  }

  function diceText(roll, separator) {
    if (roll.sides > 100) return "";
    const named = purposeText(roll.purpose).includes(dice(roll));
    const sum = roll.faces.length > 1 ? " = " + roll.faces.reduce((a, b) => a + b, 0) : "";
    return `${separator}${named ? "" : dice(roll) + " "}${roll.faces.join(" + ")}${sum}`;
  }

  // A dice purpose in the phone's language where the game translates it, else as typed. Own
  // keys only: a purpose such as "constructor" or "toString" is not an Object's method name.
  function purposeText(purpose) {
    if (purpose === FOR_FUN) return T.for_fun;
    const known = game && game.purposes;
    return known && Object.prototype.hasOwnProperty.call(known, purpose) ? known[purpose] : purpose;
  }

  function rollText(event) {
    return `${purposeText(event.payload.purpose)}${diceText(event.payload, ": ")}`;
  }

  // The rolls a write made for its action or setup (the server logs them just before it, same
  // seat, same moment): one log line says the action and its dice, not three (issue 31).
  // Returns {seq of each such roll: seq of its action}.
  function rollsOfActions(events) {
    const owner = new Map();
    for (const event of events) {
      if (event.kind !== "action" && event.kind !== "setup") continue;
      for (let seq = event.seq - 1; ; seq--) {
        const roll = log.get(seq);
        if (!roll || roll.kind !== "roll" || roll.seat !== event.seat
          || Math.abs(roll.created_at - event.created_at) > 1) break;
        owner.set(seq, event.seq);
      }
    }
    return owner;
  }

  function describe(event, rolls = []) {
    const text = describeOnly(event);
    const dice = rolls.map(rollText).filter(Boolean);
    return dice.length ? text + " · " + dice.join(" · ") : text;
  }

  function describeOnly(event) {
    if (event.kind === "join") return T.log_join;
    if (event.kind === "reclaim") return T.log_reclaim;
    if (event.kind === "undo") return fmt(T.log_undo, { seq: event.payload.undoes });
    if (event.kind === "roll") return rollText(event);
    for (const panel of panels) {
      const own = panel.describe ? panel.describe(event, context()) : null;
      if (own) return own;
    }
    const text = game && game.describe ? game.describe(event, context()) : null;
    return text || event.kind;
  }

  function renderLog() {
    const list = $("log-list");
    list.innerHTML = "";
    const undone = new Set([...log.values()].filter((e) => e.kind === "undo").map((e) => e.payload.undoes));
    const events = [...log.values()].sort((a, b) => b.seq - a.seq);
    const owner = rollsOfActions(events);
    for (const event of events) {
      if (owner.has(event.seq)) continue; // told on its action's line
      const rolls = events.filter((e) => owner.get(e.seq) === event.seq).reverse();
      const item = document.createElement("li");
      item.id = "log-" + event.seq;
      if (undone.has(event.seq)) item.className = "undone";
      const when = new Date(event.created_at * 1000).toLocaleTimeString(pageLocale(), {
        hour: "2-digit", minute: "2-digit", second: "2-digit",
      });
      const who = event.seat ? playerName(event.seat) : T.server;
      const head = document.createElement("span");
      head.className = "log-head" + (event.seat ? " seat-" + event.seat : "");
      head.textContent = `#${event.seq} · ${when} · ${who}`;
      const what = document.createElement("span");
      what.textContent = describe(event, rolls);
      item.append(head, what);
      list.append(item);
    }
    const oldest = events.length ? events[events.length - 1].seq : 0;
    if (oldest > 1) {
      const more = document.createElement("li");
      more.className = "small";
      more.textContent = fmt(T.log_older, { n: oldest - 1 });
      list.append(more);
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
      item.textContent = `#${roll.seq} ${purposeText(roll.purpose)}${diceText(roll, " · ")} · ${T.by} ${roll.seat ? playerName(roll.seat) : T.server}`;
      list.append(item);
    }
    box.append(heading, list);
    for (const stats of result.data.frequencies) {
      const table = document.createElement("table");
      table.className = "freq";
      const head = table.insertRow();
      for (const text of [fmt(T.dice_notation, { count: "", sides: stats.sides }) + " " + T.face, T.observed, T.expected]) {
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
  $("outbox-discard").onclick = discard;
  $("outbox").onclick = explainOutbox;
  const rollForm = $("roll-form");
  if (rollForm) {
    rollForm.onsubmit = (event) => {
      event.preventDefault();
      const data = new FormData(rollForm);
      write("dice", {
        count: Number(data.get("count")),
        sides: Number(data.get("sides")),
        // The form's default words go as the English key, so the other phone shows them in
        // its own language (a German "zum Spaß" read on an English phone otherwise).
        purpose: String(data.get("purpose")).trim() === T.for_fun ? FOR_FUN : String(data.get("purpose")),
      });
    };
  }

  // ------------------------------------------------------------------------------ seat code

  // The seated phone shows a short code; a phone that lost its seat cookie enters it on the
  // "no seat" page (message.html) and gets the seat back (POST reclaim-code / reclaim).
  // A seat code is for the other seat (it works once that seat's phone is away); a move code
  // is for this phone's own seat (asking for it is this phone's consent: it works at once).
  for (const [id, body] of [["reclaim-show", {}], ["reclaim-move", { seat: ROLE }]]) {
    const codeButton = $(id);
    if (!codeButton) continue;
    codeButton.onclick = async () => {
      if (codeButton.disabled) return;
      codeButton.disabled = true;
      const out = $("reclaim-code");
      try {
        const result = await call("POST", "reclaim-code", body, TIMEOUT_MS);
        if (result.status === 200 || result.status === 201) {
          const data = result.data || {};
          out.textContent = data.code || "?";
          const until = data.expires_at ? clock(data.expires_at)
            : data.expires_in ? clock(new Date(Date.now() + data.expires_in * 1000).toISOString())
            : null;
          const parts = [];
          if (data.seat) parts.push(fmt(T.reclaim_for, { player: playerName(data.seat) }));
          if (until) parts.push(fmt(T.reclaim_until, { time: until }));
          $("reclaim-note").textContent = parts.join(" · ");
          out.hidden = false;
        } else if (result.status === 404 || result.status === 405) {
          $("reclaim-note").textContent = T.reclaim_unavailable;
        } else {
          $("reclaim-note").textContent = problem(result.data);
        }
      } catch (e) {
        $("reclaim-note").textContent = T.offline;
      } finally {
        codeButton.disabled = false;
      }
    };
  }

  // ----------------------------------------------------------------------- screen stays on

  // The Screen Wake Lock API where the browser has it (secure contexts: https, localhost);
  // elsewhere (plain http on the LAN), and where the lock is refused, the NoSleep.js technique
  // with its two tiny videos (NoSleep.media.js): a looping video started by a tap. Each engine
  // has its own rule for a video that keeps the screen on: Blink wants it audible, or covering
  // more than 20 % of the viewport with 75 % of it on screen (VideoWakeLock::ShouldBeActive), so
  // the muted video lies over the whole page at 1 % opacity and takes no taps; WebKit wants an
  // unmuted video with sound that does not use the loop attribute, so there the (silent) mp4
  // plays unmuted and loops by seeking, as NoSleep.js does. The status line says which way
  // keeps the screen on, or that none can.
  const keepAwake = (() => {
    let lock = null;
    let video = null;
    let mode = "off"; // "lock", "video", "failed" (or "off" before the first tap)
    const box = $("awake");
    const webkit = /iP(hone|ad|od)/.test(navigator.userAgent)
      || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
    const hasLock = "wakeLock" in navigator && window.isSecureContext;

    function show(text, state, why = "") {
      if (!box) return;
      box.textContent = text;
      box.dataset.state = state;
      box.title = why;
    }

    async function viaLock() {
      if (!hasLock) return false;
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => {
          lock = null;
          if (mode === "lock") show(T.awake_tap, "off");
        });
        mode = "lock";
        show(T.awake_lock, "on");
        return true;
      } catch (e) {
        return false;
      }
    }

    function makeVideo() {
      const media = window.NoSleepMedia;
      if (!media) return null;
      const element = document.createElement("video");
      element.id = "awake-video";
      element.className = "awake-video";
      element.setAttribute("playsinline", "");
      element.setAttribute("aria-hidden", "true");
      element.muted = !webkit;
      if (!webkit) element.setAttribute("muted", "");
      for (const [type, uri] of [["webm", media.webm], ["mp4", media.mp4]]) {
        const source = document.createElement("source");
        source.src = uri;
        source.type = "video/" + type;
        element.append(source);
      }
      element.addEventListener("loadedmetadata", () => {
        if (element.duration <= 1) element.setAttribute("loop", ""); // the webm
        else element.addEventListener("timeupdate", () => {
          if (element.currentTime > 0.5) element.currentTime = Math.random();
        });
      });
      document.body.append(element);
      return element;
    }

    // Must run inside the tap's handler (a video may only start from a tap).
    function viaVideo() {
      if (!video) video = makeVideo();
      if (!video) return Promise.resolve(false);
      return video.play().then(() => {
        mode = "video";
        show(T.awake_video, "on", window.isSecureContext ? "" : T.awake_why_video);
        return true;
      }, () => false);
    }

    function failed() {
      mode = "failed";
      show(T.awake_unavailable, "off");
    }

    function start() {
      if ((mode === "lock" && lock) || (mode === "video" && video && !video.paused)) return;
      if (!hasLock) {
        viaVideo().then((ok) => ok || failed());
        return;
      }
      viaLock().then((ok) => ok || viaVideo().then((good) => good || failed()));
    }

    function resume() {
      if (mode === "lock" && !lock) viaLock();
      if (mode === "video" && video && video.paused) video.play().catch(() => {});
    }

    function init() {
      if (!box) return;
      show(hasLock || window.NoSleepMedia ? T.awake_tap : T.awake_unavailable, "off");
      document.addEventListener("click", start, { capture: true });
      document.addEventListener("touchend", start, { capture: true, passive: true });
      if (hasLock) viaLock(); // the lock needs no tap
    }

    return { init, start, resume, mode: () => mode };
  })();

  // ------------------------------------------------------------------------------------ boot

  function register(gameView) {
    game = gameView;
  }

  function panel(platformPanel) {
    Object.assign(T, platformPanel.strings || {});
    panels.push(platformPanel);
  }

  function start() {
    keepAwake.init();
    document.addEventListener("pointerdown", unlockSound, { capture: true, passive: true });
    // a tap anywhere puts the dice away early (the tap itself goes on to what it hit)
    document.addEventListener("pointerdown", () => ($("dice-show").hidden = true), { capture: true, passive: true });
    showOutbox();
    if (outbox.length) setBusy(true);
    refresh().then(() => {
      connect();
      fetchLog(); // the other player's last move, to mark it
    });
  }

  return {
    register, panel, start, fmt, newId, toast, role: ROLE, turned: TURNED, fillFromSide, $, el, button, other, reason,
    gameStrings,
    // for tests and the console: the outbox as it stands, the screen lock's way
    outbox: () => outbox.map((e) => ({ id: e.id, path: e.path, body: e.body })),
    transport: () => (source && source.readyState === 1 ? (source.post ? "socket" : "sse") : null),
    awake: () => keepAwake.mode(),
    signals: () => ({ ...signals, title: document.title }),
    // a view that redrew itself after a local tap (a ship or a troop chosen) asks again
    showNext: bringNext,
  };
})();

window.addEventListener("load", Tablesmith.start);
