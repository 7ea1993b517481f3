import type { QrCodeEvent } from '@fsm/contracts';

/**
 * The QR code aggregate (`qrcode-<id>`, one stream per code). Generated
 * unassigned in its agency's pool, then assigned to one installation at a time.
 */
interface QrCodeFacts {
  qrCodeId: string;
  batchId: string;
  agenceId: string;
  qr_key: string;
  url: string;
}

export type QrCodeState =
  | { status: 'nonexistent' }
  | (QrCodeFacts & { status: 'unassigned' })
  | (QrCodeFacts & { status: 'assigned'; installationId: string });

export const qrCodeInitialState: QrCodeState = { status: 'nonexistent' };

/** Events that do not fit the state (only a tampered log has them) leave it unchanged. */
export function evolveQrCode(state: QrCodeState, event: QrCodeEvent): QrCodeState {
  switch (event.type) {
    case 'QrCodeGenerated': {
      if (state.status !== 'nonexistent') return state;
      const { qrCodeId, batchId, agenceId, qr_key, url } = event.data;
      return { status: 'unassigned', qrCodeId, batchId, agenceId, qr_key, url };
    }
    case 'QrCodeAssigned': {
      if (state.status === 'nonexistent') return state;
      const { qrCodeId, batchId, agenceId, qr_key, url } = state;
      return { status: 'assigned', qrCodeId, batchId, agenceId, qr_key, url, installationId: event.data.installationId };
    }
    case 'QrCodeUnassigned': {
      if (state.status !== 'assigned') return state;
      const { qrCodeId, batchId, agenceId, qr_key, url } = state;
      return { status: 'unassigned', qrCodeId, batchId, agenceId, qr_key, url };
    }
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
