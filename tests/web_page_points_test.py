#!/usr/bin/python3
"""`sling serve` in headless Chromium, point by point as a new player meets the page:

- every error outside a game (a bad agent spec, a bad seed, a malformed rules file, a corrupt save
  on Load and on Replay, an expired game address) is shown in view as Sling's one line at each of
  the three sizes, and the form keeps what was typed; Start is disabled, with a word, while the
  server sets a game up;
- leaving a game asks with Stay focused, and Back to the game returns to it;
- a save is continued by the players it names;
- the flee after a tied melee (tests/data/web/duel-tie-flee.json) is shaded around David, with as
  many cells as the engine has destinations, and a click snaps the ghost inside David's reach;
  after the flee Goliath keeps his old trail;
- a replay's past ply shows that ply's trails;
- the God answers given for the player are marked in the log and not rated by the analysis;
- the analysis graph's text is at least 11 px, and the analysis and the flee's reach and hint
  pass the layout check, at each of the three sizes;
- the duel's hint at a destination is a heat map with the best point starred, five rows listed;
  danelaw's hint merges equal moves and numbers them on the map as in the list, its moves and the
  log naming each hex by its town or by its label and the nearest town;
- danelaw's town names never overlap and are at least 11 px at 1280x720 and 1920x1080 (all
  shown) and at 390x844 zoomed in, the armies' letters too, and each hex to choose takes a tap of
  at least 24 px there.

Usage: web_page_points_test.py --sling build/sling --out DIR
"""

import argparse
import json
import math
import os
import shutil
import tempfile
import time

from web_browser_test import Page, set_viewport, start_browser
from web_page_support import (REACH_JS, RING_OVERLAPS_JS, SIZES, TO_MOVEMENT_JS,
                              TOWN_NAMES_JS, PageWaits, check_danelaw_hint_marks, check_hex_words, check_layout, fail,
                              start_server, stop_server)

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "web")
TIE_FLEE = os.path.join(DATA, "duel-tie-flee.json")


def open_form(page):
    page.driver.get(page.url)
    page.wait(lambda: page.js("return window.slingReady === true"), "the page to load")


def shown_error(page):
    """The error line once the page is idle: its text, and whether it lies inside the window."""
    page.wait(lambda: page.js("return window.slingBusy === false"), "the request to end")
    return page.js("const e = document.getElementById('error'); const r = e.getBoundingClientRect();"
                   " return [e.hidden ? '' : e.textContent, r.height > 0 && r.top >= 0 &&"
                   " r.bottom <= window.innerHeight]")


def expect_error(page, what, contains):
    text, in_view = shown_error(page)
    if not text:
        # The line hidden before each step (see check_errors_outside_a_game) and not shown again.
        fail("%s: no error line shown" % what)
    if not text.startswith("sling: ") or contains not in text or "\n" in text:
        fail("%s: the page shows '%s', not Sling's one line naming '%s'" % (what, text, contains))
    if not in_view:
        fail("%s: the error line is not in view" % what)
    print("%s: %s" % (what, text))


def check_errors_outside_a_game(page, scratch, size):
    """At a size (width, height): each error in view, the form keeping what was typed.  The error
    line is hidden before each step, as the page hides it when a request starts, so that the line
    then shown is that step's."""
    open_form(page)
    set_viewport(page, *size)
    where = " at %dx%d" % size
    hide = "document.getElementById('error').hidden = true"
    Select(page.driver.find_element(By.ID, "side1")).select_by_value("spec")
    spec = page.driver.find_element(By.ID, "side1-spec")
    spec.send_keys("mcts:iterations=abc")
    page.driver.find_element(By.ID, "seed").send_keys("17")
    page.click("start")
    expect_error(page, "a bad agent spec" + where, "abc")
    if spec.get_attribute("value") != "mcts:iterations=abc" or \
            page.driver.find_element(By.ID, "seed").get_attribute("value") != "17":
        fail("the form lost what was typed after an error")
    if not page.js("return document.getElementById('play').hidden"):
        fail("a game area is shown after a refused start")
    Select(page.driver.find_element(By.ID, "side1")).select_by_value("easy")
    seed = page.driver.find_element(By.ID, "seed")
    seed.clear()
    seed.send_keys("abc")
    page.js(hide)
    page.click("start")
    expect_error(page, "a bad seed" + where, "seed")
    seed.clear()
    rules = os.path.join(scratch, "bad-rules.json")
    with open(rules, "w") as f:
        f.write("{ not json")
    page.driver.find_element(By.ID, "rules-file").send_keys(rules)
    page.js(hide)
    page.click("start")
    expect_error(page, "a malformed rules file" + where, "malformed JSON")
    corrupt = os.path.join(scratch, "corrupt-save.json")
    with open(corrupt, "w") as f:
        f.write('{"format": "sling-record", "game": "duel", "history": [1, 2')
    open_form(page)
    page.click("tab-load")
    page.js(hide)
    page.driver.find_element(By.ID, "load-file").send_keys(corrupt)
    expect_error(page, "a corrupt save on Load" + where, "malformed JSON")
    page.click("tab-replay")
    page.js(hide)
    page.driver.find_element(By.ID, "replay-file").send_keys(corrupt)
    expect_error(page, "a corrupt save on Replay" + where, "malformed JSON")
    check_layout(page, "a corrupt save" + where)
    page.driver.get(page.url + "?game=0123456789abcdef")
    page.wait(lambda: page.js("return window.slingReady === true"), "the page to load")
    expect_error(page, "an expired game address" + where, "no longer on the server")
    check_layout(page, "an expired game address" + where)


def check_start_waits_visibly(page):
    """While the server sets a game up, Start and Watch are disabled and the form says so."""
    open_form(page)
    page.js("window.slingTestStart = []; const start = document.getElementById('start');"
            "new MutationObserver(() => window.slingTestStart.push([start.disabled,"
            " document.getElementById('start-status').textContent])).observe(start,"
            " {attributes: true});")
    page.driver.find_element(By.ID, "seed").send_keys("5")
    page.click("start")
    page.wait(lambda: page.js("return !!window.slingState"), "the game to start")
    seen = page.js("return window.slingTestStart")
    if not any(disabled and text for disabled, text in seen):
        fail("Start was not disabled with a word while the game was set up: %s" % seen)
    state = page.settle()
    # Leaving asks first, Stay focused; the game left is one click away.
    page.click("tab-load")
    page.wait(lambda: page.js("return !document.getElementById('leave-dialog').hidden"), "the leave dialog")
    if page.js("return document.activeElement.id") != "leave-no":
        fail("the leave dialog's focused button is #%s, not Stay" % page.js("return document.activeElement.id"))
    page.click("leave-yes")
    page.wait(lambda: page.js("return !document.getElementById('back-to-game').hidden"), "Back to the game")
    page.click("back-to-game")
    page.wait(lambda: page.js("return !!window.slingState"), "the game left to come back")
    if page.settle()["seed"] != state["seed"] or page.js("return gameId") != state["id"]:
        fail("Back to the game opened another game")
    print("leaving: Stay focused, and Back to the game returns to game %s" % state["id"])


def load_save(page, path):
    open_form(page)
    page.click("tab-load")
    page.driver.find_element(By.ID, "load-file").send_keys(path)
    page.wait(lambda: page.js("return !!window.slingState"), "the save to load")
    return page.settle()


def check_load_takes_the_saves_players(page, scratch):
    with open(TIE_FLEE) as f:
        record = json.load(f)
    record["agents"] = ["human", "easy"]
    path = os.path.join(scratch, "save-with-easy.json")
    with open(path, "w") as f:
        json.dump(record, f)
    state = load_save(page, path)
    if state["sides"][1]["player"] != "easy" or not state["sides"][0]["human"]:
        fail("Load did not take the save's players: %s" % state["sides"])
    print("Load: the save's players (you and easy)")




def check_tie_flee(page, out):
    state = load_save(page, TIE_FLEE)
    b = state["board"]
    if b["mover"] != 0 or not state["point_input"]:
        fail("after the tie David is not the one to move (mover %s)" % b["mover"])
    cells = page.js(REACH_JS)
    if len(cells) != len(b["reach"]) or not cells:
        fail("the page shades %d cells for %d destinations" % (len(cells), len(b["reach"])))
    far = [c for c in cells if math.hypot(c[0] - b["david"]["x"], c[1] - b["david"]["y"]) > b["allowance_cm"] + 0.6]
    if far:
        fail("%d shaded cells lie beyond David's reach of %d cm, e.g. %s" % (len(far), b["allowance_cm"], far[0]))
    goliath_trails = state["trails"][1]
    # A click on Goliath: the ghost stands inside David's reach.
    board = page.driver.find_element(By.ID, "duel-board")
    page.js("const svg = document.getElementById('duel-board'); const g = document.querySelector('#goliath-figure circle');"
            "const r = g.getBoundingClientRect(); svg.dispatchEvent(new MouseEvent('click', {bubbles: true,"
            " clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));")
    page.wait(lambda: page.js("return !document.getElementById('point').hidden"), "the ghost to be placed")
    ghost = page.js("return pendingPoint")
    if math.hypot(ghost["x"] - b["david"]["x"], ghost["y"] - b["david"]["y"]) > b["allowance_cm"] + 0.01:
        fail("the ghost %s is outside David's reach" % ghost)
    text = page.js("return document.getElementById('point-text').textContent")
    if "%.1f cm moved" % ghost["move_cm"] not in text:
        fail("the readout '%s' does not say the ghost's %.1f cm" % (text, ghost["move_cm"]))
    page.screenshot(out, "duel-tie-flee-1280x720.png")
    check_duel_hint(page)
    page.screenshot(out, "duel-hint-1280x720.png")
    for width, height in SIZES[1:]:
        set_viewport(page, width, height)
        check_flee_drawn_at(page, b, "at %dx%d" % (width, height))
    set_viewport(page, 1280, 720)
    # A flee away from Goliath, half the allowance: the ghost moves there, David's trail follows.
    dx, dy = b["david"]["x"] - b["goliath"]["x"], b["david"]["y"] - b["goliath"]["y"]
    norm = math.hypot(dx, dy) or 1
    target = [min(max(b["david"]["x"] + dx / norm * b["allowance_cm"] / 2, 1), b["board_cm"] - 1),
              min(max(b["david"]["y"] + dy / norm * b["allowance_cm"] / 2, 1), b["board_cm"] - 1)]
    page.js("const [x, y] = window.slingDuelClientPoint(arguments[0], arguments[1]);"
            "document.getElementById('duel-board').dispatchEvent(new MouseEvent('click', {bubbles: true,"
            " clientX: x, clientY: y}));", target[0], target[1])
    page.wait(lambda: page.js("return pendingPoint && pendingPoint.move_cm > 0"), "a ghost away from Goliath")
    ghost = page.js("return pendingPoint")
    page.click("point-confirm")
    page.wait(lambda: page.js("return window.slingState.plies > %d" % state["plies"]), "the flee to be played")
    after = page.settle()
    shown = page.js("return JSON.parse(JSON.stringify(window.slingState.trails))")
    at_flee = page.js("return fetch('/api/games/' + gameId + '?ply=%d').then((r) => r.json())" % (state["plies"] + 1))
    if at_flee["trails"][1] != goliath_trails:
        fail("Goliath got a new trail though David fled: %s" % at_flee["trails"][1])
    if not at_flee["trails"][0] or at_flee["trails"][0][-1][-1] != [ghost["x"], ghost["y"]]:
        fail("David's flee is not his trail: %s" % at_flee["trails"][0])
    if page.js(RING_OVERLAPS_JS):
        fail("%d pairs of the duel's ring labels overlap" % page.js(RING_OVERLAPS_JS))
    print("the tie-flee: %d cells around David, ghost %.1f cm away; %d plies now, trails %s" %
          (len(cells), ghost["move_cm"], after["plies"], [len(t) for t in shown]))


def check_replay_trails_and_analysis(page, out):
    open_form(page)
    page.click("tab-replay")
    page.driver.find_element(By.ID, "replay-file").send_keys(TIE_FLEE)
    page.wait(lambda: page.js("return !!window.slingState && window.slingState.mode === 'replay'"), "the replay")
    page.settle()
    seen = set()
    for ply in (8, 16, 24, 33):
        page.js("document.getElementById('replay-ply').value = %d;"
                "document.getElementById('replay-ply').dispatchEvent(new Event('change'))" % ply)
        page.wait(lambda: page.js("return window.slingState.ply === %d" % ply), "ply %d" % ply)
        state = page.settle()
        for side, name in ((0, "david"), (1, "goliath")):
            if state["trails"][side] and state["trails"][side][-1][-1] != [state["board"][name]["x"], state["board"][name]["y"]]:
                fail("at ply %d the %s trail does not end where he stands" % (ply, name))
        seen.add(json.dumps(state["trails"]))
    if len(seen) < 2:
        fail("every ply of the replay shows the same trails")
    automatic = page.js("return [...document.querySelectorAll('#log li.automatic')].map((li) => li.textContent)")
    if not automatic or not all("answered automatically" in t for t in automatic):
        fail("the log does not mark the answers given for David: %s" % automatic[:3])
    page.click("analyse")
    page.wait(lambda: page.js("return !!document.querySelector('#game-analysis img.analysis-graph')"),
              "the analysis graph")
    page.settle()
    automatic_plies = set(page.js("return analysisShown.a.plies.filter((p) => p.automatic).map((p) => p.ply)"))
    listed = set(int(x) for x in page.js(
        "return [...document.querySelectorAll('#game-analysis ol.analysis-errors li')].map((li) => li.dataset.ply)"))
    if not automatic_plies:
        fail("the analysis marks no answer as given automatically")
    if automatic_plies & listed:
        fail("the analysis lists automatic answers as errors: plies %s" % sorted(automatic_plies & listed))
    text_px = {}
    for width, height in SIZES:
        set_viewport(page, width, height)
        text_px[width] = graph_text_px(page)
        if text_px[width] < 11:
            fail("the analysis graph's smallest text is %.1f px at %dx%d" % (text_px[width], width, height))
        check_layout(page, "the analysis of the tie-flee replay at %dx%d" % (width, height))
    set_viewport(page, 1280, 720)
    page.js("document.getElementById('game-analysis').scrollIntoView()")
    page.screenshot(out, "analysis-duel-1280x720.png")
    print("replay: trails change ply by ply; analysis: %d automatic answers not rated, text %s px" %
          (len(automatic_plies), {w: round(px, 1) for w, px in text_px.items()}))




def check_flee_drawn_at(page, b, where):
    """The flee's reach and the hint's heat map as drawn at another size: the same cells around
    David, the best starred, the ring labels apart, nothing cut off."""
    cells = page.js(REACH_JS)
    far = [c for c in cells if math.hypot(c[0] - b["david"]["x"], c[1] - b["david"]["y"]) > b["allowance_cm"] + 0.6]
    heat = page.js("return document.querySelectorAll('#hint-heat rect').length")
    if len(cells) != len(b["reach"]) or far or not heat or not page.js("return !!document.getElementById('hint-best')"):
        fail("the flee %s: %d cells for %d destinations (%d beyond David's reach), %d hint cells" %
             (where, len(cells), len(b["reach"]), len(far), heat))
    if page.js(RING_OVERLAPS_JS):
        fail("the flee %s: %d pairs of ring labels overlap" % (where, page.js(RING_OVERLAPS_JS)))
    check_layout(page, "the flee " + where)
    print("the tie-flee %s: %d cells around David, %d hint cells" % (where, len(cells), heat))


def graph_text_px(page):
    """The analysis graph's smallest text as shown: its font size times the image's scale."""
    scale = page.js("const g = document.querySelector('#game-analysis img.analysis-graph');"
                    " return g.getBoundingClientRect().width / g.naturalWidth")
    return scale * min(float(size) for size in __import__("re").findall(
        r'font-size="([0-9.]+)"', page.js("return analysisShown.svg")))


def check_duel_hint(page):
    """At the flee's destination the hint is drawn on the board: a cell per analysed point, the
    best one starred, and the list cut to a few rows."""
    page.click("hint")
    page.wait(lambda: page.js("return !!window.slingState.hint && !window.slingState.hint_running"), "the hint")
    state = page.settle()
    hint = state["hint"]
    if hint["error"]:
        fail("the duel hint failed: " + hint["error"])
    places = [a for a in hint["actions"] if "x" in a]
    cells = page.js("return document.querySelectorAll('#hint-heat rect').length")
    if not places or cells != len(places) or not page.js("return !!document.getElementById('hint-best')"):
        fail("the hint's %d destinations are drawn as %d cells (best marked: %s)" %
             (len(places), cells, page.js("return !!document.getElementById('hint-best')")))
    rows = page.js("return document.querySelectorAll('#hint-box table.hint tr').length")
    if rows > 5:
        fail("the hint lists %d rows" % rows)
    print("duel hint: %d destinations on the board, %d rows listed" % (len(places), rows))






def check_danelaw_names(page, out):
    from web_browser_test import set_viewport
    page.new_game("danelaw", "human", "easy", 3)
    for width, height in ((1280, 720), (1920, 1080), (390, 844)):
        set_viewport(page, width, height)
        if width == 390:
            page.click("map-zoom-in")
            page.click("map-zoom-in")
        names = page.js(TOWN_NAMES_JS)
        print("danelaw at %dx%d: %s" % (width, height, names))
        if names["pairs"] or names["smallest"] < 11 or (names["letters"] and names["letters"] < 10.5):
            fail("danelaw's labels at %dx%d: %d overlapping pairs of names, smallest name %.1f px, army letters %.1f px" %
                 (width, height, names["pairs"], names["smallest"], names["letters"]))
        if width == 390:
            # The hexes to choose take taps of at least 24 px once zoomed in.
            targets = page.js("return [...document.querySelectorAll('#danelaw-map .hex-choice')].map("
                              "(g) => Math.min(g.getBoundingClientRect().width, g.getBoundingClientRect().height))")
            if not targets or min(targets) < 24:
                fail("danelaw's %d choices at 390x844 zoomed in are tapped on %.1f px" % (len(targets), min(targets or [0])))
            print("danelaw at 390x844 zoomed in: %d choices, each tapped on at least %.1f px" % (len(targets), min(targets)))
        if width != 390 and names["shown"] < names["names"]:
            fail("danelaw's whole map at %dx%d hides %d town names" % (width, height, names["names"] - names["shown"]))
        page.screenshot(out, "danelaw-names-%dx%d.png" % (width, height))
    set_viewport(page, 1280, 720)
    # The hint of a movement decision (the placements played first, through the page's API):
    # equal moves merged, its moves numbered on the map as in the list.
    page.js(TO_MOVEMENT_JS)
    page.driver.get(page.url + "?game=" + page.js("return gameId"))
    state, labels, _, marks = check_danelaw_hint_marks(page, lambda: page.click("hint"), "Chromium")
    hint = state["hint"]
    if "1 visits" in page.js("return document.getElementById('hint-box').textContent"):
        fail("the danelaw hint counts single looks as visits")
    check_hex_words(labels + [e["text"] for e in state["log"]], "the danelaw hint and log")
    page.screenshot(out, "danelaw-hint-1280x720.png")
    print("danelaw hint: %d moves (%s), %d numbered on the map" % (len(labels), hint["count_word"] or "no counts", len(marks)))


TIME_BUDGET_S = 270


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sling", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    PageWaits.set_budget(time.time(), TIME_BUDGET_S)
    os.makedirs(args.out, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="sling-web-points-")
    cache = tempfile.mkdtemp(prefix="sling-web-cache-")
    server, url = start_server(args.sling, cache)
    driver = None
    try:
        driver = start_browser(scratch)
        page = Page(driver, url)
        for size in SIZES:
            check_errors_outside_a_game(page, scratch, size)
        set_viewport(page, 1280, 720)
        check_start_waits_visibly(page)
        check_load_takes_the_saves_players(page, scratch)
        check_tie_flee(page, args.out)
        check_replay_trails_and_analysis(page, args.out)
        check_danelaw_names(page, args.out)
    finally:
        if driver:
            driver.quit()
        stop_server(server)
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)
    print("web_page_points_test: passed")


if __name__ == "__main__":
    main()
