// nginx's njs (js_set $svc_edge and $svc_node on the CDN origin): who a request to the origin comes
// from, by the credential in a header (`<id>.<HMAC-SHA256 of the id, base64url>`, keyed with the
// appliance's edge or node key), or "" when there is none or it is forged. An edge or CDN fetching
// sends `X-Svc-Edge` (docs/decisions.md, "Edge tier"); an ingest node writing media sends
// `X-Svc-Node` ("Ingest nodes: media to the origin"). The template also asks for the edge's or
// node's file in its allowed folder, so a removed one is refused at once without a reload.
import crypto from 'crypto';

const EDGE_ID = /^edg_[a-z0-9]{20}$/;
const NODE_ID = /^nod_[a-z0-9]{20}$/;

function holder(credential, idPattern, key) {
  const dot = credential.indexOf('.');
  if (dot === -1) return '';
  const id = credential.slice(0, dot);
  if (!idPattern.test(id)) return '';
  const mac = crypto.createHmac('sha256', key).update(id).digest('base64url');
  return mac === credential.slice(dot + 1) ? id : '';
}

function edge(r) {
  return holder(r.headersIn['X-Svc-Edge'] || '', EDGE_ID, r.variables.svc_edge_key);
}

function node(r) {
  return holder(r.headersIn['X-Svc-Node'] || '', NODE_ID, r.variables.svc_node_key);
}

export default { edge, node };
