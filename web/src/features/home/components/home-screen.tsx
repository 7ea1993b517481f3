import { UnderConstruction } from '../../../components/ui/under-construction';

/** Home 'Résumé des tickets' (spec §2). Placeholder until the summary is built. */
export function HomeScreen() {
  return <UnderConstruction title="Résumé des tickets" />;
}
