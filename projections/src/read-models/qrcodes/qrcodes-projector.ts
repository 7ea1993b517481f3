import { qrCodeEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
import { domainEvent } from '../domain-event.js';

/**
 * QR codes: generated unassigned in an agency, then assigned to one
 * installation at a time. A deleted installation keeps its codes assigned (the
 * public form then finds no live installation behind them).
 */
export const qrcodesProjector: Projector = {
  name: 'qrcodes',
  version: 1,
  handles: ['QrCodeGenerated', 'QrCodeAssigned', 'QrCodeUnassigned'],
  setupSql: `
    CREATE TABLE IF NOT EXISTS rm.qrcodes (
      id uuid PRIMARY KEY,
      batch_id uuid NOT NULL,
      agence_id uuid NOT NULL,
      qr_key text NOT NULL,
      url text NOT NULL,
      installation_id uuid,
      generated_at timestamptz NOT NULL,
      last_revision int NOT NULL
    );
    CREATE UNIQUE INDEX IF NOT EXISTS qrcodes_key ON rm.qrcodes (qr_key);
    CREATE INDEX IF NOT EXISTS qrcodes_installation ON rm.qrcodes (installation_id, generated_at) WHERE installation_id IS NOT NULL;
    CREATE INDEX IF NOT EXISTS qrcodes_unused ON rm.qrcodes (agence_id, generated_at) WHERE installation_id IS NULL;`,
  apply: eventByEvent(async (tx, recorded) => {
    const event = domainEvent(qrCodeEventSchema, recorded);
    const revision = recorded.revision;
    switch (event.type) {
      case 'QrCodeGenerated': {
        const d = event.data;
        await tx.query(
          `INSERT INTO rm.qrcodes (id, batch_id, agence_id, qr_key, url, generated_at, last_revision)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (id) DO UPDATE SET batch_id = $2, agence_id = $3, qr_key = $4, url = $5, generated_at = $6, last_revision = $7
           WHERE rm.qrcodes.last_revision < $7`,
          [d.qrCodeId, d.batchId, d.agenceId, d.qr_key, d.url, d.generatedAt, revision],
        );
        return [d.qrCodeId];
      }
      case 'QrCodeAssigned':
        await tx.query(`UPDATE rm.qrcodes SET installation_id = $2, last_revision = $3 WHERE id = $1 AND last_revision < $3`, [
          event.data.qrCodeId,
          event.data.installationId,
          revision,
        ]);
        return [event.data.qrCodeId];
      case 'QrCodeUnassigned':
        await tx.query(`UPDATE rm.qrcodes SET installation_id = NULL, last_revision = $2 WHERE id = $1 AND last_revision < $2`, [event.data.qrCodeId, revision]);
        return [event.data.qrCodeId];
    }
  }),
};
