// Every result code the engine can refuse a command with answers in words in every language: a wallet or
// administrator call never turns an engine refusal into a server error.
import { describe, expect, it } from 'vitest';
import { ResultCode } from '@fairex/engine';
import { LANGUAGES, translate } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import { refuseEngineCode } from './engine-calls.ts';

describe('engine refusals', () => {
  it.each(Object.entries(ResultCode).filter(([, code]) => code !== 0))(
    '%s (%i) has a message',
    (_name, code) => {
      let thrown: unknown;
      try {
        refuseEngineCode(code);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AppError);
      const { key, params } = thrown as AppError;
      for (const lang of LANGUAGES) {
        const text = translate(lang, key, params);
        expect(text).not.toContain(key);
        expect(text).not.toMatch(/\{\w+\}/);
      }
    },
  );
});
