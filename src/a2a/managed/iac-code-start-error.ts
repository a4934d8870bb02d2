/** Why the managed child could not start; `exitCode` when it exited during startup. */
export class IacCodeStartError extends Error {
  override name = 'IacCodeStartError';
  constructor(
    message: string,
    readonly exitCode?: number | null,
  ) {
    super(message);
  }
}
