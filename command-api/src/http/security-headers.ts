import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';

/**
 * The Content-Security-Policy of every answer (the web UI, the API, the files).
 * Scripts come only from the app's own origin; nothing else may run, frame the
 * app or be framed by it, or receive its requests. What each relaxation is for:
 * - style-src 'unsafe-inline': the captcha widget (altcha's bundle) and the
 *   rich-text editor (TipTap) add <style> elements, and the drag-and-drop rows
 *   and the agencies popover position themselves with style attributes. Styles
 *   cannot run code; scripts stay 'self' only.
 * - img-src data: blob: — signatures are PNG data URLs; photo previews, QR codes
 *   and the compressed photo are object URLs.
 * - worker-src blob: — the captcha's proof of work and the public form's photo
 *   compression run in workers built from object URLs by those libraries.
 * - frame-src blob: — the template builder's 'Preview A4' shows the PDF it
 *   received in an iframe.
 * - connect-src 'self' also covers the live-update socket (ws/wss of the same host).
 */
const CONTENT_SECURITY_POLICY: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'frame-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
};

/**
 * Security headers on every answer (`@fastify/helmet`): the CSP above,
 * X-Frame-Options DENY for browsers without frame-ancestors, nosniff,
 * Referrer-Policy same-origin (report links carry a download token: it never
 * goes to another site). HTTPS-only headers (HSTS, upgrade-insecure-requests)
 * only when the product is published over HTTPS: on a LAN served over plain
 * HTTP they would break every asset.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: { publicUrl: string }): Promise<void> {
  const https = options.publicUrl.startsWith('https:');
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { ...CONTENT_SECURITY_POLICY, ...(https ? { 'upgrade-insecure-requests': [] } : {}) },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: 180 * 24 * 3600, includeSubDomains: false } : false,
  });
}
