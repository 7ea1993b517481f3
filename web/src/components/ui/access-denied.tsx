import { ACCESS_REFUSAL_MESSAGES } from '@fsm/contracts';
import { Banner } from './banner';
import { TitledScreen } from './titled-screen';

/**
 * A screen the user may not open: its title and 'Accès refusé.' (management §2
 * for /stats; the same for every permission-gated screen, so a user who follows
 * an old link learns why instead of landing on the home screen unexplained).
 */
export function AccessDenied({ title }: { title: string }) {
  return (
    <TitledScreen title={title}>
      <Banner tone="error">{ACCESS_REFUSAL_MESSAGES.default}</Banner>
    </TitledScreen>
  );
}
