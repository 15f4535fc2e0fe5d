import DeepLinkCore
import DeepLinkCoreTestSupport
import Testing

@Suite struct DeepLinkTests {
    @Test func storesPathAndQueryInline() throws {
        let link = try #require(DeepLink(validated: "/product/42?ref=share"))
        #expect(link.string == "/product/42?ref=share")
        #expect(link.path == "/product/42")
        #expect(link.hasQuery)
        #expect(link.hasPathPrefix("/product/"))
        #expect(!link.hasPathPrefix("/orders/"))
        #expect(!link.hasPathPrefix("/product/42?ref"))
    }

    @Test func refusesWhatCannotBeALink() {
        #expect(DeepLink(validated: "") == nil)
        #expect(DeepLink(validated: "product") == nil)
        #expect(DeepLink(validated: "/" + String(repeating: "a", count: DeepLink.capacity)) == nil)
        #expect(DeepLink(validated: "/" + String(repeating: "a", count: DeepLink.capacity - 1)) != nil)
    }

    @Test func equalityAndHashingFollowBytes() throws {
        let a = try #require(DeepLink(validated: "/a/b"))
        let b = try #require(DeepLink(validated: "/a/b"))
        let c = try #require(DeepLink(validated: "/a/c"))
        #expect(a == b)
        #expect(a != c)
        #expect(Set([a, b, c]).count == 2)
    }
}
