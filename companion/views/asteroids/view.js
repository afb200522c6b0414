// Tablesmith companion: the Asteroids table (AST-1..AST-30) inside the shell (shell.js).
// The board is rebuilt from the table view alone: after a reload, an unlock, a server restart
// or the other phone's action every control (push arrows included) is drawn again.
"use strict";

(() => {
const { gameStrings: G, role: ROLE, turned: TURNED } = Tablesmith; // TURNED: seat B, the table turned
const PLACES = TURNED ? [8, 7, 6, 5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6, 7, 8]; // left to right
const { $, fmt } = Tablesmith;
let ctx = null; // the shell's context at the last render
let view = null;
let selected = null; // origin spot [rift, place] of the tapped ship
let chosen = null; // {fragment, layout} picked from the supply
let toasted = null; // the ply whose ships sent home were toasted (or the first one seen)

function send(action) {
  return ctx.send(action);
}

function same(a, b) {
  return a !== null && b !== null && a[0] === b[0] && a[1] === b[1];
}

function myTurn() {
  return ctx.myTurn;
}

function render(context, previous) {
  ctx = context;
  view = ctx.view;
  if (!previous || view.revision !== previous.revision) selected = null;
  // "Sent home" is toasted once, for the ply that sent the ships home, never again for an
  // older one (it came back after a dice roll, issue 31); the info line keeps it in sight
  const ply = view.state ? view.state.ply : null;
  if (previous && ply !== null && ply !== toasted && view.state.returned.length) ctx.toast(sentHome(view.state.returned));
  toasted = ply;
  const state = view.state;
  $("setup").hidden = !!state || ROLE === "watch";
  syncChoice(); // before the board: the push arrows depend on the chosen fragment
  renderInfo();
  renderBoard();
  renderPanel();
  if (state === null && ROLE !== "watch") renderEditor();
}

function status(context) {
  const state = context.view.state;
  if (!state || state.phase === "over") return {};
  if (!context.myTurn) return { hint: fmt(G.turn, { turn: state.turn }) };
  if (state.phase === "push") {
    return { hint: G.push + (state.push_rift ? " · " + G.push_rift + " " + state.push_rift
      : " · " + G.choose_rift) };
  }
  return { hint: selected ? G.pick_target : state.phase === "step1" ? G.step1 : G.step2 };
}

// "Sent home: a ship of Player B (you)" (was "Sent home: B", the bare seat letters).
function sentHome(seats) {
  return fmt(G.sent_home, { ships: seats.map((seat) => fmt(G.ship_of, { player: ctx.playerName(seat) })).join(", ") });
}

function renderInfo() {
  const state = view.state;
  const returned = !!state && state.returned.length > 0 && state.phase !== "over";
  $("returned").hidden = !returned;
  $("returned").textContent = returned ? sentHome(state.returned) : "";
  $("score").innerHTML = "";
  if (!state) return;
  $("score").append(G.score + " ");
  for (const colour of ["A", "B"]) {
    const span = document.createElement("span");
    span.className = "pill ship-" + colour;
    span.textContent = ctx.playerName(colour) + ": " + state.scored[colour];
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

// A fragment's halves (layout "HA": hole at the lower place, D6) in this screen's left-to-right
// order: turned for B, so that a fragment in the supply looks as it will lie in the rift.
function onScreen(layout) {
  return TURNED ? [...layout].reverse() : [...layout];
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
  // Own base at the bottom, the table turned through 180 degrees for B (never mirrored): B sees
  // rift 1 at the top and place 8 on the left, the left rift end on the right.
  board.classList.toggle("turned", TURNED);
  // the rift ends' columns are there only in the push phase, so that in a step the eight
  // places share the whole width (44 px and more each on a 390 px phone)
  const pushing = state.phase === "push";
  board.classList.toggle("pushing", pushing);
  let off = null; // the "off the board" target of the selected ship (AST-13)
  for (const rift of TURNED ? [0, 1, 2, 3, 4, 5, 6, 7] : [7, 6, 5, 4, 3, 2, 1, 0]) {
    if (rift === 0 || rift === 7) {
      board.append(baseRow(state, rift, origins, targets));
      continue;
    }
    const row = document.createElement("div");
    row.className = "row" + (state.push_rift === rift ? " unstable" : "");
    row.id = "rift-" + rift;
    row.dataset.rift = rift;
    if (pushing) row.append(edge(rift, TURNED ? "right" : "left", pushes));
    for (const place of PLACES) {
      const spot = [rift, place];
      const cell = document.createElement("button");
      cell.type = "button";
      cell.id = "c-" + rift + "-" + place;
      const kind = cellLayout(state, rift, place);
      // fl / fr: the fragment's half on this screen's left / right (its seams drawn between)
      const first = place % 2 === 1; // the half nearer place 1
      cell.className = "cell " + (kind === "A" ? "asteroid" : "hole") + (first !== TURNED ? " fl" : " fr");
      const ships = stackAt(state, rift, place);
      if (ships.length) cell.append(shipDisc(ships, ships.length));
      if (origins.some((o) => same(o, spot))) cell.classList.add("origin");
      if (same(selected, spot)) cell.classList.add("selected");
      if (targets.some((t) => same(t, spot))) cell.classList.add("target");
      // only a ship to move or a target takes a tap: the rest are no tap targets
      cell.disabled = !cell.classList.contains("origin") && !cell.classList.contains("target");
      cell.onclick = () => tap(spot);
      row.append(cell);
    }
    if (pushing) row.append(edge(rift, TURNED ? "left" : "right", pushes));
    if (selected && selected[0] === rift && selected[1] !== 0 && targets.includes(null)) off = offTarget(rift);
    board.append(row);
  }
  if (off) board.append(off);
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
  title.textContent = fmt(G.base_of, { player: ctx.playerName(owner) });
  cell.append(title);
  const home = document.createElement("span");
  home.append(shipDisc([owner], 1), " ×" + state.home[owner] + " " + G.home);
  const scored = document.createElement("span");
  scored.append(shipDisc([visitor], 1), " ×" + state.scored[visitor] + " " + G.scored);
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

function edge(rift, side, pushes) {
  const cell = document.createElement("button");
  cell.type = "button";
  cell.id = "e-" + rift + "-" + side;
  cell.className = "edge";
  const push = pushes.find((p) => p.rift === rift && p.side === side);
  cell.disabled = !push;
  if (push) {
    cell.classList.add("push");
    // The arrow points the way the fragments move on this screen: from the rift end it is
    // pushed in at towards the other (the left end is on B's right).
    cell.textContent = (side === "left") !== TURNED ? "▶" : "◀";
    cell.onclick = () => send(push);
  }
  return cell;
}

// The selected ship leaves the board sideways (AST-13): a whole-width target under the board.
function offTarget(rift) {
  const origin = selected;
  const side = (origin[1] === 1) !== TURNED ? "left" : "right";
  const cell = document.createElement("button");
  cell.type = "button";
  cell.id = "e-" + rift + "-" + (origin[1] === 1 ? "left" : "right");
  cell.className = "edge off target";
  cell.textContent = (side === "left" ? "◀ " : "") + fmt(G.off_board, { rift }) + (side === "right" ? " ▶" : "");
  cell.onclick = () => send({ type: "move", origin, target: null });
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
  $("hint").textContent = status(ctx).hint || "";
  renderBoard();
  Tablesmith.showNext(); // its targets (the off-board one under the board) in sight
}

// The fragment (and its layout) to push, from the view alone: kept while it is still legal,
// else the first legal push. Runs before the board is drawn, so that after a reload, an unlock
// or the other phone's action in the push phase the arrows are there at once.
function syncChoice() {
  const pushes = legalPushes();
  if (chosen && !pushes.some((p) => p.fragment === chosen.fragment && p.layout === chosen.layout)) {
    const same = pushes.find((p) => p.fragment === chosen.fragment);
    chosen = same ? { fragment: same.fragment, layout: same.layout } : null;
  }
  if (!chosen && pushes.length) chosen = { fragment: pushes[0].fragment, layout: pushes[0].layout };
}

function renderPanel() {
  const state = view.state;
  const pushes = legalPushes();
  $("supply").hidden = !state || state.phase !== "push";
  if (state) {
    const list = $("supply-list");
    list.innerHTML = "";
    const options = [...new Set(pushes.map((p) => p.fragment))];
    syncChoice();
    for (const fragment of state.supply) {
      const button = document.createElement("button");
      button.type = "button";
      button.id = "f-" + fragment;
      button.className = "fragment" + (chosen && chosen.fragment === fragment ? " chosen" : "");
      const layout = chosen && chosen.fragment === fragment ? chosen.layout
        : state.fragments[fragment] === "HH" ? "HH" : "HA";
      button.dataset.layout = layout;
      for (const place of onScreen(layout)) {
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
  for (const rift of TURNED ? [1, 2, 3, 4, 5, 6] : [6, 5, 4, 3, 2, 1]) {
    const row = document.createElement("div");
    row.className = "editor-row";
    const label = document.createElement("span");
    label.className = "rift-no";
    label.textContent = rift;
    row.append(label);
    const slots = [0, 1, 2, 3];
    for (const slot of TURNED ? slots.reverse() : slots) {
      const layout = editorLayout[rift - 1][slot];
      const button = document.createElement("button");
      button.type = "button";
      button.className = "fragment";
      button.id = "m-" + rift + "-" + slot;
      for (const place of onScreen(layout)) {
        const half = document.createElement("span");
        half.className = place === "A" ? "asteroid" : "hole";
        button.append(half);
      }
      button.onclick = () => {
        editorLayout[rift - 1][slot] = CYCLE[layout];
        renderEditor();
      };
      row.append(button);
    }
    editor.append(row);
  }
  const used = editorLayout.flat();
  const hh = used.filter((layout) => layout === "HH").length;
  const counts = document.createElement("p");
  counts.className = "small";
  counts.id = "editor-counts";
  counts.textContent = fmt(G.counts, { hh, ha: used.length - hh });
  editor.append(counts);
}

$("random-setup").onclick = () => send({ type: "setup", mode: "random", variant: variant() });
$("manual-setup").onclick = () =>
  send({ type: "setup", mode: "manual", rifts: editorLayout, variant: variant() });


function describe(event) {
  if (event.kind === "setup") return G.log_setup;
  if (event.kind !== "action") return null;
  const action = event.payload.action;
  const spot = (s) => (s === null ? G.off
    : s[1] === 0 ? fmt(G.base_of, { player: ctx.playerName(s[0] === 0 ? "A" : "B") })
    : s[0] + "/" + s[1]);
  if (action.type === "move") return G.log_move + " " + spot(action.origin) + " → " + spot(action.target);
  if (action.type === "push") return fmt(G.log_push, { rift: action.rift });
  if (action.type === "skip") return G.skip;
  return action.type;
}

// The places the other player's last action touched (shell.js marks them).
function marks(event) {
  const action = event.payload.action;
  const cell = (s) => (s === null ? null : "c-" + s[0] + "-" + s[1]);
  if (action.type === "move") return [cell(action.origin), cell(action.target)].filter(Boolean);
  if (action.type === "push") return ["rift-" + action.rift];
  return [];
}

// The controls this phone is asked to use next (shell.js brings them into view): the push
// arrows, the targets of the selected ship, or the ships that can move.
function next() {
  const board = $("board");
  for (const wanted of [".edge.push", ".target", ".origin"]) {
    const found = [...board.querySelectorAll(wanted)];
    if (found.length) return found;
  }
  return [$("skip").hidden ? null : $("skip")];
}

Tablesmith.register({ render, status, describe, marks, next, purposes: G.purposes });
})();
