// nginx's njs (js_set $cdn_public_link): the check of the public embed read's address, the same
// answer as secure_link's ("" bad signature, "0" expired, "1" good) for the `pub` scope
// (md5 of "<expiry>/pub/<stream id> <secret>"). nginx has one secure_link per request, spent on
// the owner's `hls` scope; this runs only when that one failed (docs/decisions.md,
// "Hardening: a closed player stops its shared address").
import crypto from 'crypto';

function check(r) {
  const v = r.variables;
  const signed = crypto.createHash('md5').update(`${v.sig_expiry}/pub/${v.sid} ${v.cdn_secret}`).digest('base64url');
  if (signed !== v.sig_hash) return '';
  return Number(v.sig_expiry) > Date.now() / 1000 ? '1' : '0';
}

export default { check };
