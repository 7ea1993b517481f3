/** Tiny `--name value` / `--flag` parser: the bench has a handful of options, no dependency needed. */
export function parseArgs(argv: readonly string[]): Map<string, string | true> {
  const options = new Map<string, string | true>();
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (!arg.startsWith('--')) throw new Error(`argument inattendu : ${arg}`);
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    if (inline !== undefined) options.set(name, inline);
    else if (argv[index + 1] !== undefined && !argv[index + 1]!.startsWith('--')) options.set(name, argv[++index]!);
    else options.set(name, true);
  }
  return options;
}

export function intOption(options: Map<string, string | true>, name: string, fallback: number): number {
  const raw = options.get(name);
  if (raw === undefined) return fallback;
  const value = Number(String(raw).replace(/[_k]/gi, (c) => (c.toLowerCase() === 'k' ? '000' : '')));
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} : entier attendu, reçu ${String(raw)}`);
  return value;
}

export function stringOption(options: Map<string, string | true>, name: string, fallback: string): string {
  const raw = options.get(name);
  return raw === undefined || raw === true ? fallback : raw;
}

/** Database names are spliced into CREATE/DROP DATABASE: plain identifiers only. */
export function checkDatabaseName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,50}$/.test(name)) throw new Error(`nom de base invalide : ${name}`);
  return name;
}

/** postgres://…/<database> on the shared server (PG_ADMIN_URL or DATABASE_URL's server, else 127.0.0.1). */
export function databaseUrl(database: string): string {
  const url = new URL(process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${database}`;
  return url.toString();
}

export const adminDatabaseUrl = () => databaseUrl('postgres');

export function log(message: string): void {
  process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}
