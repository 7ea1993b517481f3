import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeQrCode } from '../../../testing/management';
import { jsonResponse, makeUser, mockApi, renderApp, sentBody, signIn } from '../../../testing/render-app';
import { countFromInput } from './qrcodes-screen';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';
const svgResponse = () => new Response(SVG, { status: 200, headers: { 'Content-Type': 'image/svg+xml; charset=utf-8' } });

function api(overrides: Record<string, unknown> = {}) {
  return mockApi({
    'GET /api/qrcodes/unused-count': { unused: 7 },
    'GET /api/qrcodes/unused': { items: [makeQrCode(1), makeQrCode(2)] },
    'GET /api/qrcodes/:id/image.svg': svgResponse,
    ...overrides,
  });
}

const manager = () => signIn(makeUser({ role: 'admin', permissions: ['qrcodes.manage'], agence_nom: 'Agence Lyon' }));

describe('countFromInput', () => {
  it('clamps to 0–100 and reads an empty field as 0', () => {
    expect(countFromInput('5')).toBe(5);
    expect(countFromInput('150')).toBe(100);
    expect(countFromInput('-3')).toBe(0);
    expect(countFromInput('')).toBe(0);
    expect(countFromInput('7.9')).toBe(7);
  });
});

describe('QR Codes screen', () => {
  it('starts at 5, clamps the count to 100 and disables generation below 1', async () => {
    manager();
    api();
    const app = renderApp('/qrcodes');
    const count = (await screen.findByLabelText('Nombre de QR codes')) as HTMLInputElement;
    const generate = screen.getByRole('button', { name: 'Générer' }) as HTMLButtonElement;
    expect(count.value).toBe('5');
    expect(generate.disabled).toBe(false);
    await app.user.clear(count);
    expect(count.value).toBe('0');
    expect(generate.disabled).toBe(true);
    await app.user.type(count, '150');
    expect(count.value).toBe('100');
    expect(generate.disabled).toBe(false);
  });

  it('shows the unused counter', async () => {
    manager();
    api();
    renderApp('/qrcodes');
    await waitFor(() => expect(screen.getByText(/QR codes non utilisés/).textContent).toBe('QR codes non utilisés\u202F: 7'));
  });

  it('generates a batch and lays it out as labels with our server-rendered images', async () => {
    manager();
    const batch = [makeQrCode(10), makeQrCode(11), makeQrCode(12)];
    const mock = api({ 'POST /api/qrcodes/batch': () => jsonResponse(201, { codes: batch }) });
    const app = renderApp('/qrcodes');
    const count = await screen.findByLabelText('Nombre de QR codes');
    await app.user.clear(count);
    await app.user.type(count, '3');
    await app.user.click(screen.getByRole('button', { name: 'Générer' }));
    await waitFor(() => expect(mock.calls('POST /api/qrcodes/batch')).toHaveLength(1));
    expect(sentBody(mock.calls('POST /api/qrcodes/batch')[0])).toEqual({ count: 3 });
    expect(await screen.findByText('3 QR codes générés.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Dernier lot (3)' }).getAttribute('aria-pressed')).toBe('true');

    const sheet = screen.getByRole('list', { name: 'Planche 1' });
    const labels = within(sheet).getAllByRole('listitem');
    expect(labels).toHaveLength(3);
    expect(within(labels[0] as HTMLElement).getByText('Scannez pour signaler une panne')).toBeTruthy();
    expect(within(labels[0] as HTMLElement).getByText('Agence Lyon')).toBeTruthy();
    const image = (await within(labels[0] as HTMLElement).findByRole('img', { name: `QR code ${batch[0]?.qr_key}` })) as HTMLImageElement;
    expect(image.src).toMatch(/^blob:/);
    const imageCall = mock.calls('GET /api/qrcodes/:id/image.svg').find((r) => r.path.includes(batch[0]?.id ?? ''));
    expect(new Headers(imageCall?.init.headers).get('Authorization')).toBe('Bearer test-token');
    expect(mock.requests.some((r) => !r.path.startsWith('/api/'))).toBe(false);

    await app.user.click(screen.getByRole('button', { name: 'Tous les non utilisés' }));
    expect(within(screen.getByRole('list', { name: 'Planche 1' })).getAllByRole('listitem')).toHaveLength(2);
  });

  it('a live resync refetches the lists, never the images on the sheet', async () => {
    manager();
    const mock = api();
    const app = renderApp('/qrcodes');
    const sheet = await screen.findByRole('list', { name: 'Planche 1' });
    await within(sheet).findByRole('img', { name: 'QR code ' + makeQrCode(2).qr_key });
    const images = mock.calls('GET /api/qrcodes/:id/image.svg').length;
    const lists = mock.calls('GET /api/qrcodes/unused').length;
    // What a resync does (live-updates.ts): every query is invalidated.
    await app.queryClient.invalidateQueries();
    await waitFor(() => expect(mock.calls('GET /api/qrcodes/unused').length).toBeGreaterThan(lists));
    expect(mock.calls('GET /api/qrcodes/:id/image.svg')).toHaveLength(images);
  });

  it('prints the sheet and keeps a print-only copy out of the accessibility tree', async () => {
    manager();
    api();
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const app = renderApp('/qrcodes');
    await screen.findByRole('list', { name: 'Planche 1' });
    expect(document.body.classList.contains('has-print-sheet')).toBe(true);
    expect(document.querySelector('.print-root--print-only')?.getAttribute('aria-hidden')).toBe('true');
    await app.user.click(screen.getByRole('button', { name: 'Imprimer la planche' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('exports the unused codes as CSV', async () => {
    manager();
    const mock = api({
      'POST /api/qrcodes/export': () => new Response('\uFEFFID;Clé;URL\r\n', { status: 200, headers: { 'Content-Type': 'text/csv; charset=utf-8' } }),
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const app = renderApp('/qrcodes');
    await app.user.click(await screen.findByRole('button', { name: 'Exporter' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toMatch(/^qrcodes_\d{4}-\d{2}-\d{2}\.csv$/);
    expect(mock.calls('POST /api/qrcodes/export')).toHaveLength(1);
  });

  it("shows the server's refusal of a batch", async () => {
    manager();
    api({ 'POST /api/qrcodes/batch': () => jsonResponse(400, { error: 'Générez au moins 1 QR code.' }) });
    const app = renderApp('/qrcodes');
    await app.user.click(await screen.findByRole('button', { name: 'Générer' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Générez au moins 1 QR code.');
  });
});
