/// How an option's text becomes a typed value, and what it expects when it cannot.
///
/// Thread safety: an immutable value holding a `@Sendable` function.
package struct ValueParser<Parsed: Sendable>: Sendable {
    package let parse: @Sendable (String) throws(OptionValueError) -> Parsed

    package init(_ parse: @escaping @Sendable (String) throws(OptionValueError) -> Parsed) {
        self.parse = parse
    }
}

extension ValueParser {
    /// A parser of the value's own type, whose error `message` words after the option's name.
    package init<Failure: Error>(
        _ parse: @escaping @Sendable (String) throws(Failure) -> Parsed,
        message: @escaping @Sendable (Failure) -> String
    ) {
        self.init { text throws(OptionValueError) in
            do throws(Failure) {
                return try parse(text)
            } catch {
                throw .afterName(message(error))
            }
        }
    }
}

extension ValueParser where Parsed == String {
    /// Any text, as given.
    package static var text: Self { Self { $0 } }
}

extension ValueParser where Parsed == Int {
    /// A decimal integer in `range` (`_` separates digits: `1_000_000`).
    package static func integer(in range: ClosedRange<Int>, expected: String? = nil) -> Self {
        Self { text throws(OptionValueError) in
            guard let value = Int(text.withoutUnderscores), range.contains(value) else {
                throw .expected(expected ?? "an integer in \(range)")
            }
            return value
        }
    }
}

extension ValueParser where Parsed == UInt64 {
    /// A decimal unsigned 64-bit integer (`_` separates digits).
    package static var unsigned: Self {
        Self { text throws(OptionValueError) in
            guard let value = UInt64(text.withoutUnderscores) else { throw .expected("an unsigned 64-bit integer") }
            return value
        }
    }
}

extension ValueParser where Parsed == Double {
    /// A finite number in `range`.
    package static func number(in range: ClosedRange<Double>, expected: String? = nil) -> Self {
        Self { text throws(OptionValueError) in
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw .expected(expected ?? "a number in \(range)")
            }
            return value
        }
    }
}

extension ValueParser where Parsed: CaseIterable & RawRepresentable<String> {
    /// One of the type's raw values (`text or markdown`).
    package static var oneOf: Self {
        Self { text throws(OptionValueError) in
            guard let value = Parsed(rawValue: text) else {
                let names = Parsed.allCases.map(\.rawValue)
                throw .expected(names.dropLast().joined(separator: ", ") + " or " + (names.last ?? ""))
            }
            return value
        }
    }
}

extension ValueParser where Parsed == [String] {
    /// A comma-separated list of paths (`/product,/orders`): at least one, each starting with `/`.
    package static var paths: Self {
        Self { text throws(OptionValueError) in
            let list = text.split(separator: ",").map(String.init)
            guard !list.isEmpty, list.allSatisfy({ $0.hasPrefix("/") }) else {
                throw .expected("paths starting with '/'")
            }
            return list
        }
    }
}

extension String {
    fileprivate var withoutUnderscores: String { String(unicodeScalars.filter { $0 != "_" }) }
}
