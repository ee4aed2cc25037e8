import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from '../../src/platform/db/connect.js';
import { findProcesses, isAlive } from '../../src/platform/process/proc.js';
import { createEmptyDatabase, makeDataDir, ok, svc } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, publish, waitFor } from '../helpers/publisher.js';
import { insertOutput, startRtmpReceiver } from '../helpers/rtmp-receiver.js';

/**
 * `svc up` (a real process) killed with SIGKILL while pushing: the push dies with it (a second
 * publisher at the target would be refused or doubled), nginx and its publisher stay, and the
 * next `svc up` pushes again on its own.
 */
test('kill -9 of svc up while pushing: the push dies with it and resumes with the next svc up', async () => {
  const { dir, remove } = makeDataDir();
  const db = await createEmptyDatabase();
  const receiver = await startRtmpReceiver();
  const sql = connect(db.url, { max: 1 });
  const [api, rtmp] = [await freePort(), await freePort()];
  const ports = ['--api-port', `${api}`, '--rtmp-port', `${rtmp}`];
  const more = ['--cdn-port', `${await freePort()}`, '--player-port', `${await freePort()}`];
  const pushes = () => findProcesses((argv) => argv.some((a) => a.startsWith(`${receiver.url}/`)));
  const publisher = { current: null as ReturnType<typeof publish> | null };
  try {
    ok(await svc(['init', '--data-dir', dir, '--database-url', db.url, '--no-install', ...ports, ...more]));
    const file = join(dir, 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(
      file,
      JSON.stringify(
        { ...config, allow_private_outputs: true, live: { sample_seconds: 1, reconnect_window_seconds: 60 } },
        null,
        2,
      ),
    );
    ok(await svc(['up', '--detach', '--data-dir', dir], { timeoutMs: 60_000 }));
    const account = ok(
      await svc(['accounts', 'create', '--name', 'Push', '--credit', '50', '--json', '--data-dir', dir]),
    ).json as { id: string };
    const key = ok(await svc(['api-keys', 'create', '--account', account.id, '--json', '--data-dir', dir])).json.key;
    const created = await fetch(`http://127.0.0.1:${api}/v1/streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    });
    const stream = (await created.json()) as { id: string; stream_key: string };
    const id = await insertOutput(sql, {
      streamId: stream.id,
      accountId: account.id,
      url: receiver.url,
      key: 'k-kill',
    });
    const clip = await makeClip({ width: 320, height: 240, seconds: 6, gopSeconds: 1 });
    publisher.current = publish(`rtmp://127.0.0.1:${rtmp}/live/${stream.stream_key}`, clip, { loop: true });
    const status = async () =>
      ((await sql`select status from stream_outputs where id = ${id}`)[0] as { status: string }).status;
    await waitFor('pushing', async () => (await status()) === 'active' && receiver.publishing('k-kill'), 30_000);
    assert.is(pushes().length, 1, 'one push');
    const sessions = receiver.recordings('k-kill').length;

    // PostgreSQL away (every connection of the appliance's database cut, new ones refused): the
    // push goes on untouched; its bytes are written once the database is back.
    const bytes = async () =>
      Number(
        ((await sql`select bytes_sent from stream_outputs where id = ${id}`)[0] as { bytes_sent: string }).bytes_sent,
      );
    const pushPid = pushes()[0];
    const name = new URL(db.url).pathname.slice(1);
    const admin = connect(process.env.TEST_DATABASE_URL as string, { max: 1 });
    await admin.unsafe(`alter database ${name} allow_connections false`);
    await admin.unsafe(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
    );
    await new Promise((r) => setTimeout(r, 8000));
    assert.equal(pushes(), [pushPid], 'the same push runs through the outage');
    assert.ok(await receiver.publishing('k-kill'), 'the receiver still gets it');
    assert.is(receiver.recordings('k-kill').length, sessions, 'in the same session');
    await admin.unsafe(`alter database ${name} allow_connections true`);
    await admin.end();
    const before = await waitFor('the database back', () => bytes().catch(() => null), 10_000);
    await waitFor('bytes written again', async () => (await bytes()) > before, 20_000);
    assert.equal(pushes(), [pushPid]);

    const pid = Number(readFileSync(join(dir, 'run', 'svc.pid'), 'utf8'));
    process.kill(pid, 'SIGKILL');
    await waitFor('svc up gone', async () => !isAlive(pid), 5000, 50);
    await waitFor('the push died with it', async () => pushes().length === 0, 3000, 50);
    await waitFor('the receiver sees the push leave', async () => !(await receiver.publishing('k-kill')), 10_000);

    ok(await svc(['up', '--detach', '--data-dir', dir], { timeoutMs: 60_000 }));
    await waitFor(
      'pushing again',
      async () => receiver.recordings('k-kill').length > sessions && (await receiver.publishing('k-kill')),
      30_000,
    );
    // `active` follows ffmpeg's first progress report (every second), a moment after the receiver sees it.
    await waitFor('active again', async () => (await status()) === 'active', 10_000);
    assert.is(pushes().length, 1, 'one push again');
    const published = await Promise.race([
      publisher.current.exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 0)),
    ]);
    assert.is(published, false, 'the publisher was never disconnected');
  } finally {
    await publisher.current?.kill();
    await svc(['down', '--data-dir', dir]);
    await sql.end();
    await db.drop();
    await receiver.close();
    remove();
  }
});

test.run();
