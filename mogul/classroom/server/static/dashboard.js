// The lecturer's dashboard: one WebSocket to the hall, which sends the session's tables (each
// card already drawn as HTML by the server, with the buttons that apply) whenever one changes,
// and takes the lecturer's requests. What cannot be undone (End, Delete, a new seat key, Free
// seat) acts on a second press within CONFIRM_MS. The debrief (a session whose game has one)
// is asked for when opened, on Refresh, and when rounds ended while it is open (at most every
// DEBRIEF_MS); its figures are plotly's JSON, drawn with the plotly.js the hall serves.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const CONFIRM_MS = 8000;
  const DEBRIEF_MS = 5000;
  const FIRST_RETRY = 250, LAST_RETRY = 1000;  // ms between tries to reach the hall (a restart)
  let ws = null, retry = FIRST_RETRY, bots = {}, setups = {};
  let armed = null;  // {key: "CODE:op", until: ms}: the button pressed once, asking
  const cards = new Map();  // code -> {element, version}
  const seats = new Map();  // code -> the seat chosen in its list
  // the debrief: plotly.js's address and loading; the rounds over in the drawing of the tables
  // and in the debrief shown; when it was last asked for; an answer awaited; a later ask
  let plotlyPath = null, plotly = null, boardRounds = null, shownRounds = null;
  let asked = 0, waiting = false, later = null;

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(message)); return; }
    say("Not connected to the hall yet: wait a moment and try again.", true);
  }
  function say(html, error) {
    $("message").innerHTML = html;
    $("message").className = error ? "error" : "";
  }
  function number(id) { return Number($(id).value); }

  function setup(m) {
    $("session").value = m.session;
    const game = $("game");
    if (!game.options.length) {
      for (const [label, edition] of m.games) game.add(new Option(label, edition));
    }
    bots = m.bots;
    setups = m.setups || {};
    plotlyPath = m.plotly;
    showBots();
  }
  function showSetup() {  // the game's own setup (the auction lab's rounds, values, budget)
    const box = $("setup"), kept = readSetup();
    const fields = setups[$("game").value] || [];
    box.replaceChildren(...fields.map((field) => {
      const label = document.createElement("label");
      label.textContent = field.name[0].toUpperCase() + field.name.slice(1) + " ";
      const input = document.createElement("input");
      input.dataset.name = field.name;
      input.dataset.kind = field.kind;
      input.type = field.kind === "number" ? "number" : "text";
      if (field.kind === "number") input.min = 0;
      input.value = field.name in kept ? kept[field.name] : field.default;
      input.title = `default: ${field.default}`;
      label.append(input);
      return label;
    }));
    box.hidden = !fields.length;
  }
  function readSetup() {
    const out = {};
    for (const input of $("setup").querySelectorAll("input")) {
      out[input.dataset.name] = input.dataset.kind === "number" ? Number(input.value) : input.value.trim();
    }
    return out;
  }
  function showBots() {
    const bot = $("bot"), chosen = bot.value;
    bot.replaceChildren(...(bots[$("game").value] || []).map((name) => new Option(name, name)));
    if ([...bot.options].some((o) => o.value === chosen)) bot.value = chosen;
    showSetup();
  }

  function label(button) {
    const key = `${button.closest("[data-code]").dataset.code}:${button.dataset.op}`;
    if (armed && armed.key === key && Date.now() < armed.until) {
      button.dataset.label ??= button.textContent;
      button.textContent = `Really ${button.dataset.label.toLowerCase()}? Press again`;
      button.classList.add("armed");
    }
  }
  function show(board) {
    $("summary").innerHTML = board.summary;
    const list = $("tables"), here = new Set();
    for (const table of board.tables) {
      here.add(table.code);
      let card = cards.get(table.code);
      if (!card) {
        const element = document.createElement("div");
        element.className = "mogul-table-card";
        element.dataset.code = table.code;
        card = {element, version: -1};
        cards.set(table.code, card);
      }
      if (card.version !== table.version) {
        card.element.innerHTML = table.html;
        card.version = table.version;
        const select = card.element.querySelector("select");
        if (select && seats.has(table.code)) {
          if ([...select.options].some((o) => o.value === seats.get(table.code))) select.value = seats.get(table.code);
        }
        card.element.querySelectorAll("button[data-confirm]").forEach(label);
      }
      list.appendChild(card.element);  // in the server's order
    }
    for (const [code, card] of cards) {
      if (!here.has(code)) { card.element.remove(); cards.delete(code); }
    }
    if (!board.tables.length) list.replaceChildren();
    boardRounds = board.debrief ?? null;
    $("debrief").hidden = boardRounds === null;
    askLater();
  }

  function loadPlotly() {  // once; again after a failure
    plotly ??= new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = plotlyPath;
      script.onload = resolve;
      script.onerror = () => { plotly = null; reject(new Error("plotly.js did not load")); };
      document.head.append(script);
    });
    return plotly;
  }
  function askDebrief() {
    if (waiting) return;
    waiting = true;
    asked = Date.now();
    $("debrief-when").textContent = "Computing the debrief...";
    send({op: "debrief"});
  }
  function askLater() {  // rounds ended since the debrief shown: ask, at most every DEBRIEF_MS
    if (!$("debrief").open || boardRounds === null || boardRounds === shownRounds) return;
    if (waiting || later) return;
    const wait = asked + DEBRIEF_MS - Date.now();
    if (wait > 0) later = setTimeout(() => { later = null; askLater(); }, wait);
    else askDebrief();
  }
  async function showDebrief(m) {
    waiting = false;
    shownRounds = m.rounds;
    const drawn = await loadPlotly().then(() => true, () => false);
    const body = $("debrief-body");
    body.style.minHeight = `${body.offsetHeight}px`;  // no jump while it is drawn again
    body.querySelectorAll(".debrief-plot").forEach((plot) => { if (drawn) Plotly.purge(plot); });
    body.replaceChildren();
    const plots = [];
    for (const game of m.games) {
      const part = document.createElement("div");
      part.className = "debrief-game";
      if (m.games.length > 1) part.append(Object.assign(document.createElement("h3"), {textContent: game.title}));
      part.append(Object.assign(document.createElement("p"), {innerHTML: game.summary}));
      for (const section of game.sections) {
        const box = document.createElement("section");
        box.className = "debrief-part";
        box.append(Object.assign(document.createElement("h3"), {textContent: section.title}));
        box.append(Object.assign(document.createElement("div"), {className: "debrief-text", innerHTML: section.html}));
        if (section.figure) {
          const plot = document.createElement("div");
          plot.className = "debrief-plot";
          if (!drawn) plot.textContent = "The figure needs plotly.js from the hall, which did not load: press Refresh.";
          else plots.push([plot, JSON.parse(section.figure)]);
          box.append(plot);
        }
        part.append(box);
      }
      body.append(part);
    }
    for (const [plot, figure] of plots) {
      // the figure's own height for its box: a resize (responsive) then changes the width only
      if (figure.layout.height) plot.style.height = `${figure.layout.height}px`;
      Plotly.newPlot(plot, figure.data, figure.layout, {responsive: true, displaylogo: false});
    }
    body.style.minHeight = "";
    $("debrief-when").textContent = `As of ${new Date().toLocaleTimeString()}`;
    askLater();  // rounds may have ended meanwhile
  }
  function disarm() {
    armed = null;
    document.querySelectorAll("button.armed").forEach((b) => {
      b.textContent = b.dataset.label;
      b.classList.remove("armed");
    });
  }

  $("tables").addEventListener("change", (event) => {
    const card = event.target.closest("[data-code]");
    if (card && event.target.tagName === "SELECT") seats.set(card.dataset.code, event.target.value);
  });
  $("tables").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-op]");
    if (!button) return;
    const card = button.closest("[data-code]"), code = card.dataset.code, op = button.dataset.op;
    const key = `${code}:${op}`;
    if (button.dataset.confirm && !(armed && armed.key === key && Date.now() < armed.until)) {
      disarm();
      armed = {key, until: Date.now() + CONFIRM_MS};
      label(button);
      setTimeout(() => { if (armed && armed.key === key && Date.now() >= armed.until) disarm(); }, CONFIRM_MS);
      return;
    }
    disarm();
    const message = {op, table: code};
    const select = card.querySelector("select");
    if (select && (op === "key" || op === "free")) message.seat = Number(select.value);
    send(message);
  });
  $("debrief").addEventListener("toggle", () => {
    if (!$("debrief").open) return;
    loadPlotly().catch(() => {});  // while the hall computes
    askDebrief();
  });
  $("debrief-refresh").addEventListener("click", askDebrief);
  $("game").addEventListener("change", showBots);
  $("form").addEventListener("submit", (event) => {
    event.preventDefault();
    send({op: "create", game: $("game").value, bot: $("bot").value, count: number("count"),
          people: number("people"), bots: number("bots"), timer: number("timer"), setup: readSetup()});
  });
  $("set-timer").addEventListener("click", () => send({op: "timer", seconds: number("timer")}));
  $("export").addEventListener("click", () => send({op: "export"}));
  $("regroup").addEventListener("click", () => send({op: "regroup"}));
  $("session").addEventListener("change", () => {  // another session: its tables, and in the address
    const session = $("session").value.trim();
    history.replaceState(null, "", `?${new URLSearchParams({session})}`);
    cards.clear();
    $("tables").replaceChildren();
    $("debrief-body").replaceChildren();
    $("debrief").open = false;
    shownRounds = null;
    say("");
    ws.onclose = null;
    ws.close();
    connect();
  });

  function connect() {
    const url = new URL("dashboard/ws" + location.search, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(url);
    ws.onopen = () => { retry = FIRST_RETRY; $("conn").textContent = ""; waiting = false; };
    ws.onmessage = (event) => {
      const m = JSON.parse(event.data);
      if (m.type === "setup") setup(m);
      else if (m.type === "projector") show(m.html);  // the follower's message: the dashboard's drawing
      else if (m.type === "message") {
        say(m.html, m.error);
        if (m.error && waiting) { waiting = false; $("debrief-when").textContent = ""; }  // no debrief
      }
      else if (m.type === "debrief") showDebrief(m);
    };
    ws.onclose = () => {
      $("conn").textContent = "Connection to the hall lost: reconnecting...";
      setTimeout(connect, retry * (0.75 + Math.random() / 2));
      retry = Math.min(2 * retry, LAST_RETRY);
    };
  }
  connect();
})();
