#!/usr/bin/env python3
"""The C ABI (Sources/DeepLinkC/include/deeplink.h) from Python ctypes, as a Flutter (dart:ffi) or
Kotlin (JNI) app would call it: a referrer captured, login signalled, the route received exactly
once, a router that is not ready offered the link again, bad input answered with an error code.

Usage: test_c_abi.py path/to/libDeepLinkC.so   (exit 0: every check passed; 1: a check failed)
"""
import ctypes
import os
import sys
import tempfile

DL_OK, DL_REJECTED, DL_ORGANIC, DL_NOT_SET, DL_NO_PAYLOAD, DL_REFERRER_REFUSED = 0, 1, 2, 3, 4, 5
DL_ERROR_NULL, DL_ERROR_INVALID_UTF8, DL_ERROR_INVALID_PREFIX = -1, -2, -3
DL_ERROR_STORE, DL_ERROR_UNKNOWN_EVENT, DL_ERROR_UNKNOWN_SOURCE, DL_ERROR_INVALID_ACCOUNT = -4, -5, -6, -7
APP_READY, LOGGED_IN, LOGGED_OUT, CUSTOM = 0, 1, 2, 100
SOURCE_APP_CLIP, SOURCE_INSTALL_REFERRER, SOURCE_UNIVERSAL_LINK = 0, 1, 2

ROUTE = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint8), ctypes.c_size_t,
                         ctypes.c_int32)
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def load(path):
    lib = ctypes.CDLL(path)
    lib.dl_resolver_create.restype = ctypes.c_void_p
    lib.dl_resolver_create.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t,
                                       ctypes.c_char_p, ctypes.c_char_p, ROUTE, ctypes.c_void_p,
                                       ctypes.POINTER(ctypes.c_int32)]
    for name in ["dl_resolver_launch", "dl_resolver_signal"]:
        getattr(lib, name).restype = ctypes.c_int32
    lib.dl_resolver_launch.argtypes = [ctypes.c_void_p]
    lib.dl_resolver_signal.argtypes = [ctypes.c_void_p, ctypes.c_int32]
    lib.dl_resolver_signal_login.restype = ctypes.c_int32
    lib.dl_resolver_signal_login.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.dl_resolver_capture_referrer.restype = ctypes.c_int32
    lib.dl_resolver_capture_referrer.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t,
                                                 ctypes.c_uint64, ctypes.c_uint64, ctypes.c_uint64]
    lib.dl_resolver_capture_link.restype = ctypes.c_int32
    lib.dl_resolver_capture_link.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int32,
                                             ctypes.c_uint64]
    lib.dl_resolver_destroy.restype = None
    lib.dl_resolver_destroy.argtypes = [ctypes.c_void_p]
    return lib


class App:
    """A resolver and the app's router: it records every link it handles; `ready` says whether the
    screen is there."""

    def __init__(self, lib, hosts=b"example.com", prefixes=b"/orders", directory=None, account_key=None):
        self.lib = lib
        self.routes = []
        self.ready = True
        self.callback = ROUTE(self.route)  # kept alive as long as the resolver
        error = ctypes.c_int32(99)
        self.handle = lib.dl_resolver_create(hosts, len(hosts), prefixes, len(prefixes), directory, account_key,
                                             self.callback, None, ctypes.byref(error))
        self.error = error.value

    def route(self, _context, link, length, source):
        if not self.ready:
            return 0
        self.routes.append((bytes(link[:length]).decode(), source))
        return 1

    def referrer(self, text, delivery_id, install_begin):
        data = text.encode()
        return self.lib.dl_resolver_capture_referrer(self.handle, data, len(data), delivery_id, install_begin,
                                                     1_700_000_000)

    def link(self, text, source, link_id):
        data = text.encode()
        return self.lib.dl_resolver_capture_link(self.handle, data, len(data), source, link_id)

    def signal(self, event):
        return self.lib.dl_resolver_signal(self.handle, event)

    def login(self, account):
        return self.lib.dl_resolver_signal_login(self.handle, account, len(account))


def main(path):
    lib = load(path)

    # A referrer captured, login signalled, the route received exactly once.
    app = App(lib)
    check(app.handle is not None and app.error == DL_OK, f"create: handle {app.handle}, error {app.error}")
    check(app.referrer("utm_source=google&deeplink=%2Forders%2F42", 1, 777) == DL_OK, "referrer captured")
    check(app.signal(APP_READY) == DL_OK, "appReady")
    check(app.routes == [], f"routed before login: {app.routes}")
    check(app.signal(LOGGED_IN) == DL_OK, "loggedIn")
    check(app.routes == [("/orders/42", SOURCE_INSTALL_REFERRER)], f"route after login: {app.routes}")
    check(app.referrer("utm_source=google&deeplink=%2Forders%2F42", 2, 777) == DL_OK, "re-delivery accepted")
    app.signal(LOGGED_IN)
    check(len(app.routes) == 1, f"a re-delivered referrer routed again: {app.routes}")

    # Linkless referrers and rejections are outcomes, not errors.
    check(app.referrer("utm_source=google-play&utm_medium=organic", 3, 778) == DL_ORGANIC, "organic")
    check(app.referrer("utm_source=(not%20set)&utm_medium=(not%20set)", 4, 779) == DL_NOT_SET, "not set")
    check(app.referrer("1234567", 5, 780) == DL_NO_PAYLOAD, "bare token")
    check(app.referrer("deeplink=javascript%3Aalert(1)", 6, 781) == DL_REJECTED, "javascript rejected")
    check(app.referrer("a=" + "x" * 5000, 7, 782) == DL_REFERRER_REFUSED, "over-long referrer refused")
    check(app.link("https://evil.example/login", SOURCE_UNIVERSAL_LINK, 8) == DL_REJECTED, "foreign host")
    check(len(app.routes) == 1, f"something else routed: {app.routes}")

    # A router that is not ready gets the link again at the next signal.
    app.ready = False
    check(app.link("https://example.com/product/7?ref=share", SOURCE_UNIVERSAL_LINK, 9) == DL_OK, "link captured")
    check(len(app.routes) == 1, "routed while not ready")
    app.ready = True
    app.signal(APP_READY)
    check(app.routes[-1] == ("/product/7?ref=share", SOURCE_UNIVERSAL_LINK), f"offered again: {app.routes}")
    check(len(app.routes) == 2, f"routes: {app.routes}")

    # Bad input: error codes, never a crash.
    check(app.signal(7) == DL_ERROR_UNKNOWN_EVENT, "unknown event")
    check(app.signal(CUSTOM + 62) == DL_ERROR_UNKNOWN_EVENT, "custom event out of range")
    check(app.signal(CUSTOM + 3) == DL_OK, "custom event")
    check(app.link("/product/1", 9, 10) == DL_ERROR_UNKNOWN_SOURCE, "unknown source")
    check(lib.dl_resolver_capture_link(app.handle, None, 5, SOURCE_APP_CLIP, 11) == DL_ERROR_NULL, "NULL bytes")
    check(lib.dl_resolver_capture_link(app.handle, None, 0, SOURCE_APP_CLIP, 12) == DL_REJECTED, "empty payload")
    check(lib.dl_resolver_signal(None, APP_READY) == DL_ERROR_NULL, "NULL handle")
    check(App(lib, hosts=b"\xff\xfe").error == DL_ERROR_INVALID_UTF8, "hosts that are not UTF-8")
    check(App(lib, prefixes=b"orders").error == DL_ERROR_INVALID_PREFIX, "a prefix that is not a path")
    check(App(lib, prefixes=b"/a,/a").error == DL_ERROR_INVALID_PREFIX, "a prefix listed twice")
    check(App(lib, directory=b"/proc/no/such/dir").error == DL_ERROR_STORE, "a store that cannot be opened")
    check(App(lib).handle is not None, "a handle")
    lib.dl_resolver_destroy(app.handle)
    lib.dl_resolver_destroy(None)

    # Per-account links: a link bound to alice waits through bob's login and routes at hers.
    bound = App(lib, account_key=b"account")
    check(bound.error == DL_OK, f"create with an account key: error {bound.error}")
    check(bound.referrer("deeplink=%2Fproduct%2F5&account=alice", 30, 900) == DL_OK, "bound referrer captured")
    bound.signal(APP_READY)
    check(bound.login(b"bob") == DL_OK, "bob logs in")
    check(bound.routes == [], f"alice's link routed for bob: {bound.routes}")
    check(bound.signal(LOGGED_OUT) == DL_OK, "logout")
    check(bound.login(b"alice") == DL_OK, "alice logs in")
    check(bound.routes == [("/product/5", SOURCE_INSTALL_REFERRER)], f"route at alice's login: {bound.routes}")
    check(bound.referrer("deeplink=%2Fproduct%2F6&account=bob%20smith", 31, 901) == DL_REJECTED, "invalid account")
    check(bound.login(b"bob smith") == DL_ERROR_INVALID_ACCOUNT, "a login id with a space")
    check(lib.dl_resolver_signal_login(bound.handle, None, 3) == DL_ERROR_NULL, "NULL account bytes")
    check(App(lib, account_key=b"").error == DL_ERROR_INVALID_UTF8, "an empty account key")
    lib.dl_resolver_destroy(bound.handle)

    # The file store: a link captured before a kill is routed by the next process.
    with tempfile.TemporaryDirectory() as root:
        directory = os.path.join(root, "handoff").encode()
        first = App(lib, directory=directory)
        check(first.link("/orders/9", SOURCE_APP_CLIP, 20) == DL_OK, "handoff captured")
        lib.dl_resolver_destroy(first.handle)
        second = App(lib, directory=directory)
        check(lib.dl_resolver_launch(second.handle) == 1, "one link found at launch")
        second.signal(APP_READY)
        second.signal(LOGGED_IN)
        check(second.routes == [("/orders/9", SOURCE_APP_CLIP)], f"routed by the next process: {second.routes}")
        lib.dl_resolver_destroy(second.handle)

    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("C ABI: every check passed")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: test_c_abi.py path/to/libDeepLinkC.so", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
