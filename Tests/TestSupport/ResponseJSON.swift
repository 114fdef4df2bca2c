import Foundation

/// The response body as a JSON object, for reading fields in assertions.
public func object(_ response: RawHTTPClient.Response) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
}

/// The `detail` of a problem response.
public func detail(_ response: RawHTTPClient.Response) -> String { object(response)["detail"] as? String ?? "" }
