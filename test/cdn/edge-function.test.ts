import * as crypto from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CdnAddresses } from '../../src/domains/ledger/cdn/addresses.js';
import { tamperedToken } from '../helpers/cdn-viewer.js';

const SECRET = 'test-cdn-secret';
const CDN = 'https://video.example.com';
const S1 = 'str_aaaaaaaaaaaaaaaaaaaa';
const S2 = 'str_bbbbbbbbbbbbbbbbbbbb';
const VSN = 'vsn_cccccccccccccccccccc';

interface CfRequest {
  uri: string;
  querystring: Record<string, { value: string }>;
}
type Handler = (event: { request: CfRequest }) => CfRequest | { statusCode: number };

/**
 * The CloudFront Function of docs/operations.md ("Any CDN in front"), exactly as written there
 * (only its import and the pasted secret replaced), run in Node: CloudFront's runtime itself was
 * not reachable here.
 */
function documentedHandler(): Handler {
  const doc = readFileSync(fileURLToPath(new URL('../../docs/operations.md', import.meta.url)), 'utf8');
  const block = /<!-- edge-check: cloudfront-function -->\n```js\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(block, 'the function is in docs/operations.md');
  const code = block
    .replace("import crypto from 'crypto';", '')
    .replace("'paste the output of `svc cdn secret` here'", JSON.stringify(SECRET));
  return new Function('crypto', `${code}\nreturn handler;`)(crypto) as Handler;
}

/** A viewer's request as CloudFront hands it to the function. */
function requestOf(url: string, extra: Record<string, string> = {}): CfRequest {
  const u = new URL(url);
  const querystring: CfRequest['querystring'] = {};
  for (const [k, v] of [...u.searchParams, ...Object.entries(extra)]) querystring[k] = { value: v };
  return { uri: u.pathname, querystring };
}

test('the documented CloudFront Function: the appliance’s own addresses pass with only svc; forged, expired, misplaced ones get 403', () => {
  const handler = documentedHandler();
  const addresses = new CdnAddresses(CDN, SECRET, 'query');
  const later = new Date(Date.now() + 600_000);
  const run = (url: string, extra?: Record<string, string>) => handler({ request: requestOf(url, extra) });
  const passes = (url: string) => {
    const out = run(url, { x: 'cache-buster' }) as CfRequest;
    assert.ok('uri' in out, `${url} refused`);
    // Only the token goes on (a still has none).
    assert.equal(Object.keys(out.querystring), new URL(url).searchParams.has('svc') ? ['svc'] : []);
  };
  const refused = (url: string) => assert.is((run(url) as { statusCode: number }).statusCode, 403, url);

  const owner = addresses.playback(S1, later);
  passes(owner);
  passes(owner.replace('master.m3u8', '720p_00012.ts'));
  passes(addresses.publicPlayback(S1, later).replace('master.m3u8', '480p.m3u8'));
  passes(addresses.personalPlayback(S1, VSN, later));
  passes(addresses.recording(S1, later));
  passes(`${CDN}/_thumb/${S1}.jpg`);

  refused(tamperedToken(owner));
  refused(owner.replace(S1, S2));
  refused(addresses.playback(S1, new Date(Date.now() - 1000)));
  refused(owner.replace(/\?.*$/, ''));
  refused(owner.replace(/svc=[^&]+/, `svc=${new URL(owner).searchParams.get('svc')}.${VSN}`));
  refused(addresses.personalPlayback(S1, VSN, later).replace(VSN, 'vsn_dddddddddddddddddddd'));
  refused(`${CDN}/_rec/${S1}/recording.mp4?${new URL(owner).searchParams}`);
  refused(addresses.recording(S1, later).replace(`/_rec/${S1}/recording.mp4`, `/${S1}/master.m3u8`));
  refused(`${CDN}/${S1}/../secret?${new URL(owner).searchParams}`);
});

test.run();
