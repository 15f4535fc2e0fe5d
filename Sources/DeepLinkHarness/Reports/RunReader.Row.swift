extension RunReader {
    /// One row of a report CSV file, read by column name (``RunReader/forEachRow(of:columns:parse:_:)``).
    ///
    /// Thread safety: a value type used by one thread.
    struct Row {
        let table: CSVTable
        /// The row's position among the table's rows (0 is the first after the header).
        let index: Int

        /// The text in `column`, as written before the writer neutralised it.
        func text(_ column: String) throws(CSVError) -> String {
            CSVWriter.unneutralised(try table.string(column, row: index))
        }

        /// The text in `column`, as it stands in the file.
        func raw(_ column: String) throws(CSVError) -> String { try table.string(column, row: index) }

        /// The count in `column` (``CSVTable/unsigned(_:row:)``).
        func count(_ column: String) throws(CSVError) -> UInt64 { try table.unsigned(column, row: index) }

        /// The finite number in `column` (``CSVTable/double(_:row:)``).
        func number(_ column: String) throws(CSVError) -> Double { try table.double(column, row: index) }
    }
}
