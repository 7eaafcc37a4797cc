"""browser.py -- headless Chromium driven over the DevTools protocol on a pipe.

Chromium started with --remote-debugging-pipe reads protocol commands on its fd 3 and writes
replies and events on its fd 4, each one JSON message ended by a NUL byte (no network port, no
third-party package). A Page loads one local file at a given viewport, records every console
error, uncaught exception and error log entry, evaluates expressions and writes a screenshot
of the whole page.
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def high_fd(fd):
    new = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return new


class Browser:
    def __init__(self, binary, timeout=60.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="ckm-chromium-")
        cmd_r, cmd_w = os.pipe()  # we write commands, Chromium reads them on its fd 3
        ev_r, ev_w = os.pipe()  # Chromium writes on its fd 4, we read
        cmd_r, ev_w = high_fd(cmd_r), high_fd(ev_w)  # clear of 3 and 4, which the child's shell sets

        args = [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-dev-shm-usage", "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
                "about:blank"]
        # the shell puts the pipe ends on fds 3 and 4, whatever numbers they have here
        shell = ["/bin/bash", "-c", 'exec "$0" "$@" 3<&%d 4>&%d %d<&- %d>&-' % (cmd_r, ev_w, cmd_r, ev_w)]
        self.proc = subprocess.Popen(shell + args, pass_fds=(cmd_r, ev_w),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(ev_w)
        self.out = cmd_w
        self.inp = ev_r
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("Chromium did not answer in time")
            ready, _, _ = select.select([self.inp], [], [], left)
            if ready:
                chunk = os.read(self.inp, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium closed the pipe (exit %s)" % self.proc.poll())
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None):
        """One command; its result (events that arrive meanwhile are kept)."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.out, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method, session, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        for i, ev in enumerate(self.events):
            if ev.get("method") == method and ev.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            ev = self._read_message(deadline)
            if ev.get("method") == method and ev.get("sessionId") == session:
                return ev
            self.events.append(ev)

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.out)
        os.close(self.inp)
        shutil.rmtree(self.profile, ignore_errors=True)

    def open(self, path, width=1280, height=800):
        return Page(self, path, width, height)


class Page:
    def __init__(self, browser, path, width, height):
        self.b = browser
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page.enable", "Runtime.enable", "Log.enable"):
            browser.send(domain, session=self.session)
        browser.send("Emulation.setDeviceMetricsOverride",
                     {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, self.session)
        browser.send("Page.navigate", {"url": "file://" + os.path.abspath(path)}, self.session)
        browser.wait_event("Page.loadEventFired", self.session)

    def errors(self):
        """Console errors, uncaught exceptions and error log entries of this page so far."""
        found = []
        for ev in self.b.events:
            if ev.get("sessionId") != self.session:
                continue
            m, p = ev.get("method"), ev.get("params", {})
            if m == "Runtime.exceptionThrown":
                found.append("exception: %s" % p["exceptionDetails"].get("exception", {}).get(
                    "description", p["exceptionDetails"].get("text")))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                found.append("console.%s: %s" % (p["type"], [a.get("value", a.get("description")) for a in p["args"]]))
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                found.append("log: %s" % p["entry"].get("text"))
        return found

    def eval(self, expression):
        r = self.b.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, self.session)
        if "exceptionDetails" in r:
            raise RuntimeError("evaluating %r: %s" % (expression, r["exceptionDetails"]))
        return r["result"].get("value")

    def screenshot(self, path):
        m = self.b.send("Page.getLayoutMetrics", session=self.session)
        size = m.get("cssContentSize", m.get("contentSize"))
        shot = self.b.send("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}}, self.session)
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
