"""What the two browser tests of `sling serve` share (web_browser_test.py drives Chromium through
Selenium, web_firefox_test.py drives Firefox over Marionette): failing with the reason, starting
the server, and waiting for the page.  A page class mixes in PageWaits and supplies js()."""

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
    def wait(self, condition, what, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            if condition():
                return
            time.sleep(0.05)
        error = self.js("return document.getElementById('error').textContent")
        fail("timed out waiting for " + what + (": page error " + error if error else ""))

    def settle(self):
        """Waits until no request is in flight and no agent is thinking; fails on a page error or
        a script error the test recorded (window.slingTestErrors)."""
        self.wait(lambda: self.js("return window.slingBusy === false && !!window.slingState"),
                  "the game to settle")
        error = self.js("return document.getElementById('error').hidden ? '' : "
                        "document.getElementById('error').textContent")
        if error:
            fail("the page shows an error: " + error)
        errors = self.js("return window.slingTestErrors || []")
        if errors:
            fail("the page reports a script error: " + errors[0])
        return self.js("return window.slingState")


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


def check_layout(page, where):
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
