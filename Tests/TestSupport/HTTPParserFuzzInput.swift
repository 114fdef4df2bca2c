import HTTP1

/// What the HTTP-parser fuzzer (fuzz/HTTPParserFuzz.swift) does with an input, in one place for
/// it and for the test that replays its corpus (HTTP1Tests): the bytes as a request stream, fed
/// whole and split at an offset the first byte chooses, under small limits (so that short
/// inputs reach the limit paths); as an `Accept-Language` field; and as a request target.
public enum HTTPParserFuzzInput {
    /// What went wrong: a split that changed what the stream means, more consumed than was
    /// buffered, a body over the limit, a refusal with a status the parser never answers, a
    /// language lookup that invents a tag, fallbacks that do not start with the range, or a
    /// target whose segments cannot all be read, or can be read past its end.
    public static func violations(_ bytes: [UInt8]) -> [String] {
        var limits = HTTPLimits()
        limits.maxBodyBytes = 4096
        limits.maxHeaderBytes = 2048
        limits.maxRequestLineBytes = 1024
        var violations: [String] = []
        let whole = feed([bytes], limits: limits, violations: &violations)
        let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        let split = feed([Array(bytes[..<cut]), Array(bytes[cut...])], limits: limits, violations: &violations)
        if whole != split { violations.append("split at \(cut) changed the result: \(whole) vs \(split)") }
        let text = String(decoding: bytes, as: UTF8.self)
        violations += negotiationViolations(text) + targetViolations(text)
        return violations
    }

    /// Feeds chunks as a socket would and describes every request and the end of the stream.
    private static func feed(_ chunks: [[UInt8]], limits: HTTPLimits, violations: inout [String]) -> [String] {
        var parser = HTTPRequestParser(limits: limits)
        var buffer: [UInt8] = []
        var events: [String] = []
        for chunk in chunks {
            buffer += chunk
            while !buffer.isEmpty {
                let (outcome, consumed) = buffer.withUnsafeBytes { parser.parse($0) }
                guard (0...buffer.count).contains(consumed) else {
                    violations.append("consumed \(consumed) of \(buffer.count) bytes")
                    return events
                }
                buffer.removeFirst(consumed)
                switch outcome {
                case .request(let request):
                    if request.body.count > limits.maxBodyBytes { violations.append("a body of \(request.body.count) bytes, over the limit") }
                    events.append("\(request.method) \(request.target) \(request.body.count)")
                case .failure(let error):
                    if ![400, 413, 414, 431, 501, 505].contains(error.status) { violations.append("refused with \(error.status)") }
                    events.append("error \(error)")
                    return events
                case .needMore:
                    break
                }
                if case .needMore = outcome { break }
            }
        }
        return events
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
