import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commandLine, findProcesses } from '../../src/platform/process/proc.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { streamOf } from '../helpers/broadcast.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { whipPublish, type WhipPublisher } from '../helpers/whip-client.js';

/**
 * The WHIP relay's command line, which every local user can read, holds no stream key: a one-time
 * credential, which nobody can publish with while the relay uses it or once it has (docs/decisions.md,
 * "Hardening: the WHIP relay publishes with a one-time credential").
 */
let app: TestAppliance;
let key: string;
const whips: WhipPublisher[] = [];
const rtmps: Publisher[] = [];

test.before(async () => {
  app = await startTestAppliance();
  ({ key } = await app.newAccount());
});
test.after(async () => {
  await Promise.all([...whips.map((p) => p.vanish()), ...rtmps.map((p) => p.kill())]);
  await app.close();
});

const publisherClient = async (id: string) =>
  (await app.db.sql<{ c: string | null }[]>`select publisher_client_id as c from streams where id = ${id}`)[0]?.c ??
  null;

/** An RTMP publisher nginx refuses: ffmpeg gives up within seconds. */
async function refusedRtmp(url: string, clip: string): Promise<void> {
  const pub = publish(url, clip, { loop: true });
  rtmps.push(pub);
  const exited = await Promise.race([
    pub.exited.then(() => true),
    new Promise((r) => setTimeout(() => r(false), 10_000)),
  ]);
  assert.ok(exited, `${url} was admitted`);
}

test('no process shows the stream key; the relay credential in ps publishes nothing, neither while the relay holds it nor after', async () => {
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body;
  const secret = new URL(created.whip_url).searchParams.get('key') as string;
  assert.ok(secret.length >= 16);
  const pub = await whipPublish(created.whip_url);
  whips.push(pub);
  assert.is(pub.status, 201, pub.body);
  await pub.connected;
  await waitFor(
    'the relay admitted',
    async () =>
      (await streamOf(app, key, created.id)).status === 'live' && (await publisherClient(created.id)) !== null,
    30_000,
  );

  assert.equal(
    findProcesses((argv) => argv.some((a) => a.includes(secret))),
    [],
    'a command line holds the stream key',
  );
  // This stream's WHIP relay, by its SDP input: its SRT listener publishes with a credential too,
  // and other appliances on the machine (tests, benches) run relays of their own.
  const relays = findProcesses(
    (argv) =>
      argv.includes('-rtmp_playpath') &&
      argv.some((a) => a.endsWith('.sdp')) &&
      !!argv[argv.indexOf('-rtmp_playpath') + 1]?.startsWith(created.id),
  );
  assert.is(relays.length, 1);
  const argv = commandLine(relays[0] as number) ?? [];
  const playpath = argv[argv.indexOf('-rtmp_playpath') + 1] as string;
  assert.match(playpath, new RegExp(`^${created.id}\\?relay=[A-Za-z0-9_-]{32}$`));
  const stolen = `${app.config.publicUrls.rtmp_url}/${playpath}`;
  const clip = await makeClip({ width: 640, height: 360, seconds: 4 });

  // While the relay publishes with it.
  const relayClient = await publisherClient(created.id);
  await refusedRtmp(stolen, clip);
  assert.is(await publisherClient(created.id), relayClient, 'the relay still publishes');

  // After the relay left (its session deleted): the reconnect window admits the key, not the spent credential.
  assert.is(await pub.stop(), 200);
  await waitFor('the relay gone', async () => (await publisherClient(created.id)) === null);
  await refusedRtmp(stolen, clip);
  assert.is(await publisherClient(created.id), null);
  const owner = publish(app.rtmpUrl(created.stream_key), clip, { loop: true });
  rtmps.push(owner);
  await waitFor('the key holder admitted in the window', async () => (await publisherClient(created.id)) !== null);
  assert.is((await streamOf(app, key, created.id)).status, 'live');
});

test.run();
