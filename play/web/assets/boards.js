// The three boards: the duel to scale with a centimetre scale, each side's last move as a trail
// and the moving figure animated; danelaw's map, zoomed and panned, with the armies' paths; Pig's
// scores and die, large.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';

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

// ---- animation: brief, skippable (any key or click, or the Animate box) ------------------------

const ANIMATION_MS = 450;
let motions = {};      // figure id -> {from, to, start}: survives a redraw of the board
let lastFigures = null;  // {key, ply, figures: {id: [x, y]}} of the board drawn last

function animationsOn() {
  return $('animate').checked && !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function skipAnimations() {
  motions = {};
  trailMotions = [];
  for (const node of document.querySelectorAll('#movers > *')) node.remove();
  for (const node of document.querySelectorAll('[data-moving]')) {
    node.removeAttribute('transform');
    node.removeAttribute('data-moving');
  }
  for (const die of document.querySelectorAll('.die.rolling')) die.classList.remove('rolling');
  window.slingAnimating = false;
}

function resetBoardViews() {
  motions = {};
  trailMotions = [];
  seenTrails = null;
  lastFigures = null;
  mapView = null;
}

// Starts moving the figures whose place changed since the last board (a move forwards), and
// places every moving figure where its motion has got to.
function animateFigures(key, ply, figures) {
  const previous = lastFigures && lastFigures.key === key ? lastFigures : null;
  lastFigures = { key: key, ply: ply, figures: figures };
  if (previous && ply > previous.ply && animationsOn()) {
    for (const id in figures) {
      const [x0, y0] = previous.figures[id] || figures[id], [x1, y1] = figures[id];
      if (x0 !== x1 || y0 !== y1) motions[id] = { from: [x0, y0], to: [x1, y1], start: performance.now() };
    }
  }
  stepMotions();
}

function stepMotions() {
  const now = performance.now();
  let running = false;
  for (const id in motions) {
    const m = motions[id];
    const node = document.getElementById(id);
    const t = Math.min(1, (now - m.start) / ANIMATION_MS);
    if (!node || t >= 1) {
      delete motions[id];
      if (node) { node.removeAttribute('transform'); node.removeAttribute('data-moving'); }
      continue;
    }
    const ease = 1 - (1 - t) * (1 - t);
    node.setAttribute('transform', 'translate(' + (m.from[0] - m.to[0]) * (1 - ease) + ' ' + (m.from[1] - m.to[1]) * (1 - ease) + ')');
    node.setAttribute('data-moving', String(m.start));  // when it started: a key skips the ones running
    running = true;
  }
  window.slingAnimating = running;
  if (running) requestAnimationFrame(stepMotions);
}

// Danelaw's armies: a marker runs along each new path (the armies themselves are the server's
// drawing).  The trails already on the board when a game opens are not run again.
const TRAIL_MS = 700;
let trailMotions = [];  // {points, side, start}
let seenTrails = null;  // the trails shown so far, by their points

function animateTrails(s) {
  const keys = [];
  (s.trails || []).forEach((group, side) => group.forEach((trail) => keys.push([JSON.stringify(trail), trail, side])));
  const first = seenTrails === null;
  if (first) seenTrails = new Set();
  for (const [key, trail, side] of keys) {
    if (seenTrails.has(key)) continue;
    seenTrails.add(key);
    if (!first && animationsOn() && trail.length > 1) trailMotions.push({ points: trail, side: side, start: performance.now() });
  }
  stepTrails();
}

function stepTrails() {
  const movers = document.getElementById('movers');
  const now = performance.now();
  trailMotions = trailMotions.filter((m) => now - m.start < TRAIL_MS);
  if (movers) movers.innerHTML = '';
  for (const m of trailMotions) {
    // Along the path at constant speed, hex by hex.
    const t = (now - m.start) / TRAIL_MS * (m.points.length - 1);
    const i = Math.min(m.points.length - 2, Math.floor(t)), f = t - i;
    const [x0, y0] = m.points[i], [x1, y1] = m.points[i + 1];
    if (movers) {
      el('circle', { cx: x0 + (x1 - x0) * f, cy: y0 + (y1 - y0) * f, r: 7, fill: ['#b03020', '#2a4f9a'][m.side],
                     stroke: 'white', 'stroke-width': 2, 'data-moving': String(m.start) }, movers);
    }
  }
  window.slingAnimating = trailMotions.length > 0 || Object.keys(motions).length > 0;
  if (trailMotions.length) requestAnimationFrame(stepTrails);
}

// ---- the duel ---------------------------------------------------------------------------------

// The duel: the board to scale (1 unit = 1 cm), David's base line at the bottom, a centimetre
// scale on the left and at the bottom.
function drawDuel(container, s) {
  const b = s.board;
  const size = b.board_cm;
  const svg = el('svg', { viewBox: '-2.6 -0.6 ' + (size + 3.2) + ' ' + (size + 3.3), id: 'duel-board' }, container);
  const Y = (y) => size - y;
  el('rect', { x: 0, y: 0, width: size, height: size, fill: '#efe3c2', stroke: '#6b5a3a', 'stroke-width': 0.1 }, svg);
  for (let v = 5; v < size; v += 5) {
    el('line', { x1: v, y1: 0, x2: v, y2: size, stroke: '#d9caa0', 'stroke-width': 0.05 }, svg);
    el('line', { x1: 0, y1: v, x2: size, y2: v, stroke: '#d9caa0', 'stroke-width': 0.05 }, svg);
  }
  // The scale: a tick every centimetre, a number every five.
  const scale = el('g', { id: 'duel-scale', fill: '#4a3d26', stroke: '#6b5a3a', 'stroke-width': 0.06 }, svg);
  for (let v = 0; v <= size; ++v) {
    const long = v % 5 === 0 ? 0.55 : 0.25;
    el('line', { x1: v, y1: size, x2: v, y2: size + long }, scale);
    el('line', { x1: 0, y1: Y(v), x2: -long, y2: Y(v) }, scale);
    if (v % 5 === 0) {
      text(scale, v, size + 1.55, v, { 'font-size': 0.9, 'text-anchor': 'middle', stroke: 'none' });
      text(scale, -0.75, Y(v) + 0.3, v, { 'font-size': 0.9, 'text-anchor': 'end', stroke: 'none' });
    }
  }
  text(scale, size, size + 2.5, 'cm', { 'font-size': 0.8, 'text-anchor': 'end', stroke: 'none' });
  const clip = el('clipPath', { id: 'board-clip' }, el('defs', {}, svg));
  el('rect', { x: 0, y: 0, width: size, height: size }, clip);
  const rings = el('g', { 'clip-path': 'url(#board-clip)' }, svg);
  for (const ring of b.rings) {
    el('circle', { cx: b.goliath.x, cy: Y(b.goliath.y), r: ring.r, fill: 'none', stroke: '#8c6d3f',
                   'stroke-width': 0.08, 'stroke-dasharray': '0.4 0.3' }, rings);
  }
  // The reachable area after the movement roll: every legal destination's lattice cell.
  if (b.reach.length) {
    const cell = b.pitch_cm;
    const reach = el('g', { id: 'duel-reach', fill: b.mover === 0 ? '#3a7d44' : '#9c2f2f', 'fill-opacity': 0.28 }, svg);
    for (const [x, y] of b.reach) el('rect', { x: x - cell / 2, y: Y(y) - cell / 2, width: cell, height: cell }, reach);
  }
  drawDuelHint(svg, s, Y);
  // Each side's last move: a trail from where the figure stood, and its old place outlined.
  const colours = ['#2f6690', '#7a4b2a'];
  (s.trails || []).forEach((group, side) => {
    for (const trail of group) {
      const [from, to] = [trail[0], trail[trail.length - 1]];
      const r = side === 0 ? b.david.r : b.goliath.r;
      const g = el('g', { class: 'trail', 'data-side': side }, svg);
      el('circle', { cx: from[0], cy: Y(from[1]), r: r, fill: 'none', stroke: colours[side], 'stroke-width': 0.1,
                     'stroke-dasharray': '0.25 0.2', opacity: 0.8 }, g);
      el('line', { x1: from[0], y1: Y(from[1]), x2: to[0], y2: Y(to[1]), stroke: colours[side], 'stroke-width': 0.25,
                   'stroke-linecap': 'round', opacity: 0.55 }, g);
    }
  });
  const placedLabels = [];  // each ring's label box: the next keeps clear of them
  for (const ring of b.rings) ringLabel(svg, b, ring, size, placedLabels);
  const figure = (id, f, fill, label) => {
    const g = el('g', { id: id }, svg);
    el('circle', { cx: f.x, cy: Y(f.y), r: f.r, fill: fill, stroke: '#222', 'stroke-width': 0.1 }, g);
    text(g, f.x, Y(f.y) + 0.35, label, { 'font-size': 1, 'text-anchor': 'middle', fill: 'white', 'font-weight': 'bold' });
  };
  figure('goliath-figure', b.goliath, '#7a4b2a', 'G');
  figure('david-figure', b.david, '#2f6690', 'D');
  animateFigures(s.id + ':duel', s.ply, { 'david-figure': [b.david.x, Y(b.david.y)], 'goliath-figure': [b.goliath.x, Y(b.goliath.y)] });
  if (pendingPoint && s.point_input) {
    const mover = b.mover === 0 ? b.david : b.goliath;  // David after a tie or a flee test
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
  $('board-caption').textContent = 'Gap ' + b.gap_cm.toFixed(1) + ' cm' + (b.contact ? ' (in contact)' : '') +
      '. David hits on a d6 \u2264 ' + b.shooting.david + ', Goliath\u2019s javelin on \u2264 ' + b.shooting.goliath +
      '. ' + (b.stone ? 'David has a stone. ' : 'David has no stone. ') +
      (b.shield ? 'Goliath has his shield' : 'Goliath fights two-handed') +
      (b.javelin ? ' and his javelin. ' : '. ') + (b.dazed ? 'Goliath is dazed. ' : '') +
      (b.god_available ? 'God is unused.' : 'God has been invoked.');
}

// The hint of a destination, on the board: every analysed point as a cell coloured from the
// worst (pale) to the best (deep green), and the best point ringed with a star.
function drawDuelHint(svg, s, Y) {
  const hint = s.hint;
  if (!hint || !s.point_input || hint.error) return;
  const places = hint.actions.filter((a) => a.x !== undefined);
  if (!places.length) return;
  const wins = places.map((a) => a.win);
  const low = Math.min(...wins), high = Math.max(...wins);
  const cell = s.board.pitch_cm;
  const heat = el('g', { id: 'hint-heat' }, svg);
  for (const a of places) {
    const t = high > low ? (a.win - low) / (high - low) : 1;
    const r = el('rect', { x: a.x - cell / 2, y: Y(a.y) - cell / 2, width: cell, height: cell,
                           fill: 'rgb(' + Math.round(235 - 200 * t) + ',' + Math.round(225 - 90 * t) + ',' +
                                 Math.round(120 - 80 * t) + ')', 'fill-opacity': 0.75, class: 'hint-cell' }, heat);
    el('title', {}, r).textContent = a.label + ': ' + percent(a.win);
  }
  const best = places.find((a) => a.best) || places[0];
  const mark = el('g', { id: 'hint-best', 'pointer-events': 'none' }, svg);
  el('circle', { cx: best.x, cy: Y(best.y), r: 0.9, fill: 'none', stroke: 'white', 'stroke-width': 0.35 }, mark);
  el('circle', { cx: best.x, cy: Y(best.y), r: 0.9, fill: 'none', stroke: '#0b4f2a', 'stroke-width': 0.18 }, mark);
  text(mark, best.x, Y(best.y) + 0.3, '\u2605', { 'font-size': 0.9, 'text-anchor': 'middle', fill: '#0b4f2a' });
}

// A ring's label where it can be read: on the ring, inside the board, as far from both figures
// as the ring allows (never under David's base, never off the board, never over another ring's
// label: `placed` holds their boxes).
function ringLabel(svg, b, ring, size, placed) {
  const label = ring.cm + ' cm: David ' + ring.david + ', Goliath ' + ring.goliath;
  const half = label.length * 0.19;  // half the label's width at font size 0.7
  let best = null;
  for (let degrees = 0; degrees < 360; degrees += 5) {
    const a = degrees * Math.PI / 180;
    const x = b.goliath.x + ring.r * Math.cos(a), y = b.goliath.y + ring.r * Math.sin(a);
    if (x - half < 0.3 || x + half > size - 0.3 || y < 0.8 || y > size - 0.8) continue;
    if (placed.some((p) => Math.abs(p.x - x) < p.half + half + 0.3 && Math.abs(p.y - y) < 1.0)) continue;
    const clearance = Math.min(Math.hypot(x - b.david.x, y - b.david.y) - b.david.r - half,
                               Math.hypot(x - b.goliath.x, y - b.goliath.y) - b.goliath.r);
    const score = clearance - Math.abs(Math.sin(a)) * 0.5;  // prefer the ring's sides, where text lies flat along it
    if (!best || score > best.score) best = { x: x, y: y, score: score };
  }
  if (!best) return;
  placed.push({ x: best.x, y: best.y, half: half });
  text(svg, best.x, size - best.y + 0.25, label, { 'font-size': 0.7, 'text-anchor': 'middle', fill: '#4a3d26',
       stroke: '#efe3c2', 'stroke-width': 0.25, 'paint-order': 'stroke', class: 'ring-label' });
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

// ---- danelaw ------------------------------------------------------------------------------

const HEX_COLOURS = { army: '#f4d03f', move: '#27ae60', attack: '#c0392b', roll: '#e67e22',
                      rout: '#8e44ad', place: '#2980b9' };
let mapView = null;  // the map's zoom and pan: a viewBox [x, y, w, h], kept from board to board

// Danelaw: the server's map SVG, with the hexes of the current choice and the armies' last moves
// laid over it; the wheel or the buttons zoom, dragging pans, and the towns' names keep a legible
// size on screen.
function drawDanelaw(container, s) {
  const b = s.board;
  const holder = document.createElement('div');
  holder.id = 'map-holder';
  holder.innerHTML = b.svg;
  container.appendChild(holder);
  const svg = holder.querySelector('svg');
  const full = svg.getAttribute('viewBox').split(/[ ,]+/).map(Number);
  const fit = [full[0], full[1], full[2], mapHeight(svg, full)];
  const legend = svg.querySelector('.legend');
  if (legend) legend.remove();
  // The map lies on the sea: the box around it is sea too, not white.
  const background = svg.querySelector('rect[width="100%"]');
  if (background) background.remove();
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  svg.id = 'danelaw-map';
  if (!mapView) mapView = fit.slice();
  svg.setAttribute('viewBox', mapView.join(' '));
  const overlay = el('g', { id: 'choices' }, svg);
  const sideColours = ['#b03020', '#2a4f9a'];
  (s.trails || []).forEach((group, side) => {
    for (const trail of group) {
      const g = el('g', { class: 'trail', 'data-side': side }, overlay);
      el('polyline', { points: trail.map(([x, y]) => x + ',' + y).join(' '), fill: 'none', stroke: 'white',
                       'stroke-width': 7, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', opacity: 0.8 }, g);
      el('polyline', { points: trail.map(([x, y]) => x + ',' + y).join(' '), fill: 'none', stroke: sideColours[side],
                       'stroke-width': 3.5, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', 'stroke-dasharray': '7 4' }, g);
      el('circle', { cx: trail[0][0], cy: trail[0][1], r: 4, fill: sideColours[side] }, g);
    }
  });
  el('g', { id: 'movers' }, overlay);
  for (const [key, colour] of [['selected', '#e0a800'], ['target', '#c0392b'], ['rout', '#8e44ad']]) {
    if (!b[key]) continue;
    el('circle', { cx: b[key].x, cy: b[key].y, r: 14, fill: 'none', stroke: 'white', 'stroke-width': 7 }, overlay);
    el('circle', { cx: b[key].x, cy: b[key].y, r: 14, fill: 'none', stroke: colour, 'stroke-width': 4, class: 'ring-' + key }, overlay);
  }
  for (const a of s.actions) {
    if (a.hex === undefined) continue;
    const g = el('g', { class: 'hex-choice', 'data-code': a.code, 'data-kind': a.kind, 'data-hex': a.hex }, overlay);
    const title = el('title', {}, g);
    title.textContent = a.label + (a.cost !== undefined ? ' (' + a.cost + ' MP)' : '');
    const small = a.kind === 'place';  // hundreds of sea hexes: small marks
    // The whole hex takes the tap, whatever the mark's size: 30 units, 24 px from about 0.8 px a
    // unit (a phone's map zoomed in twice).  Neighbouring hexes' areas do not overlap.
    el('circle', { cx: a.x, cy: a.y, r: 15, fill: 'transparent', class: 'hex-target' }, g);
    el('circle', { cx: a.x, cy: a.y, r: small ? 5 : 9, fill: HEX_COLOURS[a.kind] || '#2980b9',
                   'fill-opacity': a.kind === 'army' ? 0.25 : 0.55, stroke: HEX_COLOURS[a.kind] || '#2980b9',
                   'stroke-width': small ? 1.2 : 2 }, g);
    if (a.cost !== undefined) {
      text(g, a.x, a.y + 3.5, a.cost, { 'font-size': 10, 'font-weight': 'bold', 'text-anchor': 'middle', fill: 'white' });
    }
    g.addEventListener('click', () => { if (!mapDragged) run(() => act(a.code)); });
  }
  // Over the choices' rings, which would cover its numbers; clicks pass through it to them.
  drawDanelawHint(overlay, s);
  const tools = document.createElement('div');
  tools.className = 'map-tools';
  for (const [label, id, factor] of [['+', 'map-zoom-in', 0.7], ['\u2212', 'map-zoom-out', 1 / 0.7], ['fit', 'map-fit', 0]]) {
    const b2 = document.createElement('button');
    b2.type = 'button';
    b2.id = id;
    b2.textContent = label;
    b2.title = factor ? 'zoom (or the mouse wheel; drag to pan)' : 'the whole map';
    b2.addEventListener('click', () => {
      if (factor) zoomMap(svg, fit, factor, mapView[0] + mapView[2] / 2, mapView[1] + mapView[3] / 2);
      else { mapView = fit.slice(); applyMapView(svg); }
    });
    tools.appendChild(b2);
  }
  container.appendChild(tools);
  container.appendChild(mapLegend());
  wireMapGestures(svg, fit);
  applyMapView(svg);
  animateTrails(s);
  const side = s.sides[b.side] ? s.sides[b.side].name : '';
  $('board-caption').textContent = 'Turn ' + b.turn + ' of ' + b.turn_limit + ': ' + side +
      (b.movement_dice.length ? ', movement roll ' + b.movement_dice.join('+') : '') +
      (b.movement_dice.length ? ', ' + b.points + ' movement points left' : '') + '. Danes hold ' + b.danish_towns + ' of ' + b.towns +
      ' towns (' + b.towns_to_win + ' to win). Armies on the map: Danes ' + b.armies[0] +
      ', English ' + b.armies[1] + '; in reserve: ' + b.pool[0] + ' and ' + b.pool[1] + '.';
}

// The hint's first moves numbered on the map where they act (the list says the same numbers).
function drawDanelawHint(overlay, s) {
  const hint = s.hint;
  if (!hint || hint.error) return;
  const marks = el('g', { id: 'hint-marks', 'pointer-events': 'none' }, overlay);
  const k = armyScale(mapScale(overlay.ownerSVGElement));  // as large as the armies they sit on
  // Each number at the first corner of its hex (top right, then the others, then farther out)
  // clear of the numbers placed before it: packed armies, or moves at one hex, would stack them.
  const placed = [];
  const corners = [[1, -1], [-1, -1], [1, 1], [-1, 1], [1.4, 0], [-1.4, 0],
                   [2.8, 0], [-2.8, 0], [0, -2.8], [0, 2.8]];
  hint.actions.slice(0, HINT_ROWS).forEach((a, i) => {
    if (a.x === undefined) return;
    const g = el('g', { class: 'hint-mark' + (a.best ? ' best' : '') }, marks);
    // Clear as boxes, not only as circles: a number's box, its white ring included, is 15.5 units
    // square (scaled by k), and two boxes that touch read as one blot.
    const clearance = ([cx, cy]) =>
      Math.min(Infinity, ...placed.map(([px, py]) => Math.max(Math.abs(cx - px), Math.abs(cy - py))));
    const spots = corners.map(([dx, dy]) => [a.x + 9 * k * dx, a.y + 9 * k * dy]);
    const [x, y] = spots.find((p) => clearance(p) >= 16 * k) ||
                   spots.reduce((best, p) => (clearance(p) > clearance(best) ? p : best));
    placed.push([x, y]);
    el('circle', { cx: x, cy: y, r: 7 * k, fill: a.best ? '#0b4f2a' : '#333', stroke: 'white', 'stroke-width': 1.5 * k }, g);
    text(g, x, y + 3.5 * k, i + 1, { 'font-size': 10 * k, 'font-weight': 'bold', 'text-anchor': 'middle', fill: 'white' });
  });
}

// The map's height without the legend the server draws below it (the page shows its own).
function mapHeight(svg, full) {
  let bottom = 0;
  for (const p of svg.querySelectorAll('polygon')) {
    for (const pair of p.getAttribute('points').trim().split(/\s+/)) bottom = Math.max(bottom, Number(pair.split(',')[1]));
  }
  return bottom > 0 ? Math.min(full[3], bottom + 20 - full[1]) : full[3];
}

function mapLegend() {
  const legend = document.createElement('div');
  legend.className = 'map-legend';
  const items = [['#9cc3e6', 'sea'], ['#efe6b8', 'plain'], ['#b89470', 'hills'], ['#8fc4b0', 'wetland'],
                 ['#5f9a5a', 'forest'], ['#1f5fbf', 'river (+1 to cross)'], ['#ffffff', 'English town'],
                 ['#c0392b', 'Danish town'], ['#b03020', 'D Danish army'], ['#2a4f9a', 'E English army'],
                 ['#8a9bb5', 'M militia']];
  for (const [colour, label] of items) {
    const item = document.createElement('span');
    const swatch = document.createElement('i');
    swatch.style.background = colour;
    item.append(swatch, label);
    legend.appendChild(item);
  }
  return legend;
}

// Town names at least 11 px on screen however far the map is zoomed out; hex labels only when
// they can be read.
function applyMapView(svg) {
  svg.setAttribute('viewBox', mapView.join(' '));
  const pxPerUnit = mapScale(svg);
  const townSize = Math.max(8, 11.1 / pxPerUnit);
  for (const t of svg.querySelectorAll('text.town')) t.style.fontSize = townSize + 'px';
  scaleArmies(svg, pxPerUnit);
  placeTownNames(svg, townSize);
  svg.classList.toggle('zoomed-in', pxPerUnit >= 1.6);
}

// The armies' squares (12 units, the server's drawing) grown about their centres so that their
// letters (D, E, M) read at 11 px or more, up to nearly a hex (2.4 times): zoomed in, they are
// drawn as the server drew them.
function armyScale(pxPerUnit) {
  return Math.min(2.4, Math.max(1, 11.1 / (9 * pxPerUnit)));
}

function scaleArmies(svg, pxPerUnit) {
  const k = armyScale(pxPerUnit);
  for (const r of svg.querySelectorAll('rect[rx="2"]')) {
    const cx = Number(r.getAttribute('x')) + 6, cy = Number(r.getAttribute('y')) + 6;
    const transform = k === 1 ? '' : 'translate(' + cx + ' ' + cy + ') scale(' + k + ') translate(' + -cx + ' ' + -cy + ')';
    for (const node of [r, r.nextElementSibling]) {
      if (!node) continue;
      if (transform) node.setAttribute('transform', transform); else node.removeAttribute('transform');
      if (node.tagName === 'text') node.classList.add('army-letter');
    }
  }
}

// The towns' names at the size the view needs, placed again so that none overlaps another name,
// a town or an army: each at the first free place around its town (below, above, beside, then
// the diagonals, then farther out with a leader line).  A name with no free place at this zoom
// is hidden (its town's tooltip still names it) until the map is zoomed in.
function placeTownNames(svg, size) {
  for (const line of svg.querySelectorAll('line.town-leader')) line.remove();
  const towns = [...svg.querySelectorAll('text.town')];
  const taken = [];
  const markers = [];
  for (const t of towns) {
    if (!t.slingTown) {
      // The town's circle precedes its name (a server leader line may lie between).
      let c = t.previousElementSibling;
      while (c && c.tagName !== 'circle') {
        const previous = c.previousElementSibling;
        if (c.tagName === 'line') c.remove();
        c = previous;
      }
      t.slingTown = c ? { x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')), r: Number(c.getAttribute('r')) }
                      : { x: Number(t.getAttribute('x')), y: Number(t.getAttribute('y')), r: 0 };
      if (c) el('title', {}, c).textContent = t.textContent;
    }
    const m = t.slingTown;
    markers.push([m.x - m.r, m.y - m.r, m.x + m.r, m.y + m.r]);
  }
  taken.push(...markers);
  // The marks of the hexes to choose (not the hundreds of small placement marks at sea).
  for (const c of svg.querySelectorAll('.hex-choice:not([data-kind="place"]) circle:not(.hex-target)')) {
    const x = Number(c.getAttribute('cx')), y = Number(c.getAttribute('cy')), r = Number(c.getAttribute('r'));
    taken.push([x - r, y - r, x + r, y + r]);
  }
  const half = 6 * armyScale(mapScale(svg));  // the armies, as scaleArmies grew them
  for (const r of svg.querySelectorAll('rect[rx="2"]')) {
    const cx = Number(r.getAttribute('x')) + 6, cy = Number(r.getAttribute('y')) + 6;
    taken.push([cx - half, cy - half, cx + half, cy + half]);
  }
  const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  const view = mapView;
  const ctm = svg.getScreenCTM();
  for (const t of towns) {
    const m = t.slingTown;
    t.style.display = '';
    // The name's box as this browser draws it, about its anchor (Firefox's box of a text is
    // taller than Chromium's, up to 1.55 em): the glyphs' usual extent is the least it takes.
    let width = t.getComputedTextLength ? t.getComputedTextLength() : t.textContent.length * 0.6 * size;
    let above = 0.95 * size, below = 0.3 * size;
    if (ctm && ctm.a > 0) {
      const r = t.getBoundingClientRect(), y = Number(t.getAttribute('y'));
      if (r.height > 0) {
        width = Math.max(width, r.width / ctm.a);
        above = Math.max(above, y - (r.top - ctm.f) / ctm.d);
        below = Math.max(below, (r.bottom - ctm.f) / ctm.d - y);
      }
    }
    const half = width / 2 + 0.1 * size, gap = 0.25 * size;
    const candidates = [];
    for (const reach of [1, 2.2, 3.4, 4.6, 5.8]) {
      const step = above + below - 0.05 * size;  // a line of names, 1.2 em where the box is 1.25
      const down = m.r + gap + above - 0.05 * size + (reach - 1) * step;
      const up = -(m.r + gap + below + (reach - 1) * step);
      const side = m.r + gap + half + (reach - 1) * size;
      const mid = 0.3 * size;
      candidates.push([0, down, reach], [0, up, reach], [side, mid, reach], [-side, mid, reach],
                      [side, down, reach], [-side, down, reach], [side, up, reach], [-side, up, reach]);
    }
    let placed = null;
    for (const [dx, dy, reach] of candidates) {
      const x = m.x + dx, y = m.y + dy;
      const box = [x - half, y - above, x + half, y + below];
      if (box[0] < view[0] || box[2] > view[0] + view[2]) continue;
      if (taken.some((b) => overlaps(b, box))) continue;
      placed = { x: x, y: y, box: box, leader: reach > 1 };
      break;
    }
    if (!placed) { t.style.display = 'none'; continue; }
    t.setAttribute('x', placed.x);
    t.setAttribute('y', placed.y);
    taken.push(placed.box);
    if (placed.leader) {
      const line = el('line', { x1: m.x, y1: m.y, x2: placed.x, y2: placed.y - 0.3 * size, stroke: '#222',
                                'stroke-width': 0.6 * size / 8, class: 'town-leader' });
      t.parentNode.insertBefore(line, t);
    }
  }
}

// Screen pixels per map unit (the view is fitted whole into the box: preserveAspectRatio meet).
function mapScale(svg) {
  const r = svg.getBoundingClientRect();
  return Math.max(1e-3, Math.min((r.width || 1) / mapView[2], (r.height || 1) / mapView[3]));
}

function zoomMap(svg, fit, factor, cx, cy) {
  const w = Math.min(fit[2] * 1.2, Math.max(fit[2] / 8, mapView[2] * factor));
  const scale = w / mapView[2];
  mapView = [cx - (cx - mapView[0]) * scale, cy - (cy - mapView[1]) * scale, w, mapView[3] * scale];
  applyMapView(svg);
}

let mapDragged = false;  // a drag that panned the map is no click on a hex

function wireMapGestures(svg, fit) {
  svg.addEventListener('wheel', (event) => {
    event.preventDefault();
    const p = svgPoint(svg, event.clientX, event.clientY);
    zoomMap(svg, fit, event.deltaY > 0 ? 1.15 : 1 / 1.15, p.x, p.y);
  }, { passive: false });
  let drag = null;
  svg.addEventListener('pointerdown', (event) => {
    drag = { x: event.clientX, y: event.clientY, view: mapView.slice(), moved: false };
    mapDragged = false;
  });
  svg.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 6) return;
    drag.moved = mapDragged = true;
    const perPx = 1 / mapScale(svg);
    mapView = [drag.view[0] - dx * perPx, drag.view[1] - dy * perPx, mapView[2], mapView[3]];
    applyMapView(svg);
  });
  const end = () => { drag = null; setTimeout(() => { mapDragged = false; }, 0); };
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointerleave', end);
}

// ---- Pig ------------------------------------------------------------------------------------

// Pig: both scores large with bars towards the goal, the turn total at risk, the last die.
function drawPig(container, s) {
  const b = s.board;
  const wrap = document.createElement('div');
  wrap.id = 'pig-board';
  s.sides.forEach((side, i) => {
    const row = document.createElement('div');
    row.className = 'pig-player' + (s.to_move === i ? ' to-move' : '');
    const atRisk = !s.over && b.to_move === i && b.turn_total > 0;
    const head = document.createElement('div');
    head.className = 'pig-head';
    const score = document.createElement('span');
    score.className = 'pig-score';
    score.textContent = b.scores[i];
    head.append(side.name + ' (' + playerName(s, i) + ') ', score, ' of ' + b.goal + (atRisk ? ', ' + b.turn_total + ' at risk' : ''));
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
    row.append(head, bar);
    wrap.appendChild(row);
  });
  const middle = document.createElement('div');
  middle.className = 'pig-middle';
  const last = lastRoll(s);
  if (last) renderDice(middle, last.faces || [], s.id + ':' + last.ply, 96);
  const total = document.createElement('div');
  total.className = 'pig-total';
  total.textContent = s.over ? s.result : 'Turn total ' + b.turn_total;
  middle.appendChild(total);
  wrap.insertBefore(middle, wrap.children[1]);
  container.appendChild(wrap);
  $('board-caption').textContent = 'Goal ' + b.goal + '. Roll: a 1 loses the turn total and passes the turn; hold banks it.';
}
