import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import { MAX_INPUT_DEPTH } from './input-guard.js';

/**
 * The deepest JSON document read at all. Values deeper than MAX_INPUT_DEPTH are
 * refused after parsing (a console call's 400, a terminal's one rejected record);
 * a document deeper than this is refused as a whole before JSON.parse runs, since
 * parsing and walking millions of levels cost seconds of CPU (docs/security.md §5).
 */
export const MAX_DOCUMENT_DEPTH = 2 * MAX_INPUT_DEPTH;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests deeper than `max`. Nesting needs an opening bracket a level, so a text with no
 * more than `max` of them (counted in strings too, by indexOf: a terminal's batch of 50 records has 52) is
 * answered without reading it through; otherwise scanDepth reads it.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  return !atMostOpenings(text, max) && scanDepth(text, max);
}

/** Whether the text holds at most `max` opening brackets ('{' or '['), in strings or not. */
function atMostOpenings(text: string, max: number): boolean {
  let n = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++n > max) return false;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++n > max) return false;
  return true;
}

/**
 * Whether JSON text nests deeper than `max`: one pass over the characters, brackets inside strings skipped
 * (a string is jumped over to its closing quote by indexOf: a batch's text is mostly keys and times).
 */
export function scanDepth(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return false; // an unterminated string: JSON.parse refuses the text
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

/** Whether the quote at `at` is escaped: an odd run of backslashes before it. */
function escaped(text: string, at: number): boolean {
  let n = 0;
  while (text.charCodeAt(at - 1 - n) === BACKSLASH) n++;
  return n % 2 === 1;
}

export const tooDeep = () => new AppError(400, 'BAD_REQUEST', 'JSONの入れ子が深すぎます。');

const hasUnicodeEscape = (text: string) => text.indexOf('\\u') !== -1;
const namesPoisonKey = (text: string) => text.indexOf('__proto__') !== -1 || text.indexOf('constructor') !== -1;

/**
 * Whether JSON text cannot hold a `__proto__` or `constructor` key, the keys Fastify's parser refuses
 * (prototype poisoning): it has neither word and no `\u` escape, the only JSON escape that spells a letter.
 * Such a text (every terminal batch) is parsed by JSON.parse alone, without the parser's two scans for them.
 */
export function cannotPoison(text: string): boolean {
  return !hasUnicodeEscape(text) && !namesPoisonKey(text);
}

/**
 * Requests whose JSON body had no `\u` escape. A body is read as UTF-8 (which decodes no lone surrogate: a
 * malformed sequence becomes U+FFFD) and JSON.parse refuses a raw control character in a string, so without
 * that escape none of the body's strings or keys holds U+0000 or a lone surrogate (input-guard.ts): the
 * gateway then checks only its numbers and depth.
 */
const escapeFree = new WeakSet<FastifyRequest>();
export const bodyWithoutEscapes = (request: FastifyRequest) => escapeFree.has(request);

/** Fastify's JSON parser (prototype poisoning refused) behind the depth check. */
export function registerJsonBodyParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (nestsDeeperThan(text, MAX_DOCUMENT_DEPTH)) return done(tooDeep(), undefined);
    // cannotPoison, with its escape scan done once and kept for the gateway.
    const escapes = hasUnicodeEscape(text);
    if (!escapes) escapeFree.add(request);
    if (!escapes && !namesPoisonKey(text)) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return parse(request, text, done); // Fastify's parser answers broken or empty JSON with its own 400
      }
      return done(null, value);
    }
    return parse(request, text, done);
  });
}
