import RatingsCore
import Testing
import Webhooks

@Suite("Standard Webhooks signatures")
struct SignatureTests {
    @Test("the specification's vector: whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw signs msg_p5jXN8AQM9LWM0D4loKWxJek at 1614265330")
    func specificationVector() throws {
        let endpoints = try RatingsCore.WebhookConfiguration.endpoints(from: Array(#"{"endpoints": [{"id": "t", "url": "http://h", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["*"]}]}"#.utf8))
        let signature = WebhookSignature.sign(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestampSeconds: 1_614_265_330,
                                              body: Array(#"{"test": 2432232314}"#.utf8), secret: endpoints[0].secret)
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }
}
