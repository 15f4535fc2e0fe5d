/// An unknown strategy name in a list.
package struct StrategyListError: Error, Sendable {
    package var name: String
}
