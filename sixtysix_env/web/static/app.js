// Sixty-Six in the browser: draws the views the server sends (it never sees a card the seat may
// not know), sends the person's moves, shows the opponent's moves one at a time, and replays
// saved game records. Plain JavaScript, no build step.
"use strict";

const SUITS = "♣♠♥♦";
const RANKS = ["9", "J", "Q", "K", "10", "A"];
// the pause before each opponent move; ?pause=MS in the address changes it (the browser test uses 150)
const PAUSE_MS = Number(new URLSearchParams(location.search).get("pause") ?? 900);

const state = {
  cards: null, // card id -> SVG text, plus "back"
  config: null,
  mode: "play",
  gameId: null,
  view: null,
  busy: false,
  resultHidden: false,
  replay: null, // {deals: [{frames: [{text, view}]}], players, ...}
  replayDeal: 0,
  replayStep: 0,
};

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const cardName = (c) => RANKS[c % 6] + SUITS[Math.floor(c / 6)];
const suitClass = (s) => (s === 2 || s === 3 ? "suit-red" : "suit-black");

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

function suitSpan(s) {
  return el("span", { class: suitClass(s), text: SUITS[s] });
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  // the server takes POST bodies as application/json only (cross-site pages cannot send that)
  if (body !== undefined || method === "POST") {
    options.headers["Content-Type"] = "application/json";
    options.body = body === undefined ? "{}" : typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data;
  try {
    data = await response.json();
  } catch (e) {
    data = { error: `the server answered ${response.status} without JSON` };
  }
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function showError(error) {
  const box = $("error");
  box.textContent = String(error.message || error);
  box.hidden = false;
}

function clearError() {
  $("error").hidden = true;
}

function setBusy(busy) {
  state.busy = busy;
  document.body.dataset.busy = busy ? "1" : "0";
}

// ------------------------------------------------------------------------------------ drawing
function cardEl(card, { small = false, extra = "" } = {}) {
  const node = el("div", { class: `card${small ? " small" : ""}${extra ? " " + extra : ""}` });
  node.innerHTML = card === null ? state.cards.back : state.cards[String(card)];
  if (card !== null) {
    node.dataset.card = String(card);
    node.title = cardName(card);
  }
  return node;
}

function seatInfo(view, p, isTurn) {
  const pl = view.players[p];
  const box = [];
  box.push(el("span", { class: "name", text: pl.name }));
  if (pl.dealer) box.push(el("span", { class: "badge dealer", text: "dealer" }));
  const team = view.n_players === 4;
  if (team && p === (view.bottom + 2) % 4) box.push(el("span", { class: "badge dealer", text: "partner" }));
  const pending = pl.pending ? ` (+${pl.pending} pending)` : "";
  box.push(el("span", { class: "badge", text: `${team ? "team " : ""}${pl.points} points${pending}` }));
  box.push(el("span", { class: "badge", text: `${pl.tricks} trick${pl.tricks === 1 ? "" : "s"}` }));
  if (pl.marriages.length) {
    const m = el("span", { class: "badge" }, "marriages ");
    for (const s of pl.marriages) m.append(suitSpan(s));
    box.push(m);
  }
  if (pl.hand === null && pl.known.length) {
    const all = pl.known.length === pl.hand_size;
    box.push(el("span", { class: "badge", text: all ? "whole hand known" : `${pl.known.length} known` }));
  }
  if (isTurn) box.push(el("span", { class: "badge turn", text: "to play" }));
  return box;
}

// where each seat sits, seen from the bottom seat: clockwise, the next player on the left
function seatPlaces(view) {
  const n = view.n_players;
  const at = (k) => (view.bottom + k) % n;
  if (n === 2) return { top: at(1) };
  if (n === 3) return { left: at(1), right: at(2) };
  return { left: at(1), top: at(2), right: at(3) };
}

function placeOf(view, p) {
  if (p === view.bottom) return "bottom";
  const places = seatPlaces(view);
  return Object.keys(places).find((k) => places[k] === p);
}

function drawOtherSeat(view, p, where) {
  const pl = view.players[p];
  const hand = $(`hand-${where}`);
  hand.replaceChildren();
  if (pl.hand) {
    for (const c of pl.hand) hand.append(cardEl(c));
  } else {
    for (const c of pl.known) hand.append(cardEl(c, { extra: "known" }));
    for (let i = pl.known.length; i < pl.hand_size; i++) hand.append(cardEl(null));
  }
  $(`info-${where}`).replaceChildren(...seatInfo(view, p, view.turn === p));
}

function drawHands(view, locked) {
  const bottom = view.bottom;
  const places = seatPlaces(view);
  for (const where of ["top", "left", "right"]) {
    $(`seat-${where}`).hidden = !(where in places);
    if (where in places) drawOtherSeat(view, places[where], where);
  }
  const legal = new Map();
  const myTurn = !locked && view.you !== null && view.turn === view.you;
  if (myTurn) for (const a of view.legal) if (a.kind === "card") legal.set(a.card, a.action);
  const hand = $("hand-bottom");
  hand.replaceChildren();
  for (const c of view.players[bottom].hand || []) {
    let extra = "";
    if (myTurn && legal.size) extra = legal.has(c) ? "playable" : "dimmed"; // no card to play: a button decides
    const node = cardEl(c, { extra });
    if (legal.has(c)) {
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", `play ${cardName(c)}`);
      node.addEventListener("click", () => play(legal.get(c)));
      node.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") play(legal.get(c));
      });
    }
    hand.append(node);
  }
  $("info-bottom").replaceChildren(...seatInfo(view, bottom, view.turn === bottom));
}

function drawStock(view) {
  $("stock-area").hidden = view.stock === null;
  if (view.stock === null) return;
  const pile = $("stock-pile");
  pile.replaceChildren();
  const stock = view.stock;
  const trump = view.trump;
  const caption = [];
  if (stock.size > 0) {
    const under = cardEl(stock.face_up ? stock.bottom : null, { extra: "trump-card" });
    pile.append(under);
    const stack = el("div", { class: "stack" });
    const layers = Math.min(stock.size - 1, 6);
    for (let i = 0; i < layers; i++) {
      const back = cardEl(null);
      back.style.left = `${i * 2}px`;
      back.style.top = `${-i * 2}px`;
      stack.append(back);
    }
    pile.append(stack);
    caption.push(`Stock: ${stock.size} card${stock.size === 1 ? "" : "s"}`);
    if (stock.closed_by !== null) caption.push(` · closed by ${view.names[stock.closed_by]}`);
  } else {
    const text = stock.closed_by !== null ? "" : "Stock used up";
    pile.append(el("div", { class: "empty", text: text || "Stock empty" }));
  }
  const cap = $("stock-caption");
  cap.replaceChildren(caption.join(""), el("br"), "Trump ", suitSpan(trump.suit), ` (${cardName(trump.card)})`);
}

function trickSlots(cards, view, winner) {
  return cards.map((entry, i) => {
    const where = view.n_players === 2 ? (i === 0 ? "lead" : "follow") : `at-${placeOf(view, entry.player)}`;
    const slot = el("div", { class: `slot ${where}${entry.player === winner ? " winner" : ""}` });
    slot.append(cardEl(entry.card), el("span", { text: view.names[entry.player] }));
    return slot;
  });
}

function drawTable(view) {
  const trick = $("trick");
  const caption = $("trick-caption");
  const last = view.last_trick;
  const showLast = view.table.length === 0 && last !== null;
  trick.classList.toggle("done", showLast);
  trick.classList.toggle("ring", view.n_players > 2);
  document.body.classList.toggle("table-game", view.n_players > 2);
  if (view.table.length) {
    trick.replaceChildren(...trickSlots(view.table, view, -1));
    const leader = view.names[view.table[0].player];
    caption.textContent = `${leader} led`;
  } else if (showLast) {
    trick.replaceChildren(...trickSlots(last.cards, view, last.winner));
    caption.textContent = `${view.names[last.winner]} took the trick (+${last.points})`;
  } else {
    trick.replaceChildren();
    caption.textContent = view.outcome ? "" : "No cards on the table yet";
  }
  // the latest trick not on the table: beside it with two players, in the side panel with more
  const home = view.n_players > 2 ? $("side-last") : $("east");
  if ($("last-area").parentElement !== home) home.prepend($("last-area"));
  $("side-last").hidden = view.n_players === 2;
  const earlier = showLast ? view.tricks[view.tricks.length - 2] : last;
  const mini = $("last-trick");
  if (earlier) {
    mini.replaceChildren(...earlier.cards.map((entry) => cardEl(entry.card, { small: true })));
    $("last-caption").textContent = `won by ${view.names[earlier.winner]} (+${earlier.points})`;
  } else {
    mini.replaceChildren();
    $("last-caption").textContent = showLast ? "" : "none yet";
  }
  $("last-title").textContent = showLast ? (earlier ? "Trick before" : "") : "Last trick";
}

function statusText(view, locked) {
  if (view.outcome) return view.outcome.text;
  if (view.you === null) return `${view.names[view.turn]} to ${view.decision.replace("_", " ")}`;
  const mover = view.turn !== null ? view.names[view.turn] : "";
  if (view.turn !== view.you || locked) return `${mover} is thinking…`;
  const leader = view.table.length ? view.names[view.table[0].player] : "";
  switch (view.decision) {
    case "lead":
      if (view.declared !== null) return "Marriage declared: lead its king or queen";
      return "Your lead: click a card" + (view.legal.some((a) => a.kind === "button") ? " or use a button" : "");
    case "follow":
      return `Your turn: play a card to ${leader}'s lead`;
    case "draw":
      return "You took the trick: draw, or close the stock before drawing";
    case "closing_exchange":
      return `${view.names[view.stock.closed_by]} closed the stock: exchange your nine for the trump card, or keep it`;
    case "claim":
      return "Go out now (claim 66), or play on";
    case "trump":
      return "You have seen your first 3 cards: name trump, or let the turned card decide";
    case "partner_marriage":
      return "Your partner leads: show a marriage of yours, or pass";
    default:
      return "Your turn";
  }
}

function drawActions(view, locked) {
  const box = $("actions");
  box.replaceChildren();
  if (view.outcome && view.you !== null && !locked && state.mode === "play" && state.resultHidden) {
    if (!view.match_over) {
      const next = el("button", { type: "button", id: "next-deal-bar", text: "Next deal" });
      next.addEventListener("click", nextDeal);
      box.append(next);
    }
    const again = el("button", { type: "button", text: "Show the result" });
    again.addEventListener("click", () => {
      state.resultHidden = false;
      render(view);
    });
    box.append(again);
    return;
  }
  if (locked || view.you === null || view.turn !== view.you) return;
  for (const a of view.legal) {
    if (a.kind !== "button") continue;
    const b = el("button", { type: "button", "data-action": String(a.action), text: a.label });
    b.addEventListener("click", () => play(a.action));
    box.append(b);
  }
}

function drawScoreboard(view) {
  const rows = [["", "Match", "Points", "Tricks"]];
  view.sides.forEach((side, i) => {
    const pending = side.pending ? ` (+${side.pending})` : "";
    rows.push([side.name, view.scores[i], `${side.points}${pending}`, side.tricks]);
  });
  const table = el("table");
  rows.forEach((r, i) => {
    const tr = el("tr");
    r.forEach((cell, j) => tr.append(el(i === 0 || j === 0 ? "th" : "td", { text: String(cell), class: j === 1 && i > 0 ? "big" : "" })));
    table.append(tr);
  });
  const trumpLine = el("div", { class: "trump-line" }, "Trump ");
  if (view.trump.suit === null) trumpLine.append("not named yet");
  else trumpLine.append(suitSpan(view.trump.suit), view.trump.text ? ` (${view.trump.text})` : " (named)");
  trumpLine.append(` · ${view.rules} rules`);
  const deal = view.deal_number ? `deal ${view.deal_number} · ` : "";
  const goal = view.match_target ? `match to ${view.match_target} game points` : `match of ${view.match_deals} deals (stakes)`;
  const footer = el("div", { class: "muted", text: deal + goal });
  $("scoreboard").replaceChildren(el("h2", { text: "Score" }), trumpLine, table, footer);
}

function drawLog(lines, current = -1, mine = null) {
  const log = $("log");
  log.replaceChildren();
  lines.forEach((line, i) => {
    let cls = "";
    if (mine && line.startsWith(mine + ":")) cls = "mine";
    if (/^Both draw/.test(line)) cls = "minor";
    if (i === lines.length - 1 && /game point|stake|nobody scores/.test(line) && current < 0) cls = "result";
    if (i === current) cls += " current";
    log.append(el("li", { class: cls.trim(), text: line }));
  });
  log.scrollTop = log.scrollHeight;
}

function drawResult(view) {
  const box = $("result");
  const show = state.mode === "play" && view.outcome && !state.resultHidden;
  box.hidden = !show;
  document.body.dataset.phase = view.outcome ? "over" : "playing";
  if (!show) return;
  const you = view.you;
  const mine = view.players[you].side;
  const w = view.outcome.winner;
  const us = view.n_players === 4 ? "Your team wins" : "You win";
  const wins = (name) => `${name} ${name.includes(" & ") || name.includes(" and ") ? "win" : "wins"}`;
  let title = w < 0 ? "Drawn deal" : w === mine ? `${us} the deal!` : `${wins(view.sides[w].name)} the deal`;
  if (view.match_over) {
    const winners = view.match_winners.map((s) => view.sides[s].name).join(" and ");
    title = view.match_winners.includes(mine) ? `${us} the match!` : `${wins(winners)} the match`;
  }
  $("result-title").textContent = title;
  $("result-text").textContent = view.outcome.text;
  const score = view.sides.map((side, i) => `${side.name} ${view.scores[i]}`).join(" · ");
  const goal = view.match_target ? `first to ${view.match_target}` : `${view.match_deals} deals`;
  $("result-score").textContent = `Match: ${score} (${goal})`;
  $("result-record").textContent = view.record ? `Saved as ${view.record}` : view.record_error || "";
  $("next-deal").hidden = view.match_over;
}

function render(view, { locked = false } = {}) {
  drawHands(view, locked);
  drawStock(view);
  drawTable(view);
  drawScoreboard(view);
  drawActions(view, locked);
  const resultShown = state.mode === "play" && view.outcome && !state.resultHidden;
  $("status").textContent = resultShown ? "" : statusText(view, locked);
  if (state.mode === "play") drawLog(view.log, -1, "You");
  drawResult(view);
}

// ------------------------------------------------------------------------------------ playing
async function showSteps(steps, finalView) {
  for (const step of steps) {
    if (step.by !== 0) {
      $("status").textContent = `${finalView.names[step.by]} is thinking…`;
      await sleep(PAUSE_MS);
    }
    state.view = step.view;
    if (state.mode === "play") render(step.view, { locked: true });
  }
  state.view = finalView;
  if (state.mode === "play") render(finalView);
}

async function run(call) {
  if (state.busy) return;
  setBusy(true);
  clearError();
  try {
    await call();
  } catch (e) {
    showError(e);
    if (state.view && state.mode === "play") render(state.view); // a failed move was taken back
  } finally {
    setBusy(false);
  }
}

function newMatch() {
  return run(async () => {
    state.resultHidden = false;
    const body = { rules: $("rules").value, opponent: $("opponent").value };
    const data = await api("POST", "/api/games", body);
    state.gameId = data.id;
    state.view = data.view;
    render(data.view, { locked: data.steps.length > 0 });
    await showSteps(data.steps, data.view);
  });
}

function play(action) {
  return run(async () => {
    render(state.view, { locked: true });
    const data = await api("POST", `/api/games/${state.gameId}/actions`, { action });
    await showSteps(data.steps, data.view);
  });
}

function nextDeal() {
  return run(async () => {
    state.resultHidden = false;
    const data = await api("POST", `/api/games/${state.gameId}/next`);
    state.view = data.view;
    render(data.view, { locked: data.steps.length > 0 });
    await showSteps(data.steps, data.view);
  });
}

// ------------------------------------------------------------------------------------ replay
function renderReplay() {
  const r = state.replay;
  const controls = ["replay-first", "replay-prev", "replay-next", "replay-last"];
  $("board").hidden = !r; // no record chosen yet: no table, not the live game's
  if (!r) {
    controls.forEach((id) => ($(id).disabled = true));
    return;
  }
  const frames = r.deals[state.replayDeal].frames;
  const k = state.replayStep;
  const frame = frames[k];
  render(frame.view);
  $("status").textContent = frame.view.outcome ? frame.view.outcome.text : frame.text;
  $("replay-step").textContent = `step ${k} of ${frames.length - 1}`;
  $("replay-first").disabled = $("replay-prev").disabled = k === 0;
  $("replay-last").disabled = $("replay-next").disabled = k === frames.length - 1;
  const lines = frames.slice(1, k + 1).map((f) => f.text);
  if (frame.view.outcome) lines.push(frame.view.outcome.text);
  drawLog(lines, frame.view.outcome ? -1 : lines.length - 1);
  $("log-title").textContent = `Replay: deal ${state.replayDeal + 1} of ${r.deals.length}`;
}

function loadReplay(data) {
  state.replay = data;
  state.replayDeal = 0;
  state.replayStep = 0;
  const select = $("replay-deal");
  select.replaceChildren(
    ...data.deals.map((d, i) => {
      const result = d.outcome ? (d.outcome.winner < 0 ? "drawn" : `${data.players[d.outcome.winner]} +${d.outcome.game_points}`) : "unfinished";
      return el("option", { value: String(i), text: `${i + 1} (${result})` });
    }),
  );
  renderReplay();
}

function stepReplay(delta, absolute = null) {
  if (!state.replay || state.mode !== "replay") return;
  const n = state.replay.deals[state.replayDeal].frames.length;
  const k = absolute !== null ? absolute : state.replayStep + delta;
  state.replayStep = Math.max(0, Math.min(n - 1, k));
  renderReplay();
}

async function refreshRecordList() {
  try {
    const data = await api("GET", "/api/records");
    const select = $("record-list");
    const first = el("option", { value: "", text: data.records.length ? "choose a file…" : `none in ${data.folder || "(no folder)"}` });
    select.replaceChildren(first, ...data.records.map((r) => el("option", { value: r.name, text: r.name })));
  } catch (e) {
    showError(e);
  }
}

function setMode(mode) {
  state.mode = mode;
  $("mode-play").classList.toggle("active", mode === "play");
  $("mode-replay").classList.toggle("active", mode === "replay");
  $("replay-bar").hidden = mode !== "replay";
  $("setup").hidden = mode !== "play";
  document.body.dataset.mode = mode;
  clearError();
  if (mode === "replay") {
    refreshRecordList();
    if (state.replay) renderReplay();
    else {
      $("status").textContent = "Choose a saved game above, or open a record file.";
      $("log-title").textContent = "Replay";
      $("log").replaceChildren();
      $("result").hidden = true;
      renderReplay();
    }
  } else {
    $("board").hidden = false;
    $("log-title").textContent = "This deal";
    if (state.view) render(state.view);
  }
}

// ------------------------------------------------------------------------------------ start
// the opponents on offer follow the game: the table games have their own agents
function fillOpponents() {
  const game = state.config.rules.find((r) => r.name === $("rules").value).game;
  const names = game === "two" ? state.config.opponents : state.config.table_opponents;
  const select = $("opponent");
  const keep = select.value;
  select.replaceChildren(...names.map((o) => el("option", { value: o, text: o })));
  if (names.includes(keep)) select.value = keep;
  else if (game !== "two" && names.includes("heuristic")) select.value = "heuristic";
}

async function start() {
  setBusy(true);
  try {
    [state.config, state.cards] = await Promise.all([api("GET", "/api/config"), api("GET", "/api/cards")]);
  } catch (e) {
    showError(e);
    setBusy(false);
    return;
  }
  const rules = $("rules");
  rules.replaceChildren(...state.config.rules.map((r) => el("option", { value: r.name, text: r.title })));
  rules.value = state.config.default_rules;
  fillOpponents();
  const opponent = $("opponent");
  if ([...opponent.options].some((o) => o.value === state.config.default_opponent)) {
    opponent.value = state.config.default_opponent;
  }
  rules.addEventListener("change", fillOpponents);

  $("new-match").addEventListener("click", newMatch);
  $("result-new-match").addEventListener("click", newMatch);
  $("next-deal").addEventListener("click", nextDeal);
  $("result-hide").addEventListener("click", () => {
    state.resultHidden = true;
    render(state.view);
  });
  $("mode-play").addEventListener("click", () => setMode("play"));
  $("mode-replay").addEventListener("click", () => setMode("replay"));
  $("replay-first").addEventListener("click", () => stepReplay(0, 0));
  $("replay-prev").addEventListener("click", () => stepReplay(-1));
  $("replay-next").addEventListener("click", () => stepReplay(1));
  $("replay-last").addEventListener("click", () => stepReplay(0, Infinity));
  $("replay-deal").addEventListener("change", (e) => {
    state.replayDeal = Number(e.target.value);
    state.replayStep = 0;
    renderReplay();
  });
  $("record-list").addEventListener("change", async (e) => {
    if (!e.target.value) return;
    clearError();
    try {
      loadReplay(await api("GET", `/api/records/${encodeURIComponent(e.target.value)}`));
    } catch (err) {
      showError(err);
    }
  });
  $("record-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    clearError();
    try {
      loadReplay(await api("POST", "/api/replay", await file.text()));
    } catch (err) {
      showError(new Error(`${file.name}: ${err.message}`));
    }
    e.target.value = "";
  });
  document.addEventListener("keydown", (e) => {
    if (state.mode !== "replay" || e.target.tagName === "SELECT") return;
    const moves = { ArrowLeft: [-1, null], ArrowRight: [1, null], Home: [0, 0], End: [0, Infinity] };
    if (e.key in moves) {
      e.preventDefault();
      stepReplay(...moves[e.key]);
    }
  });
  setBusy(false);
  await newMatch();
}

start();
