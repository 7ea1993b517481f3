import { TEMPLATE_EDITOR_HEIGHT } from '@fsm/contracts';
import { EditorContent, type Editor } from '@tiptap/react';
import { useRef, type ReactNode } from 'react';

function ToolButton({ label, active, onClick, disabled, children }: { label: string; active?: boolean; onClick: () => void; disabled?: boolean; children: ReactNode }) {
  return (
    <button
      type="button"
      className="rich-editor__tool"
      aria-label={label}
      title={label}
      aria-pressed={active === undefined ? undefined : active}
      disabled={disabled}
      // Keep the selection in the editor while clicking the toolbar.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Lecture impossible'));
    reader.readAsDataURL(file);
  });
}

/** Toolbar and editing area, 500 px high (§9). Images are embedded as data URLs, the only source the server keeps besides its own. */
export function TemplateEditor({ editor, editable }: { editor: Editor | null; editable: boolean }) {
  const fileRef = useRef<HTMLInputElement>(null);
  const chain = () => editor?.chain().focus();
  const off = !editor || !editable;

  const insertImage = async (file: File | undefined) => {
    if (!file || !editor || !file.type.startsWith('image/')) return;
    const src = await readAsDataUrl(file);
    editor.chain().focus().setImage({ src, alt: file.name }).run();
  };

  return (
    <div className="rich-editor">
      {editable ? (
        <div className="rich-editor__toolbar" role="toolbar" aria-label="Mise en forme">
          <ToolButton label="Gras" active={editor?.isActive('bold')} disabled={off} onClick={() => chain()?.toggleBold().run()}>
            <strong>G</strong>
          </ToolButton>
          <ToolButton label="Italique" active={editor?.isActive('italic')} disabled={off} onClick={() => chain()?.toggleItalic().run()}>
            <em>I</em>
          </ToolButton>
          <ToolButton label="Souligné" active={editor?.isActive('underline')} disabled={off} onClick={() => chain()?.toggleUnderline().run()}>
            <u>S</u>
          </ToolButton>
          <span className="rich-editor__sep" aria-hidden="true" />
          <ToolButton label="Titre 1" active={editor?.isActive('heading', { level: 1 })} disabled={off} onClick={() => chain()?.toggleHeading({ level: 1 }).run()}>
            T1
          </ToolButton>
          <ToolButton label="Titre 2" active={editor?.isActive('heading', { level: 2 })} disabled={off} onClick={() => chain()?.toggleHeading({ level: 2 }).run()}>
            T2
          </ToolButton>
          <ToolButton label="Liste à puces" active={editor?.isActive('bulletList')} disabled={off} onClick={() => chain()?.toggleBulletList().run()}>
            •≡
          </ToolButton>
          <ToolButton label="Liste numérotée" active={editor?.isActive('orderedList')} disabled={off} onClick={() => chain()?.toggleOrderedList().run()}>
            1≡
          </ToolButton>
          <span className="rich-editor__sep" aria-hidden="true" />
          <ToolButton label="Aligner à gauche" active={editor?.isActive({ textAlign: 'left' })} disabled={off} onClick={() => chain()?.setTextAlign('left').run()}>
            ⇤
          </ToolButton>
          <ToolButton label="Centrer" active={editor?.isActive({ textAlign: 'center' })} disabled={off} onClick={() => chain()?.setTextAlign('center').run()}>
            ↔
          </ToolButton>
          <ToolButton label="Aligner à droite" active={editor?.isActive({ textAlign: 'right' })} disabled={off} onClick={() => chain()?.setTextAlign('right').run()}>
            ⇥
          </ToolButton>
          <span className="rich-editor__sep" aria-hidden="true" />
          <ToolButton label="Insérer un tableau" disabled={off} onClick={() => chain()?.insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run()}>
            ▦
          </ToolButton>
          <ToolButton label="Ajouter une ligne au tableau" disabled={off || !editor?.can().addRowAfter()} onClick={() => chain()?.addRowAfter().run()}>
            +L
          </ToolButton>
          <ToolButton label="Ajouter une colonne au tableau" disabled={off || !editor?.can().addColumnAfter()} onClick={() => chain()?.addColumnAfter().run()}>
            +C
          </ToolButton>
          <ToolButton label="Supprimer le tableau" disabled={off || !editor?.can().deleteTable()} onClick={() => chain()?.deleteTable().run()}>
            ✕▦
          </ToolButton>
          <ToolButton label="Insérer une image" disabled={off} onClick={() => fileRef.current?.click()}>
            <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
              <rect x="2" y="3.5" width="16" height="13" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
              <circle cx="7" cy="8" r="1.6" fill="currentColor" />
              <path d="M3 15l4.5-4.5 3 3 2.5-2.5L17 15" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
            </svg>
          </ToolButton>
          <ToolButton label="Ligne horizontale" disabled={off} onClick={() => chain()?.setHorizontalRule().run()}>
            ―
          </ToolButton>
          <span className="rich-editor__sep" aria-hidden="true" />
          <ToolButton label="Annuler la dernière modification" disabled={off || !editor?.can().undo()} onClick={() => chain()?.undo().run()}>
            ↶
          </ToolButton>
          <ToolButton label="Rétablir" disabled={off || !editor?.can().redo()} onClick={() => chain()?.redo().run()}>
            ↷
          </ToolButton>
          <input
            ref={fileRef}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            className="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(event) => {
              void insertImage(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
        </div>
      ) : null}
      <div className="rich-editor__area" style={{ height: TEMPLATE_EDITOR_HEIGHT }}>
        <EditorContent editor={editor} />
      </div>
    </div>
  );
}
