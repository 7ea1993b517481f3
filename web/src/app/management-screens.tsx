import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { UnderConstruction } from '../components/ui/under-construction';
import type { ManagementScreen } from '../lib/access';
import { lazyScreen } from './on-demand';

// Each screen is its own chunk, loaded when opened (issue 32, item 7).
const AgencesScreen = lazyScreen(() => import('../features/agences/components/agences-screen').then((m) => m.AgencesScreen));
const ClientsScreen = lazyScreen(() => import('../features/clients/components/clients-screen').then((m) => m.ClientsScreen));
const MetiersScreen = lazyScreen(() => import('../features/metiers/components/metiers-screen').then((m) => m.MetiersScreen));
const QrCodesScreen = lazyScreen(() => import('../features/qrcodes/components/qrcodes-screen').then((m) => m.QrCodesScreen));
const TelesurvScreen = lazyScreen(() => import('../features/telesurv-accounts/components/telesurv-screen').then((m) => m.TelesurvScreen));
const UsersScreen = lazyScreen(() => import('../features/users/components/users-screen').then((m) => m.UsersScreen));

// The two screens with heavy libraries (the rich-text editor, the charts) load on demand.
const TemplateBuilderScreen = lazy(() =>
  import('../features/template-builder/components/template-builder-screen').then((m) => ({ default: m.TemplateBuilderScreen })),
);
const StatsScreen = lazy(() => import('../features/stats/components/stats-screen').then((m) => ({ default: m.StatsScreen })));

function Loading({ title }: { title: string }) {
  return (
    <section className="stack" aria-labelledby="screen-title" aria-busy="true">
      <div className="page-header">
        <h1 id="screen-title">{title}</h1>
      </div>
      <p className="muted" role="status">
        Chargement…
      </p>
    </section>
  );
}

const SCREENS: Readonly<Record<string, ComponentType>> = {
  '/clients': ClientsScreen,
  '/users': UsersScreen,
  '/agences': AgencesScreen,
  '/qrcodes': QrCodesScreen,
  '/template-builder': TemplateBuilderScreen,
  '/metiers': MetiersScreen,
  '/telesurv': TelesurvScreen,
  '/stats': StatsScreen,
};

/** The screen behind a Gestion entry (or /stats); one not built yet stays 'en construction'. */
export function managementScreenElement(screen: ManagementScreen): ReactNode {
  const Screen = SCREENS[screen.path];
  if (!Screen) return <UnderConstruction title={screen.title} />;
  return (
    <Suspense fallback={<Loading title={screen.title} />}>
      <Screen />
    </Suspense>
  );
}
