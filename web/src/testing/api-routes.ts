import { jsonResponse, mockFetch } from './fetch-mock';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  init: RequestInit;
}

type Reply = Response | unknown;
type Handler = (request: RecordedRequest, params: Record<string, string>) => Reply | Promise<Reply>;

/**
 * A fake API by route: keys are `METHOD /path/:param`. A handler returns a
 * Response, or any value sent as 200 JSON. An unknown route answers 404
 * `{ error }`, so a forgotten mock shows up as a failed call, not a hang.
 * Routes with fewer parameters are tried first.
 */
export function mockApi(routes: Record<string, Handler | Reply>) {
  const compiled = Object.entries(routes).map(([key, handler]) => {
    const [method = 'GET', pattern = '/'] = key.split(' ');
    const names: string[] = [];
    const regex = new RegExp(
      `^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      })}$`,
    );
    return { method, regex, names, handler };
  });
  // A fixed path wins over a pattern that also matches it (`/api/reports/send-email` vs `/api/reports/:file`).
  compiled.sort((a, b) => a.names.length - b.names.length);
  const requests: RecordedRequest[] = [];
  const fetchMock = mockFetch(async (url, init) => {
    const parsed = new URL(url, 'http://localhost');
    const request: RecordedRequest = { method: init.method ?? 'GET', path: parsed.pathname, query: parsed.searchParams, init };
    requests.push(request);
    for (const route of compiled) {
      if (route.method !== request.method) continue;
      const match = route.regex.exec(decodeURIComponent(request.path));
      if (!match) continue;
      const params = Object.fromEntries(route.names.map((name, i) => [name, match[i + 1] ?? '']));
      const reply = typeof route.handler === 'function' ? await (route.handler as Handler)(request, params) : route.handler;
      return reply instanceof Response ? reply : jsonResponse(200, reply);
    }
    return jsonResponse(404, { error: `non simulé : ${request.method} ${request.path}` });
  });
  return {
    fetchMock,
    requests,
    /** Requests sent to one route key, e.g. `PATCH /api/tickets/:id`. */
    calls(key: string): RecordedRequest[] {
      const [method = 'GET', pattern = '/'] = key.split(' ');
      const regex = new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, '([^/]+)')}$`);
      return requests.filter((r) => r.method === method && regex.test(decodeURIComponent(r.path)));
    },
  };
}

/** The multipart fields a recorded request sent (files as File). */
export function sentForm(request: RecordedRequest | undefined): Record<string, FormDataEntryValue> {
  const body = request?.init.body;
  if (!(body instanceof FormData)) return {};
  return Object.fromEntries(body.entries());
}

export function sentBody(request: RecordedRequest | undefined): unknown {
  const body = request?.init.body;
  return typeof body === 'string' ? JSON.parse(body) : undefined;
}
