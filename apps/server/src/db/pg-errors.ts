/** PostgreSQL error codes we turn into API answers (same on pg and PGlite). */
const UNIQUE_VIOLATION = '23505';

/** A unique index refused the row; `constraint` narrows it to one index. */
export const isUniqueViolation = (e: unknown, constraint?: string): boolean => {
  const err = e as { code?: string; constraint?: string; message?: string };
  if (err?.code !== UNIQUE_VIOLATION) return false;
  return !constraint || err.constraint === constraint || (err.message ?? '').includes(constraint);
};
