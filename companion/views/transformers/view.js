// Tablesmith companion: the Transformers table (TF-3..TF-40) inside the shell (shell.js).
// Drawn from the table view alone (games/transformers/view.py, view_state): after a
// reload, an unlock or the other phone's action every control is there again. Local state is
// only what this phone is choosing right now (an attacker, an upgrade to place).
"use strict";

(() => {
  const { gameStrings: G, role: ROLE, $, fmt, el, button, other } = Tablesmith;
  const kit = Tablesmith.cardKit(G);
  const redraw = kit.redraw(() => render(ctx)); // after a tap here, the next control in sight
  const ICONS = ["orange", "blue", "white", "black", "green"];
  let ctx = null;
  let state = null;
  let picking = null; // {kind: "attack" | "upgrade", attacker, card, slot, any}
  const quick = [{ name: "", stars: 8, health: 10, alt_attack: 2, alt_defense: 1, bot_attack: 3, bot_defense: 1 }];

  const STATS = [["attack", "atk", "attack_word"], ["defense", "def", "defense_word"], ["health", "hp", "health"]];
  const character = (id) => state.characters.find((c) => c.id === id);
  // The choice ends when it is sent: the answer's view is drawn without it (a refusal shows
  // its reason and the buttons to start again).
  const send = (action) => {
    picking = null;
    return ctx.send(action);
  };
  const myTurn = () => ctx.view.to_act === ROLE && (state.phase === "main" || state.phase === "end");
  const teamOf = (seat) => state.teams[seat];

  // ------------------------------------------------------------------------------- render

  function render(context) {
    ctx = context;
    state = ctx.view.state;
    if (kit.beforeSetup(state, "tf-setup", ["tf-teams", "tf-attack", "tf-actions"], ["tf-board", "tf-turn"])) return;
    if (picking && !myTurn()) picking = null;
    renderTeams();
    renderTurn();
    renderAttack();
    renderActions();
    renderBoard();
    kit.focusPiece("char-");
  }

  function status(context) {
    const s = context.view.state;
    if (!s) return {};
    if (s.phase === "over") return { hint: G.all_ko };
    if (s.phase === "team") return { hint: G.fleets_hint };
    if (picking) return { hint: pickHint() };
    if (context.view.to_act === ROLE && !s.this_turn.drawn && s.allowed.draw) return { hint: G.draw_first };
    return {};
  }

  // What to tap now: the attacker, then (once it is chosen) the defender; or the upgrade's target.
  function pickHint() {
    if (picking.kind !== "attack") return G.pick_upgrade;
    return picking.attacker ? G.pick_defender : G.pick_attacker;
  }

  // -------------------------------------------------------------------------------- teams

  function renderTeams() {
    const box = $("tf-teams");
    box.hidden = state.phase !== "team" || !kit.seated;
    if (box.hidden) return;
    kit.deckPanel(ctx, { deck: "tf-deck", quick: "tf-quick", wait: "tf-team-wait" }, !!teamOf(ROLE), renderQuick);
  }

  function renderQuick() {
    const stats = [["stars", 1, 25], ["health", 1, 30], ...["alt_attack", "alt_defense", "bot_attack", "bot_defense"].map((k) => [k, 0, 20])];
    kit.quickRows($("tf-quick-rows"), quick, stats, G.name);
  }

  $("tf-quick-add").onclick = () => {
    quick.push({ name: "", stars: 5, health: 8, alt_attack: 1, alt_defense: 1, bot_attack: 2, bot_defense: 1 });
    renderQuick();
  };
  $("tf-quick-bring").onclick = () => {
    send({
      type: "team",
      seat: ROLE,
      deck: null,
      title: null,
      battle_cards: [],
      characters: quick.map((q, index) => ({
        card: null,
        name: q.name.trim() || fmt(G.character_n, { n: index + 1 }),
        stars: q.stars,
        health: q.health,
        alt: { attack: q.alt_attack, defense: q.alt_defense },
        bot: { attack: q.bot_attack, defense: q.bot_defense },
      })),
    });
  };
  $("tf-open").onclick = () => send({ type: "setup", variant: kit.variants("tf-setup") });

  // --------------------------------------------------------------------------------- turn

  function renderTurn() {
    if (!kit.turnLine("tf-turn", state.phase === "team" || state.phase === "over", state.player, state.turn)) return;
    const box = $("tf-turn");
    const t = state.this_turn;
    const still = state.still || {};
    const checks = [
      [G.drawn, t.drawn, true],
      [G.flip_done, !!t.flipped, still.flip],
      [G.action_done + (t.action && t.action.name ? ": " + t.action.name : ""), !!t.action, still.action],
      [G.upgrade_done + (t.upgrade && t.upgrade.name ? ": " + t.upgrade.name : ""), !!t.upgrade, still.upgrade],
    ];
    const list = el("div", "checks small");
    list.append(G.still + " ");
    for (const [text, done, open] of checks) {
      // done ✓, still possible ○, no longer (or not yet) allowed this turn – (TF-11, TF-12)
      const mark = done ? "✓ " : open ? "○ " : "– ";
      list.append(el("span", done ? "check done" : open ? "check" : "check off", mark + text));
    }
    box.append(list);
    if (state.phase === "end") box.append(el("div", "small attacks-note", G.attacks_over));
    else if (state.phase === "main" && t.attacks > 0 && state.allowed.attack) {
      box.append(el("div", "small attacks-note", G.attack_again));
    }
    if (state.last_attack) {
      const last = state.last_attack;
      box.append(el("div", "small last-attack", fmt(G.last, {
        att: character(last.attacker).name, a: last.attack_total,
        def: character(last.defender).name, d: last.defense_total, n: last.damage,
      }) + (last.ko ? " · " + G.ko : "")));
    }
  }

  // -------------------------------------------------------------------------- characters

  function renderBoard() {
    const board = $("tf-board");
    board.innerHTML = "";
    const far = ROLE === "A" || ROLE === "watch" ? "B" : "A";
    if (state.characters.length) {
      const legend = kit.stats(null, STATS, "legend small");
      legend.id = "tf-legend";
      board.append(legend);
    }
    for (const seat of [far, other(far)]) {
      if (!teamOf(seat)) continue;
      const section = el("section", "zone team-" + seat);
      section.id = "team-" + seat;
      section.append(el("h3", "zone-title", fmt(G.team_of, { player: ctx.playerName(seat) }) +
        (teamOf(seat).title ? " · " + teamOf(seat).title : "")));
      // a team brought anyway although it breaks TF-3: the rule and the numbers stay in sight
      section.append(kit.casualLine(ctx, seat, teamOf(seat).casual));
      // the characters in play lie on the table: seat B sees them turned through 180 degrees
      const tiles = state.characters.filter((x) => x.seat === seat && x.zone === "play").map(tile);
      section.append(Tablesmith.fillFromSide(el("div", "units"), tiles));
      const kos = state.characters.filter((x) => x.seat === seat && x.zone === "ko");
      if (kos.length) {
        const ko = el("div", "ko-area small", G.ko_area + ": " + kos.map((c) => c.name).join(", "));
        section.append(ko);
      }
      board.append(section);
    }
  }

  function selectable(c) {
    if (!picking) return false;
    const me = state.player;
    if (picking.kind === "upgrade") return c.seat === me && c.zone === "play" && (picking.card || picking.slot);
    if (!picking.attacker) return c.seat === me && c.zone === "play" && !c.tapped;
    const enemies = state.characters.filter((x) => x.seat !== me && x.zone === "play");
    const tapped = enemies.some((x) => x.tapped);
    return c.seat !== me && c.zone === "play" && (!tapped || c.tapped || picking.any);
  }

  // Why `c` cannot be picked now (TF-13, TF-20), in the phone's language.
  function whyNot(c) {
    const me = state.player;
    const name = { name: c.name };
    if (picking.kind === "upgrade") return c.seat !== me ? fmt(G.why_upgrade_enemy, name) : G.pick_upgrade;
    if (!picking.attacker) return fmt(c.seat !== me ? G.why_attacker_enemy : G.why_attacker_tapped, name);
    return fmt(c.seat === me ? G.why_defender_own : G.why_defender_untapped, name);
  }

  function tile(c) {
    const box = el("div", "unit tf-char seat-" + c.seat + (c.tapped ? " tapped" : ""));
    box.id = "char-" + c.id;
    if (selectable(c)) box.classList.add("selectable");
    if (picking && picking.attacker === c.id) box.classList.add("selected");
    const mode = el("div", "mode small", (c.mode === "alt" ? G.alt : G.bot) + (c[c.mode].subtitle ? " · " + c[c.mode].subtitle : "") +
      (c.tapped ? " · " + G.tapped : ""));
    box.append(kit.head(c.stars, c.name), mode, kit.stats(c, STATS));
    const ups = Object.entries(c.upgrades).filter(([, u]) => u);
    if (ups.length) box.append(el("div", "small upgrades", ups.map(([slot, u]) => G[slot] + (u.name ? ": " + u.name : "")).join(" · ")));
    const change = (delta) => send({ type: "counter", character: c.id, delta });
    box.append(kit.counters(c.id, c.damage, c.health, change, ROLE !== "watch" && state.phase !== "over" && state.phase !== "team"));
    if (ROLE !== "watch" && myTurn() && c.seat === ROLE && !picking) {
      const row = el("div", "buttons tile-buttons");
      if (state.allowed.flip) row.append(button(G.flip, () => send({ type: "flip", character: c.id }), "mini write", "flip-" + c.id));
      if (state.allowed.tap) {
        row.append(button(c.tapped ? G.untap : G.tap, () => send({ type: "tap", character: c.id, tapped: !c.tapped }), "mini write", "tap-" + c.id));
      }
      if (row.childNodes.length) box.append(row);
    }
    box.onclick = (event) => {
      if (event.target.closest("button") || !picking) return;
      if (selectable(c)) choose(c);
      else ctx.toast(whyNot(c)); // an illegal target says why instead of doing nothing
    };
    return box;
  }

  function choose(c) {
    if (picking.kind === "upgrade") {
      const action = { type: "play_upgrade", character: c.id };
      if (picking.card) action.card = picking.card;
      else action.slot = picking.slot;
      send(action);
      return;
    }
    if (!picking.attacker) {
      picking.attacker = c.id;
      redraw();
      return;
    }
    send({ type: "attack", attacker: picking.attacker, defender: c.id, any_defender: !!picking.any });
  }

  // ---------------------------------------------------------------------- turn controls

  function cardSelect(type, id) {
    const team = teamOf(ROLE);
    return kit.cardSelect(id, (team ? team.battle_cards.filter((b) => b.type === type) : []).map((card) => [card.card,
      card.name + (card.upgrade ? " (" + G[card.upgrade] + ")" : "") + (card.icons.length ? " · " + card.icons.map((i) => G.icons[i]).join(" ") : "")]));
  }

  function renderActions() {
    const box = $("tf-actions");
    box.innerHTML = "";
    box.hidden = !myTurn() || state.phase === "attack";
    if (box.hidden) return;
    const allowed = state.allowed;
    if (picking) {
      box.append(el("p", "hint", pickHint()));
      if (picking.kind === "attack") {
        const label = el("label", "small check-line");
        const box2 = el("input");
        box2.type = "checkbox";
        box2.checked = !!picking.any;
        box2.onchange = () => { picking.any = box2.checked; redraw(); };
        label.append(box2, " " + G.any_defender);
        box.append(label);
      }
      box.append(button(G.cancel, () => { picking = null; redraw(); }, "mid", "tf-cancel"));
      return;
    }
    if (allowed.draw) box.append(button(G.draw, () => send({ type: "draw" }), "big write", "tf-draw"));
    if (allowed.action) {
      const group = el("div", "picker");
      const select = cardSelect("action", "tf-action-card");
      const name = el("input", "field");
      name.placeholder = G.by_name;
      name.maxLength = 40;
      group.append(el("h3", "", G.play_action), select, name, button(G.action, () => {
        if (select.value) send({ type: "play_action", card: select.value });
        else send(name.value.trim() ? { type: "play_action", name: name.value.trim() } : { type: "play_action" });
      }, "mid write", "tf-play-action"));
      box.append(group);
    }
    if (allowed.upgrade) {
      const group = el("div", "picker");
      const select = cardSelect("upgrade", "tf-upgrade-card");
      const slot = el("select", "field");
      slot.id = "tf-upgrade-slot";
      for (const s of ["weapon", "armor", "utility"]) {
        const option = el("option", "", G.slot + ": " + G[s]);
        option.value = s;
        slot.append(option);
      }
      const hasDeck = teamOf(ROLE) && teamOf(ROLE).battle_cards.some((b) => b.type === "upgrade");
      group.append(el("h3", "", G.play_upgrade), hasDeck ? select : slot, button(G.upgrade, () => {
        picking = { kind: "upgrade", card: hasDeck ? select.value || null : null, slot: hasDeck ? null : slot.value };
        if (hasDeck && !picking.card) {
          picking = null;
          ctx.toast(G.choose_upgrade_first);
          select.focus();
          return;
        }
        redraw();
      }, "mid", "tf-play-upgrade"));
      box.append(group);
    }
    if (allowed.attack) {
      box.append(button(G.start_attack, () => { picking = { kind: "attack", attacker: null, any: false }; redraw(); }, "big", "tf-attack-start"));
    }
    if (allowed.end_turn) box.append(button(G.end_turn, () => send({ type: "end_turn" }), "mid write", "tf-end-turn"));
  }

  // --------------------------------------------------------------------------- attack

  function renderAttack() {
    const box = $("tf-attack");
    box.innerHTML = "";
    const attack = state.attack;
    box.hidden = !attack;
    if (!attack) return;
    const attackerSeat = character(attack.attacker.character).seat;
    const row = el("div", "fighters");
    row.append(fighter("attacker", attack.attacker, attackerSeat), el("div", "versus", "⚔"),
      fighter("defender", attack.defender, attackerSeat));
    box.append(row);
    const verdict = el("div", attack.damage > 0 ? "hit" : "miss",
      attack.damage > 0 ? fmt(G.damage_will, { n: attack.damage }) : G.no_damage);
    verdict.id = "tf-damage";
    box.append(verdict);
    if (ROLE === attackerSeat && attack.ready) {
      box.append(button(G.resolve, () => send({ type: "resolve" }), "big write", "tf-resolve"));
    } else if (!attack.ready) {
      // wait for the flips still to enter
    } else {
      box.append(kit.waiting(ctx, attackerSeat));
    }
  }

  function fighter(side, data, attackerSeat) {
    const c = character(data.character);
    const box = kit.fighter(c.seat, side === "attacker" ? G.attacker : G.defender, c.name);
    box.id = "tf-" + side;
    const colour = side === "attacker" ? "orange" : "blue";
    const base = side === "attacker" ? G.attack_word : G.defense_word;
    box.append(el("div", "small", `${base} ${data.base} + ${G.icons[colour]} ${data.icons} + ${data.bonus}`));
    const total = el("div", "big-total", G.total + " " + data.total);
    total.id = "tf-total-" + side;
    box.append(total);
    for (const flip of [...data.flips, ...data.cards]) {
      box.append(el("div", "small", ICONS.filter((i) => flip[i]).map((i) => flip[i] + " " + G.icons[i]).join(", ") || "—"));
    }
    for (const bonus of data.bonuses) box.append(el("div", "small", (bonus.value > 0 ? "+" : "") + bonus.value + (bonus.source ? " " + bonus.source : "")));
    // D19: the defending phone enters the defender's side; the attacker's phone may enter both.
    const mayEnter = ROLE !== "watch" && (ROLE === attackerSeat || side === "defender");
    if (mayEnter && data.pending) box.append(flipEntry(side, data.pending, data));
    else tapped[side] = [];
    if (mayEnter && state.phase === "attack") box.append(bonusEntry(side));
    return box;
  }

  // TF-21 by tapping (D23): one row of icon buttons per flipped card. The icons tapped for the
  // card wait on this phone until the card is complete (its second icon, or "no more icons"),
  // then the card is sent and counts in the totals on both phones at once.
  const tapped = { attacker: [], defender: [] };

  function flipEntry(side, pending, data) {
    const box = el("div", "flip-entry");
    box.id = `tf-${side}-flip`;
    const chosen = tapped[side];
    const n = data.cards.length + 1;
    box.append(el("div", "small", (pending === "first" ? G.flip_first : G.flip_extra) + " · " +
      fmt(G.card_n, { n })));
    const sendCard = () => {
      const counts = Object.fromEntries(ICONS.map((i) => [i, chosen.filter((c) => c === i).length]));
      tapped[side] = [];
      send({ type: "card_icons", side, ...counts });
    };
    for (const icon of ICONS) {
      box.append(button(G.icons[icon], () => {
        chosen.push(icon);
        if (chosen.length >= 2) sendCard(); // TF-2: a battle card shows at most 2 icons
        else redraw();
      }, "icon-btn icon-" + icon, `tf-${side}-tap-${icon}`));
    }
    box.append(button(chosen.length ? G.card_done : G.no_icon, sendCard, "icon-btn icon-none write", `tf-${side}-tap-none`));
    if (chosen.length) {
      const line = el("div", "small chosen", fmt(G.card_so_far, { icons: chosen.map((i) => G.icons[i]).join(" + ") }));
      line.id = `tf-${side}-chosen`;
      box.append(line);
    }
    return box;
  }

  function bonusEntry(side) {
    const box = el("details", "bonus-entry");
    box.append(el("summary", "small", G.bonus));
    const value = el("input", "field");
    value.type = "number";
    value.min = -20;
    value.max = 20;
    value.value = 1;
    value.id = `tf-${side}-bonus`;
    const source = el("input", "field");
    source.placeholder = G.source;
    source.maxLength = 40;
    box.append(value, source, button(G.add_bonus, () => {
      const amount = Number(value.value) || 0;
      if (amount) send({ type: "bonus", side, value: amount, source: source.value.trim() || null });
    }, "mid write", `tf-${side}-bonus-go`));
    return box;
  }

  // ----------------------------------------------------------------------- QR code, log

  function describe(event, context) {
    if (event.kind === "setup") return G.log_setup;
    if (event.kind !== "action") return null;
    const a = event.payload.action;
    const s = context.view.state;
    const name = (id) => {
      const c = s && s.characters.find((x) => x.id === id);
      return c ? context.whose(c.name, c.seat) : id;
    };
    if (a.type === "team") return G.log_team;
    if (a.type === "draw") return G.log_draw;
    if (a.type === "counter") return fmt(G.log_counter, { delta: a.delta > 0 ? "+" + a.delta : "−" + -a.delta, who: name(a.character) });
    if (a.type === "attack") return fmt(G.log_attack, { att: name(a.attacker), def: name(a.defender) });
    if (a.type === "resolve") return G.log_resolve;
    if (a.type === "end_turn") return G.log_end;
    if (a.type === "flip") return G.flip + ": " + name(a.character);
    const side = (a.side === "attacker" ? G.attacker : G.defender) + ": ";
    if (a.type === "card_icons") return side + fmt(G.log_card, { icons: ICONS.filter((i) => a[i]).map((i) => a[i] + " " + G.icons[i]).join(", ") || G.no_icon });
    if (a.type === "icons") return side + (ICONS.filter((i) => a[i]).map((i) => a[i] + " " + G.icons[i]).join(", ") || "—");
    if (a.type === "bonus") return side + (a.value > 0 ? "+" : "") + a.value + (a.source ? " " + a.source : "");
    if (a.type === "tap") return (a.tapped ? G.tap : G.untap) + ": " + name(a.character);
    // the own deck list names a played card; the other phones never get that list (hidden
    // information): their log event carries the played card's name
    const team = s && event.seat && s.teams[event.seat];
    const card = (id) => kit.cardName(team && team.battle_cards, id, "card", a.name);
    if (a.type === "play_action") return G.action + (card(a.card) ? ": " + card(a.card) : "");
    if (a.type === "play_upgrade") return G.upgrade + ": " + name(a.character) + (card(a.card) ? " · " + card(a.card) : "");
    return a.type;
  }

  // The characters the other player's last action touched (shell.js marks them).
  function marks(event) {
    const a = event.payload.action;
    return [a.character, a.attacker, a.defender].filter(Boolean).map((id) => "char-" + id);
  }

  // The controls this phone is asked to use next (shell.js brings them into view): while
  // picking, the characters to pick; else the attack's, the turn's or the team's first control.
  function next() {
    if (picking) return [...document.querySelectorAll("#tf-board .unit.selectable")];
    return [document.querySelector("#tf-attack:not([hidden]) button, #tf-actions:not([hidden]) button, #tf-teams:not([hidden]) #deck-bring")];
  }

  Tablesmith.register({ render, status, describe, marks, next, purposes: G.purposes });
})();
