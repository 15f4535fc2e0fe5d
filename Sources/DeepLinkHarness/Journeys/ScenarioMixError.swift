/// Why a mix file was refused; ``message`` names the file and key.
package enum ScenarioMixError: Error, Equatable, Sendable {
    case unreadable(path: String, detail: String)
    case notAnObject(path: String)
    case unknownKey(path: String, key: String)
    case invalidValue(path: String, key: String, expected: String)
    case allZero(path: String, group: String)

    package var message: String {
        switch self {
        case .unreadable(let path, let detail): "cannot read mix file '\(path)': \(detail)"
        case .notAnObject(let path): "mix file '\(path)' must hold one JSON object of \"key\": number pairs"
        case .unknownKey(let path, let key): "mix file '\(path)': unknown key '\(key)'"
        case .invalidValue(let path, let key, let expected):
            "mix file '\(path)': invalid value for '\(key)': expected \(expected)"
        case .allZero(let path, let group): "mix file '\(path)': every '\(group).*' weight is zero"
        }
    }
}
