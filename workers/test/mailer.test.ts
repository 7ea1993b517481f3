import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer, isPermanentMailError } from '../src/email/mailer.js';
import { decodeHeader } from './support/smtp-catcher.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('mailer without SMTP_URL', () => {
  it('writes an .eml file under the outbox that a mail client opens, one per message key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fsm-outbox-'));
    dirs.push(dir);
    const mailer = createMailer({ outboxDir: join(dir, 'outbox'), from: 'Agence <no-reply@localhost>' });
    expect(mailer.transport).toBe('outbox');
    const message = {
      to: { address: 'claire@example.fr', name: 'Claire Martin' },
      subject: "Rapport d'intervention – ticket LYO-2026-00042",
      text: 'Bonjour Claire Martin,',
      html: '<p>Bonjour Claire Martin,</p>',
      attachments: [{ filename: 'rapport.pdf', content: Buffer.from('%PDF-1.3 test'), contentType: 'application/pdf' }],
      messageId: '<report-1@fsm-tickets>',
      key: 'LYO-2026-00042-1',
    };
    expect(await mailer.send(message)).toEqual({ messageId: '<report-1@fsm-tickets>', transport: 'outbox' });
    await mailer.send(message);
    const files = await readdir(join(dir, 'outbox'));
    expect(files).toEqual(['LYO-2026-00042-1.eml']);
    const eml = (await readFile(join(dir, 'outbox', files[0]!), 'utf8')).replace(/\r?\n[ \t]+/g, ' ');
    expect(eml).toMatch(/^To: Claire Martin <claire@example\.fr>$/m);
    expect(decodeHeader(/^Subject: (.*)$/m.exec(eml)![1]!)).toBe("Rapport d'intervention – ticket LYO-2026-00042");
    expect(eml).toContain('filename=rapport.pdf');
    await mailer.close();
  });
});

describe('which SMTP failures are permanent', () => {
  it('5xx refusals are; 4xx, network and authentication failures are retried', () => {
    expect(isPermanentMailError({ responseCode: 550, code: 'EENVELOPE' })).toBe(true);
    expect(isPermanentMailError({ responseCode: 554, code: 'EMESSAGE' })).toBe(true);
    expect(isPermanentMailError({ responseCode: 451, code: 'EENVELOPE' })).toBe(false);
    expect(isPermanentMailError({ responseCode: 535, code: 'EAUTH' })).toBe(false);
    expect(isPermanentMailError({ code: 'ECONNECTION' })).toBe(false);
    expect(isPermanentMailError(new Error('boom'))).toBe(false);
  });
});
