// Tablesmith companion: the deck picker for games played with decks (loaded after shell.js).
// A seat brings the deck that printed its cards: a shipped demo deck or its own deck file
// (.yaml/.csv, read on the phone and sent as text); the server checks it with the same reader
// as the card sheets and answers problems with the file, line and field. Seat B's picker starts
// on the side opposing seat A's (companion/decks.py, default_demo).
"use strict";

Tablesmith.deckPicker = (() => {
  const T = JSON.parse(document.getElementById("strings").textContent);
  const DEMOS = JSON.parse(document.getElementById("demo-decks").textContent);
  const wanted = new URLSearchParams(location.search).get("demo");

  function readText(file) {
    return new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error);
      reader.readAsText(file, "utf-8");
    });
  }

  // Mount the picker into `container` once; `ctx` is the shell's context (ctx.write).
  return function mount(container, ctx) {
    if (container.querySelector(".deck-picker")) return;
    const box = document.createElement("form");
    box.className = "deck-picker";
    const demo = document.createElement("select");
    demo.id = "deck-demo";
    demo.className = "field";
    for (const entry of DEMOS) {
      const option = document.createElement("option");
      option.value = entry.name;
      option.textContent = `${entry.title} (${T.demo}, ${entry.cards})`;
      // a deck asked for in the link (a card's "start a table"), else this seat's side
      option.selected = DEMOS.some((d) => d.name === wanted) ? entry.name === wanted : entry.default;
      demo.append(option);
    }
    const own = document.createElement("option");
    own.value = "";
    own.textContent = T.deck_own;
    demo.append(own);
    // A deck the print shop printed on this phone (its cards page stored it for this tab
    // before opening the table with ?deck=carried): offered first, as a deck file of its own.
    let carried = null;
    if (new URLSearchParams(location.search).get("deck") === "carried") {
      try {
        carried = JSON.parse(sessionStorage.getItem("tablesmith.deck") || "null");
      } catch (error) {
        carried = null;
      }
    }
    if (carried && carried.filename && carried.text) {
      const option = document.createElement("option");
      option.value = "@carried";
      option.textContent = carried.filename;
      option.selected = true;
      demo.prepend(option);
    }
    const file = document.createElement("input");
    file.type = "file";
    file.id = "deck-file";
    file.accept = ".yaml,.yml,.csv,text/yaml,text/csv";
    file.hidden = DEMOS.length > 0;
    demo.onchange = () => (file.hidden = demo.value !== "");
    const bring = document.createElement("button");
    bring.type = "submit";
    bring.id = "deck-bring";
    bring.className = "big write";
    bring.textContent = T.deck_bring;
    const problems = document.createElement("pre");
    problems.className = "problems";
    problems.id = "deck-problems";
    problems.hidden = true;
    // A deck that breaks the building rules: the rule and the numbers stay on screen, and it can
    // still be brought after an explicit "play anyway" (the table records it as casual).
    const anyway = document.createElement("button");
    anyway.type = "button";
    anyway.id = "deck-casual";
    anyway.className = "mid write";
    anyway.textContent = T.deck_casual;
    anyway.hidden = true;
    let refusedFields = null;
    anyway.onclick = async () => {
      if (!refusedFields) return;
      await ctx.write("deck", { ...refusedFields, casual: true });
    };
    box.append(demo, file, bring, problems, anyway);
    box.onsubmit = async (event) => {
      event.preventDefault();
      problems.hidden = true;
      anyway.hidden = true;
      refusedFields = null;
      let fields;
      if (demo.value === "@carried") fields = { filename: carried.filename, text: carried.text };
      else if (demo.value) fields = { demo: demo.value };
      else if (file.files.length) {
        const chosen = file.files[0];
        fields = { filename: chosen.name, text: await readText(chosen) };
      } else {
        ctx.toast(T.deck_choose);
        return;
      }
      const result = await ctx.write("deck", fields);
      if (result && result.status !== 200 && result.data && result.data.message) {
        // the building rules' problems in the page's language (message ids); else the text
        // or the file's problems, one line each, in the page's language already
        const listed = result.data.problems;
        const lines = result.data.lines;
        problems.textContent = Array.isArray(listed) && listed.length
          ? listed.map(Tablesmith.reason).join("\n")
          : Array.isArray(lines) && lines.length ? lines.join("\n") : result.data.message;
        problems.hidden = false;
        if (result.data.error === "deck_rules") {
          refusedFields = fields;
          anyway.hidden = false;
        }
      }
    };
    container.append(box);
  };
})();
