import { createTransport } from 'nodemailer';

/** What the dispatcher needs of a mail transport (a nodemailer transporter fits). */
export interface MailTransport {
  sendMail(message: {
    from: string;
    to: string;
    subject: string;
    text: string;
    attachments?: { filename: string; contentType: string; content: Buffer }[];
  }): Promise<unknown>;
  close?(): void;
}

/**
 * SMTP over SMTP_URL (smtp://user:pass@host:587, smtps://... for implicit TLS).
 * Timeouts stay well under the dispatcher's claim lease, so a hung server
 * never makes a claimed mail look abandoned while it is still being sent.
 */
export function createMailTransport(smtpUrl: string): MailTransport {
  return createTransport({
    url: smtpUrl,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
}
