// Tablesmith companion: take a seat back with the short code the other phone shows (issue 9).
// On the "no seat here" and "table full" pages (message.html): the code goes to
// POST /api/t/<table>/reclaim {"code"}; the answer seats this browser (its seat cookie), and
// the table page opens. A wrong or expired code is said so, with the server's reason.
"use strict";

(() => {
  const form = document.getElementById("reclaim-form");
  if (!form) return;
  const T = JSON.parse(document.getElementById("reclaim-strings").textContent);
  const problem = document.getElementById("reclaim-problem");
  const button = form.querySelector("button[type=submit]");

  function say(text) {
    problem.textContent = text;
    problem.hidden = !text;
  }

  form.onsubmit = async (event) => {
    event.preventDefault();
    if (button.disabled) return; // a double tap
    const code = String(new FormData(form).get("code") || "").trim();
    if (!code) return say(T.empty);
    button.disabled = true;
    say("");
    try {
      const response = await fetch(form.dataset.api, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ code }),
        cache: "no-store",
        credentials: "same-origin",
      });
      let data = null;
      try {
        data = await response.json();
      } catch (e) {
        data = null;
      }
      if (response.ok) {
        location.assign(form.dataset.table);
        return;
      }
      if (response.status === 404 || response.status === 405) {
        say(data && data.error === "unknown" ? T.wrong : T.unavailable);
      } else if (response.status === 429) {
        say(T.rate_limited);
      } else {
        say(T.wrong + (data && data.message ? " (" + data.message + ")" : ""));
      }
    } catch (e) {
      say(T.offline);
    } finally {
      button.disabled = false;
    }
  };
})();
