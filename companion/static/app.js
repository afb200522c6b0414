// Tablesmith companion: the Asteroids table page (no build step, no framework).
// Plain http on a LAN is not a secure context: no crypto.randomUUID, no service worker;
// ids come from crypto.getRandomValues (ARCHITECTURE.md, Companion).
"use strict";

const app = document.getElementById("app");
const T = JSON.parse(document.getElementById("strings").textContent);
const ROLE = app.dataset.role;
const TOKEN = app.dataset.token;
const API = app.dataset.api; // ".../api/t/<table>/"
const $ = (id) => document.getElementById(id);

let view = null; // the latest table view from the server
let seen = 0; // the last event seq received on the stream
let source = null;
let selected = null; // origin spot [rift, place] of the tapped ship
let chosen = null; // {fragment, layout} picked from the supply
let busy = false;

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

// Send a write; retries with the SAME client_action_id are harmless (idempotent).
async function send(action) {
  if (busy || !view) return;
  busy = true;
  const body = { expected_revision: view.revision, client_action_id: newId(), action };
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      let result;
      try {
        result = await call("POST", "actions", body);
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
      return;
    }
    toast(T.offline);
  } finally {
    busy = false;
  }
}

// ------------------------------------------------------------------------------- live stream

function connect() {
  if (source) source.close();
  source = new EventSource(API + "events?since=" + seen + "&token=" + encodeURIComponent(TOKEN));
  source.onmessage = (event) => {
    seen = Math.max(seen, Number(event.lastEventId) || seen);
    const message = JSON.parse(event.data);
    if (message.view) render(message.view);
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

// ------------------------------------------------------------------------------------ render

function same(a, b) {
  return a !== null && b !== null && a[0] === b[0] && a[1] === b[1];
}

function myTurn() {
  return view && view.state && view.state.player === ROLE && view.state.phase !== "over";
}

function render(next) {
  if (view && next.revision < view.revision) return; // never step back
  const oldPly = view && view.state ? view.state.ply : -1;
  if (!view || next.revision !== view.revision) selected = null;
  if (next.state && next.state.ply !== oldPly && next.state.returned.length) {
    toast(fmt(T.sent_home, { ships: next.state.returned.join(", ") }));
  }
  view = next;
  seen = Math.max(seen, view.revision);
  app.dataset.revision = view.revision;
  const invite = $("invite");
  if (invite && view.seats.B && !render.invited) invite.open = false;
  render.invited = view.seats.B;
  const state = view.state;
  $("setup").hidden = !!state || ROLE === "watch";
  renderStatus();
  renderBoard();
  renderPanel();
  if (state === null && ROLE !== "watch") renderEditor();
  if ($("dice").open) loadDice();
}

function playerName(colour) {
  const name = colour === "A" ? T.player_a : T.player_b;
  return colour === ROLE ? name + " (" + T.you + ")" : name;
}

function renderStatus() {
  const state = view.state;
  const who = $("who");
  const hint = $("hint");
  if (!state) {
    who.textContent = view.seats.B ? T.not_set_up : T.waiting_b;
    hint.textContent = "";
    $("score").textContent = "";
    return;
  }
  if (state.phase === "over") {
    who.textContent = fmt(T.winner, { player: playerName(state.winner) });
    who.className = "who turn-" + state.winner;
    hint.textContent = T.over;
  } else {
    who.textContent =
      ROLE === "watch" ? T.watching + " · " + playerName(state.player)
      : myTurn() ? T.your_turn : T.their_turn;
    who.className = "who turn-" + state.player;
    if (!myTurn()) hint.textContent = fmt(T.turn, { turn: state.turn });
    else if (state.phase === "push") {
      hint.textContent = T.push + (state.push_rift ? " · " + T.push_rift + " " + state.push_rift
        : " · " + T.choose_rift);
    } else if (selected) hint.textContent = T.pick_target;
    else hint.textContent = state.phase === "step1" ? T.step1 : T.step2;
  }
  const returned = state.returned.length && state.phase !== "over";
  $("returned").hidden = !returned;
  $("returned").textContent = returned ? fmt(T.sent_home, { ships: state.returned.join(", ") }) : "";
  $("score").innerHTML = "";
  $("score").append(T.score + " ");
  for (const colour of ["A", "B"]) {
    const span = document.createElement("span");
    span.className = "pill ship-" + colour;
    span.textContent = playerName(colour) + ": " + state.scored[colour];
    $("score").append(span, " ");
  }
}

function legalMoves() {
  return myTurn() ? view.legal.filter((a) => a.type === "move") : [];
}

function legalPushes() {
  return myTurn() ? view.legal.filter((a) => a.type === "push") : [];
}

function cellLayout(state, rift, place) {
  const tile = state.rifts[rift - 1][Math.floor((place - 1) / 2)];
  return tile[1][(place - 1) % 2];
}

function stackAt(state, rift, place) {
  for (const [r, p, ships] of state.stacks) if (r === rift && p === place) return ships;
  return [];
}

function shipDisc(colours, count) {
  const disc = document.createElement("span");
  disc.className = "ship ship-" + colours[colours.length - 1];
  disc.textContent = count > 1 ? String(count) : "";
  if (colours.length > 1) disc.title = colours.join("");
  if (colours.length > 1) {
    const under = document.createElement("span");
    under.className = "under";
    under.textContent = colours.slice(0, -1).join("");
    disc.append(under);
  }
  return disc;
}

function renderBoard() {
  const board = $("board");
  board.innerHTML = "";
  const state = view.state;
  if (!state) return;
  const moves = legalMoves();
  const origins = moves.map((m) => m.origin);
  const targets = selected ? moves.filter((m) => same(m.origin, selected)).map((m) => m.target) : [];
  const pushes = legalPushes().filter(
    (p) => chosen && p.fragment === chosen.fragment && p.layout === chosen.layout,
  );
  // Own base at the bottom: B sees rift 1 at the top.
  let rows = [7, 6, 5, 4, 3, 2, 1, 0];
  if (ROLE === "B") rows = rows.reverse();
  for (const rift of rows) {
    if (rift === 0 || rift === 7) {
      board.append(baseRow(state, rift, origins, targets));
      continue;
    }
    const row = document.createElement("div");
    row.className = "row" + (state.push_rift === rift ? " unstable" : "");
    row.append(edge(rift, "left", pushes, targets));
    for (let place = 1; place <= 8; place++) {
      const spot = [rift, place];
      const cell = document.createElement("button");
      cell.type = "button";
      cell.id = "c-" + rift + "-" + place;
      const kind = cellLayout(state, rift, place);
      cell.className = "cell " + (kind === "A" ? "asteroid" : "hole") + (place % 2 ? " fl" : " fr");
      const ships = stackAt(state, rift, place);
      if (ships.length) cell.append(shipDisc(ships, ships.length));
      if (origins.some((o) => same(o, spot))) cell.classList.add("origin");
      if (same(selected, spot)) cell.classList.add("selected");
      if (targets.some((t) => same(t, spot))) cell.classList.add("target");
      cell.onclick = () => tap(spot);
      row.append(cell);
    }
    row.append(edge(rift, "right", pushes, targets));
    const label = document.createElement("span");
    label.className = "rift-no";
    label.textContent = rift;
    row.prepend(label);
    board.append(row);
  }
}

function baseRow(state, rift, origins, targets) {
  const owner = rift === 0 ? "A" : "B";
  const visitor = owner === "A" ? "B" : "A";
  const spot = [rift, 0];
  const cell = document.createElement("button");
  cell.type = "button";
  cell.id = "c-" + rift + "-0";
  cell.className = "base base-" + owner;
  const title = document.createElement("span");
  title.className = "base-title";
  title.textContent = fmt(T.base_of, { player: playerName(owner) });
  cell.append(title);
  const home = document.createElement("span");
  home.append(shipDisc([owner], 1), " ×" + state.home[owner] + " " + T.home);
  const scored = document.createElement("span");
  scored.append(shipDisc([visitor], 1), " ×" + state.scored[visitor] + " " + T.scored);
  cell.append(home, scored);
  if (origins.some((o) => same(o, spot))) cell.classList.add("origin");
  if (same(selected, spot)) cell.classList.add("selected");
  if (targets.some((t) => same(t, spot))) cell.classList.add("target");
  cell.onclick = () => tap(spot);
  const row = document.createElement("div");
  row.className = "row base-row";
  row.append(cell);
  return row;
}

function edge(rift, side, pushes, targets) {
  const cell = document.createElement("button");
  cell.type = "button";
  cell.id = "e-" + rift + "-" + side;
  cell.className = "edge";
  const push = pushes.find((p) => p.rift === rift && p.side === side);
  if (push) {
    cell.classList.add("push");
    cell.textContent = side === "left" ? "▶" : "◀";
    cell.onclick = () => send(push);
    return cell;
  }
  const off = selected && selected[1] !== 0 && selected[0] === rift && targets.includes(null);
  if (off) {
    cell.classList.add("target");
    cell.textContent = T.off;
    cell.onclick = () => send({ type: "move", origin: selected, target: null });
  }
  return cell;
}

function tap(spot) {
  if (!myTurn() || view.state.phase === "push") return;
  const moves = legalMoves();
  if (selected) {
    const move = moves.find((m) => same(m.origin, selected) && same(m.target, spot));
    if (move) return send(move);
  }
  selected = moves.some((m) => same(m.origin, spot)) && !same(selected, spot) ? spot : null;
  renderStatus();
  renderBoard();
}

function renderPanel() {
  const state = view.state;
  const pushes = legalPushes();
  $("supply").hidden = !state || state.phase !== "push";
  if (state) {
    const list = $("supply-list");
    list.innerHTML = "";
    const options = [...new Set(pushes.map((p) => p.fragment))];
    if (chosen && !pushes.some((p) => p.fragment === chosen.fragment)) chosen = null;
    if (!chosen && options.length) {
      const first = pushes[0];
      chosen = { fragment: first.fragment, layout: first.layout };
    }
    for (const fragment of state.supply) {
      const button = document.createElement("button");
      button.type = "button";
      button.id = "f-" + fragment;
      button.className = "fragment" + (chosen && chosen.fragment === fragment ? " chosen" : "");
      const layout = chosen && chosen.fragment === fragment ? chosen.layout
        : state.fragments[fragment] === "HH" ? "HH" : "HA";
      for (const place of layout) {
        const half = document.createElement("span");
        half.className = place === "A" ? "asteroid" : "hole";
        button.append(half);
      }
      button.disabled = !options.includes(fragment);
      button.onclick = () => {
        const layouts = pushes.filter((p) => p.fragment === fragment).map((p) => p.layout);
        chosen = { fragment, layout: layouts[0] };
        renderPanel();
        renderBoard();
      };
      list.append(button);
    }
    $("flip").hidden = !chosen || state.fragments[chosen.fragment] === "HH";
  }
  $("flip").onclick = () => {
    chosen.layout = chosen.layout === "HA" ? "AH" : "HA";
    renderPanel();
    renderBoard();
  };
  $("undo").hidden = !view.undo_seat || view.undo_seat !== ROLE;
  $("undo").onclick = () => send({ type: "undo" });
  $("skip").hidden = !myTurn() || !view.legal.some((a) => a.type === "skip");
  $("skip").onclick = () => send({ type: "skip" });
}

// ------------------------------------------------------------------------------------- setup

// A legal start (12 + 12 in the rifts, 2 + 2 in the supply) for the players to edit.
const editorLayout = Array.from({ length: 6 }, () => ["HH", "HA", "HH", "AH"]);
const CYCLE = { HH: "HA", HA: "AH", AH: "HH" };

function variant() {
  const box = (name) => document.querySelector(`#setup input[name=${name}]`).checked;
  return {
    jump_mandatory: box("jump_mandatory"),
    stack_on_enemy: box("stack_on_enemy"),
    immediate_repush: box("immediate_repush"),
    ships_in_play: box("seven") ? 7 : 8,
    scored_ships_mobile: box("scored_ships_mobile"),
  };
}

function renderEditor() {
  const editor = $("editor");
  editor.innerHTML = "";
  for (let rift = 6; rift >= 1; rift--) {
    const row = document.createElement("div");
    row.className = "editor-row";
    const label = document.createElement("span");
    label.className = "rift-no";
    label.textContent = rift;
    row.append(label);
    editorLayout[rift - 1].forEach((layout, slot) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "fragment";
      button.id = "m-" + rift + "-" + slot;
      for (const place of layout) {
        const half = document.createElement("span");
        half.className = place === "A" ? "asteroid" : "hole";
        button.append(half);
      }
      button.onclick = () => {
        editorLayout[rift - 1][slot] = CYCLE[layout];
        renderEditor();
      };
      row.append(button);
    });
    editor.append(row);
  }
  const used = editorLayout.flat();
  const hh = used.filter((layout) => layout === "HH").length;
  const counts = document.createElement("p");
  counts.className = "small";
  counts.id = "editor-counts";
  counts.textContent = fmt(T.counts, { hh, ha: used.length - hh });
  editor.append(counts);
}

$("random-setup").onclick = () => send({ type: "setup", mode: "random", variant: variant() });
$("manual-setup").onclick = () =>
  send({ type: "setup", mode: "manual", rifts: editorLayout, variant: variant() });

// -------------------------------------------------------------------------------------- dice

async function loadDice() {
  const result = await call("GET", "dice");
  if (result.status !== 200) return;
  const [title, face, observed, expected, chi, by] =
    document.getElementById("dice-labels").innerHTML.split("|");
  const box = $("dice-history");
  box.innerHTML = "";
  const heading = document.createElement("h3");
  heading.textContent = title;
  const list = document.createElement("ol");
  list.className = "rolls";
  for (const roll of result.data.rolls.slice().reverse()) {
    const item = document.createElement("li");
    const faces = roll.sides > 100 ? roll.count + "×d" + roll.sides : roll.faces.join(" ");
    const purpose = T.purposes[roll.purpose] || roll.purpose;
    item.textContent = `#${roll.seq} ${purpose} · ${roll.count}d${roll.sides}: ${faces} · ${by} ${roll.seat}`;
    list.append(item);
  }
  box.append(heading, list);
  for (const stats of result.data.frequencies) {
    const table = document.createElement("table");
    table.className = "freq";
    const head = table.insertRow();
    for (const text of ["d" + stats.sides + " " + face, observed, expected]) {
      head.insertCell().textContent = text;
    }
    stats.observed.forEach((count, index) => {
      const row = table.insertRow();
      row.insertCell().textContent = index + 1;
      row.insertCell().textContent = count;
      row.insertCell().textContent = stats.expected.toFixed(1);
    });
    const caption = table.createCaption();
    caption.textContent = `${chi} = ${stats.chi_square.toFixed(2)} (${stats.dice})`;
    box.append(table);
  }
}

$("dice").addEventListener("toggle", () => $("dice").open && loadDice());
const rollForm = $("roll-form");
if (rollForm) {
  rollForm.onsubmit = async (event) => {
    event.preventDefault();
    const data = new FormData(rollForm);
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
  };
}

refresh().then(connect);
