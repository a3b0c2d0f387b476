// The archive- and API-level test files (they open an Archive, start the server or run an archive
// command) run twice: as they are, on the embedded default (SQLite + a blob folder), and in the
// `postgres` project on a real PostgreSQL + s3rver (FDIAG_TEST_BACKEND=pg; test/helpers/backends.ts
// gives each data folder its own database and bucket prefix). Files left out are about the one
// machine itself (the SQLite file under a crash or a full disk, its modes, a data folder shared by
// two processes) or open no archive; each says why where it matters.
export const ON_BOTH_BACKENDS = [
  'test/archive/export.test.ts',
  'test/archive/groups.test.ts',
  'test/archive/ingest.test.ts',
  'test/archive/retention.test.ts',
  'test/archive/sweep.test.ts',
  'test/api/e2e.test.ts',
  'test/api/export.test.ts',
  'test/api/failure-page.e2e.test.ts',
  'test/api/groups.test.ts',
  'test/api/hostile-server.test.ts',
  'test/api/metrics.test.ts',
  'test/api/routes.test.ts',
  'test/api/web.test.ts',
  'test/commands/cli.test.ts',
  'test/commands/hostile-output.test.ts',
  'test/commands/ingest-query.test.ts',
  'test/e2e/archive-flow.test.ts',
  'test/harbor/import-cli.test.ts',
  'test/harbor/surfaces.test.ts',
  'test/redact/planted-secrets.test.ts',
];
