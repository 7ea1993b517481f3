import type { DemoSeedStep } from './demo-seed.js';

/*
 * Demo reference data of the clients screen, created through the API as the
 * platform admin (admin_plus) would: trades, five clients of the Lyon area
 * with their sites, installations and contacts, and a sheet of ten QR codes of
 * which four are already stuck on equipment. Names are made up; addresses are
 * real streets. The ticket seed finds what it needs through the API.
 */

interface Created {
  id: string;
}

/** The trades of the demo, which the benchmark's reference data uses too. */
export const DEMO_METIERS = [
  { nom: 'Extincteurs', ordre: 1, delai_inter: 24, HO_stats: 0 },
  { nom: 'Alarme incendie', ordre: 2, delai_inter: 4, HO_stats: 1 },
  { nom: 'Désenfumage', ordre: 3, delai_inter: 48, HO_stats: 0 },
  { nom: 'RIA', ordre: 4, delai_inter: 72, HO_stats: 0 },
  { nom: 'Éclairage de sécurité', ordre: 5, delai_inter: 48, HO_stats: 0 },
] as const;

type MetierNom = (typeof DEMO_METIERS)[number]['nom'];

interface InstallationSeed {
  nom: string;
  metier: MetierNom;
  description: string;
  delai: number;
  astreinte: 0 | 1;
}

interface ContactSeed {
  prenom: string;
  nom: string;
  fonction: string;
  telephone: string;
  email: string;
  /** Indexes of the client's sites, and [site, installation] pairs. */
  sites?: number[];
  installations?: [number, number][];
}

interface ClientSeed {
  nom: string;
  adresse: string;
  ville: string;
  code_postal: string;
  sites: { nom: string; adresse: string; ville: string; code_postal: string; installations: InstallationSeed[] }[];
  contacts: ContactSeed[];
}

const CLIENTS: readonly ClientSeed[] = [
  {
    nom: 'Clinique du Val de Saône',
    adresse: '12 quai Jaÿr',
    ville: 'Lyon',
    code_postal: '69009',
    sites: [
      {
        nom: 'Bâtiment principal',
        adresse: '12 quai Jaÿr',
        ville: 'Lyon',
        code_postal: '69009',
        installations: [
          { nom: 'SSI catégorie A', metier: 'Alarme incendie', description: 'Centrale Esser IQ8Control, 6 boucles, 240 détecteurs', delai: 4, astreinte: 1 },
          { nom: 'Désenfumage des circulations', metier: 'Désenfumage', description: 'Volets et exutoires, commande par le SSI (CMSI)', delai: 24, astreinte: 1 },
          { nom: 'BAES étages 1 à 4', metier: 'Éclairage de sécurité', description: '86 blocs autonomes, télécommande centralisée', delai: 48, astreinte: 0 },
        ],
      },
      {
        nom: 'Parking souterrain',
        adresse: '3 rue Saint-Pierre-de-Vaise',
        ville: 'Lyon',
        code_postal: '69009',
        installations: [{ nom: 'Extincteurs parking', metier: 'Extincteurs', description: '24 extincteurs 9 kg poudre ABC', delai: 24, astreinte: 0 }],
      },
    ],
    contacts: [
      { prenom: 'Hélène', nom: 'Girard', fonction: 'Responsable sécurité incendie', telephone: '04 72 85 10 20', email: 'h.girard@clinique-valdesaone.fr', sites: [0, 1] },
      { prenom: 'Karim', nom: 'Benali', fonction: 'Agent SSIAP 2 (PC sécurité)', telephone: '04 72 85 10 99', email: 'pc.securite@clinique-valdesaone.fr', installations: [[0, 0], [0, 1]] },
    ],
  },
  {
    nom: 'Résidence Les Terrasses de Gerland',
    adresse: '48 avenue Tony Garnier',
    ville: 'Lyon',
    code_postal: '69007',
    sites: [
      {
        nom: 'Tour A',
        adresse: '48 avenue Tony Garnier',
        ville: 'Lyon',
        code_postal: '69007',
        installations: [
          { nom: 'Colonnes sèches et RIA', metier: 'RIA', description: '8 robinets d’incendie armés DN 25', delai: 72, astreinte: 0 },
          { nom: 'Extincteurs parties communes', metier: 'Extincteurs', description: '18 extincteurs eau pulvérisée 6 L', delai: 24, astreinte: 0 },
        ],
      },
      {
        nom: 'Tour B',
        adresse: '50 avenue Tony Garnier',
        ville: 'Lyon',
        code_postal: '69007',
        installations: [{ nom: 'Désenfumage escaliers', metier: 'Désenfumage', description: 'Ouvrants en façade, treuils et commandes manuelles', delai: 48, astreinte: 0 }],
      },
    ],
    contacts: [{ prenom: 'Nathalie', nom: 'Rousseau', fonction: 'Gestionnaire de copropriété (syndic)', telephone: '04 78 61 22 40', email: 'n.rousseau@syndic-gerland.fr', sites: [0, 1] }],
  },
  {
    nom: 'Groupe scolaire des Brotteaux',
    adresse: '15 rue Garibaldi',
    ville: 'Lyon',
    code_postal: '69006',
    sites: [
      {
        nom: 'École élémentaire',
        adresse: '15 rue Garibaldi',
        ville: 'Lyon',
        code_postal: '69006',
        installations: [
          { nom: 'Alarme type 4', metier: 'Alarme incendie', description: 'Boîtiers bris de glace et diffuseurs sonores', delai: 8, astreinte: 0 },
          { nom: 'BAES et BAEH', metier: 'Éclairage de sécurité', description: '32 blocs, dont 6 d’habitation', delai: 48, astreinte: 0 },
        ],
      },
    ],
    contacts: [{ prenom: 'Philippe', nom: 'Lambert', fonction: 'Directeur', telephone: '04 78 24 31 08', email: 'direction@gs-brotteaux.fr', sites: [0] }],
  },
  {
    nom: 'Rhône Logistique',
    adresse: '5 rue du Dauphiné',
    ville: 'Saint-Priest',
    code_postal: '69800',
    sites: [
      {
        nom: 'Entrepôt Saint-Priest',
        adresse: '5 rue du Dauphiné',
        ville: 'Saint-Priest',
        code_postal: '69800',
        installations: [
          { nom: 'SSI entrepôt', metier: 'Alarme incendie', description: 'Centrale DEF, détection linéaire de fumée par faisceaux', delai: 4, astreinte: 1 },
          { nom: 'RIA cellules 1 à 3', metier: 'RIA', description: '12 RIA DN 33 sur réseau sprinkler', delai: 24, astreinte: 1 },
          { nom: 'Extincteurs quais', metier: 'Extincteurs', description: '30 extincteurs CO2 et poudre', delai: 24, astreinte: 0 },
        ],
      },
      {
        nom: 'Plateforme de Corbas',
        adresse: '1 rue des Frères Lumière',
        ville: 'Corbas',
        code_postal: '69960',
        installations: [{ nom: 'Désenfumage naturel', metier: 'Désenfumage', description: 'Exutoires en toiture, déclencheurs CO2', delai: 48, astreinte: 0 }],
      },
    ],
    contacts: [
      { prenom: 'Sébastien', nom: 'Morel', fonction: 'Responsable maintenance', telephone: '04 72 23 45 67', email: 's.morel@rhone-logistique.fr', sites: [0, 1] },
      { prenom: 'Claire', nom: 'Fontaine', fonction: 'Cheffe de quai', telephone: '06 21 43 65 87', email: 'c.fontaine@rhone-logistique.fr', installations: [[0, 2]] },
    ],
  },
  {
    nom: 'Hôtel Bellecour Prestige',
    adresse: '9 place Bellecour',
    ville: 'Lyon',
    code_postal: '69002',
    sites: [
      {
        nom: 'Hôtel',
        adresse: '9 place Bellecour',
        ville: 'Lyon',
        code_postal: '69002',
        installations: [
          { nom: 'SSI catégorie A', metier: 'Alarme incendie', description: 'Centrale Siemens FC2060, détecteurs dans les 64 chambres', delai: 4, astreinte: 1 },
          { nom: 'Éclairage de sécurité', metier: 'Éclairage de sécurité', description: 'Source centrale et 120 blocs', delai: 24, astreinte: 1 },
        ],
      },
    ],
    contacts: [{ prenom: 'Marion', nom: 'Petit', fonction: 'Directrice technique', telephone: '04 72 41 00 00', email: 'technique@bellecour-prestige.fr', sites: [0] }],
  },
];

/** Which installations get a code from the demo sheet: [client, site, installation]. */
const ASSIGNED: readonly [number, number, number][] = [
  [0, 0, 0],
  [0, 0, 1],
  [3, 0, 0],
  [4, 0, 0],
];

export const managementDemoStep: DemoSeedStep = {
  name: 'clients, sites, installations, métiers et QR codes',
  async run(client, _deps, { agenceId }) {
    const post = <T = Created>(url: string, payload: unknown) => client.call<T>('admin_plus', 'POST', url, payload);

    const metierIds = new Map<MetierNom, string>();
    for (const metier of DEMO_METIERS) metierIds.set(metier.nom, (await post('/api/metiers', metier)).id);

    const installationIds: string[][][] = [];
    for (const seed of CLIENTS) {
      const { id: clientId } = await post('/api/clients', { nom: seed.nom, adresse: seed.adresse, ville: seed.ville, code_postal: seed.code_postal, agence_id: agenceId });
      const siteIds: string[] = [];
      const bySite: string[][] = [];
      for (const site of seed.sites) {
        const { installations, ...fields } = site;
        const { id: siteId } = await post('/api/sites', { ...fields, client_id: clientId });
        siteIds.push(siteId);
        const ids: string[] = [];
        for (const installation of installations) {
          const { metier, ...rest } = installation;
          ids.push((await post('/api/installations', { ...rest, id_metier: metierIds.get(metier), site_id: siteId })).id);
        }
        bySite.push(ids);
      }
      installationIds.push(bySite);
      for (const contact of seed.contacts) {
        const { sites = [], installations = [], ...fields } = contact;
        await post('/api/interlocuteurs', {
          ...fields,
          client_id: clientId,
          affect_sites: sites.map((index) => siteIds[index]),
          affect_installations: installations.map(([site, installation]) => bySite[site]?.[installation]),
        });
      }
    }

    const { codes } = await post<{ codes: Created[] }>('/api/qrcodes/batch', { count: 10, agence_id: agenceId });
    for (const [index, [clientIndex, siteIndex, installationIndex]] of ASSIGNED.entries()) {
      const code = codes[index];
      const installationId = installationIds[clientIndex]?.[siteIndex]?.[installationIndex];
      if (code && installationId) await post(`/api/qrcodes/${code.id}/assign`, { installation_id: installationId });
    }
  },
};
