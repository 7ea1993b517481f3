import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { QrCodeEvent } from '@fsm/contracts';
import { agence, at, client, installation, metier, site } from '../../test-support/management-events.js';
import { expectSameRows, useReadModelHarness, withoutVersions } from '../../test-support/read-model-harness.js';
import { agencesProjector } from '../agences/agences-projector.js';
import { clientsProjector } from '../clients/clients-projector.js';
import { installationsProjector } from '../installations/installations-projector.js';
import { metiersProjector } from '../metiers/metiers-projector.js';
import { sitesProjector } from '../sites/sites-projector.js';
import { qrcodesProjector } from './qrcodes-projector.js';
import { countUnusedQrCodes, findQrCode, findQrCodeByKey, listQrCodesByInstallation, listUnusedQrCodes } from './qrcodes-queries.js';

// The harness waits for each append's own position and replays through the real projectors.
const h = useReadModelHarness('rm_qrcodes', [agencesProjector, clientsProjector, sitesProjector, metiersProjector, installationsProjector, qrcodesProjector]);
const { given, rebuild, redeliver } = h;

const later = '2026-11-20T09:00:00.000Z';

const key = (n: number) => `key${String(n).padStart(3, '0')}-${randomUUID().replaceAll('-', '').slice(0, 20)}`;
function generated(id: string, agenceId: string, qrKey: string, generatedAt = at, batchId = randomUUID()): QrCodeEvent {
  return { type: 'QrCodeGenerated', data: { qrCodeId: id, batchId, agenceId, qr_key: qrKey, url: `https://sav.example.fr/ticket?key=${qrKey}`, generatedAt } };
}
const assigned = (id: string, installationId: string): QrCodeEvent => ({ type: 'QrCodeAssigned', data: { qrCodeId: id, installationId, assignedAt: at } });
const unassigned = (id: string, installationId: string): QrCodeEvent => ({ type: 'QrCodeUnassigned', data: { qrCodeId: id, installationId, unassignedAt: at } });

const table = () => h.selectAll('rm.qrcodes');

describe('qrcodes read model', () => {
  const [lyon, paris] = [randomUUID(), randomUUID()];
  const [ssi, acme, usine, centrale, sprinklers] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const [a, b, c, d, p] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const keys = { a: key(1), b: key(2), c: key(3), d: key(4), p: key(5) };
  const streams = [a, b, c, d, p].map((id) => `qrcode-${id}`);

  beforeAll(async () => {
    await given(`agence-${lyon}`, [agence(lyon, 'Lyon')]);
    await given(`agence-${paris}`, [agence(paris, 'Paris')]);
    await given('metiers-catalogue', [metier(ssi, 'SSI', { ordre: 1, delai_inter: 4 })]);
    await given(`client-${acme}`, [client(acme, 'ACME', lyon)]);
    await given(`site-${usine}`, [site(usine, acme, 'Usine')]);
    await given(`installation-${centrale}`, [installation(centrale, usine, 'SSI centrale', ssi)]);
    await given(`installation-${sprinklers}`, [installation(sprinklers, usine, 'Sprinklers', ssi)]);
    const batch = randomUUID();
    await given(`qrcode-${a}`, [generated(a, lyon, keys.a, at, batch), assigned(a, centrale)]);
    await given(`qrcode-${b}`, [generated(b, lyon, keys.b, at, batch), assigned(b, centrale), unassigned(b, centrale)]);
    await given(`qrcode-${c}`, [generated(c, lyon, keys.c, later, batch), assigned(c, centrale)]);
    await given(`qrcode-${d}`, [generated(d, lyon, keys.d, at, batch)]);
    await given(`qrcode-${p}`, [generated(p, paris, keys.p)]);
  });

  it('lists the codes of an installation, oldest first', async () => {
    expect(await listQrCodesByInstallation(h.pool, centrale)).toEqual([
      { id: a, url: `https://sav.example.fr/ticket?key=${keys.a}`, qr_key: keys.a, version: 1 },
      { id: c, url: `https://sav.example.fr/ticket?key=${keys.c}`, qr_key: keys.c, version: 1 },
    ]);
    expect(await listQrCodesByInstallation(h.pool, sprinklers)).toEqual([]);
  });

  it('counts and exports the unassigned codes of the agencies in scope', async () => {
    expect(await countUnusedQrCodes(h.pool, [lyon])).toBe(2);
    expect(await countUnusedQrCodes(h.pool, [paris])).toBe(1);
    expect(await countUnusedQrCodes(h.pool, 'all')).toBe(3);
    expect(await countUnusedQrCodes(h.pool, [])).toBe(0);
    expect((await listUnusedQrCodes(h.pool, [lyon])).map((row) => row.id)).toEqual([b, d].sort());
    expect(await listUnusedQrCodes(h.pool, [paris])).toEqual([{ id: p, url: `https://sav.example.fr/ticket?key=${keys.p}`, qr_key: keys.p, version: 0 }]);
  });

  it('finds a code by key with its agency and live installation', async () => {
    expect(await findQrCodeByKey(h.pool, keys.a)).toEqual({
      id: a,
      url: `https://sav.example.fr/ticket?key=${keys.a}`,
      qr_key: keys.a,
      version: 1,
      agence_id: lyon,
      installation_id: centrale,
      live_installation_id: centrale,
    });
    expect(await findQrCodeByKey(h.pool, keys.d)).toMatchObject({ installation_id: null, live_installation_id: null });
    expect(await findQrCodeByKey(h.pool, 'unknown-key-0000000')).toBeNull();
    expect(await findQrCode(h.pool, p, [lyon])).toBeNull();
    expect(await findQrCode(h.pool, p, [paris])).toMatchObject({ id: p, agence_id: paris });
  });

  it('leaves the codes of a deleted installation assigned, leading nowhere, until they are unassigned', async () => {
    await given(`installation-${centrale}`, [{ type: 'InstallationDeleted', data: { installationId: centrale, deletedAt: at } }]);
    expect(await findQrCodeByKey(h.pool, keys.a)).toMatchObject({ installation_id: centrale, live_installation_id: null });
    expect(await countUnusedQrCodes(h.pool, [lyon])).toBe(2);
    await given(`qrcode-${a}`, [unassigned(a, centrale), assigned(a, sprinklers)]);
    expect(await findQrCodeByKey(h.pool, keys.a)).toMatchObject({ installation_id: sprinklers, live_installation_id: sprinklers });
    expect((await listQrCodesByInstallation(h.pool, sprinklers)).map((row) => row.id)).toEqual([a]);
  });

  it('changes nothing when the same event is appended again or old events are delivered late', async () => {
    const before = await listQrCodesByInstallation(h.pool, sprinklers);
    await given(`qrcode-${a}`, [assigned(a, sprinklers)]);
    const after = await listQrCodesByInstallation(h.pool, sprinklers);
    expect(withoutVersions(after)).toEqual(withoutVersions(before));
    expect(after[0]?.version).toBe((before[0]?.version ?? NaN) + 1);
    await expectSameRows(table, () => redeliver(streams));
  });

  it('gives the same rows after a rebuild', () => expectSameRows(table, rebuild));
});
