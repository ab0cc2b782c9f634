// The student page of the lecture hall: one WebSocket to the server, which sends this seat's
// view of the table whenever it changes. The seat key stays in this browser (localStorage),
// so a reload or a phone waking up comes back to the seat without typing. At a practice table
// (one student against bots, no lecturer) the game-over screen offers a new game.
// When the server goes away (a restart), the page tries again within a second, so the class
// is back at its seats moments after the server answers; a move sent whose answer never came
// is said to be not taken (if the table shows it was not) and its buttons are offered again.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const SAVED = "mogul-hall-seat";
  const tidy = (code) => (code || "").replace(/[\s-]+/g, "").toUpperCase();
  let fromAddress = new URLSearchParams(location.search).get("table") || "";
  const FIRST_RETRY = 250, LAST_RETRY = 1000;  // ms between tries to reach the server
  let ws = null, view = null, seated = false, rejoining = false, retry = FIRST_RETRY, timerEnds = 0;
  let practice = false;
  let pending = null;  // a move sent and not answered yet: {step, label, lost}
  let again = null;  // the next try to reach the server
  let waitingJoin = null;  // a join pressed before the socket opened: sent when it opens

  function saved() {
    try { return JSON.parse(localStorage.getItem(SAVED) || "null"); } catch (e) { return null; }
  }
  function say(text) { $("message").textContent = text || ""; }
  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(message)); return true; }
    say("Not connected to the server yet: wait a moment and try again.");
    return false;
  }
  function showForm() {
    seated = false;
    $("join").hidden = false;
    $("play").hidden = true;
  }

  function connect() {
    clearTimeout(again);
    const url = new URL("ws", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(url);
    ws.onopen = () => {
      retry = FIRST_RETRY;
      const seat = saved();
      if (waitingJoin) {
        send(waitingJoin);
        waitingJoin = null;
      } else if (seat && (!fromAddress || tidy(fromAddress) === seat.table)) {
        rejoining = send({op: "join", table: seat.table, key: seat.key});
      }
      $("conn").textContent = rejoining && seated ? "Connected: taking your seat again..." : "";
    };
    ws.onmessage = (event) => receive(JSON.parse(event.data));
    ws.onclose = () => {
      $("conn").textContent = "Connection lost: reconnecting...";
      if (pending && !pending.lost) {
        pending.lost = true;
        say(`Connection lost before your move "${pending.label}" was answered.`);
      }
      again = setTimeout(connect, retry * (0.75 + Math.random() / 2));  // a room does not retry in step
      retry = Math.min(2 * retry, LAST_RETRY);
    };
  }

  function receive(m) {
    if (m.type === "seat") {
      rejoining = false;
      seated = true;
      $("conn").textContent = "";
      localStorage.setItem(SAVED, JSON.stringify({table: m.table, key: m.key}));
      say("");
      $("join").hidden = true;
      $("play").hidden = false;
      $("howto-text").innerHTML = m.howto;
      practice = Boolean(m.practice);
      $("leave").hidden = practice;  // nobody else may want this seat: a new game is the way on
      if (practice && tidy(fromAddress) !== m.table) {  // a reload comes back to this game
        fromAddress = m.table;
        history.replaceState(null, "", "?table=" + m.pretty);
      }
      if (m.moved) say(`New group: you are now at table ${m.pretty}, seat ${m.seat + 1}.`);
      if (m.new && !practice) {
        $("newkey-text").textContent = m.key.slice(0, 4) + "-" + m.key.slice(4, 8) + "-" + m.key.slice(8);
        $("newkey").hidden = false;
      }
    } else if (m.type === "view") {
      // a view pushed to this page before its seat came back is drawn again right after it
      if (!seated || rejoining) return;
      let note = null;
      if (pending && m.step > pending.step) {  // taken (the table shows it), or moved on
        if (pending.lost) note = "";
        pending = null;
      } else if (pending && pending.lost) {  // back, and the table is where it was: not taken
        note = `Your move "${pending.label}" was not taken: press it again.`;
        pending = null;
      }
      draw(m);
      if (note !== null) say(note);
    } else if (m.type === "error") {
      pending = null;
      say(m.message);
      if (m.lost) {  // the lecturer gave this seat to someone else
        view = null;
        localStorage.removeItem(SAVED);
        showForm();
      }
      if (rejoining) {  // the remembered seat is gone (a new key, a deleted table): ask again
        rejoining = false;
        localStorage.removeItem(SAVED);
        showForm();
      }
      if (view) drawMoves(view);
    }
  }

  function draw(v) {
    view = v;
    $("header").innerHTML = "";
    $("header").append("Table ", bold(v.pretty), " \u00b7 you are ", bold(v.name), ` (seat ${v.seat + 1})`);
    $("line").innerHTML = v.line;
    $("board").innerHTML = v.table_html;
    $("panel").innerHTML = v.panel || "";
    const notes = $("notes");
    notes.replaceChildren(...v.timeouts.map((text) => { const li = document.createElement("li"); li.textContent = text; return li; }));
    timerEnds = v.timer ? Date.now() + 1000 * v.timer.left : 0;
    tickTimer();
    drawMoves(v);
  }
  function bold(text) { const b = document.createElement("b"); b.textContent = text; return b; }

  function drawMoves(v) {
    const box = $("moves");
    if (practice && (v.status === "over" || v.status === "ended")) {
      const again = document.createElement("button");
      again.type = "button";
      again.textContent = "New game";
      again.onclick = () => { again.disabled = true; say(""); if (!send({op: "again"})) again.disabled = false; };
      box.replaceChildren(again);
      return;
    }
    if (v.number) { drawNumber(box, v); return; }
    box.replaceChildren(...v.moves.map(([label, action]) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.dataset.action = action;
      button.onclick = () => {
        for (const b of box.querySelectorAll("button")) b.disabled = true;  // one click, one move
        say("");
        pending = {step: v.step, label: label, lost: false};
        if (!send({op: "act", step: v.step, action: action})) { pending = null; drawMoves(v); }
      };
      return button;
    }));
  }

  function drawNumber(box, v) {  // a sealed bid: one number and a submit
    const {word, low, high} = v.number;
    const old = box.querySelector("#amount");  // another bid came in while this one is typed
    const typed = old && !old.disabled ? old.value : "", focused = old && document.activeElement === old;
    const form = document.createElement("form");
    form.className = "number";
    const label = document.createElement("label");
    label.textContent = `Your ${word} (${low} to ${high})`;
    const input = document.createElement("input");
    Object.assign(input, {type: "number", min: low, max: high, step: 1, required: true, id: "amount"});
    input.inputMode = "numeric";
    label.append(input);
    const button = document.createElement("button");
    button.type = "submit";
    button.textContent = `Seal my ${word}`;
    form.append(label, button);
    form.onsubmit = (event) => {
      event.preventDefault();
      const amount = Number(input.value);
      if (input.value === "" || !Number.isInteger(amount) || amount < low || amount > high) {
        say(`Type a whole number from ${low} to ${high}.`);
        return;
      }
      button.disabled = input.disabled = true;
      say("");
      const action = `${word} ${amount}`;
      pending = {step: v.step, label: action, lost: false};
      if (!send({op: "act", step: v.step, action: action})) { pending = null; drawMoves(v); }
    };
    input.value = typed;
    box.replaceChildren(form);
    if (focused) input.focus();
  }

  function tickTimer() {
    const line = $("timer");
    if (!view || !view.timer || !timerEnds) { line.hidden = true; return; }
    const left = Math.max(0, Math.ceil((timerEnds - Date.now()) / 1000));
    const who = view.timer.who;
    line.hidden = false;
    line.textContent = who === "you"
      ? `You have ${left} s to move; then a bot moves for you.`
      : `${who} ${who === "the last bidders" ? "have" : "has"} ${left} s to move; then a bot moves for them.`;
  }

  $("table").value = fromAddress;
  $("join").onsubmit = (event) => {
    event.preventDefault();
    say("");
    const key = $("key").value.trim();
    const join = key ? {op: "join", table: $("table").value, key: key} : {op: "join", table: $("table").value, name: $("name").value};
    if (ws && ws.readyState === WebSocket.OPEN) {
      send(join);
    } else {  // a slow network: the join goes as soon as the page is connected
      waitingJoin = join;
      say("Connecting to the server: you join as soon as it answers.");
    }
  };
  $("newkey-done").onclick = () => { $("newkey").hidden = true; };
  $("leave").onclick = () => {
    if (!confirm("Leave this seat on this device? You need your seat key to come back.")) return;
    localStorage.removeItem(SAVED);
    location.reload();
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && ws && ws.readyState === WebSocket.CLOSED) connect();
  });
  window.addEventListener("online", () => {  // the network is back: no need to wait
    if (ws && ws.readyState === WebSocket.CLOSED) connect();
  });
  setInterval(tickTimer, 250);
  connect();
})();
