import HTTP1

/// What the HTTP-parser fuzzer (fuzz/HTTPParserFuzz.swift) does with an input, in one place for
/// it and for the test that replays its corpus (HTTP1Tests): the bytes as a request stream, fed
/// whole and split at an offset the first byte chooses, under small limits (so that short
/// inputs reach the limit paths); as an `Accept-Language` field; and as a request target.
public enum HTTPParserFuzzInput {
    /// What went wrong: a split that changed what the stream means (the parser consuming more
    /// than it was given traps in `parseStream`), a body over the limit, a refusal with a status
    /// the parser never answers, a language lookup that invents a tag, fallbacks that do not
    /// start with the range, or a target whose segments cannot all be read, or can be read past
    /// its end.
    public static func violations(_ bytes: [UInt8]) -> [String] {
        var limits = HTTPLimits()
        limits.maxBodyBytes = 4096
        limits.maxHeaderBytes = 2048
        limits.maxRequestLineBytes = 1024
        let whole = parseStream([bytes], limits: limits)
        let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        let split = parseStream([Array(bytes[..<cut]), Array(bytes[cut...])], limits: limits)
        var violations: [String] = []
        if whole.requests != split.requests || whole.failure != split.failure {
            violations.append("split at \(cut) changed the result: \(whole) vs \(split)")
        }
        for request in whole.requests + split.requests where request.body.count > limits.maxBodyBytes {
            violations.append("a body of \(request.body.count) bytes, over the limit")
        }
        for failure in [whole.failure, split.failure].compactMap({ $0 }) where ![400, 413, 414, 431, 501, 505].contains(failure.status) {
            violations.append("refused with \(failure.status)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return violations + negotiationViolations(text) + targetViolations(text)
    }

    /// Whatever the field says, lookup answers one of the offered tags or nothing.
    private static func negotiationViolations(_ field: String) -> [String] {
        let offered = ["en", "ar", "de", "es", "fr", "he", "ja", "pt"]
        var violations: [String] = []
        if let chosen = AcceptLanguage(field)?.lookup(among: offered), !offered.contains(chosen) {
            violations.append("lookup invented \(chosen)")
        }
        if LanguageRange.isWellFormed(field), LanguageRange.fallbacks(of: field).first != field.lowercased() {
            violations.append("fallbacks of \(field) do not start with it")
        }
        return violations
    }

    /// Whatever the target, its segments and parameters are read or refused, never past its end.
    private static func targetViolations(_ text: String) -> [String] {
        [text, "/" + text].compactMap { candidate in
            let target = RequestTarget(candidate)
            var segments = 0
            while target.pathSegment(at: segments) != nil || segments < target.pathSegmentCount { segments += 1 }
            _ = target.pathMatches([Array("v1".utf8), Array("items".utf8), nil])
            _ = target.pathDecodes
            for value in target.rawQueryValues("ids") { _ = PercentDecoding.decode(value) }
            return segments == target.pathSegmentCount ? nil : "\(target.pathSegmentCount) segments counted, \(segments) read"
        }
    }
}
