import { KEYED, operations } from '../../../platform/http/openapi.js';

/** The usage operation as the API reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Usage'], security: KEYED },
  {
    getUsage: {
      summary: 'Usage, balance and rates',
      description:
        'The balance (credit minus everything charged), the available amount (the balance minus what live ' +
        'streams used and is not charged yet), the rates, and per UTC day each item’s quantity and amount, ' +
        'the credit added and the closing balance: the days add up to the balance to the micro-dollar. Ingest ' +
        'and storage are charged per closed minute and hour; delivery as the CDN logs are read (about a ' +
        'minute behind).',
    },
  },
);
