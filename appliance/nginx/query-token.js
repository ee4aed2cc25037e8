// nginx's njs (js_content): a playlist in the query token form (docs/decisions.md, "Any CDN in
// front"). Players resolve what a playlist lists against the playlist's address without its query,
// so each listed playlist, segment or media file (and a tag's URI) gets the request's own `svc`
// parameter (already checked: nginx ran the signature check before this). Sent whole with its
// length: a CDN and the CDN log count its body, never chunk framing.
import fs from 'fs';

function playlist(r) {
  let text;
  try {
    text = fs.readFileSync(r.variables.request_filename, 'utf8');
    // njs has no `catch` without a binding.
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
  } catch (e) {
    // Asked for before the uploader wrote it (or after the stream's folder went).
    r.return(404);
    return;
  }
  const token = r.variables.svcq_token;
  r.headersOut['Content-Type'] = 'application/vnd.apple.mpegurl';
  r.return(
    200,
    text
      .replace(/^([^#\n][^\n]*\.(?:m3u8|ts|mp4))$/gm, (uri) => `${uri}?svc=${token}`)
      // A tag's address (a replay's EXT-X-MAP: its init section).
      .replace(/URI="([^"?]+)"/g, (_attr, uri) => `URI="${uri}?svc=${token}"`),
  );
}

export default { playlist };
