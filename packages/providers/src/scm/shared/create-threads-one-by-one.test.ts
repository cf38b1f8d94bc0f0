import { type CreatedThread, MarginError } from '@margin/core/spec';
import { describe, expect, it } from 'vitest';
import { createThreadsOneByOne } from './create-threads-one-by-one.js';

describe('posting threads one by one', () => {
  it('keeps input order and turns each failure into that thread’s MarginError', async () => {
    const outcomes = await createThreadsOneByOne(['a', 'refused', 'c'], async (name) => {
      if (name === 'refused') throw MarginError.provider('rejected', 'Refused.', { providerStatus: 422 });
      return { threadId: name, commentId: '1' };
    });
    expect(outcomes.map((o) => (o.ok ? o.thread.threadId : o.error.details.providerStatus))).toEqual(['a', 422, 'c']);
  });

  it('stops and throws once the call is cancelled', async () => {
    const controller = new AbortController();
    const created: string[] = [];
    const run = createThreadsOneByOne(
      ['a', 'b', 'c'],
      async (name) => {
        if (name === 'b') {
          controller.abort();
          throw MarginError.provider('cancelled', 'The call was cancelled.');
        }
        created.push(name);
        return { threadId: name, commentId: '1' };
      },
      controller.signal,
    );
    await expect(run).rejects.toThrow('cancelled');
    expect(created).toEqual(['a']);
  });

  it('keeps input order and turns a provider failure into a refused outcome without stopping', async () => {
    const posted: string[] = [];
    const outcomes = await createThreadsOneByOne(
      [{ body: 'one' }, { body: 'two' }, { body: 'three' }],
      async (thread): Promise<CreatedThread> => {
        posted.push(thread.body);
        if (thread.body === 'two') throw MarginError.provider('rejected', 'no', { providerStatus: 400 });
        return { threadId: thread.body, commentId: '1' };
      },
      undefined,
    );
    expect(posted).toEqual(['one', 'two', 'three']);
    expect(outcomes.map((o) => (o.ok ? o.thread.threadId : o.error.code))).toEqual([
      'one',
      'provider_unavailable',
      'three',
    ]);
  });

  it('stops at a cancelled signal and lets a programming error through', async () => {
    const controller = new AbortController();
    const create = async (): Promise<CreatedThread> => {
      controller.abort();
      throw MarginError.provider('timeout', 'cancelled');
    };
    await expect(createThreadsOneByOne([{ body: 'x' }, { body: 'y' }], create, controller.signal)).rejects.toThrow(
      'cancelled',
    );
    const broken = async (): Promise<CreatedThread> => {
      throw new TypeError('bug');
    };
    await expect(createThreadsOneByOne([{ body: 'x' }], broken, undefined)).rejects.toThrow(TypeError);
  });
});
