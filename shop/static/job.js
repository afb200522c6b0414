// The print shop's job page: polls the job's state (shop/pages.py, state()) until it ends,
// then shows the plate previews, the print notes and the downloads. No framework; the
// page works on a phone's browser over plain http (no secure-context API is used).
(function () {
  "use strict";
  const root = document.getElementById("job");
  const strings = JSON.parse(document.getElementById("shop-strings").textContent);
  const $ = (id) => document.getElementById(id);
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
  let shown = false;

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function showDone(state) {
    if (shown) return;
    shown = true;
    $("job-done").hidden = false;
    $("download-zip").href = state.zip;
    const plates = $("plates");
    for (const plate of state.manifest.plates) {
      const url = state.files["asteroids/" + plate.preview];
      const figure = el("figure");
      if (url) figure.append(el("img", { src: url, alt: plate.name, loading: "lazy" }));
      const caption = el("figcaption");
      caption.append(el("a", { href: state.files["asteroids/" + plate.file], download: "" }, plate.file));
      figure.append(caption);
      plates.append(figure);
    }
    $("notes").textContent = state.notes;
    const list = $("files");
    for (const [name, url] of Object.entries(state.files)) {
      const item = el("li");
      item.append(el("a", { href: url, download: "" }, name));
      list.append(item);
    }
    $("kept").textContent = fmt(strings.kept, { minutes: Math.round(state.retention_s / 60) });
    document.dispatchEvent(new CustomEvent("tablesmith:kit", { detail: state }));
  }

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
    if (state.state === "done") showDone(state);
    return state.state === "queued" || state.state === "running";
  }

  async function poll() {
    try {
      const answer = await fetch(root.dataset.stateUrl, { headers: { Accept: "application/json" } });
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
