// Sling's page.  It draws the state the server sends and sends back only actions the server
// listed as legal; every rule, die and agent runs on the server (play/web).  Plain JavaScript, no
// build step, nothing fetched from elsewhere.  This file: requests, opening and leaving games (the
// game's id is in the address, so a reload resumes it), the new-game form and the wiring;
// panel.js draws the side panel, boards.js the three boards.
'use strict';

const $ = (id) => document.getElementById(id);
let info = null;        // /api/info
let game = null;        // the current state
let gameId = null;
let pollTimer = null;
let pendingPoint = null;  // the duel: a snapped destination awaiting confirmation
let tasks = 0;  // run()'s tasks in flight (a person's requests): the page is busy until they end
window.slingBusy = false;  // true while a request is in flight or an agent is thinking (tests)

// ---- requests ---------------------------------------------------------------------------------

async function api(method, path, body) {
  const options = { method: method, headers: {} };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  let json = null;
  try { json = JSON.parse(text); } catch (e) { json = { error: text || response.statusText }; }
  if (!response.ok) {
    const error = new Error(json.error || ('HTTP ' + response.status));
    error.status = response.status;
    throw error;
  }
  return json;
}

// Every error reaches the player as Sling's one line ("sling: ..."), at the top of the page
// whatever panel is shown; the form below keeps what was typed.
function showError(error) {
  const box = $('error');
  const message = error ? String(error.message || error).replace(/\s+/g, ' ').trim() : '';
  box.textContent = message ? (message.startsWith('sling: ') ? message : 'sling: ' + message) : '';
  box.hidden = !message;
}

async function run(task) {
  ++tasks;
  window.slingBusy = true;
  showError(null);
  try {
    await task();
  } catch (e) {
    showError(e);
  } finally {
    --tasks;
    window.slingBusy = tasks > 0 || agentBusy();
  }
}

// An agent is to move or thinking, or a hint is being computed: the page waits (and tests too).
function agentBusy() {
  return !!game && game.mode === 'play' && game.ply === game.plies &&
         (game.thinking || game.hint_running || (!game.over && !game.human_turn && !game.ai_error));
}

let shownSignature = null;  // the state last drawn, without the strong agent's estimates

let stateVersion = 0;  // counts the states shown, so that a late answer to a poll is dropped

function show(state) {
  ++stateVersion;
  game = state;
  gameId = state.id;
  window.slingState = state;
  // An estimate arriving redraws only itself: the buttons a player is about to press stay put.
  const signature = JSON.stringify(Object.assign({}, state, { stakes: null, strip: null, eval_pending: null }));
  if (signature === shownSignature) {
    renderEstimates(state);
  } else {
    shownSignature = signature;
    render();
  }
  clearTimeout(pollTimer);
  const agent = agentBusy();
  // A poll's answer may come while a person's request is still on its way (the request was sent
  // as the poll went out): the page stays busy until that request's answer is shown too, which
  // may be an older state than the poll's and then polls again.
  window.slingBusy = tasks > 0 || agent;
  // The strong agent's estimate (God's stakes, the strip) arrives later: keep asking for it, but
  // nobody needs to wait for it.
  if (agent || (game.mode === 'play' && game.eval_pending)) {
    // Quick at first (a quick agent has often moved already), then every quarter second.
    pollTimer = setTimeout(poll, game.thinking || !agent ? 250 : 80);
  }
}

async function poll() {
  const version = stateVersion, id = gameId;
  try {
    const state = await api('GET', '/api/games/' + id);
    // A state shown while this one was on its way (a person's move) is newer: keep it.
    if (version !== stateVersion || id !== gameId) return;
    show(Object.assign(state, { id: id }));
  } catch (e) {
    showError(e);
    window.slingBusy = tasks > 0;
  }
}

// ---- new game, load, replay, leaving ----------------------------------------------------------

function gameInfo(name) {
  return info.games.find((g) => g.name === name);
}

function fillSides() {
  const g = gameInfo($('game').value);
  for (let side = 0; side < 2; ++side) {
    $('side' + side + '-name').textContent = g.sides[side];
    const select = $('side' + side);
    const previous = select.value;
    select.innerHTML = '';
    // Short names to read, each agent's spec in its tooltip.
    const choices = [['human', 'you (a person)', 'a person plays this side'],
                     ['easy', 'easy', g.presets.easy], ['normal', 'normal', g.presets.normal],
                     ['strong', 'strong', g.presets.strong]];
    for (const agent of info.named_agents || []) choices.push([agent.name, agent.name, agent.spec]);
    for (const agent of g.agents) choices.push([agent.name, 'agent ' + agent.name, agent.help]);
    choices.push(['spec', 'an agent spec\u2026', 'type any agent spec of `sling agents`']);
    for (const [value, label, title] of choices) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = label;
      option.title = title;
      select.appendChild(option);
    }
    select.value = previous && [...select.options].some((o) => o.value === previous)
                       ? previous : (side === 0 ? 'human' : 'normal');
    sideChanged(side);
  }
  $('map-label').hidden = $('map-file-label').hidden = $('game').value !== 'danelaw';
  $('god-prompt-label').hidden = $('game').value !== 'duel';
}

function sideChanged(side) {
  const select = $('side' + side);
  $('side' + side + '-spec').hidden = select.value !== 'spec';
  select.title = select.selectedOptions.length ? select.selectedOptions[0].title : '';
}

function chosenSides() {
  return [0, 1].map((side) => {
    const value = $('side' + side).value;
    return value === 'spec' ? $('side' + side + '-spec').value.trim() : value;
  });
}

function readFile(input) {
  return new Promise((resolve, reject) => {
    const file = input.files[0];
    if (!file) { resolve(null); return; }
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(new Error('cannot read ' + file.name));
    reader.readAsText(file);
  });
}

// A danelaw map file chosen in `input`, as request fields: its text (the server never reads a
// path) and its name, which the game's rules and saves record as the map, as the terminal records
// the file of `--map FILE`.  Empty when no file is chosen.
async function mapFields(input) {
  const text = await readFile(input);
  return text === null ? {} : { map: text, map_name: input.files[0].name };
}

// Start and Watch wait for the server to set the game up (the strong agent may first prepare for
// a few seconds): both are disabled meanwhile and the form says what it waits for.
async function startGame(watch) {
  const buttons = [$('start'), $('watch')];
  for (const b of buttons) b.disabled = true;
  $('start-status').textContent = 'Setting up the game\u2026';
  try {
    await requestGame(watch);
  } finally {
    for (const b of buttons) b.disabled = false;
    $('start-status').textContent = '';
  }
}

async function requestGame(watch) {
  const request = { game: $('game').value, sides: chosenSides(), win_strip: $('win-strip').checked };
  if (watch) {
    request.sides = request.sides.map((s) => (s === 'human' ? 'normal' : s));
    request.delay_ms = Number($('delay').value);
  }
  if (request.game === 'duel') request.god_prompt = $('god-prompt').value;
  const seed = $('seed').value.trim();
  if (seed) request.seed = seed;
  const rules = await readFile($('rules-file'));
  if (rules) request.rules = rules;
  if (request.game === 'danelaw') {
    Object.assign(request, await mapFields($('map-file')));
    if (!request.map && $('map').value) request.map = $('map').value;
  }
  openGame(await api('POST', '/api/games', request));
}

function openGame(state) {
  for (const panel of document.querySelectorAll('.panel')) panel.hidden = true;
  $('back-to-game').hidden = true;
  $('play').hidden = false;
  pendingPoint = null;
  shownSignature = null;
  resetBoardViews();
  $('hint-box').hidden = true;
  // The address names the game: a reload, or the address in another tab, comes back to it.
  history.replaceState(null, '', '?game=' + state.id);
  show(state);
}

// A game in progress is left only when the player says so; it stays on the server (until it
// stops, or `idle_minutes` after the page last showed it), and its address brings it back.
function leaveGame(panelId) {
  if (game && game.mode === 'play' && !game.over && game.ply > 0) {
    $('leave-text').textContent = 'Leave this game at ply ' + game.ply + '? It stays on the server for ' +
        info.idle_minutes + ' minutes, and this address brings it back: ' + location.href;
    $('leave-dialog').hidden = false;
    $('leave-yes').onclick = () => { $('leave-dialog').hidden = true; leftGame = gameId; showPanel(panelId); };
    $('leave-no').focus();  // the safe answer is the one Enter gives
    return;
  }
  leftGame = game && game.mode === 'play' && !game.over ? gameId : null;
  showPanel(panelId);
}

// The game left inside the page, still on the server: "Back to the game" brings it back.
let leftGame = null;

async function backToGame() {
  const id = leftGame;
  leftGame = null;
  try {
    openGame(Object.assign(await api('GET', '/api/games/' + id), { id: id }));
  } catch (e) {
    throw new Error('the game you left is no longer on the server: ' + e.message);
  }
}

function showPanel(id) {
  clearTimeout(pollTimer);
  game = null;
  gameId = null;
  window.slingState = null;
  window.slingBusy = tasks > 0;
  history.replaceState(null, '', location.pathname);
  $('play').hidden = true;
  $('back-to-game').hidden = !leftGame;
  for (const panel of document.querySelectorAll('.panel')) panel.hidden = panel.id !== id;
}

// The game the address names, if the server still holds it.
async function resumeFromAddress() {
  const id = new URLSearchParams(location.search).get('game');
  if (!id) return;
  if (!/^[0-9a-f]{16}$/.test(id)) { history.replaceState(null, '', location.pathname); return; }
  try {
    openGame(Object.assign(await api('GET', '/api/games/' + id), { id: id }));
  } catch (e) {
    history.replaceState(null, '', location.pathname);
    throw new Error('the game of this address is no longer on the server (a game is kept until ' +
                    'the server stops, or ' + info.idle_minutes + ' minutes after its page last ' +
                    'showed it): ' + e.message);
  }
}

async function loadSave() {
  const text = await readFile($('load-file'));
  $('load-file').value = '';
  if (text === null) return;
  // Played on by whoever the save names (the server reads them from it).
  openGame(await api('POST', '/api/games', Object.assign({ record: text }, await mapFields($('load-map-file')))));
}

let replayRecords = null;
async function loadReplay() {
  const text = await readFile($('replay-file'));
  $('replay-file').value = '';
  if (text === null) return;
  if (text.trimStart().startsWith('{"game_id"')) {
    replayRecords = text;
    const games = await api('POST', '/api/records', { records: text });
    const pick = $('replay-pick');
    pick.innerHTML = '';
    for (const g of games) {
      const option = document.createElement('option');
      option.value = g.game_id;
      option.textContent = 'game ' + g.game_id + ': ' + g.game + ', ' + g.plies + ' plies, seed ' + g.seed;
      pick.appendChild(option);
    }
    $('replay-pick-label').hidden = false;
    return;
  }
  openGame(await api('POST', '/api/replays',
                     Object.assign({ record: text }, await mapFields($('replay-map-file')))));
}

async function openReplayPick() {
  openGame(await api('POST', '/api/replays',
                     Object.assign({ records: replayRecords, game_id: Number($('replay-pick').value) },
                                   await mapFields($('replay-map-file')))));
}

// Steps one after another: a second click counts from where the first one went.
let replayQueue = Promise.resolve();
function replayStep(delta) {
  replayQueue = replayQueue.then(() => run(() => replayTo(game.ply + delta)));
}

async function replayTo(ply) {
  ply = Math.max(0, Math.min(game.plies, ply));
  show(Object.assign(await api('GET', '/api/games/' + gameId + '?ply=' + ply), { id: gameId }));
}

// ---- playing ------------------------------------------------------------------------------

async function act(code) {
  pendingPoint = null;
  show(await api('POST', '/api/games/' + gameId + '/act', { action: code, ply: game.ply }));
}

async function clickPoint(x, y) {
  pendingPoint = await api('POST', '/api/games/' + gameId + '/point', { x: x, y: y, ply: game.ply });
  render();
}

async function requestHint() {
  show(await api('POST', '/api/games/' + gameId + '/hint', {}));
}

async function undo() {
  pendingPoint = null;
  show(await api('POST', '/api/games/' + gameId + '/undo', {}));
}

function renderEstimates(s) {
  if (s.board && s.board.god_prompt && s.human_turn) renderStakes(s);
  drawStrip($('strip'), s);
}

function render() {
  renderPanel(game);
  const board = $('board');
  board.innerHTML = '';
  board.className = 'board-' + game.game;
  $('play').className = 'game-' + game.game;
  if (game.game === 'duel') drawDuel(board, game);
  else if (game.game === 'danelaw') drawDanelaw(board, game);
  else drawPig(board, game);
  drawStrip($('strip'), game);
}

// ---- wiring -------------------------------------------------------------------------------

async function init() {
  info = await api('GET', '/api/info');
  for (const map of info.maps) {
    const option = document.createElement('option');
    option.value = option.textContent = map;
    $('map').appendChild(option);
  }
  $('god-prompt').value = info.god_prompt;
  $('animate').checked = localStorage.getItem('sling-animate') !== 'off';
  fillSides();
  $('game').addEventListener('change', fillSides);
  for (const side of [0, 1]) $('side' + side).addEventListener('change', () => sideChanged(side));
  $('new-game').addEventListener('submit', (event) => { event.preventDefault(); run(() => startGame(false)); });
  $('watch').addEventListener('click', () => run(() => startGame(true)));
  for (const tab of document.querySelectorAll('.tab[data-panel]')) tab.addEventListener('click', () => leaveGame(tab.dataset.panel));
  $('load-file').addEventListener('change', () => run(loadSave));
  $('replay-file').addEventListener('change', () => run(loadReplay));
  $('replay-open').addEventListener('click', () => run(openReplayPick));
  $('hint').addEventListener('click', () => run(requestHint));
  $('analyse').addEventListener('click', () => run(requestAnalysis));
  $('undo').addEventListener('click', () => run(undo));
  $('close').addEventListener('click', () => leaveGame('panel-new'));
  $('back-to-game').addEventListener('click', () => run(backToGame));
  $('leave-no').addEventListener('click', () => { $('leave-dialog').hidden = true; });
  $('point-confirm').addEventListener('click', () => run(() => act(pendingPoint.action)));
  $('point-cancel').addEventListener('click', () => { pendingPoint = null; render(); });
  $('replay-start').addEventListener('click', () => run(() => replayTo(0)));
  $('replay-prev').addEventListener('click', () => replayStep(-1));
  $('replay-next').addEventListener('click', () => replayStep(1));
  $('replay-end').addEventListener('click', () => run(() => replayTo(game.plies)));
  $('replay-ply').addEventListener('change', () => run(() => replayTo(Number($('replay-ply').value))));
  $('animate').addEventListener('change', () => {
    localStorage.setItem('sling-animate', $('animate').checked ? 'on' : 'off');
    if (!$('animate').checked) skipAnimations();
  });
  // The board is drawn for the window's size (danelaw's names keep their size on screen).
  let resizeTimer = null;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (game) render(); }, 100);
  });
  // Any key or click skips a move's animation.
  document.addEventListener('keydown', skipAnimations);
  $('board').addEventListener('pointerdown', skipAnimations);
  // The server drops a game nobody has asked about for a while (`--idle-minutes`): an open page
  // keeps its game alive while the person thinks.
  setInterval(() => { if (gameId) fetch('/api/games/' + gameId + '?ply=0').catch(() => {}); }, 60000);
  await resumeFromAddress();
  window.slingReady = true;
}

run(init).finally(() => { window.slingReady = true; });
