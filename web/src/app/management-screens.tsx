import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { UnderConstruction } from '../components/ui/under-construction';
import type { ManagementScreen } from '../features/auth/access';
import { AgencesScreen } from '../features/agences/components/agences-screen';
import { ClientsScreen } from '../features/clients/components/clients-screen';
import { MetiersScreen } from '../features/metiers/components/metiers-screen';
import { QrCodesScreen } from '../features/qrcodes/components/qrcodes-screen';
import { TelesurvScreen } from '../features/telesurv-accounts/components/telesurv-screen';
import { UsersScreen } from '../features/users/components/users-screen';

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
