export * from './report.js';
export * from './template-preview.js';
export * from './ticket-reports.js';
