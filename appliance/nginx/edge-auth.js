// nginx's njs (js_set $svc_edge on the CDN origin): the edge or CDN a fetch comes from, by the
// credential in its `X-Svc-Edge` header (`<edge id>.<HMAC-SHA256 of the id, base64url>`, keyed with
// the appliance's edge key), or "" when there is none or it is forged. The template also asks for
// the edge's file in the allowed folder, so a removed edge is refused at once without a reload
// (docs/decisions.md, "Edge tier").
import crypto from 'crypto';

const ID = /^edg_[a-z0-9]{20}$/;

function check(r) {
  const credential = r.headersIn['X-Svc-Edge'] || '';
  const dot = credential.indexOf('.');
  if (dot === -1) return '';
  const id = credential.slice(0, dot);
  if (!ID.test(id)) return '';
  const mac = crypto.createHmac('sha256', r.variables.svc_edge_key).update(id).digest('base64url');
  return mac === credential.slice(dot + 1) ? id : '';
}

export default { check };
