export * from './export.js';
