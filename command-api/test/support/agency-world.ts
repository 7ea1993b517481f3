import { afterAll, beforeAll } from 'vitest';
import { createApiHarness, type ApiHarness, type TestUser, type TestUserOptions } from '../../src/test-support/api-harness.js';

/** The harness, each agency's id and each user, under the keys the file gave them. */
export type AgencyWorld<A extends string, U extends string> = { h: ApiHarness } & Record<A, string> & Record<U, TestUser>;

/**
 * Registers the file's beforeAll (the harness on database `label`, then the
 * agencies by name, then the users, each in the order given) and afterAll
 * (closes it); the world returned is filled in before the first test.
 */
export function useAgencyWorld<A extends string, U extends string>(
  label: string,
  agencies: Record<A, string>,
  users: (agencies: Record<A, string>) => Record<U, TestUserOptions>,
): AgencyWorld<A, U> {
  const world = {} as Record<string, unknown>;
  beforeAll(async () => {
    const h = await createApiHarness(label);
    world.h = h;
    const ids = {} as Record<A, string>;
    for (const [key, nom] of Object.entries(agencies) as [A, string][]) ids[key] = await h.createAgence(nom);
    Object.assign(world, ids);
    for (const [key, options] of Object.entries(users(ids)) as [U, TestUserOptions][]) world[key] = await h.createUser(options);
  });
  afterAll(async () => (world.h as ApiHarness | undefined)?.close());
  return world as AgencyWorld<A, U>;
}
