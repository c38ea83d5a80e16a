#!/usr/bin/python3
"""End-to-end test of `sling serve` in a real headless Chromium (Selenium + chromium-driver).

Plays, by clicking as a person would: a whole duel as David against the `strong` agent (a
destination clicked inside the shaded reach, the God prompt answered by the terminal's rule with
its stakes shown), saves it (named after the game) and loads it back; a danelaw move (an army, then
a destination hex, each side's path drawn, the map zoomed and panned), on the built-in map and on an
uploaded map file (saved and loaded back with that file); a whole game of Pig; a reload and a tab
that must not lose a game; a watched duel between two agents that ends at the turn limit, after
over 1,000 plies.  At 1280x720, 390x844 and 1920x1080
it checks what a player would see go wrong (web_page_support.LAYOUT_PROBLEMS_JS) and photographs
the three boards into --out.  If the browser cannot start, the test fails with the reason: it never
skips.

Usage: web_browser_test.py --sling build/sling --out DIR
"""

import argparse
import json
import os
import re
import shutil
import tempfile
import time

from web_page_support import (ANIMATING_AT_NOW_JS, ANIMATING_JS, ANIMATING_NOW_JS, ANIMATING_SINCE_JS, MAP_JS,
                              MARK_BOARD_JS, REAL_CLOCK_JS, SIZES, SLOW_CLOCK_JS, PageWaits, check_dice,
                              check_duel_scale, check_layout, check_trails, fail, start_server, stop_server,
                              wait_for_redraw)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError as error:
    fail("python3-selenium is missing (%s); scripts/bootstrap.sh installs it" % error)


def start_browser(download_dir):
    options = Options()
    for path in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.path.exists(path):
            options.binary_location = path
            break
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,800", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"download.default_directory": download_dir,
                                              "download.prompt_for_download": False})
    driver_path = "/usr/bin/chromedriver"
    if not os.path.exists(driver_path):
        fail("chromedriver is missing (%s); scripts/bootstrap.sh installs chromium-driver" % driver_path)
    try:
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
    except Exception as error:  # the reason Chromium could not start, on one line
        fail("the browser cannot start: " + " ".join(str(error).split()))
    driver.set_window_size(1280, 800)
    emulate_viewport(driver, 1280, 720)
    # A script that waits on the page (an async one, playing through danelaw's placements against
    # the agent) may take as long as the test has left, not WebDriver's 30 s.
    driver.set_script_timeout(max(30.0, PageWaits.deadline - time.time()))
    return driver


def emulate_viewport(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def set_viewport(page, width, height):
    """The page's viewport in CSS pixels, as a screen of that size shows it (a phone's is mobile);
    returns once the page has drawn its board for it."""
    if page.viewport == (width, height):
        return
    board_shown = page.js(MARK_BOARD_JS)
    emulate_viewport(page.driver, width, height)
    page.viewport = (width, height)
    wait_for_redraw(page, board_shown, "at %dx%d" % (width, height))


class Page(PageWaits):
    def __init__(self, driver, url):
        self.driver = driver
        self.url = url
        self.viewport = (1280, 720)  # as start_browser sets it

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def click(self, element_id):
        self.driver.find_element(By.ID, element_id).click()

    def new_game(self, game, side0, side1, seed, rules_file=None, map_file=None, god_prompt=None,
                 win_strip=False):
        self.driver.get(self.url)
        self.wait(lambda: self.js("return window.slingReady === true"), "the page to load")
        Select(self.driver.find_element(By.ID, "game")).select_by_value(game)
        if god_prompt:
            Select(self.driver.find_element(By.ID, "god-prompt")).select_by_value(god_prompt)
        if win_strip:
            self.click("win-strip")
        if rules_file:
            self.driver.find_element(By.ID, "rules-file").send_keys(rules_file)
        if map_file:
            self.driver.find_element(By.ID, "map-file").send_keys(map_file)
        Select(self.driver.find_element(By.ID, "side0")).select_by_value(side0)
        Select(self.driver.find_element(By.ID, "side1")).select_by_value(side1)
        self.driver.find_element(By.ID, "seed").send_keys(str(seed))
        self.click("start")
        self.wait(lambda: self.js("return !!window.slingState"), "the game to start")
        return self.settle()

    def buttons(self, container_id):
        for _ in range(5):  # the page may redraw them meanwhile (a resize): ask again
            try:
                return [b for b in self.driver.find_elements(By.CSS_SELECTOR, "#%s button" % container_id)
                        if b.is_displayed() and b.is_enabled()]
            except StaleElementReferenceException:
                time.sleep(0.2)
        fail("the buttons of #%s keep changing" % container_id)

    def screenshot(self, out, name):
        self.wait(lambda: not self.js(ANIMATING_NOW_JS), "the animations to end before a screenshot")
        path = os.path.join(out, name)
        self.driver.save_screenshot(path)
        print("screenshot: " + path)

    def at_every_size(self, out, name):
        """Checks the page at each size a player may have, and photographs it (NAME-WxH.png)."""
        for width, height in SIZES:
            set_viewport(self, width, height)
            check_layout(self, "%s at %dx%d" % (name, width, height))
            self.screenshot(out, "%s-%dx%d.png" % (name, width, height))
        set_viewport(self, 1280, 720)


# The duel, as David: the first God offer is taken (re-roll), later ones declined; destinations
# are clicked on the board at the reachable point nearest Goliath (or farthest, for Goliath).
DUEL_PREFERENCE = ["behead", "shoot", "fight", "recover", "search", "move", "flee", "stay"]


def check_god_rule(page):
    """God's question follows the terminal's rule: by default not after the initiative (a roll
    that never goes against David), after every roll when the game asks for that."""
    state = page.new_game("duel", "human", "easy", 11)
    if state["board"]["god_prompt"] or not any(e["text"] == "David: accept (answered automatically)" and e.get("automatic") for e in state["log"]):
        fail("by default (bad-rolls) God's question came after the initiative, or nobody accepted it for David")
    state = page.new_game("duel", "human", "easy", 11, god_prompt="every")
    if not state["board"]["god_prompt"] or state["ply"] != 1:
        fail("with god_prompt every, God's question did not follow the initiative (ply %d)" % state["ply"])
    print("God's question: not after the initiative by default, after it with 'every'")


def check_stakes(page):
    """The God box says what is at stake: David's win chance accepting, and re-rolling."""
    page.wait(lambda: page.js("return document.querySelectorAll('#god-stakes table.stakes tr').length >= 2"),
              "God's stakes (the strong agent's values)")
    rows = page.js("return [...document.querySelectorAll('#god-stakes table.stakes tr')]"
                   ".map((r) => [r.cells[0].textContent, r.cells[1].textContent])")
    if not any(label == "accept the dice" for label, _ in rows):
        fail("God's stakes do not name accepting: %s" % rows)
    if not any(label.endswith("expected") for label, _ in rows) or \
            not all(re.fullmatch(r"\d+\.\d%", win) for _, win in rows):
        fail("God's stakes are not win chances of accepting and re-rolling: %s" % rows)
    return rows


def check_animation(page):
    """A move is animated briefly (a duel figure, a danelaw army's marker), and a key press skips
    the animation.  The caller slowed the page's clock (SLOW_CLOCK_JS) before sending the move, so
    that the animation is still running when the key comes however slowly the machine goes; the
    clock is put back here."""
    page.wait(lambda: page.js(ANIMATING_JS) > 0, "a figure to move on the board")
    # Only the motions running before the key count: the agent's reply may start a new one at once.
    before_key, running = page.js(ANIMATING_AT_NOW_JS)
    if not running:
        fail("no figure was moving when the key was pressed")
    ActionChains(page.driver).send_keys("x").perform()
    if page.js(ANIMATING_SINCE_JS, before_key):
        fail("a key press did not skip the move's animation")
    page.js(REAL_CLOCK_JS)


def check_hint(page):
    """A hint names its source shortly (the spec in a tooltip) and fits the panel."""
    page.click("hint")
    page.wait(lambda: page.js("return !!window.slingState.hint && !window.slingState.hint_running"), "the hint")
    page.settle()
    source = page.js("const s = document.querySelector('#hint-box .source'); return s ? [s.textContent, s.title] : null")
    if not source or source[0] != "strong" or source[1] != page.js("return window.slingState.hint.source"):
        fail("the hint's source is shown as %s, not 'strong' with its spec in a tooltip" % (source,))
    check_layout(page, "the duel with a hint at 1280x720")
    set_viewport(page, 390, 844)
    check_layout(page, "the duel with a hint at 390x844")
    set_viewport(page, 1280, 720)


def play_duel(page, out):
    state = page.new_game("duel", "human", "strong", 11, win_strip=True)
    names = page.js("return [...document.querySelectorAll('#players .player')].map((p) => [p.textContent, p.title])")
    if [n for n, _ in names] != ["you", "strong"] or names[1][1] != state["sides"][1]["spec"]:
        fail("the players are not shown as 'you' and 'strong' with the spec in a tooltip: %s" % names)
    god_used = False
    god_prompts = accepts_clicked = 0
    clicked_destination = animated = trails_checked = hinted = False
    for _ in range(400):
        state = page.settle()
        if state["over"]:
            break
        assert state["human_turn"], "not David's turn but nobody is thinking"
        moved = {e["text"].split(":")[0] for e in state["log"] if ": to " in e["text"]}
        if not trails_checked and moved >= {"David", "Goliath"}:
            check_trails(page, "#duel-board .trail", [0, 1], "the duel")
            trails_checked = True
        if state["board"]["god_prompt"]:
            page.wait(lambda: page.driver.find_element(By.ID, "god").is_displayed(), "the God prompt")
            rows = check_stakes(page)
            if god_prompts == 0:
                print("God's stakes: " + "; ".join("%s %s" % tuple(row) for row in rows))
                page.at_every_size(out, "duel-god")
            god_prompts += 1
            wanted = "re-roll" if not god_used else "accept"
            button = next(b for b in page.buttons("god-actions") if b.text.startswith(wanted))
            if wanted == "re-roll":
                god_used = True
            else:
                accepts_clicked += 1
            button.click()
            continue
        if state["point_input"]:
            board = state["board"]
            goliath = board["goliath"]
            target = min(board["reach"], key=lambda p: (p[0] - goliath["x"]) ** 2 + (p[1] - goliath["y"]) ** 2)
            if not clicked_destination:
                check_dice(page, "the duel's movement roll")
                check_duel_scale(page, state)
                page.screenshot(out, "duel.png")
            x, y = page.js("return window.slingDuelClientPoint(arguments[0], arguments[1])", *target)
            svg = page.driver.find_element(By.ID, "duel-board")
            rect = page.js("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]", svg)
            # Selenium offsets are from the element's centre.
            ActionChains(page.driver).move_to_element_with_offset(
                svg, int(x - rect[0] - rect[2] / 2), int(y - rect[1] - rect[3] / 2)).click().perform()
            page.wait(lambda: page.driver.find_element(By.ID, "point").is_displayed(), "the distance to show")
            shown = page.driver.find_element(By.ID, "point-text").text
            assert " cm moved" in shown, shown
            if not clicked_destination:
                page.at_every_size(out, "duel")
            if not animated:
                page.js(SLOW_CLOCK_JS)
            page.click("point-confirm")
            if not animated:
                check_animation(page)
                animated = True
            clicked_destination = True
            continue
        if not hinted:
            check_hint(page)
            hinted = True
        buttons = page.buttons("actions")
        assert buttons, "no action buttons for David"
        # Move at least once (the point of the test), then play the preferences in order.
        for word in (["move"] if not clicked_destination else []) + DUEL_PREFERENCE:
            match = [b for b in buttons if b.text.startswith(word)]
            if match:
                match[0].click()
                break
        else:
            buttons[0].click()
    state = page.settle()
    if not state["over"]:
        fail("the duel did not finish")
    if not god_used:
        fail("God was never offered to David")
    if not clicked_destination or not animated or not trails_checked:
        fail("no destination was clicked on the board, no move was seen animated, or both sides' moves were not drawn")
    # The rolls that went David's way were accepted for him, without a question.
    accepted = sum(1 for e in state["log"] if e["text"].startswith("David: accept") and e.get("automatic"))
    if accepted == 0:
        fail("every 'accept' was a person's answer: God was asked after every roll")
    page.wait(lambda: page.js("return document.querySelectorAll('#strip-chart polyline').length === 1"),
              "the win-probability strip")
    strip = page.js("return window.slingState.strip")
    if len(strip) < 3 or not all(0 <= p <= 1 for _, p in strip):
        fail("the win-probability strip has %d points: %s" % (len(strip), strip[:5]))
    print("duel: %s after %d plies; God asked %d times (%d accepted by the test), %d rolls accepted for David; strip of %d points"
          % (state["result"], state["plies"], god_prompts, accepts_clicked, accepted, len(strip)))
    return state


def save_and_reload(page, download_dir, state, map_file=None):
    before = set(os.listdir(download_dir))
    page.click("save")
    path = []

    def downloaded():
        new = [f for f in set(os.listdir(download_dir)) - before
               if f.endswith(".json") and not f.startswith(".")]
        path[:] = new
        return bool(new)

    page.wait(downloaded, "the saved game to download")
    saved = os.path.join(download_dir, path[0])
    wanted = "sling-%s-seed%s-ply%d.json" % (state["game"], state["seed"], state["plies"])
    if path[0] != wanted:
        fail("the save is called %s, not after the game (%s)" % (path[0], wanted))
    page.click("tab-load")
    if map_file:
        page.driver.find_element(By.ID, "load-map-file").send_keys(map_file)
    page.driver.find_element(By.ID, "load-file").send_keys(saved)
    page.wait(lambda: page.js("return !!window.slingState"), "the saved game to load")
    loaded = page.settle()
    if loaded["plies"] != state["plies"] or loaded["result"] != state["result"]:
        fail("the reloaded game differs: %s plies, '%s'" % (loaded["plies"], loaded["result"]))
    print("saved and reloaded: %d plies" % loaded["plies"])
    return saved


def replay_save(page, saved):
    page.click("tab-replay")
    page.driver.find_element(By.ID, "replay-file").send_keys(saved)
    page.wait(lambda: page.js("return !!window.slingState && window.slingState.mode === 'replay'"),
              "the replay to open")
    state = page.settle()
    if state["ply"] != 0:
        fail("a replay starts at ply %d" % state["ply"])
    page.click("replay-next")
    page.click("replay-next")
    page.wait(lambda: page.js("return window.slingState.ply === 2"), "two plies forward")
    page.click("replay-end")
    page.wait(lambda: page.js("return window.slingState.ply === window.slingState.plies"),
              "the end of the replay")
    if not page.settle()["over"]:
        fail("the replay's last position is not the end of the game")
    print("replayed: %d plies" % state["plies"])


def watch_duel_to_the_turn_limit(page):
    """Watches two `normal` duel agents that hold their ground (seed 31): the game must end, a
    draw at the turn limit of games between agents, over 3,000 plies whose move numbers show
    whole."""
    page.driver.get(page.url)
    page.wait(lambda: page.js("return window.slingReady === true"), "the page to load")
    Select(page.driver.find_element(By.ID, "game")).select_by_value("duel")
    Select(page.driver.find_element(By.ID, "side0")).select_by_value("normal")
    Select(page.driver.find_element(By.ID, "side1")).select_by_value("normal")
    page.driver.find_element(By.ID, "seed").send_keys("31")
    Select(page.driver.find_element(By.ID, "delay")).select_by_value("0")
    page.click("watch")
    page.wait(lambda: page.js("return !!window.slingState && window.slingState.over"),
              "the watched duel to end")
    state = page.settle()
    shown = page.driver.find_element(By.ID, "result").text
    if shown != "Draw: turn limit (1,000 turns)" or state["end_reason"] != "turn limit":
        fail("the watched duel ended '%s' (%s), not a draw at the turn limit" % (shown, state["end_reason"]))
    if state["plies"] < 1000:
        fail("the watched duel had only %d plies" % state["plies"])
    last = page.js("const n = document.querySelectorAll('#log .ply'); return n[n.length - 1].textContent")
    if last != "%d." % state["plies"]:
        fail("the last move number reads '%s', not '%d.'" % (last, state["plies"]))
    for width, height in SIZES:
        set_viewport(page, width, height)
        check_layout(page, "a watched game of %d plies at %dx%d" % (state["plies"], width, height))
    set_viewport(page, 1280, 720)
    print("watched: %s after %d plies" % (shown, state["plies"]))


def check_no_game_lost(page):
    """The game is in the address (a reload resumes it) and a tab asks before leaving it; a game
    left stays on the server, and its address brings it back."""
    state = page.new_game("pig", "human", "easy", 5)
    for _ in range(2):
        next(b for b in page.buttons("actions") if b.text.startswith("roll")).click()
        state = page.settle()
    game_id, ply = state["id"], state["ply"]
    if page.js("return location.search") != "?game=" + game_id:
        fail("the address does not name the game: " + page.js("return location.href"))
    page.driver.refresh()
    page.wait(lambda: page.js("return window.slingReady === true"), "the page to reload")
    state = page.settle()
    if state["id"] != game_id or state["ply"] != ply:
        fail("a reload did not resume the game (ply %s of %s, was %d of %s)" % (state["ply"], state["id"], ply, game_id))
    for tab in ("tab-load", "tab-replay", "tab-new", "close"):
        page.click(tab)
        if not page.driver.find_element(By.ID, "leave-dialog").is_displayed():
            fail("leaving the game by '%s' did not ask first" % tab)
        page.click("leave-no")
        if not page.driver.find_element(By.ID, "play").is_displayed() or page.settle()["id"] != game_id:
            fail("staying after '%s' did not keep the game on the page" % tab)
    page.click("tab-load")
    page.click("leave-yes")
    if not page.driver.find_element(By.ID, "panel-load").is_displayed() or "game=" in page.js("return location.href"):
        fail("leaving the game did not open the Load panel")
    page.driver.get(page.url + "?game=" + game_id)
    page.wait(lambda: page.js("return window.slingReady === true"), "the page to load")
    state = page.settle()
    if state["id"] != game_id or state["ply"] != ply:
        fail("the game left was not kept on the server")
    print("no game lost: the address resumes ply %d after a reload and after leaving" % ply)


def play_danelaw_move(page, out=None, rules_file=None, map_file=None):
    state = page.new_game("danelaw", "human", "easy", 3, rules_file, map_file)
    for _ in range(200):
        state = page.settle()
        kinds = {a.get("kind") for a in state["actions"]}
        if "army" in kinds:
            break
        # Placing armies at sea, or a reinforcement: click the first marked hex.
        marked = page.driver.find_elements(By.CSS_SELECTOR, "#choices .hex-choice")
        if marked:
            marked[0].click()
        else:
            page.buttons("actions")[0].click()
    else:
        fail("the Danes never got to move an army")
    army = page.driver.find_elements(By.CSS_SELECTOR, "#choices .hex-choice[data-kind='army']")[0]
    army_hex = army.get_attribute("data-hex")
    army.click()
    state = page.settle()
    destinations = page.driver.find_elements(By.CSS_SELECTOR, "#choices .hex-choice[data-kind='move']")
    if not destinations:
        fail("no destination hexes shown for the chosen army")
    costs = [a.get("cost") for a in state["actions"] if a.get("kind") == "move"]
    if None in costs:
        fail("a destination without its cost")
    if out:
        page.screenshot(out, "danelaw.png")
        check_map_view(page)
        page.at_every_size(out, "danelaw")
        # Drawn again for each size: the hexes are new elements.
        destinations = page.driver.find_elements(By.CSS_SELECTOR, "#choices .hex-choice[data-kind='move']")
    destination = destinations[-1]
    to_hex = destination.get_attribute("data-hex")
    if out:
        page.js(SLOW_CLOCK_JS)
    destination.click()
    if out:
        check_animation(page)  # a marker runs along the army's path; a key skips it
    state = page.settle()
    moved = [e["text"] for e in state["log"] if e["side"] == 0 and e["text"].startswith("Danes: to ")]
    if not moved:
        fail("the army did not move (from hex %s to hex %s)" % (army_hex, to_hex))
    check_trails(page, "#choices .trail", [0], "the Danes' move")
    print("danelaw: " + moved[-1])
    if out:
        state = english_reply(page)
    return state


def english_reply(page):
    """Ends the Danes' half-turn and waits for the English to move: their armies' paths are drawn
    beside the Danes'."""
    for _ in range(100):
        state = page.settle()
        if any(e["text"].startswith("English: to ") for e in state["log"]) and state["human_turn"]:
            break
        ending = [b for b in page.buttons("actions") if b.text.startswith("end")]
        marked = page.driver.find_elements(By.CSS_SELECTOR, "#choices .hex-choice")
        if ending:
            ending[0].click()
        elif marked:
            marked[0].click()
        else:
            page.buttons("actions")[0].click()
    else:
        fail("the English never moved")
    check_trails(page, "#choices .trail", [1], "the English moves")
    print("danelaw: the English moved; %d of their paths drawn" %
          page.js("return document.querySelectorAll('#choices .trail[data-side=\"1\"]').length"))
    return state


def check_map_view(page):
    """Danelaw's map fills its box, its towns' names are legible, and it zooms and pans."""
    view = page.js(MAP_JS)
    width, height = view["box"]
    if width < 0.95 * view["board"] - 20 or height < 0.6 * 720:
        fail("the map's box is %dx%d px in a board %d px wide at 1280x720" % (width, height, view["board"]))
    if view["smallest_name"] < 11:
        fail("a town's name is %.1f px tall on the whole map" % view["smallest_name"])
    page.click("map-zoom-in")
    zoomed = page.js(MAP_JS)
    if not zoomed["view"][2] < 0.8 * view["view"][2] or zoomed["smallest_name"] < 11:
        fail("zooming in did not enlarge the map (view %s, then %s)" % (view["view"], zoomed["view"]))
    ActionChains(page.driver).move_to_element(page.driver.find_element(By.ID, "danelaw-map")) \
        .click_and_hold().move_by_offset(90, 40).release().perform()
    panned = page.js(MAP_JS)
    if not panned["view"][0] < zoomed["view"][0] - 20:
        fail("dragging did not pan the map (view %s, then %s)" % (zoomed["view"], panned["view"]))
    page.click("map-fit")
    print("danelaw map: %dx%d px, names at least %.1f px; zoom and pan work" % (width, height, view["smallest_name"]))


# A strip of seven land hexes between two seas (tests/danelaw_strip.h, without its river), with
# towns only this map has, and rules that fit it.
STRIP_RULES = '{"field_army_towns": ["Beta"], "towns_to_win": 2, "danes_at_sea": 2}\n'


def strip_map():
    terrain = ["plain", "hills", "hills", "plain", "forest", "plain", "wetland"]
    hexes = [{"q": q, "r": r, "terrain": "sea" if r != 1 else terrain[q],
              "sector": 0 if r == 1 else (1 if r == 0 else 2)}
             for r in range(3) for q in range(7)]
    towns = [{"name": "Alpha", "q": 0, "r": 1}, {"name": "Beta", "q": 3, "r": 1},
             {"name": "Gamma", "q": 5, "r": 1}]
    return json.dumps({"name": "strip", "hex_km": 22, "hexes": hexes, "towns": towns})


def play_danelaw_on_uploaded_map(page, scratch):
    """Uploads a map file (and rules that fit it) and moves a Danish army on it."""
    map_file = os.path.join(scratch, "strip.json")
    rules_file = os.path.join(scratch, "strip-rules.json")
    with open(map_file, "w") as f:
        f.write(strip_map())
    with open(rules_file, "w") as f:
        f.write(STRIP_RULES)
    state = play_danelaw_move(page, None, rules_file, map_file)
    if state["board"]["towns"] != 3 or "Gamma" not in state["board"]["svg"]:
        fail("the uploaded map was not used (%d towns)" % state["board"]["towns"])
    print("danelaw on an uploaded map: %d towns" % state["board"]["towns"])
    save_and_reload(page, scratch, state, map_file)


def play_pig(page, out, scratch):
    # A short game: the rules file (uploaded as a person would) sets the goal to 40.
    rules = os.path.join(scratch, "pig-rules.json")
    with open(rules, "w") as f:
        f.write('{"goal": 40}\n')
    state = page.new_game("pig", "human", "easy", 2, rules)
    if state["board"]["goal"] != 40:
        fail("the uploaded rules were not used (goal %s)" % state["board"]["goal"])
    shot = passed = False
    for _ in range(1000):
        state = page.settle()
        if state["over"]:
            break
        if not shot and state["board"]["turn_total"] > 0:
            check_pig_layout(page, state)
            page.screenshot(out, "pig.png")
            page.at_every_size(out, "pig")
            shot = True
        # The first decision passes the turn (a hold of nothing): an error for the analysis.
        hold = state["board"]["turn_total"] >= 20 or not passed
        passed = True
        button = next(b for b in page.buttons("actions") if b.text.startswith("hold" if hold else "roll"))
        button.click()
    if not state["over"]:
        fail("the game of Pig did not finish")
    print("pig: " + state["result"])
    check_analysis(page, out)


def check_analysis(page, out):
    """After the game the Analysis panel shows the graph, both sides' totals and the errors; a
    click on an error goes to its position and shows the better move."""
    page.click("analyse")
    page.settle()
    page.wait(lambda: page.js("return !!document.querySelector('#game-analysis img.analysis-graph')"),
              "the analysis graph")
    graph = page.js("const g = document.querySelector('#game-analysis img.analysis-graph');"
                    " return [g.complete, g.naturalWidth, g.getBoundingClientRect().width]")
    if not graph[0] or graph[1] < 100 or graph[2] < 200:
        fail("the analysis graph is not drawn (%s)" % graph)
    shape = page.js("return [...document.querySelectorAll('#game-analysis table.analysis-totals tr')]"
                    ".map((r) => r.cells.length)")
    if len(shape) != 8 or any(cells != 3 for cells in shape):
        fail("the analysis's totals are %s cells a row, not a column for each side and a row for"
             " each of seven figures" % shape)
    errors = page.driver.find_elements(By.CSS_SELECTOR, "#game-analysis ol.analysis-errors li")
    if not errors:
        fail("the analysis lists no error, though the person passed a turn")
    ply = int(errors[0].get_attribute("data-ply"))
    errors[0].click()
    state = page.settle()
    if state["ply"] != ply - 1:
        fail("the click on the error of ply %d went to ply %d" % (ply, state["ply"]))
    move = page.js("return document.getElementById('analysis-move').textContent")
    if "better: roll" not in move:
        fail("the better move is not shown: '%s'" % move)
    if page.js("return document.getElementById('replay-controls').hidden"):
        fail("the finished game cannot be stepped through from the error")
    check_layout(page, "the analysis panel at 1280x720")
    page.js("document.getElementById('game-analysis').scrollIntoView()")
    page.screenshot(out, "analysis-1280x720.png")
    print("analysis: %d errors listed; %s" % (len(errors), move))


def check_pig_layout(page, state):
    """Pig uses the page: the board at least half the window's height, the die large, and the
    hold button saying what it banks and the score it makes."""
    board, die = page.js("return [document.getElementById('pig-board').getBoundingClientRect().height,"
                         " document.querySelector('#pig-board svg.die').getBoundingClientRect().width]")
    if board < 0.5 * 720 or die < 80:
        fail("Pig's board is %d px tall with a die of %d px at 1280x720" % (board, die))
    hold = next(b.text for b in page.buttons("actions") if b.text.startswith("hold"))
    b = state["board"]
    wanted = "hold: bank %d, score %d \u2192 %d" % (b["turn_total"], b["scores"][0], b["scores"][0] + b["turn_total"])
    if not hold.startswith(wanted):
        fail("Pig's hold button reads '%s', not '%s'" % (hold, wanted))


def check_phone_width(page):
    set_viewport(page, 390, 844)
    check_layout(page, "a phone's screen (390x844)")
    set_viewport(page, 1280, 720)


# How long the test may take before its waits give up: just inside ctest's TIMEOUT of 600 s
# (tests/CMakeLists.txt), leaving time to stop the browser and the server.
TIME_BUDGET_S = 570


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sling", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    PageWaits.set_budget(time.time(), TIME_BUDGET_S)
    os.makedirs(args.out, exist_ok=True)
    downloads = tempfile.mkdtemp(prefix="sling-web-")
    cache = tempfile.mkdtemp(prefix="sling-web-cache-")
    server, url = start_server(args.sling, cache)
    driver = None
    try:
        driver = start_browser(downloads)
        page = Page(driver, url)
        # The new-game form first: its selects list long agent specs.
        driver.get(url)
        page.wait(lambda: page.js("return window.slingReady === true"), "the page to load")
        check_phone_width(page)
        for width, height in SIZES:
            set_viewport(page, width, height)
            check_layout(page, "the new-game form at %dx%d" % (width, height))
        set_viewport(page, 1280, 720)
        check_god_rule(page)
        state = play_duel(page, args.out)
        check_phone_width(page)
        saved = save_and_reload(page, downloads, state)
        replay_save(page, saved)
        check_no_game_lost(page)
        watch_duel_to_the_turn_limit(page)
        play_danelaw_move(page, args.out)
        play_danelaw_on_uploaded_map(page, downloads)
        check_phone_width(page)
        play_pig(page, args.out, downloads)
        logs = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        if logs:
            fail("the browser console reports errors: %s" % logs[0]["message"])
    finally:
        if driver:
            driver.quit()
        stop_server(server)
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(downloads, ignore_errors=True)
    print("web_browser_test: passed")


if __name__ == "__main__":
    main()
