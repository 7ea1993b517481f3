import Image from '@tiptap/extension-image';
import { TableKit } from '@tiptap/extension-table';
import TextAlign from '@tiptap/extension-text-align';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';

/**
 * The self-hosted rich-text editor (TipTap, bundled with the app: no script
 * from a third-party service). Its nodes stay within what the server's
 * sanitiser keeps: headings, paragraphs, lists, tables, images, alignment;
 * links are off because the sanitiser drops them.
 */
export function useTemplateEditor({ editable, onChange }: { editable: boolean; onChange: (html: string) => void }) {
  return useEditor({
    extensions: [
      StarterKit.configure({ link: false, code: false, codeBlock: false, blockquote: false, strike: false }),
      TableKit.configure({ table: { resizable: false } }),
      Image.configure({ allowBase64: true }),
      TextAlign.configure({ types: ['heading', 'paragraph'] }),
    ],
    content: '',
    editable,
    shouldRerenderOnTransaction: true,
    editorProps: { attributes: { class: 'rich-editor__content', 'aria-label': 'Contenu du modèle', role: 'textbox', 'aria-multiline': 'true' } },
    onUpdate: ({ editor }) => onChange(editor.getHTML()),
  });
}

/** TipTap's empty document is `<p></p>`: a content of empty paragraphs only counts as none (§5). */
export function isBlankHtml(html: string): boolean {
  if (/<(img|table|hr)\b/i.test(html)) return false;
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim() === '';
}
