import { managementEventSchema, type DomainError } from '@fsm/contracts';
import { expect } from 'vitest';
import { fold, type Decider, type DomainEvent } from '../decider.js';

type ErrorClass = abstract new (...args: never[]) => DomainError;

/**
 * given(events).when(command).then(events) | .thenRejects(ErrorClass, message)
 * for the management deciders. Every event a decider returns is also parsed
 * with the contracts' event schema, so deciders and contracts cannot drift.
 */
export function deciderSpec<Command, State, Event extends DomainEvent>(decider: Decider<Command, State, Event>) {
  return {
    given(...history: Event[]) {
      const state = fold(decider.evolve, decider.initialState, history);
      return {
        state,
        when(command: Command) {
          return {
            then(expected: Event[]) {
              const events = decider.decide(command, state);
              expect(events).toEqual(expected);
              for (const event of events) expect(managementEventSchema.parse(event)).toEqual(event);
              return events;
            },
            thenRejects(errorClass: ErrorClass, message: string) {
              let thrown: unknown;
              try {
                decider.decide(command, state);
              } catch (error) {
                thrown = error;
              }
              expect(thrown).toBeInstanceOf(errorClass);
              expect((thrown as Error).message).toBe(message);
            },
          };
        },
      };
    },
  };
}

/** Fixed ids and instants: the domain never reads a clock or draws an id. */
export const IDS = {
  agence: '0b7d0f0e-1c2d-4e3f-9a4b-5c6d7e8f9a0b',
  agence2: '1c8e1a1f-2d3e-4f4a-8b5c-6d7e8f9a0b1c',
  client: '2d9f2b2a-3e4f-4a5b-9c6d-7e8f9a0b1c2d',
  site: '3e0a3c3b-4f5a-4b6c-8d7e-8f9a0b1c2d3e',
  site2: '4f1b4d4c-5a6b-4c7d-9e8f-9a0b1c2d3e4f',
  installation: '5a2c5e5d-6b7c-4d8e-8f9a-0b1c2d3e4f5a',
  installation2: '6b3d6f6e-7c8d-4e9f-9a0b-1c2d3e4f5a6b',
  interlocuteur: '7c4e7a7f-8d9e-4f0a-8b1c-2d3e4f5a6b7c',
  qrCode: '8d5f8b8a-9e0f-4a1b-9c2d-3e4f5a6b7c8d',
  batch: '9e6a9c9b-0f1a-4b2c-8d3e-4f5a6b7c8d9e',
  user: 'a07b0d0c-1a2b-4c3d-9e4f-5a6b7c8d9e0f',
  user2: 'b18c1e1d-2b3c-4d4e-8f5a-6b7c8d9e0f1a',
  metier: 'c29d2f2e-3c4d-4e5f-9a6b-7c8d9e0f1a2b',
  metier2: 'd30e3a3f-4d5e-4f6a-8b7c-8d9e0f1a2b3c',
  metier3: 'e41f4b4a-5e6f-4a7b-9c8d-9e0f1a2b3c4d',
  template: 'f52a5c5b-6f7a-4b8c-8d9e-0f1a2b3c4d5e',
} as const;

export const T0 = '2026-03-02T08:00:00.000Z';
export const T1 = '2026-03-02T09:00:00.000Z';
export const T2 = '2026-03-02T10:00:00.000Z';
