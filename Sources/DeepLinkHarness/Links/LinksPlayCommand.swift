import DeepLinkCore
import DeepLinkLinks

/// `links play`: prints the Play Store URL whose referrer carries `--path` (and the `--utm-*`
/// fields), optionally signed.
///
/// Thread safety: a command runs on one thread.
struct LinksPlayCommand: LinksSubcommand {
    static let name = "play"
    static let abstract = "Print the Play Store URL whose Install Referrer carries the link."
    static let attributionOptions: [(option: String, field: LinkAttribution.Field)] = [
        ("--utm-source", .utmSource), ("--utm-medium", .utmMedium), ("--utm-campaign", .utmCampaign),
        ("--utm-term", .utmTerm), ("--utm-content", .utmContent),
    ]
    static var options: [OptionSpec] {
        [
            OptionSpec("--package", value: "name", help: "The Android package name (e.g. pro.nerdy.app)."),
            OptionSpec("--path", value: "link", help: "The canonical app link (path and optional query)."),
        ]
            + attributionOptions.map { OptionSpec($0.option, value: "value", help: "The \($0.field.key) field.") }
            + LinkOptions.validation + LinkOptions.signing
    }

    let url: String

    init(arguments: ParsedArguments) throws(CLIError) {
        let package = try LinkOptions.required("--package", in: arguments)
        let path = try LinkOptions.required("--path", in: arguments)
        let options = try LinkOptions(arguments: arguments)
        let builder = options.builder(hosts: ExampleApp.allowedHosts)
        let link = try options.link(path, builder: builder)
        let attribution = Self.attributionOptions.compactMap { option in
            arguments.string(option.option).map { (field: option.field, value: $0) }
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
