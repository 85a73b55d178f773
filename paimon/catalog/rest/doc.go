// Package rest is a client of the Paimon REST catalog (Java RESTCatalog; spec: Paimon's
// docs/static/rest-catalog-open-api.yaml): databases and tables are the server's, and so are a table's
// snapshot commits, through its commit endpoint.
//
// Invariants:
//   - lakeload never writes a snapshot file or LATEST of a table loaded here: the table's Owner (this
//     package) creates snapshots with POST …/tables/{t}/commit and reads the latest one with GET
//     …/tables/{t}/snapshot, the way Java's and pypaimon's REST clients do. Manifests and data files are
//     written to the table's path by the client itself, as theirs are.
//   - A commit request is sent once. A transport error, a timeout or a 5xx answer leave its outcome
//     unknown (the server may have created the snapshot): that error does not wrap
//     table.ErrSnapshotExists, so paimon/commit looks the commit up by (user, identifier) before it
//     plans another attempt. Only GETs are retried here.
//   - Errors name the request, the server's message and, where a user can fix it, the flag to change.
package rest
