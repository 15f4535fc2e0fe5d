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
public typealias RouteCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int, Int32) -> Int32

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

/// The C authenticator callback's type (`dl_authenticate_callback`).
public typealias AuthenticateCallback =
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int
    ) -> Int32

/// A ``PayloadAuthenticator`` that asks the app's C callback (the app's own HMAC-SHA256: `javax.crypto`
/// on Android, CryptoKit on iOS), which answers 1 (authentic), 0 (forged) or -1 (unknown key).
///
/// Thread safety: `@unchecked Sendable` because it holds the app's `context` pointer, which the
/// header tells the app must be usable from any thread (every capturing thread calls it).
final class CallbackAuthenticator: PayloadAuthenticator, @unchecked Sendable {
    let callback: AuthenticateCallback
    let context: UnsafeMutableRawPointer?

    init(callback: AuthenticateCallback, context: UnsafeMutableRawPointer?) {
        self.callback = callback
        self.context = context
    }

    func authenticity(
        ofTag tag: UnsafeRawBufferPointer,
        message: UnsafeRawBufferPointer,
        keyID: UnsafeRawBufferPointer
    ) -> PayloadAuthenticity {
        func bytes(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? {
            buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
        }
        let answer = callback(
            context,
            bytes(tag),
            tag.count,
            bytes(message),
            message.count,
            bytes(keyID),
            keyID.count
        )
        switch answer {
        case 1: return .authentic
        case -1: return .unknownKey
        default: return .forged  // 0, and anything the header does not define: fail closed
        }
    }
}
