// Sling's page.  It draws the state the server sends and sends back only actions the server
// listed as legal; every rule, die and agent runs on the server (play/web).  Plain JavaScript, no
// build step, nothing fetched from elsewhere.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG_NS = 'http://www.w3.org/2000/svg';
let info = null;        // /api/info
let game = null;        // the current state
let gameId = null;
let pollTimer = null;
let pendingPoint = null;  // the duel: a snapped destination awaiting confirmation
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
  if (!response.ok) throw new Error(json.error || ('HTTP ' + response.status));
  return json;
}

function showError(error) {
  const box = $('error');
  box.textContent = error ? String(error.message || error) : '';
  box.hidden = !error;
}

async function run(task) {
  window.slingBusy = true;
  showError(null);
  try {
    await task();
  } catch (e) {
    showError(e);
  } finally {
    window.slingBusy = needsPolling();
  }
}

function needsPolling() {
  return !!game && game.mode === 'play' &&
         (game.thinking || game.hint_running || (!game.over && !game.human_turn && !game.ai_error));
}

function show(state) {
  game = state;
  gameId = state.id;
  window.slingState = state;
  render();
  clearTimeout(pollTimer);
  if (needsPolling()) {
    window.slingBusy = true;
    // Quick at first (a quick agent has often moved already), then every quarter second.
    pollTimer = setTimeout(poll, game.thinking ? 250 : 80);
  } else {
    window.slingBusy = false;
  }
}

async function poll() {
  try {
    show(await api('GET', '/api/games/' + gameId));
  } catch (e) {
    showError(e);
    window.slingBusy = false;
  }
}

// ---- new game, load, replay ---------------------------------------------------------------

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
    const choices = [['human', 'a person (you)'], ['easy', 'easy: ' + g.presets.easy],
                     ['normal', 'normal: ' + g.presets.normal],
                     ['strong', 'strong: ' + g.presets.strong]];
    for (const agent of info.named_agents || []) choices.push([agent.name, agent.name + ': ' + agent.spec]);
    for (const agent of g.agents) choices.push([agent.name, 'agent ' + agent.name + ': ' + agent.help]);
    choices.push(['spec', 'an agent spec...']);
    for (const [value, text] of choices) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = text;
      select.appendChild(option);
    }
    select.value = previous && [...select.options].some((o) => o.value === previous)
                       ? previous : (side === 0 ? 'human' : 'normal');
    $('side' + side + '-spec').hidden = select.value !== 'spec';
  }
  $('map-label').hidden = $('map-file-label').hidden = $('game').value !== 'danelaw';
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

async function startGame(watch) {
  const request = { game: $('game').value, sides: chosenSides() };
  if (watch) {
    request.sides = request.sides.map((s) => (s === 'human' ? 'normal' : s));
    request.delay_ms = Number($('delay').value);
  }
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
  $('play').hidden = false;
  pendingPoint = null;
  $('hint-box').hidden = true;
  show(state);
}

function showPanel(id) {
  if (gameId) api('DELETE', '/api/games/' + gameId).catch(() => {});
  clearTimeout(pollTimer);
  game = null;
  gameId = null;
  window.slingState = null;
  window.slingBusy = false;
  $('play').hidden = true;
  for (const panel of document.querySelectorAll('.panel')) panel.hidden = panel.id !== id;
}

async function loadSave() {
  const text = await readFile($('load-file'));
  $('load-file').value = '';
  if (text === null) return;
  openGame(await api('POST', '/api/games', Object.assign({ record: text, sides: chosenSides() },
                                                         await mapFields($('load-map-file')))));
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

// ---- drawing ------------------------------------------------------------------------------

function el(name, attributes, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const key in attributes) node.setAttribute(key, attributes[key]);
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, attributes) {
  const node = el('text', Object.assign({ x: x, y: y }, attributes || {}), parent);
  node.textContent = content;
  return node;
}

function percent(p) {
  return (100 * p).toFixed(1) + '%';
}

function button(label, onClick, parent) {
  const b = document.createElement('button');
  b.textContent = label;
  b.addEventListener('click', () => run(onClick));
  parent.appendChild(b);
  return b;
}

function render() {
  const s = game;
  const play = s.mode === 'play';
  // Players and whose turn.
  const players = $('players');
  players.innerHTML = '';
  players.className = 'players';
  s.sides.forEach((side, i) => {
    const line = document.createElement('div');
    line.textContent = side.name + ': ' + side.player + (side.spec && side.spec !== side.player ? ' (' + side.spec + ')' : '');
    if (s.to_move === i) line.className = 'to-move';
    players.appendChild(line);
  });
  $('result').hidden = !s.over;
  $('result').textContent = s.over ? s.result : '';
  $('status').textContent = (play ? 'Ply ' : 'Replay: ply ') + s.ply + (play ? '' : ' of ' + s.plies) +
                            ', seed ' + s.seed + (s.ai_error ? '. ' + s.ai_error : '');
  const thinker = s.to_move >= 0 ? s.sides[s.to_move].name : '';
  $('thinking').hidden = !s.thinking && !s.hint_running;
  $('thinking-text').textContent = s.thinking ? thinker + ' is thinking\u2026' : 'Analysing\u2026';
  renderLastRoll();
  // Decisions.
  const god = !!(s.board && s.board.god_prompt && s.human_turn);
  $('god').hidden = !god;
  // The server's prompts also tell a terminal user what to type; the page shows the question only.
  $('prompt').textContent = s.human_turn ? s.prompt.replace(/:?\s*(pick a number|`).*$/, '') : '';
  const actions = $('actions');
  const godActions = $('god-actions');
  actions.innerHTML = '';
  godActions.innerHTML = '';
  let onBoard = 0;
  for (const a of s.actions) {
    if (a.hex !== undefined) { ++onBoard; continue; }  // chosen on the map
    const b = button(a.label, () => act(a.code), god ? godActions : actions);
    b.dataset.code = a.code;
  }
  if (onBoard) {
    const note = document.createElement('div');
    note.className = 'note';
    note.textContent = onBoard + ' choices on the map: click a marked hex.';
    actions.appendChild(note);
  }
  if (s.point_input) {
    const note = document.createElement('div');
    note.textContent = 'Click a point inside the shaded area (up to ' + s.board.allowance_cm + ' cm).';
    actions.appendChild(note);
  }
  $('point').hidden = !(pendingPoint && s.point_input);
  if (pendingPoint && s.point_input) {
    $('point-text').textContent = pendingPoint.label + ': ' + pendingPoint.move_cm.toFixed(1) +
        ' cm moved, ' + pendingPoint.gap_cm.toFixed(1) + ' cm between the bases. ';
  }
  // Tools.
  $('hint').disabled = !s.human_turn || s.hint_running;
  $('undo').disabled = !s.can_undo;
  $('hint').hidden = $('undo').hidden = !play;
  $('save').href = '/api/games/' + gameId + '/record';
  $('save').download = 'sling-' + s.game + '-' + s.seed + '.json';
  $('replay-controls').hidden = play;
  if (!play) {
    $('replay-ply').max = s.plies;
    $('replay-ply').value = s.ply;
    $('replay-at').textContent = s.ply + ' / ' + s.plies;
  }
  renderHint();
  renderAnalysis();
  renderLog();
  const board = $('board');
  board.innerHTML = '';
  if (s.game === 'duel') drawDuel(board, s);
  else if (s.game === 'danelaw') drawDanelaw(board, s);
  else drawPig(board, s);
}

function renderLastRoll() {
  const box = $('last-roll');
  box.innerHTML = '';
  const rolls = game.log.filter((entry, i) => entry.side === -1 && i < game.ply);
  if (!rolls.length) return;
  const last = rolls[rolls.length - 1];
  for (const face of last.faces || []) {
    const die = document.createElement('span');
    die.className = 'die';
    die.textContent = face;
    box.appendChild(die);
  }
  box.appendChild(document.createTextNode(' ' + last.text));
}

function renderLog() {
  const list = $('log');
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.innerHTML = '';
  for (const entry of game.log) {
    const item = document.createElement('li');
    item.value = entry.ply;
    item.textContent = entry.text;
    item.className = (entry.side === -1 ? 'chance' : '') + (game.mode === 'replay' && entry.ply === game.ply ? ' current' : '');
    if (game.mode === 'replay') item.addEventListener('click', () => run(() => replayTo(entry.ply)));
    list.appendChild(item);
  }
  if (atEnd || game.mode === 'play') list.scrollTop = list.scrollHeight;
}

function renderAnalysis() {
  const box = $('analysis');
  box.innerHTML = '';
  game.analysis.forEach((move, side) => {
    if (!move || game.sides[side].human) return;
    const line = document.createElement('div');
    let content = game.sides[side].name + ' played ' + move.action;
    if (move.estimated) {
      content += ': ' + (move.exact ? 'exact' : 'estimated') + ' win chance ' + percent(move.win);
      if (move.alternatives.length) {
        content += '; alternatives: ' + move.alternatives.map((a) => a.label + ' ' + percent(a.win)).join(', ');
      }
    } else {
      content += ' (a rule of thumb: no estimate)';
    }
    line.textContent = content;
    box.appendChild(line);
  });
}

function renderHint() {
  const box = $('hint-box');
  const hint = game.hint;
  if (!hint) { box.hidden = true; return; }
  box.hidden = false;
  box.innerHTML = '';
  if (hint.error) { box.textContent = 'No hint: ' + hint.error; return; }
  const head = document.createElement('div');
  head.textContent = 'Hint (' + hint.source + '): ' + (hint.exact ? 'exact' : 'estimated') +
                     ' win chance ' + percent(hint.win);
  box.appendChild(head);
  const table = document.createElement('table');
  table.className = 'hint';
  for (const a of hint.actions) {
    const row = table.insertRow();
    if (a.best) row.className = 'best';
    row.insertCell().textContent = a.label + (a.best ? '  \u2190 best' : '');
    row.insertCell().textContent = percent(a.win);
    row.insertCell().textContent = a.visits ? a.visits + ' visits' : '';
  }
  box.appendChild(table);
}

// The duel: the board to scale (1 unit = 1 cm), David's base line at the bottom.
function drawDuel(container, s) {
  const b = s.board;
  const size = b.board_cm;
  const svg = el('svg', { viewBox: '-1 -1 ' + (size + 2) + ' ' + (size + 2), id: 'duel-board' }, container);
  const Y = (y) => size - y;
  el('rect', { x: 0, y: 0, width: size, height: size, fill: '#efe3c2', stroke: '#6b5a3a', 'stroke-width': 0.1 }, svg);
  for (let v = 5; v < size; v += 5) {
    el('line', { x1: v, y1: 0, x2: v, y2: size, stroke: '#d9caa0', 'stroke-width': 0.05 }, svg);
    el('line', { x1: 0, y1: v, x2: size, y2: v, stroke: '#d9caa0', 'stroke-width': 0.05 }, svg);
  }
  const clip = el('clipPath', { id: 'board-clip' }, el('defs', {}, svg));
  el('rect', { x: 0, y: 0, width: size, height: size }, clip);
  const rings = el('g', { 'clip-path': 'url(#board-clip)' }, svg);
  for (const ring of b.rings) {
    el('circle', { cx: b.goliath.x, cy: Y(b.goliath.y), r: ring.r, fill: 'none', stroke: '#8c6d3f',
                   'stroke-width': 0.08, 'stroke-dasharray': '0.4 0.3' }, rings);
    text(rings, b.goliath.x, Y(b.goliath.y) + ring.r - 0.3, ring.cm + ' cm: David ' + ring.david + ', Goliath ' + ring.goliath,
         { 'font-size': 0.7, 'text-anchor': 'middle', fill: '#6b5a3a' });
  }
  // The reachable area after the movement roll: every legal destination's lattice cell.
  if (b.reach.length) {
    const cell = b.pitch_cm;
    const reach = el('g', { fill: b.actor === 0 ? '#3a7d44' : '#9c2f2f', 'fill-opacity': 0.28 }, svg);
    for (const [x, y] of b.reach) {
      el('rect', { x: x - cell / 2, y: Y(y) - cell / 2, width: cell, height: cell }, reach);
    }
  }
  const figure = (f, fill, label) => {
    el('circle', { cx: f.x, cy: Y(f.y), r: f.r, fill: fill, stroke: '#222', 'stroke-width': 0.1 }, svg);
    text(svg, f.x, Y(f.y) + 0.35, label, { 'font-size': 1, 'text-anchor': 'middle', fill: 'white', 'font-weight': 'bold' });
  };
  figure(b.goliath, '#7a4b2a', 'G');
  figure(b.david, '#2f6690', 'D');
  if (pendingPoint && s.point_input) {
    const mover = b.actor === 0 ? b.david : b.goliath;
    el('line', { x1: mover.x, y1: Y(mover.y), x2: pendingPoint.x, y2: Y(pendingPoint.y), stroke: '#111', 'stroke-width': 0.08 }, svg);
    el('circle', { cx: pendingPoint.x, cy: Y(pendingPoint.y), r: mover.r, fill: 'none', stroke: '#111',
                   'stroke-width': 0.12, 'stroke-dasharray': '0.3 0.2', id: 'ghost' }, svg);
  }
  if (s.point_input) {
    svg.style.cursor = 'crosshair';
    svg.addEventListener('click', (event) => {
      const p = svgPoint(svg, event.clientX, event.clientY);
      run(() => clickPoint(p.x, size - p.y));
    });
  }
  const caption = 'Gap ' + b.gap_cm.toFixed(1) + ' cm' + (b.contact ? ' (in contact)' : '') +
                  '. David hits on a d6 \u2264 ' + b.shooting.david + ', Goliath\u2019s javelin on \u2264 ' + b.shooting.goliath +
                  '. ' + (b.stone ? 'David has a stone. ' : 'David has no stone. ') +
                  (b.shield ? 'Goliath has his shield' : 'Goliath fights two-handed') +
                  (b.javelin ? ' and his javelin. ' : '. ') + (b.dazed ? 'Goliath is dazed. ' : '') +
                  (b.god_available ? 'God is unused.' : 'God has been invoked.');
  $('board-caption').textContent = caption;
}

function svgPoint(svg, clientX, clientY) {
  const point = svg.createSVGPoint();
  point.x = clientX;
  point.y = clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

// For tests: the page coordinates of a duel board point (cm).
window.slingDuelClientPoint = function (x, y) {
  const svg = $('duel-board');
  const point = svg.createSVGPoint();
  point.x = x;
  point.y = game.board.board_cm - y;
  const p = point.matrixTransform(svg.getScreenCTM());
  return [p.x, p.y];
};

const HEX_COLOURS = { army: '#f4d03f', move: '#27ae60', attack: '#c0392b', roll: '#e67e22',
                      rout: '#8e44ad', place: '#2980b9' };

// Danelaw: the server's map SVG, with the hexes of the current choice laid over it.
function drawDanelaw(container, s) {
  const b = s.board;
  container.innerHTML = b.svg;
  const svg = container.querySelector('svg');
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  svg.id = 'danelaw-map';
  const overlay = el('g', { id: 'choices' }, svg);
  for (const [key, colour] of [['selected', '#f4d03f'], ['target', '#c0392b'], ['rout', '#8e44ad']]) {
    if (b[key]) el('circle', { cx: b[key].x, cy: b[key].y, r: 12, fill: 'none', stroke: colour, 'stroke-width': 3 }, overlay);
  }
  for (const a of s.actions) {
    if (a.hex === undefined) continue;
    const g = el('g', { class: 'hex-choice', 'data-code': a.code, 'data-kind': a.kind, 'data-hex': a.hex }, overlay);
    const title = el('title', {}, g);
    title.textContent = a.label + (a.cost !== undefined ? ' (' + a.cost + ' MP)' : '');
    el('circle', { cx: a.x, cy: a.y, r: 9, fill: HEX_COLOURS[a.kind] || '#2980b9', 'fill-opacity': a.kind === 'army' ? 0.25 : 0.55,
                   stroke: HEX_COLOURS[a.kind] || '#2980b9', 'stroke-width': 2 }, g);
    if (a.cost !== undefined) {
      text(g, a.x, a.y + 3.5, a.cost, { 'font-size': 10, 'font-weight': 'bold', 'text-anchor': 'middle', fill: 'white' });
    }
    g.addEventListener('click', () => run(() => act(a.code)));
  }
  const side = s.sides[b.side] ? s.sides[b.side].name : '';
  $('board-caption').textContent = 'Turn ' + b.turn + ' of ' + b.turn_limit + ': ' + side +
      (b.movement_dice.length ? ', movement roll ' + b.movement_dice.join('+') : '') +
      ', ' + b.points + ' movement points left. Danes hold ' + b.danish_towns + ' of ' + b.towns +
      ' towns (' + b.towns_to_win + ' to win). Armies on the map: Danes ' + b.armies[0] +
      ', English ' + b.armies[1] + '; in reserve: ' + b.pool[0] + ' and ' + b.pool[1] + '.';
}

// Pig: both scores as bars towards the goal, with the turn total at risk.
function drawPig(container, s) {
  const b = s.board;
  const wrap = document.createElement('div');
  wrap.id = 'pig-board';
  s.sides.forEach((side, i) => {
    const label = document.createElement('div');
    label.className = 'bar-label' + (s.to_move === i ? ' to-move' : '');
    const atRisk = !s.over && b.to_move === i && b.turn_total > 0 ? ' + ' + b.turn_total + ' at risk' : '';
    label.textContent = side.name + ': ' + b.scores[i] + atRisk + ' of ' + b.goal;
    const bar = document.createElement('div');
    bar.className = 'bar';
    const banked = document.createElement('div');
    banked.style.width = Math.min(100, 100 * b.scores[i] / b.goal) + '%';
    bar.appendChild(banked);
    if (atRisk) {
      const turn = document.createElement('div');
      turn.className = 'turn';
      turn.style.left = Math.min(100, 100 * b.scores[i] / b.goal) + '%';
      turn.style.width = Math.min(100 - 100 * b.scores[i] / b.goal, 100 * b.turn_total / b.goal) + '%';
      bar.appendChild(turn);
    }
    wrap.appendChild(label);
    wrap.appendChild(bar);
  });
  container.appendChild(wrap);
  $('board-caption').textContent = 'Turn total ' + b.turn_total + '. Roll: a 1 loses the turn total; hold banks it.';
}

// ---- wiring -------------------------------------------------------------------------------

async function requestHint() {
  show(await api('POST', '/api/games/' + gameId + '/hint', {}));
}

async function undo() {
  pendingPoint = null;
  show(await api('POST', '/api/games/' + gameId + '/undo', {}));
}

async function init() {
  info = await api('GET', '/api/info');
  for (const map of info.maps) {
    const option = document.createElement('option');
    option.value = option.textContent = map;
    $('map').appendChild(option);
  }
  fillSides();
  $('game').addEventListener('change', fillSides);
  for (const side of [0, 1]) {
    $('side' + side).addEventListener('change', () => { $('side' + side + '-spec').hidden = $('side' + side).value !== 'spec'; });
  }
  $('new-game').addEventListener('submit', (event) => { event.preventDefault(); run(() => startGame(false)); });
  $('watch').addEventListener('click', () => run(() => startGame(true)));
  for (const tab of document.querySelectorAll('.tab')) tab.addEventListener('click', () => showPanel(tab.dataset.panel));
  $('load-file').addEventListener('change', () => run(loadSave));
  $('replay-file').addEventListener('change', () => run(loadReplay));
  $('replay-open').addEventListener('click', () => run(openReplayPick));
  $('hint').addEventListener('click', () => run(requestHint));
  $('undo').addEventListener('click', () => run(undo));
  $('close').addEventListener('click', () => showPanel('panel-new'));
  $('point-confirm').addEventListener('click', () => run(() => act(pendingPoint.action)));
  $('point-cancel').addEventListener('click', () => { pendingPoint = null; render(); });
  $('replay-start').addEventListener('click', () => run(() => replayTo(0)));
  $('replay-prev').addEventListener('click', () => run(() => replayTo(game.ply - 1)));
  $('replay-next').addEventListener('click', () => run(() => replayTo(game.ply + 1)));
  $('replay-end').addEventListener('click', () => run(() => replayTo(game.plies)));
  $('replay-ply').addEventListener('change', () => run(() => replayTo(Number($('replay-ply').value))));
  // The server drops a game nobody has asked about for a while (`--idle-minutes`): an open page
  // keeps its game alive while the person thinks.
  setInterval(() => { if (gameId) fetch('/api/games/' + gameId + '?ply=0').catch(() => {}); }, 60000);
  window.slingReady = true;
}

run(init);
