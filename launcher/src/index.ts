export * from './all-roles.js';
