import { MANAGEMENT_MESSAGES, hasPermission, templateCopyName, unknownTemplateVariables, type Template } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { Banner } from '../../../components/ui/banner';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { TextField } from '../../../components/ui/text-field';
import { TextareaField } from '../../../components/ui/textarea-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useCreateTemplate } from '../api/create-template';
import { useDeleteTemplate } from '../api/delete-template';
import { templatesQuery, useTemplates } from '../api/get-templates';
import { TEMPLATE_MESSAGES } from '../api/template-messages';
import { useUpdateTemplate } from '../api/update-template';
import { TemplateAgenceDialog } from './template-agence-dialog';
import { TemplateEditor } from './template-editor';
import { TemplatePreviewDialog } from './template-preview-dialog';
import { VariablesPanel } from './variables-panel';
import { isBlankHtml, useTemplateEditor } from './use-template-editor';

interface Draft {
  /** null: new or duplicated, not saved yet (§4). */
  id: string | null;
  name: string;
  content_html: string;
  css: string;
  /** The version it was loaded or last saved at: a save on an older one is refused (409). */
  version?: number | undefined;
}

const NEW_DRAFT: Draft = { id: null, name: '', content_html: '', css: '' };

function SidePanel({ id, title, open, onToggle, side, children }: { id: string; title: string; open: boolean; onToggle: () => void; side: 'left' | 'right'; children: ReactNode }) {
  return (
    <aside className={`builder__side builder__side--${side}${open ? '' : ' builder__side--collapsed'}`} aria-labelledby={`${id}-title`}>
      <div className="builder__side-header">
        <h2 id={`${id}-title`} className={open ? undefined : 'visually-hidden'}>
          {title}
        </h2>
        <button
          type="button"
          className="btn btn--ghost btn--icon"
          aria-expanded={open}
          aria-controls={id}
          aria-label={open ? `Masquer : ${title}` : `Afficher : ${title}`}
          onClick={onToggle}
        >
          <span aria-hidden="true">{(side === 'left') === open ? '«' : '»'}</span>
        </button>
      </div>
      <div id={id} hidden={!open} className="builder__side-body">
        {children}
      </div>
    </aside>
  );
}

/**
 * /template-builder (management §2): templates on the left with 'Nouveau
 * modèle'; in the middle the name and the rich-text content (500 px) with
 * Sauvegarder, Dupliquer, Agence, Supprimer and Preview A4; on the right the
 * variables to insert. Both side panels fold away. Editing needs
 * templates.manage; templates.view reads and previews.
 */
export function TemplateBuilderScreen() {
  useDocumentTitle('Templates de documents');
  const me = useCurrentUser();
  const canManage = hasPermission(me, 'templates.manage');
  const toast = useToast();
  const templates = useTemplates();
  const create = useCreateTemplate();
  const update = useUpdateTemplate();
  const remove = useDeleteTemplate();
  const [draft, setDraft] = useState<Draft>(NEW_DRAFT);
  const [leftOpen, setLeftOpen] = useState(true);
  const [rightOpen, setRightOpen] = useState(true);
  const [alert, setAlert] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'agence' | 'preview' | 'delete' | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const selectedOnce = useRef(false);
  const queryClient = useQueryClient();

  const editor = useTemplateEditor({ editable: canManage, onChange: (html) => setDraft((d) => ({ ...d, content_html: html })) });

  const load = (next: Draft) => {
    setDraft(next);
    setAlert(null);
    conflict.clear();
    editor?.commands.setContent(next.content_html, { emitUpdate: false });
  };

  const conflict = useEditConflict(
    async () => (draft.id ? ((await queryClient.fetchQuery({ ...templatesQuery(), staleTime: 0 })).find((candidate) => candidate.id === draft.id) ?? null) : null),
    (fresh) => load({ ...fresh }),
  );

  // Open the first template once the list arrives (read-only users have nothing else to do).
  useEffect(() => {
    if (selectedOnce.current || !editor || !templates.data) return;
    selectedOnce.current = true;
    const first = templates.data[0];
    if (first) load({ ...first });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editor, templates.data]);

  const templateNames = useMemo(() => new Map((templates.data ?? []).map((t) => [t.id, t.name])), [templates.data]);
  const unknownVariables = useMemo(() => unknownTemplateVariables(draft.content_html), [draft.content_html]);
  const busy = create.isPending || update.isPending;

  const save = async () => {
    setAlert(null);
    conflict.clear();
    const name = draft.name.trim();
    if (!name || isBlankHtml(draft.content_html)) {
      setAlert(MANAGEMENT_MESSAGES.templateFieldsRequired);
      return;
    }
    const body = { name, content_html: draft.content_html, css: draft.css };
    try {
      if (draft.id) {
        const stored: Template = await update.mutateAsync({ id: draft.id, body: { ...body, version: draft.version } });
        // Show what the server's sanitiser kept.
        if (stored.content_html !== draft.content_html) load({ ...stored });
        else setDraft((d) => ({ ...d, name: stored.name, version: stored.version }));
      } else {
        const created = await create.mutateAsync(body);
        setDraft((d) => ({ ...d, id: created.id, name, version: created.version }));
      }
      toast.show('Modèle enregistré.', { tone: 'success' });
    } catch (error) {
      // On a conflict the editor keeps what was typed until the template is reloaded.
      if (!conflict.caught(error)) setAlert(errorMessage(error, TEMPLATE_MESSAGES.saveError));
    }
  };

  const duplicate = () => {
    setDraft((d) => ({ ...d, id: null, version: undefined, name: templateCopyName(d.name) }));
    setAlert(null);
    toast.show('Copie créée : pensez à la sauvegarder.', { tone: 'info' });
  };

  const confirmDelete = () => {
    if (!draft.id) return;
    setDeleteError(null);
    remove.mutate(draft.id, {
      onSuccess: () => {
        toast.show('Modèle supprimé.', { tone: 'success' });
        setDialog(null);
        load(NEW_DRAFT);
      },
      onError: (error) => setDeleteError(errorMessage(error, TEMPLATE_MESSAGES.deleteError)),
    });
  };

  return (
    <section className="stack" aria-labelledby="screen-title">
      <div className="page-header">
        <h1 id="screen-title">Templates de documents</h1>
      </div>
      {templates.isError ? <Banner tone="error">{TEMPLATE_MESSAGES.loadError}</Banner> : null}

      <div className={`builder${leftOpen ? '' : ' builder--left-collapsed'}${rightOpen ? '' : ' builder--right-collapsed'}`}>
        <SidePanel id="builder-templates" title="Modèles" side="left" open={leftOpen} onToggle={() => setLeftOpen((o) => !o)}>
          {canManage ? (
            <button type="button" className="btn btn--primary btn--block" onClick={() => load(NEW_DRAFT)}>
              Nouveau modèle
            </button>
          ) : null}
          {templates.isPending ? (
            <p className="muted" role="status">
              Chargement…
            </p>
          ) : (templates.data ?? []).length === 0 ? (
            <p className="muted">Aucun modèle.</p>
          ) : (
            <ul className="builder__templates">
              {(templates.data ?? []).map((template) => (
                <li key={template.id}>
                  <button type="button" className="builder__template" aria-current={template.id === draft.id || undefined} onClick={() => load({ ...template })}>
                    {template.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </SidePanel>

        <div className="builder__main stack">
          <TextField label="Nom du modèle" required value={draft.name} readOnly={!canManage} onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))} />
          {draft.id === null && canManage ? <p className="muted builder__state">Nouveau modèle, pas encore sauvegardé.</p> : null}
          <TemplateEditor editor={editor} editable={canManage} />
          {unknownVariables.length > 0 ? (
            <Banner tone="warning">Variables inconnues : {unknownVariables.map((key) => `{{${key}}}`).join(', ')}</Banner>
          ) : null}
          <details className="builder__css">
            <summary>Styles CSS du modèle</summary>
            <TextareaField label="CSS" hint="Conservé avec le modèle ; le rapport PDF n'applique pas ces styles." value={draft.css} readOnly={!canManage} rows={5} onChange={(e) => setDraft((d) => ({ ...d, css: e.target.value }))} />
          </details>
          {alert ? <Banner tone="error">{alert}</Banner> : null}
          {conflict.notice}
          <div className="cluster builder__actions">
            {canManage ? (
              <>
                <button type="button" className="btn btn--primary" onClick={() => void save()} disabled={busy} aria-busy={busy || undefined}>
                  Sauvegarder
                </button>
                <button type="button" className="btn" onClick={duplicate} disabled={!draft.name && isBlankHtml(draft.content_html)}>
                  Dupliquer
                </button>
                <button type="button" className="btn" onClick={() => setDialog('agence')} disabled={!draft.id} title={draft.id ? undefined : "Sauvegardez d'abord le modèle"}>
                  Agence
                </button>
                <button
                  type="button"
                  className="btn btn--danger-ghost"
                  onClick={() => {
                    if (!draft.id) {
                      load(NEW_DRAFT);
                      return;
                    }
                    setDeleteError(null);
                    setDialog('delete');
                  }}
                >
                  Supprimer
                </button>
              </>
            ) : null}
            <button type="button" className="btn" onClick={() => setDialog('preview')}>
              Preview A4
            </button>
          </div>
        </div>

        <SidePanel id="builder-variables" title="Variables disponibles" side="right" open={rightOpen} onToggle={() => setRightOpen((o) => !o)}>
          <VariablesPanel disabled={!canManage || !editor} onInsert={(token) => editor?.chain().focus().insertContent(token).run()} />
        </SidePanel>
      </div>

      {dialog === 'agence' && draft.id ? (
        <TemplateAgenceDialog templateId={draft.id} templateName={draft.name} templateNames={templateNames} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'preview' ? <TemplatePreviewDialog name={draft.name} contentHtml={draft.content_html} onClose={() => setDialog(null)} /> : null}
      <ConfirmDialog
        open={dialog === 'delete'}
        title="Supprimer le modèle"
        message={`Supprimer le modèle « ${draft.name} » ?`}
        busy={remove.isPending}
        error={deleteError}
        onConfirm={confirmDelete}
        onCancel={() => setDialog(null)}
      />
    </section>
  );
}
