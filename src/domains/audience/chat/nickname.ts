import { ApiError } from '../../../core/errors.js';

/**
 * Nicknames anonymous viewers choose (docs/decisions.md, "Hardening: nicknames"): a nickname
 * must not pass for a verified name, a role or nothing at all.
 */

export const MAX_NICKNAME = 40;

/** Emoji joiners and presentation selectors between pictographs are part of the picture, not hidden text. */
const EMOJI_JOINERS =
  /(?<=\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?)\u200D(?=\p{Extended_Pictographic})|(?<=\p{Extended_Pictographic}|[#*0-9])(?:\uFE0E|\uFE0F)/gu;
/** Format characters (zero-width spaces and joiners, direction marks, tags), other default-ignorables (Hangul fillers), the Braille blank. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u;
/** Check marks and their look-alikes: the chat marks verified names with one. */
const CHECK_MARKS = /[\u2713\u2714\u2705\u2611\u221A\u237B\u{1F5F8}\u{1F5F9}\u{10102}]/u;
/** Words of roles the chat shows itself. */
const ROLE_WORDS = new Set([
  'mod',
  'mods',
  'moderator',
  'moderators',
  'admin',
  'admins',
  'administrator',
  'owner',
  'verified',
  'official',
  'staff',
  'system',
]);
/** Role words long enough to refuse anywhere in a nickname ("TheModerator", "m.o.d.e.r.a.t.o.r"). */
const ROLE_STEMS = ['moderator', 'administrator', 'verified'];
/**
 * Letters that look like Latin ones (Cyrillic, Greek) and digits read as letters: NFKC keeps them
 * apart, a reader does not. Not every confusable of Unicode: the ones a keyboard types.
 */
const LOOK_ALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ԁ: 'd',
  ѕ: 's',
  ո: 'n',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

const refuse = (why: string) => new ApiError('invalid_request', `\`nickname\` ${why}`, { field: 'nickname' });

/** Look-alikes folded to Latin, case folded: what a reader takes the name to say. */
function readAs(name: string): string {
  return [...name.normalize('NFKC').toUpperCase().toLowerCase()].map((c) => LOOK_ALIKES[c] ?? c).join('');
}

/** A name as compared with another: read as, letters and digits only. */
export function nameKey(name: string): string {
  return readAs(name).replace(/[^\p{L}\p{N}]/gu, '');
}

/** The words of a name, camel case split ("ModBob" is "mod bob"). */
function words(name: string): string[] {
  const split = [...name.normalize('NFKC')]
    .map((c) => LOOK_ALIKES[c.toLowerCase()] ?? c)
    .join('')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2');
  return readAs(split)
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
}

/**
 * The nickname to show (NFKC-normalised, one line, 1-40 characters), or `400 invalid_request`
 * naming `nickname` and saying why. `verified` holds the `nameKey`s of the stream's verified names.
 */
export function checkNickname(raw: string, verified: ReadonlySet<string>): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000e-\u001f\u007f]/.test(raw)) throw refuse('contains control characters.');
  const name = raw.normalize('NFKC').replace(/\s+/g, ' ').trim();
  if (INVISIBLE.test(name.replace(EMOJI_JOINERS, '')))
    throw refuse('contains invisible characters (zero-width, direction or filler characters).');
  if (!name || !/[^\p{M}\p{Z}]/u.test(name)) throw refuse('is empty: choose a name people can see.');
  if ([...name].length > MAX_NICKNAME) throw refuse(`is longer than ${MAX_NICKNAME} characters.`);
  if (CHECK_MARKS.test(name)) throw refuse('may not contain a check mark: the chat marks verified names with one.');
  const squashed = nameKey(name).replace(/\p{N}/gu, '');
  if (
    words(name).some((w) => ROLE_WORDS.has(w)) ||
    ROLE_WORDS.has(squashed) ||
    ROLE_STEMS.some((stem) => squashed.includes(stem))
  ) {
    throw refuse('may not name a role (moderator, mod, admin, owner, verified, ...): the chat shows roles itself.');
  }
  if (verified.has(nameKey(name))) throw refuse('is the name of a verified viewer of this stream: choose another.');
  return name;
}
