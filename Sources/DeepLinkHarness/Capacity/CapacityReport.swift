import DeepLinkCore

/// capacity.csv and the plain-language summary of a ``CapacityResult`` (documented in
/// `Reports/README.md`).
///
/// Thread safety: stateless.
public enum CapacityReport {
    public static let file = "capacity.csv"

    /// capacity.csv's columns, in order.
    public static let columns: [CSVWriter.Column] =
        [
            .init("threads", .numeric), .init("offered_per_s", .numeric), .init("achieved_per_s", .numeric),
            .init("p50_ns", .numeric), .init("p99_ns", .numeric), .init("p999_ns", .numeric),
            .init("dropped", .numeric),
            .init("bytes_per_journey", .numeric), .init("meets_slo", .numeric),
        ] + (Disturbance.probeColumns + Disturbance.columns).map { .init($0, .numeric) }

    /// Bytes of one ``PendingLink`` value (`MemoryLayout<PendingLink>.stride`).
    public static var pendingLinkStride: Int { MemoryLayout<PendingLink>.stride }

    /// Bytes of one pending-link queue slot (``PendingLinkQueue/bytesPerSlot``).
    public static var queueSlotBytes: Int { PendingLinkQueue.bytesPerSlot }

    /// capacity.csv: one row per step, in the order run.
    public static func csv(_ result: CapacityResult) throws -> String {
        var writer = CSVWriter(columns: columns)
        for step in result.steps {
            try writer.append(
                [
                    String(step.threads), ReportSchema.decimal(step.offeredPerSecond, digits: 0),
                    ReportSchema.decimal(step.achievedPerSecond, digits: 0), String(step.p50Nanos),
                    String(step.p99Nanos),
                    String(step.p999Nanos), String(step.dropped), ReportSchema.decimal(step.bytesPerJourney, digits: 2),
                    step.meets(sloP99Nanos: result.sweep.sloP99Nanos) ? "1" : "0",
                ] + step.disturbance.probeFields + step.disturbance.fields
            )
        }
        return writer.text
    }

    /// What the sweep found, in sentences: the highest rate per thread count, the rate per core,
    /// bytes per pending link, and with `peakPerSecond` the cores and memory for that peak, each
    /// with its assumptions.
    public static func summary(_ result: CapacityResult, peakPerSecond: Double?, cpuModel: String) -> String {
        let sweep = result.sweep
        var text = ""
        if let notice = DisturbanceNotice.text(result.disturbance, steps: result.disturbedSteps) {
            text += notice + " (capacity.csv's disturbed column: their rates say more about the machine than the "
            text += "code; rerun on an idle machine)\n"
        }
        text += "capacity of '\(sweep.strategy.rawValue)': highest open-loop arrival rate whose p99 journey latency "
        text += "(from intended start) is <= \(sweep.sloP99Nanos) ns with nothing dropped\n"
        text += "  threads  max sustainable/s  per core/s  p99 at that rate (ns)\n"
        var perCore: (threads: Int, rate: Double, step: CapacityStep)?
        var bestPerCore: (threads: Int, rate: Double)?
        for threads in sweep.threadCounts {
            guard let best = result.bestStep(threads: threads) else {
                text += "  " + pad(String(threads), 7) + "  none: even the lowest rate tried broke the objective\n"
                continue
            }
            let rate = best.offeredPerSecond / Double(threads)
            text += "  " + pad(String(threads), 7) + "  " + pad(grouped(best.offeredPerSecond), 17) + "  "
            text += pad(grouped(rate), 10) + "  " + String(best.p99Nanos) + "\n"
            // The most threads that held anything: per-core figures there include contention.
            if perCore == nil || threads >= (perCore?.threads ?? 0) { perCore = (threads, rate, best) }
            if rate > (bestPerCore?.rate ?? 0) { bestPerCore = (threads, rate) }
        }
        guard let perCore else {
            text += "no rate met the objective on this machine (\(cpuModel)); see capacity.csv"
            if let lowest = result.steps.min(by: { $0.p99Nanos < $1.p99Nanos }) {
                text += ". Lowest p99 seen: \(lowest.p99Nanos) ns at \(grouped(lowest.offeredPerSecond))/s, while the "
                text += "strategy's own mean time per journey was \(Int(lowest.meanServiceNanos)) ns: the rest is "
                text += "waiting (start lag), e.g. for a CPU on a busy machine"
            }
            text += "\n"
            return text
        }
        text += "max sustainable rate per core under the SLO: \(grouped(perCore.rate)) journeys/s "
        text += "(measured with \(perCore.threads) thread\(perCore.threads == 1 ? "" : "s"))\n"
        if let bestPerCore, bestPerCore.rate > 2 * perCore.rate {
            // The conservative figure stands, but a gap this wide is worth a sentence.
            text += "  note: \(grouped(bestPerCore.rate)) per core with \(bestPerCore.threads) thread"
            text += "\(bestPerCore.threads == 1 ? "" : "s"); a gap this wide usually means the cores were not all free "
            text += "(other work on the machine), so the projection below is pessimistic: rerun on an idle machine\n"
        }
        text += "bytes per pending link: \(pendingLinkStride) (MemoryLayout<PendingLink>.stride); "
        text += "\(queueSlotBytes) per pending-link queue slot (sequence word + link, whole cache lines)\n"
        text += "bytes allocated per journey: \(ReportSchema.decimal(perCore.step.bytesPerJourney, digits: 2))\n"
        if let peak = peakPerSecond {
            let cores = (peak / perCore.rate).rounded(.up)
            let seconds = Double(perCore.step.p99Nanos) / 1e9
            let inFlight = (peak * seconds).rounded(.up)
            let slots = nextPowerOfTwo(max(1, inFlight))
            let churn = perCore.step.bytesPerJourney * peak
            text += "peak \(grouped(peak))/s needs \(grouped(cores)) cores "
            text += "(\(grouped(peak)) / \(grouped(perCore.rate)) per core, rounded up) and about "
            text += "\(grouped(inFlight)) links in flight = \(bytes(inFlight * Double(queueSlotBytes))) of queue slots "
            text += "(a queue of \(grouped(slots)) slots: \(bytes(slots * Double(queueSlotBytes)))); allocation churn "
            text += "\(bytes(churn))/s, freed as journeys finish\n"
            text += "assumptions: throughput grows linearly with cores beyond the \(perCore.threads) measured; "
            text += "in-flight links = peak x p99 latency (Little's law with p99 standing in for the mean, so an "
            text += "over-estimate); one pending link per journey; harness work (generating and judging journeys, "
            text += "\(percent(perCore.step.harnessShare)) of thread time) shares the measured threads, so the core "
            text += "alone goes further (its mean time per journey: \(Int(perCore.step.meanServiceNanos)) ns); "
            text += "measured on \(cpuModel), which other work may share: rerun on the target machine\n"
        }
        return text
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// `1234567.4` → `1,234,567`.
    static func grouped(_ value: Double) -> String {
        let digits = ReportSchema.decimal(value, digits: 0)
        guard digits.allSatisfy(\.isNumber), digits.count > 3 else { return digits }
        var result = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }

    static func bytes(_ value: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var scaled = value
        var unit = 0
        while scaled >= 1024, unit < units.count - 1 {
            scaled /= 1024
            unit += 1
        }
        return ReportSchema.decimal(scaled, digits: unit == 0 ? 0 : 1) + " " + units[unit]
    }

    static func percent(_ share: Double) -> String { ReportSchema.decimal(share * 100, digits: 0) + " %" }

    static func nextPowerOfTwo(_ value: Double) -> Double {
        var power = 1.0
        while power < value, power < 1e18 { power *= 2 }
        return power
    }
}
