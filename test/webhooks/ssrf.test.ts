import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findAccountByApiKeyHash } from '../../src/domains/ledger/accounts/queries.js';
import { ApiError } from '../../src/core/errors.js';
import { newId, sha256 } from '../../src/core/ids.js';
import { WebhooksService } from '../../src/domains/back-office/webhooks/service.js';
import {
  addressRange,
  checkTargetOnSave,
  resolveTarget,
  systemLookup,
  TargetRefused,
  type Lookup,
} from '../../src/domains/back-office/webhooks/ssrf.js';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { assertInvalidField } from '../helpers/streams.js';
import {
  createEndpoint,
  deliveryReaches,
  emit,
  firstDelivery,
  startDispatcher,
  webhookSuite,
} from '../helpers/webhooks.js';

/** Private, loopback, link-local, multicast and other non-public addresses, as URL hosts. */
const REFUSED_HOSTS = [
  '127.0.0.1',
  '127.1.2.3',
  '10.0.0.1',
  '10.255.255.254',
  '172.16.0.1',
  '172.31.255.1',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '224.0.0.1',
  '239.255.255.250',
  '255.255.255.255',
  '192.0.2.1',
  '198.18.0.1',
  '240.0.0.1',
  // Other spellings of 127.0.0.1 that URL parsing turns into it.
  '2130706433',
  '0x7f000001',
  '017700000001',
  '127.1',
  '[::1]',
  '[::]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::ffff:10.0.0.1]',
  '[::ffff:169.254.169.254]',
  '[::127.0.0.1]',
  '[fe80::1]',
  '[fc00::1]',
  '[fd12:3456::1]',
  '[ff02::1]',
  '[64:ff9b::7f00:1]',
  '[2002:7f00:1::1]',
  '[2001:db8::1]',
  '[100::1]',
  'localhost',
  'LOCALHOST',
  'localhost.',
  'api.localhost',
];

const PUBLIC_HOSTS = ['93.184.216.34', '8.8.8.8', '[2606:4700:4700::1111]', '[::ffff:8.8.8.8]', 'hooks.example.com'];

const t = suite<{ env: TestApi; key: string }>('webhooks: SSRF guard with private targets refused (the default)');
t.before(async (ctx) => {
  ctx.env = await createTestApi();
  ctx.key = (await ctx.env.newAccount({ trusted: true })).key;
});
t.after(async (ctx) => {
  await ctx.env.close();
});

t('the setting is off by default', ({ env }) => {
  assert.is(env.config.allowPrivateWebhooks, false);
});

t(
  'create refuses every private, loopback, link-local, multicast and reserved host, IPv4, IPv6 and IPv4-mapped',
  async ({ env, key }) => {
    for (const host of REFUSED_HOSTS) {
      const res = await env.call('POST', '/v1/webhooks', { key, body: { url: `https://${host}/hook` } });
      assertInvalidField(res, 'url');
      assert.match(res.body.error.message, /not a public address|loopback name/, `${host}: ${res.body.error.message}`);
    }
    assert.equal((await env.call('GET', '/v1/webhooks', { key })).body.data, []);
  },
);

t(
  'localhost by name is refused; names that resolve to private addresses are refused without naming the address',
  async ({ env, key }) => {
    const res = await env.call('POST', '/v1/webhooks', { key, body: { url: 'https://localhost:8443/hook' } });
    assertInvalidField(res, 'url');
    assert.is(res.body.error.message, '`url` host localhost is a loopback name, not a public address.');
    // The service behind the route, with DNS answering as an internal zone would.
    const dns: Record<string, string> = {
      'hooks.corp.test': '127.0.0.1',
      'db.corp.test': '10.20.0.4',
      'v6.corp.test': '::1',
      'mapped.corp.test': '::ffff:172.16.3.3',
    };
    const service = new WebhooksService({
      sql: env.db.sql,
      clock: env.clock,
      policy: {
        allowPrivate: false,
        lookup: async (h) => [{ address: dns[h] ?? '93.184.216.34', family: (dns[h] ?? '').includes(':') ? 6 : 4 }],
      },
    });
    const account = (await findAccountByApiKeyHash(env.db.sql, sha256(key)))!;
    for (const [host, address] of Object.entries(dns)) {
      await service.create(account, { url: `https://${host}/hook` }).then(
        () => assert.unreachable(`${host} accepted`),
        (err: unknown) => {
          assert.ok(
            err instanceof ApiError && err.code === 'invalid_request' && err.details.field === 'url',
            String(err),
          );
          assert.is((err as Error).message, `\`url\` host ${host} resolves to a private or reserved address.`);
          assert.not.ok((err as Error).message.includes(address), `${host}: the address is not told`);
        },
      );
    }
    const ok = await service.create(account, { url: 'https://public.corp.test/hook' });
    await env.call('DELETE', `/v1/webhooks/${ok.id}`, { key });
  },
);

t(
  'http is refused; public https hosts are accepted (a name that does not resolve yet is checked at send)',
  async ({ env, key }) => {
    const res = await env.call('POST', '/v1/webhooks', { key, body: { url: 'http://hooks.example.com/hook' } });
    assertInvalidField(res, 'url');
    assert.match(res.body.error.message, /must be an https URL/);
    for (const host of PUBLIC_HOSTS) {
      const ok = await env.call('POST', '/v1/webhooks', { key, body: { url: `https://${host}/hook` } });
      assert.is(ok.status, 201, `${host}: ${ok.text}`);
      await env.call('DELETE', `/v1/webhooks/${ok.body.id}`, { key });
    }
  },
);

t('patch refuses a private url the same way and keeps the old one', async ({ env, key }) => {
  const e = (await env.call('POST', '/v1/webhooks', { key, body: { url: 'https://93.184.216.34/hook' } })).body;
  assertInvalidField(
    await env.call('PATCH', `/v1/webhooks/${e.id}`, { key, body: { url: 'https://[::ffff:192.168.0.1]/' } }),
    'url',
  );
  assertInvalidField(
    await env.call('PATCH', `/v1/webhooks/${e.id}`, { key, body: { url: 'https://localhost/' } }),
    'url',
  );
  assert.is((await env.call('GET', `/v1/webhooks/${e.id}`, { key })).body.url, 'https://93.184.216.34/hook');
});

t('address ranges: ipaddr.js classes, IPv4-mapped judged as IPv4, IPv6 outside 2000::/3 not public', () => {
  const cases: [string, string][] = [
    ['8.8.8.8', 'unicast'],
    ['10.1.1.1', 'private'],
    ['100.100.0.1', 'carrierGradeNat'],
    ['169.254.0.1', 'linkLocal'],
    ['127.0.0.2', 'loopback'],
    ['0.1.2.3', 'unspecified'],
    ['224.1.1.1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:8.8.8.8', 'unicast'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['::7f00:1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2002:a00:1::1', '6to4'],
    ['2606:4700:4700::1111', 'unicast'],
    ['not an address', 'invalid'],
  ];
  for (const [address, range] of cases) assert.is(addressRange(address), range, address);
});

t(
  'names resolving to private addresses (injected DNS): refused on save, also when only one answer of several is private',
  async () => {
    const dns: Record<string, string[]> = {
      'intranet.test': ['10.0.0.5'],
      'mixed.test': ['93.184.216.34', '192.168.1.10'],
      'meta.test': ['169.254.169.254'],
      'v6.test': ['fd00::5'],
      'mapped.test': ['::ffff:127.0.0.1'],
      'good.test': ['93.184.216.34', '2606:4700::1'],
    };
    const lookup: Lookup = async (host) =>
      (dns[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    for (const host of ['intranet.test', 'mixed.test', 'meta.test', 'v6.test', 'mapped.test']) {
      await checkTargetOnSave(`https://${host}/x`, { allowPrivate: false, lookup }).then(
        () => assert.unreachable(`${host} accepted`),
        (err: unknown) => {
          assert.ok(err instanceof TargetRefused, String(err));
          assert.is(err.message, `host ${host} resolves to a private or reserved address`);
        },
      );
    }
    await checkTargetOnSave('https://good.test/x', { allowPrivate: false, lookup });
  },
);

t(
  'DNS rebinding: a name public when saved and private at send is refused at send; the checked address is the one connected to',
  async () => {
    let answer = '93.184.216.34';
    const lookup: Lookup = async () => [{ address: answer, family: 4 }];
    await checkTargetOnSave('https://rebind.test/x', { allowPrivate: false, lookup });
    answer = '127.0.0.1';
    await resolveTarget('https://rebind.test/x', { allowPrivate: false, lookup }, 1000).then(
      () => assert.unreachable('accepted at send'),
      (err: unknown) =>
        assert.is((err as Error).message, 'refused: host rebind.test resolves to a private or reserved address'),
    );
    answer = '93.184.216.34';
    const target = await resolveTarget('https://rebind.test:8443/x?y=1', { allowPrivate: false, lookup }, 1000);
    assert.equal([target.host, target.port, target.address, target.family], ['rebind.test', 8443, '93.184.216.34', 4]);
  },
);

t('with the setting on: http and private targets allowed, multicast and unspecified still refused', async () => {
  const policy = { allowPrivate: true, lookup: systemLookup };
  for (const url of [
    'http://127.0.0.1:9/x',
    'http://localhost/x',
    'https://[::1]/x',
    'http://10.0.0.1/x',
    'http://[fe80::1]/x',
  ])
    await checkTargetOnSave(url, policy);
  for (const url of ['http://0.0.0.0/x', 'http://224.0.0.1/x', 'http://[ff02::1]/x', 'http://[::]/x']) {
    await checkTargetOnSave(url, policy).then(
      () => assert.unreachable(`${url} accepted`),
      (err: unknown) => assert.ok(err instanceof TargetRefused, String(err)),
    );
  }
});

t.run();

/** At send, against a real receiver on loopback: the dispatcher checks again with the setting off. */
const s = webhookSuite('webhooks: SSRF guard at every send');

s(
  'endpoints stored with loopback urls (setting since turned off): the attempt is refused, recorded, and nothing reaches the receiver',
  async (ctx) => {
    const { receiver } = ctx;
    const e = await createEndpoint(ctx, { url: receiver.url('/inside') });
    const byName = await createEndpoint(ctx, { url: `https://localhost:${receiver.port}/inside-by-name` });
    const literal = await createEndpoint(ctx, { url: `https://[::ffff:127.0.0.1]:${receiver.port}/inside-mapped` });
    await startDispatcher(ctx, { allowPrivate: false });
    await emit(ctx);
    const d = await firstDelivery(ctx, e.id);
    const row = await deliveryReaches(ctx, d.id, 'pending', 1);
    assert.is(row.last_status_code, null);
    assert.match(row.last_error!, /must be an https URL/);
    const byNameRow = await deliveryReaches(ctx, (await firstDelivery(ctx, byName.id)).id, 'pending', 1);
    assert.is(byNameRow.last_error, 'refused: host localhost is a loopback name, not a public address');
    const literalRow = await deliveryReaches(ctx, (await firstDelivery(ctx, literal.id)).id, 'pending', 1);
    assert.is(literalRow.last_error, 'refused: host ::ffff:7f00:1 is not a public address (loopback)');
    assert.is(receiver.requests.length, 0);
  },
);

s('an https endpoint whose name now resolves to a private address: refused at send', async (ctx) => {
  const { env, receiver } = ctx;
  const id = newId('whk_');
  await env.db.sql`
    insert into webhook_endpoints (id, account_id, url, secret, created_at)
    values (${id}, ${ctx.accountId}, ${'https://rebound.test/hook'}, ${'whsec_' + Buffer.alloc(32, 1).toString('base64')}, ${env.clock.now()})`;
  await startDispatcher(ctx, { allowPrivate: false, lookup: async () => [{ address: '10.0.0.7', family: 4 }] });
  await emit(ctx);
  const row = await deliveryReaches(ctx, (await firstDelivery(ctx, id)).id, 'pending', 1);
  assert.is(row.last_error, 'refused: host rebound.test resolves to a private or reserved address');
  assert.is(receiver.requests.length, 0);
});

s('the connection goes to the address that was checked, whatever the name: Host header kept', async (ctx) => {
  const { receiver } = ctx;
  const receiverUrl = receiver.url('/pinned', 'hooks.pinned.test');
  const e = await createEndpoint(ctx, { url: receiverUrl });
  receiver.expectSecrets('/pinned', e.secret);
  const asked: string[] = [];
  await startDispatcher(ctx, {
    lookup: async (host) => {
      asked.push(host);
      return [{ address: '127.0.0.1', family: 4 }];
    },
  });
  await emit(ctx);
  const [req] = await receiver.waitFor('/pinned', 1);
  assert.is(req?.headers.host, `hooks.pinned.test:${receiver.port}`);
  assert.ok(req?.verified[e.secret]);
  assert.equal(asked, ['hooks.pinned.test'], 'resolved once, by the guard');
});

s('DNS failure at send is a failed attempt with the reason', async (ctx) => {
  const e = await createEndpoint(ctx, { url: 'http://nowhere.invalid/hook' });
  await startDispatcher(ctx);
  await emit(ctx);
  const d = await firstDelivery(ctx, e.id);
  const row = await deliveryReaches(ctx, d.id, 'pending', 1);
  assert.match(row.last_error!, /^DNS lookup of nowhere\.invalid failed \(/);
});

s.run();
