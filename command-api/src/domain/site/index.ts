export * from './site.js';
export * from './decide.js';
