/// The options several commands share, each declared once here and read as `arguments[.out]`.
/// A command that describes one differently lists it as `Option.out.described("…")`.
extension Option where Value == Bool {
    /// Every command's `--help`.
    package static var help: Self { Flag("--help", help: "Show this help and exit.") }
}
