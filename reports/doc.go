// Package reports is the one report model that every feeder of the check
// engine fills (a conformance run, a proxy session, an offline validation)
// and the writers that render it: a self-contained HTML page, JUnit XML,
// JSON (the model itself, versioned) and a Markdown summary, which
// AppendStepSummary adds to a GitHub Actions job summary. A run report
// holds scenarios; a proxy or validate report holds sessions with their
// connections, which a SessionBuilder collects as frames are judged.
// Findings and frames are values copied in, so a report can be written
// after the feeders are gone.
package reports
