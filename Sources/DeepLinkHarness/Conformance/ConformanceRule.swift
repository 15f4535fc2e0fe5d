/// One rule of the spec as a fixed journey: its name (what `conform` prints and `--rule` takes),
/// the spec section it comes from, what it checks in one sentence, and the journey that checks it.
/// The journey is written out event by event (``ConformanceSuite/rules``), never drawn at random;
/// what must happen to it is the ``Oracle``'s to say, not the rule's.
///
/// Thread safety: a value type; `Sendable`.
package struct ConformanceRule: Sendable {
    /// A kebab-case name, unique in the suite: `survives-a-kill-before-login`.
    package var name: String
    /// Where the rule comes from: `SPEC 3.4 durability`.
    package var spec: String
    /// What the rule checks, in one sentence.
    package var checks: String
    /// The journey that checks it (its index is the rule's position in the suite).
    package var journey: Journey
}
