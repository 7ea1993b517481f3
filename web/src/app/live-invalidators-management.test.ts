import { describe, expect, it } from 'vitest';
import { keysToInvalidate, type LiveMessage } from '../lib/live-updates';
import { agenceKeys } from '../features/agences/api/agence-keys';
import { clientKeys } from '../features/clients/api/client-keys';
import { metierKeys } from '../features/metiers/api/metier-keys';
import { qrCodeKeys } from '../features/qrcodes/api/qrcode-keys';
import { statsKeys } from '../features/stats/api/stats-keys';
import { telesurvKeys } from '../features/telesurv-accounts/api/telesurv-keys';
import { templateKeys } from '../features/template-builder/api/template-keys';
import { userKeys } from '../features/users/api/user-keys';
import { liveInvalidators } from './live-invalidators';

const message = (...streams: string[]): LiveMessage => ({ position: '1', streams, resync: false });

/** Whether invalidating `key` refetches a query under `target` (react-query matches on prefixes). */
const covers = (key: readonly unknown[], target: readonly unknown[]) => key.every((part, i) => JSON.stringify(part) === JSON.stringify(target[i]));

function refreshed(streams: string[], target: readonly unknown[]): boolean {
  const keys = keysToInvalidate(message(...streams), liveInvalidators);
  return keys !== 'all' && keys.some((key) => covers(key, target));
}

describe('live updates of the management screens', () => {
  it.each([
    ['client-x', clientKeys.list({ page: 1, search: '' })],
    ['site-x', clientKeys.sites('c')],
    ['installation-x', clientKeys.sites('c')],
    ['interlocuteur-x', clientKeys.contacts.byClient('c')],
    ['qrcode-x', qrCodeKeys.byInstallation('i')],
    ['qrcode-x', qrCodeKeys.unused()],
    ['qrcode-x', qrCodeKeys.unusedCount()],
    ['agence-x', agenceKeys.list()],
    ['agence-x', agenceKeys.horaires('a')],
    ['agence-x', userKeys.list()],
    ['agence-x', clientKeys.list({ page: 2, search: 'x' })],
    ['user-x', userKeys.list()],
    ['user-x', userKeys.permissions('u')],
    ['user-x', telesurvKeys.list()],
    ['user-x', telesurvKeys.agences('t')],
    ['metiers-catalogue', metierKeys.list()],
    ['metier-x', clientKeys.sites('c')],
    ['metiers-catalogue', clientKeys.sites('c')],
    ['metier-x', statsKeys.ticketsFor({ from: '2026-01-01', to: '2026-01-31', metier_id: '', agence_id: '' })],
    ['agence-x', statsKeys.ticketsFor({ from: '2026-01-01', to: '2026-01-31', metier_id: '', agence_id: '' })],
    ['template-x', templateKeys.list()],
  ])('%s refreshes %j', (stream, target) => {
    expect(refreshed([stream], target)).toBe(true);
  });

  it("leaves the statistics' pages to livePageRefresher on a ticket's change (invalidating them refetches every page)", () => {
    expect(refreshed(['ticket-x'], statsKeys.ticketsFor({ from: '2026-01-01', to: '2026-01-31', metier_id: '', agence_id: '' }))).toBe(false);
  });

  it('never refetches QR images, which do not change', () => {
    expect(refreshed(['qrcode-x'], qrCodeKeys.image('q'))).toBe(false);
  });
});
