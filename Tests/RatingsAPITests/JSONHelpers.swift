import Foundation
import TestSupport

/// The response body as a JSON object, for reading fields in assertions.
func object(_ response: RawHTTPClient.Response) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
}

/// The `detail` of a problem response.
func detail(_ response: RawHTTPClient.Response) -> String { object(response)["detail"] as? String ?? "" }
