// Tablesmith companion: the game clock on the table page, the same for every game (the server
// keeps it: companion/tables/clock.py). Each view of a table with a clock carries "clock"
// (remaining seconds per seat as of clock.at, the running seat, paused) and "now", the
// server's time when it sent the view. The phone keeps the server's time as performance.now()
// plus an offset learnt from the views' "now", and counts down with it, never with its own
// date: a phone whose clock is minutes off shows the same time as the other. Every view
// reconciles (a reload, the stream coming back after a restart, the other phone's pause).
// A platform panel of the shell (Tablesmith.panel): drawn after the game on every view, and
// it names the log lines of "clock" events.
//
// At zero the phone signals (a vibration where the browser allows it, a short beep once the
// page was touched, a flash) and a seated phone reports it (POST clock {op: "expired"}); the
// server logs it once if its own clock agrees. Nothing else happens: the players decide.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const box = $("clock");
  if (!box || typeof Tablesmith === "undefined") return;
  const T = JSON.parse($("strings").textContent);
  const app = $("app");
  const API = app.dataset.api;
  const TOKEN = app.dataset.token;
  const SEATED = Tablesmith.role === "A" || Tablesmith.role === "B";
  const TICK_MS = 200;

  let clock = null; // the latest view's clock
  // The server's time minus this phone's performance.now() (seconds), from the views' "now":
  // the largest seen, as a view that took longer on its way makes it smaller (a reply that
  // arrives late does not put the clock back); a jump of more than JUMP_S starts it anew.
  let offset = null;
  const JUMP_S = 2;
  let lastView = null;
  let known = null; // "period:side" keys of expiries the server logged, as last seen
  const signalled = new Set(); // keys this page signalled already
  let audio = null;

  const name = (seat) => (seat === "A" ? T.player_a : T.player_b);

  // What the server logs an expiry once for (companion/tables/clock.py, Clock.expiry_key).
  function keyOf(shown, side) {
    return shown.mode === "chess" ? "0:" + side : shown.period + ":" + side;
  }

  function received(view) {
    if (view === lastView) return; // the same view drawn again: its "now" is old
    lastView = view;
    if (!view.clock || !view.state) { // shown from the setup on: until then the join QR first
      box.hidden = true;
      clock = null;
      return;
    }
    clock = view.clock;
    const seen = (typeof view.now === "number" ? view.now : clock.at) - performance.now() / 1000;
    if (offset === null || seen > offset || seen < offset - JUMP_S) offset = seen;
    const logged = new Set(clock.expired.map((side) => keyOf(clock, side)));
    if (known !== null) {
      for (const key of logged) if (!known.has(key)) signal(key); // the other phone saw zero
    } else {
      for (const key of logged) signalled.add(key); // logged before this page opened
    }
    known = logged;
    box.hidden = false;
    tick();
  }

  function leftNow(side) {
    const left = clock.remaining[side];
    if (clock.running !== side || clock.paused) return left;
    return left - (performance.now() / 1000 + offset - clock.at);
  }

  // 75 s -> "1:15", 3725 s -> "1:02:05", overtime -> "−0:04"; whole seconds rounded up
  // (a clock shows 0:00 once the time is up, not a second early).
  function format(seconds) {
    const whole = Math.ceil(Math.abs(seconds) - 1e-9);
    const hours = Math.floor(whole / 3600);
    const minutes = Math.floor((whole % 3600) / 60);
    const secs = String(whole % 60).padStart(2, "0");
    const sign = seconds < 0 && whole > 0 ? "−" : "";
    return sign + (hours ? hours + ":" + String(minutes).padStart(2, "0") : minutes) + ":" + secs;
  }

  function tick() {
    if (!clock) return;
    for (const side of ["A", "B"]) {
      const left = leftNow(side);
      const face = $("clock-" + side);
      face.dataset.remaining = left.toFixed(2);
      face.classList.toggle("running", clock.running === side);
      face.classList.toggle("out", left <= 0);
      $("clock-time-" + side).textContent = format(left);
    }
    box.classList.toggle("paused", clock.paused);
    box.dataset.paused = clock.paused ? "true" : "false";
    box.dataset.running = clock.running || "";
    const side = clock.running;
    const out = side && leftNow(side) <= 0;
    if (out && !clock.paused) {
      const key = keyOf(clock, side);
      if (!signalled.has(key)) {
        signal(key);
        report(clock);
      }
    }
    $("clock-note").textContent = clock.paused
      ? Tablesmith.fmt(T.clock_paused_by, { player: name(clock.paused_by) })
      : out ? Tablesmith.fmt(T.clock_out, { player: name(side) }) : "";
    const pause = $("clock-pause");
    if (pause) {
      pause.textContent = clock.paused ? T.clock_resume : T.clock_pause;
      pause.hidden = !clock.running; // no side runs (not started, or ended): nothing to pause
    }
  }

  // Zero: vibrate (where the browser lets a page), beep (once the page was touched: browsers
  // start sound only after a gesture), and flash the clock.
  function signal(key) {
    if (signalled.has(key)) return;
    signalled.add(key);
    box.dataset.signals = String(Number(box.dataset.signals || 0) + 1);
    if (navigator.vibrate) navigator.vibrate([300, 120, 300]);
    beep();
    box.classList.remove("flash");
    void box.offsetWidth; // restart the animation
    box.classList.add("flash");
  }

  function beep() {
    if (!audio || audio.state !== "running") return;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.value = 0.2;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.35);
  }

  document.addEventListener("pointerdown", () => {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume();
  }, { passive: true });

  // Tell the server (it logs it once, if its own clock agrees); not through the outbox: a
  // report that does not arrive is made by the other phone, or was too early to matter.
  async function report(reported) {
    if (!SEATED) return;
    try {
      const response = await fetch(API + "clock", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Seat-Token": TOKEN },
        body: JSON.stringify({ client_action_id: Tablesmith.newId(), op: "expired" }),
        cache: "no-store",
      });
      const data = await response.json();
      if (response.status === 409 && data.error === "clock_running" && data.view) {
        signalled.delete(keyOf(reported, reported.running)); // this phone ran ahead: count on
        received(data.view);
      }
    } catch (e) {
      // offline: the other phone reports it, or this one when the next view comes
    }
  }

  let ctx = null; // the shell's context of the latest view (its write goes through the outbox)
  const pause = $("clock-pause");
  if (pause) {
    pause.addEventListener("click", () => {
      if (clock && ctx) ctx.write("clock", { op: clock.paused ? "resume" : "pause" });
    });
  }

  Tablesmith.panel({
    render(context) {
      ctx = context;
      received(context.view);
    },
    describe(event) {
      if (event.kind !== "clock") return null;
      const op = event.payload.op;
      if (op === "expired") return Tablesmith.fmt(T.log_clock_expired, { player: name(event.payload.side) });
      return T["log_clock_" + op] || op;
    },
  });
  setInterval(tick, TICK_MS);
})();
