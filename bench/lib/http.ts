import { BENCH_PASSWORD } from '../seed/master-data.js';

export interface HttpAnswer<T = unknown> {
  status: number;
  ms: number;
  body: T;
  bytes: number;
}

/** A JSON call against the running stack, timed from the client side. */
export async function call<T = unknown>(base: string, token: string | null, method: string, path: string, body?: unknown): Promise<HttpAnswer<T>> {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: response.status, ms, body: parsed as T, bytes: Buffer.byteLength(text) };
}

export async function login(base: string, email: string): Promise<string> {
  const answer = await call<{ token: string }>(base, null, 'POST', '/api/login', { email, motdepasse: BENCH_PASSWORD });
  if (answer.status !== 200) throw new Error(`connexion ${email} : ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.token;
}

/** Runs `worker(i)` for i in 0..count-1 with at most `concurrency` at once. */
export async function pool<T>(count: number, concurrency: number, worker: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      for (let index = next++; index < count; index = next++) results[index] = await worker(index);
    }),
  );
  return results;
}

/** A multipart form (the ticket-creation routes take one, for the optional photo). */
export async function callForm<T = unknown>(base: string, token: string, path: string, fields: Record<string, string>): Promise<HttpAnswer<T>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await response.text();
  const ms = performance.now() - started;
  const parsed: unknown = (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
  return { status: response.status, ms, body: parsed as T, bytes: Buffer.byteLength(text) };
}
