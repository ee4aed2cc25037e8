// nginx's njs (js_set $playlist_age): seconds since the file a request is served from was written,
// to the millisecond, for media playlists on the CDN origin. The uploader writes a media playlist
// only when it lists a new piece, so this is how long ago the newest piece was listed: the hosted
// player's first read knows where the live edge is now, not one piece ago (docs/decisions.md,
// "Low-latency mode"). Empty when there is no such file (nginx answers 404 then anyway).
import fs from 'fs';

function age(r) {
  const file = fs.statSync(r.variables.request_filename, { throwIfNoEntry: false });
  return file ? (Math.max(0, Date.now() - file.mtimeMs) / 1000).toFixed(3) : '';
}

// js_set $playlist_modified: when that file was written, in ms since the epoch, for edges: an edge
// caches a playlist for a second and tells its own viewers the age from this (docs/decisions.md,
// "Edge tier").
function modified(r) {
  const file = fs.statSync(r.variables.request_filename, { throwIfNoEntry: false });
  return file ? String(Math.floor(file.mtimeMs)) : '';
}

export default { age, modified };
