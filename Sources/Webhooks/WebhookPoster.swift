internal import CCurl

/// What one POST came to: the status, when one was answered, and what `Retry-After` asked for;
/// or what went wrong without a status.
public struct PostResult: Sendable, Hashable {
    public let status: Int?
    public let retryAfterSeconds: Int64?
    public let error: String?

    public init(status: Int?, retryAfterSeconds: Int64? = nil, error: String? = nil) {
        self.status = status
        self.retryAfterSeconds = retryAfterSeconds
        self.error = error
    }
}

/// One libcurl handle, used by one thread at a time: it keeps connections to the endpoints alive
/// between deliveries. `https://` is verified against the system's certificates; redirects are
/// not followed (a `3xx` is a failed attempt); the whole exchange has `timeoutSeconds`.
final class WebhookPoster {
    // Safe: created here, used only by the thread that owns this poster, cleaned up in deinit.
    private let handle: UnsafeMutableRawPointer
    private let timeoutMilliseconds: Int

    /// Call once per process before any poster exists (libcurl's global set-up is not thread-safe).
    static let globalSetUp: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    init?(timeoutSeconds: Double) {
        _ = Self.globalSetUp
        guard let handle = curl_easy_init() else { return nil }
        self.handle = handle
        timeoutMilliseconds = Int(timeoutSeconds * 1000)
    }

    deinit { curl_easy_cleanup(handle) }

    func post(url: String, headers: [String], body: [UInt8]) -> PostResult {
        curl_easy_reset(handle)
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers { list = curl_slist_append(list, header) }
        defer { curl_slist_free_all(list) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = url.withCString { url in
            body.withUnsafeBytes { body in
                errorBuffer.withUnsafeMutableBufferPointer { errors in
                    _ = ratings_curl_set_pointer(handle, CURLOPT_URL, url)
                    _ = ratings_curl_set_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https")
                    _ = ratings_curl_set_long(handle, CURLOPT_POST, 1)
                    _ = ratings_curl_set_pointer(handle, CURLOPT_POSTFIELDS, body.baseAddress)
                    _ = ratings_curl_set_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                    _ = ratings_curl_set_pointer(handle, CURLOPT_HTTPHEADER, list)
                    _ = ratings_curl_set_long(handle, CURLOPT_TIMEOUT_MS, timeoutMilliseconds)
                    _ = ratings_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
                    _ = ratings_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0)
                    _ = ratings_curl_set_pointer(handle, CURLOPT_USERAGENT, "ratings-webhooks/1")
                    _ = ratings_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
                    _ = ratings_curl_discard_body(handle)
                    return curl_easy_perform(handle)
                }
            }
        }
        guard code == CURLE_OK else {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return PostResult(status: nil, error: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
        }
        var status = 0
        _ = ratings_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var retryAfter: curl_off_t = 0
        _ = ratings_curl_get_offset(handle, CURLINFO_RETRY_AFTER, &retryAfter)
        return PostResult(status: status, retryAfterSeconds: retryAfter > 0 ? Int64(retryAfter) : nil)
    }
}
