/**
 * The shape every aggregate follows: pure `decide` and `evolve`, no I/O, no
 * clock (time and ids come in the command). Handlers load the stream, fold it
 * with `evolve` from `initialState`, call `decide`, and append the result with
 * the stream's revision as the expected revision.
 *
 * `decide` returns the events to append, or throws a DomainError subclass
 * (ValidationError, IllegalStateError, ...) from `@fsm/contracts`.
 */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export interface Decider<Command, State, Event extends DomainEvent> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState: State;
}

export function fold<State, Event>(evolve: (state: State, event: Event) => State, initialState: State, events: readonly Event[]): State {
  return events.reduce(evolve, initialState);
}
