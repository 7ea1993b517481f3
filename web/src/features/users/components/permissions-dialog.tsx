import { canGrantPermission, groupPermissionsByPrefix, hasPermission, isPermissionSlug, type User } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { Banner } from '../../../components/ui/banner';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-dialog';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { usePermissionsCatalog } from '../api/get-permissions-catalog';
import { userPermissionsQuery, useUserPermissions } from '../api/get-user-permissions';
import { useSetUserPermissions } from '../api/set-user-permissions';
import { USER_MESSAGES } from '../api/user-messages';

/**
 * A user's permissions grouped by the slug prefix before the dot, 'autres'
 * for slugs without one (§2, groupPermissionsByPrefix). Without
 * users.permissions it is read-only; outside admin_plus a slug one does not
 * hold is greyed out (the server would refuse it, canGrantPermission).
 */
export function PermissionsDialog({ target, onClose }: { target: User; onClose: () => void }) {
  const me = useCurrentUser();
  const toast = useToast();
  const canEdit = hasPermission(me, 'users.permissions');
  const catalog = usePermissionsCatalog();
  const current = useUserPermissions(target.id);
  const save = useSetUserPermissions();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<Set<string> | null>(null);
  // The version the ticked set was read at: the save is refused (409) if the set changed since.
  const [version, setVersion] = useState<number | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const conflict = useEditConflict(
    () => queryClient.fetchQuery({ ...userPermissionsQuery(target.id), staleTime: 0 }),
    (fresh) => {
      setSelected(new Set(fresh.permissions));
      setVersion(fresh.version);
    },
  );

  useEffect(() => {
    if (current.data && selected === null) {
      setSelected(new Set(current.data.permissions));
      setVersion(current.data.version);
    }
  }, [current.data, selected]);

  const grantable = (slug: string) => canEdit && isPermissionSlug(slug) && canGrantPermission(me, slug);
  const toggle = (slug: string, on: boolean) =>
    setSelected((set) => {
      const next = new Set(set);
      if (on) next.add(slug);
      else next.delete(slug);
      return next;
    });

  const submit = () => {
    if (!selected || !catalog.data) return;
    setFailure(null);
    conflict.clear();
    // Catalogue order, so the saved list reads like the modal.
    const permissions = catalog.data.map((entry) => entry.slug).filter((slug) => selected.has(slug));
    // Slugs the catalogue no longer lists stay as they were.
    const unknown = [...selected].filter((slug) => !catalog.data.some((entry) => entry.slug === slug));
    save.mutate(
      { userId: target.id, permissions: [...permissions, ...unknown], version },
      {
        onSuccess: () => {
          toast.show('Permissions enregistrées.', { tone: 'success' });
          onClose();
        },
        onError: (error) => {
          if (!conflict.caught(error)) setFailure(errorMessage(error, USER_MESSAGES.permissionsSaveError));
        },
      },
    );
  };

  const loadFailed = catalog.isError || current.isError;
  const groups = catalog.data ? groupPermissionsByPrefix(catalog.data) : [];

  return (
    <Dialog open title={`Permissions de ${target.prenom} ${target.nom}`} onClose={onClose} className="dialog--wide">
      {loadFailed ? (
        <Banner tone="error">{USER_MESSAGES.permissionsLoadError}</Banner>
      ) : !selected || !catalog.data ? (
        <p className="muted" role="status">
          Chargement…
        </p>
      ) : (
        <div className="permission-groups">
          {groups.map((group) => (
            <fieldset key={group.group} className="fieldset permission-group">
              <legend className="permission-group__title">{group.label}</legend>
              {group.permissions.map((entry) => (
                <label key={entry.slug} className="checkbox-field">
                  <input
                    type="checkbox"
                    className="checkbox"
                    checked={selected.has(entry.slug)}
                    disabled={!grantable(entry.slug) || save.isPending}
                    onChange={(event) => toggle(entry.slug, event.target.checked)}
                  />
                  <span className="checkbox-field__label">
                    {entry.label} <code className="slug">{entry.slug}</code>
                  </span>
                </label>
              ))}
            </fieldset>
          ))}
        </div>
      )}
      {failure ? <Banner tone="error">{failure}</Banner> : null}
      {conflict.notice}
      {canEdit ? (
        <FormActions busy={save.isPending} onCancel={onClose} onConfirm={submit} canSubmit={!!selected && !loadFailed} />
      ) : (
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={onClose}>
            Fermer
          </button>
        </div>
      )}
    </Dialog>
  );
}
