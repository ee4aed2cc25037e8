import { Type, type Static } from '@sinclair/typebox';

const Port = Type.Integer({ minimum: 1, maximum: 65535 });
/** Each worker holds up to 11 PostgreSQL connections; the managed cluster allows 100. */
export const MAX_API_WORKERS = 16;
const Url = Type.String({ minLength: 1, maxLength: 2000, pattern: '^(https?|rtmps?)://' });

const AccountLimits = Type.Object(
  {
    pending_streams: Type.Integer({ minimum: 0 }),
    creations_per_hour: Type.Integer({ minimum: 0 }),
    max_resolution: Type.Union([Type.Literal(480), Type.Literal(720), Type.Literal(1080)]),
    max_duration_seconds: Type.Integer({ minimum: 5 }),
    live_at_once: Type.Integer({ minimum: 0 }),
    /** Publishing hours per UTC month; null: no cap (credit is the limit). Fractions let tests stay short. */
    ingest_hours_per_month: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  },
  { additionalProperties: false },
);

const Seconds = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum });

/** The live pipeline; windows are settings so that tests (and operators) can shorten them. */
const LiveSettings = Type.Object(
  {
    ffmpeg_path: Type.String({ minLength: 1 }),
    ffprobe_path: Type.String({ minLength: 1 }),
    nginx_path: Type.String({ minLength: 1 }),
    x264_preset: Type.Union(
      ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium'].map((p) => Type.Literal(p)),
    ),
    segment_seconds: Seconds(1, 10),
    first_segment_seconds: Seconds(0, 10),
    window_segments: Seconds(3, 30),
    reconnect_window_seconds: Seconds(5, 600),
    idle_publisher_seconds: Seconds(2, 60),
    limit_grace_seconds: Seconds(1, 600),
    bitrate_window_seconds: Seconds(2, 120),
    max_ingest_kbps: Type.Integer({ minimum: 100, maximum: 1_000_000 }),
    sample_seconds: Seconds(1, 30),
    thumbnail_seconds: Seconds(2, 3600),
    passthrough_thumbnail_seconds: Seconds(2, 3600),
  },
  { additionalProperties: false },
);

/** CPU cores one live stream costs, by what its ladder encodes (measured by `npm run bench`). */
const StreamCosts = Type.Object(
  {
    abr_1080: Type.Number({ minimum: 0 }),
    abr_720: Type.Number({ minimum: 0 }),
    copy_only: Type.Number({ minimum: 0 }),
    /** What the SRT relay of a stream published over SRT adds (docs/decisions.md, "SRT ingest"). */
    srt_relay: Type.Number({ minimum: 0 }),
    rtmps_relay: Type.Number({ minimum: 0 }),
    whip_relay: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
);

const CapacitySettings = Type.Object(
  {
    cores: Type.Number({ exclusiveMinimum: 0 }),
    reserved_cores: Type.Number({ minimum: 0 }),
    stream_cost: Type.Partial(StreamCosts, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

const RecordingSettings = Type.Object(
  {
    retry_seconds: Seconds(1, 86_400),
    check_seconds: Seconds(1, 59),
    /** How long after a stream's end the pieces of a session another node shipped (and never closed: it died) are awaited. */
    pieces_wait_seconds: Seconds(1, 3600),
  },
  { additionalProperties: false },
);

/** A decimal amount of USD with at most 6 decimals, as a string: money is never a float. */
const Usd = Type.String({ pattern: '^[0-9]{1,12}(\\.[0-9]{1,6})?$' });

/** What is charged (spec: Billing) and when an account is warned (docs/decisions.md, Billing). */
const BillingRates = Type.Object(
  {
    abr_basic_per_minute: Usd,
    passthrough_per_minute: Usd,
    delivery_per_gb: Usd,
    storage_per_gb_month: Usd,
  },
  { additionalProperties: false },
);

const BillingSettings = Type.Object(
  {
    rates: Type.Partial(BillingRates, { additionalProperties: false }),
    low_credit_usd: Usd,
    meter_seconds: Seconds(1, 59),
    /** Days a prepaid balance may stay at or below zero before its recordings are deleted (spec: 7). */
    zero_balance_days: Type.Number({ exclusiveMinimum: 0, maximum: 3650 }),
  },
  { additionalProperties: false },
);

/** Viewer counting from the hosted player's beats (docs/decisions.md, Viewer counting). */
const ViewerSettings = Type.Object(
  {
    beat_interval_seconds: Seconds(1, 300),
    sample_seconds: Seconds(1, 30),
    /** How long a member's personal playback address is valid (spec: five minutes); shorter in tests. */
    personal_playback_seconds: Seconds(10, 3600),
    /** How often a player with a token session reports for attendance (spec: 30 s). */
    attendance_interval_seconds: Seconds(1, 300),
    /** How often each node writes the attendance it gathered (spec: up to a minute behind). */
    attendance_flush_seconds: Seconds(1, 60),
    /** New viewers one address (IPv4, IPv6 /64) may add to a stream at once on a node: an office arriving together. */
    address_new_viewers_burst: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    /** New viewers one address may add per minute once its burst is spent. */
    address_new_viewers_per_minute: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    /** Viewers one address counts for at once, per stream and node. */
    address_max_viewers: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  },
  { additionalProperties: false },
);

/** Chat (docs/decisions.md, Chat): per-viewer limits and what one node takes on. */
const ChatConfig = Type.Object(
  {
    /** Posts a viewer may make per `post_window_seconds` (then `chat_rate_limited`). */
    posts_per_window: Type.Integer({ minimum: 1, maximum: 1000 }),
    post_window_seconds: Seconds(1, 3600),
    /** Reactions a viewer may send per `post_window_seconds`. */
    reactions_per_window: Type.Integer({ minimum: 1, maximum: 10_000 }),
    /** Reactions one node counts per stream per second; more are dropped (a storm costs bounded work). */
    reactions_per_second: Type.Integer({ minimum: 1, maximum: 100_000 }),
    /** Feed connections one node holds; more get `chat_busy`. */
    max_readers: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    /** Feed connections one node holds from one address (IPv4, IPv6 /64); more get `rate_limited`. */
    max_readers_per_address: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    /** Posts one node has in flight at once; more get `chat_busy`. */
    max_posts_in_flight: Type.Integer({ minimum: 1, maximum: 10_000 }),
    /** How often queued events go out to readers, in milliseconds (one write per reader per tick). */
    fanout_ms: Type.Integer({ minimum: 10, maximum: 1000 }),
  },
  { additionalProperties: false },
);

/** An IPv4 address, or a network in CIDR form. */
const IPV4_OR_NETWORK =
  '^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}(/([0-9]|[12][0-9]|3[0-2]))?$';

/** For tests only: addresses (loopback ones) mapped to a country code, ahead of the geoip database (origin and edges). */
export const CountryTable = Type.Record(
  Type.String({ pattern: IPV4_OR_NETWORK }),
  Type.String({ pattern: '^[A-Z]{2}$' }),
);

/** The CDN log reader (docs/decisions.md, "CDN log"). */
const CdnSettings = Type.Object(
  {
    log_read_seconds: Seconds(1, 59),
    /** For tests only: addresses (loopback ones) mapped to a country code, ahead of the geoip database. */
    country_table: CountryTable,
    /**
     * Viewers may fetch from the origin's CDN port themselves; false once edges or a CDN serve every
     * viewer (docs/decisions.md, "Edge tier"): only their fetches are answered.
     */
    direct_viewers: Type.Boolean(),
    /**
     * Where playback addresses carry their signature (docs/decisions.md, "Any CDN in front"):
     * `path`, a path segment (`/<sig>/<stream>/master.m3u8`); `query`, the `svc` query parameter
     * (`/<stream>/master.m3u8?svc=<sig>`), for a third-party CDN that caches by path and leaves the
     * query out of its cache key. The origin serves both forms whatever this says.
     */
    token_form: Type.Union([Type.Literal('path'), Type.Literal('query')]),
  },
  { additionalProperties: false },
);

/** Size-based rotation of every log file the appliance writes (docs/operations.md, Logs). */
const LogSettings = Type.Object(
  {
    max_bytes: Type.Integer({ minimum: 4096 }),
    keep: Type.Integer({ minimum: 1, maximum: 100 }),
    check_seconds: Seconds(1, 3600),
  },
  { additionalProperties: false },
);

/** WHIP ingest from browsers (docs/decisions.md, "WHIP"; docs/operations.md, firewall). */
const WhipSettings = Type.Object(
  {
    /** UDP ports WebRTC media may use, inclusive; the firewall opens this range. */
    udp_port_min: Port,
    udp_port_max: Port,
    /**
     * Addresses announced to browsers as ICE host candidates besides the machine's own interfaces:
     * the public address of a host behind 1:1 NAT. Default: the host when it is an IPv4 address.
     */
    ice_addresses: Type.Array(Type.String({ pattern: IPV4_OR_NETWORK.replace('(/([0-9]|[12][0-9]|3[0-2]))?', '') }), {
      maxItems: 8,
    }),
    /** A keyframe is asked for this often (HLS segments are cut on keyframes). */
    keyframe_seconds: Seconds(1, 10),
    connect_timeout_seconds: Seconds(2, 60),
    /** No media from a connected browser this long: its session ends (the stream's reconnect window starts). */
    idle_seconds: Seconds(2, 60),
  },
  { additionalProperties: false },
);

/** A DNS name this machine answers for (no scheme, no port). */
export const DomainName = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern:
    '^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$',
});

/** Certificates from an ACME CA (docs/decisions.md, "Public edge"). */
export const AcmeSettings = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' }),
    /** The CA's directory; Let's Encrypt's by default. */
    directory_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, pattern: '^https://' })),
    /** A PEM bundle to trust the directory's own https with (a private CA; tests: Pebble's). */
    ca_file: Type.Optional(Type.String({ minLength: 1 })),
    /** Renewal starts this many days before expiry (or at a third of a shorter lifetime). */
    renew_before_days: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 365 })),
    /** A failed order is retried after this, then twice as long each time, up to 6 hours. */
    retry_seconds: Type.Optional(Seconds(1, 86_400)),
  },
  { additionalProperties: false },
);

/** HTTPS on every surface, RTMPS ingest (docs/decisions.md, "Public edge"). */
const TlsSettings = Type.Object(
  {
    /** The API's and WHIP's name; the player and CDN share it (on their own ports) unless named below. */
    domain: DomainName,
    player_domain: Type.Optional(DomainName),
    cdn_domain: Type.Optional(DomainName),
    acme: Type.Optional(AcmeSettings),
    /** An operator's certificate chain and key (PEM), instead of ACME. */
    certificate_file: Type.Optional(Type.String({ minLength: 1 })),
    key_file: Type.Optional(Type.String({ minLength: 1 })),
    https_port: Type.Optional(Port),
    /** ACME's http-01 challenges and the redirect to https. */
    http_port: Type.Optional(Port),
    rtmps_port: Type.Optional(Port),
    /**
     * Loopback port where nginx hands decrypted RTMPS to nginx-rtmp with a PROXY header: a port of its
     * own (nginx-rtmp reads PROXY headers on every address of a port once one of them asks for it).
     */
    rtmps_relay_port: Type.Optional(Port),
    /** Fewer days left than this: a warning in status, health, metrics and the dashboard. */
    warn_days: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 365 })),
    /** How often the certificate is looked at. */
    check_seconds: Type.Optional(Seconds(1, 86_400)),
  },
  { additionalProperties: false },
);

const SrtSettings = Type.Object(
  {
    /** One UDP port per stream that can be published to, from this range (inclusive); the firewall opens it. */
    port_min: Port,
    port_max: Port,
    /**
     * The listener's SRT latency (receive buffer for retransmissions), in ms; the higher of the
     * publisher's and this one is used. About 4 × the round trip: 120 ms suits a LAN only.
     */
    latency_ms: Type.Integer({ minimum: 20, maximum: 8000 }),
  },
  { additionalProperties: false },
);

/**
 * Object storage for recordings and the pieces of publish sessions (docs/decisions.md, "Object
 * storage"); its access key pair is in secrets.json (`svc storage set`).
 */
const StorageSettings = Type.Object(
  {
    kind: Type.Literal('s3'),
    /** The S3 API's address; absent: AWS S3 of the region. */
    endpoint: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, pattern: '^https?://[^/?#]+/?$' })),
    region: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9-]+$' }),
    /** S3's bucket name rules. */
    bucket: Type.String({ minLength: 3, maxLength: 63, pattern: '^[a-z0-9][a-z0-9.-]*[a-z0-9]$' }),
    /** Path-style addresses (MinIO, Ceph RGW without wildcard DNS). */
    force_path_style: Type.Optional(Type.Boolean()),
    /** Put before every key, so that one bucket serves several installs (`svc/`). */
    prefix: Type.Optional(Type.String({ maxLength: 200, pattern: '^([A-Za-z0-9._-]+/)*$' })),
    /** Bound of the disk spool in front of the bucket, in MB (default 20480). */
    spool_max_mb: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
    /** A growing publish session goes up in a piece this often (default 10 s). */
    slice_seconds: Type.Optional(Seconds(1, 300)),
    /** Longest wait between tries of one upload (default 30 s); tests shorten it. */
    retry_max_seconds: Type.Optional(Seconds(1, 600)),
    /** Time limit of one call to the bucket (default 30 s; connecting: 3 s). */
    timeout_seconds: Type.Optional(Seconds(1, 600)),
  },
  { additionalProperties: false },
);

/** The config file (`<data dir>/config.json`); every key optional, defaults fill the rest. */
export const ConfigFileSchema = Type.Object(
  {
    host: Type.Optional(Type.String({ minLength: 1, maxLength: 253 })),
    listen_host: Type.Optional(Type.String({ minLength: 1 })),
    api_port: Type.Optional(Port),
    rtmp_port: Type.Optional(Port),
    cdn_port: Type.Optional(Port),
    player_port: Type.Optional(Port),
    postgres_port: Type.Optional(Port),
    /**
     * API worker processes behind nginx on `api_port` (docs/decisions.md, The read path); 0: the
     * appliance's own process serves the API alone. Default: none below 4 cores, else half the cores, at most 4.
     */
    api_workers: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_API_WORKERS })),
    /**
     * Load balancers in front of the API (addresses or CIDR ranges): their `X-Forwarded-For` names
     * the caller, whose address the public endpoints' limits count (docs/operations.md, Several API nodes).
     */
    trusted_proxies: Type.Optional(
      Type.Array(Type.String({ minLength: 2, maxLength: 64, pattern: '^[0-9A-Fa-f.:]+(/[0-9]{1,3})?$' }), {
        maxItems: 64,
      }),
    ),
    /** Prometheus metrics at `/metrics` on their own listener; null (the default): no listener. */
    metrics_port: Type.Optional(Type.Union([Port, Type.Null()])),
    /** Where that listener listens: loopback unless the operator's Prometheus is elsewhere. */
    metrics_host: Type.Optional(Type.String({ minLength: 1 })),
    database_url: Type.Optional(Type.Union([Type.String({ pattern: '^postgres(ql)?://' }), Type.Null()])),
    postgres_bin_dir: Type.Optional(Type.String({ minLength: 1 })),
    public_urls: Type.Optional(
      Type.Object(
        {
          base_url: Type.Optional(Url),
          player_url: Type.Optional(Url),
          cdn_url: Type.Optional(Url),
          rtmp_url: Type.Optional(Url),
          whip_url: Type.Optional(Url),
          /** The host publishers reach the SRT ports at (`srt_url`); default `host`. */
          srt_host: Type.Optional(Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.:\\[\\]-]+$' })),
        },
        { additionalProperties: false },
      ),
    ),
    /** null or absent: plain http (behind the operator's own TLS, or on a trusted network). */
    tls: Type.Optional(Type.Union([TlsSettings, Type.Null()])),
    allow_private_webhooks: Type.Optional(Type.Boolean()),
    /** Restreaming outputs (docs/decisions.md, "Restreaming") to private networks and loopback: off unless the operator allows them. */
    allow_private_outputs: Type.Optional(Type.Boolean()),
    /** The CA bundle an RTMPS output's certificate is verified against (default: the system's). */
    output_ca_file: Type.Optional(Type.String({ minLength: 1 })),
    /** null or absent: recordings stay in the data dir (the one-box default). */
    storage: Type.Optional(Type.Union([StorageSettings, Type.Null()])),
    log_level: Type.Optional(
      Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
    ),
    reservation_seconds: Type.Optional(Type.Integer({ minimum: 10 })),
    expiry_check_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 59 })),
    live: Type.Optional(Type.Partial(LiveSettings, { additionalProperties: false })),
    /**
     * This machine as a node of the cluster (docs/decisions.md, "Ingest nodes"); written by
     * `svc init` (the primary) or `svc node join` (an ingest node), never by hand.
     */
    node: Type.Optional(
      Type.Object(
        {
          id: Type.String({ pattern: '^nod_[a-z0-9]{20}$' }),
          name: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$' }),
          /** `primary`: API, origin, jobs and ingest; `ingest`: publishers and ladders only. */
          role: Type.Union([Type.Literal('primary'), Type.Literal('ingest')]),
          /** An ingest node's origin (the primary's CDN port), where it writes live media. */
          origin_url: Type.Optional(Url),
        },
        { additionalProperties: false },
      ),
    ),
    capacity: Type.Optional(Type.Partial(CapacitySettings, { additionalProperties: false })),
    recordings: Type.Optional(Type.Partial(RecordingSettings, { additionalProperties: false })),
    viewers: Type.Optional(Type.Partial(ViewerSettings, { additionalProperties: false })),
    logs: Type.Optional(Type.Partial(LogSettings, { additionalProperties: false })),
    billing: Type.Optional(Type.Partial(BillingSettings, { additionalProperties: false })),
    cdn: Type.Optional(Type.Partial(CdnSettings, { additionalProperties: false })),
    whip: Type.Optional(Type.Partial(WhipSettings, { additionalProperties: false })),
    srt: Type.Optional(Type.Partial(SrtSettings, { additionalProperties: false })),
    chat: Type.Optional(Type.Partial(ChatConfig, { additionalProperties: false })),
    limits: Type.Optional(
      Type.Object(
        { new: Type.Optional(Type.Partial(AccountLimits)), trusted: Type.Optional(Type.Partial(AccountLimits)) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type ConfigFile = Static<typeof ConfigFileSchema>;
export type AccountLimits = Static<typeof AccountLimits>;
export type LiveSettings = Static<typeof LiveSettings>;
export type StreamCosts = Static<typeof StreamCosts>;
export type RecordingSettings = Static<typeof RecordingSettings>;
export type ViewerSettings = Static<typeof ViewerSettings>;
export type LogSettings = Static<typeof LogSettings>;
export type BillingRates = Static<typeof BillingRates>;
export type BillingSettings = Omit<Static<typeof BillingSettings>, 'rates'> & { rates: BillingRates };
export type CdnSettings = Static<typeof CdnSettings>;
export type WhipSettings = Static<typeof WhipSettings>;
export type SrtSettings = Static<typeof SrtSettings>;
export type ChatConfig = Static<typeof ChatConfig>;
export type TlsSettings = Static<typeof TlsSettings>;
export type StorageSettings = Static<typeof StorageSettings>;
