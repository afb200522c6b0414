// Tablesmith companion: counters of your own, the platform's panel beside every game
// (companion/tables/counters.py; the markup and texts in templates/counters.html). Each seat
// adds named counters, taps -/+ and removes them; both phones and watchers see every counter,
// only its owner's phone shows the controls. Every tap is a write through the shell's outbox
// ("counters": logged, undoable with "Undo my last action"), and the list is redrawn from the
// table view alone, like the game.
"use strict";

(() => {
  const box = document.getElementById("counters");
  if (!box) return;
  const S = JSON.parse(document.getElementById("counter-strings").textContent);
  const { el, button, fmt, role: ROLE } = Tablesmith;
  const SEATED = ROLE === "A" || ROLE === "B";
  let ctx = null;
  let opened = false; // opened once by itself when the first counter appeared

  const change = (name, by) => ctx.write("counters", { op: "change", name, by });

  function row(counter, index) {
    const item = el("div", "own-counter seat-" + counter.seat);
    item.dataset.seat = counter.seat;
    item.dataset.name = counter.name;
    item.append(el("span", "own-counter-name", counter.name));
    const value = el("span", "own-counter-value", String(counter.value));
    value.id = `own-counter-value-${counter.seat}-${index}`;
    if (counter.seat !== ROLE || !SEATED) {
      item.append(value);
      return item;
    }
    const id = `own-counter-${counter.seat}-${index}`;
    const minus = button("\u2212", () => change(counter.name, -1), "mini write own-counter-minus", id + "-minus");
    const plus = button("+", () => change(counter.name, 1), "mini write own-counter-plus", id + "-plus");
    const remove = button(S.counter_remove, () => ctx.write("counters", { op: "remove", name: counter.name }),
      "mini write own-counter-remove", id + "-remove");
    minus.setAttribute("aria-label", fmt(S.counter_minus, { name: counter.name }));
    plus.setAttribute("aria-label", fmt(S.counter_plus, { name: counter.name }));
    remove.setAttribute("aria-label", fmt(S.counter_remove_label, { name: counter.name }));
    const controls = el("span", "own-counter-controls"); // wraps below a long name as one
    controls.append(minus, value, plus, remove);
    item.append(controls);
    return item;
  }

  function render(context) {
    ctx = context;
    const counters = ctx.view.counters || [];
    const list = document.getElementById("counter-list");
    list.innerHTML = "";
    // this phone's own counters first, then the other seat's; watchers see A, then B
    const order = ROLE === "B" ? ["B", "A"] : ["A", "B"];
    for (const seat of order) {
      const mine = counters.filter((c) => c.seat === seat);
      if (!mine.length) continue;
      const group = el("div", "own-counter-group");
      group.id = "counters-" + seat;
      group.append(el("h3", "own-counter-owner seat-" + seat, ctx.playerName(seat)));
      mine.forEach((counter, index) => group.append(row(counter, index)));
      list.append(group);
    }
    if (!counters.length) list.append(el("p", "small", S.counter_none));
    document.getElementById("counters-count").textContent = counters.length ? `(${counters.length})` : "";
    if (counters.length && !opened) {
      opened = true;
      box.open = true;
    }
  }

  function describe(event) {
    if (event.kind !== "counter") return null;
    const { counter, after } = event.payload;
    if (counter.op === "add") return fmt(S.log_counter_add, { name: counter.name, value: after });
    if (counter.op === "remove") return fmt(S.log_counter_remove, { name: counter.name, value: after });
    const by = counter.by > 0 ? "+" + counter.by : "\u2212" + -counter.by;
    return fmt(S.log_counter_change, { name: counter.name, by, value: after });
  }

  const form = document.getElementById("counter-form");
  if (form) {
    form.onsubmit = (event) => {
      event.preventDefault();
      if (!ctx) return;
      const input = document.getElementById("counter-name");
      const name = input.value.replace(/\s+/g, " ").trim();
      if (!name || name.length > 40) {
        ctx.toast(S.counter_name_needed);
        return;
      }
      const sent = ctx.write("counters", { op: "add", name, value: 0 });
      if (sent) sent.then((result) => { if (result && result.status === 200) input.value = ""; });
    };
  }

  Tablesmith.panel({ strings: S, render, describe });
})();
