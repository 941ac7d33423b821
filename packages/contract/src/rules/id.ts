import { errorMessages } from '../messages.js';

export const ID_MIN_LENGTH = 8;
export const ID_MAX_LENGTH = 16;
export const ID_MAX_ATTEMPTS = 10;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Random bytes from the platform's CSPRNG (Web Crypto exists in browsers and Node ≥ 19). */
const cryptoBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

/** Letters and digits: the first character is one of them (the alphabet's first 62). */
const LEADING = 62;

/**
 * A random base64 (URL-safe alphabet, so it can sit in a route) id of 8-16
 * characters (docs/product.md §5). It starts with a letter or digit: an id beginning
 * with "-" or "_" reads like an option on a command line and like a typo on screen.
 */
export function generateId(bytes: (n: number) => Uint8Array = cryptoBytes): string {
  const [lenByte, ...rest] = bytes(ID_MAX_LENGTH + 1);
  const length = ID_MIN_LENGTH + ((lenByte ?? 0) % (ID_MAX_LENGTH - ID_MIN_LENGTH + 1));
  return rest
    .slice(0, length)
    .map((b, i) => ALPHABET[i === 0 ? b % LEADING : b & 63])
    .join('');
}

export class IdGenerationError extends Error {
  constructor(readonly attempts: number) {
    super(errorMessages.idGenerationFailed);
    this.name = 'IdGenerationError';
  }
}

/**
 * Generates ids until `isTaken` says one is free, at most 10 attempts
 * (docs/product.md §5), then fails with IdGenerationError.
 */
export async function generateUniqueId(
  isTaken: (id: string) => Promise<boolean> | boolean,
  bytes?: (n: number) => Uint8Array,
): Promise<string> {
  for (let attempt = 1; attempt <= ID_MAX_ATTEMPTS; attempt++) {
    const id = generateId(bytes);
    if (!(await isTaken(id))) return id;
  }
  throw new IdGenerationError(ID_MAX_ATTEMPTS);
}
