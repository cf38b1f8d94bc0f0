import { MarginError } from '@margin/core';
import { describe, expect, it } from 'vitest';
import { createOneByOne } from './create-one-by-one.js';
import { rememberOnce } from './remember-once.js';

describe('createOneByOne', () => {
  it('keeps input order and turns each failure into that thread’s MarginError', async () => {
    const outcomes = await createOneByOne(['a', 'refused', 'c'], async (name) => {
      if (name === 'refused') throw MarginError.provider('rejected', 'Refused.', { providerStatus: 422 });
      return { threadId: name, commentId: '1' };
    });
    expect(outcomes.map((o) => (o.ok ? o.thread.threadId : o.error.details.providerStatus))).toEqual(['a', 422, 'c']);
  });

  it('stops and throws once the call is cancelled', async () => {
    const controller = new AbortController();
    const created: string[] = [];
    const run = createOneByOne(
      ['a', 'b', 'c'],
      async (name) => {
        if (name === 'b') {
          controller.abort();
          throw MarginError.provider('timeout', 'The call was cancelled.');
        }
        created.push(name);
        return { threadId: name, commentId: '1' };
      },
      controller.signal,
    );
    await expect(run).rejects.toThrow('cancelled');
    expect(created).toEqual(['a']);
  });
});

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
