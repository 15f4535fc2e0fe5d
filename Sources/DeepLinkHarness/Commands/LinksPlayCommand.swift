import DeepLinkCore
import DeepLinkLinks

/// `links play`: prints the Play Store URL whose referrer carries `--path` (and the `--utm-*`
/// fields), optionally signed.
///
/// Thread safety: a command runs on one thread.
struct LinksPlayCommand: BenchCommand {
    static let configuration = CommandConfiguration(
        name: "play",
        abstract: "Print the Play Store URL whose Install Referrer carries the link.",
        usage: "links play --package P --path L [--utm-source S --utm-medium M …] [signing]",
        options: [package, Option.path] + attribution.map(\.option) + LinkOptions.options
    )

    static let package = Option(
        "--package",
        value: "name",
        as: .text,
        help: "The Android package name (e.g. pro.nerdy.app)."
    )
    /// The campaign fields, each its own option.
    static let attribution: [(option: Option<String?>, field: LinkAttribution.Field)] = [
        ("--utm-source", LinkAttribution.Field.utmSource), ("--utm-medium", .utmMedium),
        ("--utm-campaign", .utmCampaign), ("--utm-term", .utmTerm), ("--utm-content", .utmContent),
    ].map { name, field in
        (Option(name, value: "value", as: .text, help: "The \(field.key) field."), field)
    }

    let url: String

    init(arguments: ParsedArguments) throws(CLIError) {
        if let extra = arguments.positionals.first { throw .unexpectedArgument(extra) }
        let package = try arguments.required(Self.package)
        let path = try arguments.required(.path)
        let options = try LinkOptions(arguments: arguments)
        let builder = options.builder(hosts: ExampleApp.allowedHosts)
        let link = try options.link(path, builder: builder)
        let attribution = Self.attribution.compactMap { option, field in
            arguments[option].map { (field: field, value: $0) }
        }
        do {
            url = try builder.playStoreURL(package: package, link: link, attribution: attribution)
        } catch {
            throw LinkOptions.usage(error)
        }
    }

    mutating func run(io: CommandIO) throws -> Int32 {
        io.out(url + "\n")
        return 0
    }
}
