extension ReportPage {
    /// The page under construction: raw markup appended in order.
    struct Page {
        var text = ""

        mutating func raw(_ markup: String) { text += markup }

        /// `<h2 id=…>` opening a section.
        mutating func section(_ id: String, _ title: String) {
            text += "<section id=\"\(Markup.identifier(id))\"><h2>\(Markup.escape(title))</h2>\n"
        }

        mutating func endSection() { text += "</section>\n" }

        mutating func paragraph(_ sentence: String, className: String? = nil) {
            text += className.map { "<p class=\"\(Markup.escape($0))\">" } ?? "<p>"
            text += Markup.escape(sentence) + "</p>\n"
        }

        /// A table; cells are escaped, `numeric` columns right-aligned, cells in `alarming` red.
        mutating func table(
            header: [String],
            rows: [[String]],
            numeric: Set<Int> = [],
            alarming: (Int, Int) -> Bool = { _, _ in false },
            id: String? = nil
        ) {
            text += id.map { "<table id=\"\(Markup.identifier($0))\">" } ?? "<table>"
            text += "<thead><tr>"
            for (column, name) in header.enumerated() {
                text += numeric.contains(column) ? "<th class=\"num\">" : "<th>"
                text += Markup.escape(name) + "</th>"
            }
            text += "</tr></thead><tbody>\n"
            for (rowIndex, row) in rows.enumerated() {
                text += "<tr>"
                for (column, cell) in row.enumerated() {
                    var classes: [String] = []
                    if numeric.contains(column) { classes.append("num") }
                    if alarming(rowIndex, column) { classes.append("alarm") }
                    text += classes.isEmpty ? "<td>" : "<td class=\"\(classes.joined(separator: " "))\">"
                    text += Markup.escape(cell) + "</td>"
                }
                text += "</tr>\n"
            }
            text += "</tbody></table>\n"
        }
    }
}
