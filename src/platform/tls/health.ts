import { Type, type Static } from '@sinclair/typebox';
import type { TlsStatus } from './keeper.js';

/** The served certificate as `/healthz` and the dashboard report it (docs/decisions.md, "Public edge"). */
export const CertificateHealth = Type.Object({
  state: Type.Union(
    ['valid', 'expiring', 'renewal_failing', 'expired'].map((s) => Type.Literal(s)),
    {
      description:
        '`expiring`: fewer days left than the warning threshold; `renewal_failing`: the last renewal failed and is retried (the current certificate is still served); `expired`: clients refuse it',
    },
  ),
  not_after: Type.String({ description: 'When the served certificate expires' }),
  days_left: Type.Number(),
  last_error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last renewal failed' }),
});
export type CertificateHealth = Static<typeof CertificateHealth>;

export const certificateHealth = (s: TlsStatus): CertificateHealth => ({
  state: s.state,
  not_after: s.not_after,
  days_left: s.days_left,
  last_error: s.last_error,
});
