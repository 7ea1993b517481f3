import type { PoolClient, QueryConfig } from 'pg';
import type { Projector } from './projector.js';
import { withQuery } from './query-proxy.js';

/*
 * Blue/green rebuild (docs/operations.md). A rebuild builds the read models
 * it replaces in the shadow schema `rm_next`, beside the live ones in `rm`
 * that every screen, login and token check keeps reading, then swaps the
 * tables in one transaction (ALTER TABLE … SET SCHEMA).
 *
 * The projectors' SQL names its tables `rm.<table>`. Rather than parameterise
 * every statement, a projector built in the shadow receives its transaction
 * through `clientInSchema`: ONE place rewrites `rm.<table>` to
 * `rm_next.<table>` in every statement, for the tables of the read models
 * being rebuilt only (a reader of an unchanged read model keeps reading the
 * live one). Only tables and indexes live in `rm` (setupSql creates nothing
 * else), and an index moves with its table.
 */

/** Where a rebuild builds the read models it replaces. */
export const SHADOW_SCHEMA = 'rm_next';
/** Where the swap puts the replaced tables, dropped in the same transaction. */
export const RETIRED_SCHEMA = 'rm_old';

/** The checkpoint row and lease of the runner building the shadow of runner `name`. */
export function shadowRunnerName(name: string): string {
  return `${name}.next`;
}

/** The tables a projector creates in `rm` (its setupSql's CREATE TABLE statements). */
export function tablesOf(projector: Projector): string[] {
  return [...projector.setupSql.matchAll(/CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?rm\.(\w+)/gi)].map((match) => match[1]!);
}

/** Rewrites `rm.<table>` to `<schema>.<table>` for these tables, and only these. */
function schemaRewriter(tables: readonly string[], schema: string): (text: string) => string {
  if (tables.length === 0) return (text) => text;
  const pattern = new RegExp(`\\brm\\.(${tables.join('|')})\\b`, 'g');
  return (text) => text.replace(pattern, `${schema}.$1`);
}

/**
 * The transaction as a shadow projector sees it: every statement's text
 * rewritten (named prepared statements renamed too, since a name is prepared
 * once per connection with its first text).
 */
function clientInSchema(tx: PoolClient, rewrite: (text: string) => string, schema: string): PoolClient {
  const rewriteConfig = (config: unknown): unknown => {
    if (typeof config === 'string') return rewrite(config);
    if (config && typeof config === 'object' && Object.getPrototypeOf(config) === Object.prototype && typeof (config as QueryConfig).text === 'string') {
      const query = config as QueryConfig;
      return { ...query, text: rewrite(query.text), ...(query.name ? { name: `${query.name}@${schema}` } : {}) };
    }
    return config;
  };
  return withQuery(tx, (query, config, ...rest) => query(rewriteConfig(config), ...rest));
}

/**
 * The projectors to rebuild, writing to `schema` instead of `rm`: their
 * setupSql creates their tables there, `apply` writes there and reads there
 * the tables of the others rebuilt with them, and reads the live tables of the
 * read models not rebuilt (so `readsFrom` names only those rebuilt with it).
 */
export function projectorsInSchema(projectors: readonly Projector[], schema: string): Projector[] {
  const names = new Set(projectors.map((projector) => projector.name));
  const rewrite = schemaRewriter(projectors.flatMap(tablesOf), schema);
  return projectors.map((projector) => ({
    name: projector.name,
    version: projector.version,
    handles: projector.handles,
    readsFrom: (projector.readsFrom ?? []).filter((source) => names.has(source)),
    setupSql: schemaRewriter(tablesOf(projector), schema)(projector.setupSql),
    ...(projector.queryIndexesSql ? { queryIndexesSql: schemaRewriter(tablesOf(projector), schema)(projector.queryIndexesSql) } : {}),
    apply: (tx, events, replay) => projector.apply(clientInSchema(tx, rewrite, schema), events, replay),
  }));
}
