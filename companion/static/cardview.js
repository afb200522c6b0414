// Tablesmith companion: the view kit the card games' phones share (issue 28), loaded by the
// table page after the shell and before the game's view.js. It names no game: a view asks
// for it with its own strings, `const kit = Tablesmith.cardKit(G)`, and gets the pieces every
// card table draws alike: the setup's variants, the "bring your deck" panel with its quick
// entry, a piece's head, stats and damage counters, a card list, the fighters of a fight,
// the casual-deck line and the piece a printed QR code points at (#piece=<id>).
//
// The strings a view hands in (G) name what the kit shows: waiting_for, choose_card,
// counters, add_counter, remove_counter, turn, and the labels of the stats it is given.
"use strict";

Tablesmith.cardKit = (G) => {
  const { el, button, fmt, $, role } = Tablesmith;
  const SEATED = role === "A" || role === "B";

  // Before the table is opened: the setup card for the seated phones, the game's sections
  // hidden and its drawn parts emptied. True while there is no game yet.
  function beforeSetup(state, setup, hidden, emptied) {
    $(setup).hidden = !!state || !SEATED;
    if (state) return false;
    for (const id of hidden) $(id).hidden = true;
    for (const id of emptied) $(id).innerHTML = "";
    return true;
  }

  // The variants ticked in a setup section: {name: checked} for every checkbox in its
  // fieldset.variants (a new flag in view.html is sent without a change here).
  function variants(section) {
    const flags = {};
    for (const input of document.querySelectorAll(`#${section} .variants input[type=checkbox]`)) {
      flags[input.name] = input.checked;
    }
    return flags;
  }

  // The "bring your deck" section of this phone's seat (prefix-deck, prefix-quick,
  // prefix-...-wait): the deck picker and the hand entry until the seat's deck is in, then
  // who is still awaited. `rows` draws the hand entry's rows.
  function deckPanel(ctx, ids, brought, rows) {
    $(ids.deck).hidden = brought;
    $(ids.quick).hidden = brought;
    const wait = $(ids.wait);
    wait.hidden = !brought;
    wait.textContent = brought ? fmt(G.waiting_for, { player: ctx.playerName(Tablesmith.other(role)) }) : "";
    if (brought) return;
    Tablesmith.deckPicker($(ids.deck), ctx);
    rows();
  }

  // The hand entry's rows: a name and a number field per stat ([key, min, max]); the typed
  // values live in `entries` (one object a row) until they are brought.
  function quickRows(box, entries, stats, placeholder) {
    box.innerHTML = "";
    entries.forEach((entry, index) => {
      const row = el("div", "quick-row");
      row.dataset.index = index;
      const name = el("input", "field");
      name.placeholder = placeholder;
      name.value = entry.name;
      name.maxLength = 40;
      name.oninput = () => (entry.name = name.value);
      row.append(name);
      for (const [stat, min, max] of stats) {
        const label = el("label", "stat-in");
        const input = el("input", "field");
        input.type = "number";
        input.inputMode = "numeric";
        input.min = min;
        input.max = max;
        input.value = entry[stat];
        input.oninput = () => (entry[stat] = Number(input.value));
        label.append(G[stat] || stat, input);
        row.append(label);
      }
      box.append(row);
    });
  }

  // A redraw after a tap on this phone (a piece picked): `draw` draws, then the control the
  // game asks for next comes into view (shell.js showNext).
  function redraw(draw) {
    return () => {
      draw();
      Tablesmith.showNext();
    };
  }

  // A piece's head: its stars and its name.
  function head(stars, name) {
    const line = el("div", "unit-head");
    line.append(el("span", "stars", "★" + stars), el("span", "unit-name", name));
    return line;
  }

  // Coloured stat boxes: [value key, css class, label key] each; `values` null draws the
  // legend (the labels themselves).
  function stats(values, keys, cls = "unit-stats") {
    const row = el("div", cls);
    for (const [key, css, label] of keys) {
      const box = el("span", "stat " + css, values ? String(values[key]) : G[label]);
      if (values) box.title = G[label];
      row.append(box);
    }
    return row;
  }

  // Damage counters: pips, "n/limit" (#count-<id>), and − / + (#minus-<id>, #plus-<id>)
  // that call change(-1) / change(+1) where `live`.
  function counters(id, count, limit, change, live) {
    const row = el("div", "counters");
    row.setAttribute("aria-label", G.counters);
    const pips = el("span", "pips");
    for (let i = 0; i < Math.max(limit, count); i++) pips.append(el("span", "pip" + (i < count ? " on" : "")));
    const text = el("span", "count", count + "/" + limit);
    text.id = "count-" + id;
    const middle = el("span", "counter-mid");
    middle.append(pips, text);
    if (!live) {
      row.append(middle);
      return row;
    }
    const minus = button("−", () => change(-1), "counter-btn write", "minus-" + id);
    minus.title = G.remove_counter;
    minus.disabled = count === 0;
    const plus = button("+", () => change(1), "counter-btn write", "plus-" + id);
    plus.title = G.add_counter;
    row.append(minus, middle, plus);
    return row;
  }

  // A card list: "Choose a card" (value "") and [value, label] options.
  function cardSelect(id, options) {
    const select = el("select", "field");
    select.id = id;
    const none = el("option", "", G.choose_card);
    none.value = "";
    select.append(none);
    for (const [value, label] of options) {
      const option = el("option", "", label);
      option.value = value;
      select.append(option);
    }
    return select;
  }

  // One side of a fight: its label, the piece's name, and what follows (stats, cards ...).
  function fighter(seat, label, name, ...rest) {
    const box = el("div", "fighter seat-" + seat);
    box.append(el("div", "small", label), el("div", "unit-name", name), ...rest.filter(Boolean));
    return box;
  }

  // "Waiting for Player B." under a fight the other phone acts in.
  function waiting(ctx, seat) {
    return el("p", "hint", fmt(G.waiting_for, { player: ctx.playerName(seat) }));
  }

  // "Turn 3" in the colour of the seat whose turn it is.
  function turnPill(seat, turn) {
    return el("span", "pill ship-" + seat, fmt(G.turn, { turn }));
  }

  // The section `id` emptied and, unless `off`, given the turn's line ("Turn 3"), returned for
  // what the game adds to it.
  function turnLine(id, off, seat, turn) {
    $(id).innerHTML = "";
    if (off) return null;
    const line = el("div", "turn-line");
    line.append(turnPill(seat, turn));
    $(id).append(line);
    return line;
  }

  // A deck brought anyway although it breaks the building rules: the rule and the numbers
  // stay on both phones for the whole game (#casual-<seat>); "" where the deck is fine.
  function casualLine(ctx, seat, problems) {
    if (!problems || !problems.length) return "";
    const line = el("div", "small casual", fmt(ctx.T.casual_deck, { problems: problems.map(Tablesmith.reason).join("; ") }));
    line.id = "casual-" + seat;
    return line;
  }

  // The piece a printed card's QR code opened the page at (#piece=<id>): framed and in sight,
  // a folded section around it opened.
  function focusPiece(prefix) {
    const wanted = /#piece=([A-Za-z0-9]+)/.exec(location.hash);
    const tile = wanted && document.getElementById(prefix + wanted[1]);
    if (!tile || tile.classList.contains("focus")) return;
    tile.classList.add("focus");
    const folded = tile.closest("details");
    if (folded) folded.open = true;
    tile.scrollIntoView({ block: "center" });
  }

  // A card of a seat's deck list by its id, for the log: the own list names it; the other
  // phones never get that list (hidden information), their event carries the card's name.
  function cardName(cards, id, key, fallback) {
    const found = id && cards && cards.find((c) => c[key] === id);
    return found ? found.name : fallback;
  }

  // "+2 attack +1 damage" of the bonus fields that are set ([key, value] pairs).
  function bonusText(pairs, signed = false) {
    return pairs.filter(([, v]) => v).map(([k, v]) => (signed && v < 0 ? "" : "+") + v + " " + G[k]).join(" ");
  }

  return {
    beforeSetup, variants, deckPanel, redraw, quickRows, head, stats, counters, cardSelect, fighter,
    waiting, turnPill, turnLine, casualLine, focusPiece, cardName, bonusText, seated: SEATED,
  };
};
