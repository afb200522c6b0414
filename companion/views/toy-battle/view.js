// Tablesmith companion: the Toy Battle table (TB-1..TB-41) inside the shell (shell.js).
// The terrain is drawn as an SVG graph in its own layout (games/toybattle/terrains.py:
// node positions, path sections, regions with medals, special bases), turned so that the
// phone's own H.Q. is at the bottom. Choosing a troop highlights exactly the bases the
// server lists as legal; effects are prompted in order and can be declined.
"use strict";

(() => {
  const { gameStrings: G, role: ROLE, $, fmt, el, button, other } = Tablesmith;
  const kit = Tablesmith.cardKit(G);
  const SVG = "http://www.w3.org/2000/svg";
  const TROOPS = ["Kwak", "Skully", "Cap'n", "Jumbo", "Hook", "XB-42", "Star", "Roxy"];
  // each troop's one-character mark as the printed cards show it (J for Kwak, the joker):
  // from the table view (games/toybattle/game.py, MARKS), so phone and paper never differ
  const mark = (troop) => ((ctx && ctx.view.marks) || {})[troop] || troop[0];
  let ctx = null;
  let state = null;
  let terrain = null;
  let troop = null; // the troop this phone is about to place
  let moving = null; // the node chosen first for a two-step effect (Volcanic Jungle)

  const svg = (tag, attrs) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  };
  const legal = () => ctx.legal;
  // the choice ends when it is sent: the answer's view is drawn without it (the next control
  // asked for is then the new one, not the bases of the troop just placed)
  const send = (action) => {
    troop = null;
    moving = null;
    return ctx.send(action);
  };
  const colour = (seat) => state.seats[seat].colour;

  // ------------------------------------------------------------------------------- render

  function render(context, previous) {
    ctx = context;
    state = ctx.view.state;
    terrain = ctx.view.terrain || null;
    if (kit.beforeSetup(state, "tb-setup", ["tb-effect", "tb-troops"], ["tb-board", "tb-info"])) return;
    if (!previous || previous.revision !== ctx.view.revision) {
      if (troop && !placeable(troop)) troop = null;
    }
    renderInfo();
    renderEffect();
    renderTroops();
    renderBoard();
  }

  function status(context) {
    const s = context.view.state;
    if (!s) return {};
    if (s.ended) return { hint: G.reasons[s.ended.reason] || s.ended.reason };
    if (context.view.to_act !== ROLE) return { hint: fmt(G.turn, { turn: s.turn }) };
    if (s.pending.length) return { hint: effectText(s.pending[0]) };
    if (troop) return { hint: fmt(G.pick_base, { troop }) };
    return { hint: G.place_hint };
  }

  // --------------------------------------------------------------------------------- info

  function renderInfo() {
    const box = $("tb-info");
    box.innerHTML = "";
    const goal = terrain.objective;
    const row = el("div", "seats-row");
    for (const seat of ["A", "B"]) {
      const s = state.seats[seat];
      const card = el("div", "seat-box seat-" + seat + (state.player === seat && !state.ended ? " active" : ""));
      card.id = "seat-" + seat;
      card.append(el("div", "seat-name", G.colours[s.colour] + " · " + ctx.playerName(seat)));
      const medals = el("div", "medal-line");
      medals.append(el("span", "medal-dot"), fmt(G.medals, { n: s.medals, goal }));
      medals.id = "medals-" + seat;
      card.append(medals);
      const counts = el("div", "small", fmt(G.rack, { n: s.rack }) + " · " + fmt(G.reserve, { n: s.reserve }));
      counts.id = "counts-" + seat;
      card.append(counts);
      if (s.blocked) card.append(el("div", "small", fmt(G.blocked, { n: s.blocked })));
      row.append(card);
    }
    box.append(row, el("div", "small", terrainName() + " · " + fmt(G.medals_left, { n: state.derived.medals_left })));
    const rule = G.terrain_rules[terrain.slug];
    if (rule) box.append(el("div", "small special-rule", rule));
  }

  // ------------------------------------------------------------------------------- board

  function placeable(name) {
    return legal().some((a) => a.type === "place" && a.troop === name);
  }

  function targets() {
    const found = new Map(); // node -> action
    const pending = state.pending[0];
    for (const a of legal()) {
      if (!pending && troop && a.type === "place" && a.troop === troop) found.set(a.node, a);
      if (pending && pending.effect === "place" && troop && a.type === "place" && a.troop === troop) found.set(a.node, a);
      if (pending && a.type === "resolve" && a.node !== undefined) {
        if (a.to !== undefined) {
          if (moving === null) found.set(a.node, null);
          else if (a.node === moving) found.set(a.to, a);
        } else if (a.troop === undefined) found.set(a.node, a);
      }
    }
    return found;
  }

  function renderBoard() {
    const box = $("tb-board");
    box.innerHTML = "";
    const flip = ROLE === "B"; // own H.Q. at the bottom
    const W = 100;
    const H = 118;
    const M = 8; // margin: the H.Q. squares and labels stay inside
    const place = (x0, y0) => {
      const x = flip ? 1 - x0 : x0;
      const y = flip ? 1 - y0 : y0;
      return [M + x * (W - 2 * M), M + y * (H - 2 * M)];
    };
    const pos = new Map(terrain.nodes.map((n) => [n.id, place(n.x, n.y)]));
    const stacks = new Map(state.stacks.map((s) => [s.node, s.troops]));
    const captured = new Map(state.captured.map((c) => [c.region, c.seat]));
    const picks = targets();
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "terrain", role: "img", "aria-label": terrainName() });
    root.id = "tb-svg";
    for (const r of terrain.regions) {
      const points = r.cycle.map((id) => pos.get(id).join(",")).join(" ");
      const owner = captured.get(r.index);
      root.append(svg("polygon", { points, class: "region" + (owner ? " captured-" + colour(owner) : "") }));
    }
    for (const [a, b] of terrain.edges) {
      const [x1, y1] = pos.get(a);
      const [x2, y2] = pos.get(b);
      root.append(svg("line", { x1, y1, x2, y2, class: "path" }));
    }
    for (const r of terrain.regions) {
      const [cx, cy] = place(r.x, r.y);
      const owner = captured.get(r.index);
      const medal = svg("g", { class: "medal" + (owner ? " taken" : ""), id: "region-" + r.index });
      medal.append(svg("circle", { cx, cy, r: 3.2 }));
      const label = svg("text", { x: cx, y: cy + 1.3, "text-anchor": "middle" });
      label.textContent = owner ? "✓" : String(r.medals);
      medal.append(label);
      root.append(medal);
    }
    for (const n of terrain.nodes) {
      const [x, y] = pos.get(n.id);
      const stack = stacks.get(n.id) || [];
      const top = stack[stack.length - 1];
      const group = svg("g", { class: "node", id: "node-" + n.id, tabindex: "0" });
      const pick = picks.has(n.id);
      if (pick) group.classList.add("target");
      const size = n.kind === "hq" ? 5.6 : 4.6;
      // the tap target: 12 units across (about 45 CSS px on a 390 px phone), wider than the base
      group.append(svg("circle", { cx: x, cy: y, r: 6, class: "hit" }));
      const shape = n.kind === "hq"
        ? svg("rect", { x: x - size, y: y - size, width: size * 2, height: size * 2, rx: 1.5, class: "hq hq-" + n.colour })
        : svg("circle", { cx: x, cy: y, r: size, class: "base" + (n.special ? " special" : "") });
      group.append(shape);
      if (top) {
        group.append(svg("circle", { cx: x, cy: y, r: size - 1.2, class: "troop troop-" + colour(top.seat) }));
        const label = svg("text", { x, y: y + 1.6, "text-anchor": "middle", class: "troop-label" });
        label.textContent = mark(top.troop);
        group.append(label);
        if (stack.length > 1) {
          const height = svg("text", { x: x + size, y: y - size + 1.5, class: "height" });
          height.textContent = "×" + stack.length;
          group.append(height);
        }
      } else if (n.kind === "hq") {
        const label = svg("text", { x, y: y + 1.5, "text-anchor": "middle", class: "hq-label" });
        label.textContent = G.hq;
        group.append(label);
      }
      if (n.allowed) {
        // an H.Q. sits on the board's edge: its values go beside it, not below (clipped)
        const values = n.kind === "hq"
          ? svg("text", { x: x + size + 0.8, y: y + 1, "text-anchor": "start", class: "allowed" })
          : svg("text", { x, y: y + size + 3.2, "text-anchor": "middle", class: "allowed" });
        values.textContent = n.allowed.join("/");
        group.append(values);
      }
      if (n.special) {
        const mark = svg("text", { x: x - size - 0.5, y: y - size + 1, class: "special-mark" });
        mark.textContent = "★";
        group.append(mark);
      }
      const title = svg("title");
      title.textContent = (n.kind === "hq" ? G.hq : "#" + n.id) + (n.special ? " · " + G.special : "") +
        (n.allowed ? " · " + fmt(G.allowed, { values: n.allowed.join(", ") }) : "") +
        (stack.length ? " · " + stack.map((t) => t.troop).join(" < ") : "");
      group.append(title);
      group.addEventListener("click", () => tapNode(n.id, picks));
      root.append(group);
    }
    box.append(root);
  }

  function tapNode(node, picks) {
    if (!picks.has(node)) return;
    const action = picks.get(node);
    if (action === null) {
      moving = node; // first step of a move: now the destination
      renderBoard();
      $("hint").textContent = G.pick_to;
      return;
    }
    send(action);
  }

  const terrainName = () => G.terrains[terrain.slug] || terrain.name; // in the page's language

  // ------------------------------------------------------------------------------ troops

  function renderTroops() {
    const box = $("tb-troops");
    box.innerHTML = "";
    const mine = ctx.view.to_act === ROLE && !state.ended;
    const pending = state.pending[0];
    box.hidden = !mine || (pending && pending.effect !== "place");
    if (box.hidden) return;
    const row = el("div", "troop-row");
    for (const name of TROOPS) {
      const b = button(mark(name) + " " + name, () => {
        troop = troop === name ? null : name;
        render(ctx);
        $("hint").textContent = troop ? fmt(G.pick_base, { troop }) : G.place_hint;
        Tablesmith.showNext(); // the highlighted bases in sight
      }, "troop-btn troop-" + colour(ROLE) + (troop === name ? " chosen" : ""), "troop-" + mark(name));
      b.textContent = "";
      b.append(el("span", "troop-key", mark(name)), el("span", "troop-name", name));
      b.disabled = !placeable(name);
      if (b.disabled) b.title = G.no_target;
      row.append(b);
    }
    box.append(row);
    if (!pending) {
      const draw = legal().find((a) => a.type === "draw");
      box.append(draw ? button(fmt(G.draw, { n: state.derived.draw[ROLE] }), () => send(draw), "big write", "tb-draw")
        : el("p", "small", G.cannot_draw));
      for (const a of legal().filter((x) => x.type === "stuck").slice(0, 1)) {
        box.append(button(G.stuck, () => send(a), "mid write", "tb-stuck"));
      }
    }
  }

  // ------------------------------------------------------------------------------ effects

  function effectText(p) {
    const key = p.effect === "draw" && p.count === 1 ? "draw_one" : p.effect; // not "1 troops"
    const what = fmt(G.effects[key] || p.effect, { n: p.count || 0 });
    return fmt(G.effect_of, { source: p.source, what, rule: p.rule });
  }

  function renderEffect() {
    const box = $("tb-effect");
    box.innerHTML = "";
    const pending = state.pending[0];
    box.hidden = !pending || !!state.ended;
    if (box.hidden) return;
    const mine = ctx.view.to_act === ROLE; // the texts say "your": only for the phone that acts
    box.append(el("h3", "", mine ? effectText(pending) : fmt(G.opponent_effect, pending)));
    if (state.pending.length > 1) {
      box.append(el("div", "small", state.pending.slice(1).map((p) => "→ " + p.source).join("  ")));
    }
    if (!mine) return;
    if (pending.effect === "place") box.append(el("p", "hint", G.place_how)); // Cap'n (TB-20)
    const options = legal().filter((a) => a.type === "resolve");
    const byTroop = options.filter((a) => a.troop !== undefined);
    const owner = pending.effect === "take_from_discard" ? ROLE : other(ROLE); // whose troops
    for (const a of byTroop) box.append(button(a.troop, () => send(a), "mid write troop-" + colour(owner), "tb-resolve-" + mark(a.troop)));
    const plain = options.find((a) => a.node === undefined && a.troop === undefined);
    if (plain) box.append(button(G.apply, () => send(plain), "big write", "tb-resolve"));
    const decline = legal().find((a) => a.type === "decline");
    if (decline) box.append(button(G.decline, () => send(decline), "mid write", "tb-decline"));
  }

  // -------------------------------------------------------------------------------- setup

  $("tb-start").onclick = () => ctx.send({ type: "setup", terrain: $("tb-terrain").value, variant: kit.variants("tb-setup") });

  function describe(event) {
    if (event.kind === "setup") return G.log_setup;
    if (event.kind !== "action") return null;
    const a = event.payload.action;
    if (a.type === "draw") return G.log_draw;
    if (a.type === "place") return fmt(G.log_place, { troop: a.troop, node: "#" + a.node });
    if (a.type === "resolve") return G.log_resolve + (a.troop ? ": " + a.troop : a.node ? " #" + a.node : "");
    if (a.type === "decline") return G.log_decline;
    if (a.type === "stuck") return G.log_stuck;
    return a.type;
  }

  // The bases the other player's last action touched (shell.js marks them).
  function marks(event) {
    const a = event.payload.action;
    return [a.node, a.to].filter((n) => n !== undefined && n !== null).map((n) => "node-" + n);
  }

  // The control this phone is asked to use next (shell.js brings it into view): the bases
  // highlighted for the chosen troop or the effect, the effect's choice, or the troops to
  // choose from (also for an effect that places one more, TB-20).
  function next() {
    const bases = [...document.querySelectorAll("#tb-svg .node.target")];
    if (bases.length) return bases;
    const pending = state && state.pending[0];
    if (pending && pending.effect !== "place") return [$("tb-effect")];
    return [document.querySelector("#tb-troops:not([hidden])")];
  }

  Tablesmith.register({ render, status, describe, marks, next, purposes: G.purposes });
})();
