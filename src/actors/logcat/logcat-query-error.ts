/** A query that cannot be compiled; the tool answers invalid_argument with `message`. */
export class LogcatQueryError extends Error {
  readonly code = 'INVALID';
}
