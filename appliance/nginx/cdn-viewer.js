// nginx's njs (js_set $cdn_viewer): the CDN log's viewer id, so that the log never holds an
// address. A keyed hash of the viewer's address and user agent, 16 hex characters (64 bits):
// one id per person and browser within a minute, and nothing that leads back to the address
// without the key (docs/decisions.md, "CDN log").
import crypto from 'crypto';

function id(r) {
  const agent = r.headersIn['User-Agent'] || '';
  return crypto
    .createHmac('sha256', r.variables.cdn_viewer_key)
    .update(r.remoteAddress + '\n' + agent)
    .digest('hex')
    .slice(0, 16);
}

export default { id };
