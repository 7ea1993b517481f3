import { validateWithoutEval } from '@fsm/contracts/validation-without-eval';

// main.tsx imports this first, before any module that builds a schema: the page runs under a CSP without 'unsafe-eval'.
validateWithoutEval();
