export * from './projector.js';
export * from './runner.js';
export * from './stopped-projectors.js';
export * from './projection-watcher.js';
export * from './read-models-wait.js';
export * from './read-models/index.js';
export * from './start-projections.js';
export * from './maintenance.js';
