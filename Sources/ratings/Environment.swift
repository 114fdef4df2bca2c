import Glibc

/// The process environment, read once; only the executable reads it.
struct Environment {
    let values: [String: String]

    static var current: Environment {
        var values: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                values[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return Environment(values: values)
    }

    subscript(_ name: String) -> String? { values[name].flatMap { $0.isEmpty ? nil : $0 } }
}
