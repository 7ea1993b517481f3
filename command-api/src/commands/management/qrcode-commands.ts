import { randomBytes } from 'node:crypto';
import {
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  buildQrCodeUrl,
  qrCodeEventSchema,
  qrCodeStreamId,
  type QrCode,
  type QrCodeEvent,
} from '@fsm/contracts';
import { findQrCode, type QrCodeFacts } from '@fsm/projections';
import { qrCodeDecider } from '../../domain/qrcode/index.js';
import { basisOf, commandHandler, type CommandResult } from '../execute.js';
import { requireInstallation, type ManagementCaller } from './client-scope.js';

/** Runs a command on the aggregate's stream. */
const runQrCodeCommand = commandHandler({ decider: qrCodeDecider, streamOf: qrCodeStreamId, events: qrCodeEventSchema });

/**
 * 24 random bytes, URL-safe (32 characters, QR_CODE_KEY_PATTERN): the key is
 * the only credential of the public form, so it comes from the system's
 * CSPRNG, never from the id generator (which tests make predictable).
 */
function newQrCodeKey(): string {
  return randomBytes(24).toString('base64url');
}

/** Codes are generated this many at a time: each has its own stream, so they never contend. */
const BATCH_PARALLELISM = 10;

/**
 * One GenerateQrCode per code, unassigned, in `agenceId` (the route resolves
 * it: the caller's agency, or the one admin_plus picked). Answers the codes in
 * the order generated.
 */
export async function handleGenerateQrCodes(caller: ManagementCaller, input: { count: number; agenceId: string; publicUrl: string }): Promise<QrCode[]> {
  const batchId = caller.context.newId();
  const generatedAt = caller.now.toISOString();
  const codes: QrCode[] = Array.from({ length: input.count }, () => {
    const qr_key = newQrCodeKey();
    return { id: caller.context.newId(), qr_key, url: buildQrCodeUrl(input.publicUrl, qr_key) };
  });
  for (let start = 0; start < codes.length; start += BATCH_PARALLELISM) {
    await Promise.all(
      codes.slice(start, start + BATCH_PARALLELISM).map((code) =>
        runQrCodeCommand(
          caller,
          code.id,
          { type: 'GenerateQrCode', data: { qrCodeId: code.id, batchId, agenceId: input.agenceId, qr_key: code.qr_key, url: code.url, generatedAt } },
        ),
      ),
    );
  }
  return codes;
}

export async function requireQrCode(caller: Pick<ManagementCaller, 'db' | 'scope'>, qrCodeId: string): Promise<QrCodeFacts> {
  const code = await findQrCode(caller.db, qrCodeId, caller.scope);
  if (!code) throw new NotFoundError(M.qrCodeNotFound);
  return code;
}

/**
 * The installation must be live and in the caller's agencies; the decider
 * refuses another agency's code. `version`: the code's, as the modal listed it.
 */
export async function handleAssignQrCode(
  caller: ManagementCaller,
  input: { qrCodeId: string; installationId: string; version?: number | undefined },
): Promise<CommandResult<QrCodeEvent>> {
  const code = await requireQrCode(caller, input.qrCodeId);
  const basis = basisOf(code, input.version, qrCodeStreamId(input.qrCodeId));
  const installation = await requireInstallation(caller, input.installationId);
  return runQrCodeCommand(
    caller,
    input.qrCodeId,
    {
      type: 'AssignQrCode',
      data: { qrCodeId: input.qrCodeId, installationId: installation.id, installationAgenceId: installation.agence_id, assignedAt: caller.now.toISOString() },
    },
    basis,
  );
}

/** With its version, a code that was moved to another installation meanwhile is not taken off that one. */
export async function handleUnassignQrCode(caller: ManagementCaller, input: { qrCodeId: string; version?: number | undefined }): Promise<CommandResult<QrCodeEvent>> {
  const code = await requireQrCode(caller, input.qrCodeId);
  const basis = basisOf(code, input.version, qrCodeStreamId(input.qrCodeId));
  return runQrCodeCommand(
    caller,
    input.qrCodeId,
    { type: 'UnassignQrCode', data: { qrCodeId: input.qrCodeId, unassignedAt: caller.now.toISOString() } },
    basis,
  );
}
