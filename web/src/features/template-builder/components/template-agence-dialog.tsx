import type { Agence } from '@fsm/contracts';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Dialog } from '../../../components/ui/dialog';
import { CloseActions } from '../../../components/ui/form-dialog';
import { useToast } from '../../../components/ui/toast';
import { editConflictMessage, isEditConflict } from '../../../lib/edit-conflict';
import { agenceErrorMessage } from '../../agences/api/agence-errors';
import { useAgences } from '../../agences/api/get-agences';
import { useUpdateAgence } from '../../agences/api/update-agence';
import { TEMPLATE_MESSAGES } from '../api/template-messages';

/**
 * 'Agence' (§2): assign the template to an agency, or take it off. The save
 * is the agency's PUT with the whole agency and id_template set to this
 * template or null (§7).
 */
export function TemplateAgenceDialog({
  templateId,
  templateName,
  templateNames,
  onClose,
}: {
  templateId: string;
  templateName: string;
  templateNames: ReadonlyMap<string, string>;
  onClose: () => void;
}) {
  const toast = useToast();
  const agences = useAgences();
  const update = useUpdateAgence();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const setTemplate = (agence: Agence, assign: boolean) => {
    setFailure(null);
    setPendingId(agence.id);
    // The whole agency as listed, its version included: a change made since is refused, not overwritten.
    const { id, ...fields } = agence;
    update.mutate(
      { id, body: { ...fields, id_template: assign ? templateId : null } },
      {
        onSuccess: () => toast.show(assign ? `Modèle affecté à ${agence.nom}.` : `Modèle retiré de ${agence.nom}.`, { tone: 'success' }),
        onError: (error) => {
          if (!isEditConflict(error)) return setFailure(agenceErrorMessage(error, TEMPLATE_MESSAGES.saveError));
          // The list shows the agencies as they are now; the choice can be made again on them.
          setFailure(editConflictMessage(error));
          void agences.refetch();
        },
        onSettled: () => setPendingId(null),
      },
    );
  };

  return (
    <Dialog open title="Affecter le modèle à une agence" onClose={onClose} className="dialog--wide">
      <p className="muted">Modèle : {templateName}</p>
      {agences.isError ? (
        <Banner tone="error">{TEMPLATE_MESSAGES.agencesLoadError}</Banner>
      ) : agences.isPending ? (
        <p className="muted" role="status">
          Chargement…
        </p>
      ) : (agences.data ?? []).length === 0 ? (
        <p className="muted">Aucune agence.</p>
      ) : (
        <ul className="assign-list">
          {(agences.data ?? []).map((agence) => {
            const mine = agence.id_template === templateId;
            const other = agence.id_template && !mine ? (templateNames.get(agence.id_template) ?? 'un autre modèle') : null;
            return (
              <li key={agence.id} className="assign-list__item">
                <div>
                  <strong>{agence.nom}</strong>
                  <span className="muted assign-list__status">{mine ? 'Utilise ce modèle' : other ? `Utilise : ${other}` : 'Modèle par défaut'}</span>
                </div>
                <button
                  type="button"
                  className={mine ? 'btn btn--small' : 'btn btn--small btn--primary'}
                  // aria-disabled, not disabled: the pressed button keeps the focus while it saves.
                  aria-disabled={pendingId !== null || undefined}
                  aria-busy={pendingId === agence.id || undefined}
                  onClick={() => {
                    if (pendingId === null) setTemplate(agence, !mine);
                  }}
                  aria-label={mine ? `Retirer le modèle de ${agence.nom}` : `Affecter le modèle à ${agence.nom}`}
                >
                  {mine ? 'Retirer' : 'Affecter'}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {failure ? <Banner tone="error">{failure}</Banner> : null}
      <CloseActions onClose={onClose} />
    </Dialog>
  );
}
