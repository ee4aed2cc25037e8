/**
 * The chat panel of the hosted player in Debian's Chromium, through the real appliance (nginx's
 * player site in front of the API's chat): a viewer's post reaches another page, a reaction is
 * counted on the other page, moderators (a moderator link, a moderator-role viewer token) delete,
 * ban and set slow mode, refusals are told in the panel, and the panel is usable by keyboard and
 * screen reader. The stream stays pending: chat needs no video.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { launchChromium, outputDir } from '../helpers/browser.js';
import { waitFor } from '../helpers/publisher.js';
import { viewerToken, type ViewerKey } from '../helpers/viewer-tokens.js';

interface Ctx {
  app: TestAppliance;
  browser: Browser;
  key: string;
  viewerKey: ViewerKey;
  stream: { id: string; embed_url: string };
  problems: string[];
  shots: string;
  /** Two anonymous viewers and a moderator, kept across tests. */
  ann?: Page;
  bob?: Page;
  mod?: Page;
}

const t = suite<Ctx>('chat in the hosted player');

t.before(async (ctx) => {
  ctx.app = await startTestAppliance();
  const account = await ctx.app.newAccount();
  ctx.key = account.key;
  ctx.viewerKey = await ctx.app.accounts.createViewerKey(account.id);
  // Every page sends its reactions (no sampling), so one click is one count.
  const created = await ctx.app.call('POST', '/v1/streams', {
    key: ctx.key,
    body: { name: 'Town hall chat', chat: { reaction_sampling: 1 } },
  });
  assert.is(created.status, 201, created.text);
  ctx.stream = created.body;
  ctx.browser = await launchChromium();
  ctx.problems = [];
  ctx.shots = outputDir('player-chat');
});

t.after(async (ctx) => {
  await ctx.browser?.close().catch(() => {});
  await ctx.app?.close();
});

const player = <T>(page: Page, fn: string): Promise<T> =>
  page.evaluate(`(() => { const p = window.svcPlayer; return ${fn}; })()`) as Promise<T>;

/** A viewer's page (its own browser context: its own storage) with the chat's feed open. */
async function viewerPage(ctx: Ctx, fragment = '', viewport = { width: 1100, height: 640 }): Promise<Page> {
  const page = await ctx.browser.newPage({ viewport });
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) ctx.problems.push(m.text());
  });
  page.on('pageerror', (e) => ctx.problems.push(`page error: ${e.message}`));
  await page.goto(`${ctx.stream.embed_url}${fragment}`);
  await page.waitForSelector('#svc-chat:not([hidden])', { timeout: 10_000 });
  await waitFor(
    'the chat feed open',
    async () => (await player<number | null>(page, 'p.chat.feed')) === 1,
    10_000,
    100,
  );
  return page;
}

async function post(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByLabel('Message', { exact: true }).press('Enter');
}

interface Shown {
  id: string;
  who: string;
  text: string;
  verified: boolean;
  moderator: boolean;
}
const messagesOf = (page: Page): Promise<Shown[]> =>
  page.$$eval('#svc-chat-log .msg', (els) =>
    els.map((el) => ({
      id: (el as HTMLElement).dataset.id ?? '',
      who: el.querySelector('.who')?.textContent ?? '',
      text: el.querySelector('.text')?.textContent ?? '',
      verified: !!el.querySelector('.verified'),
      moderator: !!el.querySelector('.mod-badge'),
    })),
  );
const shows = async (page: Page, text: string) => (await messagesOf(page)).filter((m) => m.text === text);
const waitForMessage = (page: Page, text: string, timeoutMs = 5000) =>
  waitFor(`"${text}" shown`, async () => (await shows(page, text))[0], timeoutMs, 100);
/** The message stays away: checked after the feed has had time to bring it. */
async function neverShown(page: Page, text: string): Promise<void> {
  await page.waitForTimeout(1500);
  assert.equal(await shows(page, text), [], `"${text}" not shown`);
}
/** The API reads a stream's chat settings at most once a second per node: a change holds for posts a second after the feed announced it. */
const settled = () => new Promise((r) => setTimeout(r, 1100));
const alertOf = (page: Page) => page.textContent('#svc-chat-alert');
const noteOf = (page: Page) => page.textContent('#svc-chat-note');

t('through nginx: history GETs cached for a second, posts never', async ({ app, stream }) => {
  const base = `${app.config.publicUrls.player_url}/api/embed/${stream.id}/chat/messages`;
  const first = await fetch(`${base}?limit=5`);
  assert.is(first.status, 200, await first.clone().text());
  assert.equal((await first.json()).data, []);
  const again = await fetch(`${base}?limit=5`);
  await again.arrayBuffer();
  assert.is(again.headers.get('x-cache'), 'HIT');
  const other = await fetch(`${base}?limit=6`);
  await other.arrayBuffer();
  assert.is.not(other.headers.get('x-cache'), 'HIT', 'the query is part of the key');
  const posted = await fetch(base, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'first!', nickname: 'Curl', client_id: 'site-check-1' }),
  });
  assert.is(posted.status, 201, await posted.clone().text());
  assert.is.not(posted.headers.get('x-cache'), 'HIT');
  const id = ((await posted.json()) as { id: string }).id;
  // nginx counts whole seconds: an entry lives one to two.
  await new Promise((r) => setTimeout(r, 2100));
  const later = (await (await fetch(`${base}?limit=5`)).json()) as { data: { id: string }[] };
  assert.equal(
    later.data.map((m) => m.id),
    [id],
  );
});

t(
  "a viewer's post reaches another page as text; the nickname and the anonymous identity are remembered",
  async (ctx) => {
    ctx.ann = await viewerPage(ctx);
    ctx.bob = await viewerPage(ctx);
    const { ann, bob } = ctx;
    // The history's last messages come first (the one posted through nginx above).
    await waitForMessage(bob, 'first!');
    assert.equal(
      (await messagesOf(bob)).map((m) => m.text),
      ['first!'],
    );

    const hostile = '<img src=x onerror="window.pwned=1"> hello';
    await post(ann, hostile);
    assert.is(await alertOf(ann), 'Choose a nickname first');
    assert.ok(
      await ann.evaluate(() => document.activeElement?.id === 'svc-chat-name'),
      'the nickname field has the focus',
    );
    await ann.getByLabel('Nickname', { exact: true }).fill('Ann <b>');
    await ann.getByLabel('Message', { exact: true }).press('Enter');
    const seen = await waitForMessage(bob, hostile);
    assert.equal({ ...seen, id: '' }, { id: '', who: 'Ann <b>', text: hostile, verified: false, moderator: false });
    assert.match(seen.id, /^msg_[a-z0-9]{20}$/);
    assert.is(await bob.locator('#svc-chat-log img, #svc-chat-log b').count(), 0);
    assert.is(await bob.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    // Shown on sending and brought by the feed: once.
    await ann.waitForTimeout(1000);
    assert.is((await shows(ann, hostile)).length, 1);
    assert.is(await ann.inputValue('#svc-chat-text'), '');

    await post(bob, 'hi Ann');
    assert.is(await alertOf(bob), 'Choose a nickname first');
    await bob.getByLabel('Nickname', { exact: true }).fill('Bob');
    await bob.getByLabel('Message', { exact: true }).press('Enter');
    await waitForMessage(ann, 'hi Ann');

    const clientId = await player<string>(ann, 'p.chat.clientId');
    assert.match(clientId, /^[A-Za-z0-9_-]{8,64}$/);
    await ann.reload();
    await ann.waitForSelector('#svc-chat:not([hidden])');
    assert.is(await ann.inputValue('#svc-chat-name'), 'Ann <b>');
    await waitForMessage(ann, hostile);
    assert.is(await player<string>(ann, 'p.chat.clientId'), clientId);
    await ann.screenshot({ path: join(ctx.shots, '1-viewer.png') });
  },
);

t('a reaction is counted on the other page', async ({ ann, bob }) => {
  const thumbs = (page: Page) => page.getByRole('button', { name: 'React with thumbs up' });
  assert.is(await thumbs(bob!).textContent(), '👍');
  await thumbs(ann!).click();
  await waitFor(
    'the count on the other page',
    async () => (await thumbs(bob!).locator('.count').textContent()) === '1',
    5000,
    100,
  );
  await thumbs(ann!).click();
  await thumbs(bob!).click();
  await waitFor('three counted', async () => (await thumbs(bob!).locator('.count').textContent()) === '3', 5000, 100);
  assert.is(await bob!.getByRole('button', { name: 'React with fire' }).locator('.count').textContent(), '');
});

t(
  'a moderator (a moderator-role #vt=): a verified name and badge; Delete removes a message from every page, Ban hides the author, slow mode holds viewers back',
  async (ctx) => {
    const { app, key, stream, viewerKey } = ctx;
    const ann = ctx.ann!;
    const bob = ctx.bob!;
    const token = await viewerToken(viewerKey, new Date(), { sub: 'mo-1', name: 'Mo Derator', role: 'moderator' });
    const mod = await viewerPage(ctx, `#vt=${token}`);
    ctx.mod = mod;
    assert.is(await mod.evaluate(() => location.href), stream.embed_url);
    const session = await player<{ moderator: { id: string } | null; viewer: { name: string } }>(mod, 'p.session');
    assert.ok(session.moderator, 'a moderator session');
    // A verified name: no nickname to choose.
    assert.not.ok(await mod.isVisible('#svc-chat-name'));
    assert.ok(await mod.isVisible('#svc-chat-slow'));
    assert.not.ok(await ann.isVisible('#svc-chat-slow'), 'viewers have no moderator tools');
    assert.is(await ann.locator('#svc-chat-log button').count(), 0);

    await post(mod, 'Welcome, be kind');
    const welcome = await waitForMessage(bob, 'Welcome, be kind');
    assert.equal(
      { ...welcome, id: '' },
      { id: '', who: 'Mo Derator', text: 'Welcome, be kind', verified: true, moderator: true },
    );
    assert.is(await bob.getByRole('img', { name: 'verified' }).count(), 1);

    await post(ann, 'delete me');
    await waitForMessage(bob, 'delete me');
    await waitForMessage(mod, 'delete me');
    await mod.getByRole('button', { name: 'Delete the message from Ann <b>' }).last().click();
    for (const page of [mod, ann, bob])
      await waitFor('the message gone', async () => (await shows(page, 'delete me')).length === 0, 5000, 100);
    await mod.screenshot({ path: join(ctx.shots, '2-moderator.png') });

    // Ban a signed-in viewer by her message: her posts are shown to her only. (An anonymous
    // author's ban covers their network, here every page's: loopback.)
    const dee = await viewerPage(ctx, `#vt=${await viewerToken(viewerKey, new Date(), { sub: 'dee-1', name: 'Dee' })}`);
    await post(dee, 'hello from Dee');
    await waitForMessage(mod, 'hello from Dee');
    await mod.getByRole('button', { name: 'Ban Dee' }).click();
    await waitFor('the ban confirmed', async () => (await alertOf(mod)) === 'Dee is banned', 5000, 100);
    const bans = await app.call('GET', `/v1/streams/${stream.id}/chat/bans`, { key });
    assert.is(bans.status, 200, bans.text);
    assert.ok(
      bans.body.data.some(
        (b: { viewer_id: string; created_by: string }) =>
          b.viewer_id === 'dee-1' && b.created_by === session.moderator?.id,
      ),
      bans.text,
    );
    await post(dee, 'am I banned?');
    await waitForMessage(dee, 'am I banned?');
    assert.is(await alertOf(dee), '');
    await neverShown(ann, 'am I banned?');
    assert.equal(await shows(mod, 'am I banned?'), []);
    await dee.close();

    await mod.selectOption('#svc-chat-slow', '30');
    await waitFor(
      "the viewers' hint",
      async () => (await noteOf(ann)) === 'Slow mode: one message every 30 seconds',
      5000,
      100,
    );
    await settled();
    // A viewer who has not posted yet: the first post passes, the next waits.
    const cy = await viewerPage(ctx);
    await cy.getByLabel('Nickname', { exact: true }).fill('Cy');
    await post(cy, 'one');
    await waitForMessage(ann, 'one');
    await post(cy, 'two');
    await waitFor(
      'the refusal',
      async () => /^Slow mode is on: you can post again in [0-9]+ seconds$/.test((await alertOf(cy)) ?? ''),
      5000,
      100,
    );
    assert.is(await cy.inputValue('#svc-chat-text'), 'two', 'the message is kept to send later');
    await cy.close();
    assert.match((await noteOf(mod)) ?? '', /moderators are exempt/);
    await post(mod, 'mods are exempt 1');
    await waitForMessage(ann, 'mods are exempt 1');
    await post(mod, 'mods are exempt 2');
    await waitForMessage(ann, 'mods are exempt 2');
    assert.is(await alertOf(mod), '');
    await mod.selectOption('#svc-chat-slow', '0');
    await waitFor('slow mode off', async () => (await noteOf(ann)) === '', 5000, 100);
    await settled();
  },
);

t(
  'a moderator link (#mod=): the fragment leaves the address, a moderator session opens, its Delete works',
  async (ctx) => {
    const { app, key, stream } = ctx;
    const ann = ctx.ann!;
    const invited = await app.call('POST', `/v1/streams/${stream.id}/chat/moderators`, {
      key,
      body: { name: 'Lin Moderator' },
    });
    assert.is(invited.status, 201, invited.text);
    const link = invited.body.link as string;
    assert.ok(link.startsWith(`${stream.embed_url}#mod=`), link);
    const lin = await viewerPage(ctx, link.slice(stream.embed_url.length));
    assert.is(await lin.evaluate(() => location.href), stream.embed_url);
    assert.is(await player<string | undefined>(lin, 'p.session.moderator?.id'), invited.body.id);
    assert.not.ok(await lin.isVisible('#svc-chat-name'));
    await post(ann, 'please delete');
    await waitForMessage(lin, 'please delete');
    await lin.getByRole('button', { name: 'Delete the message from Ann <b>' }).last().click();
    for (const page of [lin, ann, ctx.bob!])
      await waitFor('the message gone', async () => (await shows(page, 'please delete')).length === 0, 5000, 100);
    await post(lin, 'moderating by link');
    const shown = await waitForMessage(ann, 'moderating by link');
    assert.equal([shown.who, shown.verified, shown.moderator], ['Lin Moderator', true, true]);
    await lin.close();
  },
);

t('refusals are told in the panel: anonymous posting closed, chat turned off; the player carries on', async (ctx) => {
  const { app, key, stream, viewerKey } = ctx;
  const ann = ctx.ann!;
  const patch = async (chat: Record<string, unknown>) => {
    const res = await app.call('PATCH', `/v1/streams/${stream.id}`, { key, body: { chat } });
    assert.is(res.status, 200, res.text);
  };

  await patch({ anonymous_posting: false });
  await waitFor('the sign-in note', async () => (await noteOf(ann)) === 'Sign in to chat', 5000, 100);
  await settled();
  assert.not.ok(await ann.isVisible('#svc-chat-form'));
  // A post sent anyway (the settings came late) is refused with 401 viewer_token_required.
  await ann.evaluate(() => {
    (document.getElementById('svc-chat-text') as HTMLInputElement).value = 'let me in';
    (document.getElementById('svc-chat-form') as HTMLFormElement).requestSubmit();
  });
  await waitFor('the refusal', async () => (await alertOf(ann)) === 'Sign in to chat', 5000, 100).catch(async (e) => {
    throw new Error(`${e.message}: the alert says "${await alertOf(ann)}"`);
  });
  // A signed-in viewer still posts, under the token's name.
  const member = await viewerPage(
    ctx,
    `#vt=${await viewerToken(viewerKey, new Date(), { sub: 'member-1', name: 'Meg Member' })}`,
  );
  assert.not.ok(await member.isVisible('#svc-chat-name'));
  await post(member, 'signed in');
  const shown = await waitForMessage(ann, 'signed in');
  assert.is(shown.who, 'Meg Member');
  assert.ok(shown.verified);
  await member.close();

  await patch({ anonymous_posting: true, enabled: false });
  await waitFor('the chat-off note', async () => (await noteOf(ann)) === 'The chat is turned off', 5000, 100);
  assert.not.ok(await ann.isVisible('#svc-chat-form'));
  assert.not.ok(await ann.isVisible('#svc-chat-reactions'));
  assert.ok((await messagesOf(ann)).length > 0, 'the messages stay readable');
  assert.is(await ann.getAttribute('#svc-player', 'data-state'), 'waiting');
  await ann.screenshot({ path: join(ctx.shots, '3-chat-off.png') });

  await patch({ enabled: true });
  await waitFor('the chat open again', async () => ann.isVisible('#svc-chat-form'), 5000, 100);
  await settled();
  assert.is(await noteOf(ann), '');
});

t(
  'a page opened while the chat is off shows no panel; the owner turns it on and the panel appears without a reload',
  async (ctx) => {
    const { app, key, stream, browser } = ctx;
    assert.is(
      (await app.call('PATCH', `/v1/streams/${stream.id}`, { key, body: { chat: { enabled: false } } })).status,
      200,
    );
    const page = await browser.newPage();
    page.on('pageerror', (e) => ctx.problems.push(`page error: ${e.message}`));
    await page.goto(stream.embed_url);
    // The feed's settings say whether the chat is on (the embed read does not).
    await waitFor(
      'the chat feed open',
      async () => (await player<number | null>(page, 'p.chat.feed')) === 1,
      10_000,
      100,
    );
    await page.waitForTimeout(1000);
    assert.ok(await page.isHidden('#svc-chat'));
    assert.ok(await page.isHidden('#svc-chat-toggle'));
    assert.is(await page.getAttribute('#svc-player', 'data-state'), 'waiting');
    assert.is(
      (await app.call('PATCH', `/v1/streams/${stream.id}`, { key, body: { chat: { enabled: true } } })).status,
      200,
    );
    await page.waitForSelector('#svc-chat:not([hidden])', { timeout: 5000 });
    await waitForMessage(page, 'first!');
    await page.close();
    await settled();
  },
);

t('the feed refused: the panel waits and tries again; the player is untouched', async (ctx) => {
  const { browser, stream } = ctx;
  const page = await browser.newPage();
  page.on('pageerror', (e) => ctx.problems.push(`page error: ${e.message}`));
  let refused = 0;
  await page.route('**/chat/feed*', (route) => {
    refused++;
    return route.fulfill({
      status: 503,
      contentType: 'application/json',
      headers: { 'retry-after': '1' },
      body: '{"error":{"code":"chat_busy"}}',
    });
  });
  await page.goto(stream.embed_url);
  await waitFor('two refused attempts', async () => refused >= 2, 15_000, 100);
  assert.is(await page.getAttribute('#svc-player', 'data-state'), 'waiting');
  // No settings yet: no panel.
  assert.ok(await page.isHidden('#svc-chat'));
  await page.unroute('**/chat/feed*');
  await waitFor('the feed open', async () => (await player<number | null>(page, 'p.chat.feed')) === 1, 30_000, 200);
  await page.waitForSelector('#svc-chat:not([hidden])', { timeout: 5000 });
  await waitForMessage(page, 'first!');
  await page.close();
});

t(
  'accessibility: a labelled log, labelled fields and buttons, a disclosure button that remembers, Enter posts',
  async (ctx) => {
    const page = await viewerPage(ctx);
    const log = page.getByRole('log', { name: 'Chat messages' });
    // Silent while the backlog comes (up to the `settings` event), polite after.
    await waitFor('the log announcing', async () => (await log.getAttribute('aria-live')) === 'polite', 5000, 100);
    assert.is(await page.getByRole('textbox', { name: 'Message', exact: true }).count(), 1);
    assert.is(await page.getByRole('textbox', { name: 'Nickname', exact: true }).count(), 1);
    assert.is(await page.getByRole('button', { name: 'Send' }).count(), 1);
    assert.is(await page.getByRole('group', { name: 'Reactions' }).getByRole('button').count(), 8);
    assert.is(await page.getByRole('region', { name: 'Chat' }).count(), 1);

    const toggle = page.getByRole('button', { name: 'Chat', exact: true });
    assert.is(await toggle.getAttribute('aria-controls'), 'svc-chat');
    assert.is(await toggle.getAttribute('aria-expanded'), 'true');
    await toggle.click();
    assert.is(await toggle.getAttribute('aria-expanded'), 'false');
    assert.ok(await page.isHidden('#svc-chat'));
    await page.reload();
    await page.waitForSelector('#svc-chat-toggle:not([hidden])');
    assert.is(await toggle.getAttribute('aria-expanded'), 'false', 'collapsed after a reload');
    assert.ok(await page.isHidden('#svc-chat'));

    // By keyboard: open the panel, reach the message field, post with Enter.
    await toggle.focus();
    await page.keyboard.press('Enter');
    assert.is(await toggle.getAttribute('aria-expanded'), 'true');
    await page.getByLabel('Nickname', { exact: true }).fill('Kay');
    await page.getByLabel('Nickname', { exact: true }).focus();
    await page.keyboard.press('Tab');
    assert.is(await page.evaluate(() => document.activeElement?.id), 'svc-chat-text');
    assert.is(
      await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle),
      'solid',
      'focus is visible',
    );
    await page.keyboard.type('typed k and m, not play keys');
    await page.keyboard.press('Enter');
    await waitForMessage(ctx.bob!, 'typed k and m, not play keys');
    await page.close();
  },
);

t('no CSP violation and no script error on the way', ({ problems }) => {
  assert.equal(problems, []);
});

t.run();
