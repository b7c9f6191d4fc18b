import { describe, expect, it } from 'vitest';
import { clearStoredExceptPreferences } from './storage.ts';
import { endSession, refreshSession, sessionStore } from './session.ts';

describe('logout storage', () => {
  it('forgets the session and stored choices but keeps the display preferences and the log witness', () => {
    const stored = {
      token: 't',
      accountNum: 'a@b.co',
      user_id: '1',
      legal_id: '3',
      symbol: 'BTC/USDT',
      lang: 'jp',
      locale: 'ja-JP',
      night_mode: '1',
      downUp: 'red-up',
      log_witness: '{}',
    };
    for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value);
    localStorage.setItem('unrelated', 'x');
    clearStoredExceptPreferences();
    expect({ ...localStorage }).toEqual({
      lang: 'jp',
      locale: 'ja-JP',
      night_mode: '1',
      downUp: 'red-up',
      log_witness: '{}',
    });
  });

  it('ends the session in the store as well', () => {
    localStorage.setItem('token', 't');
    localStorage.setItem('accountNum', 'a@b.co');
    refreshSession();
    expect(sessionStore.getState().token).toBe('t');
    endSession();
    expect(sessionStore.getState()).toMatchObject({ token: null, accountNum: null, userId: null });
    expect(localStorage.getItem('token')).toBeNull();
  });
});
