/** The InputError a call throws; fails the test when the call succeeds or throws something else. */
import { expect } from 'vitest';
import { InputError } from '../../src/errors.js';

export function inputError(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError, but the input was accepted');
}

export async function inputErrorAsync(run: () => Promise<unknown>): Promise<InputError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError, but the input was accepted');
}
