/// A finished sweep: every step in the order run, and per thread count the highest rate that held.
///
/// Thread safety: a value type.
package struct CapacityResult: Sendable {
    package var sweep: CapacitySweep
    package var steps: [CapacityStep]

    package init(sweep: CapacitySweep, steps: [CapacityStep]) {
        self.sweep = sweep
        self.steps = steps
    }

    /// Marks the steps that disagree with their neighbours as disturbed: at one thread count, a
    /// step that broke the objective at a lower rate than another step that held it (a quiet
    /// machine does not get slower with less load, so one of the two was disturbed; the failing
    /// one is the one the search trusted least). Called by ``CapacityPlanner/sweep(_:measure:progress:)``.
    package mutating func markInconsistentSteps() {
        for index in steps.indices where !steps[index].meets(sloP99Nanos: sweep.sloP99Nanos) {
            let step = steps[index]
            let heldHigher = steps.contains {
                $0.threads == step.threads && $0.offeredPerSecond > step.offeredPerSecond
                    && $0.meets(sloP99Nanos: sweep.sloP99Nanos)
            }
            if heldHigher {
                steps[index].disturbance.mark("broke the objective below a rate that held at \(step.threads) threads")
            }
        }
    }

    /// What else the machine did over the disturbed steps, merged (``Disturbance/merging(_:)``:
    /// steal and switches summed, the worse load and probe kept, every reason); a quiet
    /// ``Disturbance`` when no step was disturbed. Recorded in capacity's manifest.json, so that
    /// its page says what was measured.
    package var disturbance: Disturbance {
        var merged = Disturbance()
        for step in steps where step.disturbance.disturbed {
            // Past 2^64 ns of steal the sums stop growing; the reasons and the verdict still add up.
            if let sum = merged.merging(step.disturbance) {
                merged = sum
            } else {
                for reason in step.disturbance.reasons { merged.mark(reason) }
            }
        }
        return merged
    }

    /// How many steps the machine disturbed, of all.
    package var disturbedSteps: (disturbed: Int, all: Int) {
        (steps.filter(\.disturbance.disturbed).count, steps.count)
    }

    /// The step with the highest offered rate that met the objective at `threads` threads.
    package func bestStep(threads: Int) -> CapacityStep? {
        steps.filter { $0.threads == threads && $0.meets(sloP99Nanos: sweep.sloP99Nanos) }
            .max { $0.offeredPerSecond < $1.offeredPerSecond }
    }
}
