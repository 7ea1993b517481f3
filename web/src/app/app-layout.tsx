import { Outlet } from 'react-router';
import { NavBar } from '../features/navigation/components/nav-bar';
import { useCurrentUser } from './guards';
import { LiveUpdatesIndicator } from './live-status';
import { RouteLoading } from './route-loading';

/** Every signed-in screen: navigation bar on top, the screen below. */
export function AppLayout() {
  const user = useCurrentUser();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#contenu">
        Aller au contenu
      </a>
      <NavBar user={user} />
      <LiveUpdatesIndicator />
      <main id="contenu" className="app-main" tabIndex={-1}>
        {/* The screens load on demand (on-demand.tsx): the navigation stays while one arrives. */}
        <RouteLoading>
          <Outlet />
        </RouteLoading>
      </main>
    </div>
  );
}
