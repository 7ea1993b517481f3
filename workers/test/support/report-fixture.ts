/* The sample closure report is the template preview's (workers/src/reports/sample-report.ts). */
export { sampleReportFacts } from '../../src/reports/sample-report.js';
