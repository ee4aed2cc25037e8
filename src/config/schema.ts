import { Type, type Static } from '@sinclair/typebox';

const Port = Type.Integer({ minimum: 1, maximum: 65535 });
const Url = Type.String({ minLength: 1, maxLength: 2000, pattern: '^(https?|rtmps?)://' });

const AccountLimits = Type.Object(
  {
    pending_streams: Type.Integer({ minimum: 0 }),
    creations_per_hour: Type.Integer({ minimum: 0 }),
    max_resolution: Type.Union([Type.Literal(480), Type.Literal(720), Type.Literal(1080)]),
    max_duration_seconds: Type.Integer({ minimum: 60 }),
    live_at_once: Type.Integer({ minimum: 0 }),
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
        },
        { additionalProperties: false },
      ),
    ),
    allow_private_webhooks: Type.Optional(Type.Boolean()),
    log_level: Type.Optional(
      Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
    ),
    reservation_seconds: Type.Optional(Type.Integer({ minimum: 10 })),
    expiry_check_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 59 })),
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
