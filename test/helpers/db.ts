import { randomBytes } from 'node:crypto';
import { connect, type Sql } from '../../src/platform/db/connect.js';
import { migrate } from '../../src/platform/db/migrate.js';

export interface TestDatabase {
  sql: Sql;
  url: string;
  drop(): Promise<void>;
}

function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error('TEST_DATABASE_URL is not set: run the tests with `npm test` (it starts a PostgreSQL cluster)');
  return url;
}

/** A fresh, migrated database on the test cluster, one per test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = connect(serverUrl(), { max: 1 });
  const name = `svc_t_${randomBytes(6).toString('hex')}`;
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  const sql = connect(url.toString(), { max: 10 });
  await migrate(sql);
  return {
    sql,
    url: url.toString(),
    async drop() {
      await sql.end({ timeout: 5 });
      const again = connect(serverUrl(), { max: 1 });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}
