/**
 * An error the CLI reports as one line (`atende: <message>`) with its own exit code:
 * 2 for bad input (usage), 1 for everything that went wrong after the input was accepted.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const EXIT_USAGE = 2;

export function usageError(message: string): CliError {
  return new CliError(message, EXIT_USAGE);
}
