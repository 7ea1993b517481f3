import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/*
 * An SMTP server inside the test (the `smtp-server` package): counts what it
 * ACCEPTED (answered 250 to), can refuse recipients with 550, and can hold a
 * message's final answer so a test can kill the sender in the middle.
 */

interface CaughtMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

export interface SmtpCatcher {
  url: string;
  accepted: CaughtMail[];
  /** Messages whose data arrived, accepted or not. */
  received: number;
  /** While set, answers to DATA wait for this promise (resolve it to accept, reject to refuse). */
  hold: Promise<void> | null;
  onData: (() => void) | null;
  rejectRecipients: Set<string>;
  /** Recipient -> how many more times to answer 451 (try again later). */
  deferRecipients: Map<string, number>;
  close(): Promise<void>;
}

export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const catcher: SmtpCatcher = {
    url: '',
    accepted: [],
    received: 0,
    hold: null,
    onData: null,
    rejectRecipients: new Set(),
    deferRecipients: new Map(),
    close: async () => undefined,
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const deferrals = catcher.deferRecipients.get(address.address.toLowerCase()) ?? 0;
      if (deferrals > 0) {
        catcher.deferRecipients.set(address.address.toLowerCase(), deferrals - 1);
        const error = new Error('Réessayez plus tard') as Error & { responseCode: number };
        error.responseCode = 451;
        return callback(error);
      }
      if (catcher.rejectRecipients.has(address.address.toLowerCase())) {
        const error = new Error('Boîte inconnue') as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        catcher.received++;
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail: CaughtMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          subject: decodeHeader(header(raw, 'subject')),
          attachments: attachments(raw),
        };
        catcher.onData?.();
        const hold = catcher.hold;
        if (!hold) {
          catcher.accepted.push(mail);
          return callback();
        }
        hold.then(
          () => {
            catcher.accepted.push(mail);
            callback();
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  catcher.url = `smtp://127.0.0.1:${port}`;
  catcher.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return catcher;
}

// --- a little MIME reading, enough for nodemailer's output -----------------

function unfold(headers: string): string {
  return headers.replace(/\r?\n[ \t]+/g, ' ');
}

function header(part: string, name: string): string {
  const head = unfold(part.split(/\r?\n\r?\n/)[0] ?? '');
  const match = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head);
  return match?.[1]?.trim() ?? '';
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=). */
export function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) => {
      if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
      const bytes = text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      return Buffer.from(bytes, 'latin1').toString('utf8');
    });
}

function attachments(raw: string): CaughtMail['attachments'] {
  const found: CaughtMail['attachments'] = [];
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((match) => match[1]!);
  for (const boundary of boundaries) {
    for (const part of raw.split(`--${boundary}`)) {
      const disposition = header(part, 'content-disposition');
      if (!/attachment/i.test(disposition)) continue;
      const filename = decodeHeader(/filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? '');
      const body = part.split(/\r?\n\r?\n/).slice(1).join('\n\n');
      const encoding = header(part, 'content-transfer-encoding').toLowerCase();
      found.push({
        filename,
        contentType: header(part, 'content-type').split(';')[0]?.trim() ?? '',
        content: encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : Buffer.from(body, 'utf8'),
      });
    }
  }
  return found;
}
