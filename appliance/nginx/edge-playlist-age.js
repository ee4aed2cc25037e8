// nginx's njs (js_header_filter on an edge): a media playlist's `X-Playlist-Age`, from the time the
// origin's file was written (`X-Playlist-Modified`, epoch ms, sent by the origin's /_edge/ location
// and kept in the edge's cache with the playlist). A cached copy then tells its age now, as the
// origin would (playlist-age.js), and the hosted player keeps its delay (docs/decisions.md,
// "Low-latency mode"). The origin's header is the edge's own business: viewers never get it.
// Needs the edge's clock and the origin's to agree (NTP), as any HTTP cache does.
function filter(r) {
  const modified = Number(r.headersOut['X-Playlist-Modified']);
  delete r.headersOut['X-Playlist-Modified'];
  if (r.status !== 200 || !(modified > 0)) return;
  r.headersOut['X-Playlist-Age'] = (Math.max(0, Date.now() - modified) / 1000).toFixed(3);
  r.headersOut['Access-Control-Expose-Headers'] = 'X-Playlist-Age';
}

export default { filter };
