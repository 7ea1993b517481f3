import { NamedOptions, SelectField } from '../../../components/ui/select-field';
import { siteName } from '../../../lib/lookups/lookup-types';

/**
 * The site, then the installation, of the client chosen above them (spec §2):
 * each waits for the choice before it and says so. `showMissing` marks the
 * one left empty once the form was sent incomplete.
 */
export function SiteInstallationFields({
  clientChosen,
  sites,
  siteId,
  onSite,
  installations,
  installationId,
  onInstallation,
  showMissing = false,
}: {
  clientChosen: boolean;
  sites: readonly { id: string; nom: string; ville?: string | null }[];
  siteId: string;
  onSite: (id: string) => void;
  installations: readonly { id: string; nom: string }[];
  installationId: string;
  onInstallation: (id: string) => void;
  showMissing?: boolean;
}) {
  return (
    <>
      <SelectField
        label="Site"
        required
        value={siteId}
        disabled={!clientChosen}
        hint={clientChosen ? undefined : 'Choisissez d’abord un client.'}
        invalid={showMissing && clientChosen && !siteId}
        onChange={(e) => onSite(e.target.value)}
      >
        <NamedOptions items={sites} placeholder="Choisir un site" nameOf={siteName} />
      </SelectField>
      <SelectField
        label="Installation"
        required
        value={installationId}
        disabled={!siteId}
        hint={siteId ? undefined : 'Choisissez d’abord un site.'}
        invalid={showMissing && !!siteId && !installationId}
        onChange={(e) => onInstallation(e.target.value)}
      >
        <NamedOptions items={installations} placeholder="Choisir une installation" />
      </SelectField>
    </>
  );
}
