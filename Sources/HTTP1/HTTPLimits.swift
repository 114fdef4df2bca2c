/// Every size and time limit the server enforces, with the defaults it runs on.
public struct HTTPLimits: Sendable, Equatable {
    /// Longest request line, CRLF excluded; longer is 414 URI Too Long. Default 8 KiB.
    public var maxRequestLineBytes = 8 * 1024
    /// Largest header section after the request line (trailers count too); larger is 431. Default 16 KiB.
    public var maxHeaderBytes = 16 * 1024
    /// Most header fields in one request; more is 431. Default 100.
    public var maxHeaderCount = 100
    /// Largest request body after chunked decoding; larger is 413. Default 64 KiB.
    public var maxBodyBytes = 64 * 1024
    /// Longest chunk extension or trailer line accepted inside a chunked body. Default 4 KiB.
    public var maxChunkLineBytes = 4 * 1024
    /// Answers a connection may leave unread before the server stops reading its further
    /// (pipelined) requests. One answer can exceed it; the next request waits until the client
    /// has read the backlog down. Default 256 KiB.
    public var maxUnsentOutputBytes = 256 * 1024

    /// Time allowed from a request's first byte to the end of its head (slowloris). Default 10 s.
    public var headTimeoutSeconds = 10.0
    /// Time allowed for a request body to arrive once its head is in. Default 30 s.
    public var bodyTimeoutSeconds = 30.0
    /// How long an idle keep-alive connection is kept. Default 60 s.
    public var idleTimeoutSeconds = 60.0
    /// How long queued output may stand still (a client that reads nothing), in any state, before
    /// the connection is closed; a handler's time to answer. Default 30 s.
    public var writeTimeoutSeconds = 30.0

    public init() {}
}
