import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Env } from '@fsm/contracts';

/**
 * The token key: TOKEN_SECRET when set (required in production), otherwise a
 * random key kept under DATA_DIR so sessions survive a restart of a local run.
 */
export async function resolveTokenSecret(env: Env): Promise<string> {
  if (env.TOKEN_SECRET) return env.TOKEN_SECRET;
  const file = join(env.DATA_DIR, 'token-secret');
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch {
    // First start: create it below.
  }
  await mkdir(env.DATA_DIR, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'w' });
  return secret;
}
