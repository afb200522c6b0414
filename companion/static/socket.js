// Tablesmith companion: the table page's transport. Where the server serves sockets
// (tablesmith serve; the page's data-socket="1") the live stream and the writes share one
// WebSocket (companion/sockets.py); else, or where a proxy or network lets no socket through,
// the page uses Server-Sent Events + POST, by itself.
//
// TablesmithSocket.stream(api, token, since, reconnect) gives what the shell drives as its live stream:
// a SocketStream that behaves as an EventSource (readyState, onopen, onmessage(message with
// data and lastEventId), onerror, close()) and also carries the table's writes
// (carries(path); post(path, body, timeout), a promise of {status, data}, rejected when no
// answer came), or an EventSource.
//
// Falling back: a socket that closes before its stream opened (no "retry:" frame), without
// the server's refusal, is followed by an EventSource. Should that one open, a probe socket
// asks the server for a refusal (a hello without a token: its 403 proves that sockets get
// through): answered, the page goes back to a socket at once (the shell's reconnect); not
// answered within PROBE_MS, sockets count as blocked for BLOCKED_MS and the page stays on
// SSE + POST. An EventSource that fails too (the network is down) is followed by a socket.
"use strict";

const TablesmithSocket = (() => {
  const WRITES = ["actions", "deck", "dice", "counters", "clock"]; // sockets.py's WRITES
  const BLOCKED_MS = 5 * 60 * 1000;
  const PROBE_MS = 4000;
  let blockedUntil = 0; // performance.now() until which sockets are not tried
  let socketFailed = false; // the last socket closed before its stream opened

  function socketUrl(api) {
    const url = new URL(api + "socket", location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    return url.href;
  }

  // Does a socket reach the server? reconnect() when it does, else block sockets for a while.
  function probe(api, reconnect) {
    let done = false;
    const ws = new WebSocket(socketUrl(api));
    const finish = (works) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      ws.onclose = null;
      ws.close();
      if (works) {
        socketFailed = false;
        blockedUntil = 0;
        reconnect();
      } else {
        socketFailed = false;
        blockedUntil = performance.now() + BLOCKED_MS;
      }
    };
    const timer = setTimeout(() => finish(false), PROBE_MS);
    ws.onopen = () => ws.send(JSON.stringify({ since: 0 })); // no token: the server says 403
    ws.onmessage = (message) => finish(String(message.data).startsWith('{"re":0,'));
    ws.onclose = () => finish(false);
  }

  function offered() {
    const app = document.getElementById("app");
    return "WebSocket" in window && app && app.dataset.socket === "1";
  }

  // The EventSource the shell gets where no socket is tried: it tells the fallback whether
  // SSE works where the socket did not.
  function eventSource(api, token, since, reconnect) {
    const source = new EventSource(api + "events?since=" + since + "&token=" + encodeURIComponent(token));
    source.addEventListener("open", () => {
      if (socketFailed && offered()) probe(api, reconnect);
      socketFailed = false;
    });
    source.addEventListener("error", () => {
      if (source.readyState !== EventSource.OPEN) socketFailed = false; // the network: try a socket next
    });
    return source;
  }

  class SocketStream {
    constructor(api, token, since) {
      this.readyState = 0; // CONNECTING until the stream's first frame, then OPEN (1), CLOSED (2)
      this.onopen = null;
      this.onmessage = null;
      this.onerror = null;
      this.lastEventId = "";
      this.pending = new Map(); // re -> {resolve, reject, timer}
      this.next = 1;
      const ws = new WebSocket(socketUrl(api));
      this.ws = ws;
      // the phone says it lost its network: this socket is gone (its writes unanswered, kept
      // in the outbox), as a fetch would fail at once; the shell reconnects when it returns
      this.offline = () => {
        ws.onclose = null;
        ws.close();
        this.ended(1006);
      };
      window.addEventListener("offline", this.offline);
      ws.onopen = () => ws.send(JSON.stringify({ token, since })); // the token never in the URL
      ws.onmessage = (message) => this.received(String(message.data));
      ws.onclose = (event) => this.ended(event.code);
    }

    received(text) {
      if (text.startsWith("{")) { // an answer: {re, status, body, retry_after?}
        const answer = JSON.parse(text);
        const waiting = this.pending.get(answer.re);
        if (waiting) {
          this.pending.delete(answer.re);
          clearTimeout(waiting.timer);
          waiting.resolve({ status: answer.status, data: answer.body });
        }
        return;
      }
      for (const block of text.split("\n\n")) { // Server-Sent Events, as on the stream
        if (!block) continue;
        if (block.startsWith("retry:")) {
          if (this.readyState === 0) {
            this.readyState = 1;
            socketFailed = false;
            if (this.onopen) this.onopen();
          }
          continue;
        }
        let data = null;
        for (const line of block.split("\n")) {
          if (line.startsWith("id: ")) this.lastEventId = line.slice(4);
          else if (line.startsWith("data: ")) data = data === null ? line.slice(6) : data + "\n" + line.slice(6);
        }
        if (data !== null && this.onmessage) this.onmessage({ data, lastEventId: this.lastEventId });
      }
    }

    ended(code) {
      window.removeEventListener("offline", this.offline);
      if (this.readyState === 2) return;
      const opened = this.readyState === 1;
      this.readyState = 2;
      this.dropPending();
      if (!opened && code < 4000) socketFailed = true; // 4000 + status: the server refused
      if (this.onerror) this.onerror();
    }

    dropPending() {
      for (const waiting of this.pending.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(new Error("the socket closed"));
      }
      this.pending.clear();
    }

    close() {
      window.removeEventListener("offline", this.offline);
      if (this.readyState === 2) return;
      if (this.readyState === 0) socketFailed = true; // given up on before its stream opened
      this.readyState = 2;
      this.dropPending();
      this.ws.onclose = null;
      this.ws.close();
    }

    // Whether the socket carries POST <api><path> (the table's writes; others stay HTTP).
    carries(path) {
      return this.readyState === 1 && WRITES.includes(path);
    }

    // A write over the socket: POST <api><path> with body, answered as that POST would be.
    post(path, body, timeout) {
      return new Promise((resolve, reject) => {
        if (this.readyState !== 1) {
          reject(new Error("the socket is not open"));
          return;
        }
        const re = this.next++;
        const timer = timeout ? setTimeout(() => {
          this.pending.delete(re);
          reject(new Error("no answer in time"));
        }, timeout) : null;
        this.pending.set(re, { resolve, reject, timer });
        this.ws.send(JSON.stringify({ re, post: path, body }));
      });
    }
  }

  // The page's live stream (and, on a socket, its writes); reconnect() is the shell's
  // connect, called when sockets turn out to work again after a fallback.
  function stream(api, token, since, reconnect) {
    if (mode() === "socket") return new SocketStream(api, token, since);
    return eventSource(api, token, since, reconnect);
  }

  // For tests and the console: which transport the page would use now.
  function mode() {
    return offered() && !socketFailed && performance.now() >= blockedUntil ? "socket" : "sse";
  }

  return { stream, mode };
})();
