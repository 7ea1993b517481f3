import type { FastifyInstance } from 'fastify';
import type { Role } from '@fsm/contracts';
import { commandCaller } from '../commands/command-context.js';
import type { Actor } from '../commands/execute.js';
import { handleCreateAgence } from '../commands/management/agence-commands.js';
import { handleCreateStaffUser, handleCreateTelesurvAccount } from '../commands/user-commands.js';
import type { AppDeps } from '../app-deps.js';

export const DEMO_PASSWORD = 'Demo-2026!';
export const DEMO_ROLES: readonly Role[] = ['admin_plus', 'admin', 'technicien_plus', 'technicien', 'telesurveillance'];
export const demoEmail = (role: Role) => `${role}@demo.fr`;

const FIRST_NAMES: Record<Role, [string, string]> = {
  admin_plus: ['Claire', 'Dubois'],
  admin: ['Marc', 'Lefèvre'],
  technicien_plus: ['Sofia', 'Moreau'],
  technicien: ['Julien', 'Garnier'],
  telesurveillance: ['', 'Centre de télésurveillance'],
};

/** Calls the API as a demo user, exactly as the screens do. */
export interface DemoClient {
  as(role: Role): { token: string; userId: string };
  call<T = unknown>(role: Role, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown): Promise<T>;
  app: FastifyInstance;
}

export interface DemoSeedStep {
  name: string;
  run(client: DemoClient, deps: AppDeps, context: { agenceId: string }): Promise<void>;
}

/**
 * Seeds an empty event log with a demo agency, one user per role (password
 * `Demo-2026!`) and, through the same API routes the screens use, the demo
 * data of each area (the steps). Does nothing when the log is not empty.
 */
export async function runDemoSeed(app: FastifyInstance, deps: AppDeps, steps: readonly DemoSeedStep[]): Promise<boolean> {
  // Two instances starting on an empty database must not both seed.
  const lock = await deps.pool.connect();
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtext('fsm:demo-seed'))`);
    if ((await deps.store.headPosition()) !== null) return false;
    await seed(app, deps, steps);
    return true;
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(hashtext('fsm:demo-seed'))`).catch(() => undefined);
    lock.release();
  }
}

async function seed(app: FastifyInstance, deps: AppDeps, steps: readonly DemoSeedStep[]): Promise<void> {
  const system: Actor = { userId: null, userName: 'Données de démonstration', correlationId: deps.newId() };
  const agenceId = deps.newId();
  await handleCreateAgence(commandCaller(deps, system), {
    agenceId,
    fields: { nom: 'Agence Lyon Centre', adresse: '14 quai Perrache', cp_postal: '69002', ville: 'Lyon', telephone: '04 78 12 34 56' },
  });

  const users = new Map<Role, { token: string; userId: string }>();
  for (const role of DEMO_ROLES) {
    const userId = deps.newId();
    const [prenom, nom] = FIRST_NAMES[role];
    const caller = commandCaller(deps, system);
    if (role === 'telesurveillance') {
      await handleCreateTelesurvAccount(caller, { userId, fields: { nom, email: demoEmail(role), telephone: '04 78 99 00 00' }, password: DEMO_PASSWORD });
    } else {
      await handleCreateStaffUser(caller, {
        userId,
        fields: { nom, prenom, email: demoEmail(role), telephone: '06 12 34 56 78', role, agence_id: agenceId },
        password: DEMO_PASSWORD,
      });
    }
    users.set(role, { userId, token: await deps.tokens.sign({ sub: userId }) });
  }

  const client: DemoClient = {
    app,
    as(role) {
      const user = users.get(role);
      if (!user) throw new Error(`no demo user for ${role}`);
      return user;
    },
    async call(role, method, url, payload) {
      const response = await app.inject({ method, url, headers: { authorization: `Bearer ${client.as(role).token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
      if (response.statusCode >= 400) throw new Error(`demo seed: ${method} ${url} → ${response.statusCode} ${response.body}`);
      return (response.body ? response.json() : undefined) as never;
    },
  };
  for (const step of steps) await step.run(client, deps, { agenceId });
}

export function demoCredentialsText(): string {
  return ['  Comptes de démonstration (mot de passe ' + DEMO_PASSWORD + ') :', ...DEMO_ROLES.map((role) => `    ${demoEmail(role)}`)].join('\n');
}
