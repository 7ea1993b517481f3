import { agenceEventSchema, agenceStreamId, ticketAgencyCode, type StaffRole } from '@fsm/contracts';
import { DEMO_METIERS, agenceDecider, commandContext, execute, handleCreateStaffUser, type Actor } from '@fsm/command-api/test-support';
import type { InProcessApp } from '../lib/in-process-app.js';
import { Random } from './random.js';

/** Every bench account has this password (the bench logs in with it). */
export const BENCH_PASSWORD = 'Bench-2026!';

export interface Person {
  id: string;
  prenom: string;
  nom: string;
  email: string;
}

export interface BenchAgency {
  id: string;
  nom: string;
  code: string;
  admin: Person;
  technicians: Person[];
}

export interface BenchInstallation {
  id: string;
  nom: string;
  astreinte: 0 | 1;
  delai: number;
  metier: { id: string; nom: string };
  site: { id: string; nom: string; adresse: string; code_postal: string; ville: string };
  client: { id: string; nom: string };
  agenceId: string;
}

export interface MasterData {
  platformAdmin: Person;
  agencies: BenchAgency[];
  installations: BenchInstallation[];
}

export interface MasterDataSize {
  agencies: number;
  clientsPerAgency: number;
  techniciansPerAgency: number;
}

/** Reference data grows with N up to what a regional maintenance firm has. */
export function masterDataSize(tickets: number): MasterDataSize {
  if (tickets < 2_000) return { agencies: 2, clientsPerAgency: 3, techniciansPerAgency: 2 };
  return { agencies: 8, clientsPerAgency: Math.min(60, Math.max(10, Math.round(tickets / 16_000))), techniciansPerAgency: 6 };
}

const AGENCY_TOWNS = [
  { nom: 'Lyon Centre', cp: '69002', ville: 'Lyon' },
  { nom: 'Grenoble', cp: '38000', ville: 'Grenoble' },
  { nom: 'Saint-Étienne', cp: '42000', ville: 'Saint-Étienne' },
  { nom: 'Annecy', cp: '74000', ville: 'Annecy' },
  { nom: 'Valence', cp: '26000', ville: 'Valence' },
  { nom: 'Chambéry', cp: '73000', ville: 'Chambéry' },
  { nom: 'Villeurbanne', cp: '69100', ville: 'Villeurbanne' },
  { nom: 'Bourg-en-Bresse', cp: '01000', ville: 'Bourg-en-Bresse' },
] as const;

const FIRST = ['Julien', 'Sofia', 'Karim', 'Claire', 'Thomas', 'Inès', 'Mathieu', 'Léa', 'Nicolas', 'Camille', 'Hugo', 'Sarah', 'Antoine', 'Manon'];
const LAST = ['Garnier', 'Moreau', 'Benali', 'Dubois', 'Lefèvre', 'Roux', 'Fontaine', 'Girard', 'Morel', 'Lambert', 'Rousseau', 'Petit', 'Faure', 'Blanc'];
const CLIENT_KINDS = ['Clinique', 'Résidence', 'Groupe scolaire', 'Entrepôt', 'Hôtel', 'Lycée', 'Centre commercial', 'EHPAD', 'Mairie', 'Usine'];
const CLIENT_NAMES = ['du Parc', 'des Tilleuls', 'Bellevue', 'du Lac', 'Saint-Joseph', 'Les Terrasses', 'Pasteur', 'du Rhône', 'Jean Moulin', 'des Alpes', 'Victor Hugo', 'Lumière'];
const STREETS = ['rue de la République', 'avenue Jean Jaurès', 'boulevard des Belges', 'rue Garibaldi', 'quai Perrache', 'rue Pasteur', 'avenue Berthelot', 'rue Victor Hugo'];
const INSTALLATIONS: { nom: string; metier: (typeof DEMO_METIERS)[number]['nom']; description: string; astreinte: 0 | 1 }[] = [
  { nom: 'SSI catégorie A', metier: 'Alarme incendie', description: 'Centrale SSI, boucles de détection, 120 détecteurs', astreinte: 1 },
  { nom: 'Alarme type 4', metier: 'Alarme incendie', description: 'Boîtiers bris de glace et diffuseurs sonores', astreinte: 0 },
  { nom: 'Désenfumage des circulations', metier: 'Désenfumage', description: 'Volets et exutoires commandés par le CMSI', astreinte: 1 },
  { nom: 'Extincteurs parties communes', metier: 'Extincteurs', description: '24 extincteurs eau pulvérisée 6 L', astreinte: 0 },
  { nom: 'RIA', metier: 'RIA', description: '8 robinets d’incendie armés DN 25', astreinte: 0 },
  { nom: 'BAES', metier: 'Éclairage de sécurité', description: '86 blocs autonomes, télécommande centralisée', astreinte: 0 },
];

/**
 * Agencies and accounts through the command handlers (as the demo seed does),
 * then métiers, clients, sites and installations through the HTTP routes as
 * the platform admin — so every reference event is exactly what the product
 * writes. Requests of one client run concurrently (bounded).
 */
export async function createMasterData(api: InProcessApp, size: MasterDataSize, random: Random, onProgress: (done: string) => void): Promise<MasterData> {
  const { deps, app } = api;
  const context = commandContext(deps);
  const system: Actor = { userId: null, userName: 'Banc de mesure', correlationId: deps.newId() };
  let emailSeq = 0;

  const createUser = async (role: StaffRole, agenceId: string): Promise<Person> => {
    const id = deps.newId();
    const prenom = random.pick(FIRST);
    const nom = random.pick(LAST);
    const email = `${role}.${++emailSeq}@bench.fr`;
    await handleCreateStaffUser({ context, db: deps.pool, actor: system, now: deps.clock() }, {
      userId: id,
      fields: { nom, prenom, email, telephone: '06 12 34 56 78', role, agence_id: agenceId },
      password: BENCH_PASSWORD,
    });
    return { id, prenom, nom, email };
  };

  const agencies: BenchAgency[] = [];
  for (const town of AGENCY_TOWNS.slice(0, size.agencies)) {
    const agenceId = deps.newId();
    const nom = `Agence ${town.nom}`;
    await execute(
      context,
      agenceDecider,
      agenceStreamId(agenceId),
      {
        type: 'CreateAgence',
        data: { agenceId, fields: { nom, adresse: `${random.int(1, 80)} ${random.pick(STREETS)}`, cp_postal: town.cp, ville: town.ville, telephone: '04 78 12 34 56' }, createdAt: deps.clock().toISOString() },
      },
      system,
      (recorded) => agenceEventSchema.parse({ type: recorded.type, data: recorded.data }),
    );
    const admin = await createUser('admin', agenceId);
    const technicians: Person[] = [];
    for (let index = 0; index < size.techniciansPerAgency; index++) technicians.push(await createUser(index === 0 ? 'technicien_plus' : 'technicien', agenceId));
    // The agency code is the first three letters of the name *after* "Agence ": use the name the tickets will carry.
    agencies.push({ id: agenceId, nom, code: ticketAgencyCode(nom), admin, technicians });
  }
  const platformAdmin = await createUser('admin_plus', agencies[0]!.id);
  onProgress(`${agencies.length} agences, ${agencies.length * (size.techniciansPerAgency + 1) + 1} comptes`);

  const token = await deps.tokens.sign({ sub: platformAdmin.id });
  const post = async <T extends { id: string }>(url: string, payload: unknown): Promise<T> => {
    const response = await app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload: payload as object });
    if (response.statusCode >= 400) throw new Error(`bench seed: POST ${url} → ${response.statusCode} ${response.body}`);
    return response.json<T>();
  };

  const metierIds = new Map<string, string>();
  for (const metier of DEMO_METIERS) metierIds.set(metier.nom, (await post('/api/metiers', metier)).id);

  const installations: BenchInstallation[] = [];
  let clients = 0;
  for (const agency of agencies) {
    const town = AGENCY_TOWNS.find((t) => agency.nom.endsWith(t.nom))!;
    await Promise.all(
      Array.from({ length: size.clientsPerAgency }, async () => {
        const clientNom = `${random.pick(CLIENT_KINDS)} ${random.pick(CLIENT_NAMES)} ${random.int(1, 999)}`;
        const address = () => ({ adresse: `${random.int(1, 120)} ${random.pick(STREETS)}`, ville: town.ville, code_postal: town.cp });
        const client = await post('/api/clients', { nom: clientNom, ...address(), agence_id: agency.id });
        clients++;
        for (let s = 0, sites = random.int(1, 3); s < sites; s++) {
          const site = { nom: s === 0 ? 'Bâtiment principal' : `Bâtiment ${String.fromCharCode(65 + s)}`, ...address() };
          const { id: siteId } = await post('/api/sites', { ...site, client_id: client.id });
          const count = random.int(1, 4);
          for (const template of random.sample(INSTALLATIONS, count)) {
            const metier = DEMO_METIERS.find((m) => m.nom === template.metier)!;
            const delai = metier.delai_inter;
            const { id } = await post('/api/installations', {
              nom: template.nom,
              id_metier: metierIds.get(template.metier),
              description: template.description,
              delai,
              astreinte: template.astreinte,
              site_id: siteId,
            });
            installations.push({
              id,
              nom: template.nom,
              astreinte: template.astreinte,
              delai,
              metier: { id: metierIds.get(template.metier)!, nom: template.metier },
              site: { id: siteId, nom: site.nom, adresse: site.adresse, code_postal: site.code_postal, ville: site.ville },
              client: { id: client.id, nom: clientNom },
              agenceId: agency.id,
            });
          }
        }
      }),
    );
    onProgress(`${agency.nom} : ${clients} clients, ${installations.length} installations`);
  }
  // Generation must not depend on the order concurrent requests finished in.
  installations.sort((a, b) => (a.id < b.id ? -1 : 1));
  return { platformAdmin, agencies, installations };
}
