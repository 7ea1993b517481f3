import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type ScreenReaderInstructions,
} from '@dnd-kit/core';
import { SortableContext, arrayMove, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { METIER_DELETE_CONFIRMATION, hasPermission, type Metier } from '@fsm/contracts';
import { useState } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { Banner } from '../../../components/ui/banner';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DataTable } from '../../../components/ui/data-table';
import { RowAction } from '../../../components/ui/row-action';
import { TitledScreen } from '../../../components/ui/titled-screen';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteConfirm } from '../../../lib/use-delete-confirm';
import { useDeleteMetier } from '../api/delete-metier';
import { useMetierList } from '../api/get-metiers';
import { METIER_MESSAGES } from '../api/metier-messages';
import { useReorderMetiers } from '../api/reorder-metiers';
import { useUpdateMetier } from '../api/update-metier';
import { MetierFormDialog } from './metier-form-dialog';

const nameOf = (metiers: readonly Metier[], id: unknown) => metiers.find((m) => m.id === id)?.nom ?? 'le métier';

/** French words for dnd-kit's live announcements and keyboard instructions. */
function dragTexts(metiers: readonly Metier[]): { announcements: Announcements; screenReaderInstructions: ScreenReaderInstructions } {
  const position = (id: unknown) => metiers.findIndex((m) => m.id === id) + 1;
  return {
    screenReaderInstructions: {
      draggable:
        'Pour déplacer un métier, appuyez sur Espace ou Entrée, utilisez les flèches haut et bas, puis Espace ou Entrée pour déposer, ou Échap pour annuler.',
    },
    announcements: {
      onDragStart: ({ active }) => `${nameOf(metiers, active.id)} saisi, position ${position(active.id)}.`,
      onDragOver: ({ active, over }) => (over ? `${nameOf(metiers, active.id)} au-dessus de la position ${position(over.id)}.` : `${nameOf(metiers, active.id)} hors de la liste.`),
      onDragEnd: ({ active, over }) => (over ? `${nameOf(metiers, active.id)} déposé en position ${position(over.id)}.` : `${nameOf(metiers, active.id)} déposé.`),
      onDragCancel: ({ active }) => `Déplacement de ${nameOf(metiers, active.id)} annulé.`,
    },
  };
}

interface RowProps {
  metier: Metier;
  index: number;
  count: number;
  canEdit: boolean;
  busy: boolean;
  onMove: (from: number, to: number) => void;
  onToggleHoStats: (metier: Metier) => void;
  onEdit: (metier: Metier) => void;
  onDelete: (metier: Metier) => void;
}

function MetierRow({ metier, index, count, canEdit, busy, onMove, onToggleHoStats, onEdit, onDelete }: RowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: metier.id, disabled: !canEdit });
  const style = { transform: CSS.Translate.toString(transform), transition };
  return (
    <tr ref={setNodeRef} style={style} className={isDragging ? 'sortable-row sortable-row--dragging' : 'sortable-row'}>
      <td className="metier-order">
        {canEdit ? (
          <>
            <button
              type="button"
              ref={setActivatorNodeRef}
              className="drag-handle"
              aria-label={`Déplacer ${metier.nom}`}
              {...attributes}
              {...listeners}
            >
              <span aria-hidden="true">⠿</span>
            </button>
            <button type="button" className="btn btn--ghost btn--icon" aria-label={`Monter ${metier.nom}`} disabled={busy || index === 0} onClick={() => onMove(index, index - 1)}>
              <span aria-hidden="true">↑</span>
            </button>
            <button
              type="button"
              className="btn btn--ghost btn--icon"
              aria-label={`Descendre ${metier.nom}`}
              disabled={busy || index === count - 1}
              onClick={() => onMove(index, index + 1)}
            >
              <span aria-hidden="true">↓</span>
            </button>
          </>
        ) : null}
        <span className="metier-order__value">{metier.ordre ?? '—'}</span>
      </td>
      <th scope="row">{metier.nom}</th>
      <td>{metier.delai_inter ?? '—'}</td>
      <td>
        {canEdit ? (
          <label className="switch">
            <input
              type="checkbox"
              className="checkbox"
              checked={metier.HO_stats === 1}
              disabled={busy}
              aria-label={`Jours non ouvrés comptés dans les statistiques : ${metier.nom}`}
              onChange={() => onToggleHoStats(metier)}
            />
            <span>{metier.HO_stats === 1 ? 'Oui' : 'Non'}</span>
          </label>
        ) : metier.HO_stats === 1 ? (
          'Oui'
        ) : (
          'Non'
        )}
      </td>
      {canEdit ? (
        <td>
          <div className="table-actions">
            <RowAction label={`Modifier ${metier.nom}`} onClick={() => onEdit(metier)}>Modifier</RowAction>
            <RowAction label={`Supprimer ${metier.nom}`} onClick={() => onDelete(metier)} danger>Supprimer</RowAction>
          </div>
        </td>
      ) : null}
    </tr>
  );
}

/**
 * /metiers (management §2): trades in their order, dragged (pointer or
 * keyboard) or moved with ↑/↓ to renumber them, added and edited in a
 * modal, HO_stats toggled in place. Without metier.edit the table is
 * read-only.
 */
export function MetiersScreen() {
  const user = useCurrentUser();
  const canEdit = hasPermission(user, 'metier.edit');
  const toast = useToast();
  const list = useMetierList();
  const reorder = useReorderMetiers();
  const update = useUpdateMetier();
  const remove = useDeleteMetier();
  const [alert, setAlert] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ metier: Metier | null } | null>(null);
  const metiers = list.data ?? [];
  const busy = reorder.isPending || update.isPending;
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));

  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= metiers.length) return;
    setAlert(null);
    reorder.mutate(arrayMove(metiers, from, to), { onError: () => setAlert(METIER_MESSAGES.reorderError) });
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    move(
      metiers.findIndex((m) => m.id === active.id),
      metiers.findIndex((m) => m.id === over.id),
    );
  };

  const toggleHoStats = (metier: Metier) => {
    setAlert(null);
    // The whole trade as listed, its version included: a trade changed since is refused and the list reloads.
    const { id, ...fields } = metier;
    update.mutate(
      { id, body: { ...fields, HO_stats: metier.HO_stats === 1 ? 0 : 1 } },
      { onError: (error) => setAlert(errorMessage(error, METIER_MESSAGES.hoStatsError)) },
    );
  };

  const deletion = useDeleteConfirm({
    remove: (deleted: Metier) => remove.mutateAsync(deleted.id),
    done: (deleted) => {
      toast.show('Métier supprimé.', { tone: 'success' });
      // The rows after it close the gap (1, 2, 4 → 1, 2, 3), as a move would renumber them.
      const rest = metiers.filter((m) => m.id !== deleted.id);
      const numbered = rest.filter((m) => m.ordre !== null);
      if (deleted.ordre !== null && numbered.some((m, index) => m.ordre !== index + 1)) {
        reorder.mutate(rest, { onError: () => setAlert(METIER_MESSAGES.reorderError) });
      }
    },
    failureMessage: (error) => errorMessage(error, METIER_MESSAGES.saveError),
  });

  return (
    <TitledScreen title="Métiers" action={canEdit ? { label: '+ Ajouter', onClick: () => setEditing({ metier: null }) } : null}>
      {canEdit ? <p className="muted">Faites glisser une ligne (ou utilisez ↑ et ↓) pour changer l'ordre des métiers.</p> : null}
      {list.isError ? <Banner tone="error">{METIER_MESSAGES.loadError}</Banner> : null}
      {alert ? <Banner tone="error">{alert}</Banner> : null}
      <div className="table-wrap">
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={dragTexts(metiers)}>
          <DataTable
            caption="Liste des métiers"
            headers={['Ordre', 'Nom', 'Délai (h)', 'Jours non ouvrés (stats)', canEdit && 'Actions']}
            pending={list.isPending}
            isEmpty={metiers.length === 0}
            emptyText="Aucun métier."
          >
            <SortableContext items={metiers.map((m) => m.id)} strategy={verticalListSortingStrategy}>
              {metiers.map((metier, index) => (
                <MetierRow
                  key={metier.id}
                  metier={metier}
                  index={index}
                  count={metiers.length}
                  canEdit={canEdit}
                  busy={busy}
                  onMove={move}
                  onToggleHoStats={toggleHoStats}
                  onEdit={(m) => setEditing({ metier: m })}
                  onDelete={deletion.ask}
                />
              ))}
            </SortableContext>
          </DataTable>
        </DndContext>
      </div>
      {editing ? <MetierFormDialog metier={editing.metier} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        title="Supprimer le métier"
        message={METIER_DELETE_CONFIRMATION}
        {...deletion.dialog}
      />
    </TitledScreen>
  );
}
