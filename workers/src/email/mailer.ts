import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface MailMessage {
  to: { address: string; name: string };
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
  /** Stable across retries (`<...@...>`), so a duplicate is recognisable as one. */
  messageId: string;
  /** Names the outbox file; the same key overwrites the same file. */
  key: string;
}

export interface MailSent {
  messageId: string;
  transport: 'smtp' | 'outbox';
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<MailSent>;
  close(): Promise<void>;
}

/**
 * SMTP when `SMTP_URL` is set; otherwise each message is written as an .eml
 * file under `<DATA_DIR>/outbox`, which any mail client opens.
 */
export function createMailer(options: { smtpUrl?: string | undefined; outboxDir: string; from: string }): Mailer {
  const mailOptions = (message: MailMessage) => ({
    from: options.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    attachments: message.attachments,
    messageId: message.messageId,
  });
  if (options.smtpUrl) {
    const transporter: Transporter = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return {
      transport: 'smtp',
      async send(message) {
        await transporter.sendMail(mailOptions(message));
        return { messageId: message.messageId, transport: 'smtp' };
      },
      async close() {
        transporter.close();
      },
    };
  }
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    transport: 'outbox',
    async send(message) {
      const info = (await transporter.sendMail(mailOptions(message))) as { message: Buffer };
      await mkdir(options.outboxDir, { recursive: true });
      const target = join(options.outboxDir, `${message.key.replace(/[^A-Za-z0-9_-]/g, '_')}.eml`);
      const temporary = `${target}.tmp`;
      await writeFile(temporary, info.message);
      await rename(temporary, target);
      return { messageId: message.messageId, transport: 'outbox' };
    },
    async close() {
      transporter.close();
    },
  };
}

/**
 * A refusal the server will repeat (SMTP 5xx: unknown mailbox, rejected
 * domain, message refused). Authentication failures are left retryable: they
 * are a configuration problem that an operator fixes, not a bad address.
 */
export function isPermanentMailError(error: unknown): boolean {
  const { responseCode, code } = (error ?? {}) as { responseCode?: unknown; code?: unknown };
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && code !== 'EAUTH';
}
