import { ConflictError, NotFoundError } from '@fsm/contracts';
import type { ExpectedRevision } from './port.js';

/** The stream was not at the expected revision. `actual` is -1 for a missing stream. */
export class ConcurrencyError extends ConflictError {
  readonly stream: string;
  readonly expected: ExpectedRevision;
  readonly actual: number;
  constructor(stream: string, expected: ExpectedRevision, actual: number) {
    super('Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.', {
      stream,
      expected: String(expected),
      actual,
    });
    this.stream = stream;
    this.expected = expected;
    this.actual = actual;
  }
}

export class StreamNotFoundError extends NotFoundError {
  readonly stream: string;
  constructor(stream: string) {
    super('Élément introuvable.', { stream });
    this.stream = stream;
  }
}
