import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getSession } from '../../../lib/session';
import { jsonResponse, makeUser, mockFetch, renderApp, sentJson } from '../../../testing/render-app';

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user']) {
  await user.type(screen.getByLabelText('Email'), 'camille@example.fr');
  await user.type(screen.getByLabelText('Mot de passe'), 'secret-1!');
  await user.click(screen.getByRole('button', { name: 'Se connecter' }));
}

describe('Connexion', () => {
  it('shows the login form with labelled fields', () => {
    renderApp('/login');
    expect(screen.getByRole('heading', { name: 'Connexion' })).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('type')).toBe('email');
    expect(screen.getByLabelText('Mot de passe').getAttribute('type')).toBe('password');
  });

  it('signs in, stores the session and goes to /dashboard', async () => {
    const account = makeUser({ role: 'admin', prenom: 'Camille' });
    const fetchMock = mockFetch(() => jsonResponse(200, { token: 'jwt-1', user: account }));
    const app = renderApp('/login');

    await fillAndSubmit(app.user);

    expect(await screen.findByRole('heading', { name: 'Résumé des tickets' })).toBeTruthy();
    expect(app.pathname()).toBe('/dashboard');
    expect(getSession()).toEqual({ token: 'jwt-1', user: account });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/login');
    expect(init?.method).toBe('POST');
    expect(sentJson(init)).toEqual({ email: 'camille@example.fr', motdepasse: 'secret-1!' });
    expect(new Headers(init?.headers).has('Authorization')).toBe(false);
  });

  it('sends a telesurveillance account to /telesurv/ticket', async () => {
    mockFetch(() => jsonResponse(200, { token: 'jwt-2', user: makeUser({ role: 'telesurveillance' }) }));
    const app = renderApp('/login');

    await fillAndSubmit(app.user);

    expect(await screen.findByRole('heading', { name: 'Nouveau ticket (Télésurveillance)' })).toBeTruthy();
    expect(app.pathname()).toBe('/telesurv/ticket');
  });

  it("shows 'Identifiants invalides' when the server refuses", async () => {
    mockFetch(() => jsonResponse(401, { error: 'Mauvais mot de passe' }));
    const app = renderApp('/login');

    await fillAndSubmit(app.user);

    expect((await screen.findByRole('alert')).textContent).toBe('Identifiants invalides');
    expect(app.pathname()).toBe('/login');
    expect(getSession()).toBeNull();
  });

  it("shows 'Erreur serveur' when the server cannot be reached", async () => {
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const app = renderApp('/login');

    await fillAndSubmit(app.user);

    expect((await screen.findByRole('alert')).textContent).toBe('Erreur serveur');
  });

  it('disables the button while signing in', async () => {
    let answer: (response: Response) => void = () => {};
    mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    const app = renderApp('/login');

    await fillAndSubmit(app.user);

    const busy = await screen.findByRole('button', { name: 'Connexion…' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
    answer(jsonResponse(401, {}));
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeTruthy();
  });
});
