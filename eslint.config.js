// Lint guards (issue 22, item 7): typescript-eslint's recommended rules without
// type information (`tsc -b` already checks types; a type-aware run would type-check
// the whole tree a second time on CI's two cores), and the import boundaries of
// docs/architecture.md.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const WORKSPACES = ['contracts', 'eventstore', 'projections', 'command-api', 'workers', 'web', 'launcher'];

/** The files a workspace's package.json `exports` make public (its `source` entries), relative to its `src/`. */
function publicEntries(workspace) {
  const { exports = {} } = JSON.parse(readFileSync(new URL(`./${workspace}/package.json`, import.meta.url), 'utf8'));
  return Object.values(exports)
    .map((entry) => (typeof entry === 'string' ? entry : entry.source))
    .filter((path) => typeof path === 'string' && path.startsWith('./src/'))
    .map((path) => `.${path.slice('./src'.length)}`);
}

// Who may import whom (docs/architecture.md, "Top-level layout"): the roles never
// import each other except projections' queries; contracts and eventstore import no
// role; web imports only contracts. bench, faults, e2e and launcher compose roles.
const MAY_NOT_IMPORT = {
  contracts: ['eventstore', 'projections', 'command-api', 'workers', 'web', 'launcher'],
  eventstore: ['projections', 'command-api', 'workers', 'web', 'launcher'],
  projections: ['command-api', 'workers', 'web', 'launcher'],
  'command-api': ['workers', 'web', 'launcher'],
  workers: ['command-api', 'web', 'launcher'],
  web: ['eventstore', 'projections', 'command-api', 'workers', 'launcher'],
};

// Web features (docs/architecture.md, "Web features"): a feature imports the shared layers
// (components/, lib/, app/), its own folder, and only the features listed here against
// its name. A need two features share moves down to components/ or lib/ instead.
const WEB_FEATURE_IMPORTS = {
  clients: ['agences', 'metiers', 'qrcodes'], // agency and trade pickers; an installation's QR codes dialog
  home: ['tickets'], // the dashboard's ticket lists
  navigation: ['auth'], // logout and the password dialog
  stats: ['agences', 'metiers', 'users'], // the filters' agency and trade lists
  telesurveillance: ['tickets'], // files a ticket with the ticket form's fields
  'template-builder': ['agences'], // assigns a template to an agency
  'ticket-detail': ['tickets'], // the ticket resource: its query keys, answers and list refresh
  tickets: ['clients', 'metiers'], // a client's sites and the trades, for the pickers
};
const WEB_FEATURES = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
for (const [feature, others] of Object.entries(WEB_FEATURE_IMPORTS)) {
  const unknown = [feature, ...others].filter((name) => !WEB_FEATURES.includes(name));
  if (unknown.length > 0) throw new Error(`eslint.config.js, WEB_FEATURE_IMPORTS: no feature ${unknown.join(', ')} under web/src/features`);
}
const webFeatureZones = WEB_FEATURES.map((feature) => ({
  target: `./web/src/features/${feature}`,
  from: './web/src/features',
  except: [feature, ...(WEB_FEATURE_IMPORTS[feature] ?? [])].map((allowed) => `./${allowed}`),
  message: `${feature} may import only the features declared for it in eslint.config.js (WEB_FEATURE_IMPORTS); move what they share down to web/src/components or web/src/lib.`,
}));

const boundaryZones = [
  // No import of another workspace's src/ or test/: only what its package.json exports.
  ...WORKSPACES.flatMap((workspace) => [
    {
      target: `./!(${workspace})/**`,
      from: `./${workspace}/src`,
      except: publicEntries(workspace),
      message: `Import @fsm/${workspace} (or its test-support entry), not its files.`,
    },
    {
      target: `./!(${workspace})/**`,
      from: `./${workspace}/test`,
      message: `${workspace}'s test helpers are reached through @fsm/${workspace}/test-support.`,
    },
  ]),
  ...Object.entries(MAY_NOT_IMPORT).flatMap(([workspace, others]) =>
    others.map((other) => ({
      target: `./${workspace}/src`,
      from: `./${other}`,
      message: `${workspace} does not depend on ${other} (docs/architecture.md).`,
    })),
  ),
  // Inside workspaces: the deciders stay pure (contracts and their own folder only),
  // and web's shared layers never reach up into a feature or the app shell.
  {
    target: './command-api/src/domain',
    from: ['./command-api/src/!(domain)/**', './command-api/src/*.ts', './eventstore/**', './projections/**'],
    message: 'A decider is pure: it imports @fsm/contracts and its own folder only.',
  },
  {
    target: ['./web/src/components', './web/src/lib'],
    from: ['./web/src/features', './web/src/app'],
    message: 'Shared components and lib are imported by features, never the other way round.',
  },
  ...webFeatureZones,
];

export default defineConfig(
  globalIgnores(['**/dist/**', '**/node_modules/**', '.data/**', '**/coverage/**', 'e2e/artifacts/**', 'faults/artifacts/**']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore names what is left out on purpose (`{ id: _id, ...rest }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `interface Batch extends Slice {}` names a port's type apart from its shape.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // Input schemas reject control characters on purpose (`/[\u0000-\u001f]/`).
      'no-control-regex': 'off',
      // French text keeps its no-break spaces (« : », « 12 h ») in strings, templates and JSX.
      'no-irregular-whitespace': ['error', { skipStrings: true, skipTemplates: true, skipJSXText: true, skipRegExps: true, skipComments: true }],
    },
  },
  {
    files: ['web/src/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    plugins: { 'import-x': importX },
    settings: {
      // Resolves `.js` specifiers to their `.ts` sources and @fsm/* packages through the
      // `source` export condition, to the real files the zones above are written against.
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          conditionNames: ['source', 'types', 'import', 'node', 'default'],
        }),
      ],
    },
    rules: {
      // An import the resolver cannot follow would pass the zones unseen. altcha's
      // `i18n/*` export names a types file it does not ship (the bundler takes `import`).
      'import-x/no-unresolved': ['error', { ignore: ['^altcha/i18n/'] }],
      'import-x/no-restricted-paths': ['error', { basePath: fileURLToPath(new URL('.', import.meta.url)), zones: boundaryZones }],
    },
  },
);
