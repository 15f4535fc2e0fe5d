#!/usr/bin/env python3
"""A journey-protocol adapter (Docs/Protocol.md, version 2) written from Docs/Protocol.md and
Docs/Rules.md alone: a second implementation of the rules, independent of DeepLinkCore. Standard
library only.

`conform` and `run` judge it with 0 violations. For the harness's tests it can plant one bug,
named by its one argument (`--bug NAME`), each a way a real implementation goes wrong:

  case-sensitive-gate    compares the gate's prefixes byte for byte (`/Orders/42` opens without login)
  any-account            routes a link bound to one account for whoever is logged in
  accept-replay          skips the used-nonce check and keys links by open, not by nonce: a replayed
                         signed link routes again
  replay-as-duplicate    skips the used-nonce check, but drops the replay as an ordinary duplicate
  drop-not-ready         treats a route the router declined as done (the link is lost)
  redelivery-supersedes  dedupes pending referrers by capture id alone: Play's re-delivery looks
                         new and supersedes the pending one
  no-signature-check     ignores signedPrefixes: forged links route
"""

import hashlib
import hmac
import json
import os
import re
import sys

BUG = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--bug" else None
MAX_LINK_BYTES = 512
MAX_REFERRER_BYTES = 4096
MAX_REFERRER_FIELDS = 64
UNRESERVED = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
INVISIBLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
]
ACCOUNT_BYTES = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~@+:")
HEX = re.compile(rb"%[0-9A-Fa-f]{2}")


class Rejected(Exception):
    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


# ---------------------------------------------------------------------------------------------
# Links: the canonical form and the rejections (Docs/Rules.md, "Links")


def percent_decoded(data):
    """Valid %XX escapes decoded; anything else as it is."""
    out = bytearray()
    i = 0
    while i < len(data):
        if data[i] == 0x25 and HEX.match(data, i):
            out.append(int(data[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(data[i])
            i += 1
    return bytes(out)


def scan_content(data):
    """Control, invisible, backslash, then malformed escapes, raw or percent-encoded."""
    if b"%" in data and re.search(rb"%(?![0-9A-Fa-f]{2})", data):
        malformed = True
    else:
        malformed = False
    decoded = percent_decoded(data)
    try:
        text = decoded.decode("utf-8")
    except UnicodeDecodeError:
        text = decoded.decode("utf-8", "replace")
    control = invisible = backslash = False
    for ch in text:
        c = ord(ch)
        if c < 0x20 or c == 0x7F or 0x80 <= c <= 0x9F:
            control = True
        elif any(lo <= c <= hi for lo, hi in INVISIBLE):
            invisible = True
        elif ch == "\\":
            backslash = True
    for reason, found in (("controlCharacter", control), ("invisibleCharacter", invisible),
                          ("backslash", backslash), ("malformedPercentEscape", malformed)):
        if found:
            raise Rejected(reason)


def normalise(part):
    """RFC 3986 6.2.2: escaped unreserved characters decoded, other escapes' hex uppercased."""
    def one(match):
        value = int(match.group(0)[1:], 16)
        return bytes([value]) if value in UNRESERVED else match.group(0).upper()
    return HEX.sub(one, part)


def validate(payload, hosts):
    """The canonical link (bytes) of a payload (bytes), or Rejected."""
    if not payload:
        raise Rejected("empty")
    try:
        payload.decode("utf-8")
    except UnicodeDecodeError:
        raise Rejected("invalidUTF8")
    scan_content(payload)
    if payload.startswith(b"/"):
        rest = payload
    else:
        scheme = re.match(rb"^([A-Za-z][A-Za-z0-9+.-]*):", payload)
        if not scheme:
            raise Rejected("notAPath")
        if scheme.group(1).lower() != b"https":
            raise Rejected("disallowedScheme")
        after = payload[len(scheme.group(0)):]
        if not after.startswith(b"//"):
            raise Rejected("notAPath")
        authority = re.match(rb"^//([^/?#]*)", after)
        host = authority.group(1)
        rest = after[len(authority.group(0)):]
        if b"@" in host:
            raise Rejected("foreignHost")
        if b":" in host:
            host, port = host.split(b":", 1)
            if port not in (b"", b"443"):
                raise Rejected("foreignHost")
        if host.decode().lower() not in hosts:
            raise Rejected("foreignHost")
        if not rest.startswith(b"/"):
            rest = b"/" + rest
    if rest.startswith(b"//") or rest[:4].lower() == b"/%2f":
        raise Rejected("schemeRelative")
    rest = rest.split(b"#", 1)[0]
    path, _, query = rest.partition(b"?")
    has_query = b"?" in rest
    for segment in re.split(rb"/|%2[Ff]", path):
        if percent_decoded(segment.split(b";", 1)[0]) in (b".", b".."):
            raise Rejected("dotSegment")
    if re.search(rb"%(2[Ff]|3[Ff]|23|3[Bb])", path):
        raise Rejected("encodedDelimiter")
    link = normalise(path) + (b"?" + normalise(query) if has_query else b"")
    if len(link) > MAX_LINK_BYTES:
        raise Rejected("tooLong")
    return link


def under(path, prefix, fold_case=True):
    """Whether a canonical path lies under a prefix: at a segment boundary, ASCII case folded."""
    prefix = prefix.rstrip("/") or "/"
    if prefix == "/":
        return True
    head = path[:len(prefix)]
    same = head.lower() == prefix.lower() if fold_case else head == prefix
    return same and (len(path) == len(prefix) or path[len(prefix)] in "/;")


# ---------------------------------------------------------------------------------------------
# Referrers (Docs/Rules.md, "Referrers")


def form_fields(text):
    fields = []
    for piece in text.split(b"&"):
        if not piece:
            continue
        name, _, value = piece.partition(b"=")
        fields.append((percent_decoded(name.replace(b"+", b" ")), percent_decoded(value.replace(b"+", b" "))))
    return fields


def read_referrer(referrer, hello):
    """('link', link, account) | ('organic',) | ('notSet',) | ('none',), or Rejected."""
    if len(referrer) > MAX_REFERRER_BYTES:
        raise Rejected("malformedReferrer")
    if b"=" not in referrer and b"&" not in referrer and re.search(rb"%(3[Dd]|26)", referrer):
        referrer = percent_decoded(referrer)
    fields = form_fields(referrer)
    if len(fields) > MAX_REFERRER_FIELDS:
        raise Rejected("malformedReferrer")
    key = hello["payloadKey"].encode()
    payloads = [value for name, value in fields if name == key]
    if len(payloads) > 1:
        raise Rejected("duplicatePayloadKey")
    values = {}
    for name, value in fields:
        values.setdefault(name, value)
    if payloads:
        link = validate(payloads[0], hello["hosts"])
        account = values.get(hello.get("accountKey", "account").encode())
        if account is not None and (not account or len(account) > 64 or not set(account) <= ACCOUNT_BYTES):
            raise Rejected("invalidAccount")
        return ("link", link, account.decode() if account is not None else None)
    source, medium = values.get(b"utm_source"), values.get(b"utm_medium")
    if source == b"google-play" and medium == b"organic":
        return ("organic",)
    if source == b"(not set)" and medium == b"(not set)":
        return ("notSet",)
    return ("none",)


# ---------------------------------------------------------------------------------------------
# Signed links (Docs/Rules.md, "Signed links")

SIGNED = re.compile(rb"^(.*[?&])dl_kid=([A-Za-z0-9._-]{1,32})&dl_exp=([0-9]{1,10})&dl_nonce=([0-9a-f]{16})&dl_sig=(.*)$")


def check_signature(link, hello, now):
    """None for a link no prefix requires signed, else its nonce; or Rejected."""
    path = link.split(b"?", 1)[0].decode()
    if BUG == "no-signature-check":
        return None
    if not any(under(path, prefix) for prefix in hello["signedPrefixes"]):
        return None
    if not re.search(rb"[?&]dl_sig=", link):
        raise Rejected("missingSignature")
    match = SIGNED.match(link)
    if not match or not re.fullmatch(rb"[0-9a-f]{64}", match.group(5)):
        raise Rejected("badSignature")
    keys = dict(entry.split(":", 1) for entry in hello["signingKeys"])
    secret = keys.get(match.group(2).decode())
    if secret is None:
        raise Rejected("unknownKey")
    message = link[:link.rindex(b"&dl_sig=")]
    tag = hmac.new(bytes.fromhex(secret), message, hashlib.sha256).hexdigest().encode()
    if not hmac.compare_digest(tag, match.group(5)):
        raise Rejected("badSignature")
    if now >= int(match.group(3)):
        raise Rejected("expiredSignature")
    return match.group(4).decode()


# ---------------------------------------------------------------------------------------------
# The app


class Container:
    """The App Group container / SharedPreferences: pending handoffs and consumed marks."""

    def __init__(self, directory, durable):
        self.path = os.path.join(directory, "container.json")
        self.durable = durable
        self.data = {"pending": [], "consumed": []}
        if durable and os.path.exists(self.path):
            with open(self.path) as f:
                self.data = json.load(f)

    def save(self):
        if not self.durable:
            return
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        temporary = self.path + ".tmp"
        with open(temporary, "w") as f:
            json.dump(self.data, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, self.path)

    def wipe(self):
        self.data = {"pending": [], "consumed": []}
        if self.durable and os.path.exists(self.path):
            os.remove(self.path)


class App:
    def __init__(self, out):
        self.out = out
        self.hello = None

    def answer(self, **members):
        members["journey"] = self.journey
        self.out.write(json.dumps(members, separators=(",", ":")) + "\n")

    def drop(self, reason, rejection=None):
        if rejection:
            self.answer(type="drop", reason="rejected", rejection=rejection)
        else:
            self.answer(type="drop", reason=reason)

    def start(self, message):
        self.journey = message["journey"]
        durable = self.hello["kill"] == "signal"
        # The harness's router, not the app: it declines the journey's first route call, and says
        # so again on a resumption while that call is still to come.
        self.declines = bool(message.get("routerNotReady"))
        self.container = Container(message["stateDir"], durable)
        self.die()

    def die(self):
        self.running = False
        self.ready = False
        self.account = None
        self.logged_in = False
        self.pending = []
        self.crash_armed = False

    # Identities: a capture's id, and a referrer's install-begin time (the same for every
    # delivery of one install).
    def consumed(self, record):
        marks = self.container.data["consumed"]
        if record["id"] in marks:
            return True
        return record.get("install") is not None and ("install:%d" % record["install"]) in marks

    def same_capture(self, a, b):
        if a["id"] == b["id"]:
            return True
        if BUG == "redelivery-supersedes":
            return False
        return a.get("install") is not None and a.get("install") == b.get("install")

    def authenticate(self, link, now, redelivery=False):
        """The nonce of a verified signed link (None when unsigned), or Rejected."""
        nonce = check_signature(link, self.hello, now)
        if nonce is not None and not redelivery and ("nonce:" + nonce) in self.container.data["consumed"]:
            if BUG == "replay-as-duplicate":
                return "duplicate"
            if BUG != "accept-replay":
                raise Rejected("replayed")
        return nonce

    def capture(self, record, seq, time):
        if self.consumed(record) or any(self.same_capture(record, p) for p in self.pending):
            return
        self.pending.append(record)
        self.decide(seq, time)

    def requirements(self, record):
        path = record["link"].split("?", 1)[0]
        fold = BUG != "case-sensitive-gate"
        best = None
        for rule in self.hello["gate"]:
            words = rule.split(" ")
            if under(path, words[0], fold) and (best is None or len(words[0]) > len(best[0])):
                best = words
        needs = set(best[1:]) if best else set(self.hello.get("gateDefault", []))
        if record.get("account") is not None:
            needs.add("loggedIn")
        return needs

    def gate_open(self, record):
        needs = self.requirements(record)
        if "loggedIn" in needs and not self.logged_in:
            return False
        bound = record.get("account")
        if bound is not None and BUG != "any-account" and bound != self.account:
            return False
        return True

    def forget(self, record):
        self.pending.remove(record)
        stored = self.container.data["pending"]
        if record in stored:
            stored.remove(record)

    def mark(self, record):
        marks = self.container.data["consumed"]
        marks.append(record["id"])
        if record.get("install") is not None:
            marks.append("install:%d" % record["install"])
        if record.get("nonce"):
            marks.append("nonce:" + record["nonce"])

    def decide(self, seq, time):
        if not self.running:
            return
        for record in list(self.pending):
            if max(0, time - record["captured"]) > self.hello["ttlSeconds"]:
                self.forget(record)
                self.drop("expired")
        self.container.save()
        while self.ready and self.pending:
            newest = max(self.pending, key=lambda r: (r["captured"], r["arrival"]))
            if not self.gate_open(newest):
                return
            for older in [r for r in self.pending if r is not newest]:
                self.forget(older)
                self.mark(older)
                self.drop("superseded")
            self.forget(newest)
            self.mark(newest)
            self.container.save()
            if self.crash_armed:
                self.drop("crashWindow")
                self.die()
                return
            self.answer(type="route", seq=seq, link=newest["link"])
            if self.declines:
                # The router answered notReady: the link is pending again, and offered again
                # now, within the same step (its screen appears).
                self.declines = False
                if BUG == "drop-not-ready":
                    return
                marks = self.container.data["consumed"]
                for mark in (newest["id"], "install:%s" % newest.get("install"), "nonce:%s" % newest.get("nonce")):
                    if mark in marks:
                        marks.remove(mark)
                self.pending.append(newest)
                if newest["source"] != "universalLink":
                    self.container.data["pending"].append(newest)
                self.container.save()
                continue
            return

    def handle(self, message):
        kind = message.get("type")
        if kind == "hello":
            self.hello = message
            version = min(2, message.get("maxProtocol", 1))
            self.out.write(json.dumps({
                "type": "hello", "protocol": version, "name": "rules adapter (Python)" + (" bug " + BUG if BUG else ""),
                "reasons": ["rejected", "expired", "superseded", "organic", "notSet", "crashWindow"],
            }) + "\n")
            self.out.flush()
            return
        if kind == "journey":
            self.start(message)
            return
        if kind == "end":
            self.answer(type="done")
            self.out.flush()
            return
        seq, time = message.get("seq", 0), message.get("time", 0)
        if kind == "clipLaunch":
            try:
                link = validate(message["url"].encode("utf-8", "surrogateescape"), self.hello["hosts"])
                nonce = self.authenticate(link, time)
            except Rejected as rejection:
                self.drop("rejected", rejection.reason)
                return
            if nonce == "duplicate":
                return
            record = {"link": link.decode(), "source": "clip", "captured": time, "id": "clip:%d" % time,
                      "arrival": time, "nonce": nonce}
            if nonce:
                record["id"] = "nonce:" + nonce
            self.container.data["pending"].append(record)
            self.container.save()
        elif kind == "launch":
            self.die()
            self.running = True
            for record in list(self.container.data["pending"]):
                if not self.consumed(record):
                    self.pending.append(record)
            self.decide(seq, time)
        elif kind == "referrer":
            if not self.running or message.get("result") != "OK" or message.get("referrer") is None:
                return
            install = message["installBeginTime"]
            try:
                verdict = read_referrer(message["referrer"].encode("utf-8", "surrogateescape"), self.hello)
            except Rejected as rejection:
                self.drop("rejected", rejection.reason)
                return
            if verdict[0] in ("organic", "notSet"):
                self.drop(verdict[0])
                return
            if verdict[0] == "none":
                return
            _, link, account = verdict
            # Each delivery is a capture of its own (its own id); the install-begin time ties it
            # to the install.
            record = {"link": link.decode(), "source": "referrer", "captured": message["clickTime"],
                      "id": "referrer:%d:%d" % (install, seq), "install": install,
                      "arrival": time * 64 + seq, "account": account}
            redelivery = ("install:%d" % install) in self.container.data["consumed"]
            try:
                nonce = self.authenticate(link, time, redelivery)
            except Rejected as rejection:
                self.drop("rejected", rejection.reason)
                return
            if nonce == "duplicate":
                return
            record["nonce"] = nonce
            if self.consumed(record) or any(self.same_capture(record, p) for p in self.pending):
                return
            if not any(self.same_capture(record, p) for p in self.container.data["pending"]):
                self.container.data["pending"].append(record)
            self.capture(record, seq, time)
        elif kind == "universalLink":
            if not self.running:
                return
            try:
                link = validate(message["url"].encode("utf-8", "surrogateescape"), self.hello["hosts"])
                nonce = self.authenticate(link, time)
            except Rejected as rejection:
                self.drop("rejected", rejection.reason)
                return
            if nonce == "duplicate":
                return
            record = {"link": link.decode(), "source": "universalLink", "captured": time,
                      "id": ("nonce:" + nonce) if nonce and BUG != "accept-replay" else "universal:%d:%d" % (time, seq),
                      "arrival": time * 64 + seq, "nonce": nonce}
            self.capture(record, seq, time)
        elif kind == "appReady":
            if self.running:
                self.ready = True
                self.decide(seq, time)
        elif kind == "loggedIn":
            if self.running:
                self.logged_in = True
                self.account = message.get("account")
                self.decide(seq, time)
        elif kind == "loggedOut":
            if self.running:
                self.logged_in = False
                self.account = None
        elif kind == "clock":
            self.decide(seq, time)
        elif kind == "kill":
            self.die()
        elif kind == "appDeleted":
            self.die()
            self.container.wipe()
        elif kind == "clipDataPurged":
            self.container.wipe()
        elif kind == "crashArmed":
            self.crash_armed = True


def main():
    app = App(sys.stdout)
    for line in sys.stdin:
        app.handle(json.loads(line))


if __name__ == "__main__":
    main()
