// The cards form: a chosen deck file is read on the phone into the text box (so it can be
// fixed there after a check), and choosing or typing a deck selects "your own deck".
(function () {
  "use strict";
  const file = document.getElementById("f-file");
  const text = document.getElementById("f-text");
  const own = document.getElementById("source-own");
  file.addEventListener("change", () => {
    const chosen = file.files[0];
    if (!chosen) return;
    const reader = new FileReader();
    reader.onload = () => {
      text.value = String(reader.result);
      document.getElementById("f-filename").value = chosen.name;
      own.checked = true;
    };
    reader.readAsText(chosen, "utf-8");
  });
  text.addEventListener("input", () => { own.checked = true; });
})();
