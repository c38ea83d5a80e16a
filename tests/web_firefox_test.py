#!/usr/bin/python3
"""End-to-end test of `sling serve` in a real headless Firefox (Debian's firefox-esr).

Debian 12 has no geckodriver, so the test drives Firefox itself: `firefox-esr --headless
--marionette` listens on a local port (the profile's user.js sets `marionette.port` to a free one)
and a small client below speaks Marionette's protocol over TCP (Python's standard library only).
Marionette's commands are WebDriver's: new session, navigate, find, click, type, pointer actions,
scripts and screenshots, carried out by Firefox as for a person (a click is a real mouse event at
the element's centre).

Plays, by clicking as a person would: a whole game of Pig (the rules uploaded as a file, the hold
button saying what it banks); a whole duel as David against an agent (a destination clicked inside
the shaded reach, God's question by the terminal's rule with its stakes shown, dice with pips, the
centimetre scale, both sides' last moves drawn, a reload that resumes the game and a tab that asks
before leaving it); a danelaw move (an army, then a destination hex, its path drawn, the map
zoomed).  At 1280x720, 390x844 and 1920x1080 it checks what a player would see go wrong
(web_page_support.LAYOUT_PROBLEMS_JS).  The duel board's screenshot goes to --out and must not be
blank.  If the browser cannot start, the test fails with the reason: it never skips.

Usage: web_firefox_test.py --sling build/sling --out DIR
"""

import argparse
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib

from web_page_support import (INNER_SIZE_JS, MAP_JS, MARK_BOARD_JS, SIZES, PageWaits, check_dice, check_duel_scale,
                              check_layout, check_trails, fail, start_server, stop_server, wait_for_redraw)

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # WebDriver's key of an element reference


class MarionetteError(Exception):
    pass


class Marionette:
    """Marionette's wire protocol: each message is `LENGTH:JSON`; the server says hello first;
    a command is [0, id, name, params] and its reply [1, id, error, result]."""

    def __init__(self, port, timeout):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buffer = b""
        self.next_id = 0
        hello = self._receive()
        if not isinstance(hello, dict) or hello.get("marionetteProtocol") != 3:
            raise MarionetteError("unexpected hello: %r" % hello)

    def _receive(self):
        while b":" not in self.buffer:
            self._read()
        length, rest = self.buffer.split(b":", 1)
        length = int(length)
        self.buffer = rest
        while len(self.buffer) < length:
            self._read()
        message, self.buffer = self.buffer[:length], self.buffer[length:]
        return json.loads(message)

    def _read(self):
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise MarionetteError("Firefox closed the connection")
        self.buffer += chunk

    def command(self, name, params=None):
        self.next_id += 1
        data = json.dumps([0, self.next_id, name, params or {}]).encode()
        self.sock.sendall(str(len(data)).encode() + b":" + data)
        while True:
            reply = self._receive()
            if isinstance(reply, list) and len(reply) == 4 and reply[0] == 1 and reply[1] == self.next_id:
                break
        if reply[2]:
            raise MarionetteError("%s: %s: %s" % (name, reply[2].get("error"), reply[2].get("message")))
        result = reply[3]
        return result.get("value") if isinstance(result, dict) and "value" in result else result

    def close(self):
        self.sock.close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Firefox:
    """firefox-esr, headless, in a fresh profile, with Marionette on a free port."""

    def __init__(self, scratch):
        binary = shutil.which("firefox-esr") or shutil.which("firefox")
        if not binary:
            fail("firefox-esr is missing; scripts/bootstrap.sh installs it")
        self.profile = tempfile.mkdtemp(prefix="sling-firefox-", dir=scratch)
        port = free_port()
        prefs = {
            "marionette.port": port,
            "browser.shell.checkDefaultBrowser": False,
            "browser.startup.homepage_override.mstone": "ignore",
            "browser.aboutwelcome.enabled": False,
            "datareporting.policy.dataSubmissionEnabled": False,
            "toolkit.telemetry.reportingpolicy.firstRun": False,
            "app.update.disabledForTesting": True,
            "browser.download.folderList": 2,
            "browser.download.dir": scratch,
        }
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            for key, value in prefs.items():
                f.write("user_pref(%s, %s);\n" % (json.dumps(key), json.dumps(value)))
        self.log_path = os.path.join(scratch, "firefox.log")
        self.log = open(self.log_path, "w")
        env = dict(os.environ, MOZ_HEADLESS="1", MOZ_CRASHREPORTER_DISABLE="1")
        env.setdefault("HOME", scratch)
        self.process = subprocess.Popen(
            [binary, "--headless", "--marionette", "--no-remote", "-profile", self.profile],
            stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.client = None
        # A first start in a fresh profile takes seconds, and on a loaded machine a minute or more:
        # wait for as long as Firefox runs, until the test's own deadline.
        started = time.time()
        while self.client is None:
            if self.process.poll() is not None:
                fail("the browser cannot start: firefox-esr exited with %d: %s"
                     % (self.process.returncode, self.log_tail()))
            if time.time() > PageWaits.deadline:
                self.quit()
                fail("the browser cannot start: no Marionette on port %d after %.0f s: %s"
                     % (port, time.time() - started, self.log_tail()))
            try:
                # No command waits longer than the test has left.
                self.client = Marionette(port, timeout=max(1.0, PageWaits.deadline - time.time()))
            except (OSError, MarionetteError):
                time.sleep(0.2)
        try:
            self.client.command("WebDriver:NewSession", {"strictFileInteractability": True})
            # A script that waits on the page (an async one, playing through danelaw's placements
            # against the agent) may take as long as the test has left, not WebDriver's 30 s.
            self.client.command("WebDriver:SetTimeouts",
                                {"script": int(1000 * max(30.0, PageWaits.deadline - time.time()))})
            # The window's outer size; the page sees a little less.
            self.client.command("WebDriver:SetWindowRect", {"width": 1280, "height": 900})
        except (OSError, MarionetteError) as error:
            self.quit()
            fail("the browser cannot start a session: %s" % error)

    def log_tail(self):
        self.log.flush()
        with open(self.log_path, errors="replace") as f:
            return " | ".join(f.read().strip().splitlines()[-5:]) or "(no output)"

    def quit(self):
        if self.client:
            try:
                self.client.command("WebDriver:DeleteSession")
                self.client.command("Marionette:Quit", {"flags": ["eForceQuit"]})
            except (OSError, MarionetteError):
                pass
            self.client.close()
        else:
            self.process.terminate()  # never connected: nobody else tells it to quit
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


class Page(PageWaits):
    def __init__(self, firefox, url):
        self.m = firefox.client
        self.url = url

    def js(self, script, *args):
        return self.m.command("WebDriver:ExecuteScript", {"script": script, "args": list(args)})

    def find(self, css):
        return self.m.command("WebDriver:FindElement", {"using": "css selector", "value": css})

    def find_all(self, css):
        return self.m.command("WebDriver:FindElements", {"using": "css selector", "value": css})

    def click(self, element):
        """A click as a person makes it: Firefox scrolls the element into view and sends the mouse
        events to its centre (an element covered by another is an error)."""
        if isinstance(element, str):
            element = self.find(element)
        self.m.command("WebDriver:ElementClick", {"id": element[ELEMENT]})

    def type(self, css, text):
        self.m.command("WebDriver:ElementSendKeys", {"id": self.find(css)[ELEMENT], "text": text})

    def text(self, element):
        return self.m.command("WebDriver:GetElementText", {"id": element[ELEMENT]})

    def attribute(self, element, name):
        return self.m.command("WebDriver:GetElementAttribute", {"id": element[ELEMENT], "name": name})

    def displayed(self, css):
        return self.m.command("WebDriver:IsElementDisplayed", {"id": self.find(css)[ELEMENT]})

    def choose(self, select_id, value):
        """Picks an option of a drop-down list by clicking it."""
        self.click("#%s option[value='%s']" % (select_id, value))
        chosen = self.js("return document.getElementById(arguments[0]).value", select_id)
        if chosen != value:
            fail("choosing '%s' in #%s left '%s'" % (value, select_id, chosen))

    def click_at(self, x, y):
        """A mouse click at a point of the window (CSS pixels from the top left)."""
        self.m.command("WebDriver:PerformActions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "x": int(round(x)), "y": int(round(y)), "origin": "viewport"},
                        {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})
        self.m.command("WebDriver:ReleaseActions")

    def click_marked(self, group):
        """Clicks a marked hex of the map (an SVG group: a circle and maybe its cost on top) at its
        centre with the mouse.  WebDriver's element click cannot: Firefox finds no box of a group's
        own to scroll to, and takes the cost's text for another element covering the circle."""
        x, y, hit = self.js("""
            const g = arguments[0];
            g.scrollIntoView({block: 'center'});
            const r = g.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            return [x, y, g.contains(document.elementFromPoint(x, y))];""", group)
        if not hit:
            fail("a marked hex is covered by another element")
        self.click_at(x, y)

    def buttons(self, container_id):
        """The buttons a person sees and can press in a container, with their labels."""
        found = self.find_all("#%s button" % container_id)
        return [(b, self.text(b)) for b in found
                if self.m.command("WebDriver:IsElementDisplayed", {"id": b[ELEMENT]})
                and self.m.command("WebDriver:IsElementEnabled", {"id": b[ELEMENT]})]

    def open(self):
        self.m.command("WebDriver:Navigate", {"url": self.url})
        self.wait(lambda: self.js("return window.slingReady === true"), "the page to load")
        # Script errors from here on are collected and fail the test (Marionette has no console log).
        self.js("window.slingTestErrors = [];"
                "window.addEventListener('error', (e) => window.slingTestErrors.push(String(e.message)));"
                "window.addEventListener('unhandledrejection', (e) => window.slingTestErrors.push(String(e.reason)));")

    def new_game(self, game, side0, side1, seed, rules_file=None):
        self.open()
        self.choose("game", game)
        if rules_file:
            self.type("#rules-file", rules_file)
        self.choose("side0", side0)
        self.choose("side1", side1)
        self.type("#seed", str(seed))
        self.click("#start")
        self.wait(lambda: self.js("return !!window.slingState"), "the game to start")
        return self.settle()

    def set_size(self, width, height):
        """The viewport in CSS pixels: the window is sized, then corrected by what its frame takes.
        Returns once the page has drawn its board for the size it has then."""
        self.resize_window(width, height)
        inner = self.js(INNER_SIZE_JS)
        if inner != [width, height]:
            self.resize_window(2 * width - inner[0], 2 * height - inner[1])
        inner = self.js(INNER_SIZE_JS)
        if abs(inner[0] - width) > 2:
            fail("Firefox's window shows %s CSS pixels, not %dx%d" % (inner, width, height))

    def resize_window(self, width, height):
        """Sets the window's outer size; once the page shows another size, waits for its board
        to be drawn anew for it."""
        before = self.js(INNER_SIZE_JS)
        board_shown = self.js(MARK_BOARD_JS)
        self.m.command("WebDriver:SetWindowRect", {"width": width, "height": height})
        if self.js(INNER_SIZE_JS) != before:
            wait_for_redraw(self, board_shown, "in a window of %dx%d" % (width, height))

    def at_every_size(self, where):
        """Checks the page at each size.  Firefox keeps a window at least 500 pixels wide, so a
        phone's screen is a frame of that size in the page, showing the same address (the game)."""
        for width, height in SIZES:
            if width >= 500:
                self.set_size(width, height)
                check_layout(self, "Firefox, %s at %dx%d" % (where, width, height))
                continue
            self.set_size(1280, height + 16)  # the whole frame in the window
            frame = self.js("const f = document.createElement('iframe'); f.id = 'phone-frame';"
                            "f.style = 'position: fixed; top: 0; left: 0; border: 0; width: %dpx; height: %dpx; z-index: 99';"
                            "f.src = location.href; document.body.appendChild(f); return f;" % (width, height))
            self.m.command("WebDriver:SwitchToFrame", {"element": frame[ELEMENT]})
            try:
                self.wait(lambda: self.js("return window.slingReady === true && window.innerWidth === %d" % width),
                          "the page in a phone-sized frame")
                self.settle()  # the frame's page draws its board for its size as it opens the game
                check_layout(self, "Firefox, %s at %dx%d (a frame)" % (where, width, height))
            finally:
                self.m.command("WebDriver:SwitchToParentFrame")
                self.js("document.getElementById('phone-frame').remove()")
        self.set_size(1280, 720)

    def screenshot(self, path):
        """Saves a PNG of the window; returns its pixels' distinct colours."""
        data = __import__("base64").b64decode(self.m.command("WebDriver:TakeScreenshot", {}))
        with open(path, "wb") as f:
            f.write(data)
        print("screenshot: " + path)
        return png_colours(data)


def png_colours(data):
    """The number of distinct colours of an 8-bit RGB or RGBA PNG (what Firefox writes)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("the screenshot is not a PNG")
    pos, chunks, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace:
        fail("unexpected screenshot format %s" % (header,))
    channels = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    previous = bytearray(stride)
    colours = set()
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 255
            elif kind == 4:
                corner = previous[i - channels] if i >= channels else 0
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        if row % 4 == 0:  # every fourth row is plenty to tell a drawn board from a blank one
            colours.update(bytes(line[i:i + 3]) for i in range(0, stride, channels * 2))
        previous = line
    return len(colours)


# The duel, as David: the first God offer is taken (re-roll), later ones declined; destinations
# are clicked on the board at the reachable point nearest Goliath.
DUEL_PREFERENCE = ["behead", "shoot", "fight", "recover", "search", "move", "flee", "stay"]


def check_no_game_lost(page, state):
    """A reload resumes the game its address names; a tab asks before leaving it."""
    if page.js("return location.search") != "?game=" + state["id"]:
        fail("the address does not name the game: " + page.js("return location.href"))
    page.m.command("WebDriver:Navigate", {"url": page.js("return location.href")})
    page.wait(lambda: page.js("return window.slingReady === true"), "the page to reload")
    resumed = page.settle()
    if resumed["id"] != state["id"] or resumed["ply"] != state["ply"]:
        fail("a reload did not resume the game")
    page.click("#tab-load")
    if not page.displayed("#leave-dialog"):
        fail("the Load tab left the game without asking")
    page.click("#leave-no")
    if page.displayed("#leave-dialog") or not page.displayed("#play"):
        fail("staying did not keep the game on the page")


def play_duel(page, out, opponent):
    state = page.new_game("duel", "human", opponent, 11)
    names = [page.text(p) for p in page.find_all("#players .player")]
    if names != ["you", opponent]:
        fail("the players are shown as %s, not ['you', '%s']" % (names, opponent))
    # God's question by the terminal's rule: the initiative is accepted for David, unasked.
    if state["board"]["god_prompt"] or not state["log"][1].get("automatic"):
        fail("God's question came after the initiative")
    god_used = stakes_seen = trails_seen = False
    clicked_destination = False
    for _ in range(400):
        state = page.settle()
        if state["over"]:
            break
        assert state["human_turn"], "not David's turn but nobody is thinking"
        moved = {e["text"].split(":")[0] for e in state["log"] if ": to " in e["text"]}
        if not trails_seen and moved >= {"David", "Goliath"}:
            check_trails(page, "#duel-board .trail", [0, 1], "Firefox, the duel")
            trails_seen = True
        if state["board"]["god_prompt"]:
            page.wait(lambda: page.displayed("#god"), "the God prompt")
            if not stakes_seen:
                page.wait(lambda: page.js("return document.querySelectorAll('#god-stakes table.stakes tr').length >= 2"),
                          "God's stakes")
                stakes_seen = True
            wanted = "re-roll" if not god_used else "accept"
            button = next(b for b, label in page.buttons("god-actions") if label.startswith(wanted))
            god_used = god_used or wanted == "re-roll"
            page.click(button)
            continue
        if state["point_input"]:
            board = state["board"]
            goliath = board["goliath"]
            target = min(board["reach"], key=lambda p: (p[0] - goliath["x"]) ** 2 + (p[1] - goliath["y"]) ** 2)
            if not clicked_destination:
                colours = page.screenshot(os.path.join(out, "firefox-duel.png"))
                if colours < 8:
                    fail("the duel board's screenshot is blank (%d colours)" % colours)
                check_dice(page, "Firefox, the duel's movement roll")
                check_duel_scale(page, state)
                page.at_every_size("the duel")
                check_no_game_lost(page, state)
            x, y = page.js("return window.slingDuelClientPoint(arguments[0], arguments[1])", *target)
            page.click_at(x, y)
            page.wait(lambda: page.displayed("#point"), "the distance to show")
            shown = page.text(page.find("#point-text"))
            if " cm moved" not in shown:
                fail("the clicked destination shows '%s'" % shown)
            clicked_destination = True
            page.click("#point-confirm")
            continue
        buttons = page.buttons("actions")
        if not buttons:
            fail("no action buttons for David")
        # Move at least once (the point of the test), then play the preferences in order.
        for word in (["move"] if not clicked_destination else []) + DUEL_PREFERENCE:
            match = [b for b, label in buttons if label.startswith(word)]
            if match:
                page.click(match[0])
                break
        else:
            page.click(buttons[0][0])
    state = page.settle()
    if not state["over"]:
        fail("the duel did not finish")
    if not god_used or not stakes_seen:
        fail("God was never offered to David, or without the stakes")
    if not clicked_destination or not trails_seen:
        fail("no destination was clicked on the board, or both sides' last moves were not drawn")
    print("duel: " + state["result"] + " after %d plies" % state["plies"])


def play_danelaw_move(page):
    state = page.new_game("danelaw", "human", "easy", 3)
    for _ in range(200):
        state = page.settle()
        if "army" in {a.get("kind") for a in state["actions"]}:
            break
        # Placing armies at sea, or a reinforcement: click the first marked hex.
        marked = page.find_all("#choices .hex-choice")
        if marked:
            page.click_marked(marked[0])
        else:
            page.click(page.buttons("actions")[0][0])
    else:
        fail("the Danes never got to move an army")
    army = page.find_all("#choices .hex-choice[data-kind='army']")[0]
    army_hex = page.attribute(army, "data-hex")
    page.click_marked(army)
    state = page.settle()
    destinations = page.find_all("#choices .hex-choice[data-kind='move']")
    if not destinations:
        fail("no destination hexes shown for the chosen army")
    view = page.js(MAP_JS)
    page.click("#map-zoom-in")
    if not page.js(MAP_JS)["view"][2] < 0.8 * view["view"][2]:
        fail("zooming in did not enlarge the map")
    page.click("#map-fit")
    page.at_every_size("danelaw")
    destinations = page.find_all("#choices .hex-choice[data-kind='move']")  # drawn anew
    to_hex = page.attribute(destinations[-1], "data-hex")
    page.click_marked(destinations[-1])
    state = page.settle()
    moved = [e["text"] for e in state["log"] if e["side"] == 0 and e["text"].startswith("Danes: to ")]
    if not moved:
        fail("the army did not move (from hex %s to hex %s)" % (army_hex, to_hex))
    check_trails(page, "#choices .trail", [0], "Firefox, the Danes' move")
    print("danelaw: " + moved[-1])


def play_pig(page, scratch):
    # A short game: the rules file (uploaded as a person would) sets the goal to 40.
    rules = os.path.join(scratch, "pig-rules.json")
    with open(rules, "w") as f:
        f.write('{"goal": 40}\n')
    state = page.new_game("pig", "human", "easy", 2, rules)
    if state["board"]["goal"] != 40:
        fail("the uploaded rules were not used (goal %s)" % state["board"]["goal"])
    checked = False
    for _ in range(1000):
        state = page.settle()
        if state["over"]:
            break
        if not checked and state["board"]["turn_total"] > 0:
            b = state["board"]
            hold = next(label for _, label in page.buttons("actions") if label.startswith("hold"))
            wanted = "hold: bank %d, score %d \u2192 %d" % (b["turn_total"], b["scores"][0], b["scores"][0] + b["turn_total"])
            if not hold.startswith(wanted):
                fail("Pig's hold button reads '%s', not '%s'" % (hold, wanted))
            check_dice(page, "Pig's die")
            page.at_every_size("Pig")
            checked = True
        hold = state["board"]["turn_total"] >= 20
        button = next(b for b, label in page.buttons("actions") if label.startswith("hold" if hold else "roll"))
        page.click(button)
    if not state["over"]:
        fail("the game of Pig did not finish")
    print("pig: " + state["result"])


def check_errors_and_the_flee(page):
    """An error outside a game is shown in view as Sling's one line, the form keeping what was
    typed; the flee after a tied melee, loaded from its save, is shaded around David."""
    page.open()
    page.type("#seed", "abc")
    page.click("#start")
    page.wait(lambda: page.js("return window.slingBusy === false && !document.getElementById('error').hidden"),
              "the error line")
    text, top = page.js("const e = document.getElementById('error');"
                        " return [e.textContent, e.getBoundingClientRect().top]")
    if not text.startswith("sling: ") or "seed" not in text or top < 0 or \
            page.js("return document.getElementById('seed').value") != "abc":
        fail("Firefox: a bad seed shows '%s' at %s px, the form keeping '%s'" %
             (text, top, page.js("return document.getElementById('seed').value")))
    page.click("#tab-load")
    page.type("#load-file", os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "web",
                                         "duel-tie-flee.json"))
    page.wait(lambda: page.js("return !!window.slingState"), "the save to load")
    state = page.settle()
    b = state["board"]
    cells = page.js("return [...document.querySelectorAll('#duel-reach rect')].map((r) =>"
                    " [Number(r.getAttribute('x')) + Number(r.getAttribute('width')) / 2,"
                    " window.slingState.board.board_cm - Number(r.getAttribute('y')) - Number(r.getAttribute('height')) / 2])")
    if b["mover"] != 0 or len(cells) != len(b["reach"]) or any(
            ((x - b["david"]["x"]) ** 2 + (y - b["david"]["y"]) ** 2) ** 0.5 > b["allowance_cm"] + 0.6 for x, y in cells):
        fail("Firefox: the flee after a tie is not shaded around David")
    print("Firefox: errors in view (%s); the tie-flee shaded around David (%d cells)" % (text, len(cells)))


# How long the test may take before its waits give up: inside ctest's TIMEOUT of 240 s
# (tests/CMakeLists.txt), leaving time to stop Firefox (at most 15 s) and the server (10 s).
TIME_BUDGET_S = 210


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sling", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--opponent", default="easy", help="Goliath's agent in the duel")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    started = time.time()
    PageWaits.set_budget(started, TIME_BUDGET_S)
    scratch = tempfile.mkdtemp(prefix="sling-web-firefox-")
    server, url = start_server(args.sling, os.path.join(scratch, "cache"))
    firefox = None
    try:
        firefox = Firefox(scratch)
        page = Page(firefox, url)
        print("browser: %s" % page.js("return navigator.userAgent"))
        page.open()
        page.set_size(1280, 720)
        play_pig(page, scratch)
        play_duel(page, args.out, args.opponent)
        play_danelaw_move(page)
        check_errors_and_the_flee(page)
    except MarionetteError as error:
        fail(str(error))
    finally:
        if firefox:
            firefox.quit()
        stop_server(server)
        shutil.rmtree(scratch, ignore_errors=True)
    print("web_firefox_test: passed in %.0f s" % (time.time() - started))


if __name__ == "__main__":
    main()
