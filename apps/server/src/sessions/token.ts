import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits from the CSPRNG; only the SHA-256 of it is stored. */
export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
