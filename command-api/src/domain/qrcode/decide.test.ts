import { IllegalStateError, NotFoundError, ValidationError, buildQrCodeUrl, type QrCodeEvent } from '@fsm/contracts';
import { describe, expect, it } from 'vitest';
import { IDS, T0, T1, T2, deciderSpec } from '../test-support/management-decider-spec.js';
import { qrCodeDecider, type QrCodeCommand } from './decide.js';

const spec = deciderSpec(qrCodeDecider);
const qrCodeId = IDS.qrCode;
const qr_key = 'k3Y_abcdefghijklmnop';
const url = buildQrCodeUrl('https://sav.example.fr', qr_key);
const generation = { qrCodeId, batchId: IDS.batch, agenceId: IDS.agence, qr_key, url, generatedAt: T0 };

const generated: QrCodeEvent = { type: 'QrCodeGenerated', data: generation };
const assigned: QrCodeEvent = { type: 'QrCodeAssigned', data: { qrCodeId, installationId: IDS.installation, assignedAt: T1 } };
const unassigned: QrCodeEvent = { type: 'QrCodeUnassigned', data: { qrCodeId, installationId: IDS.installation, unassignedAt: T2 } };

const generate = (data: Partial<typeof generation> = {}): QrCodeCommand => ({ type: 'GenerateQrCode', data: { ...generation, ...data } });
const assign = (installationId: string = IDS.installation, installationAgenceId: string = IDS.agence): QrCodeCommand => ({
  type: 'AssignQrCode',
  data: { qrCodeId, installationId, installationAgenceId, assignedAt: T1 },
});
const unassign: QrCodeCommand = { type: 'UnassignQrCode', data: { qrCodeId, unassignedAt: T2 } };

describe('when the code does not exist', () => {
  it('generates it unassigned in its agency pool', () => {
    spec.given().when(generate()).then([generated]);
  });

  it('refuses a guessable key or a missing URL', () => {
    spec.given().when(generate({ qr_key: '1234' })).thenRejects(ValidationError, 'Clé de QR code invalide.');
    spec.given().when(generate({ url: ' ' })).thenRejects(ValidationError, 'URL de QR code manquante.');
  });

  it('cannot assign or unassign it', () => {
    spec.given().when(assign()).thenRejects(NotFoundError, 'QR code introuvable.');
    spec.given().when(unassign).thenRejects(NotFoundError, 'QR code introuvable.');
  });
});

describe('when the code is unassigned', () => {
  it('refuses to generate it twice (a retried batch)', () => {
    spec.given(generated).when(generate()).thenRejects(IllegalStateError, 'Ce QR code existe déjà.');
  });

  it('assigns it to an installation of its agency', () => {
    spec.given(generated).when(assign()).then([assigned]);
  });

  it('refuses an installation of another agency', () => {
    spec.given(generated).when(assign(IDS.installation, IDS.agence2)).thenRejects(ValidationError, "Ce QR code appartient à une autre agence que l'installation.");
  });

  it('appends nothing on unassign', () => {
    spec.given(generated).when(unassign).then([]);
  });
});

describe('when the code is assigned', () => {
  it('appends nothing when assigned again to the same installation', () => {
    spec.given(generated, assigned).when(assign()).then([]);
  });

  it('refuses to move it to another installation without an unassign', () => {
    spec.given(generated, assigned).when(assign(IDS.installation2)).thenRejects(IllegalStateError, 'Ce QR code est déjà affecté à une autre installation.');
  });

  it('unassigns it, naming the installation it leaves', () => {
    spec.given(generated, assigned).when(unassign).then([unassigned]);
  });
});

describe('when the code was unassigned after use', () => {
  it('can be assigned to another installation', () => {
    spec
      .given(generated, assigned, unassigned)
      .when(assign(IDS.installation2))
      .then([{ type: 'QrCodeAssigned', data: { qrCodeId, installationId: IDS.installation2, assignedAt: T1 } }]);
  });

  it('folds back to the unassigned state with its facts', () => {
    expect(spec.given(generated, assigned, unassigned).state).toEqual({ status: 'unassigned', qrCodeId, batchId: IDS.batch, agenceId: IDS.agence, qr_key, url });
  });
});
