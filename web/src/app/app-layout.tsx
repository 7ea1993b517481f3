import { Outlet } from 'react-router';
import { NavBar } from '../features/navigation/components/nav-bar';
import { useCurrentUser } from './guards';
import { LiveUpdatesIndicator } from './live-status';

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
        <Outlet />
      </main>
    </div>
  );
}
