// The side panel: the players by short names, the result, the dice (drawn with pips, rolled
// briefly), God's question with what is at stake, the prompt, the buttons, hints, the agents'
// analyses and the log.
'use strict';

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

// A player's short name: "you" for a person, the preset or the agent's name otherwise; the full
// agent spec goes in a tooltip.
function playerName(s, side) {
  const entry = s.sides[side];
  if (s.mode !== 'play') return 'as recorded';
  if (entry.human) return s.sides[1 - side].human ? 'a person' : 'you';
  return agentName(s.game, entry.player);
}

function agentName(gameName, spec) {
  const g = info && gameInfo(gameName);
  if (g) {
    for (const preset of ['easy', 'normal', 'strong']) if (spec === preset || spec === g.presets[preset]) return preset;
  }
  const named = (info && info.named_agents || []).find((a) => a.name === spec || a.spec === spec);
  if (named) return named.name;
  return spec.split(':')[0];
}

// The engine's short action names, as a player says them.
const PLAIN_ACTIONS = { 'drop-shield': 'drop the shield', 'reroll-david': 're-roll David\u2019s die',
                        'reroll-goliath': 're-roll Goliath\u2019s die', 'reroll': 're-roll the die',
                        'accept': 'accept the dice' };

function plainWords(text) {
  return text.replace(/\s{2,}/g, ' ')
             .replace(/^(drop-shield|reroll-david|reroll-goliath|reroll|accept)\b/, (w) => PLAIN_ACTIONS[w])
             .replace(/\(rule of thumb\)/g, '(the simple rule\u2019s choice)');
}

// Where the values come from, in a player's words.
function plainSource(text) {
  const coarse = /^the exact (\d+) cm solution interpolated to the (\d+) cm lattice/.exec(text || '');
  if (coarse) return 'the solved game on a ' + coarse[1] + ' cm grid, read between its points (close, not exact)';
  return text;
}

// "David is thinking", "The Danes are thinking".
function thinkingText(side) {
  return side === 'Danes' || side === 'English' ? 'The ' + side + ' are thinking\u2026' : side + ' is thinking\u2026';
}

// The server's prompts also tell a terminal user what to type; the page keeps the question.
function pagePrompt(text) {
  return text.replace(/:\s*pick a number.*$/, '')
             .replace(/:\s*`to HEX`.*$/, '')
             .replace(/\s*\(`[^)]*\)/g, '')
             .replace(/`/g, '');
}

// How the game ended, with the reason: a game between agents that reached the turn limit is a
// draw by that limit.
function resultText(s) {
  if (s.end_reason === 'turn limit') return 'Draw: turn limit (' + s.turn_limit.toLocaleString('en') + ' turns)';
  return s.result;
}

// The buttons' words: Pig's hold says what it banks and the score it makes.
function actionLabel(s, a) {
  if (s.game === 'pig') {
    const hold = /^hold\s+\(bank (\d+): (\d+)(, and win)?\)/.exec(a.label);
    if (hold) {
      return 'hold: bank ' + hold[1] + ', score ' + s.board.scores[s.board.to_move] + ' \u2192 ' + hold[2] +
             (hold[3] ? ' and win' : '');
    }
  }
  // God's answers say what they do: "re-roll David's 3", not "reroll-david (re-roll David's 3)".
  const reroll = /^reroll[a-z-]*\s+\((.*)\)$/.exec(a.label);
  if (reroll) return reroll[1];
  return plainWords(a.label);
}

function renderPanel(s) {
  const play = s.mode === 'play';
  const players = $('players');
  players.innerHTML = '';
  players.className = 'players';
  s.sides.forEach((side, i) => {
    const line = document.createElement('div');
    const name = document.createElement('span');
    name.className = 'player';
    name.textContent = playerName(s, i);
    name.title = side.human ? 'a person at this page' : (side.spec || side.player);
    line.append(side.name + ': ', name);
    if (s.to_move === i) line.className = 'to-move';
    players.appendChild(line);
  });
  $('result').hidden = !s.over;
  $('result').textContent = s.over ? resultText(s) : '';
  $('result').title = s.over ? s.result : '';
  $('status').textContent = (play ? 'Ply ' : 'Replay: ply ') + s.ply + (play && s.ply === s.plies ? '' : ' of ' + s.plies) +
                            ', seed ' + s.seed + (s.ai_error ? '. ' + s.ai_error : '') +
                            (s.standoff ? '. A stand-off: the same positions come back, so the game plays at full speed until something changes.' : '');
  const thinker = s.to_move >= 0 ? s.sides[s.to_move].name : '';
  $('thinking').hidden = !s.thinking && !s.hint_running;
  $('thinking-text').textContent = s.thinking ? thinkingText(thinker) : 'Analysing\u2026';
  renderLastRoll(s);
  const god = !!(s.board && s.board.god_prompt && s.human_turn);
  $('god').hidden = !god;
  if (god) renderStakes(s);
  $('prompt').textContent = s.human_turn && !god ? pagePrompt(s.prompt) : '';  // the God box asks itself
  const actions = $('actions');
  const godActions = $('god-actions');
  actions.innerHTML = '';
  godActions.innerHTML = '';
  let onBoard = 0;
  for (const a of s.actions) {
    if (a.hex !== undefined) { ++onBoard; continue; }  // chosen on the map
    const b = button(actionLabel(s, a), () => act(a.code), god ? godActions : actions);
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
    // The point, then what it does: the label's own gap would repeat the readout's.
    const where = pendingPoint.label.split(/\s{2,}/)[0];
    $('point-text').textContent = where + (pendingPoint.move_cm === 0 ? ', where he stands' : '') + ': ' +
        pendingPoint.move_cm.toFixed(1) + ' cm moved, ' + pendingPoint.gap_cm.toFixed(1) + ' cm between the bases. ';
  }
  $('hint').disabled = !s.human_turn || s.hint_running;
  $('undo').disabled = !s.can_undo;
  $('hint').hidden = $('undo').hidden = !play;
  // Named after the game (the server's Content-Disposition says the same).
  $('save').href = '/api/games/' + gameId + '/record';
  $('save').download = 'sling-' + s.game + '-seed' + s.seed + '-ply' + s.plies + '.json';
  // A finished game is stepped through as a replay is (its analysis goes to its errors).
  const review = !play || s.over || s.ply < s.plies;
  $('replay-controls').hidden = !review;
  if (review) {
    $('replay-ply').max = s.plies;
    $('replay-ply').value = s.ply;
    $('replay-at').textContent = s.ply + ' / ' + s.plies;
  }
  renderHint(s);
  renderAnalysis(s);
  renderGameAnalysis(s);
  renderLog(s);
}

// God's question: each answer with David's win chance by the strong agent (accepting, and the
// expected value of each re-roll with God then spent).
function renderStakes(s) {
  const box = $('god-stakes');
  box.innerHTML = '';
  if (!s.stakes) {
    box.textContent = s.eval_pending ? 'Weighing the answers (the strong agent)\u2026' : '';
    return;
  }
  if (s.stakes.error) { box.textContent = 'No estimate: ' + s.stakes.error; return; }
  const head = document.createElement('div');
  head.textContent = 'At stake, David\u2019s win chance (' + (s.stakes.exact ? 'exact' : 'the strong agent\u2019s estimate') + '):';
  box.appendChild(head);
  const table = document.createElement('table');
  table.className = 'stakes';
  const best = Math.max(...s.stakes.choices.map((c) => c.win));
  for (const c of s.stakes.choices) {
    const row = table.insertRow();
    const accept = c.label.startsWith('accept');
    row.insertCell().textContent = accept ? 'accept the dice' : c.label.replace(/^[a-z-]+\s+\((.*)\)$/, '$1') + ', expected';
    row.insertCell().textContent = percent(c.win);
    const bar = row.insertCell();
    bar.className = 'stake-bar';
    const fill = document.createElement('div');
    fill.style.width = (100 * c.win) + '%';
    bar.appendChild(fill);
    if (c.win === best) row.className = 'best';
  }
  box.appendChild(table);
}

// Dice drawn with their pips; a new throw rolls briefly (unless animations are off).
const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
               5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };

function dieSvg(face, size) {
  const svg = el('svg', { viewBox: '0 0 40 40', width: size, height: size, class: 'die', 'data-face': face });
  el('rect', { x: 2, y: 2, width: 36, height: 36, rx: 7, fill: 'white', stroke: '#333', 'stroke-width': 2.5 }, svg);
  for (const [x, y] of PIPS[face] || []) el('circle', { cx: 10 * x, cy: 10 * y, r: 3.6, fill: '#222' }, svg);
  if (!PIPS[face]) text(svg, 20, 27, face, { 'font-size': 20, 'text-anchor': 'middle', 'font-weight': 'bold' });
  return svg;
}

let lastRollShown = null;  // "game:ply" of the throw shown, so a new one rolls

function renderDice(container, faces, key, size) {
  const rolling = animationsOn() && key !== lastRollShown && lastRollShown !== null;
  for (const face of faces) {
    const die = dieSvg(face, size);
    if (rolling) die.classList.add('rolling');
    container.appendChild(die);
  }
}

function lastRoll(s) {
  const rolls = s.log.filter((entry, i) => entry.side === -1 && i < s.ply);
  return rolls.length ? rolls[rolls.length - 1] : null;
}

function renderLastRoll(s) {
  const box = $('last-roll');
  box.innerHTML = '';
  const last = lastRoll(s);
  if (!last) return;
  const key = s.id + ':' + last.ply;
  renderDice(box, last.faces || [], key, 30);
  box.appendChild(document.createTextNode(' ' + last.text));
  lastRollShown = key;
}

function renderLog(s) {
  const list = $('log');
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.innerHTML = '';
  for (const entry of s.log) {
    const item = document.createElement('li');
    // The ply in its own column: numbers of any length stay whole.
    const number = document.createElement('span');
    number.className = 'ply';
    number.textContent = entry.ply + '.';
    const said = entry.side >= 0 ? /^([A-Za-z ]+): (.*)$/.exec(entry.text) : null;
    item.append(number, ' ' + (said ? said[1] + ': ' + plainWords(said[2]) : entry.text));
    item.className = (entry.side === -1 ? 'chance' : '') + (entry.automatic ? ' automatic' : '') +
                     (s.mode === 'replay' && entry.ply === s.ply ? ' current' : '');
    if (s.mode === 'replay') item.addEventListener('click', () => run(() => replayTo(entry.ply)));
    list.appendChild(item);
  }
  if (atEnd || s.mode === 'play') list.scrollTop = list.scrollHeight;
}

function renderAnalysis(s) {
  const box = $('analysis');
  box.innerHTML = '';
  s.analysis.forEach((move, side) => {
    if (!move || s.sides[side].human) return;
    const line = document.createElement('div');
    let content = s.sides[side].name + ' (' + playerName(s, side) + ') played ' + plainWords(move.action);
    if (move.estimated) {
      content += ': ' + (move.exact ? 'exact' : 'estimated') + ' win chance ' + percent(move.win);
      if (move.alternatives.length) {
        content += '; alternatives: ' + move.alternatives.map((a) => a.label + ' ' + percent(a.win)).join(', ');
      }
    } else {
      content += ' (a simple rule, which gives no estimate)';
    }
    if (move.note) content += ' (' + plainSource(move.note) + ')';
    line.textContent = content;
    box.appendChild(line);
  });
}

function renderHint(s) {
  const box = $('hint-box');
  const hint = s.hint;
  if (!hint) { box.hidden = true; return; }
  box.hidden = false;
  box.innerHTML = '';
  if (hint.error) { box.textContent = 'No hint: ' + hint.error; return; }
  const head = document.createElement('div');
  const source = document.createElement('span');
  source.className = 'source';
  source.title = hint.source;
  source.textContent = hint.source_name || agentName(s.game, hint.source);
  if (hint.estimated === false) {  // the agent compared nothing here: its move, no win chances
    head.append('Hint (', source, '): play ' + (hint.actions.length ? hint.actions[0].label : '?'));
    box.appendChild(head);
    return;
  }
  head.append('Hint (', source, '): ' + (hint.exact ? 'exact' : 'estimated') + ' win chance ' + percent(hint.win));
  box.appendChild(head);
  const table = document.createElement('table');
  table.className = 'hint';
  // The few that matter; the board shows the rest (the duel's destinations as a heat map).
  const numbered = s.game === 'danelaw';
  for (const [i, a] of hint.actions.slice(0, HINT_ROWS).entries()) {
    const row = table.insertRow();
    if (a.best) row.className = 'best';
    row.insertCell().textContent = (numbered && a.x !== undefined ? (i + 1) + '. ' : '') + plainWords(a.label) +
                                   (a.best ? '  \u2190 best' : '');
    row.insertCell().textContent = percent(a.win);
    if (hint.count_word) row.insertCell().textContent = a.visits ? a.visits.toLocaleString('en') + ' ' + hint.count_word : '';
  }
  box.appendChild(table);
  if (hint.note) {  // why the starred move can show less than a row below it
    const why = document.createElement('div');
    why.className = 'note hint-why';
    why.textContent = hint.note.charAt(0).toUpperCase() + hint.note.slice(1) + '.';
    box.appendChild(why);
  }
  const more = hint.actions.length - HINT_ROWS;
  if (more > 0) {
    const note = document.createElement('div');
    note.className = 'note';
    note.textContent = 'and ' + more + ' more' + (s.point_input ? ', coloured on the board (deep green is best, \u2605 the best point)' : '') + '.';
    box.appendChild(note);
  } else if (s.point_input) {
    const note = document.createElement('div');
    note.className = 'note';
    note.textContent = 'On the board: deep green is best, \u2605 the best point.';
    box.appendChild(note);
  }
}

const HINT_ROWS = 5;

// The strong agent's estimate of the first side's win chance after every decision (optional).
function drawStrip(container, s) {
  container.innerHTML = '';
  container.hidden = !s.strip;
  if (!s.strip) return;
  const points = s.strip.filter(([ply]) => ply <= s.ply);
  const width = 300, height = 40;
  const svg = el('svg', { viewBox: '0 0 ' + width + ' ' + height, preserveAspectRatio: 'none', id: 'strip-chart' }, container);
  el('rect', { x: 0, y: 0, width: width, height: height, fill: '#f7f4ec' }, svg);
  el('line', { x1: 0, y1: height / 2, x2: width, y2: height / 2, stroke: '#aaa', 'stroke-width': 0.6,
               'stroke-dasharray': '3 3', 'vector-effect': 'non-scaling-stroke' }, svg);
  const last = Math.max(1, s.plies);
  const X = (ply) => width * ply / last, Y = (p) => height * (1 - p);
  if (points.length) {
    el('polyline', { points: points.map(([ply, p]) => X(ply) + ',' + Y(p)).join(' '), fill: 'none',
                     stroke: '#2f6690', 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke' }, svg);
  }
  const label = document.createElement('div');
  label.className = 'strip-label';
  label.textContent = points.length
      ? s.sides[0].name + '\u2019s win chance by the strong agent: ' + percent(points[points.length - 1][1]) +
        ' (' + points.length + (points.length === 1 ? ' position)' : ' positions)')
      : 'The strong agent is weighing the position\u2026';
  container.appendChild(label);
}
