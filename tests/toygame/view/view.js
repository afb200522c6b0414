// Countdown (tests/toygame): the pile and three take buttons inside the shell (shell.js).
"use strict";

(() => {
const G = JSON.parse(document.getElementById("game-strings").textContent);
const $ = Tablesmith.$;
let ctx = null;

function render(context) {
  ctx = context;
  const state = ctx.view.state;
  $("countdown-start").hidden = !!state || Tablesmith.role === "watch";
  $("countdown-pile").textContent = state ? Tablesmith.fmt(G.pile, { pile: state.pile }) : "";
  for (const n of [1, 2, 3]) {
    $("take-" + n).disabled = !state || !ctx.myTurn || n > state.pile;
  }
}

$("countdown-start").addEventListener("click", () => ctx.send({ type: "setup", first: "random" }));
for (const n of [1, 2, 3]) {
  $("take-" + n).addEventListener("click", () => ctx.send({ type: "take", count: n }));
}

Tablesmith.register({ render, status: () => ({}), describe: () => null, purposes: G.purposes });
})();
