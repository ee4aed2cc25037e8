import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shippedFile } from '../../core/resources.js';
import type { Sql } from './connect.js';
import { LOCKS } from './locks.js';

const MIGRATIONS_DIR = shippedFile('db', 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .map((f) => ({ version: Number(f.split('_')[0]), name: f, sql: readFileSync(join(dir, f), 'utf8') }))
    .sort((a, b) => a.version - b.version);
}

/** Forward-only; all pending migrations in one transaction under an advisory lock. Returns what was applied. */
export async function migrate(sql: Sql, migrations = listMigrations()): Promise<string[]> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${LOCKS.migrations})`;
    // A migration may rewrite a large table: the pool's statement bound is for requests.
    await tx`set local statement_timeout = 0`;
    await tx`create table if not exists schema_migrations (
      version integer primary key, name text not null, applied_at timestamptz not null default now())`;
    const done = new Set(
      (await tx<{ version: number }[]>`select version from schema_migrations`).map((r) => r.version),
    );
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.unsafe(m.sql);
      await tx`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`;
      applied.push(m.name);
    }
    return applied;
  });
}
