#!/usr/bin/env node
/*
 * Container health checks (Dockerfile HEALTHCHECK, docker-compose.yml):
 *   node scripts/docker-healthcheck.mjs command-api   GET /api/health answers 200
 *   node scripts/docker-healthcheck.mjs projections   Postgres answers
 *   node scripts/docker-healthcheck.mjs workers       Postgres and Redis answer
 * Exit 0 = healthy. Configuration only from the environment, like the roles.
 */
import net from 'node:net';
import pg from 'pg';

const role = process.argv[2] ?? 'command-api';
const env = process.env;
const timeout = AbortSignal.timeout(4000);

async function api() {
  const res = await fetch(`http://127.0.0.1:${env.PORT ?? 3000}/api/health`, { signal: timeout });
  if (res.status !== 200) throw new Error(`/api/health answered ${res.status}`);
}

async function postgres() {
  const client = new pg.Client({ connectionString: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query('SELECT 1');
  } finally {
    await client.end();
  }
}

function redis() {
  const url = new URL(env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port || 6379) });
    socket.setTimeout(3000, () => socket.destroy(new Error('redis: timeout')));
    socket.on('error', reject);
    socket.on('connect', () => {
      if (url.password) socket.write(`AUTH ${url.username ? `${decodeURIComponent(url.username)} ` : ''}${decodeURIComponent(url.password)}\r\n`);
      socket.write('PING\r\n');
    });
    socket.on('data', (data) => {
      if (String(data).includes('PONG')) {
        socket.end();
        resolve();
      } else if (String(data).startsWith('-')) socket.destroy(new Error(`redis: ${String(data).trim()}`));
    });
  });
}

const checks = { 'command-api': [api], projections: [postgres], workers: [postgres, redis] };
try {
  for (const check of checks[role] ?? []) await check();
  process.exit(0);
} catch (error) {
  console.error(`${role} unhealthy: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
