/**
 * Runs a contracts schema over a form's values and keeps the first message per
 * field, so each field shows the same French text the API would answer.
 */
interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

interface SafeParser<Output> {
  safeParse(input: unknown): { success: true; data: Output } | { success: false; error: { issues: readonly Issue[] } };
}

export type FieldErrors = Readonly<Record<string, string>>;

export type FormCheck<Output> = { ok: true; data: Output } | { ok: false; errors: FieldErrors; first: string };

export function checkForm<Output>(schema: SafeParser<Output>, values: unknown): FormCheck<Output> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    errors[key] ??= issue.message;
  }
  return { ok: false, errors, first: result.error.issues[0]?.message ?? 'Données invalides.' };
}

/**
 * The errors of the last refused submit that the values now still have: a
 * message and its red border go as soon as the field is fixed (issue 18), and
 * none appears before the next submit. Re-run the form's check on each render.
 */
export function remainingErrors(shown: FieldErrors, now: FormCheck<unknown>): FieldErrors {
  if (Object.keys(shown).length === 0) return shown;
  if (now.ok) return {};
  const remaining: Record<string, string> = {};
  for (const key of Object.keys(shown)) {
    const message = now.errors[key];
    if (message) remaining[key] = message;
  }
  return remaining;
}
