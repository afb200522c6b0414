// Tablesmith companion: take a seat back with a code. On the "no seat here" and "table full"
// pages (message.html): the seat key, a move code or a seat code goes to
// POST /api/t/<table>/reclaim {"code"}; the answer seats this browser (its seat cookie), and
// the table page opens. A wrong or expired code is said so, with the server's reason. A seat
// code for a seat whose phone is still at the table is refused (409 seat_in_use, with when the
// phone was last seen and when to try again): the page says so and tries again by itself.
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

  let again = null; // the next try of a seat code whose seat is still in use

  function clock(iso) {
    const when = new Date(iso);
    if (Number.isNaN(when.getTime())) return "?";
    return when.toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" });
  }

  form.onsubmit = async (event) => {
    event.preventDefault();
    clearTimeout(again);
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
      if (response.status === 409 && data && data.error === "seat_in_use") {
        say(T.in_use.replace("%(time)s", clock(data.seen_at)));
        const wait = Math.max(1, Math.min(Number(data.retry_in) || 10, 60));
        again = setTimeout(() => form.requestSubmit(), wait * 1000);
      } else if (response.status === 404 || response.status === 405) {
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
