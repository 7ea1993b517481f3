import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { agence, at } from '../../test-support/management-events.js';
import { expectSameRows, useReadModelHarness } from '../../test-support/read-model-harness.js';
import { agencesProjector } from '../agences/agences-projector.js';
import { findAgenceHoraires, listAgences } from '../agences/agences-queries.js';
import { usersProjector } from './users-projector.js';
import { findUserByEmail, findUserById, isEmailTaken, listStaffUsers, listTelesurvAccounts } from './users-queries.js';

const h = useReadModelHarness('rm_users', [agencesProjector, usersProjector]);

const week = [1, 2, 3, 4, 5].map((day) => ({ day_of_week: day, morning_open: '08:00', morning_close: '12:00', afternoon_open: null, afternoon_close: null }));

function user(id: string, agenceId: string | null, role = 'technicien', email = `${id}@demo.fr`) {
  return { type: 'UserCreated', data: { userId: id, role, nom: 'Martin', prenom: role === 'telesurveillance' ? '' : 'Léa', email, telephone: null, agenceId, createdAt: at } };
}

describe('users and agences read models', () => {
  it('builds the principal: user, agency name, permissions, télésurveillance agencies', async () => {
    const lyon = randomUUID();
    const paris = randomUUID();
    const tech = randomUUID();
    const watcher = randomUUID();
    await h.given(`agence-${lyon}`, [agence(lyon, 'Lyon'), { type: 'AgenceHorairesSet', data: { agenceId: lyon, horaires: week, updatedAt: at } }]);
    await h.given(`agence-${paris}`, [agence(paris, 'Paris')]);
    await h.given(`user-${tech}`, [user(tech, lyon, 'technicien', 'Lea.Martin@demo.fr'), { type: 'UserPermissionsSet', data: { userId: tech, permissions: ['tickets.devis'], updatedAt: at } }]);
    await h.given(`user-${watcher}`, [user(watcher, null, 'telesurveillance'), { type: 'TelesurvAgencesSet', data: { userId: watcher, agenceIds: [lyon, paris], updatedAt: at } }]);

    const found = await findUserByEmail(h.pool, ' lea.martin@DEMO.fr ');
    expect(found).toMatchObject({ id: tech, agence_id: lyon, agence_nom: 'Lyon', permissions: ['tickets.devis'] });
    expect((await findUserById(h.pool, watcher))?.telesurv_agence_ids.sort()).toEqual([lyon, paris].sort());
    expect(await isEmailTaken(h.pool, 'LEA.MARTIN@demo.fr')).toBe(true);
    expect(await isEmailTaken(h.pool, 'lea.martin@demo.fr', tech)).toBe(false);
    expect((await listStaffUsers(h.pool, [paris])).map((u) => u.id)).toEqual([]);
    expect((await listStaffUsers(h.pool, 'all')).map((u) => u.id)).toContain(tech);
    expect((await listTelesurvAccounts(h.pool)).map((u) => u.id)).toEqual([watcher]);
    expect((await listAgences(h.pool, [lyon])).map((a) => a.nom)).toEqual(['Lyon']);
    expect(await findAgenceHoraires(h.pool, lyon)).toEqual(week);
  });

  it('forgets deleted users and frees their e-mail', async () => {
    const id = randomUUID();
    await h.given(`user-${id}`, [user(id, null, 'admin_plus', 'gone@demo.fr'), { type: 'UserDeleted', data: { userId: id, deletedAt: at } }]);
    expect(await findUserById(h.pool, id)).toBeNull();
    expect(await isEmailTaken(h.pool, 'gone@demo.fr')).toBe(false);
  });

  it('gives the same rows after a rebuild', () => expectSameRows(() => h.selectAll('rm.users'), h.rebuild));
});
