"""What the two browser tests of `sling serve` share (web_browser_test.py drives Chromium through
Selenium, web_firefox_test.py drives Firefox over Marionette): failing with the reason, starting
the server, and waiting for the page.  A page class mixes in PageWaits and supplies js().

Every wait is for a state of the page (a game settled, a board drawn again, a figure moving), never
for a time: on a loaded machine agents think, pages draw and browsers start later, each by however
much.  A wait gives up only at the test's own deadline (PageWaits.deadline, which each test sets
just inside its ctest TIMEOUT), when something is stuck, so that it fails with what it was waiting
for rather than being killed."""

import os
import subprocess
import sys
import time


def fail(message):
    name = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    print(name + ": FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def start_server(sling, cache):
    """Starts `sling serve` on a free port; returns the process and the URL it printed.  The
    server's caches (the `strong` duel agent's solution) go to `cache`, a fresh folder, so that no
    run depends on an earlier one."""
    process = subprocess.Popen([sling, "serve", "--port", "0", "--ai-seconds", "5"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env=dict(os.environ, XDG_CACHE_HOME=cache))
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        fail("`sling serve` did not print its URL: " + line.strip())
    return process, line[line.index("http://"):].split()[0]


def stop_server(process):
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


class PageWaits:
    deadline = None  # time.time() at which every wait gives up: set by the test from its budget

    @classmethod
    def set_budget(cls, started, seconds):
        cls.deadline = started + seconds

    def wait(self, condition, what):
        while not condition():
            if time.time() > self.deadline:
                error = self.js("return document.getElementById('error').textContent")
                fail("still waiting for " + what + " when the test's time ran out" +
                     (": page error " + error if error else ""))
            time.sleep(0.05)

    def settle(self):
        """Waits until no request is in flight and no agent is thinking; fails on a page error or
        a script error the test recorded (window.slingTestErrors).  Returns the state shown at that
        moment, read together with the page's busy flag (read apart, a state shown in between
        could be returned)."""
        settled = []

        def idle():
            settled[:] = [self.js("return window.slingBusy === false ? window.slingState : null")]
            return settled[0] is not None

        self.wait(idle, "the game to settle")
        error = self.js("return document.getElementById('error').hidden ? '' : "
                        "document.getElementById('error').textContent")
        if error:
            fail("the page shows an error: " + error)
        errors = self.js("return window.slingTestErrors || []")
        if errors:
            fail("the page reports a script error: " + errors[0])
        return settled[0]


# Before a resize: marks the board drawn now, so that a wait can tell when the page has drawn it
# anew, and notes when the page sees the window resized; returns whether a board is shown.
MARK_BOARD_JS = r"""
const drawn = document.querySelector('#board > *');
if (drawn) drawn.dataset.slingDrawn = 'before';
window.slingTestResized = false;
window.addEventListener('resize', () => { window.slingTestResized = true; }, { once: true });
return !!window.slingState && !!drawn;
"""
BOARD_REDRAWN_JS = "const d = document.querySelector('#board > *'); return !!d && d.dataset.slingDrawn !== 'before'"
INNER_SIZE_JS = "return [window.innerWidth, window.innerHeight]"


def wait_for_redraw(page, board_shown, what):
    """After the window was resized to another size: waits until the page has seen it and, when a
    board was shown (`board_shown`, MARK_BOARD_JS's answer from before the resize), has drawn the
    board anew for the new size (it does so once the resizing has stopped for a moment)."""
    page.wait(lambda: page.js("return window.slingTestResized === true"), "the page to be resized " + what)
    if board_shown:
        page.wait(lambda: page.js(BOARD_REDRAWN_JS), "the board to be drawn again " + what)


# What a player would see go wrong on the page as it stands, as a list of sentences (empty: none):
# a page wider than the window, text cut off or sticking out of its box, a prompt with the
# terminal's typing hints or cut short, a duel ring label off the board or under David's base, a
# move number not shown whole, a player named by a raw agent spec.
LAYOUT_PROBLEMS_JS = r"""
const problems = [];
const vw = window.innerWidth;
const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ')[0] : '') +
    ' "' + (e.textContent || '').trim().slice(0, 60) + '"';
const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
                         getComputedStyle(e).visibility !== 'hidden'; };
if (document.documentElement.scrollWidth > vw + 1)
  problems.push('the page is ' + document.documentElement.scrollWidth + ' px wide in a ' + vw + ' px window');
for (const e of document.querySelectorAll('aside div, aside span, aside li, aside p, aside button, aside td, aside a, ' +
                                          '#board-caption, .map-legend span, .pig-player div, .panel label, #leave-dialog p')) {
  if (!visible(e)) continue;
  const r = e.getBoundingClientRect();
  if (r.right > vw + 1 || r.left < -1) { problems.push('sticks out of the window: ' + name(e)); continue; }
  const style = getComputedStyle(e);
  const scrolls = /(auto|scroll)/.test(style.overflowX + style.overflowY);
  if (!scrolls && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1)
    problems.push('text cut off (' + e.scrollWidth + ' > ' + e.clientWidth + ' px): ' + name(e));
  const parent = e.parentElement.closest('aside > div, aside > details, .panel');
  if (parent && (r.right > parent.getBoundingClientRect().right + 1))
    problems.push('sticks out of its box: ' + name(e));
}
const prompt = document.getElementById('prompt');
if (prompt && visible(prompt)) {
  const t = prompt.textContent.trim();
  if (/[`]|pick a number|\($|, or$|,$| or$/.test(t)) problems.push('a prompt cut short or with typing hints: "' + t + '"');
}
const board = document.querySelector('#duel-board > rect');
const david = document.querySelector('#david-figure circle');
for (const label of document.querySelectorAll('.ring-label')) {
  const r = label.getBoundingClientRect(), b = board.getBoundingClientRect();
  if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1)
    problems.push('a ring label leaves the board: ' + label.textContent);
  const d = david.getBoundingClientRect();
  if (r.left < d.right && r.right > d.left && r.top < d.bottom && r.bottom > d.top)
    problems.push("a ring label lies under David's base: " + label.textContent);
}
const rings = [...document.querySelectorAll('.ring-label')].map((l) => [l, l.getBoundingClientRect()]);
for (let i = 0; i < rings.length; ++i)
  for (let j = i + 1; j < rings.length; ++j) {
    const [a, b] = [rings[i][1], rings[j][1]];
    if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
      problems.push('two ring labels collide: ' + rings[i][0].textContent + ' / ' + rings[j][0].textContent);
  }
const error = document.getElementById('error');
if (!error.hidden && error.textContent) {
  const r = error.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight) problems.push('the error line is out of view: ' + error.textContent);
}
const log = document.getElementById('log');
for (const n of document.querySelectorAll('#log .ply')) {
  if (!visible(n)) continue;
  const r = n.getBoundingClientRect();
  if (!/^\d+\.$/.test(n.textContent) || n.scrollWidth > n.clientWidth + 1 || r.left < log.getBoundingClientRect().left - 1)
    problems.push('a move number is not shown whole: ' + n.textContent);
}
for (const p of document.querySelectorAll('#players .player')) {
  if (visible(p) && /[:=,]/.test(p.textContent)) problems.push('a player named by a raw spec: ' + p.textContent);
}
return problems;
"""

# The three window sizes the page is checked and photographed at (CSS pixels of the viewport).
SIZES = [(1280, 720), (390, 844), (1920, 1080)]


# A figure or a marker moving (a move's animation), or a die rolling: the page as it will stay is
# checked once they have stopped, however late the check comes.
ANIMATING_NOW_JS = ("return document.querySelectorAll('[data-moving]').length > 0 || "
                    "document.getAnimations().some((a) => a.animationName === 'roll' && a.playState === 'running')")


def check_layout(page, where):
    page.wait(lambda: not page.js(ANIMATING_NOW_JS), "the animations to end before checking " + where)
    problems = page.js(LAYOUT_PROBLEMS_JS)
    if problems:
        fail("%s: %s" % (where, "; ".join(problems[:5])))


# Dice drawn with their pips: each die of the last throw is an SVG with as many pips as its face.
DICE_JS = r"""
return [...document.querySelectorAll('#last-roll svg.die')].map(
    (d) => [Number(d.dataset.face), d.querySelectorAll('circle').length]);
"""


def check_dice(page, where):
    dice = page.js(DICE_JS)
    if not dice:
        fail(where + ": the last throw is not drawn as dice")
    for face, pips in dice:
        if not 1 <= face <= 6 or face != pips:
            fail("%s: a die showing %s has %s pips" % (where, face, pips))


# The duel board's centimetre scale: its numbers, every 5 cm from 0 to the board's size.
def check_duel_scale(page, state):
    numbers = page.js("return [...document.querySelectorAll('#duel-scale text')].map((t) => t.textContent)")
    wanted = [str(v) for v in range(0, state["board"]["board_cm"] + 1, 5)]
    if any(numbers.count(v) < 2 for v in wanted):  # along the bottom and up the side
        fail("the duel board's scale shows %s, not %s on both axes" % (numbers, wanted))


# A move's animation: a figure is seen moving, and a key press ends it at once.
ANIMATING_JS = "return document.querySelectorAll('[data-moving]').length"
# The figures still moving whose motion started at or before arguments[0] (performance.now()).
ANIMATING_SINCE_JS = ("return [...document.querySelectorAll('[data-moving]')]"
                      ".filter((n) => Number(n.dataset.moving) <= arguments[0]).length")
# performance.now() and the figures moving whose motion started by then, read at once.
ANIMATING_AT_NOW_JS = ("const now = performance.now(); return [now, [...document.querySelectorAll('[data-moving]')]"
                       ".filter((n) => Number(n.dataset.moving) <= now).length]")
# The page's clock for animations (performance.now, which only they read) slowed ten-thousandfold,
# and put back.  A move's animation, half a second, then lasts longer than a loaded machine takes
# to see it and to press a key while it runs; the clock still moves on, so that a motion that
# starts after the key still starts later than it.
SLOW_CLOCK_JS = r"""
if (!Object.prototype.hasOwnProperty.call(performance, 'now')) {
  const real = performance.now.bind(performance), start = real();
  performance.now = () => start + (real() - start) / 10000;
}
"""
REAL_CLOCK_JS = "delete performance.now;"


def check_trails(page, selector, sides, where):
    found = page.js("return [...document.querySelectorAll(arguments[0])].map((t) => Number(t.dataset.side))", selector)
    for side in sides:
        if side not in found:
            fail("%s: side %d's last move is not drawn (trails of sides %s)" % (where, side, found))


# Danelaw's map: the box it fills, its view, and the towns' names as large as they show.
MAP_JS = r"""
const svg = document.getElementById('danelaw-map'), box = document.getElementById('map-holder');
const names = [...svg.querySelectorAll('text.town')].map((t) => t.getBoundingClientRect().height);
return {box: [box.clientWidth, box.clientHeight], view: svg.getAttribute('viewBox').split(' ').map(Number),
        smallest_name: Math.min(...names), board: document.getElementById('board-area').clientWidth};
"""


# What the two browser tests of a new player's points measure in the page alike.

# The shaded reach: each cell's centre in board centimetres, and the figures' centres.
REACH_JS = r"""
const svg = document.getElementById('duel-board'), size = window.slingState.board.board_cm;
const cells = [...document.querySelectorAll('#duel-reach rect')].map((r) =>
    [Number(r.getAttribute('x')) + Number(r.getAttribute('width')) / 2,
     size - Number(r.getAttribute('y')) - Number(r.getAttribute('height')) / 2]);
return cells;
"""

# Ring labels of the duel that overlap one another (pairs).
RING_OVERLAPS_JS = r"""
const boxes = [...document.querySelectorAll('.ring-label')].map((t) => t.getBoundingClientRect());
let pairs = 0;
for (let i = 0; i < boxes.length; ++i)
  for (let j = i + 1; j < boxes.length; ++j)
    if (boxes[i].left < boxes[j].right && boxes[j].left < boxes[i].right &&
        boxes[i].top < boxes[j].bottom && boxes[j].top < boxes[i].bottom) ++pairs;
return pairs;
"""

# Danelaw's town names as shown: overlapping pairs, the smallest size, and how many are hidden.
TOWN_NAMES_JS = r"""
const names = [...document.querySelectorAll('#danelaw-map text.town')];
const shown = names.filter((t) => getComputedStyle(t).display !== 'none');
const boxes = shown.map((t) => t.getBoundingClientRect());
let pairs = 0;
for (let i = 0; i < boxes.length; ++i)
  for (let j = i + 1; j < boxes.length; ++j)
    if (boxes[i].left < boxes[j].right - 0.5 && boxes[j].left < boxes[i].right - 0.5 &&
        boxes[i].top < boxes[j].bottom - 0.5 && boxes[j].top < boxes[i].bottom - 0.5) ++pairs;
const map = document.getElementById('danelaw-map').getBoundingClientRect();
const inView = shown.filter((t, i) => boxes[i].right > map.left && boxes[i].left < map.right &&
                                     boxes[i].bottom > map.top && boxes[i].top < map.bottom);
const px = inView.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
const letters = [...document.querySelectorAll('#danelaw-map text.army-letter')].filter((t) => {
  const r = t.getBoundingClientRect();
  return r.right > map.left && r.left < map.right && r.bottom > map.top && r.top < map.bottom;
}).map((t) => t.getBoundingClientRect().height / 1.15);
return {names: names.length, shown: shown.length, pairs: pairs, smallest: px.length ? Math.min(...px) : 0,
        letters: letters.length ? Math.min(...letters) : 0};
"""

# Plays the first legal action for the person until an army is to be chosen (the placements
# done), waiting for the agent's replies; the page is then reloaded on the game.  An async
# function's promise: WebDriver waits for it in either browser.
TO_MOVEMENT_JS = r"""
return (async () => {
const id = window.slingState.id;
const get = () => fetch('/api/games/' + id).then((r) => r.json());
for (let i = 0; i < 400; ++i) {
  const s = await get();
  if (s.human_turn && s.actions.some((a) => a.kind === 'army')) return s.ply;
  if (!s.human_turn) { await new Promise((r) => setTimeout(r, 100)); continue; }
  await fetch('/api/games/' + id + '/act', {method: 'POST', headers: {'Content-Type': 'application/json'},
              body: JSON.stringify({action: s.actions[0].code, ply: s.ply})});
}
return -1;
})();
"""


def check_hex_words(labels, where):
    """Danelaw's moves name a hex as the map shows it: by its town, else by its label (shown only
    zoomed in) with the nearest town ("to 1403 near York"), never by a bare number."""
    import re
    bare = [label for label in labels if re.search(r"\b\d{4}\b(?! near [A-Z])", label)]
    if bare:
        fail("%s: moves name hexes by number alone: %s" % (where, bare[:3]))


# Pairs of danelaw's hint numbers on the map that overlap one another.
HINT_MARK_OVERLAPS_JS = r"""
const boxes = [...document.querySelectorAll('#hint-marks circle')].map((c) => c.getBoundingClientRect());
let pairs = 0;
for (let i = 0; i < boxes.length; ++i)
  for (let j = i + 1; j < boxes.length; ++j)
    if (boxes[i].left < boxes[j].right - 0.5 && boxes[j].left < boxes[i].right - 0.5 &&
        boxes[i].top < boxes[j].bottom - 0.5 && boxes[j].top < boxes[i].bottom - 0.5) ++pairs;
return pairs;
"""


def check_danelaw_hint_marks(page, click_hint, where):
    """The hint of a danelaw movement decision, asked for once the page has the game again: equal
    moves merged, one marked best, its first rows numbered on the map as in the list, and the
    numbers clear of each other.  Returns the page's state and the hint's labels and rows."""
    page.wait(lambda: page.js("return window.slingReady === true && !!window.slingState"), "the game again")
    page.settle()
    click_hint()
    page.wait(lambda: page.js("return !!window.slingState.hint && !window.slingState.hint_running"), "the danelaw hint")
    state = page.settle()
    hint = state["hint"]
    labels = [a["label"] for a in hint["actions"]]
    if hint["error"] or len(labels) != len(set(labels)) or sum(a["best"] for a in hint["actions"]) != 1:
        fail("%s: the danelaw hint repeats a move or marks several best: %s" % (where, labels[:8]))
    rows = page.js("return [...document.querySelectorAll('#hint-box table.hint tr')].map((r) => r.cells[0].textContent)")
    marks = page.js("return [...document.querySelectorAll('#hint-marks text')].map((t) => t.textContent)")
    if len(rows) > 5 or marks != [str(i + 1) for i in range(len(marks))] or \
            not all(row.startswith("%d. " % (i + 1)) for i, row in enumerate(rows[:len(marks)])):
        fail("%s: the danelaw hint's rows %s do not match the numbers on the map %s" % (where, rows, marks))
    if page.js(HINT_MARK_OVERLAPS_JS):
        fail("%s: %d pairs of the danelaw hint's numbers on the map overlap" % (where, page.js(HINT_MARK_OVERLAPS_JS)))
    return state, labels, rows, marks
