// Generated from the OpenAPI description by `npm run docs` (openapi-typescript): do not edit.

export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * API root
         * @description Links to the docs, the machine-readable description and an index.
         */
        get: operations["getApiRoot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OpenAPI 3.1 description */
        get: operations["getOpenApiDescription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** API reference (Markdown) */
        get: operations["getApiReferenceMarkdown"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/index.txt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plain index of operations */
        get: operations["getOperationIndex"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health check
         * @description 200 when every part of this node answers: the database and, on a node that runs it, ingest (nginx); 503 otherwise, with `parts` naming what is down.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List streams
         * @description Newest first. Page with `starting_after` = the id of the last stream of the previous page. `channel_id` lists one channel's streams.
         */
        get: operations["listStreams"];
        put?: never;
        /**
         * Create a stream
         * @description Reserves ingest for 30 minutes and returns the addresses and the stream key (shown once). With `Idempotency-Key`, a retry within 24 hours returns the first response with `Idempotent-Replayed: true`. With `channel_id`, the stream starts with the channel's `player` and `chat` settings, the body's own fields laid over them (`404 not_found` for a channel that is not the account's).
         */
        post: operations["createStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a stream
         * @description With `ingest`, `cost` and `viewers`. `playback_url` is re-signed on every read.
         */
        get: operations["getStream"];
        put?: never;
        post?: never;
        /**
         * End or cancel a stream
         * @description Pending: cancelled. Live: ended (`end_reason` `deleted`) and the publisher is disconnected. Finished: returned unchanged.
         */
        delete: operations["deleteStream"];
        options?: never;
        head?: never;
        /**
         * Update a stream
         * @description Works in any status. Fields left out are unchanged; null clears; `metadata` is replaced whole; `player` fields sent replace those fields. `latency_mode` changes only while pending (`409 stream_not_pending` once live or finished; sending the current value is always accepted).
         */
        patch: operations["updateStream"];
        trace?: never;
    };
    "/v1/streams/{id}/stream-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the stream key
         * @description Only while pending; the old key and WHIP URL stop at once.
         */
        post: operations["rotateStreamKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/viewers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Viewer series of a stream
         * @description Per-minute viewer counts from the hosted player (`player`) and from CDN logs (`cdn`), and watch time per country.
         */
        get: operations["getViewerSeries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List channels
         * @description Newest first, paged like the stream list (`limit` 1-100, default 20; `starting_after`).
         */
        get: operations["listChannels"];
        put?: never;
        /**
         * Create a channel
         * @description A recurring show: a name, and the `player` and `chat` settings that streams created in it (`channel_id` on `POST /v1/streams`) start with; fields left out take the streams' defaults. At most 1000 per account (`429 limit_channels`). The body may be left out. Accepts an `Idempotency-Key` header like stream creation.
         */
        post: operations["createChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a channel
         * @description `live_stream_id` names the channel's stream that is live now, if any.
         */
        get: operations["getChannel"];
        put?: never;
        post?: never;
        /**
         * Delete a channel
         * @description Refused with `409 channel_not_empty` while a stream of the channel is pending or live: end or cancel those first. Its finished streams keep existing, with `channel_id` null. Answers the channel as it was, with `deleted: true`.
         */
        delete: operations["deleteChannel"];
        options?: never;
        head?: never;
        /**
         * Change a channel
         * @description Fields left out stay, null clears, `metadata` is replaced whole, `player` and `chat` merge. Streams created from now on start with the new settings; existing streams keep theirs (change them with `PATCH /v1/streams/{id}`).
         */
        patch: operations["updateChannel"];
        trace?: never;
    };
    "/v1/streams/{id}/playback-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign a playback URL
         * @description A signed HLS URL for your own player. nginx checks the signature on every request: unsigned, altered or expired links get 403. Refused with `409 stream_ended` once the stream is finished.
         */
        post: operations["createPlaybackToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/attendance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Attendance of a stream
         * @description Viewers who came with a viewer token, ordered by `viewer_id` byte by byte; anonymous viewers are never listed. `watch_seconds` counts the time the player reported playing (every 30 seconds); paused, buffering and waiting time is not counted. Up to about a minute behind while streaming (a playing stretch is credited at the report after it; each node writes every 15 seconds). Page with `after` = the previous page's `next_after`; `total` counts every viewer of the stream.
         */
        get: operations["listAttendance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{id}/attendance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Attendance of a channel
         * @description The attendance of the channel's streams, one item per viewer: `watch_seconds` summed over the streams, `first_seen_at` the earliest, `last_seen_at` the latest, `name` the newest the viewer came with. Same order, paging and lag as a stream's attendance; `total` counts every viewer of the channel.
         */
        get: operations["listChannelAttendance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/recording": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete the recording
         * @description A ready (or failed) recording is deleted at once (`deleted`, event `recording.deleted`); one still being made is `deleting` and is deleted as soon as it exists. Without a recording the stream is returned unchanged.
         */
        delete: operations["deleteRecording"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/recording/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a failed recording again
         * @description A `failed` recording goes back to `processing` with three new tries: what was streamed was kept. `recording.ready` or `recording.failed` follows. Any other status: `409 recording_not_failed` with `details.status`.
         */
        post: operations["retryRecording"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/recording/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign a recording download
         * @description A signed URL of the MP4 (range requests supported). `409 recording_not_ready` with `details.status` until the recording is ready.
         */
        post: operations["createRecordingDownload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/thumbnail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign the stream's current still
         * @description A signed URL of the latest still (taken every 20 s while live, 60 s for passthrough; kept after the end). `409 thumbnail_not_ready` with `details.status` until the first still exists.
         */
        get: operations["getThumbnail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/recording/thumbnail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign a still of the recording at a chosen second
         * @description Made on the first ask (one short ffmpeg), then kept with the recording (at most 100 per recording; deleted with it). `time` beyond `recording.duration_seconds` is `400 invalid_request`; `409 recording_not_ready` with `details.status` until the recording is ready; `503 service_unavailable` with `Retry-After` when the still cannot be made just now.
         */
        get: operations["getRecordingThumbnail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embed/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public embed read
         * @description What the hosted player needs, without a key, from any origin. Also served by nginx at `{player_url}/api/embed/{id}`, cached for one second, so a crowd costs the API one read per second per stream. An address that asks for more than 60 unknown ids in a minute gets `429 rate_limited` on every public endpoint until its minute is over.
         */
        get: operations["getEmbed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embed/channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public channel embed read
         * @description What the channel page (`{player_url}/c/{id}`) needs, without a key, from any origin: the channel name and the embed read of the stream it shows: the channel's live stream, else its next pending one (the oldest), else its latest ended one (a replay when that stream offers one), else null. Also served by nginx at `{player_url}/api/embed/channels/{id}`, cached for one second. Unknown ids count towards the same limit of 60 a minute per address as unknown stream ids.
         */
        get: operations["getChannelEmbed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embed/{id}/beat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Viewer beat
         * @description A hosted player reports its state: every `beacon.interval_seconds` (about 10% jitter) while its `u` is below `beacon.rate`, and stops when `beacon` is null. No body. Counted in memory and flushed per minute; nothing that identifies a person is stored. `204` also when the stream is over (not counted, except while its replay is offered: embed `replay` true). With `t` (the session token of a viewer session of this stream) the beat is also an attendance report: playing time between two reports of the session is credited to the viewer (at most twice the session's `beacon.interval_seconds` per report); a `t` that is not a valid session token of this stream is `401 invalid_viewer_token` and not counted. Each address (an IPv4 address or an IPv6 /64) may add new viewers (page loads, new `s`) to a stream from a budget of 250 at once and 60 a minute after that, and counts for at most 500 viewers at once (estimated viewers: above about 400 a sampled player weighs 1/`beacon.rate`); its excess is `429 rate_limited` with `Retry-After` and not counted. A counted page load's own beats are never refused.
         */
        post: operations["sendViewerBeat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embed/{id}/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a viewer session
         * @description A viewer token (a JWT the client's site signs with one of its viewer keys: HS256, header `kid`, claims `sub`, `exp` at most 24 hours ahead, optional `name`, `role`, `stream`) opens a session of up to 24 hours. On a members-only stream that is pending or live, or ended with its replay offered, the answer carries a personal playback address (`playback`; the replay's after the end), valid five minutes and renewed with `POST /v1/embed/{id}/playback` until the token's `exp`. A banned viewer is refused a session on a members-only stream (`viewer_removed`). The session's role is `moderator` (and `moderator` is filled) when the token has `role: moderator` (a moderator for one day after each sign-in, unless the owner removed them) or its `sub` is an active moderator of the stream (invited with that `viewer_id`). A refused token is `401 invalid_viewer_token` with the reason (signature, expiry, key, stream or claim) in the message.
         */
        post: operations["createViewerSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embed/{id}/mod/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a moderator session from a moderator link
         * @description A moderator link (`{player_url}/{id}#mod=<moderator_token>`, from `POST /v1/streams/{id}/chat/moderators`) opens a session like `POST /v1/embed/{id}/session`, with role `moderator`: `viewer.id` is the moderator's viewer id and `viewer.name` the invitation's name. It lasts 24 hours, never past the moderator's `active_until`; send its `session_token` with moderator actions. `401 invalid_viewer_token` saying why when the token is not one of this service's links, is for another stream, or its moderator was removed or ran out.
         */
        post: operations["createModeratorSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embed/{id}/playback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Renew a personal playback address
         * @description Members-only streams: the session token (body `session_token`, or query `t`) → a new personal address for that viewer session, valid five minutes (never past the viewer token's `exp`). Only the address's signature (its path segment, or its `svc` parameter with a CDN in front) changes, so a player can keep the paths below it. Refused with `viewer_removed` once the viewer is banned (the video stops when the current address runs out) and with `viewer_access_ended` once the viewer token's `exp` has passed; `409 stream_ended` when the stream is over and no replay is offered (with one, the address is the replay's).
         */
        post: operations["renewEmbedPlayback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embed/{id}/chat/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Chat history
         * @description The newest messages, oldest first, as every viewer sees them (no shadowed or deleted messages). Page back with `before` = the first id of the page. Served cached for one second at `{player_url}/api/embed/{id}/chat/messages`. Readable by anyone with the stream id, members-only streams included.
         */
        get: operations["listEmbedChatMessages"];
        put?: never;
        /**
         * Post a chat message
         * @description With `session_token` (a viewer session of this stream) the token's `name` is used and the message is `verified`; without one the viewer posts with `nickname` and `client_id` (anonymous), which members-only streams and `chat.anonymous_posting: false` refuse with `401 viewer_token_required`. A viewer may post 5 messages per 10 seconds (`429 chat_rate_limited`) and, in slow mode, one per `slow_mode_seconds` (`429 chat_slow_mode`; moderators are exempt); both carry `Retry-After`. A banned viewer's post is answered `201` like any other and shown to nobody but them (a shadow ban). `503 chat_busy` when the node sheds load.
         */
        post: operations["postChatMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embed/{id}/chat/feed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Chat feed (server-sent events)
         * @description A `text/event-stream` of the stream's chat. A fresh connection gets `reset`, the newest 50 messages as `message` events, then `settings`; a reconnection with `Last-Event-ID` (or `after`) gets exactly the events it missed (`reset` and a fresh start when they are too old). Events:
         *     - `message` (id, data: a chat message);
         *     - `delete` (id, data `{object: "chat_deletion", message_ids, deleted_by}`): remove these messages;
         *     - `settings` (id, data: `enabled` (posting open), `anonymous_posting`, `slow_mode_seconds`, `reactions` with `emojis` and the sampling `rate`);
         *     - `reactions` (no id, data `{object: "reactions", counts, rate}`): the last second's reactions, already scaled up by the sampling rate; add up those of several nodes;
         *     - a `: ping` comment every 15 seconds.
         *     Send `t` (a session token) or `c` (an anonymous client id) so a viewer sees their own posts when they are shadow-banned. Also at `{player_url}/api/embed/{id}/chat/feed`. `503 chat_busy` when the node holds as many readers as it can; `429 rate_limited` (with `Retry-After`) when it holds `chat.max_readers_per_address` (250) feeds from the caller's address (an IPv4 address or an IPv6 /64); a feed that closes frees its place.
         */
        get: operations["readChatFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embed/{id}/chat/reactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a reaction
         * @description One of the `reactions.emojis` of the feed's `settings`. Players send only while their page-load `u` is below `reactions.rate`; each reaction counts for 1/rate, and the feed announces the counts once a second. A viewer may send 20 per 10 seconds (`429 chat_rate_limited`); past a stream's budget per node (100 a second) reactions are accepted and not counted.
         */
        post: operations["sendChatReaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embed/{id}/mod/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete a message (moderator)
         * @description A moderator session (`session_token`) deletes a message: it goes from every feed (a `delete` event) and from the history. `200` with the deleted message, also when it was already deleted.
         */
        post: operations["moderatorDeleteChatMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embed/{id}/mod/ban": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ban a viewer (moderator)
         * @description A moderator session bans the author of `message_id`, or `viewer_id`: a shadow ban, like `POST /v1/streams/{id}/chat/bans`, with `created_by` = the moderator id. `201` new, `200` already banned.
         */
        post: operations["moderatorBanViewer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embed/{id}/mod/slow-mode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set slow mode (moderator)
         * @description A moderator session sets `chat.slow_mode_seconds` (0 turns it off); every feed gets a `settings` event. Answers the chat settings as the feed's `settings` events carry them.
         */
        post: operations["moderatorSetSlowMode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Without secrets; `event_types` lists every type an endpoint can subscribe to.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description `url` must be https on the public internet: a host that resolves to a private, loopback, link-local or otherwise non-public address is refused (unless the operator allows private targets). `events` omitted: every type, including types added later. At most 5 endpoints per account.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook endpoint
         * @description With its signing `secret`.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Its delivery log goes with it; queued deliveries are not sent.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Update a webhook endpoint
         * @description Fields left out are unchanged. `enabled: false` stops sending and fails the queued deliveries. `events: null` subscribes to every type.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/webhooks/{id}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description Returns the new secret. The old one keeps signing for 24 hours: each request then carries two signatures, space separated.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues `webhook.test` (data: the endpoint) for this endpoint only; it is sent within a couple of seconds. A disabled endpoint gets it already failed.
         */
        post: operations["testWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List deliveries of an endpoint
         * @description Newest first, with payload and the last answer; kept 30 days. Page with `starting_after` = the id of the last delivery of the previous page.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a delivery
         * @description A failed delivery gets one more attempt now; a pending one is brought forward. `404 not_found` for a delivery that succeeded or does not exist.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage, balance and rates
         * @description The balance (credit minus everything charged), the available amount (the balance minus what live streams used and is not charged yet), the rates, and per UTC day each item’s quantity and amount, the credit added and the closing balance: the days add up to the balance to the micro-dollar. Ingest and storage are charged per closed minute and hour; delivery as the CDN logs are read (about a minute behind).
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/chat/bans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List bans of a stream
         * @description Newest first: the stream's own bans (those of its channel are listed on the channel). Page with `starting_after` = the id of the last ban of the previous page.
         */
        get: operations["listChatBans"];
        put?: never;
        /**
         * Ban a viewer
         * @description By `viewer_id` (the client's own viewer id, a token's `sub`) or `message_id` (the author of a chat message; an anonymous author is banned by the client id and the network the message came from). Bans are shadow bans: the banned viewer's chat posts (past and future) are shown to nobody but themselves, while their own feed shows them as sent. A ban follows the person, not the browser: a banned member's next renewal of the personal playback address is refused with `viewer_removed`, so the video stops when the current address runs out (within five minutes), and a new session on a members-only stream is refused. `201` with the new ban; `200` with the existing one when the viewer is already banned.
         */
        post: operations["createChatBan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/chat/bans/{ban_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Lift a ban
         * @description The viewer may open sessions and renew playback again at once.
         */
        delete: operations["deleteChatBan"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{id}/chat/bans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List bans of a channel
         * @description Newest first: the channel's bans (a stream's own bans are listed on the stream). Page with `starting_after` = the id of the last ban of the previous page.
         */
        get: operations["listChannelChatBans"];
        put?: never;
        /**
         * Ban a viewer from a channel
         * @description A ban of every stream of the channel, present and future: on each, the viewer is treated as banned there (chat posts shadowed, members-only sessions and playback renewals refused with `viewer_removed`). By `viewer_id`, or `message_id`: a chat message of any stream of the channel. A moderator of the channel banning from the player (`POST /v1/embed/{id}/mod/ban`) makes the same kind of ban. `201` with the new ban; `200` with the existing one when the viewer is already banned on the channel.
         */
        post: operations["createChannelChatBan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{id}/chat/bans/{ban_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Lift a ban of a channel
         * @description The viewer may open sessions and renew playback again at once on every stream of the channel (unless a stream's own ban remains).
         */
        delete: operations["deleteChannelChatBan"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/chat/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List chat messages (owner)
         * @description Every message of the stream, newest first, with the author's `viewer_id` and whether it is `hidden` (shadowed by a ban) or deleted. Page with `starting_after` = the id of the last message of the previous page.
         */
        get: operations["listChatMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/chat/messages/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a chat message (owner)
         * @description The message goes from every feed and from the history (`deleted_by: "owner"`). `200` with the deleted message, also when it was already deleted.
         */
        delete: operations["deleteChatMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/chat/moderators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List chat moderators of a stream
         * @description The stream's own moderators (its channel's are listed on the channel): invited ones and those made by moderator-role viewer tokens, newest first; removed ones are left out, expired ones are listed (invite them again to renew). Page with `starting_after` = the id of the last moderator of the previous page.
         */
        get: operations["listChatModerators"];
        put?: never;
        /**
         * Invite a chat moderator
         * @description The answer's `link` (`{player_url}/{stream_id}#mod=...`) makes whoever opens it a moderator of the stream's chat until `active_until` (now + `active_days`): send it to the person privately. With `viewer_id`, that viewer's own viewer tokens open moderator sessions too. `201` with a new moderator; `200` when one with this `viewer_id` exists: invited again, active for `active_days` from now, a removal undone, its name replaced.
         */
        post: operations["inviteChatModerator"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/chat/moderators/{mod_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a chat moderator
         * @description Its link is refused from now on, and the moderator actions of its open sessions within a few seconds (`403 not_a_moderator`). The moderator is kept as removed, so later moderator-role tokens of the same viewer do not restore it; only inviting the viewer again does.
         */
        delete: operations["removeChatModerator"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{id}/chat/moderators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List chat moderators of a channel
         * @description The channel's own moderators (a stream's are listed on the stream), newest first; removed ones are left out, expired ones are listed. Page with `starting_after` = the id of the last moderator of the previous page.
         */
        get: operations["listChannelChatModerators"];
        put?: never;
        /**
         * Invite a chat moderator of a channel
         * @description The viewer (`viewer_id`, required here) moderates the chat of every stream of the channel, present and future, until `active_until` (now + `active_days`): their viewer tokens open moderator sessions on any of them, and a ban they make from the player is the channel's. No link (a link opens one stream's page): `link` is null. A moderator-role viewer token opened on a stream of a channel also makes a moderator of the channel (`source: token`, one day after each sign-in). `201` with a new moderator; `200` when one with this `viewer_id` exists on the channel: invited again, active for `active_days` from now, a removal undone, its name replaced.
         */
        post: operations["inviteChannelChatModerator"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{id}/chat/moderators/{mod_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a chat moderator of a channel
         * @description Their moderator actions on the channel's streams are refused within a few seconds (`403 not_a_moderator`, unless a stream's own invitation makes them that stream's moderator). The moderator is kept as removed, so later moderator-role tokens on any stream of the channel do not restore it; only inviting the viewer again on the channel does.
         */
        delete: operations["removeChannelChatModerator"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/outputs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a stream's outputs
         * @description Oldest first; at most 5, so always one page. Keys masked.
         */
        get: operations["listStreamOutputs"];
        put?: never;
        /**
         * Add a restreaming output to a stream
         * @description While the stream is live, its source is pushed as sent (no re-encoding) to each enabled output: `url` plus `/` plus `stream_key` for rtmp and rtmps, the key as the SRT `streamid` for srt. At most 5 per stream (`429 limit_stream_outputs`). Only while the stream is pending or live (`409 stream_ended` after). The host must be on the public internet (unless the operator allows private networks) and must resolve when saved. `stream_key` is never shown again, not even in this answer: it comes back masked. Accepts an `Idempotency-Key` header like stream creation.
         */
        post: operations["createStreamOutput"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{id}/outputs/{output_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a restreaming output
         * @description `status`, `last_error`, `connected_at` and `bytes_sent` are written by the node that pushes.
         */
        get: operations["getStreamOutput"];
        put?: never;
        post?: never;
        /**
         * Delete a restreaming output
         * @description Stops pushing to it; allowed whatever the state of the stream.
         */
        delete: operations["deleteStreamOutput"];
        options?: never;
        head?: never;
        /**
         * Change a restreaming output
         * @description Fields left out are unchanged; `status` and the other read-only fields are refused. A new `url` or `stream_key` sets `status` back to `idle` (with `last_error` and `connected_at` cleared) and the push reconnects with it; `enabled: false` stops pushing. Only while the stream is pending or live.
         */
        patch: operations["updateStreamOutput"];
        trace?: never;
    };
}
export interface webhooks {
    "stream.live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The publisher connected and the stream went live (not sent again for a reconnection within 60 s)
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `stream.live`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "stream.live",
                     *       "timestamp": "2026-11-22T14:00:00.000Z",
                     *       "data": {
                     *         "object": "stream",
                     *         "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *         "name": "Friday town hall",
                     *         "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *         "status": "live",
                     *         "metadata": {
                     *           "event_id": "evt-42"
                     *         },
                     *         "created_at": "2026-11-22T13:52:10.000Z",
                     *         "went_live_at": "2026-11-22T14:00:00.000Z",
                     *         "ended_at": null,
                     *         "end_reason": null,
                     *         "recording": {
                     *           "status": "recording",
                     *           "bytes": null,
                     *           "duration_seconds": null,
                     *           "ready_at": null,
                     *           "deleted_at": null
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "stream.live";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["StreamEventData"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "stream.ended": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A live stream is over; `data.end_reason` says why
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `stream.ended`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "stream.ended",
                     *       "timestamp": "2026-11-22T15:04:31.000Z",
                     *       "data": {
                     *         "object": "stream",
                     *         "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *         "name": "Friday town hall",
                     *         "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *         "status": "ended",
                     *         "metadata": {
                     *           "event_id": "evt-42"
                     *         },
                     *         "created_at": "2026-11-22T13:52:10.000Z",
                     *         "went_live_at": "2026-11-22T14:00:00.000Z",
                     *         "ended_at": "2026-11-22T15:04:31.000Z",
                     *         "end_reason": "deleted",
                     *         "recording": {
                     *           "status": "processing",
                     *           "bytes": null,
                     *           "duration_seconds": null,
                     *           "ready_at": null,
                     *           "deleted_at": null
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "stream.ended";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["StreamEventData"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "stream.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Nothing connected within the 30-minute reservation
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `stream.expired`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "stream.expired",
                     *       "timestamp": "2026-11-22T14:22:10.000Z",
                     *       "data": {
                     *         "object": "stream",
                     *         "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *         "name": "Friday town hall",
                     *         "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *         "status": "expired",
                     *         "metadata": {
                     *           "event_id": "evt-42"
                     *         },
                     *         "created_at": "2026-11-22T13:52:10.000Z",
                     *         "went_live_at": null,
                     *         "ended_at": "2026-11-22T14:22:10.000Z",
                     *         "end_reason": "reservation_ttl",
                     *         "recording": {
                     *           "status": "none",
                     *           "bytes": null,
                     *           "duration_seconds": null,
                     *           "ready_at": null,
                     *           "deleted_at": null
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "stream.expired";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["StreamEventData"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "stream.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deleted before it went live
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `stream.cancelled`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "stream.cancelled",
                     *       "timestamp": "2026-11-22T13:58:40.000Z",
                     *       "data": {
                     *         "object": "stream",
                     *         "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *         "name": "Friday town hall",
                     *         "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *         "status": "cancelled",
                     *         "metadata": {
                     *           "event_id": "evt-42"
                     *         },
                     *         "created_at": "2026-11-22T13:52:10.000Z",
                     *         "went_live_at": null,
                     *         "ended_at": "2026-11-22T13:58:40.000Z",
                     *         "end_reason": null,
                     *         "recording": {
                     *           "status": "none",
                     *           "bytes": null,
                     *           "duration_seconds": null,
                     *           "ready_at": null,
                     *           "deleted_at": null
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "stream.cancelled";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["StreamEventData"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "recording.ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The MP4 can be downloaded (`POST /v1/streams/{id}/recording/download`)
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `recording.ready`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "recording.ready",
                     *       "timestamp": "2026-11-22T15:06:02.000Z",
                     *       "data": {
                     *         "object": "stream",
                     *         "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *         "name": "Friday town hall",
                     *         "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *         "status": "ended",
                     *         "metadata": {
                     *           "event_id": "evt-42"
                     *         },
                     *         "created_at": "2026-11-22T13:52:10.000Z",
                     *         "went_live_at": "2026-11-22T14:00:00.000Z",
                     *         "ended_at": "2026-11-22T15:04:31.000Z",
                     *         "end_reason": "deleted",
                     *         "recording": {
                     *           "status": "ready",
                     *           "bytes": 1840000000,
                     *           "duration_seconds": 3871.4,
                     *           "ready_at": "2026-11-22T15:06:02.000Z",
                     *           "deleted_at": null
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "recording.ready";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["StreamEventData"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "recording.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * No MP4 could be made after three tries; the streamed data is kept
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `recording.failed`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "recording.failed",
                     *       "timestamp": "2026-11-22T15:09:40.000Z",
                     *       "data": {
                     *         "object": "stream",
                     *         "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *         "name": "Friday town hall",
                     *         "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *         "status": "ended",
                     *         "metadata": {
                     *           "event_id": "evt-42"
                     *         },
                     *         "created_at": "2026-11-22T13:52:10.000Z",
                     *         "went_live_at": "2026-11-22T14:00:00.000Z",
                     *         "ended_at": "2026-11-22T15:04:31.000Z",
                     *         "end_reason": "deleted",
                     *         "recording": {
                     *           "status": "failed",
                     *           "bytes": null,
                     *           "duration_seconds": null,
                     *           "ready_at": null,
                     *           "deleted_at": null
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "recording.failed";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["StreamEventData"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "recording.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The MP4 was deleted: by the client, by retention, or at the zero-balance deadline
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `recording.deleted`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "recording.deleted",
                     *       "timestamp": "2026-12-22T15:06:02.000Z",
                     *       "data": {
                     *         "object": "stream",
                     *         "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *         "name": "Friday town hall",
                     *         "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *         "status": "ended",
                     *         "metadata": {
                     *           "event_id": "evt-42"
                     *         },
                     *         "created_at": "2026-11-22T13:52:10.000Z",
                     *         "went_live_at": "2026-11-22T14:00:00.000Z",
                     *         "ended_at": "2026-11-22T15:04:31.000Z",
                     *         "end_reason": "deleted",
                     *         "recording": {
                     *           "status": "deleted",
                     *           "bytes": 1840000000,
                     *           "duration_seconds": 3871.4,
                     *           "ready_at": "2026-11-22T15:06:02.000Z",
                     *           "deleted_at": "2026-12-22T15:06:02.000Z"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "recording.deleted";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["StreamEventData"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "credit.low": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prepaid: `available_usd` fell to or below `billing.low_credit_usd` (5.00 by default); once per crossing
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `credit.low`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "credit.low",
                     *       "timestamp": "2026-11-22T15:30:00.000Z",
                     *       "data": {
                     *         "object": "balance",
                     *         "account_id": "acc_2m9q7x1c4v6b0n5z8f3k",
                     *         "billing_mode": "prepaid",
                     *         "balance_usd": "5.12",
                     *         "available_usd": "4.87",
                     *         "low_credit_usd": "5.00",
                     *         "balance_depleted_at": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "credit.low";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["BalanceEventData"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "credit.depleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prepaid: `available_usd` fell to or below zero; live streams end `insufficient_credit` and recordings go on the zero-balance deadline
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `credit.depleted`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "credit.depleted",
                     *       "timestamp": "2026-11-22T16:10:00.000Z",
                     *       "data": {
                     *         "object": "balance",
                     *         "account_id": "acc_2m9q7x1c4v6b0n5z8f3k",
                     *         "billing_mode": "prepaid",
                     *         "balance_usd": "-0.03",
                     *         "available_usd": "-0.21",
                     *         "low_credit_usd": "5.00",
                     *         "balance_depleted_at": "2026-11-22T16:10:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "credit.depleted";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["BalanceEventData"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "balance.low": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Postpaid: as `credit.low`; nothing is refused or ended
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `balance.low`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "balance.low",
                     *       "timestamp": "2026-11-22T15:30:00.000Z",
                     *       "data": {
                     *         "object": "balance",
                     *         "account_id": "acc_2m9q7x1c4v6b0n5z8f3k",
                     *         "billing_mode": "postpaid",
                     *         "balance_usd": "5.12",
                     *         "available_usd": "4.87",
                     *         "low_credit_usd": "5.00",
                     *         "balance_depleted_at": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "balance.low";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["BalanceEventData"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "balance.depleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Postpaid: as `credit.depleted`; nothing is refused or ended
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `balance.depleted`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "balance.depleted",
                     *       "timestamp": "2026-11-22T16:10:00.000Z",
                     *       "data": {
                     *         "object": "balance",
                     *         "account_id": "acc_2m9q7x1c4v6b0n5z8f3k",
                     *         "billing_mode": "postpaid",
                     *         "balance_usd": "-0.03",
                     *         "available_usd": "-0.21",
                     *         "low_credit_usd": "5.00",
                     *         "balance_depleted_at": "2026-11-22T16:10:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "balance.depleted";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["BalanceEventData"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "output.connected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A restreaming output's push began to send media (again after `output.errored`); not sent again for a reconnection of the publisher
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `output.connected`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "output.connected",
                     *       "timestamp": "2026-11-22T14:00:02.000Z",
                     *       "data": {
                     *         "object": "stream_output",
                     *         "id": "out_6b0n5z8f3k2m9q7x1c4v",
                     *         "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *         "name": "YouTube",
                     *         "url": "rtmp://a.rtmp.youtube.com/live2",
                     *         "stream_key": "••••qrst",
                     *         "enabled": true,
                     *         "status": "active",
                     *         "last_error": null,
                     *         "connected_at": "2026-11-22T14:00:02.000Z",
                     *         "bytes_sent": 0,
                     *         "created_at": "2026-11-22T13:55:00.000Z",
                     *         "updated_at": "2026-11-22T14:00:02.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "output.connected";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["StreamOutput"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "output.errored": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A push failed (`data.last_error` says why; the target refused, did not answer, or its host is not public); it is retried with backoff, and this is sent once per outage, not per retry
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `output.errored`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "output.errored",
                     *       "timestamp": "2026-11-22T14:31:10.000Z",
                     *       "data": {
                     *         "object": "stream_output",
                     *         "id": "out_6b0n5z8f3k2m9q7x1c4v",
                     *         "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *         "name": "YouTube",
                     *         "url": "rtmp://a.rtmp.youtube.com/live2",
                     *         "stream_key": "••••qrst",
                     *         "enabled": true,
                     *         "status": "errored",
                     *         "last_error": "Server error: Authentication failed",
                     *         "connected_at": "2026-11-22T14:00:02.000Z",
                     *         "bytes_sent": 412000000,
                     *         "created_at": "2026-11-22T13:55:00.000Z",
                     *         "updated_at": "2026-11-22T14:31:10.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "output.errored";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["StreamOutput"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "output.disconnected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A push that had connected or failed stopped: the stream ended, or the output was disabled, changed or deleted
         * @description Sent as a signed `POST` (Standard Webhooks) to every enabled endpoint subscribed to `output.disconnected`. Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "output.disconnected",
                     *       "timestamp": "2026-11-22T15:04:31.000Z",
                     *       "data": {
                     *         "object": "stream_output",
                     *         "id": "out_6b0n5z8f3k2m9q7x1c4v",
                     *         "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *         "name": "YouTube",
                     *         "url": "rtmp://a.rtmp.youtube.com/live2",
                     *         "stream_key": "••••qrst",
                     *         "enabled": true,
                     *         "status": "idle",
                     *         "last_error": null,
                     *         "connected_at": "2026-11-22T14:00:02.000Z",
                     *         "bytes_sent": 1210000000,
                     *         "created_at": "2026-11-22T13:55:00.000Z",
                     *         "updated_at": "2026-11-22T15:04:31.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "output.disconnected";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["StreamOutput"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The test operation was called (`POST /v1/webhooks/{id}/test`); sent to that endpoint only, whatever its `events`
         * @description Sent as a signed `POST` (Standard Webhooks) to the endpoint whose test operation was called (listing `webhook.test` in `events` is allowed and changes nothing). Order is not guaranteed and an event may arrive twice.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description Event id, identical on every retry: drop duplicates with it */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was sent; reject times more than 5 minutes off */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. During a rotation two signatures, space separated, the new one first */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "webhook.test",
                     *       "timestamp": "2026-11-22T14:00:00.000Z",
                     *       "data": {
                     *         "object": "webhook_endpoint",
                     *         "id": "whk_4k2m9q7x1c4v6b0n5z8f",
                     *         "url": "https://hooks.example.com/svc",
                     *         "description": "Production automation",
                     *         "events": [
                     *           "stream.live"
                     *         ],
                     *         "all_events": true,
                     *         "enabled": true,
                     *         "created_at": "2026-11-22T14:00:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        type: "webhook.test";
                        /**
                         * Format: date-time
                         * @description When it happened
                         */
                        timestamp: string;
                        data: components["schemas"]["WebhookEndpoint"];
                    };
                };
            };
            responses: {
                /** @description Received: any 2xx within 10 seconds. Anything else (a redirect, an error, no answer in time) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the delivery is `failed`. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Error: {
            error: {
                code: string;
                message: string;
                details: {
                    [key: string]: unknown;
                };
                request_id: string;
            };
        };
        PlayerSettings: {
            /** @description Default true. False keeps the name out of the public embed read entirely */
            show_name: boolean;
            /** @description Default false. Members-only: the player needs a viewer token */
            require_viewer_token: boolean;
            /** @description Default true. False switches the public hosted player off */
            enabled: boolean;
            /** @description Sites allowed to embed the player and chat; null allows any */
            allowed_domains: string[] | null;
            /** @description Player closes once this many viewer minutes were watched; null: no limit */
            watch_minutes_limit: number | null;
            /**
             * Format: date-time
             * @description From this time the player shows the stream as closed; null: never
             */
            closed_at: string | null;
        };
        ChatSettings: {
            /** @description Default true. False closes posting and reactions; the feed and history still answer */
            enabled: boolean;
            /** @description Default true. Viewers without a viewer token may post with a nickname (never on members-only streams) */
            anonymous_posting: boolean;
            /** @description Default 0 (off). One post per viewer per this many seconds; moderators are exempt */
            slow_mode_seconds: number;
            /** @description Share of players that send their reactions; null (default): automatic, the beacon rate (about 400 senders) */
            reaction_sampling: number | null;
        };
        /**
         * @description `cost` and `viewers` appear on the single-stream read only
         * @example {
         *       "id": "str_8f3k2m9q7x1c4v6b0n5z",
         *       "object": "stream",
         *       "name": "Friday town hall",
         *       "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
         *       "status": "live",
         *       "profile": "abr_basic",
         *       "latency_mode": "standard",
         *       "record": true,
         *       "replay": false,
         *       "recording": {
         *         "status": "recording",
         *         "bytes": null,
         *         "duration_seconds": null,
         *         "retention_days": 30,
         *         "ready_at": null,
         *         "delete_at": null,
         *         "delete_reason": null,
         *         "deleted_at": null
         *       },
         *       "node_ready": true,
         *       "rtmp_url": "rtmp://live.example.com:1935/live",
         *       "playback_url": "https://cdn.example.com/kq3Hd0Zp1Vb9Jc2Wm8Xy4A.1795442400/str_8f3k2m9q7x1c4v6b0n5z/master.m3u8",
         *       "playback_url_expires_at": "2026-11-22T19:00:00.000Z",
         *       "embed_url": "https://player.example.com/str_8f3k2m9q7x1c4v6b0n5z",
         *       "renditions": [
         *         "source",
         *         "480p"
         *       ],
         *       "max_ingest_resolution": 720,
         *       "max_duration_seconds": 14400,
         *       "metadata": {
         *         "event_id": "evt-42"
         *       },
         *       "player": {
         *         "show_name": true,
         *         "require_viewer_token": false,
         *         "enabled": true,
         *         "allowed_domains": null,
         *         "watch_minutes_limit": null,
         *         "closed_at": null
         *       },
         *       "chat": {
         *         "enabled": true,
         *         "anonymous_posting": true,
         *         "slow_mode_seconds": 0,
         *         "reaction_sampling": null
         *       },
         *       "reservation_expires_at": null,
         *       "reservation_expires_in_seconds": null,
         *       "created_at": "2026-11-22T13:52:10.000Z",
         *       "went_live_at": "2026-11-22T14:00:00.000Z",
         *       "ended_at": null,
         *       "end_reason": null,
         *       "ingest": {
         *         "width": 1280,
         *         "height": 720,
         *         "kbps": 3400,
         *         "observed_at": "2026-11-22T14:29:56.000Z",
         *         "limit_warning": null,
         *         "keyframe_interval_seconds": 2,
         *         "keyframe_warning": false
         *       },
         *       "cost": {
         *         "total_usd": "0.456000",
         *         "delivery_bytes": 2400000000,
         *         "delivery_usd": "0.120000",
         *         "delivery_counted_until": "2026-11-22T14:29:00.000Z",
         *         "ingest_seconds": 1800,
         *         "ingest_usd": "0.336000",
         *         "storage_gb_hours": 0,
         *         "storage_usd": "0.000000"
         *       },
         *       "viewers": {
         *         "now": {
         *           "watching": 41,
         *           "waiting": 0,
         *           "buffering_pct": 0.4,
         *           "measured_at": "2026-11-22T14:29:50.000Z",
         *           "exact": true
         *         },
         *         "peak": 57,
         *         "peak_at": "2026-11-22T14:12:00.000Z",
         *         "watch_minutes": 1130,
         *         "source": "player",
         *         "cdn_counted_until": "2026-11-22T14:29:00.000Z"
         *       },
         *       "viewers_now": 41,
         *       "thumbnail": {
         *         "url": "https://cdn.example.com/_thumb/str_8f3k2m9q7x1c4v6b0n5z.jpg",
         *         "captured_at": "2026-11-22T14:29:30.000Z"
         *       }
         *     }
         */
        Stream: {
            /** @example str_8f3k2m9q7x1c4v6b0n5z */
            id: string;
            /** @enum {string} */
            object: "stream";
            /** @example Friday town hall */
            name: string | null;
            /**
             * @description The channel the stream was created in; null for none, or once the channel is deleted
             * @example chn_4v6b0n5z8f3k2m9q7x1c
             */
            channel_id: string | null;
            /** @enum {string} */
            status: "pending" | "live" | "ended" | "expired" | "cancelled";
            /** @enum {string} */
            profile: "abr_basic" | "passthrough";
            /**
             * @description `standard` (default): 4-second pieces, about 5 s behind the publisher in the hosted player. `low`: 1-second pieces and a player tuned closer to the live edge, about 3 s behind, for publishers that send a keyframe every second (segments are cut on the publisher's keyframes). Changeable while the stream is pending
             * @enum {string}
             */
            latency_mode: "standard" | "low";
            record: boolean;
            /** @description Offer the recording as a replay once it is ready: the embed read and the hosted player play it as HLS VOD (seekable) until the recording is deleted; members-only rules apply. Needs `record`; served by the origin (from its disk or its object storage), its edges, and a CDN in front in the query token form. False: nothing after the end */
            replay: boolean;
            recording: {
                /** @enum {string} */
                status: "recording" | "processing" | "ready" | "deleting" | "deleted" | "failed" | "not_recorded" | "none" | "legacy";
                bytes: number | null;
                duration_seconds: number | null;
                retention_days: number | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                ready_at: string | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                delete_at: string | null;
                /** @enum {string|null} */
                delete_reason: "retention" | "zero_balance" | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                deleted_at: string | null;
            } | null;
            node_ready: boolean;
            /**
             * @description RTMP ingest address, used with `stream_key`; `rtmps://<domain>:<port>/live` when the operator turned TLS on. Null once the stream is finished
             * @example rtmp://live.example.com:1935/live
             */
            rtmp_url: string | null;
            /** @description Signed HLS URL: `{cdn_url}/<signature_segment>/<stream_id>/master.m3u8`. With a third-party CDN in front (`cdn.token_form` `query`): `{cdn_url}/<stream_id>/master.m3u8?svc=<signature>`, and every playlist names what it lists with the same `svc` */
            playback_url: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            playback_url_expires_at: string | null;
            embed_url: string;
            /**
             * @example [
             *       "source",
             *       "480p"
             *     ]
             */
            renditions: string[];
            /** @enum {integer} */
            max_ingest_resolution: 480 | 720 | 1080;
            max_duration_seconds: number;
            /**
             * @description Client JSON, up to 2 KB; never shown to viewers
             * @example {
             *       "event_id": "evt-42"
             *     }
             */
            metadata: {
                [key: string]: unknown;
            } | null;
            player: components["schemas"]["PlayerSettings"];
            chat: components["schemas"]["ChatSettings"];
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            reservation_expires_at: string | null;
            reservation_expires_in_seconds: number | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            went_live_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            ended_at: string | null;
            /** @enum {string|null} */
            end_reason: "deleted" | "disconnected" | "duration_limit" | "reservation_ttl" | "limit_bitrate" | "limit_resolution" | "insufficient_credit" | "simulcast_not_supported" | "provision_failed" | null;
            ingest: {
                width: number | null;
                height: number | null;
                kbps: number | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                observed_at: string;
                /** @enum {string|null} */
                limit_warning: "limit_bitrate" | "limit_resolution" | null;
                keyframe_interval_seconds: number | null;
                keyframe_warning: boolean;
            } | null;
            cost?: {
                /** @example 0.00 */
                total_usd: string;
                /** @description Bytes delivered, counted up to `delivery_counted_until` */
                delivery_bytes: number;
                /** @example 0.00 */
                delivery_usd: string;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                delivery_counted_until: string | null;
                /** @description Seconds of publishing */
                ingest_seconds: number;
                /** @example 0.00 */
                ingest_usd: string;
                storage_gb_hours: number;
                /** @example 0.00 */
                storage_usd: string;
            };
            viewers?: {
                now: {
                    watching: number;
                    waiting: number;
                    buffering_pct: number;
                    /**
                     * Format: date-time
                     * @example 2026-11-22T14:00:00.000Z
                     */
                    measured_at: string;
                    exact: boolean;
                } | null;
                peak: number | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                peak_at: string | null;
                watch_minutes: number | null;
                /** @enum {string|null} */
                source: "cdn" | "player" | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                cdn_counted_until: string | null;
            };
            viewers_now: number | null;
            /** @description Null until the first still of the live stream */
            thumbnail: {
                /** @description The latest still on the CDN: public, refreshed while live (the same address as the embed read's `poster_url`) */
                url: string;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                captured_at: string;
            } | null;
        };
        /**
         * @example {
         *       "id": "str_8f3k2m9q7x1c4v6b0n5z",
         *       "object": "stream",
         *       "name": "Friday town hall",
         *       "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
         *       "status": "pending",
         *       "profile": "abr_basic",
         *       "latency_mode": "standard",
         *       "record": true,
         *       "replay": false,
         *       "recording": null,
         *       "node_ready": true,
         *       "rtmp_url": "rtmp://live.example.com:1935/live",
         *       "playback_url": "https://cdn.example.com/Rw7Hd0Zp1Vb9Jc2Wm8Xy4A.1795440730/str_8f3k2m9q7x1c4v6b0n5z/master.m3u8",
         *       "playback_url_expires_at": "2026-11-22T18:22:10.000Z",
         *       "embed_url": "https://player.example.com/str_8f3k2m9q7x1c4v6b0n5z",
         *       "renditions": [
         *         "source",
         *         "480p"
         *       ],
         *       "max_ingest_resolution": 720,
         *       "max_duration_seconds": 14400,
         *       "metadata": {
         *         "event_id": "evt-42"
         *       },
         *       "player": {
         *         "show_name": true,
         *         "require_viewer_token": false,
         *         "enabled": true,
         *         "allowed_domains": null,
         *         "watch_minutes_limit": null,
         *         "closed_at": null
         *       },
         *       "chat": {
         *         "enabled": true,
         *         "anonymous_posting": true,
         *         "slow_mode_seconds": 0,
         *         "reaction_sampling": null
         *       },
         *       "reservation_expires_at": "2026-11-22T14:22:10.000Z",
         *       "reservation_expires_in_seconds": 1800,
         *       "created_at": "2026-11-22T13:52:10.000Z",
         *       "went_live_at": null,
         *       "ended_at": null,
         *       "end_reason": null,
         *       "ingest": null,
         *       "viewers_now": null,
         *       "thumbnail": null,
         *       "stream_key": "str_8f3k2m9q7x1c4v6b0n5z?key=Xk29fQ7mWc4Lp1Zr8Tn3Vb6Yh0Gd5Sa2",
         *       "whip_url": "https://api.example.com/live/str_8f3k2m9q7x1c4v6b0n5z?direction=whip&key=Xk29fQ7mWc4Lp1Zr8Tn3Vb6Yh0Gd5Sa2",
         *       "srt_url": "srt://ingest.example.com:10000?passphrase=q3VbN8xLk2Zp7Wc1Rt5Yh9Gd0Sa4Mf6J&latency=1000000"
         *     }
         */
        CreatedStream: {
            /** @example str_8f3k2m9q7x1c4v6b0n5z */
            id: string;
            /** @enum {string} */
            object: "stream";
            /** @example Friday town hall */
            name: string | null;
            /**
             * @description The channel the stream was created in; null for none, or once the channel is deleted
             * @example chn_4v6b0n5z8f3k2m9q7x1c
             */
            channel_id: string | null;
            /** @enum {string} */
            status: "pending" | "live" | "ended" | "expired" | "cancelled";
            /** @enum {string} */
            profile: "abr_basic" | "passthrough";
            /**
             * @description `standard` (default): 4-second pieces, about 5 s behind the publisher in the hosted player. `low`: 1-second pieces and a player tuned closer to the live edge, about 3 s behind, for publishers that send a keyframe every second (segments are cut on the publisher's keyframes). Changeable while the stream is pending
             * @enum {string}
             */
            latency_mode: "standard" | "low";
            record: boolean;
            /** @description Offer the recording as a replay once it is ready: the embed read and the hosted player play it as HLS VOD (seekable) until the recording is deleted; members-only rules apply. Needs `record`; served by the origin (from its disk or its object storage), its edges, and a CDN in front in the query token form. False: nothing after the end */
            replay: boolean;
            recording: {
                /** @enum {string} */
                status: "recording" | "processing" | "ready" | "deleting" | "deleted" | "failed" | "not_recorded" | "none" | "legacy";
                bytes: number | null;
                duration_seconds: number | null;
                retention_days: number | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                ready_at: string | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                delete_at: string | null;
                /** @enum {string|null} */
                delete_reason: "retention" | "zero_balance" | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                deleted_at: string | null;
            } | null;
            node_ready: boolean;
            /**
             * @description RTMP ingest address, used with `stream_key`; `rtmps://<domain>:<port>/live` when the operator turned TLS on. Null once the stream is finished
             * @example rtmp://live.example.com:1935/live
             */
            rtmp_url: string | null;
            /** @description Signed HLS URL: `{cdn_url}/<signature_segment>/<stream_id>/master.m3u8`. With a third-party CDN in front (`cdn.token_form` `query`): `{cdn_url}/<stream_id>/master.m3u8?svc=<signature>`, and every playlist names what it lists with the same `svc` */
            playback_url: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            playback_url_expires_at: string | null;
            embed_url: string;
            /**
             * @example [
             *       "source",
             *       "480p"
             *     ]
             */
            renditions: string[];
            /** @enum {integer} */
            max_ingest_resolution: 480 | 720 | 1080;
            max_duration_seconds: number;
            /**
             * @description Client JSON, up to 2 KB; never shown to viewers
             * @example {
             *       "event_id": "evt-42"
             *     }
             */
            metadata: {
                [key: string]: unknown;
            } | null;
            player: components["schemas"]["PlayerSettings"];
            chat: components["schemas"]["ChatSettings"];
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            reservation_expires_at: string | null;
            reservation_expires_in_seconds: number | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            went_live_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            ended_at: string | null;
            /** @enum {string|null} */
            end_reason: "deleted" | "disconnected" | "duration_limit" | "reservation_ttl" | "limit_bitrate" | "limit_resolution" | "insufficient_credit" | "simulcast_not_supported" | "provision_failed" | null;
            ingest: {
                width: number | null;
                height: number | null;
                kbps: number | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                observed_at: string;
                /** @enum {string|null} */
                limit_warning: "limit_bitrate" | "limit_resolution" | null;
                keyframe_interval_seconds: number | null;
                keyframe_warning: boolean;
            } | null;
            cost?: {
                /** @example 0.00 */
                total_usd: string;
                /** @description Bytes delivered, counted up to `delivery_counted_until` */
                delivery_bytes: number;
                /** @example 0.00 */
                delivery_usd: string;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                delivery_counted_until: string | null;
                /** @description Seconds of publishing */
                ingest_seconds: number;
                /** @example 0.00 */
                ingest_usd: string;
                storage_gb_hours: number;
                /** @example 0.00 */
                storage_usd: string;
            };
            viewers?: {
                now: {
                    watching: number;
                    waiting: number;
                    buffering_pct: number;
                    /**
                     * Format: date-time
                     * @example 2026-11-22T14:00:00.000Z
                     */
                    measured_at: string;
                    exact: boolean;
                } | null;
                peak: number | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                peak_at: string | null;
                watch_minutes: number | null;
                /** @enum {string|null} */
                source: "cdn" | "player" | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                cdn_counted_until: string | null;
            };
            viewers_now: number | null;
            /** @description Null until the first still of the live stream */
            thumbnail: {
                /** @description The latest still on the CDN: public, refreshed while live (the same address as the embed read's `poster_url`) */
                url: string;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                captured_at: string;
            } | null;
            /**
             * @description `<stream_id>?key=<secret>`; shown only here
             * @example str_8f3k2m9q7x1c4v6b0n5z?key=Xk29...
             */
            stream_key: string;
            /** @description WHIP ingest URL; contains the secret */
            whip_url: string;
            /** @description SRT ingest URL (MPEG-TS over SRT, caller mode), as ffmpeg and OBS take it: the stream's own UDP port, its passphrase (derived from the secret: a new key changes it) and `latency` in microseconds; contains the secret. Null when every port of the SRT range is held */
            srt_url: string | null;
        };
        StreamList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Stream"][];
            has_more: boolean;
        };
        /** @description The stream at the moment of the event; cost, viewers and download links are read through `GET /v1/streams/{id}` */
        StreamEventData: {
            /** @enum {string} */
            object: "stream";
            /** @example str_8f3k2m9q7x1c4v6b0n5z */
            id: string;
            /** @example Friday town hall */
            name: string | null;
            /** @description The channel the stream was created in, if any */
            channel_id: string | null;
            /** @enum {string} */
            status: "pending" | "live" | "ended" | "expired" | "cancelled";
            /**
             * @description Client JSON, up to 2 KB; never shown to viewers
             * @example {
             *       "event_id": "evt-42"
             *     }
             */
            metadata: {
                [key: string]: unknown;
            } | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            went_live_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            ended_at: string | null;
            /** @enum {string|null} */
            end_reason: "deleted" | "disconnected" | "duration_limit" | "reservation_ttl" | "limit_bitrate" | "limit_resolution" | "insufficient_credit" | "simulcast_not_supported" | "provision_failed" | null;
            recording: {
                /** @enum {string} */
                status: "recording" | "processing" | "ready" | "deleting" | "deleted" | "failed" | "not_recorded" | "none" | "legacy";
                bytes: number | null;
                duration_seconds: number | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                ready_at: string | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                deleted_at: string | null;
            } | null;
        };
        /**
         * @description A recurring show. Streams created in it (`channel_id` on stream creation) start with its `player` and `chat` settings; changing them later leaves existing streams as they are
         * @example {
         *       "object": "channel",
         *       "id": "chn_4v6b0n5z8f3k2m9q7x1c",
         *       "name": "Friday town hall",
         *       "metadata": {
         *         "team": "comms"
         *       },
         *       "player": {
         *         "show_name": true,
         *         "require_viewer_token": false,
         *         "enabled": true,
         *         "allowed_domains": null,
         *         "watch_minutes_limit": null,
         *         "closed_at": null
         *       },
         *       "chat": {
         *         "enabled": true,
         *         "anonymous_posting": true,
         *         "slow_mode_seconds": 10,
         *         "reaction_sampling": null
         *       },
         *       "page_url": "https://player.example.com/c/chn_4v6b0n5z8f3k2m9q7x1c",
         *       "live_stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
         *       "created_at": "2026-11-01T09:00:00.000Z",
         *       "updated_at": "2026-11-20T16:12:44.000Z"
         *     }
         */
        Channel: {
            /** @enum {string} */
            object: "channel";
            /** @example chn_4v6b0n5z8f3k2m9q7x1c */
            id: string;
            /** @example Friday town hall */
            name: string | null;
            /**
             * @description Client JSON, up to 2 KB; never shown to viewers
             * @example {
             *       "event_id": "evt-42"
             *     }
             */
            metadata: {
                [key: string]: unknown;
            } | null;
            player: components["schemas"]["PlayerSettings"];
            chat: components["schemas"]["ChatSettings"];
            /**
             * @description The channel's page on the hosted player, `{player_url}/c/<channel_id>`: its live stream, else its next pending one, else its latest replay
             * @example https://player.example.com/c/chn_4v6b0n5z8f3k2m9q7x1c
             */
            page_url: string;
            /**
             * @description The stream of the channel that is live now; null when none is
             * @example str_8f3k2m9q7x1c4v6b0n5z
             */
            live_stream_id: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            updated_at: string;
        };
        /** @description The channel as it was, deleted; its finished streams keep existing with `channel_id` null */
        DeletedChannel: {
            /** @enum {string} */
            object: "channel";
            /** @example chn_4v6b0n5z8f3k2m9q7x1c */
            id: string;
            /** @example Friday town hall */
            name: string | null;
            /**
             * @description Client JSON, up to 2 KB; never shown to viewers
             * @example {
             *       "event_id": "evt-42"
             *     }
             */
            metadata: {
                [key: string]: unknown;
            } | null;
            player: components["schemas"]["PlayerSettings"];
            chat: components["schemas"]["ChatSettings"];
            /**
             * @description The channel's page on the hosted player, `{player_url}/c/<channel_id>`: its live stream, else its next pending one, else its latest replay
             * @example https://player.example.com/c/chn_4v6b0n5z8f3k2m9q7x1c
             */
            page_url: string;
            /**
             * @description The stream of the channel that is live now; null when none is
             * @example str_8f3k2m9q7x1c4v6b0n5z
             */
            live_stream_id: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            updated_at: string;
            /** @enum {boolean} */
            deleted: true;
        };
        ChannelList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Channel"][];
            has_more: boolean;
        };
        WebhookEndpoint: {
            /** @enum {string} */
            object: "webhook_endpoint";
            /** @example whk_4k2m9q7x1c4v6b0n5z8f */
            id: string;
            /**
             * @description https on the public internet
             * @example https://hooks.example.com/svc
             */
            url: string;
            /** @example Production automation */
            description: string | null;
            /** @description Types sent to this endpoint (every event type when `all_events`); `webhook.test` is sent to it in any case */
            events: ("stream.live" | "stream.ended" | "stream.expired" | "stream.cancelled" | "recording.ready" | "recording.failed" | "recording.deleted" | "credit.low" | "credit.depleted" | "balance.low" | "balance.depleted" | "output.connected" | "output.errored" | "output.disconnected" | "webhook.test")[];
            /** @description Subscribed to every type, including types added later */
            all_events: boolean;
            /** @description False: nothing is sent */
            enabled: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            created_at: string;
        };
        /** @description With `secret`: on create, single read and rotation */
        WebhookEndpointWithSecret: {
            /** @enum {string} */
            object: "webhook_endpoint";
            /** @example whk_4k2m9q7x1c4v6b0n5z8f */
            id: string;
            /**
             * @description https on the public internet
             * @example https://hooks.example.com/svc
             */
            url: string;
            /** @example Production automation */
            description: string | null;
            /** @description Types sent to this endpoint (every event type when `all_events`); `webhook.test` is sent to it in any case */
            events: ("stream.live" | "stream.ended" | "stream.expired" | "stream.cancelled" | "recording.ready" | "recording.failed" | "recording.deleted" | "credit.low" | "credit.depleted" | "balance.low" | "balance.depleted" | "output.connected" | "output.errored" | "output.disconnected" | "webhook.test")[];
            /** @description Subscribed to every type, including types added later */
            all_events: boolean;
            /** @description False: nothing is sent */
            enabled: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            created_at: string;
            /**
             * @description Signing secret; the part after `whsec_` is the base64 HMAC key
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        WebhookEndpointList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["WebhookEndpoint"][];
            has_more: boolean;
            /** @description Every event type the service sends to subscribers; `events` accepts these plus `webhook.test` */
            event_types: ("stream.live" | "stream.ended" | "stream.expired" | "stream.cancelled" | "recording.ready" | "recording.failed" | "recording.deleted" | "credit.low" | "credit.depleted" | "balance.low" | "balance.depleted" | "output.connected" | "output.errored" | "output.disconnected")[];
        };
        WebhookEvent: {
            /** @enum {string} */
            type: "stream.live" | "stream.ended" | "stream.expired" | "stream.cancelled" | "recording.ready" | "recording.failed" | "recording.deleted" | "credit.low" | "credit.depleted" | "balance.low" | "balance.depleted" | "output.connected" | "output.errored" | "output.disconnected" | "webhook.test";
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            timestamp: string;
            /** @description The stream at that moment; the endpoint for `webhook.test` */
            data: {
                [key: string]: unknown;
            };
        };
        WebhookDelivery: {
            /** @enum {string} */
            object: "webhook_delivery";
            /** @example dlv_7x1c4v6b0n5z8f3k2m9q */
            id: string;
            /**
             * @description Also the `webhook-id` header, the same on every retry
             * @example evt_1c4v6b0n5z8f3k2m9q7x
             */
            event_id: string;
            /** @enum {string} */
            event_type: "stream.live" | "stream.ended" | "stream.expired" | "stream.cancelled" | "recording.ready" | "recording.failed" | "recording.deleted" | "credit.low" | "credit.depleted" | "balance.low" | "balance.depleted" | "output.connected" | "output.errored" | "output.disconnected" | "webhook.test";
            stream_id: string | null;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            attempts: number;
            max_attempts: number;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            next_attempt_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            last_attempt_at: string | null;
            /** @description What the receiver answered */
            last_status_code: number | null;
            /** @description Reason of the last failure */
            last_error: string | null;
            last_duration_ms: number | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            delivered_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            created_at: string;
            payload: components["schemas"]["WebhookEvent"];
        };
        WebhookDeliveryList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["WebhookDelivery"][];
            has_more: boolean;
        };
        Embed: {
            /** @enum {string} */
            object: "embed";
            /** @example str_8f3k2m9q7x1c4v6b0n5z */
            id: string;
            /**
             * @description `unavailable`: expired or cancelled; `closed`: the player was closed (`player.enabled`, `closed_at`, `watch_minutes_limit`)
             * @enum {string}
             */
            status: "pending" | "live" | "ended" | "unavailable" | "closed";
            /** @description The stream name, unless `player.show_name` is false */
            title: string | null;
            /** @description While live: signed HLS URL, the same for every viewer; after the end, the replay's while one is offered (`replay`). Null for members-only streams. Its signature is a path segment, or the `svc` query parameter with a third-party CDN in front (`cdn.token_form` `query`) */
            playback_url: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            playback_url_expires_at: string | null;
            /** @description True when `playback_url` (or a member's personal address) is the replay of the ended stream: HLS VOD made from its recording, offered when the stream has `replay` true and its recording is ready, until the recording is deleted */
            replay: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            went_live_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            ended_at: string | null;
            /** @description Ask again after this many seconds (5 pending, 60 live, 30 while a replay is awaited or offered); null: stop asking */
            poll_after_seconds: number | null;
            /** @description Viewer reporting; null once the stream is over and no replay is offered */
            beacon: {
                /** @description A player reports only while its `u` is below this */
                rate: number;
                /** @description Report this often (with about 10% random jitter) */
                interval_seconds: number;
            } | null;
            /**
             * @description `viewer_token` for members-only streams
             * @enum {string}
             */
            access: "public" | "viewer_token";
            /** @description The latest still of the stream on the CDN (a neutral picture until the first one) */
            poster_url: string;
        };
        ChannelEmbed: {
            /** @enum {string} */
            object: "channel_embed";
            /** @example chn_4k8m2q9x7c1v3b6n0z5w */
            id: string;
            /** @description The channel name */
            name: string | null;
            /** @description The embed read of the stream the channel page shows: the channel's live stream, else its next pending one (the oldest), else its latest ended one; null when it has none */
            stream: components["schemas"]["Embed"] | null;
            /**
             * @description `stream`'s latency mode (a channel page tunes its player to it); null when there is no stream
             * @enum {string|null}
             */
            latency_mode: "standard" | "low" | null;
            /** @description Ask again after this many seconds: 5 while no stream is live, 30 while one is (a channel may always get a new stream) */
            poll_after_seconds: number;
        };
        ViewerSession: {
            /** @enum {string} */
            object: "viewer_session";
            /** @example vsn_6b0n5z8f3k2m9q7x1c4v */
            id: string;
            /** @example str_8f3k2m9q7x1c4v6b0n5z */
            stream_id: string;
            viewer: {
                /** @description The client's own viewer id (a viewer token's `sub`), 1-64 characters */
                id: string;
                /** @description The token's `name` (verified); null without one */
                name: string | null;
                /** @enum {string} */
                role: "viewer" | "moderator";
            };
            /** @description The viewer's moderator record when the session moderates the chat (then `viewer.role` is `moderator`; otherwise null and `viewer`): an invitation of the owner (its link, or a viewer token whose `sub` is the invited `viewer_id`), or a moderator-role token, which makes the viewer a moderator for one day after each sign-in without shortening an invitation. A moderator the owner removed stays removed: null */
            moderator: {
                /** @enum {string} */
                object: "moderator";
                /** @example mod_4k2m9q7x1c4v6b0n5z8f */
                id: string;
                /** @description The client's own viewer id (a viewer token's `sub`), 1-64 characters */
                viewer_id: string;
                name: string | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                active_until: string;
            } | null;
            playback: {
                /** @description A signed HLS address for this viewer session only; renew it with `POST /v1/embed/{id}/playback` before `expires_at` */
                url: string;
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:00:00.000Z
                 */
                expires_at: string;
            } | null;
            /** @description Send as `t` on beats and as `session_token` to `/playback`; valid until `expires_at` */
            session_token: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            expires_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            access_until: string;
            /** @description With a session, report at this rate and interval (beats with `t`): the attendance reports. Null once the stream is over */
            beacon: {
                rate: number;
                interval_seconds: number;
            } | null;
        };
        RenewedPlayback: {
            /** @enum {string} */
            object: "playback";
            url: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            expires_at: string;
        };
        /** @description A ban follows the person (the token `sub`), not the browser: on its stream, or on every stream of its channel */
        Ban: {
            /** @enum {string} */
            object: "ban";
            /** @example ban_5z8f3k2m9q7x1c4v6b0n */
            id: string;
            /**
             * @description The stream it covers; null for a ban of a channel
             * @example str_8f3k2m9q7x1c4v6b0n5z
             */
            stream_id: string | null;
            /**
             * @description The channel whose every stream it covers, present and future; null for a stream's ban
             * @example null
             */
            channel_id: string | null;
            /** @description The client's own viewer id (a viewer token's `sub`), 1-64 characters */
            viewer_id: string;
            /** @description The chat message the ban was made from; null when made by viewer id */
            message_id: string | null;
            /** @description `owner` (the API) or the id of the moderator (`mod_...`) who made it */
            created_by: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            created_at: string;
        };
        BanList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Ban"][];
            has_more: boolean;
        };
        /** @description A moderator of a stream's chat, or of every stream of a channel: deletes messages, bans viewers and sets slow mode */
        Moderator: {
            /** @enum {string} */
            object: "moderator";
            /** @example mod_4k2m9q7x1c4v6b0n5z8f */
            id: string;
            /**
             * @description The stream it moderates; null for a moderator of a channel
             * @example str_8f3k2m9q7x1c4v6b0n5z
             */
            stream_id: string | null;
            /**
             * @description The channel whose every stream it moderates, present and future; null for a stream's moderator
             * @example null
             */
            channel_id: string | null;
            /** @description The viewer who moderates: a viewer token's `sub`, or for a link-only moderator its own `mod_...` id */
            viewer_id: string;
            /** @description Shown on the moderator's chat posts: the invitation's name (a token moderator: its token's `name`, null without one) */
            name: string | null;
            /**
             * @description `invitation`: invited by the owner; `token`: signed in with a moderator-role viewer token
             * @enum {string}
             */
            source: "invitation" | "token";
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            active_until: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            created_at: string;
            /** @description Invitations of a stream only: `{player_url}/{stream_id}#mod=<moderator_token>`. Opening it makes the browser a moderator of the stream's chat until `active_until`; the same link on every read, refused once the moderator is removed or expired. Null for token moderators and a channel's moderators (they sign in with their viewer tokens) */
            link: string | null;
        };
        ModeratorList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Moderator"][];
            has_more: boolean;
        };
        AttendanceItem: {
            /** @enum {string} */
            object: "attendance";
            /**
             * @description The client's own viewer id (the viewer token's `sub`)
             * @example pupil-4711
             */
            viewer_id: string;
            /**
             * @description The newest `name` the viewer's tokens carried; null when none did
             * @example Ada Lovelace
             */
            name: string | null;
            /** @description Seconds the player reported playing; paused, buffering and waiting time is not counted */
            watch_seconds: number;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            first_seen_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            last_seen_at: string;
        };
        AttendanceList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["AttendanceItem"][];
            has_more: boolean;
            /** @description Pass as `after` for the next page; null on the last page */
            next_after: string | null;
            /** @description Viewers listed for the stream, on every page */
            total: number;
        };
        ChatMessage: {
            /** @enum {string} */
            object: "chat_message";
            /**
             * @description A chat message id (`msg_...`)
             * @example msg_9q7x1c4v6b0n5z8f3k2m
             */
            id: string;
            /** @example str_8f3k2m9q7x1c4v6b0n5z */
            stream_id: string;
            text: string;
            author: {
                /** @description The viewer token's `name`, a moderator's invitation name, or the nickname the viewer chose */
                name: string;
                /** @description The name comes from a viewer token or an invitation, not from the viewer */
                verified: boolean;
                /** @enum {string} */
                role: "viewer" | "moderator";
            };
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            deleted_at: string | null;
            /** @description `owner` (the API) or the id of the moderator (`mod_...`) who deleted it */
            deleted_by: string | null;
        };
        /** @description A chat message as its stream owner sees it */
        OwnerChatMessage: {
            /** @enum {string} */
            object: "chat_message";
            /**
             * @description A chat message id (`msg_...`)
             * @example msg_9q7x1c4v6b0n5z8f3k2m
             */
            id: string;
            /** @example str_8f3k2m9q7x1c4v6b0n5z */
            stream_id: string;
            text: string;
            author: {
                /** @description The viewer token's `name`, a moderator's invitation name, or the nickname the viewer chose */
                name: string;
                /** @description The name comes from a viewer token or an invitation, not from the viewer */
                verified: boolean;
                /** @enum {string} */
                role: "viewer" | "moderator";
            };
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            deleted_at: string | null;
            /** @description `owner` (the API) or the id of the moderator (`mod_...`) who deleted it */
            deleted_by: string | null;
            /** @description The client's own viewer id (a viewer token's `sub`), 1-64 characters */
            viewer_id: string;
            /** @description Shadowed: its author is banned, so only the author sees it */
            hidden: boolean;
        };
        ChatMessageList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["ChatMessage"][];
            /** @description Older messages exist: ask again with `before` = the first id */
            has_more: boolean;
        };
        OwnerChatMessageList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["OwnerChatMessage"][];
            has_more: boolean;
        };
        EmbedChat: {
            /** @description Posting and reactions are open (the stream is pending or live, its player open, and chat on) */
            enabled: boolean;
            /** @description Viewers without a viewer token may post with a nickname (never on members-only streams) */
            anonymous_posting: boolean;
            slow_mode_seconds: number;
            reactions: {
                /** @description The reactions a viewer can send */
                emojis: string[];
                /** @description Send a reaction only while the page-load `u` is below this; counts are scaled up by it */
                rate: number;
            };
        };
        /** @description A restreaming target: while the stream is live, the source is pushed there as sent */
        StreamOutput: {
            /** @enum {string} */
            object: "stream_output";
            /** @example out_6b0n5z8f3k2m9q7x1c4v */
            id: string;
            /** @example str_8f3k2m9q7x1c4v6b0n5z */
            stream_id: string;
            /**
             * @description Label, up to 100 characters
             * @example YouTube
             */
            name: string | null;
            /**
             * @description The target without the key
             * @example rtmp://a.rtmp.youtube.com/live2
             */
            url: string;
            /**
             * @description Masked: `••••` and the last 4 characters (only `••••` for keys shorter than 12); null for an srt output without one
             * @example ••••qrst
             */
            stream_key: string | null;
            /** @description False: not pushed (default true) */
            enabled: boolean;
            /**
             * @description Read-only. `idle`: not pushing (stream not live, disabled, or not started yet); `connecting`; `active`: pushing; `errored`: the last attempt failed (`last_error`), retried with backoff
             * @enum {string}
             */
            status: "idle" | "connecting" | "active" | "errored";
            /** @description Read-only: why the last attempt failed */
            last_error: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            connected_at: string | null;
            /** @description Read-only: bytes pushed to this output so far */
            bytes_sent: number;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            updated_at: string;
        };
        StreamOutputList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["StreamOutput"][];
            has_more: boolean;
        };
        Usage: {
            /** @enum {string} */
            object: "usage";
            /** @enum {string} */
            billing_mode: "prepaid" | "postpaid";
            /**
             * @description All credit added
             * @example 0.00
             */
            credit_usd: string;
            /**
             * @description Everything charged so far
             * @example 0.00
             */
            charged_usd: string;
            /**
             * @description Credit minus everything charged so far
             * @example 0.00
             */
            balance_usd: string;
            /**
             * @description Balance minus used-but-not-yet-charged; prepaid live streams end when it reaches zero
             * @example 0.00
             */
            available_usd: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:00:00.000Z
             */
            balance_depleted_at: string | null;
            /**
             * Format: date-time
             * @description Prepaid: 7 days after the balance reached zero
             * @example 2026-11-22T14:00:00.000Z
             */
            recordings_delete_at: string | null;
            /** @description Hours published this UTC month */
            ingest_hours_used: number;
            /** @description Monthly cap; null: no cap */
            ingest_hours_limit: number | null;
            rates: {
                /** @description USD per minute of publishing with profile `abr_basic` */
                abr_basic_per_minute: string;
                /** @description USD per minute of publishing with profile `passthrough` */
                passthrough_per_minute: string;
                /** @description USD per GB (10^9 bytes) delivered, recording downloads included */
                delivery_per_gb: string;
                /** @description USD per GB stored for a month (730 hours) */
                storage_per_gb_month: string;
            };
            /** @description One entry per UTC day of the window, oldest first, today last */
            days: {
                /**
                 * @description UTC day, YYYY-MM-DD
                 * @example 2026-11-24
                 */
                date: string;
                /** @example 0.00 */
                total_usd: string;
                /** @description Every item, in the order of `rates`, zero when unused */
                items: {
                    /** @enum {string} */
                    item: "abr_basic" | "passthrough" | "delivery" | "storage";
                    /** @description Seconds (abr_basic, passthrough), bytes (delivery) or GB-hours (storage) */
                    quantity: number;
                    /** @enum {string} */
                    unit: "second" | "byte" | "gb_hour";
                    /** @example 0.00 */
                    amount_usd: string;
                }[];
                /** @description Minutes watched of the account's streams that day */
                watch_minutes: number;
                /** @example 0.00 */
                credit_usd: string;
                /**
                 * @description Balance at the end of the day: the previous day’s plus credit minus total
                 * @example 0.00
                 */
                balance_usd: string;
            }[];
        };
        /** @description The account's money when it crossed the threshold */
        BalanceEventData: {
            /** @enum {string} */
            object: "balance";
            /** @example acc_2m9q7x1c4v6b0n5z8f3k */
            account_id: string;
            /** @enum {string} */
            billing_mode: "prepaid" | "postpaid";
            /**
             * @description Credit minus everything charged so far
             * @example 0.00
             */
            balance_usd: string;
            /**
             * @description Balance minus used-but-not-yet-charged: what crossed the threshold
             * @example 0.00
             */
            available_usd: string;
            /**
             * @description The warning threshold (`billing.low_credit_usd`)
             * @example 5.00
             */
            low_credit_usd: string;
            /**
             * Format: date-time
             * @description Since when the balance is at or below zero
             * @example 2026-11-22T14:00:00.000Z
             */
            balance_depleted_at: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getApiRoot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "api_root",
                     *       "name": "string",
                     *       "version": "1.12.0",
                     *       "docs_url": "string",
                     *       "openapi_url": "string",
                     *       "index_url": "string"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "api_root";
                        name: string;
                        /** @example 1.12.0 */
                        version: string;
                        docs_url: string;
                        openapi_url: string;
                        index_url: string;
                    };
                };
            };
        };
    };
    getOpenApiDescription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getApiReferenceMarkdown: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getOperationIndex: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every part answers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "parts": {
                     *         "database": "ok",
                     *         "ingest": "ok"
                     *       },
                     *       "certificate": {
                     *         "state": "valid",
                     *         "not_after": "string",
                     *         "days_left": 0,
                     *         "last_error": "string"
                     *       }
                     *     }
                     */
                    "application/json": {
                        status: "ok" | "unavailable";
                        /**
                         * @example {
                         *       "database": "ok",
                         *       "ingest": "ok"
                         *     }
                         */
                        parts: {
                            [key: string]: "ok" | "down";
                        };
                        certificate?: {
                            /** @description `expiring`: fewer days left than the warning threshold; `renewal_failing`: the last renewal failed and is retried (the current certificate is still served); `expired`: clients refuse it */
                            state: "valid" | "expiring" | "renewal_failing" | "expired";
                            /** @description When the served certificate expires */
                            not_after: string;
                            days_left: number;
                            /** @description Why the last renewal failed */
                            last_error: string | null;
                        };
                    };
                };
            };
            /** @description `parts` names what is down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "unavailable",
                     *       "parts": {
                     *         "database": "ok",
                     *         "ingest": "down"
                     *       }
                     *     }
                     */
                    "application/json": {
                        status: "ok" | "unavailable";
                        /**
                         * @example {
                         *       "database": "ok",
                         *       "ingest": "ok"
                         *     }
                         */
                        parts: {
                            [key: string]: "ok" | "down";
                        };
                        certificate?: {
                            /** @description `expiring`: fewer days left than the warning threshold; `renewal_failing`: the last renewal failed and is retried (the current certificate is still served); `expired`: clients refuse it */
                            state: "valid" | "expiring" | "renewal_failing" | "expired";
                            /** @description When the served certificate expires */
                            not_after: string;
                            days_left: number;
                            /** @description Why the last renewal failed */
                            last_error: string | null;
                        };
                    };
                };
            };
        };
    };
    listStreams: {
        parameters: {
            query?: {
                limit?: number;
                /** @example str_8f3k2m9q7x1c4v6b0n5z */
                starting_after?: string;
                status?: "pending" | "live" | "ended" | "expired" | "cancelled";
                /** @description Only the streams of this channel of the account (`404 not_found` if it names none) */
                channel_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *           "object": "stream",
                     *           "name": "Friday town hall",
                     *           "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *           "status": "live",
                     *           "profile": "abr_basic",
                     *           "latency_mode": "standard",
                     *           "record": true,
                     *           "replay": false,
                     *           "recording": {
                     *             "status": "recording",
                     *             "bytes": null,
                     *             "duration_seconds": null,
                     *             "retention_days": 30,
                     *             "ready_at": null,
                     *             "delete_at": null,
                     *             "delete_reason": null,
                     *             "deleted_at": null
                     *           },
                     *           "node_ready": true,
                     *           "rtmp_url": "rtmp://live.example.com:1935/live",
                     *           "playback_url": "https://cdn.example.com/kq3Hd0Zp1Vb9Jc2Wm8Xy4A.1795442400/str_8f3k2m9q7x1c4v6b0n5z/master.m3u8",
                     *           "playback_url_expires_at": "2026-11-22T19:00:00.000Z",
                     *           "embed_url": "https://player.example.com/str_8f3k2m9q7x1c4v6b0n5z",
                     *           "renditions": [
                     *             "source",
                     *             "480p"
                     *           ],
                     *           "max_ingest_resolution": 720,
                     *           "max_duration_seconds": 14400,
                     *           "metadata": {
                     *             "event_id": "evt-42"
                     *           },
                     *           "player": {
                     *             "show_name": true,
                     *             "require_viewer_token": false,
                     *             "enabled": true,
                     *             "allowed_domains": null,
                     *             "watch_minutes_limit": null,
                     *             "closed_at": null
                     *           },
                     *           "chat": {
                     *             "enabled": true,
                     *             "anonymous_posting": true,
                     *             "slow_mode_seconds": 0,
                     *             "reaction_sampling": null
                     *           },
                     *           "reservation_expires_at": null,
                     *           "reservation_expires_in_seconds": null,
                     *           "created_at": "2026-11-22T13:52:10.000Z",
                     *           "went_live_at": "2026-11-22T14:00:00.000Z",
                     *           "ended_at": null,
                     *           "end_reason": null,
                     *           "ingest": {
                     *             "width": 1280,
                     *             "height": 720,
                     *             "kbps": 3400,
                     *             "observed_at": "2026-11-22T14:29:56.000Z",
                     *             "limit_warning": null,
                     *             "keyframe_interval_seconds": 2,
                     *             "keyframe_warning": false
                     *           },
                     *           "cost": {
                     *             "total_usd": "0.456000",
                     *             "delivery_bytes": 2400000000,
                     *             "delivery_usd": "0.120000",
                     *             "delivery_counted_until": "2026-11-22T14:29:00.000Z",
                     *             "ingest_seconds": 1800,
                     *             "ingest_usd": "0.336000",
                     *             "storage_gb_hours": 0,
                     *             "storage_usd": "0.000000"
                     *           },
                     *           "viewers": {
                     *             "now": {
                     *               "watching": 41,
                     *               "waiting": 0,
                     *               "buffering_pct": 0.4,
                     *               "measured_at": "2026-11-22T14:29:50.000Z",
                     *               "exact": true
                     *             },
                     *             "peak": 57,
                     *             "peak_at": "2026-11-22T14:12:00.000Z",
                     *             "watch_minutes": 1130,
                     *             "source": "player",
                     *             "cdn_counted_until": "2026-11-22T14:29:00.000Z"
                     *           },
                     *           "viewers_now": 41,
                     *           "thumbnail": {
                     *             "url": "https://cdn.example.com/_thumb/str_8f3k2m9q7x1c4v6b0n5z.jpg",
                     *             "captured_at": "2026-11-22T14:29:30.000Z"
                     *           }
                     *         }
                     *       ],
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["StreamList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "account_pending",
                     *         "message": "The account is awaiting approval by the operator.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    createStream: {
        parameters: {
            query?: never;
            header?: {
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @example Friday town hall */
                    name?: string | null;
                    /**
                     * @description Create the stream in this channel of the account (`404 not_found` otherwise): it starts with the channel's `player` and `chat` settings, and this body's own `player` and `chat` fields are laid over them. Fixed at creation
                     * @example chn_4v6b0n5z8f3k2m9q7x1c
                     */
                    channel_id?: string | null;
                    /**
                     * @default abr_basic
                     * @enum {string}
                     */
                    profile?: "abr_basic" | "passthrough";
                    /**
                     * @default 720
                     * @enum {integer}
                     */
                    max_resolution?: 480 | 720 | 1080;
                    /** @default true */
                    record?: boolean;
                    recording_retention_days?: number | null;
                    /**
                     * @description Client JSON, up to 2 KB; never shown to viewers
                     * @example {
                     *       "event_id": "evt-42"
                     *     }
                     */
                    metadata?: {
                        [key: string]: unknown;
                    } | null;
                    player?: {
                        /** @description Default true. False keeps the name out of the public embed read entirely */
                        show_name?: boolean;
                        /** @description Default false. Members-only: the player needs a viewer token */
                        require_viewer_token?: boolean;
                        /** @description Default true. False switches the public hosted player off */
                        enabled?: boolean;
                        /** @description Sites allowed to embed the player and chat; null allows any */
                        allowed_domains?: string[] | null;
                        /** @description Player closes once this many viewer minutes were watched; null: no limit */
                        watch_minutes_limit?: number | null;
                        /**
                         * Format: date-time
                         * @description From this time the player shows the stream as closed; null: never
                         */
                        closed_at?: string | null;
                    };
                    chat?: {
                        /** @description Default true. False closes posting and reactions; the feed and history still answer */
                        enabled?: boolean;
                        /** @description Default true. Viewers without a viewer token may post with a nickname (never on members-only streams) */
                        anonymous_posting?: boolean;
                        /** @description Default 0 (off). One post per viewer per this many seconds; moderators are exempt */
                        slow_mode_seconds?: number;
                        /** @description Share of players that send their reactions; null (default): automatic, the beacon rate (about 400 senders) */
                        reaction_sampling?: number | null;
                    };
                    /**
                     * @description Offer the recording as a replay once it is ready: the embed read and the hosted player play it as HLS VOD (seekable) until the recording is deleted; members-only rules apply. Needs `record`; served by the origin (from its disk or its object storage), its edges, and a CDN in front in the query token form. False: nothing after the end
                     * @default false
                     */
                    replay?: boolean;
                    /**
                     * @description `standard` (default): 4-second pieces, about 5 s behind the publisher in the hosted player. `low`: 1-second pieces and a player tuned closer to the live edge, about 3 s behind, for publishers that send a keyframe every second (segments are cut on the publisher's keyframes). Changeable while the stream is pending
                     * @default standard
                     * @enum {string}
                     */
                    latency_mode?: "standard" | "low";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "object": "stream",
                     *       "name": "Friday town hall",
                     *       "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "status": "pending",
                     *       "profile": "abr_basic",
                     *       "latency_mode": "standard",
                     *       "record": true,
                     *       "replay": false,
                     *       "recording": null,
                     *       "node_ready": true,
                     *       "rtmp_url": "rtmp://live.example.com:1935/live",
                     *       "playback_url": "https://cdn.example.com/Rw7Hd0Zp1Vb9Jc2Wm8Xy4A.1795440730/str_8f3k2m9q7x1c4v6b0n5z/master.m3u8",
                     *       "playback_url_expires_at": "2026-11-22T18:22:10.000Z",
                     *       "embed_url": "https://player.example.com/str_8f3k2m9q7x1c4v6b0n5z",
                     *       "renditions": [
                     *         "source",
                     *         "480p"
                     *       ],
                     *       "max_ingest_resolution": 720,
                     *       "max_duration_seconds": 14400,
                     *       "metadata": {
                     *         "event_id": "evt-42"
                     *       },
                     *       "player": {
                     *         "show_name": true,
                     *         "require_viewer_token": false,
                     *         "enabled": true,
                     *         "allowed_domains": null,
                     *         "watch_minutes_limit": null,
                     *         "closed_at": null
                     *       },
                     *       "chat": {
                     *         "enabled": true,
                     *         "anonymous_posting": true,
                     *         "slow_mode_seconds": 0,
                     *         "reaction_sampling": null
                     *       },
                     *       "reservation_expires_at": "2026-11-22T14:22:10.000Z",
                     *       "reservation_expires_in_seconds": 1800,
                     *       "created_at": "2026-11-22T13:52:10.000Z",
                     *       "went_live_at": null,
                     *       "ended_at": null,
                     *       "end_reason": null,
                     *       "ingest": null,
                     *       "viewers_now": null,
                     *       "thumbnail": null,
                     *       "stream_key": "str_8f3k2m9q7x1c4v6b0n5z?key=Xk29fQ7mWc4Lp1Zr8Tn3Vb6Yh0Gd5Sa2",
                     *       "whip_url": "https://api.example.com/live/str_8f3k2m9q7x1c4v6b0n5z?direction=whip&key=Xk29fQ7mWc4Lp1Zr8Tn3Vb6Yh0Gd5Sa2",
                     *       "srt_url": "srt://ingest.example.com:10000?passphrase=q3VbN8xLk2Zp7Wc1Rt5Yh9Gd0Sa4Mf6J&latency=1000000"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedStream"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Insufficient credit */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "insufficient_credit",
                     *         "message": "Credit is below 1.00 USD; add credit to create streams.",
                     *         "details": {
                     *           "available_usd": "0.40",
                     *           "required_usd": "1.00"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "account_pending",
                     *         "message": "The account is awaiting approval by the operator.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Idempotency key reused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was used with a different body; use a new key.",
                     *         "details": {
                     *           "field": "idempotency-key"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "limit_pending_streams",
                     *         "message": "2 streams are waiting to go live, the most allowed; start or delete one first.",
                     *         "details": {
                     *           "limit": 2,
                     *           "current": 2
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "no_capacity",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `cost` and `viewers` appear on the single-stream read only */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "object": "stream",
                     *       "name": "Friday town hall",
                     *       "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "status": "live",
                     *       "profile": "abr_basic",
                     *       "latency_mode": "standard",
                     *       "record": true,
                     *       "replay": false,
                     *       "recording": {
                     *         "status": "recording",
                     *         "bytes": null,
                     *         "duration_seconds": null,
                     *         "retention_days": 30,
                     *         "ready_at": null,
                     *         "delete_at": null,
                     *         "delete_reason": null,
                     *         "deleted_at": null
                     *       },
                     *       "node_ready": true,
                     *       "rtmp_url": "rtmp://live.example.com:1935/live",
                     *       "playback_url": "https://cdn.example.com/kq3Hd0Zp1Vb9Jc2Wm8Xy4A.1795442400/str_8f3k2m9q7x1c4v6b0n5z/master.m3u8",
                     *       "playback_url_expires_at": "2026-11-22T19:00:00.000Z",
                     *       "embed_url": "https://player.example.com/str_8f3k2m9q7x1c4v6b0n5z",
                     *       "renditions": [
                     *         "source",
                     *         "480p"
                     *       ],
                     *       "max_ingest_resolution": 720,
                     *       "max_duration_seconds": 14400,
                     *       "metadata": {
                     *         "event_id": "evt-42"
                     *       },
                     *       "player": {
                     *         "show_name": true,
                     *         "require_viewer_token": false,
                     *         "enabled": true,
                     *         "allowed_domains": null,
                     *         "watch_minutes_limit": null,
                     *         "closed_at": null
                     *       },
                     *       "chat": {
                     *         "enabled": true,
                     *         "anonymous_posting": true,
                     *         "slow_mode_seconds": 0,
                     *         "reaction_sampling": null
                     *       },
                     *       "reservation_expires_at": null,
                     *       "reservation_expires_in_seconds": null,
                     *       "created_at": "2026-11-22T13:52:10.000Z",
                     *       "went_live_at": "2026-11-22T14:00:00.000Z",
                     *       "ended_at": null,
                     *       "end_reason": null,
                     *       "ingest": {
                     *         "width": 1280,
                     *         "height": 720,
                     *         "kbps": 3400,
                     *         "observed_at": "2026-11-22T14:29:56.000Z",
                     *         "limit_warning": null,
                     *         "keyframe_interval_seconds": 2,
                     *         "keyframe_warning": false
                     *       },
                     *       "cost": {
                     *         "total_usd": "0.456000",
                     *         "delivery_bytes": 2400000000,
                     *         "delivery_usd": "0.120000",
                     *         "delivery_counted_until": "2026-11-22T14:29:00.000Z",
                     *         "ingest_seconds": 1800,
                     *         "ingest_usd": "0.336000",
                     *         "storage_gb_hours": 0,
                     *         "storage_usd": "0.000000"
                     *       },
                     *       "viewers": {
                     *         "now": {
                     *           "watching": 41,
                     *           "waiting": 0,
                     *           "buffering_pct": 0.4,
                     *           "measured_at": "2026-11-22T14:29:50.000Z",
                     *           "exact": true
                     *         },
                     *         "peak": 57,
                     *         "peak_at": "2026-11-22T14:12:00.000Z",
                     *         "watch_minutes": 1130,
                     *         "source": "player",
                     *         "cdn_counted_until": "2026-11-22T14:29:00.000Z"
                     *       },
                     *       "viewers_now": 41,
                     *       "thumbnail": {
                     *         "url": "https://cdn.example.com/_thumb/str_8f3k2m9q7x1c4v6b0n5z.jpg",
                     *         "captured_at": "2026-11-22T14:29:30.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Stream"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "account_pending",
                     *         "message": "The account is awaiting approval by the operator.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    deleteStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `cost` and `viewers` appear on the single-stream read only */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "object": "stream",
                     *       "name": "Friday town hall",
                     *       "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "status": "live",
                     *       "profile": "abr_basic",
                     *       "latency_mode": "standard",
                     *       "record": true,
                     *       "replay": false,
                     *       "recording": {
                     *         "status": "recording",
                     *         "bytes": null,
                     *         "duration_seconds": null,
                     *         "retention_days": 30,
                     *         "ready_at": null,
                     *         "delete_at": null,
                     *         "delete_reason": null,
                     *         "deleted_at": null
                     *       },
                     *       "node_ready": true,
                     *       "rtmp_url": "rtmp://live.example.com:1935/live",
                     *       "playback_url": "https://cdn.example.com/kq3Hd0Zp1Vb9Jc2Wm8Xy4A.1795442400/str_8f3k2m9q7x1c4v6b0n5z/master.m3u8",
                     *       "playback_url_expires_at": "2026-11-22T19:00:00.000Z",
                     *       "embed_url": "https://player.example.com/str_8f3k2m9q7x1c4v6b0n5z",
                     *       "renditions": [
                     *         "source",
                     *         "480p"
                     *       ],
                     *       "max_ingest_resolution": 720,
                     *       "max_duration_seconds": 14400,
                     *       "metadata": {
                     *         "event_id": "evt-42"
                     *       },
                     *       "player": {
                     *         "show_name": true,
                     *         "require_viewer_token": false,
                     *         "enabled": true,
                     *         "allowed_domains": null,
                     *         "watch_minutes_limit": null,
                     *         "closed_at": null
                     *       },
                     *       "chat": {
                     *         "enabled": true,
                     *         "anonymous_posting": true,
                     *         "slow_mode_seconds": 0,
                     *         "reaction_sampling": null
                     *       },
                     *       "reservation_expires_at": null,
                     *       "reservation_expires_in_seconds": null,
                     *       "created_at": "2026-11-22T13:52:10.000Z",
                     *       "went_live_at": "2026-11-22T14:00:00.000Z",
                     *       "ended_at": null,
                     *       "end_reason": null,
                     *       "ingest": {
                     *         "width": 1280,
                     *         "height": 720,
                     *         "kbps": 3400,
                     *         "observed_at": "2026-11-22T14:29:56.000Z",
                     *         "limit_warning": null,
                     *         "keyframe_interval_seconds": 2,
                     *         "keyframe_warning": false
                     *       },
                     *       "cost": {
                     *         "total_usd": "0.456000",
                     *         "delivery_bytes": 2400000000,
                     *         "delivery_usd": "0.120000",
                     *         "delivery_counted_until": "2026-11-22T14:29:00.000Z",
                     *         "ingest_seconds": 1800,
                     *         "ingest_usd": "0.336000",
                     *         "storage_gb_hours": 0,
                     *         "storage_usd": "0.000000"
                     *       },
                     *       "viewers": {
                     *         "now": {
                     *           "watching": 41,
                     *           "waiting": 0,
                     *           "buffering_pct": 0.4,
                     *           "measured_at": "2026-11-22T14:29:50.000Z",
                     *           "exact": true
                     *         },
                     *         "peak": 57,
                     *         "peak_at": "2026-11-22T14:12:00.000Z",
                     *         "watch_minutes": 1130,
                     *         "source": "player",
                     *         "cdn_counted_until": "2026-11-22T14:29:00.000Z"
                     *       },
                     *       "viewers_now": 41,
                     *       "thumbnail": {
                     *         "url": "https://cdn.example.com/_thumb/str_8f3k2m9q7x1c4v6b0n5z.jpg",
                     *         "captured_at": "2026-11-22T14:29:30.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Stream"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "account_pending",
                     *         "message": "The account is awaiting approval by the operator.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    updateStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example Friday town hall */
                    name?: string | null;
                    /**
                     * @description Client JSON, up to 2 KB; never shown to viewers
                     * @example {
                     *       "event_id": "evt-42"
                     *     }
                     */
                    metadata?: {
                        [key: string]: unknown;
                    } | null;
                    player?: {
                        /** @description Default true. False keeps the name out of the public embed read entirely */
                        show_name?: boolean;
                        /** @description Default false. Members-only: the player needs a viewer token */
                        require_viewer_token?: boolean;
                        /** @description Default true. False switches the public hosted player off */
                        enabled?: boolean;
                        /** @description Sites allowed to embed the player and chat; null allows any */
                        allowed_domains?: string[] | null;
                        /** @description Player closes once this many viewer minutes were watched; null: no limit */
                        watch_minutes_limit?: number | null;
                        /**
                         * Format: date-time
                         * @description From this time the player shows the stream as closed; null: never
                         */
                        closed_at?: string | null;
                    };
                    chat?: {
                        /** @description Default true. False closes posting and reactions; the feed and history still answer */
                        enabled?: boolean;
                        /** @description Default true. Viewers without a viewer token may post with a nickname (never on members-only streams) */
                        anonymous_posting?: boolean;
                        /** @description Default 0 (off). One post per viewer per this many seconds; moderators are exempt */
                        slow_mode_seconds?: number;
                        /** @description Share of players that send their reactions; null (default): automatic, the beacon rate (about 400 senders) */
                        reaction_sampling?: number | null;
                    };
                    /**
                     * @description `standard` (default): 4-second pieces, about 5 s behind the publisher in the hosted player. `low`: 1-second pieces and a player tuned closer to the live edge, about 3 s behind, for publishers that send a keyframe every second (segments are cut on the publisher's keyframes). Changeable while the stream is pending
                     * @enum {string}
                     */
                    latency_mode?: "standard" | "low";
                    /** @description Offer the recording as a replay once it is ready: the embed read and the hosted player play it as HLS VOD (seekable) until the recording is deleted; members-only rules apply. Needs `record`; served by the origin (from its disk or its object storage), its edges, and a CDN in front in the query token form. False: nothing after the end. Any status */
                    replay?: boolean;
                };
            };
        };
        responses: {
            /** @description `cost` and `viewers` appear on the single-stream read only */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "object": "stream",
                     *       "name": "Friday town hall",
                     *       "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "status": "live",
                     *       "profile": "abr_basic",
                     *       "latency_mode": "standard",
                     *       "record": true,
                     *       "replay": false,
                     *       "recording": {
                     *         "status": "recording",
                     *         "bytes": null,
                     *         "duration_seconds": null,
                     *         "retention_days": 30,
                     *         "ready_at": null,
                     *         "delete_at": null,
                     *         "delete_reason": null,
                     *         "deleted_at": null
                     *       },
                     *       "node_ready": true,
                     *       "rtmp_url": "rtmp://live.example.com:1935/live",
                     *       "playback_url": "https://cdn.example.com/kq3Hd0Zp1Vb9Jc2Wm8Xy4A.1795442400/str_8f3k2m9q7x1c4v6b0n5z/master.m3u8",
                     *       "playback_url_expires_at": "2026-11-22T19:00:00.000Z",
                     *       "embed_url": "https://player.example.com/str_8f3k2m9q7x1c4v6b0n5z",
                     *       "renditions": [
                     *         "source",
                     *         "480p"
                     *       ],
                     *       "max_ingest_resolution": 720,
                     *       "max_duration_seconds": 14400,
                     *       "metadata": {
                     *         "event_id": "evt-42"
                     *       },
                     *       "player": {
                     *         "show_name": true,
                     *         "require_viewer_token": false,
                     *         "enabled": true,
                     *         "allowed_domains": null,
                     *         "watch_minutes_limit": null,
                     *         "closed_at": null
                     *       },
                     *       "chat": {
                     *         "enabled": true,
                     *         "anonymous_posting": true,
                     *         "slow_mode_seconds": 0,
                     *         "reaction_sampling": null
                     *       },
                     *       "reservation_expires_at": null,
                     *       "reservation_expires_in_seconds": null,
                     *       "created_at": "2026-11-22T13:52:10.000Z",
                     *       "went_live_at": "2026-11-22T14:00:00.000Z",
                     *       "ended_at": null,
                     *       "end_reason": null,
                     *       "ingest": {
                     *         "width": 1280,
                     *         "height": 720,
                     *         "kbps": 3400,
                     *         "observed_at": "2026-11-22T14:29:56.000Z",
                     *         "limit_warning": null,
                     *         "keyframe_interval_seconds": 2,
                     *         "keyframe_warning": false
                     *       },
                     *       "cost": {
                     *         "total_usd": "0.456000",
                     *         "delivery_bytes": 2400000000,
                     *         "delivery_usd": "0.120000",
                     *         "delivery_counted_until": "2026-11-22T14:29:00.000Z",
                     *         "ingest_seconds": 1800,
                     *         "ingest_usd": "0.336000",
                     *         "storage_gb_hours": 0,
                     *         "storage_usd": "0.000000"
                     *       },
                     *       "viewers": {
                     *         "now": {
                     *           "watching": 41,
                     *           "waiting": 0,
                     *           "buffering_pct": 0.4,
                     *           "measured_at": "2026-11-22T14:29:50.000Z",
                     *           "exact": true
                     *         },
                     *         "peak": 57,
                     *         "peak_at": "2026-11-22T14:12:00.000Z",
                     *         "watch_minutes": 1130,
                     *         "source": "player",
                     *         "cdn_counted_until": "2026-11-22T14:29:00.000Z"
                     *       },
                     *       "viewers_now": 41,
                     *       "thumbnail": {
                     *         "url": "https://cdn.example.com/_thumb/str_8f3k2m9q7x1c4v6b0n5z.jpg",
                     *         "captured_at": "2026-11-22T14:29:30.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Stream"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "account_pending",
                     *         "message": "The account is awaiting approval by the operator.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Conflict with the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "stream_not_pending",
                     *         "message": "The stream is live; this is possible only while it is pending.",
                     *         "details": {
                     *           "status": "live"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    rotateStreamKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "object": "stream",
                     *       "name": "Friday town hall",
                     *       "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "status": "pending",
                     *       "profile": "abr_basic",
                     *       "latency_mode": "standard",
                     *       "record": true,
                     *       "replay": false,
                     *       "recording": null,
                     *       "node_ready": true,
                     *       "rtmp_url": "rtmp://live.example.com:1935/live",
                     *       "playback_url": "https://cdn.example.com/Rw7Hd0Zp1Vb9Jc2Wm8Xy4A.1795440730/str_8f3k2m9q7x1c4v6b0n5z/master.m3u8",
                     *       "playback_url_expires_at": "2026-11-22T18:22:10.000Z",
                     *       "embed_url": "https://player.example.com/str_8f3k2m9q7x1c4v6b0n5z",
                     *       "renditions": [
                     *         "source",
                     *         "480p"
                     *       ],
                     *       "max_ingest_resolution": 720,
                     *       "max_duration_seconds": 14400,
                     *       "metadata": {
                     *         "event_id": "evt-42"
                     *       },
                     *       "player": {
                     *         "show_name": true,
                     *         "require_viewer_token": false,
                     *         "enabled": true,
                     *         "allowed_domains": null,
                     *         "watch_minutes_limit": null,
                     *         "closed_at": null
                     *       },
                     *       "chat": {
                     *         "enabled": true,
                     *         "anonymous_posting": true,
                     *         "slow_mode_seconds": 0,
                     *         "reaction_sampling": null
                     *       },
                     *       "reservation_expires_at": "2026-11-22T14:22:10.000Z",
                     *       "reservation_expires_in_seconds": 1800,
                     *       "created_at": "2026-11-22T13:52:10.000Z",
                     *       "went_live_at": null,
                     *       "ended_at": null,
                     *       "end_reason": null,
                     *       "ingest": null,
                     *       "viewers_now": null,
                     *       "thumbnail": null,
                     *       "stream_key": "str_8f3k2m9q7x1c4v6b0n5z?key=Xk29fQ7mWc4Lp1Zr8Tn3Vb6Yh0Gd5Sa2",
                     *       "whip_url": "https://api.example.com/live/str_8f3k2m9q7x1c4v6b0n5z?direction=whip&key=Xk29fQ7mWc4Lp1Zr8Tn3Vb6Yh0Gd5Sa2",
                     *       "srt_url": "srt://ingest.example.com:10000?passphrase=q3VbN8xLk2Zp7Wc1Rt5Yh9Gd0Sa4Mf6J&latency=1000000"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedStream"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Conflict with the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "stream_not_pending",
                     *         "message": "The stream is live; this is possible only while it is pending.",
                     *         "details": {
                     *           "status": "live"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getViewerSeries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "viewer_series",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "player": [
                     *         {
                     *           "minute": "2026-11-22T14:00:00.000Z",
                     *           "watching": 0,
                     *           "waiting": 0,
                     *           "buffering_pct": 0,
                     *           "exact": true
                     *         }
                     *       ],
                     *       "cdn": [
                     *         {
                     *           "minute": "2026-11-22T14:00:00.000Z",
                     *           "viewers": 0
                     *         }
                     *       ],
                     *       "countries": [
                     *         {
                     *           "country": "DE",
                     *           "share": 0,
                     *           "watch_minutes": 0
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "viewer_series";
                        /** @example str_8f3k2m9q7x1c4v6b0n5z */
                        stream_id: string;
                        /** @description Minutes with someone on the hosted player, oldest first */
                        player: {
                            /**
                             * Format: date-time
                             * @example 2026-11-22T14:00:00.000Z
                             */
                            minute: string;
                            /** @description Average players on the live player (playing, paused or buffering) over the minute */
                            watching: number;
                            /** @description Average players on the waiting screen over the minute */
                            waiting: number;
                            /** @description Share of watching time spent buffering, one decimal */
                            buffering_pct: number;
                            /** @description Every player reported throughout the minute (false: a sampled estimate) */
                            exact: boolean;
                        }[];
                        /** @description Minutes with viewers in the CDN log, oldest first: each minute once the log was read past its end */
                        cdn: {
                            /**
                             * Format: date-time
                             * @example 2026-11-22T14:00:00.000Z
                             */
                            minute: string;
                            /** @description Distinct viewers (address and user agent, hashed, never stored) that fetched a segment of the stream in the minute, every player included */
                            viewers: number;
                        }[];
                        /** @description Watch time per country from the CDN log, largest first, up to 30; grows while the log is read */
                        countries: {
                            /**
                             * @description ISO 3166-1 alpha-2 code of the viewers' addresses; `XX` when unknown
                             * @example DE
                             */
                            country: string;
                            /** @description Share of the stream's CDN watch time (viewer-minutes) from the country, a fraction with four decimals */
                            share: number;
                            /** @description Viewer-minutes from the country */
                            watch_minutes: number;
                        }[];
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listChannels: {
        parameters: {
            query?: {
                limit?: number;
                /** @example chn_4v6b0n5z8f3k2m9q7x1c */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "channel",
                     *           "id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *           "name": "Friday town hall",
                     *           "metadata": {
                     *             "team": "comms"
                     *           },
                     *           "player": {
                     *             "show_name": true,
                     *             "require_viewer_token": false,
                     *             "enabled": true,
                     *             "allowed_domains": null,
                     *             "watch_minutes_limit": null,
                     *             "closed_at": null
                     *           },
                     *           "chat": {
                     *             "enabled": true,
                     *             "anonymous_posting": true,
                     *             "slow_mode_seconds": 10,
                     *             "reaction_sampling": null
                     *           },
                     *           "page_url": "https://player.example.com/c/chn_4v6b0n5z8f3k2m9q7x1c",
                     *           "live_stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *           "created_at": "2026-11-01T09:00:00.000Z",
                     *           "updated_at": "2026-11-20T16:12:44.000Z"
                     *         }
                     *       ],
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["ChannelList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    createChannel: {
        parameters: {
            query?: never;
            header?: {
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "name": "Friday town hall",
                 *       "chat": {
                 *         "slow_mode_seconds": 10
                 *       },
                 *       "metadata": {
                 *         "team": "comms"
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @example Friday town hall */
                    name?: string | null;
                    /**
                     * @description Client JSON, up to 2 KB; never shown to viewers
                     * @example {
                     *       "event_id": "evt-42"
                     *     }
                     */
                    metadata?: {
                        [key: string]: unknown;
                    } | null;
                    player?: {
                        /** @description Default true. False keeps the name out of the public embed read entirely */
                        show_name?: boolean;
                        /** @description Default false. Members-only: the player needs a viewer token */
                        require_viewer_token?: boolean;
                        /** @description Default true. False switches the public hosted player off */
                        enabled?: boolean;
                        /** @description Sites allowed to embed the player and chat; null allows any */
                        allowed_domains?: string[] | null;
                        /** @description Player closes once this many viewer minutes were watched; null: no limit */
                        watch_minutes_limit?: number | null;
                        /**
                         * Format: date-time
                         * @description From this time the player shows the stream as closed; null: never
                         */
                        closed_at?: string | null;
                    };
                    chat?: {
                        /** @description Default true. False closes posting and reactions; the feed and history still answer */
                        enabled?: boolean;
                        /** @description Default true. Viewers without a viewer token may post with a nickname (never on members-only streams) */
                        anonymous_posting?: boolean;
                        /** @description Default 0 (off). One post per viewer per this many seconds; moderators are exempt */
                        slow_mode_seconds?: number;
                        /** @description Share of players that send their reactions; null (default): automatic, the beacon rate (about 400 senders) */
                        reaction_sampling?: number | null;
                    };
                };
            };
        };
        responses: {
            /** @description A recurring show. Streams created in it (`channel_id` on stream creation) start with its `player` and `chat` settings; changing them later leaves existing streams as they are */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "channel",
                     *       "id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "name": "Friday town hall",
                     *       "metadata": {
                     *         "team": "comms"
                     *       },
                     *       "player": {
                     *         "show_name": true,
                     *         "require_viewer_token": false,
                     *         "enabled": true,
                     *         "allowed_domains": null,
                     *         "watch_minutes_limit": null,
                     *         "closed_at": null
                     *       },
                     *       "chat": {
                     *         "enabled": true,
                     *         "anonymous_posting": true,
                     *         "slow_mode_seconds": 10,
                     *         "reaction_sampling": null
                     *       },
                     *       "page_url": "https://player.example.com/c/chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "live_stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "created_at": "2026-11-01T09:00:00.000Z",
                     *       "updated_at": "2026-11-20T16:12:44.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Channel"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "account_pending",
                     *         "message": "The account is awaiting approval by the operator.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Idempotency key reused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was used with a different body; use a new key.",
                     *         "details": {
                     *           "field": "idempotency-key"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "limit_channels",
                     *         "message": "1000 channels exist, the most allowed; delete one first.",
                     *         "details": {
                     *           "limit": 1000,
                     *           "current": 1000
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel id (`chn_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A recurring show. Streams created in it (`channel_id` on stream creation) start with its `player` and `chat` settings; changing them later leaves existing streams as they are */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "channel",
                     *       "id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "name": "Friday town hall",
                     *       "metadata": {
                     *         "team": "comms"
                     *       },
                     *       "player": {
                     *         "show_name": true,
                     *         "require_viewer_token": false,
                     *         "enabled": true,
                     *         "allowed_domains": null,
                     *         "watch_minutes_limit": null,
                     *         "closed_at": null
                     *       },
                     *       "chat": {
                     *         "enabled": true,
                     *         "anonymous_posting": true,
                     *         "slow_mode_seconds": 10,
                     *         "reaction_sampling": null
                     *       },
                     *       "page_url": "https://player.example.com/c/chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "live_stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "created_at": "2026-11-01T09:00:00.000Z",
                     *       "updated_at": "2026-11-20T16:12:44.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Channel"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    deleteChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel id (`chn_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel as it was, deleted; its finished streams keep existing with `channel_id` null */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "channel",
                     *       "id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "name": "Friday town hall",
                     *       "metadata": {
                     *         "event_id": "evt-42"
                     *       },
                     *       "player": {
                     *         "show_name": true,
                     *         "require_viewer_token": true,
                     *         "enabled": true,
                     *         "allowed_domains": [
                     *           "string"
                     *         ],
                     *         "watch_minutes_limit": 1,
                     *         "closed_at": "2026-11-22T14:00:00.000Z"
                     *       },
                     *       "chat": {
                     *         "enabled": true,
                     *         "anonymous_posting": true,
                     *         "slow_mode_seconds": 0,
                     *         "reaction_sampling": 0.001
                     *       },
                     *       "page_url": "https://player.example.com/c/chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "live_stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "updated_at": "2026-11-22T14:00:00.000Z",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": components["schemas"]["DeletedChannel"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Conflict with the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "channel_not_empty",
                     *         "message": "The channel has streams that are pending or live (str_8f3k2m9q7x1c4v6b0n5z: live); end or cancel them first (DELETE /v1/streams/{id}).",
                     *         "details": {
                     *           "stream_ids": [
                     *             "str_8f3k2m9q7x1c4v6b0n5z"
                     *           ]
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    updateChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel id (`chn_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "player": {
                 *         "require_viewer_token": true
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @example Friday town hall */
                    name?: string | null;
                    /**
                     * @description Client JSON, up to 2 KB; never shown to viewers
                     * @example {
                     *       "event_id": "evt-42"
                     *     }
                     */
                    metadata?: {
                        [key: string]: unknown;
                    } | null;
                    player?: {
                        /** @description Default true. False keeps the name out of the public embed read entirely */
                        show_name?: boolean;
                        /** @description Default false. Members-only: the player needs a viewer token */
                        require_viewer_token?: boolean;
                        /** @description Default true. False switches the public hosted player off */
                        enabled?: boolean;
                        /** @description Sites allowed to embed the player and chat; null allows any */
                        allowed_domains?: string[] | null;
                        /** @description Player closes once this many viewer minutes were watched; null: no limit */
                        watch_minutes_limit?: number | null;
                        /**
                         * Format: date-time
                         * @description From this time the player shows the stream as closed; null: never
                         */
                        closed_at?: string | null;
                    };
                    chat?: {
                        /** @description Default true. False closes posting and reactions; the feed and history still answer */
                        enabled?: boolean;
                        /** @description Default true. Viewers without a viewer token may post with a nickname (never on members-only streams) */
                        anonymous_posting?: boolean;
                        /** @description Default 0 (off). One post per viewer per this many seconds; moderators are exempt */
                        slow_mode_seconds?: number;
                        /** @description Share of players that send their reactions; null (default): automatic, the beacon rate (about 400 senders) */
                        reaction_sampling?: number | null;
                    };
                };
            };
        };
        responses: {
            /** @description A recurring show. Streams created in it (`channel_id` on stream creation) start with its `player` and `chat` settings; changing them later leaves existing streams as they are */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "channel",
                     *       "id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "name": "Friday town hall",
                     *       "metadata": {
                     *         "team": "comms"
                     *       },
                     *       "player": {
                     *         "show_name": true,
                     *         "require_viewer_token": false,
                     *         "enabled": true,
                     *         "allowed_domains": null,
                     *         "watch_minutes_limit": null,
                     *         "closed_at": null
                     *       },
                     *       "chat": {
                     *         "enabled": true,
                     *         "anonymous_posting": true,
                     *         "slow_mode_seconds": 10,
                     *         "reaction_sampling": null
                     *       },
                     *       "page_url": "https://player.example.com/c/chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "live_stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "created_at": "2026-11-01T09:00:00.000Z",
                     *       "updated_at": "2026-11-20T16:12:44.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Channel"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "account_pending",
                     *         "message": "The account is awaiting approval by the operator.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    createPlaybackToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "expires_in": 7200
                 *     }
                 */
                "application/json": {
                    /** @description Seconds the link works, 60 s to 7 days; default until the stream could no longer be live, plus one hour */
                    expires_in?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "playback_token",
                     *       "stream_id": "string",
                     *       "playback_url": "string",
                     *       "expires_at": "2026-11-22T14:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "playback_token";
                        stream_id: string;
                        /** @description Signed HLS URL: `{cdn_url}/<signature_segment>/<stream_id>/master.m3u8`. With a third-party CDN in front (`cdn.token_form` `query`): `{cdn_url}/<stream_id>/master.m3u8?svc=<signature>`, and every playlist names what it lists with the same `svc` */
                        playback_url: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-22T14:00:00.000Z
                         */
                        expires_at: string | null;
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Conflict with the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "stream_ended",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listAttendance: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The previous page's `next_after`: viewers after this id, in byte order */
                after?: string;
            };
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "attendance",
                     *           "viewer_id": "pupil-4711",
                     *           "name": "Ada Lovelace",
                     *           "watch_seconds": 0,
                     *           "first_seen_at": "2026-11-22T14:00:00.000Z",
                     *           "last_seen_at": "2026-11-22T14:00:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_after": "string",
                     *       "total": 0
                     *     }
                     */
                    "application/json": components["schemas"]["AttendanceList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listChannelAttendance: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The previous page's `next_after`: viewers after this id, in byte order */
                after?: string;
            };
            header?: never;
            path: {
                /** @description Channel id (`chn_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "attendance",
                     *           "viewer_id": "pupil-4711",
                     *           "name": "Ada Lovelace",
                     *           "watch_seconds": 0,
                     *           "first_seen_at": "2026-11-22T14:00:00.000Z",
                     *           "last_seen_at": "2026-11-22T14:00:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_after": "string",
                     *       "total": 0
                     *     }
                     */
                    "application/json": components["schemas"]["AttendanceList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    deleteRecording: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `cost` and `viewers` appear on the single-stream read only */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "object": "stream",
                     *       "name": "Friday town hall",
                     *       "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "status": "live",
                     *       "profile": "abr_basic",
                     *       "latency_mode": "standard",
                     *       "record": true,
                     *       "replay": false,
                     *       "recording": {
                     *         "status": "recording",
                     *         "bytes": null,
                     *         "duration_seconds": null,
                     *         "retention_days": 30,
                     *         "ready_at": null,
                     *         "delete_at": null,
                     *         "delete_reason": null,
                     *         "deleted_at": null
                     *       },
                     *       "node_ready": true,
                     *       "rtmp_url": "rtmp://live.example.com:1935/live",
                     *       "playback_url": "https://cdn.example.com/kq3Hd0Zp1Vb9Jc2Wm8Xy4A.1795442400/str_8f3k2m9q7x1c4v6b0n5z/master.m3u8",
                     *       "playback_url_expires_at": "2026-11-22T19:00:00.000Z",
                     *       "embed_url": "https://player.example.com/str_8f3k2m9q7x1c4v6b0n5z",
                     *       "renditions": [
                     *         "source",
                     *         "480p"
                     *       ],
                     *       "max_ingest_resolution": 720,
                     *       "max_duration_seconds": 14400,
                     *       "metadata": {
                     *         "event_id": "evt-42"
                     *       },
                     *       "player": {
                     *         "show_name": true,
                     *         "require_viewer_token": false,
                     *         "enabled": true,
                     *         "allowed_domains": null,
                     *         "watch_minutes_limit": null,
                     *         "closed_at": null
                     *       },
                     *       "chat": {
                     *         "enabled": true,
                     *         "anonymous_posting": true,
                     *         "slow_mode_seconds": 0,
                     *         "reaction_sampling": null
                     *       },
                     *       "reservation_expires_at": null,
                     *       "reservation_expires_in_seconds": null,
                     *       "created_at": "2026-11-22T13:52:10.000Z",
                     *       "went_live_at": "2026-11-22T14:00:00.000Z",
                     *       "ended_at": null,
                     *       "end_reason": null,
                     *       "ingest": {
                     *         "width": 1280,
                     *         "height": 720,
                     *         "kbps": 3400,
                     *         "observed_at": "2026-11-22T14:29:56.000Z",
                     *         "limit_warning": null,
                     *         "keyframe_interval_seconds": 2,
                     *         "keyframe_warning": false
                     *       },
                     *       "cost": {
                     *         "total_usd": "0.456000",
                     *         "delivery_bytes": 2400000000,
                     *         "delivery_usd": "0.120000",
                     *         "delivery_counted_until": "2026-11-22T14:29:00.000Z",
                     *         "ingest_seconds": 1800,
                     *         "ingest_usd": "0.336000",
                     *         "storage_gb_hours": 0,
                     *         "storage_usd": "0.000000"
                     *       },
                     *       "viewers": {
                     *         "now": {
                     *           "watching": 41,
                     *           "waiting": 0,
                     *           "buffering_pct": 0.4,
                     *           "measured_at": "2026-11-22T14:29:50.000Z",
                     *           "exact": true
                     *         },
                     *         "peak": 57,
                     *         "peak_at": "2026-11-22T14:12:00.000Z",
                     *         "watch_minutes": 1130,
                     *         "source": "player",
                     *         "cdn_counted_until": "2026-11-22T14:29:00.000Z"
                     *       },
                     *       "viewers_now": 41,
                     *       "thumbnail": {
                     *         "url": "https://cdn.example.com/_thumb/str_8f3k2m9q7x1c4v6b0n5z.jpg",
                     *         "captured_at": "2026-11-22T14:29:30.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Stream"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    retryRecording: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `cost` and `viewers` appear on the single-stream read only */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "object": "stream",
                     *       "name": "Friday town hall",
                     *       "channel_id": "chn_4v6b0n5z8f3k2m9q7x1c",
                     *       "status": "live",
                     *       "profile": "abr_basic",
                     *       "latency_mode": "standard",
                     *       "record": true,
                     *       "replay": false,
                     *       "recording": {
                     *         "status": "recording",
                     *         "bytes": null,
                     *         "duration_seconds": null,
                     *         "retention_days": 30,
                     *         "ready_at": null,
                     *         "delete_at": null,
                     *         "delete_reason": null,
                     *         "deleted_at": null
                     *       },
                     *       "node_ready": true,
                     *       "rtmp_url": "rtmp://live.example.com:1935/live",
                     *       "playback_url": "https://cdn.example.com/kq3Hd0Zp1Vb9Jc2Wm8Xy4A.1795442400/str_8f3k2m9q7x1c4v6b0n5z/master.m3u8",
                     *       "playback_url_expires_at": "2026-11-22T19:00:00.000Z",
                     *       "embed_url": "https://player.example.com/str_8f3k2m9q7x1c4v6b0n5z",
                     *       "renditions": [
                     *         "source",
                     *         "480p"
                     *       ],
                     *       "max_ingest_resolution": 720,
                     *       "max_duration_seconds": 14400,
                     *       "metadata": {
                     *         "event_id": "evt-42"
                     *       },
                     *       "player": {
                     *         "show_name": true,
                     *         "require_viewer_token": false,
                     *         "enabled": true,
                     *         "allowed_domains": null,
                     *         "watch_minutes_limit": null,
                     *         "closed_at": null
                     *       },
                     *       "chat": {
                     *         "enabled": true,
                     *         "anonymous_posting": true,
                     *         "slow_mode_seconds": 0,
                     *         "reaction_sampling": null
                     *       },
                     *       "reservation_expires_at": null,
                     *       "reservation_expires_in_seconds": null,
                     *       "created_at": "2026-11-22T13:52:10.000Z",
                     *       "went_live_at": "2026-11-22T14:00:00.000Z",
                     *       "ended_at": null,
                     *       "end_reason": null,
                     *       "ingest": {
                     *         "width": 1280,
                     *         "height": 720,
                     *         "kbps": 3400,
                     *         "observed_at": "2026-11-22T14:29:56.000Z",
                     *         "limit_warning": null,
                     *         "keyframe_interval_seconds": 2,
                     *         "keyframe_warning": false
                     *       },
                     *       "cost": {
                     *         "total_usd": "0.456000",
                     *         "delivery_bytes": 2400000000,
                     *         "delivery_usd": "0.120000",
                     *         "delivery_counted_until": "2026-11-22T14:29:00.000Z",
                     *         "ingest_seconds": 1800,
                     *         "ingest_usd": "0.336000",
                     *         "storage_gb_hours": 0,
                     *         "storage_usd": "0.000000"
                     *       },
                     *       "viewers": {
                     *         "now": {
                     *           "watching": 41,
                     *           "waiting": 0,
                     *           "buffering_pct": 0.4,
                     *           "measured_at": "2026-11-22T14:29:50.000Z",
                     *           "exact": true
                     *         },
                     *         "peak": 57,
                     *         "peak_at": "2026-11-22T14:12:00.000Z",
                     *         "watch_minutes": 1130,
                     *         "source": "player",
                     *         "cdn_counted_until": "2026-11-22T14:29:00.000Z"
                     *       },
                     *       "viewers_now": 41,
                     *       "thumbnail": {
                     *         "url": "https://cdn.example.com/_thumb/str_8f3k2m9q7x1c4v6b0n5z.jpg",
                     *         "captured_at": "2026-11-22T14:29:30.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Stream"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Conflict with the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "recording_not_failed",
                     *         "message": "The recording is ready; only a failed one can be made again.",
                     *         "details": {
                     *           "status": "ready"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    createRecordingDownload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "expires_in": 3600
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Seconds the link works, 60 s to 7 days; default 3600
                     * @default 3600
                     */
                    expires_in?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "recording_download",
                     *       "stream_id": "string",
                     *       "url": "string",
                     *       "bytes": 0,
                     *       "expires_at": "2026-11-22T14:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "recording_download";
                        stream_id: string;
                        /** @description `{cdn_url}/<signature_segment>/_rec/<stream_id>/recording.mp4` (with a third-party CDN in front, `cdn.token_form` `query`: `{cdn_url}/_rec/<stream_id>/recording.mp4?svc=<signature>`); supports range requests */
                        url: string;
                        bytes: number;
                        /**
                         * Format: date-time
                         * @example 2026-11-22T14:00:00.000Z
                         */
                        expires_at: string;
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Conflict with the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "recording_not_ready",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getThumbnail: {
        parameters: {
            query?: {
                /** @description Seconds the link works, 60 s to 7 days; default 3600 */
                expires_in?: number;
            };
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "thumbnail",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "url": "https://cdn.example.com/4tqO0b1Jc2WzYl8y3Yd1aw.1764342000/_still/str_8f3k2m9q7x1c4v6b0n5z/754.2.jpg",
                     *       "captured_at": null,
                     *       "time_seconds": 754.2,
                     *       "expires_at": "2026-11-28T15:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "thumbnail";
                        stream_id: string;
                        /** @description A signed JPEG at most 360 lines high. The current still: `{cdn_url}/<signature_segment>/_thumb/<stream_id>.jpg` (cached 10 s; it changes while the stream is live). A recording still: `{cdn_url}/<signature_segment>/_still/<stream_id>/<time_seconds>.jpg` (never changes; cached a day, immutable). With `cdn.token_form` `query` the signature is in `?svc=` instead. */
                        url: string;
                        /**
                         * Format: date-time
                         * @description When the current still was taken; null for a recording still (see `time_seconds`)
                         * @example 2026-11-22T14:00:00.000Z
                         */
                        captured_at: string | null;
                        /** @description The recording still's second, to a tenth; null for the current still */
                        time_seconds: number | null;
                        /**
                         * Format: date-time
                         * @example 2026-11-22T14:00:00.000Z
                         */
                        expires_at: string;
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Conflict with the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "thumbnail_not_ready",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getRecordingThumbnail: {
        parameters: {
            query?: {
                /**
                 * @description Second of the recording, 0 to its `duration_seconds` (default 0), kept to a tenth of a second
                 * @example 754.2
                 */
                time?: number;
                /** @description Seconds the link works, 60 s to 7 days; default 3600 */
                expires_in?: number;
            };
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "thumbnail",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "url": "https://cdn.example.com/4tqO0b1Jc2WzYl8y3Yd1aw.1764342000/_still/str_8f3k2m9q7x1c4v6b0n5z/754.2.jpg",
                     *       "captured_at": null,
                     *       "time_seconds": 754.2,
                     *       "expires_at": "2026-11-28T15:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "thumbnail";
                        stream_id: string;
                        /** @description A signed JPEG at most 360 lines high. The current still: `{cdn_url}/<signature_segment>/_thumb/<stream_id>.jpg` (cached 10 s; it changes while the stream is live). A recording still: `{cdn_url}/<signature_segment>/_still/<stream_id>/<time_seconds>.jpg` (never changes; cached a day, immutable). With `cdn.token_form` `query` the signature is in `?svc=` instead. */
                        url: string;
                        /**
                         * Format: date-time
                         * @description When the current still was taken; null for a recording still (see `time_seconds`)
                         * @example 2026-11-22T14:00:00.000Z
                         */
                        captured_at: string | null;
                        /** @description The recording still's second, to a tenth; null for the current still */
                        time_seconds: number | null;
                        /**
                         * Format: date-time
                         * @example 2026-11-22T14:00:00.000Z
                         */
                        expires_at: string;
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Conflict with the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "recording_not_ready",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getEmbed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "embed",
                     *       "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "status": "pending",
                     *       "title": "string",
                     *       "playback_url": "string",
                     *       "playback_url_expires_at": "2026-11-22T14:00:00.000Z",
                     *       "replay": true,
                     *       "went_live_at": "2026-11-22T14:00:00.000Z",
                     *       "ended_at": "2026-11-22T14:00:00.000Z",
                     *       "poll_after_seconds": 0,
                     *       "beacon": {
                     *         "rate": 0,
                     *         "interval_seconds": 1
                     *       },
                     *       "access": "public",
                     *       "poster_url": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["Embed"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getChannelEmbed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "channel_embed",
                     *       "id": "chn_4k8m2q9x7c1v3b6n0z5w",
                     *       "name": "string",
                     *       "stream": {
                     *         "object": "embed",
                     *         "id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *         "status": "pending",
                     *         "title": "string",
                     *         "playback_url": "string",
                     *         "playback_url_expires_at": "2026-11-22T14:00:00.000Z",
                     *         "replay": true,
                     *         "went_live_at": "2026-11-22T14:00:00.000Z",
                     *         "ended_at": "2026-11-22T14:00:00.000Z",
                     *         "poll_after_seconds": 0,
                     *         "beacon": {
                     *           "rate": 0,
                     *           "interval_seconds": 1
                     *         },
                     *         "access": "public",
                     *         "poster_url": "string"
                     *       },
                     *       "latency_mode": "standard",
                     *       "poll_after_seconds": 0
                     *     }
                     */
                    "application/json": components["schemas"]["ChannelEmbed"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    sendViewerBeat: {
        parameters: {
            query: {
                /** @description Random id for one page load (8-64 of A-Z a-z 0-9 _ -) */
                s: string;
                /** @description `w` waiting, `p` playing, `z` paused, `b` buffering */
                st: "w" | "p" | "z" | "b";
                /** @description Drawn once per page load, 0 <= u < 1 */
                u: number;
                /** @description The session token of a viewer session of this stream (`POST /v1/embed/{id}/session`): the beat is also an attendance report */
                t?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Counted (or the stream is over) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_viewer_token",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    createViewerSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A JWT signed with a viewer key of the account (HS256, `kid` = the key id) */
                    viewer_token: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "viewer_session",
                     *       "id": "vsn_6b0n5z8f3k2m9q7x1c4v",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "viewer": {
                     *         "id": "string",
                     *         "name": "string",
                     *         "role": "viewer"
                     *       },
                     *       "moderator": {
                     *         "object": "moderator",
                     *         "id": "mod_4k2m9q7x1c4v6b0n5z8f",
                     *         "viewer_id": "string",
                     *         "name": "string",
                     *         "active_until": "2026-11-22T14:00:00.000Z"
                     *       },
                     *       "playback": {
                     *         "url": "string",
                     *         "expires_at": "2026-11-22T14:00:00.000Z"
                     *       },
                     *       "session_token": "string",
                     *       "expires_at": "2026-11-22T14:00:00.000Z",
                     *       "access_until": "2026-11-22T14:00:00.000Z",
                     *       "beacon": {
                     *         "rate": 0,
                     *         "interval_seconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ViewerSession"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_viewer_token",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "viewer_removed",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    createModeratorSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What follows `#mod=` in a moderator link */
                    moderator_token: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "viewer_session",
                     *       "id": "vsn_6b0n5z8f3k2m9q7x1c4v",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "viewer": {
                     *         "id": "string",
                     *         "name": "string",
                     *         "role": "viewer"
                     *       },
                     *       "moderator": {
                     *         "object": "moderator",
                     *         "id": "mod_4k2m9q7x1c4v6b0n5z8f",
                     *         "viewer_id": "string",
                     *         "name": "string",
                     *         "active_until": "2026-11-22T14:00:00.000Z"
                     *       },
                     *       "playback": {
                     *         "url": "string",
                     *         "expires_at": "2026-11-22T14:00:00.000Z"
                     *       },
                     *       "session_token": "string",
                     *       "expires_at": "2026-11-22T14:00:00.000Z",
                     *       "access_until": "2026-11-22T14:00:00.000Z",
                     *       "beacon": {
                     *         "rate": 0,
                     *         "interval_seconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ViewerSession"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_viewer_token",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    renewEmbedPlayback: {
        parameters: {
            query?: {
                /** @description The session token, when not sent in the body */
                t?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The session token from `POST /v1/embed/{id}/session` */
                    session_token?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "playback",
                     *       "url": "string",
                     *       "expires_at": "2026-11-22T14:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["RenewedPlayback"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_viewer_token",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "viewer_removed",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Conflict with the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "stream_ended",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listEmbedChatMessages: {
        parameters: {
            query?: {
                limit?: number;
                /** @description A message id (`msg_...`): only messages older than it */
                before?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "chat_message",
                     *           "id": "msg_9q7x1c4v6b0n5z8f3k2m",
                     *           "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *           "text": "string",
                     *           "author": {
                     *             "name": "string",
                     *             "verified": true,
                     *             "role": "viewer"
                     *           },
                     *           "created_at": "2026-11-22T14:00:00.000Z",
                     *           "deleted_at": "2026-11-22T14:00:00.000Z",
                     *           "deleted_by": "string"
                     *         }
                     *       ],
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["ChatMessageList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "origin_not_allowed",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    postChatMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 500 characters; trimmed */
                    text: string;
                    /** @description Required without a session, or when the viewer token has no `name`; ignored when it has one */
                    nickname?: string;
                    /** @description Anonymous viewers: a random id the player keeps (localStorage), 8-64 of A-Z a-z 0-9 _ - */
                    client_id?: string;
                    /** @description The session token of a viewer session of this stream */
                    session_token?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "chat_message",
                     *       "id": "msg_9q7x1c4v6b0n5z8f3k2m",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "text": "string",
                     *       "author": {
                     *         "name": "string",
                     *         "verified": true,
                     *         "role": "viewer"
                     *       },
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "deleted_at": "2026-11-22T14:00:00.000Z",
                     *       "deleted_by": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["ChatMessage"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_viewer_token",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "chat_disabled",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Conflict with the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "stream_ended",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "chat_slow_mode",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "chat_busy",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    readChatFeed: {
        parameters: {
            query?: {
                /** @description The session token of a viewer session of this stream */
                t?: string;
                /** @description Anonymous viewers: a random id the player keeps (localStorage), 8-64 of A-Z a-z 0-9 _ - */
                c?: string;
                /** @description Resume after this event id (the `Last-Event-ID` header does the same) */
                after?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-sent events, open until the reader leaves */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example retry: 2000
                     *
                     *     event: reset
                     *     data: {}
                     *
                     *     id: 42
                     *     event: settings
                     *     data: {"enabled":true,"anonymous_posting":true,"slow_mode_seconds":0,"reactions":{"emojis":["👍","👏"],"rate":1}}
                     *
                     *     : ping
                     */
                    "text/event-stream": string;
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_viewer_token",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "origin_not_allowed",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "chat_busy",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    sendChatReaction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description One of 👍 ❤️ 😂 😮 👏 🔥 🎉 😢 (the feed's `settings.reactions.emojis`)
                     * @enum {string}
                     */
                    emoji: "👍" | "❤️" | "😂" | "😮" | "👏" | "🔥" | "🎉" | "😢";
                    /** @description Anonymous viewers: a random id the player keeps (localStorage), 8-64 of A-Z a-z 0-9 _ - */
                    client_id?: string;
                    /** @description The session token of a viewer session of this stream */
                    session_token?: string;
                };
            };
        };
        responses: {
            /** @description Counted (or dropped: over budget, banned viewer) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_viewer_token",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "chat_disabled",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Conflict with the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "stream_ended",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "chat_rate_limited",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    moderatorDeleteChatMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The session token of a viewer session of this stream */
                    session_token: string;
                    message_id: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "chat_message",
                     *       "id": "msg_9q7x1c4v6b0n5z8f3k2m",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "text": "string",
                     *       "author": {
                     *         "name": "string",
                     *         "verified": true,
                     *         "role": "viewer"
                     *       },
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "deleted_at": "2026-11-22T14:00:00.000Z",
                     *       "deleted_by": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["ChatMessage"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_viewer_token",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_a_moderator",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    moderatorBanViewer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Exactly one of `viewer_id` and `message_id` */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The session token of a viewer session of this stream */
                    session_token: string;
                    /** @description The client's own viewer id (a viewer token's `sub`), 1-64 characters */
                    viewer_id?: string;
                    /** @description Ban the author of this message */
                    message_id?: string;
                };
            };
        };
        responses: {
            /** @description A ban follows the person (the token `sub`), not the browser: on its stream, or on every stream of its channel */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "ban",
                     *       "id": "ban_5z8f3k2m9q7x1c4v6b0n",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "channel_id": null,
                     *       "viewer_id": "string",
                     *       "message_id": "string",
                     *       "created_by": "string",
                     *       "created_at": "2026-11-22T14:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Ban"];
                };
            };
            /** @description A ban follows the person (the token `sub`), not the browser: on its stream, or on every stream of its channel */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "ban",
                     *       "id": "ban_5z8f3k2m9q7x1c4v6b0n",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "channel_id": null,
                     *       "viewer_id": "string",
                     *       "message_id": "string",
                     *       "created_by": "string",
                     *       "created_at": "2026-11-22T14:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Ban"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_viewer_token",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_a_moderator",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    moderatorSetSlowMode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The session token of a viewer session of this stream */
                    session_token: string;
                    /** @description 0 turns slow mode off */
                    seconds: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "enabled": true,
                     *       "anonymous_posting": true,
                     *       "slow_mode_seconds": 0,
                     *       "reactions": {
                     *         "emojis": [
                     *           "string"
                     *         ],
                     *         "rate": 0
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["EmbedChat"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_viewer_token",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_a_moderator",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "webhook_endpoint",
                     *           "id": "whk_4k2m9q7x1c4v6b0n5z8f",
                     *           "url": "https://hooks.example.com/svc",
                     *           "description": "Production automation",
                     *           "events": [
                     *             "stream.live"
                     *           ],
                     *           "all_events": true,
                     *           "enabled": true,
                     *           "created_at": "2026-11-22T14:00:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "event_types": [
                     *         "stream.live"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/svc",
                 *       "events": [
                 *         "stream.live",
                 *         "recording.ready"
                 *       ],
                 *       "description": "Production automation"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description https on the public internet
                     * @example https://hooks.example.com/svc
                     */
                    url: string;
                    /**
                     * @description Omit for every type, including types added later. Values: the event types (`event_types`) plus `webhook.test`, which the test operation sends whatever this list holds
                     * @example [
                     *       "stream.live",
                     *       "recording.ready"
                     *     ]
                     */
                    events?: ("stream.live" | "stream.ended" | "stream.expired" | "stream.cancelled" | "recording.ready" | "recording.failed" | "recording.deleted" | "credit.low" | "credit.depleted" | "balance.low" | "balance.depleted" | "output.connected" | "output.errored" | "output.disconnected" | "webhook.test")[];
                    /** @example Production automation */
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description With `secret`: on create, single read and rotation */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_endpoint",
                     *       "id": "whk_4k2m9q7x1c4v6b0n5z8f",
                     *       "url": "https://hooks.example.com/svc",
                     *       "description": "Production automation",
                     *       "events": [
                     *         "stream.live"
                     *       ],
                     *       "all_events": true,
                     *       "enabled": true,
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "limit_webhook_endpoints",
                     *         "message": "5 webhook endpoints exist, the most allowed; delete one first.",
                     *         "details": {
                     *           "limit": 5,
                     *           "current": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Endpoint id (`whk_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description With `secret`: on create, single read and rotation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_endpoint",
                     *       "id": "whk_4k2m9q7x1c4v6b0n5z8f",
                     *       "url": "https://hooks.example.com/svc",
                     *       "description": "Production automation",
                     *       "events": [
                     *         "stream.live"
                     *       ],
                     *       "all_events": true,
                     *       "enabled": true,
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Endpoint id (`whk_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Endpoint id (`whk_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "enabled": false
                 *     }
                 */
                "application/json": {
                    /**
                     * @description https on the public internet
                     * @example https://hooks.example.com/svc
                     */
                    url?: string;
                    /**
                     * @description null: every type, including types added later. Values: the event types (`event_types`) plus `webhook.test`, which the test operation sends whatever this list holds
                     * @example [
                     *       "stream.live",
                     *       "recording.ready"
                     *     ]
                     */
                    events?: ("stream.live" | "stream.ended" | "stream.expired" | "stream.cancelled" | "recording.ready" | "recording.failed" | "recording.deleted" | "credit.low" | "credit.depleted" | "balance.low" | "balance.depleted" | "output.connected" | "output.errored" | "output.disconnected" | "webhook.test")[] | null;
                    /** @example Production automation */
                    description?: string | null;
                    /** @description false stops sending; queued deliveries fail */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_endpoint",
                     *       "id": "whk_4k2m9q7x1c4v6b0n5z8f",
                     *       "url": "https://hooks.example.com/svc",
                     *       "description": "Production automation",
                     *       "events": [
                     *         "stream.live"
                     *       ],
                     *       "all_events": true,
                     *       "enabled": true,
                     *       "created_at": "2026-11-22T14:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Endpoint id (`whk_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description With `secret`: on create, single read and rotation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_endpoint",
                     *       "id": "whk_4k2m9q7x1c4v6b0n5z8f",
                     *       "url": "https://hooks.example.com/svc",
                     *       "description": "Production automation",
                     *       "events": [
                     *         "stream.live"
                     *       ],
                     *       "all_events": true,
                     *       "enabled": true,
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    testWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Endpoint id (`whk_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_delivery",
                     *       "id": "dlv_7x1c4v6b0n5z8f3k2m9q",
                     *       "event_id": "evt_1c4v6b0n5z8f3k2m9q7x",
                     *       "event_type": "stream.live",
                     *       "stream_id": "string",
                     *       "status": "pending",
                     *       "attempts": 0,
                     *       "max_attempts": 1,
                     *       "next_attempt_at": "2026-11-22T14:00:00.000Z",
                     *       "last_attempt_at": "2026-11-22T14:00:00.000Z",
                     *       "last_status_code": 0,
                     *       "last_error": "string",
                     *       "last_duration_ms": 0,
                     *       "delivered_at": "2026-11-22T14:00:00.000Z",
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "payload": {
                     *         "type": "stream.live",
                     *         "timestamp": "2026-11-22T14:00:00.000Z",
                     *         "data": {}
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                status?: "pending" | "succeeded" | "failed";
                /** @example dlv_7x1c4v6b0n5z8f3k2m9q */
                starting_after?: string;
            };
            header?: never;
            path: {
                /** @description Endpoint id (`whk_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "webhook_delivery",
                     *           "id": "dlv_7x1c4v6b0n5z8f3k2m9q",
                     *           "event_id": "evt_1c4v6b0n5z8f3k2m9q7x",
                     *           "event_type": "stream.live",
                     *           "stream_id": "string",
                     *           "status": "pending",
                     *           "attempts": 0,
                     *           "max_attempts": 1,
                     *           "next_attempt_at": "2026-11-22T14:00:00.000Z",
                     *           "last_attempt_at": "2026-11-22T14:00:00.000Z",
                     *           "last_status_code": 0,
                     *           "last_error": "string",
                     *           "last_duration_ms": 0,
                     *           "delivered_at": "2026-11-22T14:00:00.000Z",
                     *           "created_at": "2026-11-22T14:00:00.000Z",
                     *           "payload": {
                     *             "type": "stream.live",
                     *             "timestamp": "2026-11-22T14:00:00.000Z",
                     *             "data": {}
                     *           }
                     *         }
                     *       ],
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Endpoint id (`whk_...`) */
                id: string;
                /** @description Delivery id (`dlv_...`) */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_delivery",
                     *       "id": "dlv_7x1c4v6b0n5z8f3k2m9q",
                     *       "event_id": "evt_1c4v6b0n5z8f3k2m9q7x",
                     *       "event_type": "stream.live",
                     *       "stream_id": "string",
                     *       "status": "pending",
                     *       "attempts": 0,
                     *       "max_attempts": 1,
                     *       "next_attempt_at": "2026-11-22T14:00:00.000Z",
                     *       "last_attempt_at": "2026-11-22T14:00:00.000Z",
                     *       "last_status_code": 0,
                     *       "last_error": "string",
                     *       "last_duration_ms": 0,
                     *       "delivered_at": "2026-11-22T14:00:00.000Z",
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "payload": {
                     *         "type": "stream.live",
                     *         "timestamp": "2026-11-22T14:00:00.000Z",
                     *         "data": {}
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description UTC days, today included (1-90, default 30) */
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "usage",
                     *       "billing_mode": "prepaid",
                     *       "credit_usd": "0.00",
                     *       "charged_usd": "0.00",
                     *       "balance_usd": "0.00",
                     *       "available_usd": "0.00",
                     *       "balance_depleted_at": "2026-11-22T14:00:00.000Z",
                     *       "recordings_delete_at": "2026-11-22T14:00:00.000Z",
                     *       "ingest_hours_used": 0,
                     *       "ingest_hours_limit": 0,
                     *       "rates": {
                     *         "abr_basic_per_minute": "string",
                     *         "passthrough_per_minute": "string",
                     *         "delivery_per_gb": "string",
                     *         "storage_per_gb_month": "string"
                     *       },
                     *       "days": [
                     *         {
                     *           "date": "2026-11-24",
                     *           "total_usd": "0.00",
                     *           "items": [
                     *             {
                     *               "item": "abr_basic",
                     *               "quantity": 0,
                     *               "unit": "second",
                     *               "amount_usd": "0.00"
                     *             }
                     *           ],
                     *           "watch_minutes": 0,
                     *           "credit_usd": "0.00",
                     *           "balance_usd": "0.00"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Usage"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listChatBans: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The id of the last ban of the previous page */
                starting_after?: string;
            };
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "ban",
                     *           "id": "ban_5z8f3k2m9q7x1c4v6b0n",
                     *           "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *           "channel_id": null,
                     *           "viewer_id": "string",
                     *           "message_id": "string",
                     *           "created_by": "string",
                     *           "created_at": "2026-11-22T14:00:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["BanList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    createChatBan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        /** @description Exactly one of `viewer_id` and `message_id` */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The client's own viewer id (a viewer token's `sub`), 1-64 characters */
                    viewer_id?: string;
                    /** @description Ban the author of this chat message (`msg_...`; on a channel, a message of any of its streams); an anonymous author is also banned by the network the message came from */
                    message_id?: string;
                };
            };
        };
        responses: {
            /** @description A ban follows the person (the token `sub`), not the browser: on its stream, or on every stream of its channel */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "ban",
                     *       "id": "ban_5z8f3k2m9q7x1c4v6b0n",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "channel_id": null,
                     *       "viewer_id": "string",
                     *       "message_id": "string",
                     *       "created_by": "string",
                     *       "created_at": "2026-11-22T14:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Ban"];
                };
            };
            /** @description A ban follows the person (the token `sub`), not the browser: on its stream, or on every stream of its channel */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "ban",
                     *       "id": "ban_5z8f3k2m9q7x1c4v6b0n",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "channel_id": null,
                     *       "viewer_id": "string",
                     *       "message_id": "string",
                     *       "created_by": "string",
                     *       "created_at": "2026-11-22T14:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Ban"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    deleteChatBan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
                /** @description Ban id (`ban_...`) */
                ban_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Lifted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listChannelChatBans: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The id of the last ban of the previous page */
                starting_after?: string;
            };
            header?: never;
            path: {
                /** @description Channel id (`chn_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "ban",
                     *           "id": "ban_5z8f3k2m9q7x1c4v6b0n",
                     *           "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *           "channel_id": null,
                     *           "viewer_id": "string",
                     *           "message_id": "string",
                     *           "created_by": "string",
                     *           "created_at": "2026-11-22T14:00:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["BanList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    createChannelChatBan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel id (`chn_...`) */
                id: string;
            };
            cookie?: never;
        };
        /** @description Exactly one of `viewer_id` and `message_id` */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The client's own viewer id (a viewer token's `sub`), 1-64 characters */
                    viewer_id?: string;
                    /** @description Ban the author of this chat message (`msg_...`; on a channel, a message of any of its streams); an anonymous author is also banned by the network the message came from */
                    message_id?: string;
                };
            };
        };
        responses: {
            /** @description A ban follows the person (the token `sub`), not the browser: on its stream, or on every stream of its channel */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "ban",
                     *       "id": "ban_5z8f3k2m9q7x1c4v6b0n",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "channel_id": null,
                     *       "viewer_id": "string",
                     *       "message_id": "string",
                     *       "created_by": "string",
                     *       "created_at": "2026-11-22T14:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Ban"];
                };
            };
            /** @description A ban follows the person (the token `sub`), not the browser: on its stream, or on every stream of its channel */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "ban",
                     *       "id": "ban_5z8f3k2m9q7x1c4v6b0n",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "channel_id": null,
                     *       "viewer_id": "string",
                     *       "message_id": "string",
                     *       "created_by": "string",
                     *       "created_at": "2026-11-22T14:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Ban"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    deleteChannelChatBan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel id (`chn_...`) */
                id: string;
                /** @description Ban id (`ban_...`) */
                ban_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Lifted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listChatMessages: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The id of the last message of the previous page */
                starting_after?: string;
            };
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "chat_message",
                     *           "id": "msg_9q7x1c4v6b0n5z8f3k2m",
                     *           "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *           "text": "string",
                     *           "author": {
                     *             "name": "string",
                     *             "verified": true,
                     *             "role": "viewer"
                     *           },
                     *           "created_at": "2026-11-22T14:00:00.000Z",
                     *           "deleted_at": "2026-11-22T14:00:00.000Z",
                     *           "deleted_by": "string",
                     *           "viewer_id": "string",
                     *           "hidden": true
                     *         }
                     *       ],
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["OwnerChatMessageList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    deleteChatMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
                /** @description Message id (`msg_...`) */
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "chat_message",
                     *       "id": "msg_9q7x1c4v6b0n5z8f3k2m",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "text": "string",
                     *       "author": {
                     *         "name": "string",
                     *         "verified": true,
                     *         "role": "viewer"
                     *       },
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "deleted_at": "2026-11-22T14:00:00.000Z",
                     *       "deleted_by": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["ChatMessage"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listChatModerators: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The id of the last moderator of the previous page */
                starting_after?: string;
            };
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "moderator",
                     *           "id": "mod_4k2m9q7x1c4v6b0n5z8f",
                     *           "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *           "channel_id": null,
                     *           "viewer_id": "string",
                     *           "name": "string",
                     *           "source": "invitation",
                     *           "active_until": "2026-11-22T14:00:00.000Z",
                     *           "created_at": "2026-11-22T14:00:00.000Z",
                     *           "link": "string"
                     *         }
                     *       ],
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["ModeratorList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    inviteChatModerator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        /** @description With `viewer_id` (a viewer token's `sub`), that person's viewer tokens open moderator sessions too, and inviting them again updates the same moderator. Without it, a link-only moderator whose viewer id is its own `mod_...` id */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "viewer_id": "teacher-17",
                 *       "name": "Ms Rivera",
                 *       "active_days": 7
                 *     }
                 */
                "application/json": {
                    /** @description The client's own viewer id (a viewer token's `sub`), 1-64 characters */
                    viewer_id?: string;
                    /** @description 1-40 characters, shown on the moderator's chat posts */
                    name: string;
                    /**
                     * @description The moderator is active for this many days from now (1-30, default 30)
                     * @default 30
                     */
                    active_days?: number;
                };
            };
        };
        responses: {
            /** @description A moderator of a stream's chat, or of every stream of a channel: deletes messages, bans viewers and sets slow mode */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "moderator",
                     *       "id": "mod_4k2m9q7x1c4v6b0n5z8f",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "channel_id": null,
                     *       "viewer_id": "string",
                     *       "name": "string",
                     *       "source": "invitation",
                     *       "active_until": "2026-11-22T14:00:00.000Z",
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "link": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["Moderator"];
                };
            };
            /** @description A moderator of a stream's chat, or of every stream of a channel: deletes messages, bans viewers and sets slow mode */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "moderator",
                     *       "id": "mod_4k2m9q7x1c4v6b0n5z8f",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "channel_id": null,
                     *       "viewer_id": "string",
                     *       "name": "string",
                     *       "source": "invitation",
                     *       "active_until": "2026-11-22T14:00:00.000Z",
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "link": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["Moderator"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    removeChatModerator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
                /** @description Moderator id (`mod_...`) */
                mod_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listChannelChatModerators: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The id of the last moderator of the previous page */
                starting_after?: string;
            };
            header?: never;
            path: {
                /** @description Channel id (`chn_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "moderator",
                     *           "id": "mod_4k2m9q7x1c4v6b0n5z8f",
                     *           "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *           "channel_id": null,
                     *           "viewer_id": "string",
                     *           "name": "string",
                     *           "source": "invitation",
                     *           "active_until": "2026-11-22T14:00:00.000Z",
                     *           "created_at": "2026-11-22T14:00:00.000Z",
                     *           "link": "string"
                     *         }
                     *       ],
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["ModeratorList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    inviteChannelChatModerator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel id (`chn_...`) */
                id: string;
            };
            cookie?: never;
        };
        /** @description With `viewer_id` (a viewer token's `sub`), that person's viewer tokens open moderator sessions too, and inviting them again updates the same moderator. Without it, a link-only moderator whose viewer id is its own `mod_...` id */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "viewer_id": "teacher-17",
                 *       "name": "Ms Rivera",
                 *       "active_days": 7
                 *     }
                 */
                "application/json": {
                    /** @description The client's own viewer id (a viewer token's `sub`), 1-64 characters */
                    viewer_id?: string;
                    /** @description 1-40 characters, shown on the moderator's chat posts */
                    name: string;
                    /**
                     * @description The moderator is active for this many days from now (1-30, default 30)
                     * @default 30
                     */
                    active_days?: number;
                };
            };
        };
        responses: {
            /** @description A moderator of a stream's chat, or of every stream of a channel: deletes messages, bans viewers and sets slow mode */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "moderator",
                     *       "id": "mod_4k2m9q7x1c4v6b0n5z8f",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "channel_id": null,
                     *       "viewer_id": "string",
                     *       "name": "string",
                     *       "source": "invitation",
                     *       "active_until": "2026-11-22T14:00:00.000Z",
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "link": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["Moderator"];
                };
            };
            /** @description A moderator of a stream's chat, or of every stream of a channel: deletes messages, bans viewers and sets slow mode */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "moderator",
                     *       "id": "mod_4k2m9q7x1c4v6b0n5z8f",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "channel_id": null,
                     *       "viewer_id": "string",
                     *       "name": "string",
                     *       "source": "invitation",
                     *       "active_until": "2026-11-22T14:00:00.000Z",
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "link": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["Moderator"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    removeChannelChatModerator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Channel id (`chn_...`) */
                id: string;
                /** @description Moderator id (`mod_...`) */
                mod_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listStreamOutputs: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "stream_output",
                     *           "id": "out_6b0n5z8f3k2m9q7x1c4v",
                     *           "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *           "name": "YouTube",
                     *           "url": "rtmp://a.rtmp.youtube.com/live2",
                     *           "stream_key": "••••qrst",
                     *           "enabled": true,
                     *           "status": "idle",
                     *           "last_error": "string",
                     *           "connected_at": "2026-11-22T14:00:00.000Z",
                     *           "bytes_sent": 0,
                     *           "created_at": "2026-11-22T14:00:00.000Z",
                     *           "updated_at": "2026-11-22T14:00:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["StreamOutputList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    createStreamOutput: {
        parameters: {
            query?: never;
            header?: {
                "idempotency-key"?: string;
            };
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "rtmp://a.rtmp.youtube.com/live2",
                 *       "stream_key": "abcd-efgh-ijkl-mnop-qrst",
                 *       "name": "YouTube"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description `rtmp://host[:port]/app`, `rtmps://host[:port]/app` or `srt://host:port` without the key; a host on the public internet (unless the operator allows private ones), no user name or password, no query or fragment
                     * @example rtmp://a.rtmp.youtube.com/live2
                     */
                    url: string;
                    /**
                     * @description Secret: 1-512 printable ASCII characters, no spaces. Required for rtmp and rtmps (appended to the URL as the stream name); optional for srt (sent as the SRT `streamid`). Never shown again
                     * @example abcd-efgh-ijkl-mnop-qrst
                     */
                    stream_key?: string;
                    /**
                     * @description Label, up to 100 characters
                     * @example YouTube
                     */
                    name?: string | null;
                    /** @description False: not pushed (default true) */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description A restreaming target: while the stream is live, the source is pushed there as sent */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "stream_output",
                     *       "id": "out_6b0n5z8f3k2m9q7x1c4v",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "name": "YouTube",
                     *       "url": "rtmp://a.rtmp.youtube.com/live2",
                     *       "stream_key": "••••qrst",
                     *       "enabled": true,
                     *       "status": "idle",
                     *       "last_error": "string",
                     *       "connected_at": "2026-11-22T14:00:00.000Z",
                     *       "bytes_sent": 0,
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "updated_at": "2026-11-22T14:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["StreamOutput"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "account_pending",
                     *         "message": "The account is awaiting approval by the operator.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Conflict with the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "stream_ended",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Idempotency key reused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was used with a different body; use a new key.",
                     *         "details": {
                     *           "field": "idempotency-key"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Limit reached */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "limit_stream_outputs",
                     *         "message": "5 outputs exist on this stream, the most allowed; delete one first.",
                     *         "details": {
                     *           "limit": 5,
                     *           "current": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getStreamOutput: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
                /** @description Output id (`out_...`) */
                output_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A restreaming target: while the stream is live, the source is pushed there as sent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "stream_output",
                     *       "id": "out_6b0n5z8f3k2m9q7x1c4v",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "name": "YouTube",
                     *       "url": "rtmp://a.rtmp.youtube.com/live2",
                     *       "stream_key": "••••qrst",
                     *       "enabled": true,
                     *       "status": "idle",
                     *       "last_error": "string",
                     *       "connected_at": "2026-11-22T14:00:00.000Z",
                     *       "bytes_sent": 0,
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "updated_at": "2026-11-22T14:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["StreamOutput"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    deleteStreamOutput: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
                /** @description Output id (`out_...`) */
                output_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    updateStreamOutput: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stream id (`str_...`) */
                id: string;
                /** @description Output id (`out_...`) */
                output_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "enabled": false
                 *     }
                 */
                "application/json": {
                    /**
                     * @description `rtmp://host[:port]/app`, `rtmps://host[:port]/app` or `srt://host:port` without the key; a host on the public internet (unless the operator allows private ones), no user name or password, no query or fragment
                     * @example rtmp://a.rtmp.youtube.com/live2
                     */
                    url?: string;
                    /**
                     * @description Secret: 1-512 printable ASCII characters, no spaces. Required for rtmp and rtmps (appended to the URL as the stream name); optional for srt (sent as the SRT `streamid`). Never shown again
                     * @example abcd-efgh-ijkl-mnop-qrst
                     */
                    stream_key?: string | null;
                    /**
                     * @description Label, up to 100 characters
                     * @example YouTube
                     */
                    name?: string | null;
                    /** @description False: not pushed (default true) */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description A restreaming target: while the stream is live, the source is pushed there as sent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "stream_output",
                     *       "id": "out_6b0n5z8f3k2m9q7x1c4v",
                     *       "stream_id": "str_8f3k2m9q7x1c4v6b0n5z",
                     *       "name": "YouTube",
                     *       "url": "rtmp://a.rtmp.youtube.com/live2",
                     *       "stream_key": "••••qrst",
                     *       "enabled": true,
                     *       "status": "idle",
                     *       "last_error": "string",
                     *       "connected_at": "2026-11-22T14:00:00.000Z",
                     *       "bytes_sent": 0,
                     *       "created_at": "2026-11-22T14:00:00.000Z",
                     *       "updated_at": "2026-11-22T14:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["StreamOutput"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Unknown field `colour` in body.",
                     *         "details": {
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "Send a valid API key: `Authorization: Bearer svc_live_...`.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Account not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "account_pending",
                     *         "message": "The account is awaiting approval by the operator.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such stream.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Conflict with the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "stream_ended",
                     *         "message": "See the code.",
                     *         "details": {},
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "service_unavailable",
                     *         "message": "The database is not answering; retry shortly.",
                     *         "details": {
                     *           "retry_after_seconds": 5
                     *         },
                     *         "request_id": "req_3k2j4h5g6f7d8s9a0q1w"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                            details: {
                                [key: string]: unknown;
                            };
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
}
