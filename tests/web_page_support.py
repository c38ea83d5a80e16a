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
