import { operations } from '../../../platform/http/openapi.js';

/** The public embed operations as the API reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Public hosted-player endpoints'] },
  {
    getEmbed: {
      summary: 'Public embed read',
      description:
        'What the hosted player needs, without a key, from any origin. Also served by nginx at ' +
        '`{player_url}/api/embed/{id}`, cached for one second, so a crowd costs the API one read per second ' +
        'per stream. An address that asks for more than 60 unknown ids in a minute gets `429 rate_limited` on ' +
        'every public endpoint until its minute is over.',
    },
    getChannelEmbed: {
      summary: 'Public channel embed read',
      description:
        'What the channel page (`{player_url}/c/{id}`) needs, without a key, from any origin: the channel ' +
        "name and the embed read of the stream it shows: the channel's live stream, else its next pending " +
        'one (the oldest), else its latest ended one (a replay when that stream offers one), else null. ' +
        'Also served by nginx at `{player_url}/api/embed/channels/{id}`, cached for one second. Unknown ids ' +
        'count towards the same limit of 60 a minute per address as unknown stream ids.',
    },
    sendViewerBeat: {
      summary: 'Viewer beat',
      description:
        'A hosted player reports its state: every `beacon.interval_seconds` (about 10% jitter) while its `u` ' +
        'is below `beacon.rate`, and stops when `beacon` is null. No body. Counted in memory and flushed per ' +
        'minute; nothing that identifies a person is stored. `204` also when the stream is over (not ' +
        'counted, except while its replay is offered: embed `replay` true). With `t` (the session token of a viewer session of this stream) the beat is also an ' +
        'attendance report: playing time between two reports of the session is credited to the viewer (at ' +
        "most twice the session's `beacon.interval_seconds` per report); a `t` that is not a valid session " +
        'token of this stream is `401 invalid_viewer_token` and not counted. Each address (an IPv4 address or ' +
        'an IPv6 /64) may add new viewers (page loads, new `s`) to a stream from a budget of 250 at once and ' +
        '60 a minute after that, and counts for at most 500 viewers at once (estimated viewers: above about ' +
        '400 a sampled player weighs 1/`beacon.rate`); its excess is `429 rate_limited` with `Retry-After` ' +
        "and not counted. A counted page load's own beats are never refused.",
    },
    createViewerSession: {
      summary: 'Open a viewer session',
      description:
        "A viewer token (a JWT the client's site signs with one of its viewer keys: HS256, header `kid`, " +
        'claims `sub`, `exp` at most 24 hours ahead, optional `name`, `role`, `stream`) opens a session of up ' +
        'to 24 hours. On a members-only stream that is pending or live, or ended with its replay offered, the answer carries a personal playback ' +
        "address (`playback`; the replay's after the end), valid five minutes and renewed with `POST /v1/embed/{id}/playback` until the " +
        "token's `exp`. A banned viewer is refused a session on a members-only stream (`viewer_removed`). The " +
        "session's role is `moderator` (and `moderator` is filled) when the token has `role: moderator` (a " +
        'moderator for one day after each sign-in, unless the owner removed them) or its `sub` is an active ' +
        'moderator of the stream (invited with that `viewer_id`). A refused token is `401 invalid_viewer_token` ' +
        'with the reason (signature, expiry, key, stream or claim) in the message.',
    },
    createModeratorSession: {
      summary: 'Open a moderator session from a moderator link',
      description:
        'A moderator link (`{player_url}/{id}#mod=<moderator_token>`, from `POST /v1/streams/{id}/chat/moderators`) ' +
        'opens a session like `POST /v1/embed/{id}/session`, with role `moderator`: `viewer.id` is the ' +
        "moderator's viewer id and `viewer.name` the invitation's name. It lasts 24 hours, never past the " +
        "moderator's `active_until`; send its `session_token` with moderator actions. `401 invalid_viewer_token` " +
        "saying why when the token is not one of this service's links, is for another stream, or its " +
        'moderator was removed or ran out.',
    },
    renewEmbedPlayback: {
      summary: 'Renew a personal playback address',
      description:
        'Members-only streams: the session token (body `session_token`, or query `t`) → a new personal ' +
        "address for that viewer session, valid five minutes (never past the viewer token's `exp`). Only the " +
        "address's signature (its path segment, or its `svc` parameter with a CDN in front) changes, so a player can keep the paths below it. Refused with " +
        '`viewer_removed` once the viewer is banned (the video stops when the current address runs out) and ' +
        "with `viewer_access_ended` once the viewer token's `exp` has passed; `409 stream_ended` when the " +
        "stream is over and no replay is offered (with one, the address is the replay's).",
    },
  },
);
