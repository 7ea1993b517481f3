import { useCallback, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { SessionUser } from '../../../lib/session';
import { STATS_SCREEN, TELESURV_HOME, allowedManagementScreens, canViewStats, isTelesurveillance } from '../../../lib/access';
import { PasswordDialog } from '../../auth/components/password-dialog';
import { useLogout } from '../../auth/use-logout';
import { GestionMenu } from './gestion-menu';

function initial(user: SessionUser): string {
  const first = [...user.prenom.trim()][0] ?? [...user.nom.trim()][0] ?? '?';
  return first.toLocaleUpperCase('fr-FR');
}

function NavItem({ to, active, children }: { to: string; active: boolean; children: string }) {
  return (
    <li>
      <Link to={to} className="navbar__link" aria-current={active ? 'page' : undefined}>
        {children}
      </Link>
    </li>
  );
}

/** The bar at the top of every signed-in screen (spec §2 "Navigation bar"). */
export function NavBar({ user }: { user: SessionUser }) {
  const { pathname } = useLocation();
  const logout = useLogout();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const closePassword = useCallback(() => setPasswordOpen(false), []);

  const telesurv = isTelesurveillance(user);
  const management = allowedManagementScreens(user);
  const fullName = `${user.prenom} ${user.nom}`.trim();

  return (
    <header className="navbar">
      <div className="navbar__inner">
        <div className="navbar__user">
          <span className="navbar__avatar" aria-hidden="true">
            {initial(user)}
          </span>
          <div className="navbar__identity">
            <button
              type="button"
              className="navbar__name"
              aria-haspopup="dialog"
              title="Changer mon mot de passe"
              onClick={() => setPasswordOpen(true)}
            >
              {fullName}
            </button>
            {user.agence_nom ? <span className="navbar__agency">{user.agence_nom}</span> : null}
          </div>
        </div>

        <nav className="navbar__nav" aria-label="Navigation principale">
          <ul className="navbar__links">
            {!telesurv ? (
              <>
                <NavItem to="/dashboard" active={pathname === '/' || pathname === '/dashboard'}>
                  Dashboard
                </NavItem>
                <NavItem to="/tickets" active={pathname === '/tickets' || pathname.startsWith('/tickets/')}>
                  Tickets
                </NavItem>
              </>
            ) : null}
            {canViewStats(user) ? (
              <NavItem to={STATS_SCREEN.path} active={pathname === STATS_SCREEN.path}>
                {STATS_SCREEN.label}
              </NavItem>
            ) : null}
            {telesurv ? (
              <NavItem to={TELESURV_HOME} active={pathname === TELESURV_HOME}>
                Nouveau ticket
              </NavItem>
            ) : null}
            {management.length > 0 ? (
              <li>
                <GestionMenu entries={management} />
              </li>
            ) : null}
          </ul>
        </nav>

        <button type="button" className="btn btn--on-dark navbar__logout" onClick={logout}>
          Déconnexion
        </button>
      </div>
      <PasswordDialog open={passwordOpen} onClose={closePassword} />
    </header>
  );
}
