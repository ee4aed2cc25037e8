import { SHARED_SCHEMAS } from '../domains/streams/schemas.js';
import { CHANNEL_SCHEMAS } from '../domains/streams/channels/schemas.js';
import { WEBHOOK_SCHEMAS } from '../domains/back-office/webhooks/schemas.js';
import { EMBED_SCHEMAS } from '../domains/surfaces/embed/schemas.js';
import { IDENTITY_SCHEMAS } from '../domains/audience/identity/schemas.js';
import { BAN_SCHEMAS } from '../domains/audience/bans/schemas.js';
import { MODERATOR_SCHEMAS } from '../domains/audience/moderators/schemas.js';
import { ATTENDANCE_SCHEMAS } from '../domains/audience/attendance/schemas.js';
import { CHAT_SCHEMAS } from '../domains/audience/chat/schemas.js';
import { OUTPUT_SCHEMAS } from '../domains/engine/outputs/schemas.js';
import { BalanceEventData, Usage } from '../domains/ledger/billing/schemas.js';

/**
 * The schemas routes share by `$ref`, which the OpenAPI document lists as its components. They are
 * added on the root, before any routes plugin: a `$ref` resolves only to a schema of the route's own
 * scope or one above it, and several cross domains (the chat moderator's ban answers bans' `Ban`,
 * the embed answers identity's `ViewerSession`, the `webhooks` section refers to `Stream` and
 * billing's `BalanceEventData`). The document lists them in the order they are added, which the
 * published docs/openapi.json fixes: schemas added by each plugin in its own scope would come out
 * in the order of the routes instead.
 */
export const COMPONENTS = [
  ...SHARED_SCHEMAS,
  ...CHANNEL_SCHEMAS,
  ...WEBHOOK_SCHEMAS,
  ...EMBED_SCHEMAS,
  ...IDENTITY_SCHEMAS,
  ...BAN_SCHEMAS,
  ...MODERATOR_SCHEMAS,
  ...ATTENDANCE_SCHEMAS,
  ...CHAT_SCHEMAS,
  ...OUTPUT_SCHEMAS,
  Usage,
  BalanceEventData,
];
