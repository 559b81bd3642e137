import { describe, expect, it } from 'vitest';
import { AppError as CoreAppError, NotFoundError as CoreNotFoundError } from '../../core/errors.js';
import { AppError, ConflictError, ErrorCode, NotFoundError, routeId, ValidationError } from 'atende/plugin';

describe('the SDK error classes', () => {
  it("take a plugin's own codes and are the core's classes, so the API answers them with their status", () => {
    // A code outside the core's catalogue compiles here: the SDK's constructors take ERR_ strings of the plugin.
    const own = new NotFoundError('ERR_ECHO_NOT_HEARD', 'Nothing heard');
    expect(own).toBeInstanceOf(CoreNotFoundError);
    expect(own).toBeInstanceOf(CoreAppError);
    expect(own).toMatchObject({ code: 'ERR_ECHO_NOT_HEARD', status: 404, message: 'Nothing heard' });
    expect(new ConflictError('ERR_ECHO_BUSY', 'Busy')).toMatchObject({ code: 'ERR_ECHO_BUSY', status: 409 });
    expect(new ValidationError('greeting: Too long', undefined, 'ERR_ECHO_GREETING')).toMatchObject({ code: 'ERR_ECHO_GREETING', status: 400 });
    expect(new AppError('ERR_ECHO_DOWN', 503, 'Down')).toBeInstanceOf(CoreAppError);
    expect(() => routeId('abc', 'ERR_ECHO_NOT_HEARD')).toThrow(expect.objectContaining({ code: 'ERR_ECHO_NOT_HEARD', status: 404 }));
  });

  it("keep the core's catalogue codes and narrow with instanceof", () => {
    const err: unknown = new NotFoundError(ErrorCode.ERR_NO_SCHEDULE_FOUND);
    expect(err instanceof AppError && err.code === 'ERR_NO_SCHEDULE_FOUND' && err.status === 404).toBe(true);
  });
});
