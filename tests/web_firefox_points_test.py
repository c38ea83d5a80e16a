#!/usr/bin/python3
"""`sling serve` in headless Firefox, point by point as a new player meets the page: the points
web_page_points_test.py checks in Chromium, at 1280x720, 390x844 and 1920x1080 (a phone is a frame
of that size in the page: Firefox keeps a window at least 500 pixels wide).

At each size:
- each error outside a game (a bad agent spec, a bad seed, a malformed rules file, a corrupt save
  on Load and on Replay, a gone game's address) is shown in view as Sling's one line, the form
  keeping what was typed;
- the flee after a tied melee (tests/data/web/duel-tie-flee.json) is shaded around David with one
  cell per destination the engine accepts, the hint drawn over the board as a heat map (a cell per
  analysed point, the best starred, five rows at most), the ring labels apart;
- a replay of that game, analysed, leaves the answers given for David out of the errors; its
  graph's text is measured (at least 11 px at 1280x720 and 1920x1080);
- danelaw's town names do not overlap and are at least 11 px (at 390x844 zoomed in twice, where
  each hex to choose takes a tap of at least 24 px);
- web_page_support.LAYOUT_PROBLEMS_JS finds nothing.
Once: a click snaps the flee's ghost inside David's reach and the flee leaves Goliath's trail as
it was; a replay's past plies show their own trails; danelaw's hint of a movement merges equal
moves, numbers them on the map as in the list, and names hexes as the map does.

Usage: web_firefox_points_test.py --sling build/sling --out DIR
"""

import argparse
import json
import math
import os
import re
import shutil
import tempfile
import time

from web_firefox_test import ELEMENT, Firefox, MarionetteError, Page
from web_page_support import (check_danelaw_hint_marks, REACH_JS, RING_OVERLAPS_JS, SIZES, TO_MOVEMENT_JS,
                              TOWN_NAMES_JS, PageWaits, check_hex_words, check_layout, fail, start_server,
                              stop_server)

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "web")
TIE_FLEE = os.path.join(DATA, "duel-tie-flee.json")


def at_each_size(page, path, check):
    """Opens the page's address + `path` at each size and calls check(page, where, width); a phone's
    size is a frame in a window taller than it (in a shorter one, the frame's lower part lies
    outside the window and a click there, such as on Analyse, reaches nothing)."""
    for width, height in SIZES:
        where = "Firefox at %dx%d" % (width, height)
        if width >= 500:
            page.set_size(width, height)
            page.m.command("WebDriver:Navigate", {"url": page.url + path})
            page.wait(lambda: page.js("return window.slingReady === true"), "the page at " + where)
            page.js("window.slingTestErrors = [];"
                    "window.addEventListener('error', (e) => window.slingTestErrors.push(String(e.message)));")
            check(page, where, width)
            continue
        page.set_size(1280, height + 16)
        if page.js("return window.innerHeight") < height:
            fail("Firefox's window is shorter than a %dx%d frame" % (width, height))
        frame = page.js("const f = document.createElement('iframe'); f.id = 'phone-frame';"
                        "f.style = 'position: fixed; top: 0; left: 0; border: 0; width: %dpx; height: %dpx; z-index: 99';"
                        "f.src = arguments[0]; document.body.appendChild(f); return f;" % (width, height),
                        page.url + path)
        page.m.command("WebDriver:SwitchToFrame", {"element": frame[ELEMENT]})
        try:
            page.wait(lambda: page.js("return window.slingReady === true && window.innerWidth === %d" % width),
                      "the page in a phone-sized frame")
            check(page, where + " (a frame)", width)
        finally:
            page.m.command("WebDriver:SwitchToParentFrame")
            page.js("document.getElementById('phone-frame').remove()")
    page.set_size(1280, 720)


def error_shown(page, what, contains):
    page.wait(lambda: page.js("return window.slingBusy === false && !document.getElementById('error').hidden"),
              "the error line for " + what)
    text, in_view = page.js("const e = document.getElementById('error'); const r = e.getBoundingClientRect();"
                            " return [e.textContent, r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight]")
    if not text.startswith("sling: ") or contains not in text or "\n" in text or not in_view:
        fail("%s: the page shows '%s' (in view: %s), not Sling's one line naming '%s'" % (what, text, in_view, contains))
    return text


# A malformed rules file and a corrupt save, written by main() into its scratch folder.
BAD_FILES = {}


def check_errors(page, where, _width):
    """Each error outside a game in view as Sling's one line, the form keeping what was typed."""
    page.choose("side1", "spec")
    page.type("#side1-spec", "mcts:iterations=abc")
    page.type("#seed", "17")
    page.click("#start")
    spec_error = error_shown(page, where + ", a bad agent spec", "abc")
    kept = page.js("return [document.getElementById('side1-spec').value, document.getElementById('seed').value,"
                   " document.getElementById('play').hidden]")
    if kept != ["mcts:iterations=abc", "17", True]:
        fail("%s: after a refused start the form holds %s" % (where, kept))
    page.choose("side1", "easy")
    page.m.command("WebDriver:ElementClear", {"id": page.find("#seed")[ELEMENT]})
    page.type("#seed", "abc")
    page.click("#start")
    text = error_shown(page, where + ", a bad seed", "seed")
    if page.js("return document.getElementById('seed').value") != "abc":
        fail("%s: the form lost the seed typed" % where)
    check_layout(page, where + ", an error")
    page.m.command("WebDriver:ElementClear", {"id": page.find("#seed")[ELEMENT]})
    shown = [spec_error, text]
    # The line hidden before each step, as the page hides it when a request starts: the line then
    # shown is this step's.
    hide = "document.getElementById('error').hidden = true"
    page.js(hide)
    page.type("#rules-file", BAD_FILES["rules"])
    page.click("#start")
    shown.append(error_shown(page, where + ", a malformed rules file", "malformed JSON"))
    for tab, field in (("#tab-load", "#load-file"), ("#tab-replay", "#replay-file")):
        page.click(tab)
        page.js(hide)
        page.type(field, BAD_FILES["save"])
        shown.append(error_shown(page, "%s, a corrupt save on %s" % (where, tab[5:]), "malformed JSON"))
    check_layout(page, where + ", a corrupt save")
    # The page left is marked: the wait is for the new one (which drops the gone address).
    page.js("window.slingTestLeft = true; location.href = arguments[0]", page.url + "?game=0123456789abcdef")
    page.wait(lambda: page.js("return window.slingReady === true && !window.slingTestLeft"),
              "the page of a gone game's address")
    shown.append(error_shown(page, where + ", a gone game's address", "no longer on the server"))
    check_layout(page, where + ", a gone game's address")
    print("%s: %d errors in view (%s)" % (where, len(shown), " / ".join(t[:50] for t in shown)))


def check_flee_shown(page, where, _width):
    """The flee's reach around David, one cell per engine destination, with the hint's heat map."""
    state = page.settle()
    b = state["board"]
    cells = page.js(REACH_JS)
    far = [c for c in cells if math.hypot(c[0] - b["david"]["x"], c[1] - b["david"]["y"]) > b["allowance_cm"] + 0.6]
    if b["mover"] != 0 or not cells or len(cells) != len(b["reach"]) or far:
        fail("%s: the flee shades %d cells for %d destinations, %d beyond David's reach" %
             (where, len(cells), len(b["reach"]), len(far)))
    hint = state["hint"]
    places = [a for a in hint["actions"] if "x" in a]
    heat = page.js("return document.querySelectorAll('#hint-heat rect').length")
    rows = page.js("return document.querySelectorAll('#hint-box table.hint tr').length")
    if not places or heat != len(places) or not page.js("return !!document.getElementById('hint-best')") or rows > 5:
        fail("%s: the hint's %d destinations are drawn as %d cells, %d rows listed" % (where, len(places), heat, rows))
    best = [a for a in hint["actions"] if a["best"]]
    if len(best) != 1 or hint["actions"][0] is not best[0] or abs(best[0]["win"] - hint["win"]) > 0.0015:
        fail("%s: the hint's best row is not first or its win chance is not the headline's" % where)
    higher = [a for a in hint["actions"] if a["win"] > best[0]["win"] + 0.0005]
    if higher and not page.js("return !!document.querySelector('#hint-box .hint-why')"):
        fail("%s: rows below the best show more, and nothing says why" % where)
    pairs = page.js(RING_OVERLAPS_JS)
    if pairs:
        fail("%s: %d pairs of ring labels overlap" % (where, pairs))
    check_layout(page, where + ", the flee")
    print("%s: the flee, %d cells around David; hint on %d cells, %d rows" % (where, len(cells), heat, rows))


def load_flee(page):
    page.open()
    page.click("#tab-load")
    page.type("#load-file", TIE_FLEE)
    page.wait(lambda: page.js("return !!window.slingState"), "the save to load")
    state = page.settle()
    page.click("#hint")
    page.wait(lambda: page.js("return !!window.slingState.hint && !window.slingState.hint_running"), "the hint")
    if page.settle()["hint"]["error"]:
        fail("the duel's hint failed: " + page.settle()["hint"]["error"])
    return state, page.js("return window.slingState.id")


def play_flee(page, state):
    """A click on Goliath puts the ghost inside David's reach; a flee away from him leaves
    Goliath's trail as it was and becomes David's."""
    b = state["board"]
    goliath_trails = state["trails"][1]
    x, y = page.js("return window.slingDuelClientPoint(arguments[0], arguments[1])", b["goliath"]["x"], b["goliath"]["y"])
    page.click_at(x, y)
    page.wait(lambda: page.displayed("#point"), "the ghost to be placed")
    ghost = page.js("return JSON.parse(window.eval('JSON.stringify(pendingPoint)'))")
    text = page.js("return document.getElementById('point-text').textContent")
    if math.hypot(ghost["x"] - b["david"]["x"], ghost["y"] - b["david"]["y"]) > b["allowance_cm"] + 0.01 or \
            "%.1f cm moved" % ghost["move_cm"] not in text:
        fail("Firefox: a click on Goliath puts the ghost at %s, reading '%s'" % (ghost, text))
    dx, dy = b["david"]["x"] - b["goliath"]["x"], b["david"]["y"] - b["goliath"]["y"]
    norm = math.hypot(dx, dy) or 1
    target = [min(max(b["david"][k] + d / norm * b["allowance_cm"] / 2, 1), b["board_cm"] - 1)
              for k, d in (("x", dx), ("y", dy))]
    x, y = page.js("return window.slingDuelClientPoint(arguments[0], arguments[1])", *target)
    page.click_at(x, y)
    page.wait(lambda: page.js("return window.eval('!!pendingPoint && pendingPoint.move_cm > 0')"), "a ghost away from Goliath")
    ghost = page.js("return JSON.parse(window.eval('JSON.stringify(pendingPoint)'))")
    page.click("#point-confirm")
    page.wait(lambda: page.js("return window.slingState.plies > %d" % state["plies"]), "the flee to be played")
    page.settle()
    at_flee = page.js("return fetch('/api/games/' + window.slingState.id + '?ply=%d').then((r) => r.json())" % (state["plies"] + 1))
    if at_flee["trails"][1] != goliath_trails:
        fail("Firefox: Goliath got a new trail though David fled: %s" % at_flee["trails"][1])
    if not at_flee["trails"][0] or at_flee["trails"][0][-1][-1] != [ghost["x"], ghost["y"]]:
        fail("Firefox: David's flee is not his trail: %s" % at_flee["trails"][0])
    print("Firefox: the flee played %.1f cm from David, Goliath's trail kept" % ghost["move_cm"])


def open_replay(page):
    page.open()
    page.click("#tab-replay")
    page.type("#replay-file", TIE_FLEE)
    page.wait(lambda: page.js("return !!window.slingState && window.slingState.mode === 'replay'"), "the replay")
    page.settle()
    seen = set()
    for ply in (8, 16, 24, 33):
        page.js("document.getElementById('replay-ply').value = %d;"
                "document.getElementById('replay-ply').dispatchEvent(new Event('change'))" % ply)
        page.wait(lambda: page.js("return window.slingState.ply === %d" % ply), "ply %d" % ply)
        state = page.settle()
        for side, name in ((0, "david"), (1, "goliath")):
            trails = state["trails"][side]
            if trails and trails[-1][-1] != [state["board"][name]["x"], state["board"][name]["y"]]:
                fail("Firefox: at ply %d the %s trail does not end where he stands" % (ply, name))
        seen.add(json.dumps(state["trails"]))
    if len(seen) < 2:
        fail("Firefox: every ply of the replay shows the same trails")
    automatic = page.js("return [...document.querySelectorAll('#log li.automatic')].map((li) => li.textContent)")
    if not automatic or not all("answered automatically" in t for t in automatic):
        fail("Firefox: the log does not mark the answers given for David: %s" % automatic[:3])
    print("Firefox: the replay's past plies show their own trails; %d answers marked automatic" % len(automatic))
    return page.js("return window.slingState.id")


# Analysis graph font sizes measured per size (the report's figures).
GRAPH_TEXT = {}


def check_analysis(page, where, width):
    page.settle()
    page.click("#analyse")
    page.wait(lambda: page.js("return !!document.querySelector('#game-analysis img.analysis-graph')"
                              " && document.querySelector('#game-analysis img.analysis-graph').complete"),
              "the analysis graph")
    page.settle()
    automatic = set(page.js("return JSON.parse(window.eval("
                                 "'JSON.stringify(analysisShown.a.plies.filter((p) => p.automatic).map((p) => p.ply))'))"))
    listed = set(int(x) for x in page.js(
        "return [...document.querySelectorAll('#game-analysis ol.analysis-errors li')].map((li) => li.dataset.ply)"))
    if not automatic or automatic & listed:
        fail("%s: the analysis rates answers given for David: automatic %s, listed %s" %
             (where, sorted(automatic), sorted(listed)))
    scale = page.js("const g = document.querySelector('#game-analysis img.analysis-graph');"
                    " return g.getBoundingClientRect().width / g.naturalWidth")
    smallest = min(float(s) for s in re.findall(r'font-size="([0-9.]+)"', page.js("return window.eval('analysisShown.svg')")))
    GRAPH_TEXT[width] = smallest * scale
    if smallest * scale < 11:
        fail("%s: the analysis graph's smallest text is %.1f px" % (where, smallest * scale))
    check_layout(page, where + ", the analysis")
    print("%s: analysis leaves %d automatic answers out; graph text %.1f px" % (where, len(automatic), smallest * scale))


def check_danelaw_shown(page, where, width):
    page.settle()
    if width < 500:
        page.click("#map-zoom-in")
        page.click("#map-zoom-in")
    names = page.js(TOWN_NAMES_JS)
    if names["pairs"] or names["smallest"] < 11 or (names["letters"] and names["letters"] < 10.5):
        fail("%s: danelaw's labels: %d overlapping pairs of names, smallest %.1f px, army letters %.1f px" %
             (where, names["pairs"], names["smallest"], names["letters"]))
    if width < 500:
        targets = page.js("return [...document.querySelectorAll('#danelaw-map .hex-choice')].map("
                          "(g) => Math.min(g.getBoundingClientRect().width, g.getBoundingClientRect().height))")
        if not targets or min(targets) < 24:
            fail("%s: danelaw's choices zoomed in are tapped on %.1f px" % (where, min(targets or [0])))
    elif names["shown"] < names["names"]:
        fail("%s: danelaw's whole map hides %d town names" % (where, names["names"] - names["shown"]))
    check_layout(page, where + ", danelaw")
    print("%s: danelaw's names %s" % (where, names))


def check_danelaw_hint(page):
    page.js(TO_MOVEMENT_JS)
    page.m.command("WebDriver:Navigate", {"url": page.url + "?game=" + page.js("return window.slingState.id")})
    state, labels, rows, marks = check_danelaw_hint_marks(page, lambda: page.click("#hint"), "Firefox")
    check_hex_words(labels + rows + [e["text"] for e in state["log"]], "Firefox, the danelaw hint and log")
    print("Firefox: danelaw hint %s, %d numbered on the map" % (rows, len(marks)))


# Inside ctest's TIMEOUT of 300 s (tests/CMakeLists.txt), leaving time to stop Firefox and the server.
TIME_BUDGET_S = 270


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sling", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    started = time.time()
    PageWaits.set_budget(started, TIME_BUDGET_S)
    scratch = tempfile.mkdtemp(prefix="sling-web-firefox-points-")
    server, url = start_server(args.sling, os.path.join(scratch, "cache"))
    BAD_FILES.update(rules=os.path.join(scratch, "bad-rules.json"), save=os.path.join(scratch, "corrupt-save.json"))
    with open(BAD_FILES["rules"], "w") as f:
        f.write("{ not json")
    with open(BAD_FILES["save"], "w") as f:
        f.write('{"format": "sling-record", "game": "duel", "history": [1, 2')
    firefox = None
    try:
        firefox = Firefox(scratch)
        page = Page(firefox, url)
        page.open()
        page.set_size(1280, 720)
        at_each_size(page, "", check_errors)
        state, flee_game = load_flee(page)
        at_each_size(page, "?game=" + flee_game, check_flee_shown)
        page.m.command("WebDriver:Navigate", {"url": url + "?game=" + flee_game})
        page.wait(lambda: page.js("return window.slingReady === true && !!window.slingState"), "the flee again")
        play_flee(page, page.settle())
        replay = open_replay(page)
        at_each_size(page, "?game=" + replay, check_analysis)
        page.new_game("danelaw", "human", "easy", 3)
        danelaw = page.js("return window.slingState.id")
        at_each_size(page, "?game=" + danelaw, check_danelaw_shown)
        page.m.command("WebDriver:Navigate", {"url": url + "?game=" + danelaw})
        page.wait(lambda: page.js("return window.slingReady === true && !!window.slingState"), "danelaw again")
        page.settle()
        check_danelaw_hint(page)
    except MarionetteError as error:
        fail(str(error))
    finally:
        if firefox:
            firefox.quit()
        stop_server(server)
        shutil.rmtree(scratch, ignore_errors=True)
    print("web_firefox_points_test: passed in %.0f s (analysis text %s px)" %
          (time.time() - started, {w: round(px, 1) for w, px in GRAPH_TEXT.items()}))


if __name__ == "__main__":
    main()
