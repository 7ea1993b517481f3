/**
 * Characters a stored text must not carry: they are not seen, yet they change
 * what the text around them looks like or how it compares. A right-to-left
 * override (U+202E) shows "Dupont‮fdp.exe" as "Dupontexe.pdf" on every screen,
 * PDF and e-mail; a zero-width space makes two names that look the same
 * compare different; a C0 or C1 control prints as nothing, or garbles a PDF or
 * a CSV cell. Refused with a French 400 on every text field the API stores
 * (names, addresses, telephones, problems, reports, quote numbers), through the
 * zod builders of the request schemas and the ticket decider.
 *
 * Kept on purpose: tab, line feed and carriage return (multi-line fields), the
 * zero-width non-joiner and joiner (U+200C, U+200D: Persian, Indic scripts and
 * emoji sequences need them), the soft hyphen (a visible hyphen when a word
 * breaks). Over HTTP, U+0000 and lone surrogates are refused before this, by
 * the API's text guard; U+0000 is listed here too so that a decider refuses it
 * whatever the caller (Postgres text cannot hold it).
 */
const HIDDEN_CHARACTERS = new RegExp(
  [
    '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F]', // C0 controls but tab, LF, CR
    '[\\u007F-\\u009F]', // DEL and the C1 controls
    '\\u061C', // Arabic letter mark (bidi)
    '\\u180E', // Mongolian vowel separator (zero width)
    '\\u200B', // zero-width space
    '[\\u200E\\u200F]', // left-to-right and right-to-left marks
    '[\\u202A-\\u202E]', // bidi embeddings and overrides
    '[\\u2060-\\u2064]', // word joiner and invisible operators
    '[\\u2066-\\u2069]', // bidi isolates
    '[\\u206A-\\u206F]', // deprecated format controls
    '\\uFEFF', // zero-width no-break space (a BOM inside a text)
    '[\\uFFF9-\\uFFFB]', // interlinear annotation controls
    '[\\u{E0000}-\\u{E007F}]', // tag characters: invisible ASCII riding along a text
  ].join('|'),
  'u',
);

/** Not in the spec: a text field carrying one of the characters above. */
export const HIDDEN_CHARACTERS_MESSAGE = 'Ce champ contient des caractères invisibles ou de contrôle non autorisés.';

/** Whether the text holds a character that changes its display or comparison without being seen. */
export function hasHiddenCharacters(text: string): boolean {
  return HIDDEN_CHARACTERS.test(text);
}
