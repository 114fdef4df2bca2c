// libFuzzer target: the HTTP/1.1 request parser, fed whole and split at a data-chosen offset;
// Accept-Language negotiation, fed the same bytes as a field value; and the request target's
// segments and parameters, read from the same bytes as a target.
// Built by scripts/fuzz.sh, linked with the HTTP1 module; not part of the package.

import HTTP1

@_cdecl("LLVMFuzzerTestOneInput")
public func httpParserFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var limits = HTTPLimits()
    limits.maxBodyBytes = 4096 // small limits reach the limit paths with small inputs
    limits.maxHeaderBytes = 2048
    limits.maxRequestLineBytes = 1024
    let whole = FuzzFeed.run([bytes], limits: limits)
    let cut = size == 0 ? 0 : Int(bytes[0]) % (size + 1)
    let split = FuzzFeed.run([Array(bytes[..<cut]), Array(bytes[cut...])], limits: limits)
    // Splitting must never change what a stream means.
    if whole != split { fatalError("split at \(cut) changed the result: \(whole) vs \(split)") }
    negotiate(String(decoding: bytes, as: UTF8.self))
    readTarget(String(decoding: bytes, as: UTF8.self))
    return 0
}

/// Whatever the target, its segments and parameters are read or refused, never past its end.
private func readTarget(_ text: String) {
    for candidate in [text, "/" + text] {
        let target = RequestTarget(candidate)
        var segments = 0
        while target.pathSegment(at: segments) != nil || segments < target.pathSegmentCount { segments += 1 }
        if segments != target.pathSegmentCount { fatalError("\(target.pathSegmentCount) segments counted, \(segments) read") }
        _ = target.pathMatches([Array("v1".utf8), Array("items".utf8), nil])
        _ = target.pathDecodes
        for value in target.rawQueryValues("ids") { _ = PercentDecoding.decode(value) }
    }
}

/// Whatever the field says, lookup answers one of the offered tags or nothing.
private func negotiate(_ field: String) {
    let offered = ["en", "ar", "de", "es", "fr", "he", "ja", "pt"]
    if let chosen = AcceptLanguage(field)?.lookup(among: offered), !offered.contains(chosen) {
        fatalError("lookup invented \(chosen)")
    }
    if LanguageRange.isWellFormed(field), LanguageRange.fallbacks(of: field).first != field.lowercased() {
        fatalError("fallbacks of \(field) do not start with it")
    }
}

enum FuzzFeed {
    /// Feeds chunks like a socket would and describes every request and the final state.
    static func run(_ chunks: [[UInt8]], limits: HTTPLimits) -> [String] {
        var parser = HTTPRequestParser(limits: limits)
        var buffer: [UInt8] = []
        var events: [String] = []
        for chunk in chunks {
            buffer += chunk
            while !buffer.isEmpty {
                let (outcome, consumed) = buffer.withUnsafeBytes { parser.parse($0) }
                precondition(consumed >= 0 && consumed <= buffer.count, "consumed out of range")
                buffer.removeFirst(consumed)
                switch outcome {
                case .request(let request):
                    precondition(request.body.count <= limits.maxBodyBytes, "body over the limit")
                    events.append("\(request.method) \(request.target) \(request.body.count)")
                case .failure(let error):
                    precondition([400, 413, 414, 431, 501, 505].contains(error.status), "unexpected status")
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
}
