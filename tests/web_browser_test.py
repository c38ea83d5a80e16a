#!/usr/bin/python3
"""End-to-end test of `sling serve` in a real headless Chromium (Selenium + chromium-driver).

Plays, by clicking as a person would: a whole duel as David against the `strong` agent (a
destination clicked inside the shaded reach, the God prompt answered), saves it and loads it back;
a danelaw move (an army, then a destination hex), on the built-in map and on an uploaded map file
(saved and loaded back with that file); a whole game of Pig.  Screenshots of the three boards go
to --out.  If the browser cannot start, the test fails with the reason: it never skips.

Usage: web_browser_test.py --sling build/sling --out DIR
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

from web_page_support import PageWaits, fail, start_server, stop_server


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
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
    return driver


class Page(PageWaits):
    def __init__(self, driver, url):
        self.driver = driver
        self.url = url

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def click(self, element_id):
        self.driver.find_element(By.ID, element_id).click()

    def new_game(self, game, side0, side1, seed, rules_file=None, map_file=None):
        self.driver.get(self.url)
        self.wait(lambda: self.js("return window.slingReady === true"), "the page to load")
        Select(self.driver.find_element(By.ID, "game")).select_by_value(game)
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
        return [b for b in self.driver.find_elements(By.CSS_SELECTOR, "#%s button" % container_id)
                if b.is_displayed() and b.is_enabled()]

    def screenshot(self, out, name):
        path = os.path.join(out, name)
        self.driver.save_screenshot(path)
        print("screenshot: " + path)


# The duel, as David: the first God offer is taken (re-roll), later ones declined; destinations
# are clicked on the board at the reachable point nearest Goliath (or farthest, for Goliath).
DUEL_PREFERENCE = ["behead", "shoot", "fight", "recover", "search", "move", "flee", "stay"]


def play_duel(page, out):
    state = page.new_game("duel", "human", "strong", 11)
    god_used = False
    clicked_destination = False
    for _ in range(400):
        state = page.settle()
        if state["over"]:
            break
        assert state["human_turn"], "not David's turn but nobody is thinking"
        if state["board"]["god_prompt"]:
            page.wait(lambda: page.driver.find_element(By.ID, "god").is_displayed(), "the God prompt")
            wanted = "reroll" if not god_used else "accept"
            button = next(b for b in page.buttons("god-actions") if b.text.startswith(wanted))
            if wanted == "reroll":
                god_used = True
            button.click()
            continue
        if state["point_input"]:
            board = state["board"]
            goliath = board["goliath"]
            target = min(board["reach"], key=lambda p: (p[0] - goliath["x"]) ** 2 + (p[1] - goliath["y"]) ** 2)
            if not clicked_destination:
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
            clicked_destination = True
            page.click("point-confirm")
            continue
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
    if not clicked_destination:
        fail("no destination was clicked on the board")
    print("duel: " + state["result"] + " after %d plies" % state["plies"])
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


def watch_pig(page):
    page.driver.get(page.url)
    page.wait(lambda: page.js("return window.slingReady === true"), "the page to load")
    Select(page.driver.find_element(By.ID, "game")).select_by_value("pig")
    Select(page.driver.find_element(By.ID, "side0")).select_by_value("easy")
    Select(page.driver.find_element(By.ID, "side1")).select_by_value("easy")
    Select(page.driver.find_element(By.ID, "delay")).select_by_value("0")
    page.click("watch")
    page.wait(lambda: page.js("return !!window.slingState && window.slingState.over"),
              "the watched game to end")
    print("watched: " + page.js("return window.slingState.result"))


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
    destination = destinations[-1]
    to_hex = destination.get_attribute("data-hex")
    destination.click()
    state = page.settle()
    moved = [e["text"] for e in state["log"] if e["side"] == 0 and e["text"].startswith("Danes: to ")]
    if not moved:
        fail("the army did not move (from hex %s to hex %s)" % (army_hex, to_hex))
    print("danelaw: " + moved[-1])
    return state


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
    shot = False
    for _ in range(1000):
        state = page.settle()
        if state["over"]:
            break
        if not shot and state["board"]["turn_total"] > 0:
            page.screenshot(out, "pig.png")
            shot = True
        hold = state["board"]["turn_total"] >= 20
        button = next(b for b in page.buttons("actions") if b.text.startswith("hold" if hold else "roll"))
        button.click()
    if not state["over"]:
        fail("the game of Pig did not finish")
    print("pig: " + state["result"])


def check_phone_width(page):
    page.driver.set_window_size(390, 844)
    time.sleep(0.3)
    overflow = page.js("return document.documentElement.scrollWidth - window.innerWidth")
    # The innermost element that sticks out, to name in the failure.
    culprit = page.js("""
        let found = '';
        for (const e of document.querySelectorAll('body *')) {
          const r = e.getBoundingClientRect();
          if (r.right > window.innerWidth + 1 && r.width > 0)
            found = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
                    (e.className && e.className.baseVal === undefined ? '.' + e.className : '') +
                    ' (' + Math.round(r.right) + ' px): ' + (e.textContent || '').slice(0, 80);
        }
        return found;""")
    page.driver.set_window_size(1280, 800)
    if overflow > 1:
        fail("the page is %d px wider than a phone's screen: %s" % (overflow, culprit))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sling", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
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
        state = play_duel(page, args.out)
        check_phone_width(page)
        saved = save_and_reload(page, downloads, state)
        replay_save(page, saved)
        watch_pig(page)
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
