import { createHash, randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketReportsAnswerSchema, reportStreamId, ticketStreamId, type TicketReportsAnswer } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import { startWorkers, type RunningWorkers } from '@fsm/workers';
import { pdfText, startSmtpCatcher, type SmtpCatcher } from '@fsm/workers/test-support';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';
import { obliterateQueues, reportTickets, visitData } from './support/report-tickets.js';

/*
 * The report calls of tickets.md §7 on the real app, with the real workers
 * (reactor, BullMQ on Redis, render thread) and an SMTP server run by the
 * test. Tickets are created with the ticket decider, as the ticket routes do.
 */

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `test-api-reports-${randomUUID().slice(0, 8)}`;
let h: ApiHarness;
let smtp: SmtpCatcher;
let workers: RunningWorkers;
let agenceId: string;
let tech: TestUser;

beforeAll(async () => {
  h = await createApiHarness('api_reports');
  smtp = await startSmtpCatcher();
  workers = await startWorkers({
    env: { ...h.deps.env, REDIS_URL: redisUrl, SMTP_URL: smtp.url },
    pool: h.pool,
    store: h.store,
    logger: pino({ level: 'silent' }),
    queuePrefix: prefix,
    backoffMs: 100,
  });
  agenceId = await h.createAgence('Agence Lyon Sécurité Incendie');
  tech = await h.createUser({ role: 'technicien', agenceId });
});

afterAll(async () => {
  await workers?.close();
  await obliterateQueues(redisUrl, prefix);
  await smtp?.close();
  await h?.close();
});

const { run, openTicket, visit } = reportTickets(() => ({ h, agenceId, tech }));

const reportBody = {
  signature: { client: 'data:image/png;base64,AAAA', technicien: 'data:image/png;base64,AAAA' },
  demandeur: { prenom: 'Claire', nom: 'Martin', email: 'claire@example.fr' },
  technicien: { nom: 'Durand', prenom: 'Paul' },
};

async function streamEvents(stream: string): Promise<RecordedEvent[]> {
  try {
    return await h.store.readStream(stream);
  } catch {
    return [];
  }
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('POST /api/reports/{ticketId}.pdf', () => {
  let ticketId: string;
  let filename: string;

  it('refuses a ticket that is not closed yet', async () => {
    ticketId = await openTicket('LYO-2026-00101');
    const res = await h.request(tech, { method: 'POST', url: `/api/reports/${ticketId}.pdf?isReintervention=false`, payload: reportBody });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Le rapport ne peut être joint qu’à un ticket clos.');
  });

  it('answers once the workers have rendered it; asking again gives the same report', async () => {
    await run(ticketId, { type: 'CloseTicket', data: { ...visitData, ...(await visit()) } });
    const first = await h.request(tech, { method: 'POST', url: `/api/reports/${ticketId}.pdf?isReintervention=false`, payload: reportBody });
    expect(first.statusCode).toBe(200);
    const body = first.json();
    // The link carries a short-lived token bound to this file (test/security/tokens.test.ts).
    expect(body).toEqual({ success: true, downloadUrl: expect.stringMatching(/^\/api\/reports\/download\/[^?]+\?token=[\w.-]+$/), filename: expect.stringMatching(/^rapport-LYO-2026-00101-[0-9a-f]{8}\.pdf$/) });
    expect(body.downloadUrl.startsWith(`/api/reports/download/${body.filename}?token=`)).toBe(true);
    filename = body.filename;
    const again = await h.request(tech, { method: 'POST', url: `/api/reports/${ticketId}.pdf`, payload: reportBody });
    expect(again.json()).toMatchObject({ success: true, filename: body.filename });

    const closed = (await h.store.readStream(ticketStreamId(ticketId))).find((event) => event.type === 'TicketClosed')!;
    const events = await streamEvents(reportStreamId(closed.id));
    expect(events.filter((event) => event.type === 'ReportGenerated')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'ReportRequested').length).toBeLessThanOrEqual(1);
  });

  it('serves the PDF to a download link the screens ask for, for the ticket’s agency only', async () => {
    // Any staff member of the agency may open a report: no tickets.devis needed for the link.
    const reader = await h.createUser({ role: 'technicien', agenceId, permissions: [] });
    const link = await h.request(reader, { method: 'GET', url: `/api/reports/download/${filename}/link` });
    expect(link.statusCode).toBe(200);
    expect(link.headers['cache-control']).toBe('no-store');
    expect(link.json()).toEqual({ success: true, filename, downloadUrl: expect.stringMatching(new RegExp(`^/api/reports/download/${filename}\\?token=[\\w.-]+$`)) });
    const res = await h.request(null, { method: 'GET', url: link.json().downloadUrl });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = res.rawPayload;
    const { rows } = await h.pool.query<{ sha256: string }>('SELECT sha256 FROM rm.reports WHERE filename = $1', [filename]);
    expect(createHash('sha256').update(pdf).digest('hex')).toBe(rows[0]!.sha256);
    const text = pdfText(pdf);
    expect(text).toContain('Ticket n° LYO-2026-00101');
    expect(text).toContain('Signé par : Claire Martin');
    expect(text).not.toContain('{{');

    expect((await h.request(tech, { method: 'GET', url: `/api/reports/download/${filename}` })).statusCode).toBe(200);
    expect((await h.request(null, { method: 'GET', url: `/api/reports/download/${filename}` })).statusCode).toBe(401);
    expect((await h.request(null, { method: 'GET', url: `/api/reports/download/${filename}?token=forged` })).statusCode).toBe(401);
    // A session token opens a download only as a bearer header, never from a URL (issue 17).
    const inUrl = await h.request(null, { method: 'GET', url: `/api/reports/download/${filename}?token=${encodeURIComponent(tech.token)}` });
    expect(inUrl.statusCode).toBe(401);
    expect(inUrl.json().error).toBe('Lien de téléchargement invalide.');
    const stranger = await h.createUser({ role: 'technicien' });
    expect((await h.request(stranger, { method: 'GET', url: `/api/reports/download/${filename}` })).statusCode).toBe(404);
    expect((await h.request(stranger, { method: 'GET', url: `/api/reports/download/${filename}/link` })).statusCode).toBe(404);
    const veille = await h.createUser({ role: 'telesurveillance', telesurvAgences: [agenceId] });
    expect((await h.request(veille, { method: 'GET', url: `/api/reports/download/${filename}/link` })).statusCode).toBe(403);
    for (const bad of ['..%2F..%2Fetc%2Fpasswd', '%2E%2E', 'rapport.pdf%00.txt', 'rapport..pdf']) {
      const response = await h.request(tech, { method: 'GET', url: `/api/reports/download/${bad}` });
      expect([400, 404]).toContain(response.statusCode);
    }
    expect((await h.request(tech, { method: 'GET', url: '/api/reports/download/rapport-inconnu-00000000.pdf' })).statusCode).toBe(404);
  });

  it('needs the tickets.devis permission and a staff account', async () => {
    const noDevis = await h.createUser({ role: 'technicien', agenceId, permissions: [] });
    expect((await h.request(noDevis, { method: 'POST', url: `/api/reports/${ticketId}.pdf`, payload: reportBody })).statusCode).toBe(403);
    const veille = await h.createUser({ role: 'telesurveillance', telesurvAgences: [agenceId] });
    expect((await h.request(veille, { method: 'POST', url: `/api/reports/${ticketId}.pdf`, payload: reportBody })).statusCode).toBe(403);
    expect((await h.request(null, { method: 'POST', url: `/api/reports/${ticketId}.pdf`, payload: reportBody })).statusCode).toBe(401);
    const other = await h.createUser({ role: 'technicien' });
    expect((await h.request(other, { method: 'POST', url: `/api/reports/${ticketId}.pdf`, payload: reportBody })).statusCode).toBe(404);
    expect((await h.request(tech, { method: 'POST', url: '/api/reports/not-a-ticket.pdf', payload: reportBody })).statusCode).toBe(400);
  });

  it('renders the latest re-intervention’s report with ?isReintervention=true', async () => {
    const other = await openTicket('LYO-2026-00102');
    const signer = { signataireNom: 'Marc Petit', signataireQualite: 'Responsable sécurité' };
    await run(other, { type: 'RecordReintervention', data: { ...visitData, ...(await visit()), ...signer, interventionId: randomUUID() } });
    const res = await h.request(tech, { method: 'POST', url: `/api/reports/${other}.pdf?isReintervention=true`, payload: reportBody });
    expect(res.statusCode).toBe(200);
    expect(res.json().filename).toMatch(/^rapport-LYO-2026-00102-intervention-1-[0-9a-f]{8}\.pdf$/);
    const pdf = await h.request(tech, { method: 'GET', url: res.json().downloadUrl });
    const text = pdfText(pdf.rawPayload);
    expect(text).toMatch(/Ré-intervention du \d{2}\/\d{2}\/\d{4} \(n° 1\)/);
    // Issue 18: the client's signer typed in the wizard, carried by the visit event.
    expect(text).toContain('Signé par : Marc Petit');
    expect(text).toContain('Qualité : Responsable sécurité');
  });
});

describe('POST /api/reports/send-email and the closing flow', () => {
  it('closing, then the UI’s calls in order, twice: one report and one e-mail per recipient', async () => {
    const ticketId = await openTicket('LYO-2026-00103');
    await run(ticketId, { type: 'CloseTicket', data: { ...visitData, ...(await visit()) } });
    const recipients = [
      { email: 'Claire@Example.fr', nom: 'Martin', prenom: 'Claire' },
      { email: 'syndic@example.fr', nom: 'Leroy', prenom: 'Jean' },
    ];
    const answers = [];
    for (let round = 0; round < 2; round++) {
      const report = await h.request(tech, { method: 'POST', url: `/api/reports/${ticketId}.pdf?isReintervention=false`, payload: reportBody });
      expect(report.statusCode).toBe(200);
      const { downloadUrl, filename } = report.json();
      const sent = await h.request(tech, {
        method: 'POST',
        url: '/api/reports/send-email',
        payload: { recipients, ticketNumber: 'LYO-2026-00103', ticketInfo: { site: 'Bâtiment A', installation: 'SSI catégorie A' }, downloadUrl: `http://localhost:3000${downloadUrl}?token=x` },
      });
      expect(sent.statusCode).toBe(200);
      answers.push({ filename, sent: sent.json() });
    }
    expect(answers[1]!.filename).toBe(answers[0]!.filename);
    expect(answers.map((answer) => answer.sent)).toEqual([
      { success: true, queued: 2, alreadyRequested: 0, alreadySent: [] },
      {
        success: true,
        queued: 0,
        alreadyRequested: 2,
        alreadySent: [
          expect.objectContaining({ email: 'claire@example.fr', knownRequests: 1 }),
          expect.objectContaining({ email: 'syndic@example.fr', knownRequests: 1 }),
        ],
      },
    ]);
    const forTicket = (email: string) => smtp.accepted.filter((mail) => mail.to.includes(email) && mail.subject.includes('LYO-2026-00103'));
    await until(() => forTicket('claire@example.fr').length === 1 && forTicket('syndic@example.fr').length === 1);
    const mail = forTicket('syndic@example.fr')[0]!;
    expect(mail.subject).toBe("Rapport d'intervention – ticket LYO-2026-00103");
    expect(mail.raw).toContain('Bonjour Jean Leroy');
    expect(mail.attachments.map((attachment) => attachment.filename)).toEqual([answers[0]!.filename]);
    await until(async () => (await h.pool.query(`SELECT count(*)::int AS n FROM rm.report_emails WHERE status = 'sent' AND recipient_email IN ('claire@example.fr', 'syndic@example.fr')`)).rows[0].n === 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(forTicket('claire@example.fr')).toHaveLength(1);
    expect(forTicket('syndic@example.fr')).toHaveLength(1);
    const { rows } = await h.pool.query(`SELECT count(*)::int AS n FROM rm.reports WHERE ticket_id = $1`, [ticketId]);
    expect(rows[0].n).toBe(1);
  });

  it('says on the ticket who got each report, and why an e-mail failed; a failed recipient may be asked again (issue 18)', async () => {
    const ticketId = await openTicket('LYO-2026-00104');
    await run(ticketId, { type: 'CloseTicket', data: { ...visitData, ...(await visit()) } });
    const report = await h.request(tech, { method: 'POST', url: `/api/reports/${ticketId}.pdf?isReintervention=false`, payload: reportBody });
    const { downloadUrl, filename } = report.json();
    smtp.rejectRecipients.add('inconnu@example.fr');
    const send = (emails: string[]) =>
      h.request(tech, { method: 'POST', url: '/api/reports/send-email', payload: { recipients: emails.map((email) => ({ email })), downloadUrl } });
    expect((await send(['claire@example.fr', 'inconnu@example.fr'])).json()).toEqual({ success: true, queued: 2, alreadyRequested: 0, alreadySent: [] });

    // Any staff member of the agency sees it, tickets.devis or not.
    const reader = await h.createUser({ role: 'technicien', agenceId, permissions: [] });
    const reports = async () => {
      const res = await h.request(reader, { method: 'GET', url: `/api/tickets/${ticketId}/reports` });
      expect(res.statusCode).toBe(200);
      return res.json() as TicketReportsAnswer;
    };
    const statuses = async () => Object.fromEntries((await reports()).reports[0]!.emails.map((email) => [email.email, email.status]));
    await until(async () => JSON.stringify(await statuses()) === JSON.stringify({ 'claire@example.fr': 'sent', 'inconnu@example.fr': 'failed' }));
    const answer = await reports();
    expect(ticketReportsAnswerSchema.parse(answer)).toEqual(answer);
    expect(answer.reports).toHaveLength(1);
    expect(answer.reports[0]).toMatchObject({ intervention_id: null, status: 'generated', filename });
    const [claire, inconnu] = answer.reports[0]!.emails.sort((a, b) => a.email.localeCompare(b.email));
    expect(claire).toMatchObject({ status: 'sent', sent_at: expect.any(String), failure: null });
    expect(inconnu).toMatchObject({ status: 'failed', sent_at: null, failed_at: expect.any(String) });
    expect(inconnu!.failure).toEqual({
      reason: 'address-refused',
      message: 'L’envoi du rapport a échoué : adresse refusée par le serveur de messagerie (550 Boîte inconnue). Vérifiez l’adresse, puis renvoyez le rapport.',
    });

    // Sent stays sent (never twice); failed may be asked again, and the ticket then shows the new attempt.
    smtp.rejectRecipients.delete('inconnu@example.fr');
    expect((await send(['claire@example.fr', 'inconnu@example.fr'])).json()).toMatchObject({ success: true, queued: 1, alreadyRequested: 1 });
    await until(async () => (await statuses())['inconnu@example.fr'] === 'sent');
    expect((await reports()).reports[0]!.emails).toHaveLength(2);
    expect(smtp.accepted.filter((mail) => mail.to.includes('inconnu@example.fr') && mail.subject.includes('LYO-2026-00104'))).toHaveLength(1);
    expect(smtp.accepted.filter((mail) => mail.to.includes('claire@example.fr') && mail.subject.includes('LYO-2026-00104'))).toHaveLength(1);

    // Outside the caller's agencies the ticket does not exist; télésurveillance has no ticket detail.
    expect((await h.request(await h.createUser({ role: 'technicien' }), { method: 'GET', url: `/api/tickets/${ticketId}/reports` })).statusCode).toBe(404);
    expect((await h.request(await h.createUser({ role: 'telesurveillance', telesurvAgences: [agenceId] }), { method: 'GET', url: `/api/tickets/${ticketId}/reports` })).statusCode).toBe(403);
    expect((await h.request(null, { method: 'GET', url: `/api/tickets/${ticketId}/reports` })).statusCode).toBe(401);
    expect((await h.request(tech, { method: 'GET', url: '/api/tickets/pas-un-id/reports' })).statusCode).toBe(400);
  });

  it('sends a report again to an address that got it only when confirmed, and once however often the call is retried (issue 32)', async () => {
    const ticketId = await openTicket('LYO-2026-00105');
    await run(ticketId, { type: 'CloseTicket', data: { ...visitData, ...(await visit()) } });
    const { downloadUrl } = (await h.request(tech, { method: 'POST', url: `/api/reports/${ticketId}.pdf`, payload: reportBody })).json();
    const send = (extra: Record<string, unknown> = {}) =>
      h.request(tech, { method: 'POST', url: '/api/reports/send-email', payload: { recipients: [{ email: 'perdu@example.fr', nom: 'Roux', prenom: 'Léa' }], downloadUrl, ...extra } });
    const forTicket = () => smtp.accepted.filter((mail) => mail.to.includes('perdu@example.fr') && mail.subject.includes('LYO-2026-00105'));
    expect((await send()).json()).toMatchObject({ queued: 1, alreadySent: [] });
    await until(async () => (await h.pool.query(`SELECT 1 FROM rm.report_emails WHERE recipient_email = 'perdu@example.fr' AND status = 'sent'`)).rowCount === 1);

    // Not confirmed: not sent, and the answer says when it was.
    const again = (await send()).json();
    expect(again).toMatchObject({ success: true, queued: 0, alreadyRequested: 1 });
    expect(again.alreadySent).toEqual([
      {
        email: 'perdu@example.fr',
        nom: 'Roux',
        prenom: 'Léa',
        status: 'sent',
        requestedAt: expect.any(String),
        sentAt: expect.any(String),
        knownRequests: 1,
        message: expect.stringMatching(/^Déjà envoyé le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2} à perdu@example\.fr\.$/),
      },
    ]);

    // Confirmed: one more request; the same confirmation retried (double click, network retry) adds nothing.
    const resend = [{ email: 'Perdu@Example.fr', knownRequests: 1 }];
    expect((await send({ resend })).json()).toMatchObject({ queued: 1, alreadySent: [] });
    expect((await send({ resend })).json()).toMatchObject({ queued: 0, alreadySent: [expect.objectContaining({ knownRequests: 2 })] });
    await until(() => forTicket().length === 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(forTicket()).toHaveLength(2);
    expect((await h.request(tech, { method: 'POST', url: '/api/reports/send-email', payload: { recipients: [{ email: 'a@b.fr' }], downloadUrl, resend: [{ email: 'a@b.fr', knownRequests: 0 }] } })).statusCode).toBe(400);
  });

  it('answers 400 in French for a bad address or link, 404 for an unknown report', async () => {
    const base = { ticketNumber: 'X', ticketInfo: { site: 'S', installation: 'I' } };
    const badEmail = await h.request(tech, { method: 'POST', url: '/api/reports/send-email', payload: { ...base, recipients: [{ email: 'pas-une-adresse', nom: '', prenom: '' }], downloadUrl: '/api/reports/download/rapport-x-00000000.pdf' } });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error).toBe('Adresse email invalide.');
    const none = await h.request(tech, { method: 'POST', url: '/api/reports/send-email', payload: { ...base, recipients: [], downloadUrl: '/api/reports/download/rapport-x-00000000.pdf' } });
    expect(none.json().error).toBe('Merci d’indiquer au moins un destinataire.');
    const badLink = await h.request(tech, { method: 'POST', url: '/api/reports/send-email', payload: { ...base, recipients: [{ email: 'a@b.fr' }], downloadUrl: '/etc/passwd' } });
    expect(badLink.statusCode).toBe(400);
    const unknown = await h.request(tech, { method: 'POST', url: '/api/reports/send-email', payload: { ...base, recipients: [{ email: 'a@b.fr' }], downloadUrl: '/api/reports/download/rapport-x-00000000.pdf' } });
    expect(unknown.statusCode).toBe(404);
  });
});
