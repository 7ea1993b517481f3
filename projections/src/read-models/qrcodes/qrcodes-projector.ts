import { qrCodeEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
import { aggregateRow } from '../aggregate-rows.js';
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
    const row = aggregateRow(tx, 'qrcodes', recorded.revision);
    switch (event.type) {
      case 'QrCodeGenerated': {
        const d = event.data;
        await row.upsert(d.qrCodeId, { batch_id: d.batchId, agence_id: d.agenceId, qr_key: d.qr_key, url: d.url, generated_at: d.generatedAt });
        return [d.qrCodeId];
      }
      case 'QrCodeAssigned':
        await row.update(event.data.qrCodeId, { installation_id: event.data.installationId });
        return [event.data.qrCodeId];
      case 'QrCodeUnassigned':
        await row.update(event.data.qrCodeId, { installation_id: null });
        return [event.data.qrCodeId];
    }
  }),
};
