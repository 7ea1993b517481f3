import { Navigate, type RouteObject } from 'react-router';
import { MANAGEMENT_SCREENS, STATS_SCREEN } from '../features/auth/access';
import { LoginScreen } from '../features/auth/components/login-screen';
import { HomeScreen } from '../features/home/components/home-screen';
import { PublicTicketScreen } from '../features/public-ticket/components/public-ticket-screen';
import { TelesurvTicketScreen } from '../features/telesurveillance/components/telesurv-ticket-screen';
import { TicketDetailScreen } from '../features/ticket-detail/components/ticket-detail-screen';
import { TicketListScreen } from '../features/tickets/components/ticket-list-screen';
import { AppLayout } from './app-layout';
import { managementScreenElement } from './management-screens';
import { RequireAccess, RequireSession, StaffOnly, TelesurveillanceOnly } from './guards';
import { RouteError } from './route-error';

/**
 * Every route of the app (spec tickets §2, management §2). Shared by the
 * browser router and the tests' memory router.
 */
export const appRoutes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      { path: '/login', element: <LoginScreen /> },
      // Public: reachable signed in or not, without the navigation bar.
      { path: '/ticket', element: <PublicTicketScreen /> },
      {
        element: <RequireSession />,
        children: [
          {
            element: <AppLayout />,
            children: [
              {
                element: <TelesurveillanceOnly />,
                children: [
                  { path: '/telesurv/ticket', element: <TelesurvTicketScreen /> },
                ],
              },
              {
                element: <StaffOnly />,
                children: [
                  { index: true, element: <HomeScreen /> },
                  { path: '/dashboard', element: <HomeScreen /> },
                  { path: '/tickets', element: <TicketListScreen /> },
                  { path: '/tickets/:ticketId', element: <TicketDetailScreen /> },
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
