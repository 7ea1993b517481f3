import { z } from 'zod';
import { toCsvDocument } from './csv.js';
import { defineEvent, isoDateTime, numberInput, requiredId } from './fields.js';
import { agenceIdSchema, installationIdSchema, qrCodeIdSchema } from './ids.js';
import { MANAGEMENT_MESSAGES as M } from './messages.js';
import { entityVersionSchema } from './version.js';

/*
 * Life cycle: a batch (POST /api/qrcodes/batch) generates unassigned codes for
 * the caller's agency, one stream per code (QrCodeGenerated). A code is then
 * stuck on equipment and assigned to one installation of the same agency
 * (QrCodeAssigned); it can be unassigned (QrCodeUnassigned) and assigned again.
 * Scanning leads to the public form /ticket?key=<qr_key>.
 */

export const QR_CODE_BATCH_MIN = 0;
export const QR_CODE_BATCH_MAX = 100;
export const QR_CODE_BATCH_DEFAULT = 5;
/** The public breakdown form of tickets.md §2. */
export const QR_CODE_PUBLIC_PATH = '/ticket';
/** Keys are random and unguessable: they are the only credential of the public form. */
export const QR_CODE_KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** The widget's clamp (§2): 0–100, whole numbers, the default when empty or not a number. */
export function clampQrCodeBatchCount(value: unknown): number {
  const parsed = numberInput(value);
  if (typeof parsed !== 'number' || !Number.isFinite(parsed)) return QR_CODE_BATCH_DEFAULT;
  return Math.min(QR_CODE_BATCH_MAX, Math.max(QR_CODE_BATCH_MIN, Math.floor(parsed)));
}

/** Generation is disabled below 1 (§5). */
export function canGenerateQrCodes(count: number): boolean {
  return count >= 1;
}

export function buildQrCodeUrl(publicBaseUrl: string, qrKey: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}${QR_CODE_PUBLIC_PATH}?key=${encodeURIComponent(qrKey)}`;
}

/** POST /api/qrcodes/batch: the count is clamped like the widget does, then must be at least 1. */
export const qrCodeBatchBodySchema = z.object({
  count: z.preprocess(
    (value) => (value === undefined ? QR_CODE_BATCH_DEFAULT : value),
    z
      .unknown()
      .refine((value) => typeof numberInput(value) === 'number', M.qrCountInvalid)
      .transform((value) => clampQrCodeBatchCount(value))
      .pipe(z.int().min(1, M.qrCountTooSmall)),
  ),
});
export type QrCodeBatchBody = z.output<typeof qrCodeBatchBodySchema>;

/** Assigning a code to an installation (the route is ours: the spec does not show it). */
export const qrCodeAssignBodySchema = z.object({ installation_id: requiredId(M.installationInvalid) });
export type QrCodeAssignBody = z.output<typeof qrCodeAssignBodySchema>;

export const qrCodeSchema = z.object({ id: qrCodeIdSchema, url: z.string(), qr_key: z.string(), version: entityVersionSchema.optional() });
export type QrCode = z.infer<typeof qrCodeSchema>;
export const qrCodesByInstallationResponseSchema = z.object({ items: z.array(qrCodeSchema) });
export const qrCodeUnusedCountResponseSchema = z.object({ unused: z.int().min(0) });
export const qrCodeBatchResponseSchema = z.object({ codes: z.array(qrCodeSchema) });

/** A code as exported: where it is stuck, when it is (empty cells for an unused code). */
export interface QrCodeExportRow extends QrCode {
  installation_nom: string | null;
  site_nom: string | null;
  client_nom: string | null;
}

/** POST /api/qrcodes/export: every code of the agency, with its installation, site and client. */
export const QR_CODE_EXPORT_CSV_HEADER = ['Clé', 'URL', 'Installation', 'Site', 'Client'] as const;
export function toQrCodesCsv(codes: readonly QrCodeExportRow[]): string {
  return toCsvDocument(
    QR_CODE_EXPORT_CSV_HEADER,
    codes.map((code) => [code.qr_key, code.url, code.installation_nom ?? '', code.site_nom ?? '', code.client_nom ?? '']),
  );
}
/** `date` is the day of the export, yyyy-MM-dd. */
export const qrCodesCsvFileName = (date: string) => `qrcodes_${date}.csv`;

export const qrCodeGeneratedEventSchema = defineEvent('QrCodeGenerated', {
  qrCodeId: qrCodeIdSchema,
  /** Codes of one batch share it, so an export or a label sheet can find them. */
  batchId: z.guid(),
  agenceId: agenceIdSchema,
  qr_key: z.string().regex(QR_CODE_KEY_PATTERN),
  /** The URL as encoded in the printed image: a fact of the day it was made. */
  url: z.string().min(1),
  generatedAt: isoDateTime,
});
export const qrCodeAssignedEventSchema = defineEvent('QrCodeAssigned', {
  qrCodeId: qrCodeIdSchema,
  installationId: installationIdSchema,
  assignedAt: isoDateTime,
});
export const qrCodeUnassignedEventSchema = defineEvent('QrCodeUnassigned', {
  qrCodeId: qrCodeIdSchema,
  /** The installation it left, so a read model need not look it up. */
  installationId: installationIdSchema,
  unassignedAt: isoDateTime,
});

export const qrCodeEventSchema = z.discriminatedUnion('type', [qrCodeGeneratedEventSchema, qrCodeAssignedEventSchema, qrCodeUnassignedEventSchema]);
export type QrCodeEvent = z.infer<typeof qrCodeEventSchema>;
