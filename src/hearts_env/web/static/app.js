// hearts-env serve: the page. Plain JavaScript over the JSON API of hearts_env.web.app.
"use strict";

const $ = (sel) => document.querySelector(sel);
const POSITIONS = ["bottom", "left", "top", "right"]; // seat s+1 sits to the left of seat s (play goes left)

const ui = {
  mode: "play",
  info: null,
  state: { play: null, watch: null, replay: null },
  selected: new Set(), // cards chosen to pass, not yet sent
  hint: null,
  timer: null,
  autoplay: false,
  token: 0, // bumps on every new game, so late answers of an old one are dropped
  busy: 0,
  replay: { file: null, game: null, deal: 0, step: 0 },
};

// API --------------------------------------------------------------------------------------------
async function api(method, url, body) {
  ui.busy += 1;
  document.body.dataset.busy = "true";
  try {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(url, options);
    const data = await response.json().catch(() => ({ detail: response.statusText }));
    if (!response.ok) {
      const detail = Array.isArray(data.detail)
        ? data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ")
        : data.detail;
      throw new Error(detail || `HTTP ${response.status}`);
    }
    return data;
  } finally {
    ui.busy -= 1;
    if (!ui.busy) document.body.dataset.busy = "false";
  }
}

function say(text, kind = "info") {
  const box = $("#message");
  box.textContent = text || "";
  box.className = text ? kind : "";
}

async function attempt(action) {
  try {
    await action();
  } catch (error) {
    say(error.message, "error");
  }
}

// Drawing ----------------------------------------------------------------------------------------
function cardEl(card, { small = false, tag = "span" } = {}) {
  const el = document.createElement(tag);
  el.className = "card" + (card.red ? " red" : "") + (small ? " small" : "");
  el.dataset.id = card.id;
  el.dataset.name = card.name;
  el.title = card.name;
  el.innerHTML = `<span class="rank">${card.rank}</span><span class="suit">${card.suit}</span>`;
  return el;
}

function backEl() {
  const el = document.createElement("span");
  el.className = "card back small";
  return el;
}

const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const names = (cards) => cards.map((c) => c.rank + c.suit).join(" ");

function bottomSeat(state) {
  if (state.kind === "play") return state.person;
  if (state.viewer !== null && state.viewer !== undefined) return state.viewer;
  return ui.mode === "replay" ? Number($("#replay-seat").value) : 0;
}

function render(state) {
  const bottom = bottomSeat(state);
  const legal = new Set(state.legal.map((c) => c.id));
  const interactive = state.kind === "play" && state.your_turn;
  document.body.dataset.phase = state.phase;
  document.body.dataset.yourTurn = String(Boolean(state.your_turn));
  document.body.dataset.kind = state.kind;

  state.seats.forEach((seat) => {
    const box = $(`#seat-${POSITIONS[(seat.seat - bottom + 4) % 4]}`);
    box.dataset.seat = seat.seat;
    box.classList.toggle("to-act", state.current === seat.seat);
    const mine = seat.seat === bottom;
    const points = state.points ? state.points[seat.seat] : seat.points_taken;
    box.innerHTML = `<div class="name">${esc(seat.name)}` +
      `${state.dealer === seat.seat ? " · dealer" : ""}</div>` +
      `<div class="facts">tricks ${seat.tricks} · ${state.points ? "deal points" : "points taken"} ${points}` +
      `${state.moon_shooter === seat.seat ? " · ☾ shot the moon!" : ""}</div>`;
    const hand = document.createElement("div");
    hand.className = "hand" + (mine ? " mine" : "");
    hand.id = mine ? "hand" : `hand-${seat.seat}`;
    if (seat.hand) {
      const passed = new Set((seat.passed || []).map((c) => c.id));
      const passing = state.phase === "pass";
      seat.hand.forEach((card) => {
        const clickable = mine && interactive && legal.has(card.id);
        const el = cardEl(card, { small: !mine, tag: clickable ? "button" : "span" });
        if (passing && passed.has(card.id)) el.classList.add("passing");
        if (state.current === seat.seat && legal.has(card.id)) {
          el.classList.add(clickable ? "legal" : "option");
        } else if (mine && state.current === seat.seat) {
          el.classList.add("dim");
        }
        if (clickable && ui.selected.has(card.id)) el.classList.add("selected");
        if (ui.hint && mine && ui.hint.card.id === card.id && state.current === seat.seat) el.classList.add("hinted");
        if (clickable) el.addEventListener("click", () => choose(card.id));
        hand.appendChild(el);
      });
    } else {
      for (let k = 0; k < seat.hand_size; k += 1) hand.appendChild(backEl());
    }
    box.appendChild(hand);
    const extra = [];
    if (seat.passed && seat.passed.length) extra.push(`passes ${names(seat.passed)}`);
    if (seat.received && seat.received.length) extra.push(`received ${names(seat.received)}`);
    if (extra.length) box.insertAdjacentHTML("beforeend", `<div class="extra">${extra.join(" · ")}</div>`);
  });

  const trick = $("#trick");
  trick.innerHTML = "";
  const previous = !state.trick.length && state.last_trick; // the trick just taken stays until the next lead
  (previous ? state.last_trick.cards : state.trick).forEach(({ seat, card }) => {
    const el = cardEl(card);
    el.classList.add(`slot-${POSITIONS[(seat - bottom + 4) % 4]}`);
    if (previous) el.classList.add(seat === state.last_trick.winner ? "winner" : "taken");
    trick.appendChild(el);
  });
  trick.classList.toggle("previous", Boolean(previous));
  $("#center-note").textContent = centerNote(state);

  const last = $("#last-trick");
  last.innerHTML = "";
  if (state.last_trick) {
    state.last_trick.cards.forEach(({ seat, card }) => {
      const el = cardEl(card, { small: true });
      if (seat === state.last_trick.winner) el.classList.add("winner");
      last.appendChild(el);
    });
    last.insertAdjacentHTML("beforeend", `<span> → ${esc(state.seats[state.last_trick.winner].name)} ` +
      `(${state.last_trick.points} pts)</span>`);
  } else {
    last.innerHTML = '<span class="muted">none yet</span>';
  }

  renderStatus(state);
  renderScores(state);
  renderLog(state);
  renderActions(state);
  if (state.error) say(state.error, "error");
}

function centerNote(state) {
  if (state.phase === "done") {
    const moon = state.moon_shooter !== null ? ` — seat ${state.moon_shooter} shot the moon!` : "";
    return `deal over: ${state.points.join(" / ")}${moon}`;
  }
  const who = state.kind === "play" && state.your_turn ? "your turn" : `seat ${state.current} to act`;
  if (!state.trick.length && state.last_trick && state.phase === "play") {
    const taker = state.kind === "play" && state.last_trick.winner === state.person ? "you" : `seat ${state.last_trick.winner}`;
    return `${taker} took trick ${state.trick_index} (${state.last_trick.points} pts) · ${who}`;
  }
  if (state.phase === "pass") return `passing ${state.pass_direction}: ${who}`;
  return who;
}

function renderStatus(state) {
  const parts = [];
  if (state.kind === "replay") parts.push(`<span>step <b>${state.step}/${state.steps}</b></span>`);
  const deals = state.kind === "replay" ? `${state.deal_index + 1} of ${state.deals}` : `${state.deal_index + 1}`;
  parts.push(`<span>deal <b>${deals}</b></span>`);
  parts.push(`<span>pass <b>${state.pass_direction}</b></span>`);
  if (state.phase === "play") parts.push(`<span>trick <b>${state.trick_index + 1}/${state.num_tricks}</b></span>`);
  parts.push(`<span>hearts <b>${state.hearts_broken ? "broken" : "not broken"}</b></span>`);
  if (state.phase !== "done" && !state.moon_possible) parts.push("<span>moon <b>no longer possible</b></span>");
  parts.push(`<span>rules <b>${esc(state.rules)}</b></span>`);
  if (state.seed !== undefined) parts.push(`<span>seed <b>${state.seed}</b></span>`);
  $("#status").innerHTML = parts.join("");
}

function renderScores(state) {
  const rows = state.seats.map((seat) => {
    const before = state.scores[seat.seat];
    const now = state.points ? state.points[seat.seat] : seat.points_taken;
    const total = state.scores_after ? state.scores_after[seat.seat] : before + (state.points ? now : 0);
    const won = state.winners && state.winners.includes(seat.seat) ? " ★ winner" : "";
    return `<tr data-seat="${seat.seat}"><td>${esc(seat.name)}${won}</td><td>${before}</td>` +
      `<td class="deal-points">${now}</td><td>${total}</td></tr>`;
  });
  $("#scores").innerHTML = "<tr><th>seat</th><th>game</th><th>deal</th><th>total</th></tr>" + rows.join("");
}

function renderLog(state) {
  const log = $("#log");
  let lines = state.log || [];
  if (state.kind === "replay") {
    lines = [];
    const passes = 4 * state.pass_count;
    if (state.last_move) {
      const verb = state.step <= passes ? "passed" : "played";
      lines.push(`seat ${state.last_move.seat} ${verb} ${state.last_move.card.rank}${state.last_move.card.suit}`);
    }
    if (state.next_move) {
      const verb = state.step < passes ? "passes" : "plays";
      lines.push(`next: seat ${state.current} ${verb} ${state.next_move.rank}${state.next_move.suit}`);
    }
    if (state.record_points && state.phase === "done") lines.push(`recorded points: ${state.record_points.join(" / ")}`);
  }
  log.innerHTML = lines.map((line) => `<li>${esc(line)}</li>`).join("");
  log.scrollTop = log.scrollHeight;
}

function renderActions(state) {
  const passButton = $("#pass-button");
  const me = state.kind === "play" ? state.seats[state.person] : null;
  const passing = state.kind === "play" && state.your_turn && state.phase === "pass";
  passButton.classList.toggle("hidden", !passing);
  if (passing) {
    const need = state.pass_count - me.passed.length;
    passButton.textContent = `Pass ${ui.selected.size}/${need} to the ${state.pass_direction}`;
    passButton.disabled = ui.selected.size !== need;
  }
  const next = $("#next-deal");
  next.classList.toggle("hidden", state.kind === "replay" || state.phase !== "done" || state.game_over);
}

function renderHint(hint) {
  const box = $("#hint");
  if (!hint) {
    box.innerHTML = '<p class="muted">Ask a searcher for advice.</p>';
    return;
  }
  let html = `<p><b>${esc(hint.spec)}</b> would play <b id="hint-card">${hint.card.rank}${hint.card.suit}</b>` +
    (hint.played ? ` (the record has ${hint.played.rank}${hint.played.suit})` : "") + "</p>";
  if (hint.estimates) {
    html += "<table><tr><th>card</th><th>mean points</th></tr>" + hint.estimates.map((e, k) =>
      `<tr class="${k === 0 ? "best" : ""}"><td>${e.card.rank}${e.card.suit}</td>` +
      `<td>${e.mean_points.toFixed(2)}</td></tr>`).join("") + "</table>";
  }
  html += `<p class="muted">${esc(hint.note)}</p>`;
  box.innerHTML = html;
}

function show(state) {
  ui.state[state.kind === "replay" ? "replay" : state.kind] = state;
  if ((state.kind === "replay" ? "replay" : state.kind) === ui.mode) render(state);
}

// Play -------------------------------------------------------------------------------------------
function seatInputs(container, count, prefix, values) {
  container.innerHTML = "";
  for (let k = 0; k < count; k += 1) {
    container.insertAdjacentHTML("beforeend", `<label><span class="seat-label"></span>` +
      `<input id="${prefix}-${k}" list="agents" value="${values[k]}"></label>`);
  }
}

function labelOpponents() {
  const me = Number($("#play-seat").value);
  const others = [0, 1, 2, 3].filter((s) => s !== me);
  document.querySelectorAll("#play-opponents .seat-label").forEach((el, k) => {
    el.textContent = `Seat ${others[k]} agent`;
  });
}

function seedOf(input) {
  const text = $(input).value.trim();
  return text === "" ? null : Number(text);
}

async function newPlay() {
  stopTimer();
  ui.token += 1;
  ui.selected.clear();
  ui.hint = null;
  renderHint(null);
  const me = Number($("#play-seat").value);
  const specs = [0, 1, 2].map((k) => $(`#play-opp-${k}`).value.trim());
  const seats = [];
  for (let s = 0, k = 0; s < 4; s += 1) seats.push(s === me ? "you" : specs[k++]);
  const state = await api("POST", "/api/games", { seats, rules: $("#play-rules").value.trim(), seed: seedOf("#play-seed") });
  say(`new game: you are seat ${me}; seed ${state.seed}`);
  show(state);
  schedulePlay();
}

function schedulePlay() {
  const state = ui.state.play;
  stopTimer();
  if (!state || state.your_turn || state.phase === "done" || state.error) return;
  const token = ui.token;
  ui.timer = setTimeout(() => attempt(async () => {
    if (token !== ui.token) return;
    const next = await api("POST", `/api/games/${state.id}/step`);
    if (token !== ui.token) return;
    show(next);
    schedulePlay();
  }), Number($("#play-speed").value));
}

function choose(card) {
  const state = ui.state.play;
  if (!state || !state.your_turn) return;
  if (state.phase === "pass") {
    const need = state.pass_count - state.seats[state.person].passed.length;
    if (ui.selected.has(card)) ui.selected.delete(card);
    else if (ui.selected.size < need) ui.selected.add(card);
    render(state);
    return;
  }
  attempt(async () => {
    ui.hint = null;
    renderHint(null);
    say("");
    show(await api("POST", `/api/games/${state.id}/move`, { card }));
    schedulePlay();
  });
}

async function sendPasses() {
  const state = ui.state.play;
  const cards = [...ui.selected];
  ui.selected.clear();
  ui.hint = null;
  renderHint(null);
  let latest = state;
  for (const card of cards) latest = await api("POST", `/api/games/${state.id}/move`, { card });
  say(`you pass ${cards.length} card(s) ${state.pass_direction}`);
  show(latest);
  schedulePlay();
}

async function askHint() {
  const state = ui.state.play;
  if (!state) throw new Error("start a game first");
  if (!state.your_turn) throw new Error("hints are for your turn");
  say(`asking ${$("#play-hint-spec").value}...`);
  ui.hint = await api("POST", `/api/games/${state.id}/hint`, { spec: $("#play-hint-spec").value.trim() });
  renderHint(ui.hint);
  say("");
  render(state);
}

async function nextDeal() {
  const kind = ui.mode;
  const state = ui.state[kind];
  const view = kind === "watch" ? `?view=${$("#watch-view").value}` : "";
  show(await api("POST", `/api/games/${state.id}/next${view}`));
  if (kind === "play") schedulePlay();
  else if (ui.autoplay) scheduleWatch();
}

// Watch ------------------------------------------------------------------------------------------
async function newWatch() {
  stopTimer();
  ui.token += 1;
  ui.hint = null;
  renderHint(null);
  const seats = [0, 1, 2, 3].map((k) => $(`#watch-agent-${k}`).value.trim());
  const state = await api("POST", "/api/games", { seats, rules: $("#watch-rules").value.trim(), seed: seedOf("#watch-seed") });
  if ($("#watch-view").value !== "-1") show(await api("GET", `/api/games/${state.id}?view=${$("#watch-view").value}`));
  else show(state);
  say(`watching; seed ${state.seed}`);
  if (ui.autoplay) scheduleWatch();
}

async function watchStep() {
  const state = ui.state.watch;
  if (!state) throw new Error("start a game first");
  if (state.phase === "done") {
    setAuto(false);
    return;
  }
  show(await api("POST", `/api/games/${state.id}/step?view=${$("#watch-view").value}`));
}

function scheduleWatch() {
  stopTimer();
  const token = ui.token;
  ui.timer = setTimeout(() => attempt(async () => {
    if (token !== ui.token || !ui.autoplay || ui.mode !== "watch") return;
    await watchStep();
    const state = ui.state.watch;
    if (state && (state.phase === "done" || state.error)) setAuto(false);
    else if (ui.autoplay) scheduleWatch();
  }).catch(() => setAuto(false)), Number($("#watch-speed").value));
}

function setAuto(on) {
  ui.autoplay = on;
  $("#watch-auto").textContent = on ? "Pause" : "Auto-play";
  if (on) scheduleWatch();
  else stopTimer();
}

function stopTimer() {
  if (ui.timer) clearTimeout(ui.timer);
  ui.timer = null;
}

// Replay -----------------------------------------------------------------------------------------
function fillSelect(select, options) {
  select.innerHTML = options.map(([value, text]) => `<option value="${value}">${esc(text)}</option>`).join("");
}

async function loadRecordFiles() {
  const files = ui.info.records;
  fillSelect($("#replay-file"), files.map((f) => [f.index, `${f.name} (${f.error ? "unreadable" : f.games + " games"})`]));
  if (!files.length) {
    say("no record files: start the server with --records FILE.jsonl (written by hearts-env arena --out)");
    return;
  }
  await loadGames();
}

async function loadGames() {
  const file = Number($("#replay-file").value);
  const games = await api("GET", `/api/records/${file}`);
  fillSelect($("#replay-game"), games.map((g) => [g.index,
    `#${g.index}: deal ${g.deal}, seating ${g.seating_index} — ${g.seating.join(", ")}`]));
  ui.replay.file = file;
  ui.replay.games = games;
  await loadDeals();
}

async function loadDeals() {
  const game = Number($("#replay-game").value);
  const count = ui.replay.games[game].deals;
  fillSelect($("#replay-deal"), Array.from({ length: count }, (_, k) => [k, `deal ${k + 1}`]));
  ui.replay.game = game;
  await replayAt(0);
}

async function replayAt(step) {
  const r = ui.replay;
  if (r.file === null || r.game === null) throw new Error("choose a record first");
  r.deal = Number($("#replay-deal").value);
  const view = $("#replay-god").checked ? -1 : Number($("#replay-seat").value);
  const state = await api("GET", `/api/records/${r.file}/games/${r.game}/deals/${r.deal}?step=${step}&view=${view}`);
  r.step = state.step;
  ui.hint = null;
  renderHint(null);
  $("#replay-step").textContent = `move ${state.step} of ${state.steps}`;
  show(state);
}

function replayMove(delta) {
  const state = ui.state.replay;
  if (!state) return;
  const step = delta === "first" ? 0 : delta === "last" ? state.steps : state.step + delta;
  if (step < 0 || step > state.steps) return;
  attempt(() => replayAt(step));
}

async function replayHint() {
  const r = ui.replay;
  const state = ui.state.replay;
  if (!state) throw new Error("choose a record first");
  if (state.phase === "done") throw new Error("the deal is over at this step");
  say(`asking ${$("#replay-hint-spec").value} for seat ${state.current}...`);
  const spec = encodeURIComponent($("#replay-hint-spec").value.trim());
  ui.hint = await api("GET", `/api/records/${r.file}/games/${r.game}/deals/${r.deal}/hint?step=${r.step}&spec=${spec}`);
  renderHint(ui.hint);
  say("");
}

// Wiring -----------------------------------------------------------------------------------------
function switchTab(mode) {
  ui.mode = mode;
  if (mode !== "watch") setAuto(false);
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === mode));
  ["play", "watch", "replay"].forEach((m) => $(`#panel-${m}`).classList.toggle("hidden", m !== mode));
  say("");
  ui.hint = null;
  renderHint(null);
  const state = ui.state[mode];
  if (state) render(state);
  else clearBoard();
  if (mode === "replay" && !state) attempt(loadRecordFiles);
  if (mode === "play") schedulePlay();
}

function clearBoard() {
  POSITIONS.forEach((p) => { $(`#seat-${p}`).innerHTML = ""; });
  $("#trick").innerHTML = "";
  $("#center-note").textContent = "";
  $("#status").innerHTML = "";
  $("#scores").innerHTML = "";
  $("#log").innerHTML = "";
  $("#last-trick").innerHTML = "";
  $("#pass-button").classList.add("hidden");
  $("#next-deal").classList.add("hidden");
  document.body.dataset.phase = "";
}

async function init() {
  ui.info = await api("GET", "/api/info");
  $("#version").textContent = `hearts-env ${ui.info.version}`;
  $("#agents").innerHTML = ui.info.agents.map((a) => `<option value="${esc(a)}">`).join("");
  $("#presets").innerHTML = ui.info.presets.flatMap((p) => [`<option value="${esc(p)}">`,
    `<option value="${esc(p)}(game=deal)">`]).join("");
  seatInputs($("#play-opponents"), 3, "play-opp", ["apprentice", "apprentice", "apprentice"]);
  labelOpponents();
  seatInputs($("#watch-agents"), 4, "watch-agent", ["heuristic", "greedy", "random", "heuristic"]);
  document.querySelectorAll("#watch-agents .seat-label").forEach((el, k) => { el.textContent = `Seat ${k} agent`; });

  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => switchTab(b.dataset.tab)));
  $("#play-seat").addEventListener("change", labelOpponents);
  $("#play-new").addEventListener("click", () => attempt(newPlay));
  $("#play-hint").addEventListener("click", () => attempt(askHint));
  $("#pass-button").addEventListener("click", () => attempt(sendPasses));
  $("#next-deal").addEventListener("click", () => attempt(nextDeal));
  $("#watch-new").addEventListener("click", () => attempt(newWatch));
  $("#watch-step").addEventListener("click", () => attempt(watchStep));
  $("#watch-auto").addEventListener("click", () => setAuto(!ui.autoplay));
  const speed = () => { $("#watch-speed-label").textContent = `${$("#watch-speed").value} ms per card`; };
  $("#watch-speed").addEventListener("input", speed);
  speed();
  $("#watch-view").addEventListener("change", () => attempt(async () => {
    const state = ui.state.watch;
    if (state) show(await api("GET", `/api/games/${state.id}?view=${$("#watch-view").value}`));
  }));
  $("#replay-file").addEventListener("change", () => attempt(loadGames));
  $("#replay-game").addEventListener("change", () => attempt(loadDeals));
  $("#replay-deal").addEventListener("change", () => attempt(() => replayAt(0)));
  $("#replay-first").addEventListener("click", () => replayMove("first"));
  $("#replay-back").addEventListener("click", () => replayMove(-1));
  $("#replay-forward").addEventListener("click", () => replayMove(1));
  $("#replay-last").addEventListener("click", () => replayMove("last"));
  $("#replay-god").addEventListener("change", () => attempt(() => replayAt(ui.replay.step)));
  $("#replay-seat").addEventListener("change", () => attempt(() => replayAt(ui.replay.step)));
  $("#replay-hint").addEventListener("click", () => attempt(replayHint));
  document.addEventListener("keydown", (event) => {
    if (ui.mode !== "replay" || event.target.tagName === "INPUT") return;
    if (event.key === "ArrowLeft") replayMove(-1);
    if (event.key === "ArrowRight") replayMove(1);
  });
  document.body.dataset.ready = "true";
}

attempt(init);
