import DeepLinkCore
import Synchronization

/// What a `dl_resolver *` points to: one ``LinkResolver`` with the app's validator and parser,
/// and the router that calls the app's C callback.
///
/// Thread safety: immutable after creation; the resolver is thread-safe, so every C function may be
/// called from any thread.
final class CResolver: Sendable {
    let resolver: LinkResolver
    let validator: LinkValidator
    let parser = ReferrerParser()
    let router: CallbackRouter

    init(resolver: LinkResolver, validator: LinkValidator, router: CallbackRouter) {
        self.resolver = resolver
        self.validator = validator
        self.router = router
    }
}

/// The C callback's type (`dl_route_callback`).
typealias RouteCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int, Int32) -> Int32

/// A ``Router`` that hands each link to the app's C callback, which answers 1 (handled) or 0
/// (not ready).
///
/// Thread safety: `@unchecked Sendable` because it holds the app's `context` pointer, which the
/// header tells the app must be usable from any thread; the callback itself is a plain C function.
final class CallbackRouter: Router, @unchecked Sendable {
    let callback: RouteCallback
    let context: UnsafeMutableRawPointer?
    /// Set by `dl_resolver_destroy`: no callback after it.
    let closed = Atomic<Bool>(false)

    init(callback: RouteCallback, context: UnsafeMutableRawPointer?) {
        self.callback = callback
        self.context = context
    }

    func route(_ link: PendingLink) -> RouteResult {
        guard !closed.load(ordering: .acquiring) else { return .notReady }
        let source = Int32(link.source.rawValue)
        let handled = link.link.withUTF8Bytes { bytes in
            callback(context, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, source)
        }
        return handled != 0 ? .handled : .notReady
    }
}
