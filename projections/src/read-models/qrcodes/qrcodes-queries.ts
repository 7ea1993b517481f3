import { visibleInstallation } from '../installations/installations-queries.js';
import { scopeClause, type AgenceScope, type Queryable } from '../queryable.js';

/** A QR code as the API answers it (spec §3). */
export interface QrCodeRow {
  id: string;
  url: string;
  qr_key: string;
  /** Revision of the fiche's stream when it last changed: what an edit sends back as its version. */
  version: number;
}

/** A code with where it belongs, for the assign route and the public form. */
export interface QrCodeFacts extends QrCodeRow {
  agence_id: string;
  /** The installation it is assigned to, as assigned (even when that installation was deleted since). */
  installation_id: string | null;
  /** The same id only while that installation is live (not deleted, nor hidden with its site or client): what the public form follows. */
  live_installation_id: string | null;
}

const ORDER = 'ORDER BY q.generated_at, q.id';

/** GET /api/qrcodes/by-installation/{id}: the codes assigned to the installation, oldest first. */
export async function listQrCodesByInstallation(db: Queryable, installationId: string): Promise<QrCodeRow[]> {
  const { rows } = await db.query<QrCodeRow>(`SELECT q.id, q.url, q.qr_key, q.last_revision AS version FROM rm.qrcodes q WHERE q.installation_id = $1 ${ORDER}`, [installationId]);
  return rows;
}

/** GET /api/qrcodes/unused-count: unassigned codes of the agencies in scope. */
export async function countUnusedQrCodes(db: Queryable, scope: AgenceScope): Promise<number> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ unused: string }>(
    `SELECT count(*) AS unused FROM rm.qrcodes q WHERE q.installation_id IS NULL${scopeClause(scope, 'q.agence_id', params)}`,
    params,
  );
  return Number(rows[0]?.unused ?? 0);
}

/** POST /api/qrcodes/export: unassigned codes of the agencies in scope, oldest first (toQrCodesCsv). */
export async function listUnusedQrCodes(db: Queryable, scope: AgenceScope): Promise<QrCodeRow[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<QrCodeRow>(
    `SELECT q.id, q.url, q.qr_key, q.last_revision AS version FROM rm.qrcodes q WHERE q.installation_id IS NULL${scopeClause(scope, 'q.agence_id', params)} ${ORDER}`,
    params,
  );
  return rows;
}

/**
 * POST /api/qrcodes/export: every code of the agencies in scope with the
 * installation, site and client it is stuck on (null for an unused one, or
 * one whose installation is no longer shown), oldest first.
 */
export async function listQrCodesForExport(
  db: Queryable,
  scope: AgenceScope,
): Promise<(QrCodeRow & { installation_nom: string | null; site_nom: string | null; client_nom: string | null })[]> {
  const params: unknown[] = [];
  const { rows } = await db.query(
    `SELECT q.id, q.url, q.qr_key, q.last_revision AS version, i.nom AS installation_nom, s.nom AS site_nom, c.nom AS client_nom
       FROM rm.qrcodes q
       LEFT JOIN rm.installations i ON i.id = q.installation_id AND ${visibleInstallation('i')}
       LEFT JOIN rm.sites s ON s.id = i.site_id
       LEFT JOIN rm.clients c ON c.id = i.client_id
      WHERE true${scopeClause(scope, 'q.agence_id', params)} ORDER BY q.generated_at, q.id`,
    params,
  );
  return rows;
}

const FACTS = `SELECT q.id, q.url, q.qr_key, q.last_revision AS version, q.agence_id, q.installation_id, i.id AS live_installation_id
  FROM rm.qrcodes q LEFT JOIN rm.installations i ON i.id = q.installation_id AND ${visibleInstallation('i')}`;

/** The public form (/ticket?key=...): the code, its agency and its live installation
 * (`live_installation_id`); null for an unknown key. */
export async function findQrCodeByKey(db: Queryable, qrKey: string): Promise<QrCodeFacts | null> {
  const { rows } = await db.query<QrCodeFacts>(`${FACTS} WHERE q.qr_key = $1`, [qrKey]);
  return rows[0] ?? null;
}

/** A code by id, null when unknown or (with a scope) in another agency. */
export async function findQrCode(db: Queryable, id: string, scope: AgenceScope = 'all'): Promise<QrCodeFacts | null> {
  const params: unknown[] = [id];
  const { rows } = await db.query<QrCodeFacts>(`${FACTS} WHERE q.id = $1${scopeClause(scope, 'q.agence_id', params)}`, params);
  return rows[0] ?? null;
}
