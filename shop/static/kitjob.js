// The kit's part of its job page (loaded before job.js): when the kit is done, the zip link,
// each plate's preview with its 3MF, the print notes and every file; then "tablesmith:kit"
// for the 3D view (viewer.js).
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const el = Tablesmith_el;

  document.addEventListener("tablesmith:done", (event) => {
    const state = event.detail;
    $("download-zip").href = state.zip;
    for (const plate of state.manifest.plates) {
      const url = state.files["asteroids/" + plate.preview];
      const figure = el("figure");
      if (url) figure.append(el("img", { src: url, alt: plate.file, loading: "lazy" }));
      const caption = el("figcaption");
      caption.append(el("a", { href: state.files["asteroids/" + plate.file], download: "" }, plate.file));
      figure.append(caption);
      $("plates").append(figure);
    }
    $("notes").textContent = state.notes;
    for (const [name, url] of Object.entries(state.files)) {
      const item = el("li");
      item.append(el("a", { href: url, download: "" }, name));
      $("files").append(item);
    }
    document.dispatchEvent(new CustomEvent("tablesmith:kit", { detail: state }));
  });
})();
