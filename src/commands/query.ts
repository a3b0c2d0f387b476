import { Option, type Command } from 'commander';
import { openArchive } from '../archive/index.js';
import { CATEGORY_FILTERS, PAGE_LIMIT_MAX, query as failuresQuery } from '../api/routes/failures.js';
import { archiveExists, archivePaths, redactUrl, terminalSafe, UsageError } from './common.js';
import { withExamples } from './program.js';

/** CLI flag of each field of the API's failure query, for error messages. */
const FLAG: Record<string, string> = { class: '--class', category: '--category', runId: '--run-id', since: '--since', until: '--until', limit: '--limit', cursor: '--cursor' };

interface QueryOpts {
  class?: string;
  category?: string;
  runId?: string;
  label?: string[];
  since?: string;
  until?: string;
  limit: string;
  cursor?: string;
  db?: string;
  data?: string;
  format: 'text' | 'json';
}

/** The CLI's filters checked by the same schema as GET /v1/failures, so both refuse the same things. */
export function parseQueryOptions(opts: QueryOpts) {
  const labels: Record<string, string> = {};
  for (const kv of opts.label ?? []) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new UsageError(`--label wants k=v, got ${JSON.stringify(kv)}`);
    labels[kv.slice(0, i)] = kv.slice(i + 1);
  }
  const raw = { class: opts.class, category: opts.category, runId: opts.runId, since: opts.since, until: opts.until, limit: opts.limit, cursor: opts.cursor };
  const r = failuresQuery.safeParse(Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)));
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const field = String(issue.path[0] ?? '');
    const given = JSON.stringify((raw as Record<string, unknown>)[field]);
    if (field === 'limit') throw new UsageError(`--limit wants a whole number from 1 to ${PAGE_LIMIT_MAX}, got ${given}`);
    if (field === 'category') throw new UsageError(`--category must be one of ${CATEGORY_FILTERS.join(', ')}, got ${given}`);
    throw new UsageError(`${FLAG[field] ?? field}: ${issue.message}: ${given}`);
  }
  const { class: cls, category, runId, since, until, limit, cursor } = r.data;
  return { class: cls, category, runId, since, until, limit, cursor, labels };
}

export function registerQueryCommand(program: Command): void {
  const query = program
    .command('query')
    .description('list failures in the local archive, newest first')
    .option('--class <class>', 'failure class, e.g. cuda.oom')
    .addOption(new Option('--category <category>', 'category').choices(CATEGORY_FILTERS))
    .option('--run-id <id>', 'run id')
    .option('--label <k=v...>', 'label filter (repeatable)')
    .option('--since <t>', 'failed at or after: 7d, 24h, or an ISO date')
    .option('--until <t>', 'failed at or before: 7d, 24h, or an ISO date')
    .option('--limit <n>', `page size, 1-${PAGE_LIMIT_MAX}`, '50')
    .option('--cursor <c>', 'continue after a previous page')
    .option('--db <file>', 'SQLite file (env FDIAG_DB; default <data>/fdiag.db)')
    .option('--data <dir>', 'data folder (env FDIAG_DATA; default ./.fdiag)')
    .addOption(new Option('--format <fmt>', 'output').choices(['text', 'json']).default('text'))
    .action(async (opts: QueryOpts) => {
      const q = parseQueryOptions(opts);
      const paths = archivePaths(opts);
      // Reading must not create an archive where there is none.
      if (!archiveExists(paths.dbFile)) {
        if (opts.format === 'json') process.stdout.write(JSON.stringify({ items: [], nextCursor: null }, null, 2) + '\n');
        process.stderr.write(`fdiag: no archive at ${paths.dbFile} yet (add bundles: fdiag ingest DIR, or --data/--db to point elsewhere)\n`);
        return;
      }
      const archive = await openArchive(paths);
      try {
        const r = await archive.query(q);
        if (opts.format === 'json') {
          process.stdout.write(JSON.stringify(r, null, 2) + '\n');
          return;
        }
        if (r.items.length === 0) {
          const filtered = [q.class, q.category, q.runId, q.since, q.until, q.cursor].some((v) => v !== undefined) || Object.keys(q.labels).length > 0;
          const anyAtAll = filtered ? (await archive.query({ limit: 1 })).items.length > 0 : false;
          process.stderr.write(anyAtAll ? 'fdiag: no failures match these filters\n' : `fdiag: the archive ${redactUrl(paths.dbFile)} is empty (add bundles: fdiag ingest DIR)\n`);
          return;
        }
        for (const f of r.items) {
          process.stdout.write(terminalSafe(`${f.failedAt}  ${f.id.slice(0, 12)}  ${f.runId}  ${f.class} (${f.category ?? 'unknown'})  ${f.exceptionType ?? ''}`) + '\n');
        }
        if (r.nextCursor) process.stdout.write(`more: --cursor ${r.nextCursor}\n`);
      } finally {
        await archive.close();
      }
    });
  withExamples(query, ['fdiag query --category infra --since 7d', 'fdiag query --class cuda.oom --label team=rl --format json', 'fdiag show 3f9a2c81d0e4        # one of the ids it lists']);

  const reclassify = program
    .command('reclassify')
    .description('re-run the current rules over stored failures diagnosed by another rule-set version')
    .option('--all', 'every stored failure, not only older rule sets')
    .option('--db <file>', 'SQLite file (env FDIAG_DB; default <data>/fdiag.db)')
    .option('--data <dir>', 'data folder (env FDIAG_DATA; default ./.fdiag)')
    .action(async (opts: { all?: boolean; db?: string; data?: string }) => {
      const archive = await openArchive(archivePaths(opts));
      try {
        const r = await archive.reclassify({ all: opts.all });
        process.stdout.write(`reclassified ${r.checked} failures, ${r.changed} changed class\n`);
      } finally {
        await archive.close();
      }
    });
  withExamples(reclassify, ['fdiag reclassify            # after upgrading fdiag (new rules)', 'fdiag reclassify --all --data /srv/fdiag']);
}
