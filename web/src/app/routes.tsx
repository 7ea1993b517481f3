import { Link, Navigate, useParams, type RouteObject } from 'react-router';
import { UnderConstruction } from '../components/ui/under-construction';
import { MANAGEMENT_SCREENS, STATS_SCREEN } from '../features/auth/access';
import { LoginScreen } from '../features/auth/components/login-screen';
import { HomeScreen } from '../features/home/components/home-screen';
import { PublicTicketScreen } from '../features/public-ticket/components/public-ticket-screen';
import { AppLayout } from './app-layout';
import { RequireAccess, RequireSession, StaffOnly, TelesurveillanceOnly } from './guards';
import { RouteError } from './route-error';

function TicketDetailPlaceholder() {
  const { ticketId } = useParams();
  return (
    <UnderConstruction title={`Ticket ${ticketId ?? ''}`.trim()}>
      <div>
        <Link to="/tickets" className="btn">
          <span aria-hidden="true">←</span> Retour aux tickets
        </Link>
      </div>
    </UnderConstruction>
  );
}

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
                  {
                    path: '/telesurv/ticket',
                    element: <UnderConstruction title="Nouveau ticket (Télésurveillance)" />,
                  },
                ],
              },
              {
                element: <StaffOnly />,
                children: [
                  { index: true, element: <HomeScreen /> },
                  { path: '/dashboard', element: <HomeScreen /> },
                  { path: '/tickets', element: <UnderConstruction title="Tickets" /> },
                  { path: '/tickets/:ticketId', element: <TicketDetailPlaceholder /> },
                  ...[...MANAGEMENT_SCREENS, STATS_SCREEN].map(
                    (screen): RouteObject => ({
                      path: screen.path,
                      element: (
                        <RequireAccess allowed={screen.isAllowed}>
                          <UnderConstruction title={screen.title} />
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
