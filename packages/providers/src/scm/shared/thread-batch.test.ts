import { type CreatedThread, MarginError } from '@margin/core';
import { describe, expect, it } from 'vitest';
import { createThreadsOneByOne, refusedThread } from './thread-batch.js';

const anchor = { filePath: 'src/a.ts', startLine: 3, endLine: 4 };

describe('posting threads one by one', () => {
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

describe('a refused thread', () => {
  it('names the place and keeps the provider status of a 400', () => {
    const error = refusedThread(
      'GitLab',
      { ...anchor, side: 'old' },
      MarginError.provider('rejected', 'GitLab answered 400: bad line', { providerStatus: 400 }),
    ) as MarginError;
    expect(error.message).toBe(
      'GitLab refused a thread on src/a.ts lines 3–4 (old side): GitLab answered 400: bad line',
    );
    expect(error.details).toEqual({ providerFailure: 'rejected', providerStatus: 400 });
  });

  it('leaves other failures as they are', () => {
    const unavailable = MarginError.provider('unavailable', 'down', { providerStatus: 503 });
    expect(refusedThread('GitLab', anchor, unavailable)).toBe(unavailable);
  });
});
