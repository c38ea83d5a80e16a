// The Analysis panel, after a game and in a replay: the server analyses the whole game on a
// worker (play/web/web_analysis.h, as `sling analyse` does), and the panel shows its graph of the
// first side's win chance, each side's totals and the errors.  A click on an error goes to the
// position where it was made (the replay's step mechanism) and shows the better move.
'use strict';

let analysisShown = null;  // {id, plies, a} of the analysis in the panel
let analysisPick = null;   // the error picked in the list

// A game over, a replay, or a finished game looked back at (its ply before its end).
function analysable(s) {
  return s.mode === 'replay' || s.over || s.ply < s.plies;
}

function signedPoints(change) {
  return (change >= 0 ? '+' : '\u2212') + Math.abs(100 * change).toFixed(1) + ' points';
}

function sideName(a, side) {
  const name = a.sides[side].side;
  return name.charAt(0).toUpperCase() + name.slice(1);
}

// Called with every state drawn: the Analyse button, and the panel of this game kept.
function renderGameAnalysis(s) {
  $('analyse').hidden = !analysable(s);
  const shown = analysisShown && analysisShown.id === gameId && analysisShown.plies === s.plies;
  if (!shown) {
    analysisShown = null;
    analysisPick = null;
    $('game-analysis').hidden = true;
    return;
  }
  for (const item of $('game-analysis').querySelectorAll('li[data-ply]')) {
    item.classList.toggle('current', Number(item.dataset.ply) - 1 === s.ply);
  }
}

async function requestAnalysis() {
  const id = gameId;
  const box = $('game-analysis');
  box.hidden = false;
  box.textContent = 'Analysing the game\u2026';
  let reply = await api('POST', '/api/games/' + id + '/analysis', {});
  while (reply.status === 'running' && id === gameId) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    reply = await api('GET', '/api/games/' + id + '/analysis');
  }
  if (id !== gameId) return;
  if (reply.status !== 'done') {
    box.hidden = true;
    throw new Error('No analysis: ' + (reply.error || 'the game has changed; try again'));
  }
  analysisShown = { id: id, plies: reply.analysis.plies.length, a: reply.analysis, svg: reply.svg };
  analysisPick = null;
  drawAnalysis();
}

function drawAnalysis() {
  const { a, svg } = analysisShown;
  const box = $('game-analysis');
  box.innerHTML = '';
  const head = document.createElement('h3');
  head.textContent = 'Analysis';
  const source = document.createElement('div');
  source.className = 'note';
  const automatic = a.plies.filter((p) => p.automatic).length;
  const who = (side) => sideName(a, side) + (a.sides[side].player ? ' (' + a.sides[side].player + ')' : '');
  source.textContent = who(0) + ' against ' + who(1) + '. Values: ' + plainSource(a.values.source) +
      '. The graph: ' + sideName(a, 0) + '\u2019s win chance, ply by ply; errors and big rolls marked.' +
      (automatic ? ' ' + automatic + (automatic === 1 ? ' answer' : ' answers') +
                   ' given automatically for the player (God\u2019s question not asked) are not rated.' : '');
  // An image, not inline markup: the graph is drawn, never run.
  const graph = document.createElement('img');
  graph.className = 'analysis-graph';
  graph.alt = 'win chance over the game';
  graph.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);
  // Never narrower than its smallest text needs to read at 11 px: on a phone the graph scrolls
  // sideways in its box rather than shrinking its words.
  const drawnWidth = Number((svg.match(/<svg[^>]*\swidth="([0-9.]+)"/) || [])[1]);
  const smallestText = Math.min(...[...svg.matchAll(/font-size="([0-9.]+)"/g)].map((m) => Number(m[1])));
  if (drawnWidth > 0 && smallestText > 0 && isFinite(smallestText))
    graph.style.minWidth = Math.ceil(11.2 * drawnWidth / smallestText) + 'px';
  const graphBox = document.createElement('div');
  graphBox.className = 'analysis-graph-box';
  graphBox.appendChild(graph);
  box.append(head, source, graphBox, graphLegend(), totalsTable(a));

  const errors = a.plies.filter((p) => p.side >= 0 && p.error && !p.automatic);
  const title = document.createElement('div');
  title.textContent = errors.length ? 'Errors (click one to see its position and the better move):'
                                    : 'No errors.';
  box.appendChild(title);
  const list = document.createElement('ol');
  list.className = 'analysis-errors';
  for (const p of errors) {
    const item = document.createElement('li');
    item.dataset.ply = p.ply;
    item.className = 'error-' + p.error.replace(' ', '-');
    item.textContent = 'ply ' + p.ply + (p.turn ? ', turn ' + p.turn : '') + ': ' + sideName(a, p.side) + ' ' +
                       plainWords(p.text) + ' (' + p.error + ', ' + signedPoints(-p.loss) + ')';
    item.addEventListener('click', () => run(() => goToError(p)));
    list.appendChild(item);
  }
  box.appendChild(list);
  const move = document.createElement('div');
  move.id = 'analysis-move';
  box.appendChild(move);
  if (analysisPick) showBetterMove(analysisPick);
  if (game) renderGameAnalysis(game);
}

// The graph's legend, as the page's text (the graph itself carries only its axes).
function graphLegend() {
  const legend = document.createElement('div');
  legend.className = 'analysis-legend';
  for (const [cls, label] of [['doubtful', 'doubtful'], ['bad', 'bad'], ['very-bad', 'very bad'],
                              ['luck', 'a roll worth 10 points or more, pointing the way it went']]) {
    const item = document.createElement('span');
    const mark = document.createElement('i');
    mark.className = 'mark-' + cls;
    item.append(mark, label);
    legend.appendChild(item);
  }
  return legend;
}

// Each side's totals, a column per side and a row per figure: eight columns side by side do not
// fit a phone's panel at a readable size, three do at every width.
function totalsTable(a) {
  const table = document.createElement('table');
  table.className = 'analysis-totals';
  const header = table.insertRow();
  header.appendChild(document.createElement('th'));
  for (const [side, entry] of a.sides.entries()) {
    const cell = document.createElement('th');
    cell.textContent = sideName(a, side) + (entry.player ? ' (' + entry.player + ')' : '');
    header.appendChild(cell);
  }
  const figures = [['decisions', (t) => t.decisions], ['doubtful', (t) => t.errors.doubtful],
                   ['bad', (t) => t.errors.bad], ['very bad', (t) => t.errors['very bad']],
                   ['luck (points)', (t) => signedPoints(t.luck).replace(' points', '')],
                   ['result', (t) => t.result.toFixed(1)],
                   ['adjusted for luck', (t) => t.adjusted_result.toFixed(3)]];
  for (const [label, value] of figures) {
    const row = table.insertRow();
    const name = document.createElement('th');
    name.textContent = label;
    row.appendChild(name);
    for (const entry of a.sides) row.insertCell().textContent = value(entry.totals);
  }
  table.title = 'luck: the dice\u2019s part of the result; adjusted: the result less the luck';
  return table;
}

// The position before the error, with the better move and both values for the side that erred.
async function goToError(p) {
  analysisPick = p;
  await replayTo(p.ply - 1);
  showBetterMove(p);
}

function showBetterMove(p) {
  const a = analysisShown.a;
  const box = $('analysis-move');
  if (!box) return;
  box.textContent = 'Ply ' + p.ply + ': ' + sideName(a, p.side) + ' played ' + plainWords(p.text) +
                    ' (' + percent(p.chosen) + '); better: ' + plainWords(p.best_text) + ' (' +
                    percent(p.best) + '), ' + p.error + ', ' + signedPoints(-p.loss) + '.';
}
