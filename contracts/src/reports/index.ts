export * from './report-events.js';
export * from './report-requests.js';
export * from './template-preview.js';
export * from './ticket-reports.js';
