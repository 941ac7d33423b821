import { SMTPServer } from 'smtp-server';

/** A mail as the receiver got it, headers and body decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** Files of a multipart/mixed mail (a report's workbook), decoded. */
  attachments: { filename: string; contentType: string; content: Buffer }[];
  raw: string;
}

export interface SmtpReceiver {
  port: number;
  url: string;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** RFC 2047 encoded words (=?UTF-8?B?...?= / ?Q?), as nodemailer writes Japanese subjects. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function splitPart(raw: string) {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim());
  }
  return { headers, body: raw.slice(split + 4) };
}

const textOf = (part: { headers: Map<string, string>; body: string }) =>
  decodeBody(part.body, (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase())
    .replace(/\r\n/g, '\n')
    .replace(/\n$/, '');

/** Parses the mails the dispatcher sends: plain text, or multipart/mixed with the text and its files. */
export function parseMail(raw: string, envelope: { from: string; to: string[] }): ReceivedMail {
  const { headers, body } = splitPart(raw);
  const subject = decodeWords(headers.get('subject') ?? '');
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1];
  if (!boundary) return { ...envelope, subject, text: textOf({ headers, body }), attachments: [], raw };
  const parts = body
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .map((p) => splitPart(p.replace(/^\r\n/, '').replace(/\r\n$/, '')));
  const text = parts.find((p) => (p.headers.get('content-type') ?? '').startsWith('text/plain'));
  const attachments = parts
    .filter((p) => /attachment/i.test(p.headers.get('content-disposition') ?? ''))
    .map((p) => ({
      filename: decodeWords(/filename="?([^";]+)"?/i.exec(p.headers.get('content-disposition') ?? '')?.[1] ?? ''),
      contentType: (p.headers.get('content-type') ?? '').split(';')[0]!.trim(),
      content: Buffer.from(p.body.replace(/\s+/g, ''), 'base64'),
    }));
  return { ...envelope, subject, text: text ? textOf(text) : '', attachments, raw };
}

/** A real SMTP server on a loopback port (0: any free one) that keeps every mail it accepts. */
export async function startSmtpReceiver(port = 0): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        mails.push(parseMail(Buffer.concat(chunks).toString('latin1'), envelope));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    port: bound,
    url: `smtp://127.0.0.1:${bound}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
