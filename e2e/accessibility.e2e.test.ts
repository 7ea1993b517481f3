import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { MANAGEMENT_MESSAGES } from '@fsm/contracts';
import { describeViolations, seriousA11yViolations, type A11yCheckOptions } from './support/a11y.js';
import { PHONE, foreignRequests, launchBrowser, newContext, recordConsole, saveArtifacts, saveArtifactsOnTimeout, signedInContext, skipReason } from './support/browser.js';
import { describeLayoutProblems, layoutProblems } from './support/layout-checks.js';
import { startStack, type Stack } from './support/stack.js';

/**
 * axe-core (WCAG 2.1 A + AA) on every screen of the product, as admin_plus
 * with the demo data, plus the signed-out screens and the télésurveillance
 * form. Dialogs and wizard steps are checked open, since that is where
 * labels and names most often go missing. Every screen is checked before
 * the test fails, so one run lists every serious or critical violation.
 *
 * Each screen state is also checked for text a user cannot read (clipped,
 * printed over other text, hidden under another element: issue 18, item 1),
 * on a phone and on a desktop, since a layout breaks at one width and not the
 * other.
 */
const VIEWPORTS: ReadonlyArray<readonly [string, BrowserContextOptions]> = [
  ['téléphone', PHONE],
  ['bureau', { viewport: { width: 1280, height: 800 } }],
];

describe.skipIf(skipReason !== null)('accessibility: no serious or critical axe-core violation on any screen', () => {
  let stack: Stack;
  let browser: Browser;
  const reports: string[] = [];
  let checked = 0;

  let viewportName = '';
  const check = async (page: Page, screen: string, options: A11yCheckOptions = {}) => {
    checked++;
    const screenName = `${screen} (${viewportName})`;
    if (process.env.A11Y_DEBUG) console.log(`[a11y] ${screenName}`);
    const violations = await seriousA11yViolations(page, options);
    const layout = await layoutProblems(page);
    for (const report of [violations.length > 0 ? describeViolations(screenName, violations) : '', layout.length > 0 ? describeLayoutProblems(screenName, layout) : '']) {
      if (!report) continue;
      console.error(report);
      reports.push(report);
    }
  };
  const dialog = (page: Page, name: string): Locator => page.getByRole('dialog', { name });
  const closeDialog = async (page: Page, box: Locator) => {
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'detached' });
  };

  beforeAll(async () => {
    stack = await startStack('a11y');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('the check itself finds a missing alt text and a nameless button', async () => {
    const context = await newContext(browser, stack.baseUrl);
    const page = await context.newPage();
    try {
      await page.setContent('<html lang="fr"><head><title>t</title></head><body><main><h1>t</h1><img src="/x.png"><button></button></main></body></html>');
      const ids = (await seriousA11yViolations(page)).map((v) => v.id).sort();
      expect(ids).toEqual(['button-name', 'image-alt']);
    } finally {
      await context.close();
    }
  });

  it('the layout check finds a label squeezed over the next field, a clipped button and covered text, and passes a clean form', async () => {
    const context = await newContext(browser, stack.baseUrl, PHONE);
    const page = await context.newPage();
    try {
      const form = (css: string) =>
        `<html lang="fr"><head><title>t</title><style>body{font:16px sans-serif;margin:8px} ${css}</style></head><body><main>` +
        '<label class="c"><input type="checkbox"><span>Un devis est à établir</span></label>' +
        '<label for="d">Date et heure de fin d’intervention</label><input id="d">' +
        '<button class="b">Valider la ré-intervention</button>' +
        '<div class="r"><span>Voir uniquement les tickets clos</span><div class="card">Carte</div></div></main></body></html>';
      await page.setContent(form('.c{display:flex;gap:4px} .r{position:relative}'));
      expect(await layoutProblems(page)).toEqual([]);
      await page.setContent(form('.c{display:inline-flex;width:18px;height:18px} .b{width:60px;overflow:hidden;white-space:nowrap} .r{position:relative} .card{position:absolute;top:0;left:0;width:300px;background:#fff}'));
      const kinds = new Set((await layoutProblems(page)).map((p) => p.kind));
      expect([...kinds].sort()).toEqual(['texte coupé', 'texte hors de son cadre', 'texte masqué', 'textes superposés']);
    } finally {
      await context.close();
    }
  });

  it('the layout check finds a row button that a sticky first column covers however the table scrolls, and passes one it can scroll clear of', async () => {
    const context = await newContext(browser, stack.baseUrl, PHONE);
    const page = await context.newPage();
    try {
      // A phone table as the product draws one: a sticky name column, the row's buttons at the end.
      const table = (nameWidth: string) =>
        `<html lang="fr"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>t</title><style>body{font:16px sans-serif;margin:8px} .wrap{overflow-x:auto} table{border-collapse:collapse} td,th{white-space:nowrap;padding:8px} ` +
        `th{position:sticky;left:0;z-index:1;background:#fff;width:${nameWidth};min-width:${nameWidth};max-width:${nameWidth};white-space:normal}</style></head><body><main>` +
        '<div class="wrap"><table><tbody><tr><th scope="row">Résidence Les Terrasses de Gerland</th><td>12 avenue Tony Garnier, 69007 Lyon</td>' +
        '<td><button>Interlocuteurs</button> <button>Modifier</button></td></tr></tbody></table></div></main></body></html>';
      await page.setContent(table('330px'));
      const problems = await layoutProblems(page);
      expect(problems.map((p) => [p.kind, p.text])).toEqual([
        ['commande recouverte', 'Interlocuteurs'],
        ['commande recouverte', 'Modifier'],
      ]);
      expect(problems[0]!.detail).toContain('recouvert par');
      await page.setContent(table('8rem'));
      expect(await layoutProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the browser set-up refuses a request to another host than the app and keeps it for the test to fail on', async () => {
    const context = await newContext(browser, stack.baseUrl);
    const page = await context.newPage();
    try {
      // A blank page has no CSP of its own: the request reaches the browser set-up's route.
      await page.setContent('<img alt="" src="https://cdn.jsdelivr.net/npm/browser-image-compression@2.0.2/dist/browser-image-compression.js">');
      await expect.poll(() => foreignRequests.get(context)!.length).toBe(1);
      const seen = foreignRequests.get(context)!;
      expect(seen).toEqual(['https://cdn.jsdelivr.net/npm/browser-image-compression@2.0.2/dist/browser-image-compression.js']);
      // Emptied here, or this very test would fail on it when it ends.
      seen.length = 0;
    } finally {
      await context.close();
    }
  });

  for (const [name, viewport] of VIEWPORTS) {
  it(`signed-out screens: login and the public QR form (${name})`, async () => {
    viewportName = name;
    const [qr] = await stack.query<{ key: string }>(
      `SELECT q.qr_key AS key FROM rm.qrcodes q JOIN rm.installations i ON i.id = q.installation_id WHERE NOT i.deleted ORDER BY q.generated_at LIMIT 1`,
    );
    expect(qr).toBeTruthy();
    const context = await newContext(browser, stack.baseUrl, viewport);
    const page = await context.newPage();
    const lines = recordConsole(page);
    saveArtifactsOnTimeout('a11y-signed-out', [{ page, console: lines }]);
    try {
      await page.goto('/login');
      await page.getByRole('heading', { name: 'Connexion' }).waitFor();
      await check(page, 'Connexion');
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.getByRole('alert').waitFor();
      await check(page, 'Connexion (erreur)');

      await page.goto(`/ticket?key=${encodeURIComponent(qr!.key)}`);
      await page.getByRole('heading', { name: 'Demande de dépannage' }).waitFor();
      await check(page, 'Formulaire public QR');
      await page.goto('/ticket');
      await page.getByText('Lien non valide. Merci de scanner un QR code officiel.').waitFor();
      await check(page, 'Formulaire public QR (lien non valide)');
    } catch (error) {
      await saveArtifacts('a11y-signed-out', [{ page, console: lines }]);
      throw error;
    } finally {
      await context.close();
    }
  });

  it(`télésurveillance form (${name})`, async () => {
    viewportName = name;
    const context = await signedInContext(browser, stack.baseUrl, 'telesurveillance@demo.fr', viewport);
    const page = await context.newPage();
    const lines = recordConsole(page);
    saveArtifactsOnTimeout('a11y-telesurv', [{ page, console: lines }]);
    try {
      await page.goto('/telesurv/ticket');
      await page.getByRole('heading', { name: 'Nouveau ticket (Télésurveillance)' }).waitFor();
      await page.getByRole('combobox', { name: /Agence/ }).locator('option').nth(1).waitFor({ state: 'attached' });
      await check(page, 'Nouveau ticket (Télésurveillance)');
    } catch (error) {
      await saveArtifacts('a11y-telesurv', [{ page, console: lines }]);
      throw error;
    } finally {
      await context.close();
    }
  });

  it(`home, tickets, ticket detail and the wizard steps, as admin_plus (${name})`, async () => {
    viewportName = name;
    const [open] = await stack.query<{ id: string }>(`SELECT id FROM rm.tickets WHERE statut = 'ouvert' ORDER BY created_at LIMIT 1`);
    const [closed] = await stack.query<{ id: string }>(`SELECT id FROM rm.tickets WHERE statut = 'clos' ORDER BY clos_at DESC LIMIT 1`);
    const [tech] = await stack.query<{ id: string }>(`SELECT id FROM rm.users WHERE lower(email) = 'technicien@demo.fr'`);
    expect(open && closed && tech).toBeTruthy();
    const [me] = await stack.query<{ prenom: string; nom: string }>(`SELECT prenom, nom FROM rm.users WHERE lower(email) = 'admin_plus@demo.fr'`);

    const context = await signedInContext(browser, stack.baseUrl, 'admin_plus@demo.fr', viewport);
    const page = await context.newPage();
    const lines = recordConsole(page);
    saveArtifactsOnTimeout('a11y-tickets', [{ page, console: lines }]);
    const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();
    try {
      // Home, navigation menu and password dialog.
      await page.goto('/');
      await h1('Résumé des tickets');
      await page.getByText('Tickets actifs').first().waitFor();
      await check(page, 'Accueil');
      await page.getByRole('button', { name: 'Gestion' }).click();
      await page.getByRole('menu').waitFor();
      await check(page, 'Accueil (menu Gestion ouvert)');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: `${me!.prenom} ${me!.nom}` }).click();
      const password = dialog(page, 'Changer mon mot de passe');
      await password.waitFor();
      await check(page, 'Changement de mot de passe');
      await closeDialog(page, password);

      // Ticket board, add-ticket dialog, closed tickets with their filters.
      await page.goto('/tickets');
      await h1('Tickets Ouverts');
      await page.getByRole('list', { name: 'Tickets' }).getByRole('listitem').first().waitFor();
      await check(page, 'Tickets ouverts');
      await page.getByRole('button', { name: '+ Ajouter un ticket' }).click();
      const add = dialog(page, 'Ajouter un ticket');
      await add.waitFor();
      await check(page, 'Ajouter un ticket');
      await closeDialog(page, add);
      await page.getByRole('button', { name: 'Voir les tickets clos' }).click();
      await h1('Tickets Clos');
      await page.getByRole('list', { name: 'Tickets' }).getByRole('listitem').first().waitFor();
      await page.getByRole('button', { name: 'Filtres' }).click();
      await page.getByText('Voir uniquement les tickets clos avec devis non validé').waitFor();
      await check(page, 'Tickets clos (filtres ouverts)');

      // A closed ticket's detail, then an open one through take-in-charge and the 3 wizard steps.
      await page.goto(`/tickets/${closed!.id}`);
      await page.getByRole('complementary', { name: 'Résumé et actions' }).waitFor();
      await check(page, 'Détail d’un ticket clos');
      await page.goto(`/tickets/${open!.id}`);
      await page.getByRole('button', { name: 'Prendre en charge' }).click();
      const take = dialog(page, 'Prendre en charge');
      await take.locator(`option[value="${tech!.id}"]`).waitFor({ state: 'attached' });
      await check(page, 'Prendre en charge');
      await take.getByRole('combobox', { name: 'Technicien' }).selectOption(tech!.id);
      await take.getByRole('button', { name: 'Confirmer' }).click();
      await take.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Clôturer le ticket' }).waitFor();
      await check(page, 'Détail d’un ticket en cours');
      await page.getByRole('button', { name: 'Clôturer le ticket' }).click();
      const wizard = dialog(page, 'Clôturer le ticket');
      await wizard.getByRole('heading', { name: 'Étape 1 sur 3 : Arrivée sur site' }).waitFor();
      await check(page, 'Assistant, étape 1');
      await wizard.getByRole('radio', { name: 'Hors service', exact: true }).check();
      await wizard.getByRole('button', { name: 'Suivant' }).click();
      await wizard.getByRole('heading', { name: 'Étape 2 sur 3 : Intervention' }).waitFor();
      await check(page, 'Assistant, étape 2');
      await wizard.getByLabel('Constat du technicien').fill('Contrôle accessibilité');
      await wizard.getByRole('radio', { name: 'Fonctionnel', exact: true }).check();
      await wizard.getByRole('button', { name: 'Suivant' }).click();
      await wizard.getByRole('img', { name: 'Signature du client' }).waitFor();
      await check(page, 'Assistant, étape 3');
      await closeDialog(page, wizard);

    } catch (error) {
      await saveArtifacts('a11y-tickets', [{ page, console: lines }]);
      throw error;
    } finally {
      await context.close();
    }
  }, 300_000);

  it(`every management screen and its dialogs, as admin_plus (${name})`, async () => {
    viewportName = name;
    const context = await signedInContext(browser, stack.baseUrl, 'admin_plus@demo.fr', viewport);
    const page = await context.newPage();
    const lines = recordConsole(page);
    saveArtifactsOnTimeout('a11y-management', [{ page, console: lines }]);
    const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();
    try {
      // Management screens, each with its add or edit dialog.
      await page.goto('/clients');
      await h1('Clients');
      const firstClient = page.getByRole('table', { name: 'Liste des clients' }).getByRole('rowheader').first().getByRole('button');
      await firstClient.click();
      const detail = page.getByRole('region', { name: /^Sites et installations de / });
      await detail.getByRole('list').first().getByRole('button').first().click();
      await detail.getByRole('button', { name: /^QR codes de / }).first().waitFor();
      await check(page, 'Clients (client et site choisis)');
      await page.getByRole('button', { name: '+ Ajouter un client' }).click();
      await check(page, 'Ajouter un client');
      await closeDialog(page, dialog(page, 'Ajouter un client'));
      await detail.getByRole('button', { name: '+ Ajouter un site' }).click();
      await check(page, 'Ajouter un site');
      await closeDialog(page, dialog(page, 'Ajouter un site'));
      await detail.getByRole('button', { name: '+ Ajouter une installation' }).click();
      const addInstallation = dialog(page, 'Ajouter une installation');
      await addInstallation.getByRole('combobox', { name: /Métier/ }).locator('option').nth(1).waitFor({ state: 'attached' });
      await check(page, 'Ajouter une installation');
      await closeDialog(page, addInstallation);
      await detail.getByRole('button', { name: /^QR codes de / }).first().click();
      const qrDialog = page.getByRole('dialog', { name: /QR codes/ });
      await qrDialog.waitFor();
      await qrDialog.getByText('Fermer', { exact: true }).waitFor();
      await check(page, 'QR codes d’une installation');
      await closeDialog(page, qrDialog);
      // A real click: on a phone the button must come out from under the table's sticky first column (issue 18).
      await page.getByRole('button', { name: /^Interlocuteurs de / }).first().click();
      const contacts = page.getByRole('dialog', { name: /Interlocuteurs/ });
      await contacts.waitFor();
      await contacts.getByRole('button', { name: '+ Ajouter un interlocuteur' }).waitFor();
      await check(page, 'Interlocuteurs');
      await closeDialog(page, contacts);

      await page.goto('/qrcodes');
      await h1('QR Codes');
      await page.getByRole('list', { name: 'Planche 1' }).getByRole('img').first().waitFor();
      await check(page, 'QR Codes');

      await page.goto('/users');
      await h1('Utilisateurs');
      await page.getByRole('button', { name: /^Permissions de / }).first().click();
      const permissions = page.getByRole('dialog', { name: /Permissions/ });
      await permissions.getByRole('checkbox').first().waitFor();
      await check(page, 'Permissions d’un utilisateur');
      await closeDialog(page, permissions);
      await page.getByRole('button', { name: '+ Ajouter un utilisateur' }).click();
      await check(page, 'Ajouter un utilisateur');
      await closeDialog(page, page.getByRole('dialog', { name: /utilisateur/ }));
      await check(page, 'Utilisateurs');

      await page.goto('/agences');
      await h1('Agences');
      await page.getByRole('button', { name: /^Modifier / }).first().click();
      const agence = dialog(page, "Modifier l'agence");
      await agence.getByRole('checkbox').first().waitFor();
      await check(page, 'Modifier une agence');
      // Edited: a half-day closed, an hour set, another refused with its message under it.
      await agence.getByRole('checkbox', { name: 'Mardi après-midi' }).uncheck();
      await agence.getByLabel('Mardi matin, fermeture').fill('19:00');
      await agence.getByLabel('Jeudi matin, fermeture').fill('07:00');
      await agence.getByRole('button', { name: 'Enregistrer' }).click();
      await agence.getByText(MANAGEMENT_MESSAGES.horaireMorningOrder).waitFor();
      await check(page, 'Modifier une agence (horaires modifiés, une erreur)');
      await closeDialog(page, agence);
      await check(page, 'Agences');

      await page.goto('/telesurv');
      await h1('Comptes télésurveillance');
      await page.getByRole('button', { name: /^Affecter .* aux agences$/ }).first().click();
      const assign = dialog(page, 'Affecter aux agences');
      await assign.getByRole('checkbox').first().waitFor();
      await check(page, 'Affecter aux agences');
      await closeDialog(page, assign);
      await page.getByRole('button', { name: '+ Ajouter' }).click();
      await check(page, 'Ajouter compte télésurveillance');
      await closeDialog(page, dialog(page, 'Ajouter compte télésurveillance'));
      await check(page, 'Comptes télésurveillance');

      await page.goto('/metiers');
      await h1('Métiers');
      await page.getByRole('button', { name: /^Modifier / }).first().waitFor();
      await check(page, 'Métiers');
      await page.getByRole('button', { name: '+ Ajouter' }).click();
      await check(page, 'Ajouter un métier');
      await closeDialog(page, page.getByRole('dialog'));

      await page.goto('/template-builder');
      await h1('Templates de documents');
      await page.getByRole('button', { name: 'Sauvegarder' }).waitFor();
      await page.getByRole('textbox', { name: 'Nom du modèle' }).and(page.locator(':not([value=""])')).waitFor();
      await check(page, 'Templates de documents');
      await page.getByRole('button', { name: 'Agence', exact: true }).click();
      const assignTemplate = dialog(page, 'Affecter le modèle à une agence');
      await assignTemplate.getByRole('listitem').first().waitFor();
      await check(page, 'Affecter le modèle à une agence');
      await closeDialog(page, assignTemplate);
      await page.getByRole('button', { name: 'Preview A4' }).click();
      const preview = page.getByRole('dialog').last();
      await preview.waitFor();
      await page.getByTitle('Aperçu A4 du modèle').waitFor({ timeout: 30_000 });
      await check(page, 'Preview A4');
      await closeDialog(page, preview);

      await page.goto('/stats');
      await h1('Statistiques');
      await page.getByRole('meter').first().waitFor({ timeout: 30_000 });
      await check(page, 'Statistiques');
    } catch (error) {
      await saveArtifacts('a11y-management', [{ page, console: lines }]);
      throw error;
    } finally {
      await context.close();
    }
  }, 300_000);
  }

  it('lists every violation found', () => {
    expect(checked).toBeGreaterThan(30);
    expect(reports.join('\n\n'), `${reports.length} écran(s) avec des violations`).toBe('');
  });
});
