import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { mailboxFile } from './global-setup';

export interface Mail {
  to: string[];
  subject: string;
  text: string;
}

/** Waits for a mail to `address` that matches, and returns it. */
export async function waitForMail(address: string, match: (m: Mail) => boolean = () => true): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      () => {
        const mails = JSON.parse(readFileSync(mailboxFile, 'utf8')) as Mail[];
        found = mails.find((m) => m.to.includes(address) && match(m));
        return !!found;
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBe(true);
  return found!;
}
