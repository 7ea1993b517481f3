import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/*
 * No Docker engine runs on our machines: docker-compose.yml and the Dockerfile are
 * checked statically here, and with `docker compose config -q` (which needs no
 * engine) when a compose CLI is installed.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const composeText = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
const workspaces = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;

interface Service {
  image?: string;
  command?: string[];
  restart?: string;
  healthcheck?: { test: string[] };
  environment?: Record<string, unknown>;
  env_file?: unknown;
  volumes?: string[];
  deploy?: { replicas?: number };
  ports?: string[];
}
const compose = parse(composeText, { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };

function composeCli(): string[] | null {
  for (const candidate of [['docker', 'compose'], ['docker-compose']]) {
    try {
      execFileSync(candidate[0]!, [...candidate.slice(1), 'version'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // not installed
    }
  }
  return null;
}
const cli = composeCli();

describe('docker-compose.yml', () => {
  it('runs KurrentDB, Postgres, Redis, an SMTP catcher and the three roles apart', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['command-api', 'kurrentdb', 'maildev', 'postgres', 'projections', 'redis', 'workers']);
    expect(compose.services.kurrentdb!.image).toMatch(/kurrentdb|eventstore/);
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.restart, name).toBe('unless-stopped');
      expect(service.healthcheck?.test.length, name).toBeGreaterThan(0);
      expect(service.env_file, name).toBeUndefined();
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        expect(source in compose.volumes, `${name}: named volume ${source}`).toBe(true);
      }
    }
  });

  it('runs two API instances on one port range, configured only by environment variables', () => {
    const api = compose.services['command-api']!;
    expect(api.deploy?.replicas).toBe(2);
    expect(api.ports?.[0]).toMatch(/3000-3001}?:3000$/);
    for (const role of ['command-api', 'projections', 'workers']) {
      const service = compose.services[role]!;
      const env = service.environment ?? {};
      expect(env.EVENTSTORE_URL, role).toMatch(/kurrentdb:\/\/kurrentdb:2113/);
      expect(env.DATABASE_URL, role).toMatch(/@postgres:5432\//);
      expect(env.REDIS_URL, role).toBe('redis://redis:6379');
      expect(env.TOKEN_SECRET, `${role}: never a literal secret`).toMatch(/^\$\{TOKEN_SECRET:\?/);
      expect(service.volumes, `${role}: shared files`).toContain('appdata:/data');
      // The command runs a role's entry point that the build produces from src/main.ts.
      const entry = service.command!.at(-1)!;
      expect(entry).toMatch(/^[a-z-]+\/dist\/main\.js$/);
      expect(existsSync(join(root, entry.replace('/dist/', '/src/').replace(/\.js$/, '.ts'))), entry).toBe(true);
      expect(existsSync(join(root, service.healthcheck!.test[2]!)), `${role} health check script`).toBe(true);
    }
  });

  it.skipIf(!cli)('passes `docker compose config -q` (no engine needed)', async () => {
    const run = promisify(execFile);
    const env = { ...process.env, TOKEN_SECRET: 'a-test-secret-that-is-long-enough-0123' };
    await expect(run(cli![0]!, [...cli!.slice(1), '-f', 'docker-compose.yml', 'config', '-q'], { cwd: root, env })).resolves.toBeDefined();
    // Without TOKEN_SECRET the file refuses to start (every API instance needs the same one).
    const { TOKEN_SECRET: _omitted, ...withoutSecret } = env;
    await expect(run(cli![0]!, [...cli!.slice(1), '-f', 'docker-compose.yml', 'config', '-q'], { cwd: root, env: withoutSecret })).rejects.toThrow(/TOKEN_SECRET/);
  });
});

describe('Dockerfile', () => {
  const stages = [...dockerfile.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((m) => m[1]);
  const runtime = dockerfile.slice(dockerfile.search(/^FROM\s+\S+\s+AS\s+runtime/im));

  it('builds in one stage and runs from another, as a non-root user', () => {
    expect(stages).toEqual(['build', 'runtime']);
    expect(dockerfile).toMatch(/RUN npm ci --no-audit/);
    expect(dockerfile).toMatch(/RUN npm run build/);
    expect(runtime).toMatch(/npm ci --omit=dev/);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).not.toMatch(/^USER root$/m);
  });

  it('copies files that exist and every workspace manifest before npm ci', () => {
    const copies = [...dockerfile.matchAll(/^COPY\s+(?!--from)(.+)$/gm)].map((m) => m[1]!.trim().split(/\s+/).slice(0, -1)).flat();
    for (const source of copies) expect(existsSync(join(root, source)), source).toBe(true);
    for (const workspace of workspaces) {
      expect(dockerfile.split(`COPY ${workspace}/package.json ${workspace}/`).length - 1, workspace).toBe(2);
    }
  });

  it('takes from the build stage only what the build produces', () => {
    const fromBuild = [...dockerfile.matchAll(/^COPY --from=build \/app\/(\S+) /gm)].map((m) => m[1]!);
    expect(fromBuild).toEqual(expect.arrayContaining(['command-api/dist', 'projections/dist', 'workers/dist', 'web/dist']));
    for (const path of fromBuild) expect(workspaces, path).toContain(path.split('/')[0]);
  });
});
