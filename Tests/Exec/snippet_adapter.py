#!/usr/bin/env python3
"""The article's deferred deep-link code, translated to Python as written, behind the journey
protocol (Docs/Protocol.md, version 1). Standard library only.

What is translated (the article's three snippets, nothing added):
* the App Clip writes the invocation URL into one App Group key, `pendingDeepLink` (a second clip
  run overwrites it);
* the full app, at launch, reads that key once, enqueues it and removes it at once;
* Android: on every launch the Install Referrer callback enqueues whatever an OK referrer holds
  (here: its `deeplink` field, decoded once, as the Flutter platform channel would hand it over);
  `onInstallReferrerServiceDisconnected` does nothing, so a retry is never made;
* `DeepLinkQueue`: one in-memory `_pending` slot and one `_authReady` flag that only `loggedIn`
  sets; `_tryResolve` routes `link.path` as soon as both are there.

No validation, no time-to-live, no memory of what was routed: the harness shows this losing links
(a kill before login) and duplicating them (the referrer re-read on every launch).
"""

import json
import os
import sys
from urllib.parse import parse_qs, urlsplit

CONTAINER_KEY = "pendingDeepLink"


class Router:
    """Records `router.go(path)` as the protocol's route answer."""

    def __init__(self, out):
        self.out = out
        self.journey = 0
        self.seq = 0
        self.crash_armed = False
        self.dead = False

    def go(self, path):
        if self.crash_armed:
            # The process dies inside the route call (the harness's crash window).
            self.crash_armed = False
            self.dead = True
            self.out({"type": "drop", "journey": self.journey, "reason": "crashWindow"})
            return
        self.out({"type": "route", "journey": self.journey, "seq": self.seq, "link": path})


class DeepLinkQueue:
    """The article's Dart class, line by line."""

    def __init__(self, router):
        self.router = router
        self._pending = None  # Uri? _pending;
        self._auth_ready = False  # bool _authReady = false;

    def enqueue(self, link):
        self._pending = link
        self._try_resolve()

    # Called by the business layer, for example after a successful login.
    def on_event(self, event):
        if event == "loggedIn":
            self._auth_ready = True
        self._try_resolve()

    def _try_resolve(self):
        link = self._pending
        if link is None or not self._auth_ready:
            return  # wait for both
        self._pending = None
        self.router.go(urlsplit(link).path)  # Dart: router.go(link.path)


class Container:
    """The App Group container / UserDefaults: one JSON file in the journey's state directory."""

    def __init__(self, directory):
        self.path = os.path.join(directory, "container.json")

    def read(self):
        try:
            with open(self.path) as handle:
                return json.load(handle)
        except FileNotFoundError:
            return {}

    def write(self, values):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        with open(self.path, "w") as handle:
            json.dump(values, handle)

    def delete(self):
        try:
            os.remove(self.path)
        except FileNotFoundError:
            pass


class App:
    def __init__(self, out):
        self.out = out
        self.router = Router(out)
        self.queue = None
        self.container = None
        self.running = False

    def start_journey(self, message):
        self.router.journey = message["journey"]
        self.router.crash_armed = False
        self.router.dead = False
        self.container = Container(message["stateDir"])
        self.running = False
        self.queue = None

    def handle(self, event):
        kind = event["type"]
        self.router.seq = event.get("seq", 0)
        if kind == "clipLaunch":
            # App Clip: shared.set(url.absoluteString, forKey: "pendingDeepLink")
            values = self.container.read()
            values[CONTAINER_KEY] = event["url"]
            values["pendingDeepLinkAt"] = event["time"]
            self.container.write(values)
        elif kind == "launch":
            self.running = True
            self.router.dead = False
            self.router.crash_armed = False
            self.queue = DeepLinkQueue(self.router)
            values = self.container.read()
            link = values.get(CONTAINER_KEY)
            if link is not None:
                self.queue.enqueue(link)
                del values[CONTAINER_KEY]
                self.container.write(values)
        elif not self.running or self.router.dead:
            if kind in ("appDeleted", "clipDataPurged"):
                self.container.delete()
            return
        elif kind == "referrer":
            # onInstallReferrerSetupFinished: OK -> DeepLinkQueue.enqueue(referrer)
            if event.get("retry"):
                return  # onInstallReferrerServiceDisconnected() {} never retries
            if event["result"] == "OK" and event["referrer"] is not None:
                payload = parse_qs(event["referrer"]).get("deeplink")
                if payload:
                    self.queue.enqueue(payload[0])
        elif kind == "universalLink":
            self.queue.enqueue(event["url"])
        elif kind in ("appReady", "loggedIn", "loggedOut"):
            self.queue.on_event(kind)
        elif kind == "kill":
            self.running = False
            self.queue = None
        elif kind in ("appDeleted", "clipDataPurged"):
            self.container.delete()
            if kind == "appDeleted":
                self.running = False
                self.queue = None
        elif kind == "crashArmed":
            self.router.crash_armed = True


def main():
    output = sys.stdout

    def out(message):
        output.write(json.dumps(message, separators=(",", ":")) + "\n")

    app = App(out)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            out({"type": "hello", "protocol": 1, "name": "article snippet (Python)", "reasons": ["crashWindow"]})
            output.flush()
        elif kind == "journey":
            app.start_journey(message)
        elif kind == "end":
            out({"type": "done", "journey": message["journey"]})
            output.flush()
        else:
            app.handle(message)


if __name__ == "__main__":
    main()
