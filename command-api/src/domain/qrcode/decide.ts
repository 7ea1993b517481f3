import {
  IllegalStateError,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  QR_CODE_KEY_PATTERN,
  ValidationError,
  type QrCodeEvent,
} from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { evolveQrCode, qrCodeInitialState, type QrCodeState } from './qr-code.js';

/*
 * A batch (POST /api/qrcodes/batch, count clamped by qrCodeBatchBodySchema) is
 * one GenerateQrCode per code, each on its own stream with a fresh id and key
 * drawn by the handler: a code's assignment never contends with its batch
 * mates, and a retried batch appends nothing twice (a stream that exists
 * refuses the second GenerateQrCode).
 */

type GenerateQrCode = {
  type: 'GenerateQrCode';
  data: { qrCodeId: string; batchId: string; agenceId: string; qr_key: string; url: string; generatedAt: string };
};
/** `installationAgenceId` is the installation's agency, read by the handler: a code serves its own agency only. */
type AssignQrCode = {
  type: 'AssignQrCode';
  data: { qrCodeId: string; installationId: string; installationAgenceId: string; assignedAt: string };
};
type UnassignQrCode = { type: 'UnassignQrCode'; data: { qrCodeId: string; unassignedAt: string } };

export type QrCodeCommand = GenerateQrCode | AssignQrCode | UnassignQrCode;

function requireExisting(state: QrCodeState) {
  if (state.status === 'nonexistent') throw new NotFoundError(M.qrCodeNotFound);
  return state;
}

function generateQrCode(command: GenerateQrCode, state: QrCodeState): QrCodeEvent[] {
  if (state.status !== 'nonexistent') throw new IllegalStateError(M.qrCodeExists);
  const { qrCodeId, batchId, agenceId, qr_key, url, generatedAt } = command.data;
  if (!QR_CODE_KEY_PATTERN.test(qr_key)) throw new ValidationError(M.qrCodeKeyInvalid);
  if (url.trim() === '') throw new ValidationError(M.qrCodeUrlRequired);
  if (agenceId.trim() === '') throw new ValidationError(M.agenceRequired);
  return [{ type: 'QrCodeGenerated', data: { qrCodeId, batchId, agenceId, qr_key, url, generatedAt } }];
}

/**
 * Assigning a code to the installation it already serves changes nothing (a
 * double click); moving it to another installation needs an explicit
 * unassign first, so a sticker is never silently taken from equipment.
 */
function assignQrCode(command: AssignQrCode, state: QrCodeState): QrCodeEvent[] {
  const code = requireExisting(state);
  const { qrCodeId, installationId, installationAgenceId, assignedAt } = command.data;
  if (code.status === 'assigned') {
    if (code.installationId === installationId) return [];
    throw new IllegalStateError(M.qrCodeAssignedElsewhere);
  }
  if (installationId.trim() === '') throw new ValidationError(M.installationInvalid);
  if (installationAgenceId !== code.agenceId) throw new ValidationError(M.qrCodeOtherAgence);
  return [{ type: 'QrCodeAssigned', data: { qrCodeId, installationId, assignedAt } }];
}

/** Unassigning a code that serves nothing changes nothing (a repeated click). */
function unassignQrCode(command: UnassignQrCode, state: QrCodeState): QrCodeEvent[] {
  const code = requireExisting(state);
  if (code.status !== 'assigned') return [];
  const { qrCodeId, unassignedAt } = command.data;
  return [{ type: 'QrCodeUnassigned', data: { qrCodeId, installationId: code.installationId, unassignedAt } }];
}

function decideQrCode(command: QrCodeCommand, state: QrCodeState): QrCodeEvent[] {
  switch (command.type) {
    case 'GenerateQrCode':
      return generateQrCode(command, state);
    case 'AssignQrCode':
      return assignQrCode(command, state);
    case 'UnassignQrCode':
      return unassignQrCode(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const qrCodeDecider: Decider<QrCodeCommand, QrCodeState, QrCodeEvent> = {
  decide: decideQrCode,
  evolve: evolveQrCode,
  initialState: qrCodeInitialState,
};
