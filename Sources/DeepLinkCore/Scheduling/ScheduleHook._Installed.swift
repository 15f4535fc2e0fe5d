extension ScheduleHook {
    /// The installed controller behind one class reference, so that ``ScheduleHook`` can hold it
    /// unmanaged (an existential cannot be) and lend it to a point without retaining it.
    ///
    /// Thread safety: immutable.
    final class _Installed: Sendable {
        let controller: any ScheduleController

        init(_ controller: any ScheduleController) {
            self.controller = controller
        }
    }
}
