import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ValidationError } from '../errors.js';
import { agenceBodySchema, agenceHorairesBodySchema, defaultAgenceHoraires, setAgenceHalfDay } from './agence.js';
import { clientBodySchema } from './client.js';
import { formatInstallationDelai, installationBodySchema } from './installation.js';
import { interlocuteurBodySchema, toInterlocuteurAffectations } from './interlocuteur.js';
import { metierBodySchema, metierReorderBodySchema, renumberMetiers, compareMetiers } from './metier.js';
import { buildQrCodeUrl, clampQrCodeBatchCount, canGenerateQrCodes, qrCodeBatchBodySchema } from './qr-code.js';
import { statsTicketsQuerySchema } from './stats.js';
import { telesurvAgencesBodySchema, telesurvCreateBodySchema, telesurvUpdateBodySchema } from './telesurv.js';
import { templateBodySchema, templateCopyName } from './template.js';
import { userCreateBodySchema, userPermissionsBodySchema, userUpdateBodySchema } from './user.js';
import { siteBodySchema } from './site.js';
import { parseManagementBody } from './validation.js';

const A = '0b7d0f0e-1c2d-4e3f-9a4b-5c6d7e8f9a0b';
const B = '1c8e1a1f-2d3e-4f4a-8b5c-6d7e8f9a0b1c';
const C = '2d9f2b2a-3e4f-4a5b-9c6d-7e8f9a0b1c2d';

function firstMessage(schema: z.ZodType, input: unknown): string | undefined {
  const result = schema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/** Deciders parse again what handlers parsed: the output must be a fixed point. */
function expectIdempotent<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const once = schema.parse(input);
  expect(schema.parse(once)).toEqual(once);
  return once;
}

describe('parseManagementBody', () => {
  it('returns the parsed value', () => {
    expect(parseManagementBody(siteBodySchema, { nom: ' Usine ', adresse: '1 rue', ville: 'Lyon', code_postal: '69001', client_id: A }).nom).toBe('Usine');
  });

  it('throws a ValidationError with the first French message and every issue in details', () => {
    try {
      parseManagementBody(siteBodySchema, { client_id: A });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toBe('Tous les champs sont obligatoires !');
      expect((error as ValidationError).details?.issues).toHaveLength(4);
    }
  });
});

describe('site body', () => {
  it.each(['nom', 'adresse', 'ville', 'code_postal'])('refuses a missing or blank %s with the spec alert', (field) => {
    const body = { nom: 'Usine', adresse: '1 rue', ville: 'Lyon', code_postal: '69001', client_id: A, [field]: '   ' };
    expect(firstMessage(siteBodySchema, body)).toBe('Tous les champs sont obligatoires !');
  });
});

describe('client body', () => {
  const client = { nom: 'ACME', adresse: '1 rue', ville: 'Lyon', code_postal: '69001', agence_id: A };

  it('requires an agency with the spec alert', () => {
    expect(firstMessage(clientBodySchema, { ...client, agence_id: '' })).toBe('Veuillez sélectionner une agence.');
    expect(firstMessage(clientBodySchema, { ...client, agence_id: null })).toBe('Veuillez sélectionner une agence.');
    expect(firstMessage(clientBodySchema, { ...client, agence_id: undefined })).toBe('Veuillez sélectionner une agence.');
  });

  it('requires the four address fields', () => {
    expect(firstMessage(clientBodySchema, { ...client, ville: '' })).toBe('Le nom, l\'adresse, la ville et le code postal du client sont obligatoires.');
  });

  it('trims and is idempotent', () => {
    expect(expectIdempotent(clientBodySchema, { ...client, nom: '  ACME  ' }).nom).toBe('ACME');
  });
});

describe('installation body', () => {
  const installation = { nom: 'SSI', id_metier: A, description: 'Centrale', delai: 4, astreinte: true, site_id: B };

  it('accepts the form values and stores astreinte as 0 or 1', () => {
    expect(expectIdempotent(installationBodySchema, installation)).toMatchObject({ delai: 4, astreinte: 1 });
    expect(expectIdempotent(installationBodySchema, { ...installation, astreinte: undefined }).astreinte).toBe(0);
    expect(expectIdempotent(installationBodySchema, { ...installation, delai: '12' }).delai).toBe(12);
  });

  it('requires nom, métier, description and delai', () => {
    expect(firstMessage(installationBodySchema, { ...installation, nom: '' })).toBe("Le nom de l'installation est obligatoire.");
    expect(firstMessage(installationBodySchema, { ...installation, id_metier: '' })).toBe('Veuillez sélectionner un métier.');
    expect(firstMessage(installationBodySchema, { ...installation, description: ' ' })).toBe('La description est obligatoire.');
    expect(firstMessage(installationBodySchema, { ...installation, delai: '' })).toBe('Le délai est obligatoire.');
  });

  it('refuses a delay below 1 hour or not whole', () => {
    for (const delai of [0, -2, 1.5, 'abc']) {
      expect(firstMessage(installationBodySchema, { ...installation, delai })).toBe("Le délai doit être un nombre entier d'heures, d'au moins 1 heure.");
    }
    expect(installationBodySchema.parse({ ...installation, delai: 1 }).delai).toBe(1);
  });

  it('formats the delay as the clients screen shows it', () => {
    expect(formatInstallationDelai(4)).toBe('Dépannage sous 4h');
  });
});

describe('interlocuteur body', () => {
  it('requires prenom and nom, keeps optional fields null and dedupes affectations', () => {
    expect(firstMessage(interlocuteurBodySchema, { nom: 'Durand', prenom: '', client_id: A })).toBe('Le nom et le prénom sont obligatoires.');
    const parsed = expectIdempotent(interlocuteurBodySchema, {
      nom: 'Durand', prenom: 'Paul', fonction: '', email: ' Paul@Example.FR ', client_id: A, affect_sites: [B, B], affect_installations: null,
    });
    expect(parsed).toEqual({
      nom: 'Durand', prenom: 'Paul', fonction: null, telephone: null, email: 'paul@example.fr', client_id: A, affect_sites: [B], affect_installations: [],
    });
  });

  it('refuses an invalid e-mail', () => {
    expect(firstMessage(interlocuteurBodySchema, { nom: 'D', prenom: 'P', client_id: A, email: 'paul' })).toBe('Adresse e-mail invalide.');
  });

  it('lists affectations sites first', () => {
    expect(toInterlocuteurAffectations([A], [B])).toEqual([{ niveau: 'site', niveau_id: A }, { niveau: 'installation', niveau_id: B }]);
  });
});

describe('agence body and opening hours', () => {
  const agence = { nom: 'Lyon', adresse: '1 rue', cp_postal: '69001', ville: 'Lyon', telephone: '0400000000' };

  it('requires every field, each with its own message', () => {
    expect(firstMessage(agenceBodySchema, { ...agence, telephone: '' })).toBe("Le téléphone de l'agence est obligatoire.");
    expect(firstMessage(agenceBodySchema, { ...agence, cp_postal: undefined })).toBe("Le code postal de l'agence est obligatoire.");
  });

  it('drops unknown keys of the template builder PUT and keeps id_template absent, null or set', () => {
    expect(agenceBodySchema.parse({ ...agence, id: A })).toEqual(agence);
    expect(agenceBodySchema.parse({ ...agence, id_template: null }).id_template).toBeNull();
    expect(agenceBodySchema.parse({ ...agence, id_template: B }).id_template).toBe(B);
  });

  it('starts a week with the default hours on every weekday', () => {
    expect(defaultAgenceHoraires()).toHaveLength(5);
    expect(defaultAgenceHoraires()[0]).toEqual({ day_of_week: 1, morning_open: '08:00', morning_close: '12:00', afternoon_open: '13:30', afternoon_close: '17:30' });
  });

  it('opens a ticked half-day with its defaults and nulls an unticked one', () => {
    const closed = { day_of_week: 2, morning_open: null, morning_close: null, afternoon_open: null, afternoon_close: null };
    expect(setAgenceHalfDay(closed, 'afternoon', true)).toEqual({ ...closed, afternoon_open: '13:30', afternoon_close: '17:30' });
    expect(setAgenceHalfDay(defaultAgenceHoraires()[0]!, 'morning', false)).toMatchObject({ morning_open: null, morning_close: null, afternoon_open: '13:30' });
  });

  it('completes the week: five days in order, a missing day closed, HH:mm:ss cut', () => {
    const week = expectIdempotent(agenceHorairesBodySchema, [{ day_of_week: '3', morning_open: '09:00:00', morning_close: '12:00', afternoon_open: '', afternoon_close: null }]);
    expect(week.map((d) => d.day_of_week)).toEqual([1, 2, 3, 4, 5]);
    expect(week[2]).toEqual({ day_of_week: 3, morning_open: '09:00', morning_close: '12:00', afternoon_open: null, afternoon_close: null });
    expect(week[0]).toMatchObject({ morning_open: null, afternoon_close: null });
    expect(agenceHorairesBodySchema.parse({ horaires: [] })).toHaveLength(5);
  });

  it.each([
    [{ day_of_week: 6 }, 'Les horaires ne concernent que les jours du lundi (1) au vendredi (5).'],
    [{ day_of_week: 1, morning_open: '8h' }, "L'heure doit être au format HH:mm."],
    [{ day_of_week: 1, morning_open: '08:00' }, "L'ouverture et la fermeture du matin doivent être renseignées ensemble."],
    [{ day_of_week: 1, afternoon_close: '17:00' }, "L'ouverture et la fermeture de l'après-midi doivent être renseignées ensemble."],
    [{ day_of_week: 1, morning_open: '12:00', morning_close: '08:00' }, "La fermeture du matin doit être après l'ouverture."],
    [{ day_of_week: 1, afternoon_open: '17:00', afternoon_close: '14:00' }, "La fermeture de l'après-midi doit être après l'ouverture."],
    [{ day_of_week: 1, morning_open: '08:00', morning_close: '14:00', afternoon_open: '13:30', afternoon_close: '17:30' }, "L'après-midi doit commencer après la fermeture du matin."],
  ])('refuses %j', (day, message) => {
    expect(firstMessage(agenceHorairesBodySchema, [day])).toBe(message);
  });

  it('refuses the same day twice', () => {
    expect(firstMessage(agenceHorairesBodySchema, [{ day_of_week: 1 }, { day_of_week: 1 }])).toBe("Chaque jour ne peut figurer qu'une fois dans les horaires.");
  });
});

describe('QR code batch', () => {
  it('clamps the count to 0–100 like the widget, default 5', () => {
    expect([clampQrCodeBatchCount(150), clampQrCodeBatchCount(-4), clampQrCodeBatchCount('7'), clampQrCodeBatchCount(''), clampQrCodeBatchCount(2.9)]).toEqual([100, 0, 7, 5, 2]);
    expect(canGenerateQrCodes(0)).toBe(false);
    expect(canGenerateQrCodes(1)).toBe(true);
  });

  it('clamps the body, defaults a missing count to 5 and refuses below 1', () => {
    expect(qrCodeBatchBodySchema.parse({ count: 500 }).count).toBe(100);
    expect(qrCodeBatchBodySchema.parse({}).count).toBe(5);
    expect(expectIdempotent(qrCodeBatchBodySchema, { count: '12' }).count).toBe(12);
    expect(firstMessage(qrCodeBatchBodySchema, { count: 0 })).toBe('Générez au moins 1 QR code.');
    expect(firstMessage(qrCodeBatchBodySchema, { count: -3 })).toBe('Générez au moins 1 QR code.');
    expect(firstMessage(qrCodeBatchBodySchema, { count: 'beaucoup' })).toBe('Le nombre de QR codes doit être un nombre.');
  });

  it('builds the public form URL from the base URL and the key', () => {
    expect(buildQrCodeUrl('https://sav.example.fr/', 'abcDEF0123456789')).toBe('https://sav.example.fr/ticket?key=abcDEF0123456789');
  });
});

describe('user bodies', () => {
  const user = { nom: 'Martin', prenom: 'Léa', email: 'Lea@Example.fr', telephone: '0600000000', role: 'technicien', agence_id: A };

  it('requires nom, prenom, email, telephone, a staff role and an agency', () => {
    expect(firstMessage(userCreateBodySchema, { ...user, nom: '', motdepasse: 'abcdef1!' })).toBe('Le nom est obligatoire.');
    expect(firstMessage(userCreateBodySchema, { ...user, prenom: '', motdepasse: 'abcdef1!' })).toBe('Le prénom est obligatoire.');
    expect(firstMessage(userCreateBodySchema, { ...user, email: '', motdepasse: 'abcdef1!' })).toBe("L'email est obligatoire.");
    expect(firstMessage(userCreateBodySchema, { ...user, telephone: '', motdepasse: 'abcdef1!' })).toBe('Le téléphone est obligatoire.');
    expect(firstMessage(userCreateBodySchema, { ...user, role: 'telesurveillance', motdepasse: 'abcdef1!' })).toBe('Veuillez sélectionner un rôle.');
    expect(firstMessage(userCreateBodySchema, { ...user, agence_id: '', motdepasse: 'abcdef1!' })).toBe('Veuillez sélectionner une agence.');
  });

  it('requires a strong first password, and lets an edit keep the current one', () => {
    expect(firstMessage(userCreateBodySchema, user)).toBe('Le mot de passe est obligatoire.');
    expect(firstMessage(userCreateBodySchema, { ...user, motdepasse: 'abcdefgh' })).toBe('Le mot de passe ne respecte pas tous les critères.');
    expect(userCreateBodySchema.parse({ ...user, motdepasse: 'abcdef1!' }).email).toBe('lea@example.fr');
    expect(userUpdateBodySchema.parse({ ...user, motdepasse: '' }).motdepasse).toBeUndefined();
    expect(firstMessage(userUpdateBodySchema, { ...user, motdepasse: 'short' })).toBe('Le mot de passe ne respecte pas tous les critères.');
  });

  it('normalizes a permission set and refuses unknown slugs', () => {
    expect(userPermissionsBodySchema.parse({ permissions: ['tickets.devis', 'clients.view', 'clients.view'] }).permissions).toEqual(['clients.view', 'tickets.devis']);
    expect(firstMessage(userPermissionsBodySchema, { permissions: ['root'] })).toBe('Permission inconnue : root');
  });
});

describe('telesurveillance bodies', () => {
  it('refuses a missing nom, email or password with the spec alert', () => {
    const account = { nom: 'Surveil', email: 'ts@example.fr', telephone: '', motdepasse: 'abcdef1!' };
    expect(telesurvCreateBodySchema.parse(account)).toEqual({ ...account, telephone: null });
    for (const field of ['nom', 'email', 'motdepasse']) {
      expect(firstMessage(telesurvCreateBodySchema, { ...account, [field]: '' })).toBe('Nom, email et mot de passe sont requis');
    }
  });

  it('lets an edit omit the password', () => {
    expect(telesurvUpdateBodySchema.parse({ nom: 'S', email: 'ts@example.fr' }).motdepasse).toBeUndefined();
    expect(firstMessage(telesurvUpdateBodySchema, { nom: '', email: 'ts@example.fr' })).toBe('Nom et email sont requis');
  });

  it('takes the agency set as a deduplicated list, empty allowed', () => {
    expect(telesurvAgencesBodySchema.parse({ agences: [A, B, A] }).agences).toEqual([A, B]);
    expect(telesurvAgencesBodySchema.parse({ agences: [] }).agences).toEqual([]);
    expect(firstMessage(telesurvAgencesBodySchema, { agences: ['x'] })).toBe('Agence invalide.');
  });
});

describe('métier bodies', () => {
  it('sends empty ordre and delai_inter as null and HO_stats as 0', () => {
    expect(expectIdempotent(metierBodySchema, { nom: 'Sprinklers', ordre: '', delai_inter: '' })).toEqual({ nom: 'Sprinklers', ordre: null, delai_inter: null, HO_stats: 0 });
  });

  it('floors delai_inter, requires it at least 0 and accepts the HO_stats toggle', () => {
    expect(expectIdempotent(metierBodySchema, { nom: 'SSI', ordre: 2, delai_inter: '4.8', HO_stats: true })).toEqual({ nom: 'SSI', ordre: 2, delai_inter: 4, HO_stats: 1 });
    expect(metierBodySchema.parse({ nom: 'SSI', delai_inter: 0 }).delai_inter).toBe(0);
    expect(firstMessage(metierBodySchema, { nom: 'SSI', delai_inter: -1 })).toBe("Le délai d'intervention doit être positif ou nul.");
    expect(firstMessage(metierBodySchema, { nom: 'SSI', delai_inter: 'vite' })).toBe("Le délai d'intervention doit être un nombre.");
    expect(firstMessage(metierBodySchema, { nom: 'SSI', ordre: 1.5 })).toBe("L'ordre doit être un nombre entier.");
    expect(firstMessage(metierBodySchema, { nom: ' ' })).toBe('Le nom du métier est obligatoire.');
  });

  it('reorders by rows, each trade once', () => {
    expect(renumberMetiers([B, A])).toEqual([{ id: B, ordre: 1 }, { id: A, ordre: 2 }]);
    expect(firstMessage(metierReorderBodySchema, [{ id: A, ordre: 1 }, { id: A, ordre: 2 }])).toBe("Chaque métier ne peut figurer qu'une fois dans le nouvel ordre.");
  });

  it('sorts by ordre, unnumbered last, then by name', () => {
    const rows = [{ nom: 'Extincteurs', ordre: null }, { nom: 'SSI', ordre: 2 }, { nom: 'Alarme', ordre: null }, { nom: 'Désenfumage', ordre: 1 }];
    expect([...rows].sort(compareMetiers).map((r) => r.nom)).toEqual(['Désenfumage', 'SSI', 'Alarme', 'Extincteurs']);
  });
});

describe('template body', () => {
  it('requires a name and a content that are not blank', () => {
    expect(firstMessage(templateBodySchema, { name: '  ', content_html: '<p>x</p>' })).toBe('Nom et contenu requis.');
    expect(firstMessage(templateBodySchema, { name: 'Rapport', content_html: '   ' })).toBe('Nom et contenu requis.');
    expect(firstMessage(templateBodySchema, { name: 'Rapport' })).toBe('Nom et contenu requis.');
  });

  it('keeps the content as written and defaults css to empty', () => {
    expect(expectIdempotent(templateBodySchema, { id: A, name: ' Rapport ', content_html: ' <p>x</p> ' })).toEqual({ name: 'Rapport', content_html: ' <p>x</p> ', css: '' });
  });

  it('names a copy with the (copie) suffix', () => {
    expect(templateCopyName('Rapport')).toBe('Rapport (copie)');
  });
});

describe('stats query', () => {
  it('takes Tous/Toutes as empty filters and refuses an inverted range', () => {
    expect(statsTicketsQuerySchema.parse({ from: '2026-01-01', to: '2026-01-31', metier_id: '', agence_id: C })).toEqual({ from: '2026-01-01', to: '2026-01-31', agence_id: C });
    expect(firstMessage(statsTicketsQuerySchema, { from: '2026-02-01', to: '2026-01-01' })).toBe('La date de début doit précéder la date de fin.');
    expect(firstMessage(statsTicketsQuerySchema, { from: '01/02/2026' })).toBe('La date doit être au format AAAA-MM-JJ.');
  });
});

describe('integers the read models store (issue 17: delai and ordre of 3,000,000,000 stopped the read side)', () => {
  const installation = { nom: 'SSI', id_metier: A, description: 'Centrale', astreinte: 0, site_id: B };
  const metier = { nom: 'SSI', HO_stats: 0 };

  it('bounds an installation delai to a year of hours', () => {
    expect(installationBodySchema.parse({ ...installation, delai: 8760 }).delai).toBe(8760);
    expect(firstMessage(installationBodySchema, { ...installation, delai: 8761 })).toBe('Le délai ne peut pas dépasser 8760 heures (un an).');
    expect(firstMessage(installationBodySchema, { ...installation, delai: '3000000000' })).toBe('Le délai ne peut pas dépasser 8760 heures (un an).');
    expect(firstMessage(installationBodySchema, { ...installation, delai: 1e300 })).toBe("Le délai doit être un nombre entier d'heures, d'au moins 1 heure.");
  });

  it('bounds a métier delai_inter to a year of hours, before flooring', () => {
    expect(metierBodySchema.parse({ ...metier, ordre: null, delai_inter: '8760' }).delai_inter).toBe(8760);
    expect(firstMessage(metierBodySchema, { ...metier, ordre: null, delai_inter: 3e9 })).toBe("Le délai d'intervention ne peut pas dépasser 8760 heures (un an).");
  });

  it('bounds a métier ordre to ±99999, in the form and in a reorder', () => {
    expect(metierBodySchema.parse({ ...metier, ordre: -99999, delai_inter: null }).ordre).toBe(-99999);
    expect(metierBodySchema.parse({ ...metier, ordre: 99999, delai_inter: null }).ordre).toBe(99999);
    for (const ordre of [100000, -100000, 3e9, '-3000000000']) {
      expect(firstMessage(metierBodySchema, { ...metier, ordre, delai_inter: null }), String(ordre)).toBe("L'ordre doit être compris entre -99999 et 99999.");
      expect(firstMessage(metierReorderBodySchema, [{ id: A, ordre }]), String(ordre)).toBe("L'ordre doit être compris entre -99999 et 99999.");
    }
    expect(firstMessage(metierBodySchema, { ...metier, ordre: 1.5, delai_inter: null })).toBe("L'ordre doit être un nombre entier.");
  });
});

describe('invisible and control characters in names (issue 17, item 13: names shown reversed)', () => {
  const HIDDEN = 'Ce champ contient des caractères invisibles ou de contrôle non autorisés.';
  // Short enough for the 10-character postal code.
  const spoofed = '69\u202E100';
  const bodies: [string, z.ZodType, Record<string, unknown>, string[]][] = [
    ['agence', agenceBodySchema, { nom: 'Lyon', adresse: '1 rue', cp_postal: '69001', ville: 'Lyon', telephone: '04 00 00 00 00' }, ['nom', 'adresse', 'cp_postal', 'ville', 'telephone']],
    ['client', clientBodySchema, { nom: 'ACME', adresse: '1 rue', ville: 'Lyon', code_postal: '69001', agence_id: A }, ['nom', 'adresse', 'ville', 'code_postal']],
    ['site', siteBodySchema, { nom: 'Usine', adresse: '1 rue', ville: 'Lyon', code_postal: '69001', client_id: A }, ['nom', 'adresse', 'ville', 'code_postal']],
    ['installation', installationBodySchema, { nom: 'SSI', id_metier: A, description: 'Centrale', delai: 4, astreinte: 0, site_id: B }, ['nom', 'description']],
    ['interlocuteur', interlocuteurBodySchema, { nom: 'Martin', prenom: 'Léa', fonction: 'Gardienne', telephone: '06', client_id: A }, ['nom', 'prenom', 'fonction', 'telephone']],
    ['métier', metierBodySchema, { nom: 'SSI', ordre: null, delai_inter: null, HO_stats: 0 }, ['nom']],
    ['template', templateBodySchema, { name: 'Rapport', content_html: '<p>x</p>' }, ['name']],
    ['user', userCreateBodySchema, { nom: 'Martin', prenom: 'Léa', email: 'lea@example.fr', telephone: '06', role: 'technicien', agence_id: A, motdepasse: 'Secret-2026!' }, ['nom', 'prenom', 'telephone']],
    ['télésurveillance', telesurvCreateBodySchema, { nom: 'Centre', email: 'centre@example.fr', telephone: '06', motdepasse: 'Secret-2026!' }, ['nom', 'telephone']],
  ];

  it.each(bodies)('refuses a right-to-left override in every name and text of the %s body', (_label, schema, valid, fields) => {
    expect(schema.safeParse(valid).success).toBe(true);
    for (const field of fields) expect(firstMessage(schema, { ...valid, [field]: spoofed }), field).toBe(HIDDEN);
  });

  it.each(['\u200B', '\u2066', '\u200E', '\uFEFF', '\u0001', '\u009B', '\u{E0020}'])('refuses U+%s in a client name', (char) => {
    expect(firstMessage(clientBodySchema, { nom: `AC${char}ME`, adresse: '1 rue', ville: 'Lyon', code_postal: '69001', agence_id: A })).toBe(HIDDEN);
  });

  it('keeps accents, emoji with joiners and apostrophes', () => {
    const nom = 'Hôtel de l’Éole 👩‍🚒';
    expect(clientBodySchema.parse({ nom, adresse: '1 rue', ville: 'Lyon', code_postal: '69001', agence_id: A }).nom).toBe(nom);
  });
});
