import RatingsCore

/// One `ratings copy`: every table of `CopiedTables` from the source's snapshot into the
/// destination in batches, then the destination counted against what the source held. The
/// destination is made whole (its marker removed) only when every count matches, so a copy that
/// failed, was stopped or does not match leaves a database that says it is incomplete.
struct DatabaseCopier {
    /// Rows handed to the destination at a time.
    static let batchSize = 5_000

    let source: any CopySource
    let destination: any CopyDestination
    let progress: CopyProgress

    /// Copies; returns the rows of each table. `marker` is the text the destination keeps while
    /// it is incomplete; `discarding` lets the copy replace what an unfinished one left.
    func run(marker: String, discarding: Bool) throws -> [String: Int] {
        try destination.begin(marker: marker, discarding: discarding)
        var expected = CopyExpectation()
        for table in CopiedTables.all {
            let columns = try source.columns(of: table)
            let targetColumns = try destination.columns(of: table)
            guard columns == targetColumns else {
                throw DatabaseCopyError.columnsDiffer(table: table.name, source: columns, destination: targetColumns)
            }
            let total = try source.rowCount(of: table)
            expected.rows[table.name] = total
            progress.start(table.name, total: total)
            var batch: [CopiedRow] = []
            batch.reserveCapacity(Self.batchSize)
            var written = 0
            let isItems = table.name == "items"
            try source.rows(of: table, columns: columns) { row in
                if isItems, let stored = ItemTally.stored(in: row, columns: columns) { expected.items[stored.item] = stored.tally }
                batch.append(row)
                if batch.count == Self.batchSize {
                    try destination.write(batch, to: table, columns: columns)
                    written += batch.count
                    batch.removeAll(keepingCapacity: true)
                    progress.update(rows: written)
                }
            }
            if !batch.isEmpty {
                try destination.write(batch, to: table, columns: columns)
                written += batch.count
            }
            try destination.finish(table)
            progress.end(rows: written)
        }
        let differences = try destination.count().differences(from: expected)
        guard differences.isEmpty else { throw DatabaseCopyError.mismatch(differences) }
        try destination.finish()
        return expected.rows
    }
}
