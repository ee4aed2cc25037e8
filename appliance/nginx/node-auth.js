// nginx's njs (js_set $svc_node on the CDN origin): the ingest node a media write comes from, by the
// credential in its `X-Svc-Node` header (`<node id>.<HMAC-SHA256 of the id, base64url>`, keyed with
// the appliance's node key), or "" when there is none or it is forged. The template also asks for
// the node's file in the allowed folder, so a removed node is refused at once without a reload
// (docs/decisions.md, "Ingest nodes: media to the origin").
import crypto from 'crypto';

const ID = /^nod_[a-z0-9]{20}$/;

function check(r) {
  const credential = r.headersIn['X-Svc-Node'] || '';
  const dot = credential.indexOf('.');
  if (dot === -1) return '';
  const id = credential.slice(0, dot);
  if (!ID.test(id)) return '';
  const mac = crypto.createHmac('sha256', r.variables.svc_node_key).update(id).digest('base64url');
  return mac === credential.slice(dot + 1) ? id : '';
}

export default { check };
