const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
export const TERMINAL_SECRET_LENGTH = 16;

/** A random terminal password from the CSPRNG; look-alike characters (0/O, 1/l/I) are left out so it can be typed into a terminal. */
export function generateTerminalSecret(length = TERMINAL_SECRET_LENGTH): string {
  const out: string[] = [];
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      // Rejection sampling keeps every character equally likely.
      if (b < 256 - (256 % ALPHABET.length) && out.length < length) out.push(ALPHABET[b % ALPHABET.length]!);
    }
  }
  return out.join('');
}
