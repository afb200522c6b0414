// Tablesmith companion: the PocketModel table (PM-5..PM-40) inside the shell (shell.js).
// Everything is drawn from the table view alone (games/pocketmodel/state.py, state_to_json):
// after a reload, an unlock or the other phone's action every control is there again. The
// only local state is what this phone is choosing right now (units for a move, battle pairs).
"use strict";

(() => {
  const { gameStrings: G, role: ROLE, $, fmt, el, button, other } = Tablesmith;
  const kit = Tablesmith.cardKit(G);
  const redraw = kit.redraw(() => render(ctx)); // after a tap here, the next control in sight
  let ctx = null;
  let state = null;
  let picking = null; // {kind, units: [], pairs: [], attacker, carrier, slot}
  const quick = [{ name: "", stars: 2, attack: 2, damage: 1, defense: 7, shields: 2 }];

  const unit = (id) => state.units.find((u) => u.id === id);
  const can = (type) => ctx.legal.some((a) => a.type === type);
  const STATS = [["attack", "atk", "attack"], ["damage", "dmg", "damage"], ["defense", "def", "defense"], ["shields", "shd", "shields"]];
  const send = (action) => ctx.send(action).then(() => (picking = null));
  const deckOf = (seat) => (state.players[seat] && state.players[seat].deck) || null;

  // ------------------------------------------------------------------------------- render

  function render(context) {
    ctx = context;
    state = ctx.view.state;
    if (kit.beforeSetup(state, "pm-setup", ["pm-fleets", "pm-fight", "pm-actions"], ["pm-board", "pm-turn"])) return;
    if (picking && (state.phase !== "main" || ctx.view.to_act !== ROLE)) picking = null;
    renderFleets();
    renderTurn();
    renderFight();
    renderActions();
    renderBoard();
    kit.focusPiece("unit-");
  }

  function status(context) {
    const s = context.view.state;
    if (!s || s.phase === "over") {
      if (s && s.end) return { hint: s.end === "no_units" ? G.winner_no_units : G.winner_no_objectives };
      return {};
    }
    if (s.phase === "fleets") return { hint: G.fleets_hint };
    if (picking) return { hint: G["pick_" + picking.kind] };
    return {};
  }

  // ------------------------------------------------------------------------------ fleets

  function renderFleets() {
    const box = $("pm-fleets");
    box.hidden = state.phase !== "fleets" || !kit.seated;
    if (box.hidden) return;
    kit.deckPanel(ctx, { deck: "pm-deck", quick: "pm-quick", wait: "pm-fleet-wait" }, !!state.players[ROLE], renderQuick);
  }

  function renderQuick() {
    const stats = [["stars", 1, 5], ...["attack", "damage", "defense", "shields"].map((k) => [k, 0, 20])];
    kit.quickRows($("pm-quick-rows"), quick, stats, G.quick_name);
  }

  $("pm-quick-add").onclick = () => {
    quick.push({ name: "", stars: 2, attack: 2, damage: 1, defense: 7, shields: 2 });
    renderQuick();
  };
  $("pm-quick-bring").onclick = () => {
    let deployed = 0;
    const units = quick.map((entry, index) => {
      const deploy = deployed + entry.stars <= 20; // PM-8
      if (deploy) deployed += entry.stars;
      return {
        name: entry.name.trim() || fmt(G.unit_n, { n: index + 1 }),
        stars: entry.stars, attack: entry.attack, damage: entry.damage,
        defense: entry.defense, shields: entry.shields,
        icons: [], ground: false, text: null, card: null, deploy,
      };
    });
    send({ type: "fleet", deck: null, units });
  };
  $("pm-open").onclick = () => send({ type: "setup", variant: kit.variants("pm-setup") });

  // -------------------------------------------------------------------------------- turn

  function renderTurn() {
    const head = kit.turnLine("pm-turn", state.phase === "fleets" || state.phase === "over", state.active, state.turn);
    if (!head) return;
    const box = $("pm-turn");
    if (state.action) {
      const used = state.action.stars;
      head.append(" ", el("span", "budget", G[state.action.kind] + " · " +
        fmt(G.stars_of, { used, budget: state.action.budget })));
    }
    if (state.phase === "main") {
      const still = [G.one_action];
      if (!state.objective_played) still.unshift(G.play_objective);
      box.append(el("div", "small", G.still + " " + still.join(" · ")));
    } else if (state.phase === "end") {
      // the action is taken (PM-11): say so instead of dropping the line
      const line = el("div", "small", G.still + " " + G.only_end);
      line.id = "pm-still";
      box.append(line);
    }
  }

  // ------------------------------------------------------------------------------- board

  function zoneOrder() {
    const far = ROLE === "A" || ROLE === "watch" ? "B" : "A";
    return ["home_" + far, "contested", "home_" + other(far)];
  }

  function renderBoard() {
    const board = $("pm-board");
    board.innerHTML = "";
    if (state.phase === "fleets") {
      for (const seat of ["A", "B"]) if (state.players[seat]) board.append(fleetSummary(seat));
      return;
    }
    board.append(kit.stats(null, STATS, "legend small"));
    for (const zone of zoneOrder()) {
      const section = el("section", "zone zone-" + zone);
      section.id = "zone-" + zone;
      const title = el("h3", "zone-title", G.zones[zone]);
      if (zone.startsWith("home_")) {
        const seat = zone.slice(5);
        section.classList.add("home-" + seat);
        if (seat === ROLE) title.append(el("span", "small mine", "· " + G.your_home));
        title.append(" ", objectivesLine(seat));
      }
      section.append(title);
      if (zone.startsWith("home_")) section.append(casualLine(zone.slice(5)));
      if (picking && picking.kind === "move" && picking.units.length) {
        const move = moveTarget(zone);
        const stars = fmt(G.stars_of, { used: pickedStars(), budget: 5 });
        if (move) section.append(button(fmt(G.move_to, { zone: G.zones[zone] }) + " · " + stars, () => send(move), "mid write go", "move-" + zone));
      }
      // the zones lie on the table: seat B sees each turned through 180 degrees (shell.js)
      const tiles = state.units.filter((x) => x.place === zone).map(unitTile);
      section.append(Tablesmith.fillFromSide(el("div", "units"), tiles));
      board.append(section);
    }
    // PM-24: a destroyed unit goes to the reserve; it stays in sight (not folded away with the
    // reserve) until a carrier or reinforcements bring it back (PM-14, PM-32).
    const wrecked = state.units.filter((x) => x.place === "reserve" && x.destroyed);
    if (wrecked.length) {
      const section = el("section", "zone zone-destroyed");
      section.id = "pm-destroyed";
      section.append(el("h3", "zone-title", G.destroyed_units));
      const list = el("div", "units");
      for (const u of wrecked) list.append(unitTile(u));
      section.append(list);
      board.append(section);
    }
    const reserve = el("details", "card reserve");
    reserve.id = "pm-reserve";
    reserve.open = !!(picking && picking.kind === "carrier");
    const waiting = (seat) => state.units.filter((x) => x.place === "reserve" && !x.destroyed && x.seat === seat);
    reserve.append(el("summary", "", G.zones.reserve + " · " +
      ["A", "B"].map((seat) => ctx.playerName(seat) + " " + waiting(seat).length).join(" · ")));
    for (const seat of ["A", "B"]) {
      if (!waiting(seat).length) continue;
      reserve.append(el("div", "small reserve-of", ctx.playerName(seat)));
      const list = el("div", "units");
      for (const u of waiting(seat)) list.append(unitTile(u));
      reserve.append(list);
    }
    board.append(reserve);
  }

  // A fleet brought anyway although it breaks the building rules (state.players[seat].casual).
  const casualLine = (seat) => kit.casualLine(ctx, seat, state.players[seat] && state.players[seat].casual);

  function fleetSummary(seat) {
    const section = el("section", "zone home-" + seat);
    section.append(el("h3", "zone-title", ctx.playerName(seat) + " · " + G.log_fleet), casualLine(seat));
    const list = el("div", "units");
    for (const u of state.units.filter((x) => x.seat === seat)) list.append(unitTile(u));
    section.append(list);
    return section;
  }

  function objectivesLine(seat) {
    const player = state.players[seat];
    const line = el("span", "objectives");
    if (!player) return line;
    for (const o of player.objectives) {
      const chip = el("span", "objective " + o.status);
      chip.id = "obj-" + seat + "-" + o.slot;
      chip.textContent = o.status === "face_down" ? "▮" : o.status === "destroyed" ? "✕" : o.name + " " + o.defense;
      chip.title = G[o.status] || o.status;
      line.append(chip);
    }
    return line;
  }

  function unitTile(u) {
    const tile = el("div", "unit seat-" + u.seat + (u.destroyed ? " destroyed" : ""));
    tile.id = "unit-" + u.id;
    if (picking && selectable(u)) tile.classList.add("selectable");
    if (picking && (picking.units.includes(u.id) || picking.attacker === u.id || picking.carrier === u.id)) tile.classList.add("selected");
    if (picking && picking.pairs.some((p) => p.includes(u.id))) tile.classList.add("paired");
    tile.append(kit.head(u.stars, u.name), kit.stats(u, STATS));
    if (u.icons.length) tile.append(el("div", "icons small", u.icons.join(" · ")));
    if (u.place !== "reserve") {
      const change = (delta) => send({ type: "counter", unit: u.id, delta });
      tile.append(kit.counters(u.id, u.counters, u.shields, change, ROLE !== "watch" && state.phase !== "over"));
    }
    else if (u.destroyed) tile.append(el("div", "destroyed-mark", "✕ " + G.destroyed));
    tile.onclick = (event) => {
      if (event.target.closest(".counter-btn")) return;
      if (picking) choose(u);
    };
    return tile;
  }

  // ----------------------------------------------------------------- choosing an action

  function renderActions() {
    const box = $("pm-actions");
    box.innerHTML = "";
    const mine = ctx.view.to_act === ROLE && (state.phase === "main" || state.phase === "end");
    box.hidden = !mine;
    if (!mine) return;
    if (state.phase === "end") {
      box.append(button(G.end_turn, () => send({ type: "end_turn" }), "big write", "pm-end-turn"));
      return;
    }
    if (picking) {
      box.append(el("p", "hint", G["pick_" + picking.kind]));
      const used = pickedStars();
      if (used) {
        const count = el("div", "budget", fmt(G.stars_of, { used, budget: picking.kind === "carrier" ? 2 : 5 }));
        count.id = "pm-pick-stars";
        box.append(count);
      }
      if (picking.kind === "combat" && picking.pairs.length) {
        box.append(button(G.start_battles, () => send({ type: "combat", pairs: picking.pairs }), "big write", "pm-start-battles"));
      }
      if (picking.kind === "strike" && picking.units.length) {
        box.append(button(G.start_strike, () => send({ type: "strike", units: picking.units }), "big write", "pm-start-strike"));
      }
      if (picking.kind === "carrier" && picking.carrier && picking.units.length) {
        box.append(button(G.bring_in, () => send({ type: "carrier", carrier: picking.carrier, units: picking.units }), "big write", "pm-carrier-go"));
      }
      if (picking.kind === "objective") box.append(objectivePicker());
      box.append(button(G.cancel, () => { picking = null; redraw(); }, "mid", "pm-cancel"));
      return;
    }
    const row = el("div", "buttons action-buttons");
    for (const kind of ["move", "combat", "strike", "carrier", "objective"]) {
      if (!can(kind)) continue;
      row.append(button(G[kind], () => {
        picking = { kind, units: [], pairs: [], attacker: null, carrier: null, slot: null };
        redraw();
      }, "mid", "pm-" + kind));
    }
    if (can("end_turn")) row.append(button(G.pass_action, () => send({ type: "end_turn" }), "mid", "pm-pass"));
    box.append(row);
  }

  function starsOf(ids) {
    return ids.reduce((sum, id) => sum + unit(id).stars, 0);
  }

  const ADJACENT = { home_A: ["contested"], contested: ["home_A", "home_B"], home_B: ["contested"] };

  function fits(u, chosen, budget) {
    return chosen.includes(u.id) || starsOf(chosen) + u.stars <= budget;
  }

  function selectable(u) {
    const me = ctx.view.to_act;
    if (picking.kind === "move") return u.seat === me && u.place !== "reserve" && fits(u, picking.units, 5);
    if (picking.kind === "combat") {
      const attackers = picking.pairs.map((p) => p[0]);
      if (!picking.attacker) {
        return u.seat === me && u.place !== "reserve" && !attackers.includes(u.id) && fits(u, attackers, 5);
      }
      return u.seat !== me && u.place === unit(picking.attacker).place;
    }
    if (picking.kind === "strike") return u.seat === me && u.place === "home_" + other(me) && fits(u, picking.units, 5);
    if (picking.kind === "carrier") {
      return picking.carrier ? u.seat === me && u.place === "reserve" && fits(u, picking.units, 2)
        : u.seat === me && u.place !== "reserve" && u.icons.includes("Carrier");
    }
    return false;
  }

  function toggle(list, id) {
    const at = list.indexOf(id);
    if (at >= 0) list.splice(at, 1);
    else list.push(id);
  }

  function choose(u) {
    if (!selectable(u) && !picking.units.includes(u.id)) return;
    if (picking.kind === "combat") {
      if (!picking.attacker) picking.attacker = u.id;
      else {
        picking.pairs.push([picking.attacker, u.id]);
        picking.attacker = null;
      }
    } else if (picking.kind === "carrier" && !picking.carrier) picking.carrier = u.id;
    else toggle(picking.units, u.id);
    redraw(); // the stars so far show in the pick line and on the move buttons, not in a toast
  }

  // Stars of the units picked so far (the attackers of the pairs in a combat).
  function pickedStars() {
    if (!picking) return 0;
    return starsOf(picking.kind === "combat" ? picking.pairs.map((p) => p[0]) : picking.units);
  }

  function moveTarget(zone) {
    const action = { type: "move", units: picking.units.slice(), to: zone };
    const ok = picking.units.every((id) => ADJACENT[unit(id).place].includes(zone)); // PM-11, D1
    return ok ? action : null;
  }

  function objectivePicker() {
    const box = el("div", "picker");
    const slot = el("select", "field");
    slot.id = "pm-objective-slot";
    for (const o of state.players[ROLE].objectives) {
      if (o.status === "destroyed") continue;
      const option = el("option", "", fmt(G.slot, { slot: o.slot }) + " · " + (o.status === "face_down" ? G.face_down : o.name));
      option.value = o.slot;
      slot.append(option);
    }
    const card = cardSelect(ROLE, (c) => c.type === "objective", "pm-objective-card");
    box.append(slot, card, button(G.play_objective, () => {
      if (!card.value) return;
      send({ type: "objective", slot: Number(slot.value), card: card.value });
    }, "big write", "pm-objective-go"));
    return box;
  }

  function cardSelect(seat, keep, id) {
    const deck = deckOf(seat);
    return kit.cardSelect(id, (deck ? deck.cards.filter(keep) : []).map((c) => {
      const bonus = kit.bonusText([["attack", c.bonus_attack], ["damage", c.bonus_damage], ["defense", c.bonus_defense]]);
      return [c.id, c.name + (bonus ? " (" + bonus + ")" : "") + (c.icons.length ? " · " + c.icons.join(" ") : "")];
    }));
  }

  // --------------------------------------------------------------------- fight screen

  function side(label, id, extra) {
    const u = unit(id);
    return kit.fighter(u.seat, label, u.name, kit.stats(u, STATS), el("div", "small", u.counters + "/" + u.shields + " " + G.counters), extra);
  }

  function playText(play, passed) {
    if (passed) return G.passed;
    if (!play) return "";
    const bonus = kit.bonusText([["attack", play.printed.attack], ["damage", play.printed.damage], ["defense", play.printed.defense]]);
    let text = (play.name || "") + (bonus ? " " + bonus : "");
    if (!play.applies && play.missing.length) text += " — " + fmt(G.not_counting, { icons: play.missing.join(", ") });
    return text;
  }

  function renderFight() {
    const box = $("pm-fight");
    box.innerHTML = "";
    const battle = state.battle;
    const strike = state.strike;
    box.hidden = !battle && !strike;
    if (battle) renderBattle(box, battle);
    else if (strike) renderStrike(box, strike);
  }

  function renderBattle(box, battle) {
    box.append(el("h2", "", fmt(G.battle, { n: battle.index + 1, of: battle.pairs.length })));
    const att = el("div", "small play", playText(battle.plays.attacker, battle.passed.attacker));
    const dfn = el("div", "small play", playText(battle.plays.defender, battle.passed.defender));
    const row = el("div", "fighters");
    row.append(side(G.attacker, battle.attacker, att), el("div", "versus", "⚔"), side(G.defender, battle.defender, dfn));
    box.append(row);
    const actor = ctx.view.to_act;
    const attackerSeat = unit(battle.attacker).seat;
    if (battle.result) box.append(battleResult(battle.result));
    if (actor !== ROLE) {
      box.append(kit.waiting(ctx, actor));
      return;
    }
    const step = battle.step;
    if (step === "attacker_card" || step === "defender_card" || step === "attacker_again") {
      const seat = step === "defender_card" ? other(attackerSeat) : attackerSeat;
      box.append(el("h3", "", G.play_card));
      const select = cardSelect(seat, (c) => c.type === "combat", "pm-card");
      box.append(select, button(G.play_card, () => select.value && send({ type: "play", card: select.value }), "mid write", "pm-play"));
      box.append(bonusEntry((bonus) => send({ type: "play", ...bonus }), "pm-bonus"));
      box.append(button(G.pass, () => send({ type: "pass" }), "mid write", "pm-pass"));
    } else if (step === "roll") {
      box.append(modifiers([battle.attacker, battle.defender]));
      box.append(button(G.roll, () => send({ type: "roll" }), "big write", "pm-roll"));
    } else if (step === "result") {
      box.append(button(G.confirm, () => send({ type: "confirm" }), "big write", "pm-confirm"));
    }
  }

  // D10: modifiers the engine does not model (card texts, objectives), typed before the roll.
  function modifiers(units) {
    const box = el("details", "modifiers");
    box.append(el("summary", "small", G.modifiers));
    for (const id of units) {
      box.append(el("div", "small", id === null ? G.objective : unit(id).name));
      box.append(bonusEntry((bonus) => send({ type: "modify", unit: id, ...bonus }), "pm-mod-" + (id || "objective"), -9));
    }
    return box;
  }

  function bonusEntry(onPlay, id, low = 0) {
    const box = el("div", "bonus-entry");
    box.append(el("span", "small", G.bonus));
    const values = {};
    for (const key of ["attack", "damage", "defense"]) {
      const input = el("input", "field");
      input.type = "number";
      input.inputMode = "numeric";
      input.min = low;
      input.max = 9;
      input.value = 0;
      input.id = id + "-" + key;
      values[key] = input;
      const label = el("label", "stat-in", G[key]); // the word above its box, not only in aria
      label.append(input);
      box.append(label);
    }
    box.append(button(G.play_bonus, () => {
      const bonus = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Number(v.value) || 0]));
      if (bonus.attack || bonus.damage || bonus.defense) onPlay(bonus);
    }, "mid write", id + "-go"));
    return box;
  }

  function sideResult(label, result) {
    const box = el("div", "total");
    box.append(el("div", "small", label + " · " + unit(result.unit).name));
    const faces = result.faces.join("+");
    const rest = result.attack_total - result.dice;
    box.append(el("div", "", `${G.dice} ${faces} = ${result.dice}, +${rest} ⇒ ${result.attack_total}`));
    box.append(el("div", "small", `${G.attack_total} ${result.attack_total} · ${G.defense_total} ${result.defense_total}`));
    const verdict = el("div", result.hits ? "hit" : "miss", result.hits ? fmt(G.hits, { n: result.damage }) : G.misses);
    if (result.turbolaser) verdict.append(" · " + G.turbolaser);
    box.append(verdict);
    return box;
  }

  function battleResult(result) {
    const box = el("div", "result");
    box.id = "pm-result";
    box.append(sideResult(G.attacker, result.attacker), sideResult(G.defender, result.defender));
    if (result.destroyed.length) box.append(el("div", "hit", result.destroyed.map((id) => unit(id).name).join(", ") + ": " + G.destroyed));
    return box;
  }

  function renderStrike(box, strike) {
    box.append(el("h2", "", fmt(G.strike_title, { n: strike.index + 1, of: strike.units.length })));
    const striker = unit(strike.unit);
    box.append(side(G.attacker, strike.unit));
    const actor = ctx.view.to_act;
    const defender = other(striker.seat);
    if (strike.result) {
      const r = strike.result;
      const result = el("div", "result");
      result.id = "pm-result";
      result.append(el("div", "", `${G.dice} ${r.faces.join("+")} = ${r.dice}, +${r.strike_total - r.dice} ⇒ ${r.strike_total}`));
      result.append(el("div", "small", `${G.strike_total} ${r.strike_total} · ${G.objective_defense} ${r.defense_total}`));
      result.append(el("div", r.destroyed ? "hit" : "miss", r.destroyed ? G.objective_destroyed : G.objective_holds));
      box.append(result);
    }
    if (actor !== ROLE) {
      box.append(kit.waiting(ctx, actor));
      return;
    }
    if (strike.step === "target") {
      box.append(el("p", "hint", G.choose_target));
      for (const o of state.players[defender].objectives) {
        if (o.status === "destroyed") continue;
        box.append(button(fmt(G.slot, { slot: o.slot }) + " · " + (o.status === "face_down" ? G.face_down : o.name + " " + o.defense),
          () => send({ type: "target", slot: o.slot }), "mid write", "pm-target-" + o.slot));
      }
    } else if (strike.step === "reveal") {
      box.append(el("p", "hint", G.reveal));
      const select = cardSelect(ROLE, () => true, "pm-reveal-card");
      box.append(select, button(G.face_up, () => select.value && send({ type: "reveal", card: select.value }), "mid write", "pm-reveal"));
    } else if (strike.step === "roll") {
      box.append(modifiers([strike.unit, null]));
      box.append(button(G.roll_strike, () => send({ type: "roll" }), "big write", "pm-roll"));
    } else if (strike.step === "result") {
      box.append(button(G.confirm, () => send({ type: "confirm" }), "big write", "pm-confirm"));
    } else if (strike.step === "reinforce") {
      box.append(el("p", "hint", fmt(G.reinforce, { stars: strike.reinforce_stars })));
      const chosen = [];
      const list = el("div", "units");
      for (const u of state.units.filter((x) => x.seat === ROLE && x.place === "reserve")) {
        const tile = unitTile(u);
        tile.onclick = () => { toggle(chosen, u.id); tile.classList.toggle("selected"); };
        list.append(tile);
      }
      box.append(list, button(G.bring_in, () => send({ type: "reinforce", units: chosen }), "big write", "pm-reinforce"),
        button(G.reinforce_none, () => send({ type: "reinforce", units: [] }), "mid write", "pm-reinforce-none"));
    }
  }

  // --------------------------------------------------------------------- QR code, log

  function describe(event, context) {
    if (event.kind === "setup") return G.log_setup;
    if (event.kind !== "action") return null;
    const a = event.payload.action;
    const name = (id) => {
      const s = context.view.state;
      const u = s && s.units.find((x) => x.id === id);
      return u ? context.whose(u.name, u.seat) : id;
    };
    if (a.type === "fleet") return G.log_fleet;
    if (a.type === "counter") return fmt(G.log_counter, { delta: a.delta > 0 ? "+1" : "−1", unit: name(a.unit) });
    if (a.type === "move") return G.move + ": " + a.units.map(name).join(", ") + " → " + G.zones[a.to];
    if (a.type === "combat") return G.combat + ": " + a.pairs.map((p) => name(p[0]) + " → " + name(p[1])).join(", ");
    if (a.type === "strike") return G.strike + ": " + a.units.map(name).join(", ");
    if (a.type === "carrier") return G.carrier + ": " + a.units.map(name).join(", ");
    if (a.type === "confirm") return G.log_confirm;
    if (a.type === "end_turn") return G.log_end;
    if (a.type === "roll") return G.log_roll; // the shell adds the dice to the line
    const bonus = (b) => kit.bonusText([["attack", b.attack], ["damage", b.damage], ["defense", b.defense]], true);
    // a card played from a deck list: the own list names it; the other phones never get that
    // list (hidden information), their log event carries the played card's name
    const card = (id) => {
      const s = context.view.state;
      const deck = s && s.players[event.seat] && s.players[event.seat].deck;
      return kit.cardName(deck && deck.cards, id, "id", a.name || id);
    };
    if (a.type === "play") return G.log_play + ": " + (a.card ? card(a.card) : bonus(a));
    if (a.type === "pass") return G.pass;
    if (a.type === "modify") return G.log_modify + ": " + (a.unit ? name(a.unit) : G.objective) + " " + bonus(a);
    if (a.type === "objective") return G.objective + ": " + fmt(G.slot, { slot: a.slot }) + " · " + card(a.card);
    if (a.type === "target") return G.log_target + " " + fmt(G.slot, { slot: a.slot });
    if (a.type === "reveal") return G.face_up + ": " + (a.card ? card(a.card) : G.objective_defense + " " + a.defense);
    if (a.type === "reinforce") return a.units.length ? G.log_reinforce + ": " + a.units.map(name).join(", ") : G.reinforce_none;
    return a.type;
  }

  // The pieces the other player's last action touched (shell.js marks them).
  function marks(event) {
    const a = event.payload.action;
    const units = [...(a.units || []), ...(a.pairs || []).flat(), a.unit, a.carrier].filter(Boolean);
    const ids = units.map((id) => "unit-" + id);
    if (a.type === "objective") ids.push("obj-" + event.seat + "-" + a.slot);
    if (a.type === "target") ids.push("obj-" + other(event.seat) + "-" + a.slot);
    return ids;
  }

  // The controls this phone is asked to use next (shell.js brings them into view): while
  // picking, the buttons that send the pick or else the pieces to pick; else the fight's,
  // the turn's or the fleet's first control.
  function next() {
    if (picking) {
      const go = [...document.querySelectorAll("#pm-board .go, #pm-actions button.write")];
      return go.length ? go : [...document.querySelectorAll("#pm-board .unit.selectable")];
    }
    return [document.querySelector("#pm-fight:not([hidden]) button.write, #pm-actions:not([hidden]) button, #pm-fleets:not([hidden]) #deck-bring")];
  }

  Tablesmith.register({ render, status, describe, marks, next, purposes: G.purposes });
})();
