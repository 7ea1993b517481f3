/* Test images are the sample report's (workers/src/reports/sample-images.ts). */
export { photoPng, signaturePng } from '../../src/reports/sample-images.js';
