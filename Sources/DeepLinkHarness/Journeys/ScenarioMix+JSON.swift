import Foundation

extension ScenarioMix {
    /// The default mix with the keys of the JSON object in `bytes` applied. `path` only names the
    /// source in errors.
    package static func parsing(_ bytes: [UInt8], path: String) throws(ScenarioMixError) -> ScenarioMix {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
        } catch {
            throw .unreadable(path: path, detail: "not valid JSON")
        }
        guard let dictionary = object as? [String: Any] else { throw .notAnObject(path: path) }
        var mix = ScenarioMix.default
        for key in dictionary.keys.sorted() {
            guard let entry = keyTable.first(where: { $0.0 == key }) else { throw .unknownKey(path: path, key: key) }
            let expected: String
            let valid: (Double) -> Bool
            switch entry.1 {
            case .weight:
                expected = "a number >= 0"
                valid = { $0 >= 0 }
            case .share:
                expected = "a number in 0...1"
                valid = { $0 >= 0 && $0 <= 1 }
            case .seconds:
                expected = "a number of seconds in 1...31536000"
                valid = { $0 >= 1 && $0 <= 31_536_000 }
            }
            // JSONSerialization turns true/false into NSNumbers of type "c"; refuse them explicitly.
            guard let number = dictionary[key] as? NSNumber, String(cString: number.objCType) != "c" else {
                throw .invalidValue(path: path, key: key, expected: expected)
            }
            let value = number.doubleValue
            guard value.isFinite, valid(value) else { throw .invalidValue(path: path, key: key, expected: expected) }
            if let keyPath = entry.2 {
                mix[keyPath: keyPath] = value
            } else if key.hasPrefix("platform.") {
                let name = key.dropFirst("platform.".count)
                if let platform = Platform.allCases.first(where: { $0.name == name }) {
                    mix.platformWeights[Int(platform.rawValue)] = value
                }
            } else if key.hasPrefix("extras."), let count = Int(key.dropFirst("extras.".count)) {
                mix.extraPerturbationWeights[count] = value
            } else {
                let name = key.dropFirst("perturbation.".count)
                if let perturbation = Perturbation.allCases.first(where: { $0.name == name }) {
                    mix.perturbationWeights[Int(perturbation.rawValue)] = value
                }
            }
        }
        guard mix.platformWeights.contains(where: { $0 > 0 }) else { throw .allZero(path: path, group: "platform") }
        guard mix.extraPerturbationWeights.contains(where: { $0 > 0 }) else {
            throw .allZero(path: path, group: "extras")
        }
        for platform in Platform.allCases where mix.platformWeights[Int(platform.rawValue)] > 0 {
            let total = Perturbation.allCases.filter { $0.applies(to: platform) }
                .reduce(0.0) { $0 + mix.perturbationWeights[Int($1.rawValue)] }
            guard total > 0 else { throw .allZero(path: path, group: "perturbation") }
        }
        return mix
    }

    /// Reads and parses the mix file at `path`.
    package static func load(path: String) throws(ScenarioMixError) -> ScenarioMix {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, detail: "no such file or not readable")
        }
        return try parsing([UInt8](data), path: path)
    }
}
