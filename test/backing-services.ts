// One PostgreSQL cluster and one s3rver per test run (started by global-setup.ts), for the tests
// that run the archive on PostgreSQL + S3: Debian's PostgreSQL 15 (initdb'd into a temp folder,
// run as the `postgres` user when we are root, on a free port and a private unix socket folder).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PG_BIN = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'].find((d) => existsSync(join(d, 'initdb')));

export interface BackingServices {
  pgUrl: string;
  s3Endpoint: string;
  s3Bucket: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function asPostgres(cmd: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  const r = root ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8' }) : spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout || r.error?.message}`);
}

export async function startBackingServices(): Promise<BackingServices> {
  if (!PG_BIN) throw new Error('PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin); run scripts/install-system-deps.sh as root');
  const dir = mkdtempSync(join(tmpdir(), 'fdiag-test-pg-'));
  const data = join(dir, 'data');
  const sock = join(dir, 'sock');
  mkdirSync(sock);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    chownSync(sock, uid, gid);
  }
  chmodSync(dir, 0o755);
  asPostgres(join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  // fsync off: a test cluster that dies with the run has nothing to keep.
  asPostgres(join(PG_BIN, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '30', '-o', `-p ${port} -k ${sock} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`, 'start']);

  const s3rverModule = 's3rver'; // ships no types; the two calls used are typed here
  const { default: S3rver } = (await import(s3rverModule)) as { default: new (o: object) => { run(): Promise<{ port: number }>; close(): Promise<void> } };
  const s3dir = mkdtempSync(join(tmpdir(), 'fdiag-test-s3-'));
  const s3Bucket = 'fdiag-test';
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3dir, configureBuckets: [{ name: s3Bucket }] });
  const addr = await s3.run();
  // A run that ends without its teardown (interrupted, a crash in setup) still stops the cluster.
  const stopCluster = () => {
    if (existsSync(data)) spawnSync(process.getuid?.() === 0 ? 'runuser' : join(PG_BIN!, 'pg_ctl'), process.getuid?.() === 0 ? ['-u', 'postgres', '--', join(PG_BIN!, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop'] : ['-D', data, '-m', 'immediate', 'stop']);
  };
  process.once('exit', stopCluster);
  return {
    pgUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    s3Endpoint: `http://127.0.0.1:${addr.port}`,
    s3Bucket,
    async stop() {
      process.off('exit', stopCluster);
      await s3.close().catch(() => {});
      try {
        asPostgres(join(PG_BIN!, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        rmSync(s3dir, { recursive: true, force: true });
      }
    },
  };
}
