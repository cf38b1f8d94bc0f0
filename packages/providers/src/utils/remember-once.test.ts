import { describe, expect, it } from 'vitest';
import { rememberOnce } from './remember-once.js';

describe('rememberOnce', () => {
  it('looks up once, and again after a failure', async () => {
    let calls = 0;
    const who = rememberOnce(async () => {
      calls++;
      if (calls === 1) throw new Error('offline');
      return 'bot';
    });
    await expect(who.get()).rejects.toThrow('offline');
    expect(await Promise.all([who.get(), who.get()])).toEqual(['bot', 'bot']);
    expect(calls).toBe(2);
    who.set('verified');
    expect(await who.get()).toBe('verified');
  });
});

describe('rememberOnce with arguments', () => {
  it('passes the arguments of the call that starts the lookup', async () => {
    const seen: string[] = [];
    const who = rememberOnce(async (caller: string) => {
      seen.push(caller);
      return `bot for ${caller}`;
    });
    expect(await Promise.all([who.get('first'), who.get('second')])).toEqual(['bot for first', 'bot for first']);
    expect(seen).toEqual(['first']);
  });
});
