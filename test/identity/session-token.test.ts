import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../src/core/errors.js';
import { SessionTokens, sessionSecret, type SessionClaims } from '../../src/domains/audience/identity/session-token.js';

const now = new Date('2026-11-24T10:00:00.000Z');
const claims = (i: number): SessionClaims => ({
  sessionId: `vsn_${String(i).padStart(20, '0')}`,
  streamId: 'str_aaaaaaaaaaaaaaaaaaaa',
  viewerId: `viewer-${i}`,
  name: null,
  role: 'viewer',
  accessUntil: new Date(now.getTime() + 3600_000),
  expiresAt: new Date(now.getTime() + 86_400_000),
});

/** The code of the ApiError `fn` rejects with (null: it did not reject). */
async function refusal(fn: () => Promise<unknown>): Promise<string | null> {
  try {
    await fn();
    return null;
  } catch (err) {
    return err instanceof ApiError ? err.code : String(err);
  }
}

test('session tokens: signed and read back; the verified cache is bounded and still checks the stream and the expiry', async () => {
  const tokens = new SessionTokens(sessionSecret('k'), 2);
  const signed = await Promise.all([0, 1, 2].map(async (i) => tokens.sign(claims(i))));
  for (const [i, token] of signed.entries()) {
    const read = await tokens.verify(token, 'str_aaaaaaaaaaaaaaaaaaaa', now);
    assert.equal(read, {
      ...claims(i),
      accessUntil: new Date(Math.floor(claims(i).accessUntil.getTime() / 1000) * 1000),
      expired: false,
    });
  }
  // Read again (now from the cache): another stream is still refused, and a later time still expires it.
  for (const token of signed) {
    assert.is(await refusal(() => tokens.verify(token, 'str_bbbbbbbbbbbbbbbbbbbb', now)), 'invalid_viewer_token');
    assert.is(
      (await tokens.verify(token, 'str_aaaaaaaaaaaaaaaaaaaa', new Date(now.getTime() + 86_400_001))).expired,
      true,
    );
  }
  // Another appliance's secret: refused.
  assert.is(
    await refusal(() =>
      new SessionTokens(sessionSecret('other')).verify(signed[0] as string, 'str_aaaaaaaaaaaaaaaaaaaa', now),
    ),
    'invalid_viewer_token',
  );
});

test.run();
