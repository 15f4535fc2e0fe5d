/// Why a `--shard` value was refused; ``description`` is a one-line message naming the value.
///
/// Thread safety: an immutable value.
package enum ShardSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not two runs of ASCII digits separated by one `/`.
    case malformed(String)
    /// `n` is 0 or above ``ShardSpec/maximumCount``.
    case countOutOfRange(String)
    /// `i ≥ n`.
    case indexOutOfRange(String)

    package var description: String {
        switch self {
        case .malformed(let text): "'\(text)' is not i/n (two non-negative integers, e.g. 0/4)"
        case .countOutOfRange(let text): "'\(text)': n must be in 1...\(ShardSpec.maximumCount)"
        case .indexOutOfRange(let text): "'\(text)': i must be below n (shards are counted from 0)"
        }
    }
}
