import { Navigate, Outlet, useMatches, type RouteObject } from 'react-router';
import { MANAGEMENT_SCREENS, STATS_SCREEN } from '../lib/access';
import { lazyScreen, type LazyScreen } from './on-demand';
import { managementScreenElement } from './management-screens';
import { RequireAccess, RequireSession, StaffOnly, TelesurveillanceOnly } from './guards';
import { RouteError } from './route-error';
import { RouteLoading } from './route-loading';

/*
 * Each screen is its own chunk (on-demand.tsx): the login and the public QR form load
 * without the staff application (issue 32, item 7).
 */
const LoginScreen = lazyScreen(() => import('../features/auth/components/login-screen').then((m) => m.LoginScreen));
const PublicTicketScreen = lazyScreen(() =>
  import('../features/public-ticket/components/public-ticket-screen').then((m) => m.PublicTicketScreen),
);
const AppLayout = lazyScreen(() => import('./app-layout').then((m) => m.AppLayout));
const TelesurvTicketScreen = lazyScreen(() =>
  import('../features/telesurveillance/components/telesurv-ticket-screen').then((m) => m.TelesurvTicketScreen),
);
const HomeScreen = lazyScreen(() => import('../features/home/components/home-screen').then((m) => m.HomeScreen));
const TicketListScreen = lazyScreen(() => import('../features/tickets/components/ticket-list-screen').then((m) => m.TicketListScreen));
const TicketDetailScreen = lazyScreen(() =>
  import('../features/ticket-detail/components/ticket-detail-screen').then((m) => m.TicketDetailScreen),
);

/** A route's handle: the screen chunk it renders. */
interface ScreenHandle {
  preload: () => Promise<unknown>;
}
const loads = (screen: LazyScreen): ScreenHandle => ({ preload: screen.preload });

/**
 * Fetches every chunk of the matched routes at once: a deep link (/tickets/42), or the home after
 * signing in, loads the layout and its screen side by side, not the screen only once the layout
 * has arrived. During render, not in an effect: a navigation renders in a transition that
 * suspends on the first missing chunk, before any effect runs. Loading is idempotent.
 */
function PreloadMatchedScreens() {
  for (const match of useMatches()) {
    (match.handle as Partial<ScreenHandle> | undefined)?.preload?.().catch(() => undefined); // the screen's render asks again
  }
  return null;
}

/**
 * Every route of the app (spec tickets §2, management §2). Shared by the
 * browser router and the tests' memory router.
 */
export const appRoutes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    element: (
      <>
        <PreloadMatchedScreens />
        <RouteLoading>
          <Outlet />
        </RouteLoading>
      </>
    ),
    children: [
      { path: '/login', element: <LoginScreen />, handle: loads(LoginScreen) },
      // Public: reachable signed in or not, without the navigation bar.
      { path: '/ticket', element: <PublicTicketScreen />, handle: loads(PublicTicketScreen) },
      {
        element: <RequireSession />,
        children: [
          {
            element: <AppLayout />,
            handle: loads(AppLayout),
            children: [
              {
                element: <TelesurveillanceOnly />,
                children: [
                  { path: '/telesurv/ticket', element: <TelesurvTicketScreen />, handle: loads(TelesurvTicketScreen) },
                ],
              },
              {
                element: <StaffOnly />,
                children: [
                  { index: true, element: <HomeScreen />, handle: loads(HomeScreen) },
                  { path: '/dashboard', element: <HomeScreen />, handle: loads(HomeScreen) },
                  { path: '/tickets', element: <TicketListScreen />, handle: loads(TicketListScreen) },
                  { path: '/tickets/:ticketId', element: <TicketDetailScreen />, handle: loads(TicketDetailScreen) },
                  ...[...MANAGEMENT_SCREENS, STATS_SCREEN].map(
                    (screen): RouteObject => ({
                      path: screen.path,
                      element: (
                        <RequireAccess title={screen.title} allowed={screen.isAllowed}>
                          {managementScreenElement(screen)}
                        </RequireAccess>
                      ),
                    }),
                  ),
                  // Unknown path when signed in: the home summary (spec §2).
                  { path: '*', element: <Navigate to="/" replace /> },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];
