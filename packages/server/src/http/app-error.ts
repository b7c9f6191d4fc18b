import type { MessageKey, MessageParams } from '@fairex/shared';

/**
 * A refusal the user should read: thrown anywhere below a route, answered by the error handler as
 * {type, message} with the message translated into the request language and HTTP status 200.
 */
export class AppError extends Error {
  readonly type: 'error' | '999' | '998';
  readonly key: MessageKey;
  readonly params: MessageParams;

  constructor(key: MessageKey, params: MessageParams = {}, type: 'error' | '999' | '998' = 'error') {
    super(key);
    this.name = 'AppError';
    this.key = key;
    this.params = params;
    this.type = type;
  }
}
