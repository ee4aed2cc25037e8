import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { assertError, assertInvalidField, createStream, goLive } from '../helpers/streams.js';

const t = suite<{ env: TestApi }>('streams: list and pagination');
t.before(async (ctx) => {
  ctx.env = await createTestApi({ limits: { trusted: { pending_streams: 1000, creations_per_hour: 1000 } } });
});
t.after(async (ctx) => {
  await ctx.env.close();
});

const list = (env: TestApi, key: string, query = '') => env.call('GET', `/v1/streams${query}`, { key });

t('an empty account lists nothing', async ({ env }) => {
  const { key } = await env.newAccount();
  const res = await list(env, key);
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { object: 'list', data: [], has_more: false });
});

t('newest first, default page 20, has_more, limit 1-100', async ({ env }) => {
  const { key } = await env.newAccount({ trusted: true });
  const ids: string[] = [];
  for (let i = 0; i < 25; i++) ids.push((await createStream(env, key, { name: `s${i}` })).id);
  const newestFirst = [...ids].reverse();

  const page = await list(env, key);
  assert.is(page.body.object, 'list');
  assert.equal(
    page.body.data.map((s: { id: string }) => s.id),
    newestFirst.slice(0, 20),
  );
  assert.is(page.body.has_more, true);
  assert.is(page.body.data[0].object, 'stream');

  const all = await list(env, key, '?limit=100');
  assert.equal(
    all.body.data.map((s: { id: string }) => s.id),
    newestFirst,
  );
  assert.is(all.body.has_more, false);
  const exact = await list(env, key, '?limit=25');
  assert.is(exact.body.data.length, 25);
  assert.is(exact.body.has_more, false, 'no more when the page is exactly the rest');
  const one = await list(env, key, '?limit=1');
  assert.equal(
    one.body.data.map((s: { id: string }) => s.id),
    [newestFirst[0]],
  );
  assert.is(one.body.has_more, true);

  for (const limit of ['0', '101', '-1', '1.5', 'abc', '', '1e3']) {
    assertInvalidField(await list(env, key, `?limit=${limit}`), 'limit');
  }
});

t('starting_after pages without gaps; an unknown or foreign id is refused', async ({ env }) => {
  const { key } = await env.newAccount({ trusted: true });
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) ids.push((await createStream(env, key)).id);
  const p1 = await list(env, key, '?limit=3');
  const p2 = await list(env, key, `?limit=3&starting_after=${p1.body.data[2].id}`);
  const p3 = await list(env, key, `?limit=3&starting_after=${p2.body.data[2].id}`);
  assert.equal(
    [p1, p2, p3].map((p) => p.body.has_more),
    [true, true, false],
  );
  assert.equal(
    [...p1.body.data, ...p2.body.data, ...p3.body.data].map((s: { id: string }) => s.id),
    [...ids].reverse(),
  );
  const last = await list(env, key, `?starting_after=${ids[0]}`);
  assert.equal(last.body, { object: 'list', data: [], has_more: false });

  assertInvalidField(await list(env, key, '?starting_after=str_aaaaaaaaaaaaaaaaaaaa'), 'starting_after');
  assertInvalidField(await list(env, key, '?starting_after=not-an-id'), 'starting_after');
  const other = await env.newAccount();
  const foreign = await createStream(env, other.key);
  assertInvalidField(await list(env, key, `?starting_after=${foreign.id}`), 'starting_after');
});

t('status filters; unknown statuses and unknown parameters are refused', async ({ env }) => {
  const { id: accountId, key } = await env.newAccount({ trusted: true });
  const a = await createStream(env, key);
  const b = await createStream(env, key);
  const c = await createStream(env, key);
  const d = await createStream(env, key);
  await env.call('DELETE', `/v1/streams/${a.id}`, { key });
  await goLive(env, accountId, b.id);
  await goLive(env, accountId, c.id);
  await env.call('DELETE', `/v1/streams/${c.id}`, { key });
  const ids = async (status: string) =>
    (await list(env, key, `?status=${status}`)).body.data.map((s: { id: string }) => s.id);
  assert.equal(await ids('pending'), [d.id]);
  assert.equal(await ids('live'), [b.id]);
  assert.equal(await ids('ended'), [c.id]);
  assert.equal(await ids('cancelled'), [a.id]);
  assert.equal(await ids('expired'), []);
  const filtered = await list(env, key, `?status=pending&limit=1&starting_after=${d.id}`);
  assert.equal(filtered.body, { object: 'list', data: [], has_more: false });
  const cancelledAfter = await list(env, key, `?status=cancelled&starting_after=${d.id}`);
  assert.equal(
    cancelledAfter.body.data.map((s: { id: string }) => s.id),
    [a.id],
    'starting_after need not match the filter',
  );

  assertInvalidField(await list(env, key, '?status=finished'), 'status');
  assertInvalidField(await list(env, key, '?status=PENDING'), 'status');
  assertInvalidField(await list(env, key, '?colour=red'), 'colour');
});

t('another account never sees these streams', async ({ env }) => {
  const a = await env.newAccount();
  await createStream(env, a.key);
  const b = await env.newAccount();
  assert.equal((await list(env, b.key)).body.data, []);
});

t(
  'paging while streams are being created: every earlier stream exactly once, in order, no duplicates',
  async ({ env }) => {
    const { key } = await env.newAccount({ trusted: true });
    const before: string[] = [];
    for (let i = 0; i < 45; i++) before.push((await createStream(env, key)).id);

    let creating = true;
    const created: string[] = [];
    const writer = (async () => {
      while (creating) {
        const res = await env.call('POST', '/v1/streams', { key, body: {} });
        assert.is(res.status, 201, res.text);
        created.push(res.body.id);
      }
    })();
    const writer2 = (async () => {
      for (let i = 0; i < 15 && creating; i++) {
        const res = await env.call('POST', '/v1/streams', { key, body: { name: `w2-${i}` } });
        if (res.status === 201) created.push(res.body.id);
      }
    })();

    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await list(env, key, `?limit=4${after ? `&starting_after=${after}` : ''}`);
      assert.is(res.status, 200, res.text);
      seen.push(...res.body.data.map((s: { id: string }) => s.id));
      pages++;
      if (!res.body.has_more) break;
      after = res.body.data.at(-1).id;
      await new Promise((r) => setImmediate(r));
    }
    creating = false;
    await Promise.all([writer, writer2]);

    assert.ok(created.length > 0, 'streams were created while paging');
    assert.is(new Set(seen).size, seen.length, 'no stream appears twice');
    const existing = new Set(before);
    const olderSeen = seen.filter((id) => existing.has(id));
    assert.equal(
      olderSeen,
      [...before].reverse(),
      'every stream that existed before paging, newest first, none missing',
    );
    for (const id of seen) assert.ok(existing.has(id) || created.includes(id), `unknown id ${id}`);
    // Order across all pages follows creation order (newest first).
    const seq = new Map(
      (
        await env.db.sql<{ id: string; seq: number }[]>`select id, seq from streams where id in ${env.db.sql(seen)}`
      ).map((r) => [r.id, r.seq]),
    );
    const seqs = seen.map((id) => seq.get(id) ?? 0);
    for (let i = 1; i < seqs.length; i++) assert.ok((seqs[i - 1] ?? 0) > (seqs[i] ?? 0), 'strictly newest first');
    assert.ok(pages >= 12);
  },
);

t('list requires a key and an active account', async ({ env }) => {
  assertError(await env.call('GET', '/v1/streams'), 401, 'unauthorized');
  const pending = await env.newAccount({ pending: true });
  assertError(await list(env, pending.key), 403, 'account_pending');
});

t.run();
