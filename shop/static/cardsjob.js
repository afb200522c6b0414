// The card sheets' part of their job page (loaded before job.js): when they are done, the
// PDF(s) and cut files to download and a preview of every page, fronts and backs.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const el = Tablesmith_el;

  document.addEventListener("tablesmith:done", (event) => {
    const files = event.detail.files;
    for (const [name, url] of Object.entries(files)) {
      if (name.startsWith("preview/")) {
        const figure = el("figure");
        figure.append(el("img", { src: url, alt: name.slice(8), loading: "lazy" }));
        figure.append(el("figcaption", {}, name.slice(8)));
        $("pages").append(figure);
      } else {
        const item = el("li");
        item.append(el("a", { href: url, download: "", class: name.endsWith(".pdf") ? "pdf" : "" }, name));
        $("files").append(item);
      }
    }
  });
})();

// An own deck goes to the table with this tab: the table's deck picker offers it first
// (companion/static/decks.js, ?deck=carried).
(function () {
  "use strict";
  const form = document.getElementById("play-form");
  const carried = document.getElementById("carried-deck");
  if (!form || !carried) return;
  form.addEventListener("submit", () => {
    try {
      sessionStorage.setItem("tablesmith.deck", carried.textContent);
    } catch (error) {
      // no storage (a private window's quota): the picker offers the usual choices
    }
  });
})();
