import { z } from 'zod';

/**
 * For the browser, which runs under the product's Content-Security-Policy
 * (`script-src 'self'`, no 'unsafe-eval'): zod's fast path compiles object
 * parsers with `new Function`, and even its caught probe for it is reported
 * as a CSP violation. Without it, validation gives the same answers; the
 * server (no such policy) keeps the fast path.
 *
 * zod decides when a schema is built, so this must run before any schema of
 * this package exists: it is its own entry point (`@fsm/contracts/validation-without-eval`),
 * imported first by the web app, never through the package index.
 */
export function validateWithoutEval(): void {
  z.config({ jitless: true });
}
