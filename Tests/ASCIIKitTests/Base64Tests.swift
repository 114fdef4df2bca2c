import ASCIIKit
import Testing

@Suite("base64 with padding and base64url without")
struct Base64Tests {
    @Test("RFC 4648 §10's vectors, both ways", arguments: [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
                                                             ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")])
    func vectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
        #expect(Base64URL.encode(Array(plain.utf8)) == String(encoded.filter { $0 != "=" }))
    }

    @Test("the two alphabets differ in + / and - _", arguments: [[UInt8]([0xFB, 0xFF]), [0xFF, 0xFE, 0xFD]])
    func alphabets(bytes: [UInt8]) {
        let standard = Base64.encode(bytes), url = Base64URL.encode(bytes)
        #expect(standard.contains("+") || standard.contains("/"))
        #expect(!url.contains("+") && !url.contains("/"))
        #expect(Base64.decode(standard) == bytes && Base64URL.decode(url) == bytes)
    }

    @Test("padded text is refused when the padding is missing, misplaced, too long, or hides set bits",
          arguments: ["Zg", "Zg=", "Z===", "Zg==Zg==", "Zh==", "Zm8", "Zm 8=", "Zm8_"])
    func refusals(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
