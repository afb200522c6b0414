// A print shop job's page (kit or card sheets): polls the job's state (shop/pages.py, state())
// until it ends, shows its place in the queue, its progress, a failure's one line and the
// cancel button, and when it is done dispatches "tablesmith:done" with the state, once, for
// the page's own part (kitjob.js, cardsjob.js) to fill in. No framework; it works on a phone's
// browser over plain http (no secure-context API is used).
(function () {
  "use strict";
  const root = document.getElementById("job");
  const strings = JSON.parse(document.getElementById("shop-strings").textContent);
  const $ = (id) => document.getElementById(id);
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
  let shown = false;

  function render(state) {
    const status = $("job-status");
    status.dataset.state = state.state;
    status.textContent = state.state === "queued"
      ? fmt(strings.queued, { n: state.position })
      : strings[state.state];
    $("job-progress").textContent = state.progress.join("\n");
    $("job-progress").scrollTop = $("job-progress").scrollHeight;
    $("cancel-form").hidden = !(state.state === "queued" || state.state === "running");
    if (state.state === "failed") {
      $("job-error").hidden = false;
      $("job-error").textContent = state.error;
    }
    if (state.state === "done" && !shown) {
      shown = true;
      $("job-done").hidden = false;
      $("kept").textContent = fmt(strings.kept, { minutes: Math.round(state.retention_s / 60) });
      document.dispatchEvent(new CustomEvent("tablesmith:done", { detail: state }));
    }
    return state.state === "queued" || state.state === "running";
  }

  async function poll() {
    try {
      const answer = await fetch(root.dataset.stateUrl, { headers: { Accept: "application/json" } });
      if (answer.status === 404) {
        $("job-status").dataset.state = "gone";
        $("job-status").textContent = strings.gone;
        $("cancel-form").hidden = true;
        return;
      }
      if (answer.ok && !render(await answer.json())) return;
    } catch (error) {
      // the network blinked: try again
    }
    setTimeout(poll, 700);
  }

  $("cancel-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await fetch(root.dataset.cancelUrl, {
      method: "POST", headers: { Accept: "application/json" },
    });
    if (answer.ok) render(await answer.json());
  });
  poll();
})();
