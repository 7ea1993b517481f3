import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi, renderApp, sentForm, signIn } from '../../../testing/render-app';
import { isAppleDevice } from './public-ticket-screen';

const captcha = vi.hoisted(() => ({ payload: 'preuve-altcha' as string | null }));
const compress = vi.hoisted(() => ({ fn: null as null | ((file: File) => Promise<File>) }));

vi.mock('altcha', () => {
  class FakeAltchaWidget extends HTMLElement {
    verify() {
      return Promise.resolve(captcha.payload ? { payload: captcha.payload } : null);
    }
  }
  if (!customElements.get('altcha-widget')) customElements.define('altcha-widget', FakeAltchaWidget);
  return {};
});
vi.mock('altcha/i18n/fr-fr', () => ({}));
vi.mock('browser-image-compression', () => ({ default: (file: File) => compress.fn!(file) }));

const path = '/ticket?key=QR-123';

beforeEach(() => {
  captcha.payload = 'preuve-altcha';
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:apercu');
  vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
});

function bigPhoto(): File {
  const file = new File(['x'], 'IMG_0001.jpg', { type: 'image/jpeg' });
  Object.defineProperty(file, 'size', { value: 12_000_000 });
  return file;
}

async function fill(app: ReturnType<typeof renderApp>) {
  await app.user.type(screen.getByLabelText('Nom'), 'Bernard');
  await app.user.type(screen.getByLabelText('Prénom'), 'Julie');
  await app.user.type(screen.getByLabelText('Email'), 'julie@example.fr');
  await app.user.type(screen.getByLabelText('Téléphone'), '0612345678');
  await app.user.type(screen.getByLabelText('Problème'), 'La centrale sonne sans arrêt');
}

function send(app: ReturnType<typeof renderApp>) {
  return app.user.click(screen.getByRole('button', { name: 'Envoyer la demande' }));
}

describe("public form 'Demande de dépannage'", () => {
  it('shows the fields and the captcha, without the navigation bar', async () => {
    const app = renderApp(path);
    expect(screen.getByRole('heading', { name: 'Demande de dépannage' })).toBeTruthy();
    for (const label of ['Nom', 'Prénom', 'Email', 'Téléphone', 'Problème', 'Photo (facultative)']) {
      expect(screen.getByLabelText(label)).toBeTruthy();
    }
    const widget = await waitFor(() => {
      const found = document.querySelector('altcha-widget');
      if (!found) throw new Error('no widget yet');
      return found;
    });
    expect(widget.getAttribute('challenge')).toBe('/api/public/captcha');
    expect(screen.queryByRole('navigation')).toBeNull();
    void app;
  });

  it('opens the rear camera directly except on Apple devices', () => {
    renderApp(path);
    expect(screen.getByLabelText('Photo (facultative)').getAttribute('capture')).toBe('environment');
    expect(isAppleDevice({ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', platform: 'iPhone', maxTouchPoints: 5 })).toBe(true);
    expect(isAppleDevice({ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', platform: 'MacIntel', maxTouchPoints: 5 })).toBe(true);
    expect(isAppleDevice({ userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8)', platform: 'Linux armv8l', maxTouchPoints: 5 })).toBe(false);
  });

  it('leaves the camera choice to iOS', () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)');
    renderApp(path);
    expect(screen.getByLabelText('Photo (facultative)').hasAttribute('capture')).toBe(false);
  });

  it("requires every field: 'Merci de remplir tous les champs obligatoires.'", async () => {
    const api = mockApi({});
    const app = renderApp(path);
    await app.user.type(screen.getByLabelText('Nom'), 'Bernard');
    await send(app);
    expect(screen.getByRole('alert').textContent).toBe('Merci de remplir tous les champs obligatoires.');
    expect(screen.getByLabelText('Prénom').getAttribute('aria-invalid')).toBe('true');
    expect(api.calls('POST /api/public/ticket-create')).toHaveLength(0);
  });

  it('takes the message and the red borders away once the missing fields are filled', async () => {
    mockApi({});
    const app = renderApp(path);
    await app.user.type(screen.getByLabelText('Nom'), 'Bernard');
    await send(app);
    expect(screen.getByRole('alert').textContent).toBe('Merci de remplir tous les champs obligatoires.');
    await app.user.type(screen.getByLabelText('Prénom'), 'Julie');
    expect(screen.getByLabelText('Prénom').getAttribute('aria-invalid')).not.toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Merci de remplir tous les champs obligatoires.');
    await app.user.type(screen.getByLabelText('Email'), 'julie@example.fr');
    await app.user.type(screen.getByLabelText('Téléphone'), '0612345678');
    await app.user.type(screen.getByLabelText('Problème'), 'La centrale sonne sans arrêt');
    expect(screen.queryByText('Merci de remplir tous les champs obligatoires.')).toBeNull();
    expect(screen.getByLabelText('Problème').getAttribute('aria-invalid')).not.toBe('true');
  });

  it("refuses a file that is not an image: 'Le fichier sélectionné n'est pas une image.'", async () => {
    const app = renderApp(path, { user: { applyAccept: false } });
    await app.user.upload(screen.getByLabelText('Photo (facultative)'), new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(screen.getByRole('alert').textContent).toBe("Le fichier sélectionné n'est pas une image.");
  });

  it('compresses a photo over 8 MB and blocks sending meanwhile', async () => {
    let finish: (file: File) => void = () => {};
    compress.fn = () => new Promise<File>((resolve) => (finish = resolve));
    const api = mockApi({ 'POST /api/public/ticket-create': { success: true, message: 'ok' } });
    const app = renderApp(path);
    await fill(app);
    await app.user.upload(screen.getByLabelText('Photo (facultative)'), bigPhoto());

    const button = screen.getByRole('button', { name: 'Traitement de la photo…' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await act(async () => finish(new File(['small'], 'x.jpg', { type: 'image/jpeg' })));

    expect(screen.getByRole('img', { name: 'Aperçu de la photo' })).toBeTruthy();
    await send(app);
    await screen.findByText('Votre demande a bien été enregistrée. Un technicien prendra contact avec vous rapidement.');
    const photo = sentForm(api.calls('POST /api/public/ticket-create')[0]).photo as File;
    expect(photo.name).toBe('IMG_0001.jpg');
    expect(photo.type).toBe('image/jpeg');
  });

  it('says when the photo cannot be brought under 8 MB', async () => {
    compress.fn = () => {
      const out = new File(['x'], 'x.jpg', { type: 'image/jpeg' });
      Object.defineProperty(out, 'size', { value: 9_000_000 });
      return Promise.resolve(out);
    };
    const app = renderApp(path);
    await app.user.upload(screen.getByLabelText('Photo (facultative)'), bigPhoto());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Impossible de compresser la photo sous 8 Mo. Merci de choisir une image plus petite.',
    );
    expect((screen.getByRole('button', { name: 'Envoyer la demande' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("says 'Erreur lors de la compression de la photo.' when compression fails", async () => {
    compress.fn = () => Promise.reject(new Error('decode'));
    const app = renderApp(path);
    await app.user.upload(screen.getByLabelText('Photo (facultative)'), bigPhoto());
    expect((await screen.findByRole('alert')).textContent).toBe('Erreur lors de la compression de la photo.');
  });

  it('sends the request with the key and the captcha proof, then confirms unmistakably', async () => {
    const api = mockApi({ 'POST /api/public/ticket-create': { success: true, message: 'Demande enregistrée' } });
    const app = renderApp(path);
    await fill(app);
    await send(app);
    const done = await screen.findByText('Votre demande a bien été enregistrée. Un technicien prendra contact avec vous rapidement.');
    expect(done.closest('[role="status"]')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Envoyer la demande' })).toBeNull();

    const request = api.calls('POST /api/public/ticket-create')[0]!;
    expect(new Headers(request.init.headers).has('Authorization')).toBe(false);
    expect(sentForm(request)).toEqual({
      key: 'QR-123',
      nom: 'Bernard',
      prenom: 'Julie',
      email: 'julie@example.fr',
      telephone: '0612345678',
      probleme: 'La centrale sonne sans arrêt',
      'g-recaptcha-response': 'preuve-altcha',
    });
  });

  it('never sends the token of a signed-in visitor', async () => {
    signIn();
    const api = mockApi({ 'POST /api/public/ticket-create': { success: true, message: 'ok' } });
    const app = renderApp(path);
    await fill(app);
    await send(app);
    await screen.findByText(/Votre demande a bien été enregistrée/);
    expect(new Headers(api.calls('POST /api/public/ticket-create')[0]!.init.headers).has('Authorization')).toBe(false);
  });

  it("says 'Échec reCAPTCHA. Merci de réessayer.' when the captcha is not solved", async () => {
    captcha.payload = null;
    const api = mockApi({});
    const app = renderApp(path);
    await fill(app);
    await send(app);
    expect((await screen.findByRole('alert')).textContent).toBe('Échec reCAPTCHA. Merci de réessayer.');
    expect(api.calls('POST /api/public/ticket-create')).toHaveLength(0);
  });

  it.each([
    [jsonResponse(400, { error: 'Lien non valide. Merci de scanner un QR code officiel.' }), 'Lien non valide. Merci de scanner un QR code officiel.'],
    [jsonResponse(500, {}), "Erreur lors de l'enregistrement."],
  ])('shows the server error or its fallback', async (reply, text) => {
    mockApi({ 'POST /api/public/ticket-create': reply });
    const app = renderApp(path);
    await fill(app);
    await send(app);
    expect((await screen.findByRole('alert')).textContent).toBe(text);
  });

  it("says 'Erreur réseau' when the server cannot be reached", async () => {
    mockApi({ 'POST /api/public/ticket-create': () => Promise.reject(new TypeError('Failed to fetch')) });
    const app = renderApp(path);
    await fill(app);
    await send(app);
    expect((await screen.findByRole('alert')).textContent).toBe('Erreur réseau');
  });
});

describe('a QR link that leads nowhere (issue 32, item 6)', () => {
  const invalid = () => jsonResponse(404, { error: 'Lien non valide. Merci de scanner un QR code officiel.', code: 'NOT_FOUND' });

  it('shows « Lien non valide » at once for an unknown key, before anything is typed', async () => {
    const api = mockApi({ 'GET /api/public/qr-keys/:key': invalid });
    renderApp('/ticket?key=NOPE1234');
    expect(await screen.findByText('Lien non valide. Merci de scanner un QR code officiel.')).toBeTruthy();
    expect(screen.queryByLabelText('Nom')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Envoyer la demande' })).toBeNull();
    expect(api.calls('GET /api/public/qr-keys/:key')[0]?.path).toBe('/api/public/qr-keys/NOPE1234');
  });

  it('keeps the form for a valid key, and when the check cannot answer', async () => {
    mockApi({ 'GET /api/public/qr-keys/:key': { valide: true } });
    const first = renderApp(path);
    await waitFor(() => expect(screen.getByLabelText('Nom')).toBeTruthy());
    first.unmount();
    mockApi({ 'GET /api/public/qr-keys/:key': () => jsonResponse(429, { error: 'Trop de demandes depuis votre connexion.' }) });
    renderApp(path);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByLabelText('Nom')).toBeTruthy();
    expect(screen.queryByText('Lien non valide. Merci de scanner un QR code officiel.')).toBeNull();
  });
});
