// The projector page: one WebSocket to the hall, which sends the session's tables (already drawn
// as HTML by the server, QR codes included) whenever one of them changes.
"use strict";
(() => {
  const main = document.getElementById("projector");
  const conn = document.getElementById("conn");
  const FIRST_RETRY = 250, LAST_RETRY = 1000;  // ms between tries to reach the hall (a restart)
  let retry = FIRST_RETRY;

  function connect() {
    const url = new URL("projector/ws" + location.search, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(url);
    ws.onopen = () => { retry = FIRST_RETRY; conn.textContent = ""; };
    ws.onmessage = (event) => {
      const m = JSON.parse(event.data);
      if (m.type === "projector") main.innerHTML = m.html;
    };
    ws.onclose = () => {
      conn.textContent = "Connection to the hall lost: reconnecting...";
      setTimeout(connect, retry * (0.75 + Math.random() / 2));
      retry = Math.min(2 * retry, LAST_RETRY);
    };
  }
  connect();
})();
