import { createServer } from 'node:net';
import type { Command } from 'commander';
import { startServer } from '../api/server.js';
import { archivePaths, redactUrl, UsageError } from './common.js';
import { parseRetention, startRetention } from '../archive/prune.js';
import { withExamples } from './program.js';

export const DEFAULT_PORT = 8787;

export function parsePort(v: string, from: string): number {
  if (!/^\d{1,5}$/.test(v.trim()) || Number(v) > 65535) throw new UsageError(`${from} wants a port number 0-65535, got ${JSON.stringify(v)}`);
  return Number(v);
}

/** Bind and release the address first, so a busy port is one line and nothing was created yet. */
function checkListenable(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'is already in use (another fdiag serve? pick one with --port N)' : err.code === 'EACCES' ? 'needs privileges (use a port above 1023)' : err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND' ? 'is not an address of this machine' : `cannot be listened on (${err.code ?? err.message})`;
      reject(new UsageError(`${host}:${port} ${why}`));
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

export function registerServeCommand(program: Command): void {
  const serve = program
    .command('serve')
    .description('run the archive API and web page (SQLite + blob folder in ./.fdiag by default)')
    .option('--db <file>', 'SQLite file or postgres://… URL (env FDIAG_DB; default <data>/fdiag.db)')
    .option('--blobs <where>', 'blob folder or s3://bucket/prefix, S3 from the AWS_* variables (env FDIAG_BLOBS; default <data>/blobs)')
    .option('--data <dir>', 'data folder: scratch space, and blobs and the generated token by default (env FDIAG_DATA; default ./.fdiag)')
    .option('--port <n>', `port, 0 for any free one (env PORT; default ${DEFAULT_PORT})`)
    .option('--host <addr>', 'address to listen on (env HOST; default 127.0.0.1; 0.0.0.0 for all interfaces)')
    .option('--retention <period>', 'prune failures older than this, at start and hourly, e.g. 90d (env FDIAG_RETENTION; default keep all)')
    .action(async (opts: { db?: string; data?: string; blobs?: string; port?: string; host?: string; retention?: string }) => {
      // Everything the user gave is checked before anything is created on disk.
      const { dbFile, dataDir, blobs } = archivePaths(opts);
      const port = opts.port !== undefined ? parsePort(opts.port, '--port') : process.env.PORT ? parsePort(process.env.PORT, 'PORT') : DEFAULT_PORT;
      const host = opts.host ?? process.env.HOST ?? '127.0.0.1';
      const retention = opts.retention ?? process.env.FDIAG_RETENTION;
      if (retention) parseRetention(retention);
      await checkListenable(port, host);
      const s = await startServer({ dbFile, blobs, dataDir, port, host });
      process.stdout.write(`fdiag archive listening on ${s.url} (db ${redactUrl(dbFile)}, blobs ${s.archive.blobs.location}, data ${dataDir}); web page ${s.url}/ui\n`);
      if (s.generatedTokenFile) process.stdout.write(`FDIAG_TOKENS not set: admin token stored in ${s.generatedTokenFile} (mode 0600)\n`);
      let stopRetention = () => {};
      if (retention) {
        stopRetention = startRetention(s.archive, retention, { log: (m) => process.stdout.write(`fdiag serve: ${m}`) });
        process.stdout.write(`retention: failures older than ${retention} are pruned hourly\n`);
      }
      const stop = () => {
        stopRetention();
        void s.close().then(() => process.exit(0));
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  withExamples(serve, ['fdiag serve                          # http://127.0.0.1:8787, data in ./.fdiag', 'npm start -- --port 9000             # from a checkout', 'FDIAG_TOKENS=s3cret-ingest:ingest,s3cret-read:read fdiag serve --host 0.0.0.0 --retention 90d'], 'Exit codes: 0 stopped by SIGINT/SIGTERM, 2 bad usage (bad --port, busy port, bad --retention).');
}
