/// Strings' UTF-8 bytes, each in a buffer made once and read by index inside a closure. Reading
/// one retains nothing, where an element of an array of arrays is retained and released around
/// every use (~65 instructions per `core` journey, which reads a catalog URL or referrer); one
/// flat array read through `withUnsafeBytes` measured ~70 more than that.
///
/// The buffers are never freed: a table is a `static let` of the catalog, which lives as long as
/// the process.
///
/// Thread safety: immutable after `init`, so `@unchecked Sendable` (raw pointers are not `Sendable`).
struct UTF8Table: @unchecked Sendable {
    private let buffers: [UnsafeRawBufferPointer]

    init(_ strings: [String]) {
        buffers = strings.map { string in
            let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: string.utf8.count, alignment: 1)
            _ = bytes.initializeMemory(as: UInt8.self, from: string.utf8)
            return UnsafeRawBufferPointer(bytes)
        }
    }

    /// The number of strings.
    var count: Int { buffers.count }

    /// String `index`'s bytes, for a value that carries them across threads (a racing
    /// ``CaptureBurst``): valid for the process's life, as the buffers are never freed.
    func bytes(_ index: Int) -> UnsafeRawBufferPointer { buffers[index] }

    /// `body` over string `index`'s bytes (valid only inside it).
    @inline(__always)
    func withBytes<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(buffers[index])
    }
}
