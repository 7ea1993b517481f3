export * from './template.js';
export * from './decide.js';
