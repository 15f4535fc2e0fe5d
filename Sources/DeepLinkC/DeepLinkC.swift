import DeepLinkCore

// The C functions of `include/deeplink.h`. Every one checks its input and answers a negative
// error code instead of trapping; none allocates on the capture and signal paths beyond what the
// resolver does (nothing, after warm-up, with the in-memory store). Links come in only through the
// resolver's public capture calls, which validate and authenticate every one.

/// Error codes and outcomes, as the header numbers them.
enum CCode {
    static let ok: Int32 = 0
    static let rejected: Int32 = 1
    static let organic: Int32 = 2
    static let notSet: Int32 = 3
    static let noPayload: Int32 = 4
    static let referrerRefused: Int32 = 5
    static let errorNull: Int32 = -1
    static let errorInvalidUTF8: Int32 = -2
    static let errorInvalidPrefix: Int32 = -3
    static let errorStore: Int32 = -4
    static let errorUnknownEvent: Int32 = -5
    static let errorUnknownSource: Int32 = -6
    static let errorInvalidAccount: Int32 = -7
    static let errorInvalidSigning: Int32 = -8
}

/// The bytes at `pointer`, or `nil` when `pointer` is NULL with a nonzero length. NULL with
/// length 0 is the empty string.
func bytes(_ pointer: UnsafePointer<UInt8>?, _ length: Int) -> UnsafeRawBufferPointer? {
    guard length >= 0 else { return nil }
    guard let pointer else { return length == 0 ? UnsafeRawBufferPointer(start: nil, count: 0) : nil }
    return UnsafeRawBufferPointer(start: pointer, count: length)
}

/// The comma-separated items of a UTF-8 list, trimmed of spaces; `nil` when it is not UTF-8.
func list(_ pointer: UnsafePointer<UInt8>?, _ length: Int) -> [String]? {
    guard let raw = bytes(pointer, length), let text = String(validating: raw, as: UTF8.self) else { return nil }
    return text.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

func handle(_ pointer: OpaquePointer?) -> CResolver? {
    pointer.map { Unmanaged<CResolver>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
}

@_cdecl("dl_resolver_create")
public func dl_resolver_create(
    _ allowedHosts: UnsafePointer<UInt8>?,
    _ allowedHostsLength: Int,
    _ loginPrefixes: UnsafePointer<UInt8>?,
    _ loginPrefixesLength: Int,
    _ storeDirectory: UnsafePointer<CChar>?,
    _ accountKey: UnsafePointer<CChar>?,
    _ callback: RouteCallback?,
    _ context: UnsafeMutableRawPointer?,
    _ error: UnsafeMutablePointer<Int32>?
) -> OpaquePointer? {
    dl_resolver_create_signed(
        allowedHosts,
        allowedHostsLength,
        loginPrefixes,
        loginPrefixesLength,
        storeDirectory,
        accountKey,
        nil,
        0,
        nil,
        nil,
        callback,
        context,
        error
    )
}

@_cdecl("dl_resolver_create_signed")
public func dl_resolver_create_signed(
    _ allowedHosts: UnsafePointer<UInt8>?,
    _ allowedHostsLength: Int,
    _ loginPrefixes: UnsafePointer<UInt8>?,
    _ loginPrefixesLength: Int,
    _ storeDirectory: UnsafePointer<CChar>?,
    _ accountKey: UnsafePointer<CChar>?,
    _ signedPrefixes: UnsafePointer<UInt8>?,
    _ signedPrefixesLength: Int,
    _ authenticate: AuthenticateCallback?,
    _ authenticateContext: UnsafeMutableRawPointer?,
    _ callback: RouteCallback?,
    _ context: UnsafeMutableRawPointer?,
    _ error: UnsafeMutablePointer<Int32>?
) -> OpaquePointer? {
    func fail(_ code: Int32) -> OpaquePointer? {
        error?.pointee = code
        return nil
    }
    guard let callback else { return fail(CCode.errorNull) }
    guard let hosts = list(allowedHosts, allowedHostsLength), let prefixes = list(loginPrefixes, loginPrefixesLength),
        let signed = list(signedPrefixes, signedPrefixesLength)
    else {
        return fail(CCode.errorInvalidUTF8)
    }
    let policy: RoutePolicy
    do {
        policy = try RoutePolicy(rules: prefixes.map { (prefix: $0, requires: .loggedIn) })
    } catch {
        return fail(CCode.errorInvalidPrefix)
    }
    // Signatures are opt-in: prefixes without a callback to check them (or the reverse) are refused.
    var signing: SignedLinkVerifier?
    if !signed.isEmpty || authenticate != nil {
        guard let authenticate, !signed.isEmpty else { return fail(CCode.errorInvalidSigning) }
        let authenticator = CallbackAuthenticator(callback: authenticate, context: authenticateContext)
        do {
            signing = try SignedLinkVerifier(requiringSignatureUnder: signed, authenticator: authenticator)
        } catch {
            return fail(CCode.errorInvalidPrefix)
        }
    }
    let store: any HandoffStore
    if let storeDirectory {
        guard let directory = String(validatingCString: storeDirectory) else { return fail(CCode.errorInvalidUTF8) }
        do {
            store = try FileHandoffStore(directory: directory)
        } catch {
            return fail(CCode.errorStore)
        }
    } else {
        store = InMemoryHandoffStore()
    }
    var referrerAccountKey: String?
    if let accountKey {
        guard let key = String(validatingCString: accountKey), !key.isEmpty else {
            return fail(CCode.errorInvalidUTF8)
        }
        referrerAccountKey = key
    }
    let router = CallbackRouter(callback: callback, context: context)
    let resolver = CResolver(
        resolver: LinkResolver(
            configuration: .init(policy: policy, referrerAccountKey: referrerAccountKey, signing: signing),
            store: store,
            router: router
        ),
        validator: LinkValidator(configuration: .init(allowedHosts: hosts)),
        router: router
    )
    error?.pointee = CCode.ok
    return OpaquePointer(Unmanaged.passRetained(resolver).toOpaque())
}

@_cdecl("dl_resolver_launch")
public func dl_resolver_launch(_ pointer: OpaquePointer?) -> Int32 {
    guard let resolver = handle(pointer) else { return CCode.errorNull }
    do {
        return Int32(clamping: try resolver.resolver.launch())
    } catch {
        return CCode.errorStore
    }
}

@_cdecl("dl_resolver_capture_referrer")
public func dl_resolver_capture_referrer(
    _ pointer: OpaquePointer?,
    _ referrer: UnsafePointer<UInt8>?,
    _ length: Int,
    _ id: UInt64,
    _ installBeginTimestamp: UInt64,
    _ clickTimestampSeconds: UInt64
) -> Int32 {
    guard let resolver = handle(pointer), let input = bytes(referrer, length) else { return CCode.errorNull }
    let outcome = resolver.resolver.captureReferrer(
        input,
        parser: resolver.parser,
        validator: resolver.validator,
        id: id,
        installBeginTimestamp: installBeginTimestamp,
        clickTimestampSeconds: clickTimestampSeconds
    )
    switch outcome {
    case .link: return CCode.ok
    case .rejected: return CCode.rejected
    case .organic: return CCode.organic
    case .notSet: return CCode.notSet
    case .noPayload: return CCode.noPayload
    case .error: return CCode.referrerRefused
    }
}

@_cdecl("dl_resolver_capture_link")
public func dl_resolver_capture_link(
    _ pointer: OpaquePointer?,
    _ link: UnsafePointer<UInt8>?,
    _ length: Int,
    _ source: Int32,
    _ id: UInt64
) -> Int32 {
    guard let resolver = handle(pointer), let payload = bytes(link, length) else { return CCode.errorNull }
    guard source >= 0, source <= Int32(UInt8.max), let linkSource = LinkSource(rawValue: UInt8(source)) else {
        return CCode.errorUnknownSource
    }
    let rejection = resolver.resolver.capture(
        payload: payload,
        validator: resolver.validator,
        source: linkSource,
        id: id
    )
    return rejection == nil ? CCode.ok : CCode.rejected
}

@_cdecl("dl_resolver_signal")
public func dl_resolver_signal(_ pointer: OpaquePointer?, _ event: Int32) -> Int32 {
    guard let resolver = handle(pointer) else { return CCode.errorNull }
    let appEvent: AppEvent
    switch event {
    case 0: appEvent = .appReady
    case 1: appEvent = .loggedIn
    case 2: appEvent = .loggedOut
    default:
        guard event >= 100, let custom = AppEvent.Custom(id: Int(event) - 100) else { return CCode.errorUnknownEvent }
        appEvent = .custom(custom)
    }
    resolver.resolver.signal(appEvent)
    return CCode.ok
}

@_cdecl("dl_resolver_signal_login")
public func dl_resolver_signal_login(
    _ pointer: OpaquePointer?,
    _ account: UnsafePointer<UInt8>?,
    _ length: Int
) -> Int32 {
    guard let resolver = handle(pointer), let bytes = bytes(account, length) else { return CCode.errorNull }
    guard let id = try? AccountID(validating: bytes) else { return CCode.errorInvalidAccount }
    resolver.resolver.signal(.loggedInAs(id))
    return CCode.ok
}

@_cdecl("dl_resolver_destroy")
public func dl_resolver_destroy(_ pointer: OpaquePointer?) {
    guard let pointer else { return }
    let resolver = Unmanaged<CResolver>.fromOpaque(UnsafeRawPointer(pointer))
    resolver.takeUnretainedValue().router.closed.store(true, ordering: .releasing)
    resolver.release()
}
