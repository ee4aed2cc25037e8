import { hash, randomInt } from 'node:crypto';

const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomString(length: number, alphabet: string): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** Opaque id with the spec's prefix, e.g. `str_` + 20 lowercase letters and digits. */
export const newId = (prefix: string, length = 20): string => prefix + randomString(length, LOWER_ALNUM);

/** A secret with about 190 bits of entropy (32 characters of base62). */
export const newSecret = (prefix = '', length = 32): string => prefix + randomString(length, ALNUM);

/** One-shot (no `Hash` object): API keys are hashed on every request. */
export const sha256 = (value: string): Buffer => hash('sha256', value, 'buffer');
