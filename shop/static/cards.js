// The cards form: a chosen deck file is read on the phone into the text box (so it can be
// fixed there after a check), and choosing or typing a deck selects "your own deck". After
// each change (a second's pause) the first sheets are printed again as a preview: the same
// job as "Make the card sheets" (shop/cardpages.py, preview_cards), the previous one
// cancelled first, so a phone has at most one preview on the server.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const form = $("cards-form");
  const file = $("f-file");
  const text = $("f-text");
  const own = $("source-own");
  const live = $("live");
  const T = JSON.parse($("live-strings").textContent);
  const SHOWN = 4; // preview pages shown: the first sheets' fronts and backs
  let timer = null;
  let current = null;
  let turn = 0;

  file.addEventListener("change", () => {
    const chosen = file.files[0];
    if (!chosen) return;
    const reader = new FileReader();
    reader.onload = () => {
      text.value = String(reader.result);
      $("f-filename").value = chosen.name;
      own.checked = true;
      schedule();
    };
    reader.readAsText(chosen, "utf-8");
  });
  text.addEventListener("input", () => { own.checked = true; });

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(preview, 1000);
  }

  function say(message) {
    $("live-status").textContent = message;
  }

  async function preview() {
    const mine = ++turn;
    if (current) {
      fetch(current.cancel_url, { method: "POST", headers: { Accept: "application/json" } });
      current = null;
    }
    if (own.checked && !text.value.trim()) return;
    say(T.working);
    const body = new FormData(form);
    let data;
    try {
      const answer = await fetch(live.dataset.url, {
        method: "POST", body, headers: { Accept: "application/json" },
      });
      data = await answer.json();
    } catch (error) {
      return;
    }
    if (mine !== turn) return; // a later change asked again
    if (data.problems) return say(T.problems);
    if (data.error) return say(T.failed + " " + data.error);
    current = data;
    poll(mine, data);
  }

  async function poll(mine, job) {
    if (mine !== turn) return;
    const state = await (await fetch(job.state_url, { headers: { Accept: "application/json" } })).json();
    if (state.state === "queued" || state.state === "running") {
      setTimeout(() => poll(mine, job), 500);
      return;
    }
    current = null;
    if (state.state === "failed") return say(T.failed + " " + state.error);
    if (state.state !== "done") return;
    const pages = $("live-pages");
    pages.replaceChildren();
    const names = Object.keys(state.files).filter((n) => n.startsWith("preview/")).slice(0, SHOWN);
    for (const name of names) {
      const figure = Tablesmith_el("figure");
      figure.append(Tablesmith_el("img", { src: state.files[name], alt: name.slice(8) }));
      pages.append(figure);
    }
    say(T.pages);
  }

  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
  schedule(); // the chosen demo deck at once
})();
