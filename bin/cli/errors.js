/**
 * A problem with what the user gave us (arguments, a catalog): reported as one line, exit code 2.
 * Anything else that goes wrong is a bug and keeps its stack.
 */
export class InputError extends Error {}
