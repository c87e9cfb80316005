import { MongoNetworkError, MongoServerError, MongoWriteConcernError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { InsertGroup, isGroupableInsert } from '../../../durable-objects/insert-group';
import { splitInsertReply } from '../../../durable-objects/insert-reply';

// A gateway object sends the unordered inserts that arrive while one is on its way as one command. Each caller
// must still learn exactly what an insert of its own documents would have answered.

/** A send that waits until released, recording what each command carried; duplicates of `refuse` are refused. */
function server(refuse: Set<string> = new Set()) {
  const commands: string[][] = [];
  const pending: (() => void)[] = [];
  const send = (documents: string[]) => {
    commands.push(documents);
    return new Promise<{ n: number; ok: number; writeErrors?: { index: number; code: number }[] }>((resolve) => {
      pending.push(() => {
        const writeErrors = documents.flatMap((doc, index) => (refuse.has(doc) ? [{ index, code: 11000 }] : []));
        resolve(
          writeErrors.length
            ? { n: documents.length - writeErrors.length, ok: 1, writeErrors }
            : { n: documents.length, ok: 1 },
        );
      });
    });
  };
  /** Answers the oldest command and lets the group send its next. */
  const release = async () => {
    pending.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { commands, send, release };
}

describe('InsertGroup', () => {
  it('sends a lone insert at once, as it is', async () => {
    const db = server();
    const group = new InsertGroup(db.send, 10, 100);
    const answer = group.insert(['a', 'b']);
    expect(db.commands).toEqual([['a', 'b']]);
    await db.release();
    expect(await answer).toEqual({ n: 2, ok: 1 });
  });

  it('sends the inserts that arrive meanwhile as one command, and answers each with its own refusals', async () => {
    const db = server(new Set(['c', 'f']));
    const group = new InsertGroup(db.send, 10, 100);
    const first = group.insert(['a']);
    const second = group.insert(['b', 'c']);
    const third = group.insert(['d']);
    const fourth = group.insert(['e', 'f', 'g']);
    expect(db.commands).toEqual([['a']]);
    await db.release();
    expect(db.commands).toEqual([['a'], ['b', 'c', 'd', 'e', 'f', 'g']]);
    await db.release();
    expect(await first).toEqual({ n: 1, ok: 1 });
    expect(await second).toEqual({ n: 1, ok: 1, writeErrors: [{ index: 1, code: 11000 }] });
    expect(await third).toEqual({ n: 1, ok: 1 });
    expect(await fourth).toEqual({ n: 2, ok: 1, writeErrors: [{ index: 1, code: 11000 }] });
  });

  it('carries at most maxDocuments in one command, in the order they came', async () => {
    const db = server();
    const group = new InsertGroup(db.send, 3, 100);
    const answers = [group.insert(['a']), group.insert(['b', 'c']), group.insert(['d']), group.insert(['e', 'f'])];
    await db.release();
    expect(db.commands).toEqual([['a'], ['b', 'c', 'd']]);
    await db.release();
    expect(db.commands).toEqual([['a'], ['b', 'c', 'd'], ['e', 'f']]);
    await db.release();
    expect((await Promise.all(answers)).map((answer) => answer.n)).toEqual([1, 2, 1, 2]);
  });

  it('carries at most maxBytes in one command, so a group never exceeds the message size its parts fit alone', async () => {
    const db = server();
    // Strings stand for encoded documents here: their lengths are the bytes.
    const group = new InsertGroup(db.send, 10, 4);
    const answers = ['a', 'bb', 'cc', 'd', 'eeeee', 'f'].map((doc) => group.insert([doc]));
    for (let i = 0; i < 5; i += 1) await db.release();
    expect(db.commands).toEqual([['a'], ['bb', 'cc'], ['d'], ['eeeee'], ['f']]);
    expect((await Promise.all(answers)).map((answer) => answer.n)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('settles every part whatever goes wrong with a reply, and sends what comes next', async () => {
    let calls = 0;
    const group = new InsertGroup(
      async (documents: string[]) => {
        calls += 1;
        await new Promise((resolve) => setImmediate(resolve));
        // A reply that cannot be cut into parts (no server sends one): each part must hear of it all the same.
        return (calls === 2 ? null : { n: documents.length, ok: 1 }) as never;
      },
      10,
      100,
    );
    const first = group.insert(['a']);
    const grouped = [group.insert(['b']), group.insert(['c'])];
    await first;
    for (const answer of grouped) await expect(answer).rejects.toBeInstanceOf(TypeError);
    expect(await group.insert(['d'])).toEqual({ n: 1, ok: 1 });
  });

  it('fails every part of a command the network lost: the write may have happened, as it would alone', async () => {
    const commands: string[][] = [];
    let calls = 0;
    const group = new InsertGroup(
      async (documents: string[]) => {
        commands.push(documents);
        calls += 1;
        if (calls === 1) {
          await new Promise((resolve) => setImmediate(resolve));
          return { n: documents.length, ok: 1 };
        }
        throw new MongoNetworkError('connection reset');
      },
      10,
      100,
    );
    const first = group.insert(['a']);
    const rest = [group.insert(['b']), group.insert(['c'])];
    expect(await first).toEqual({ n: 1, ok: 1 });
    for (const answer of rest) await expect(answer).rejects.toBeInstanceOf(MongoNetworkError);
    expect(commands).toEqual([['a'], ['b', 'c']]);
  });

  it('gives each part its own share of a write concern failure: the combined write happened, so none goes again', async () => {
    const commands: string[][] = [];
    const writeConcernError = { code: 64, codeName: 'WriteConcernFailed', errmsg: 'waiting for replication timed out' };
    const group = new InsertGroup(
      async (documents: string[]) => {
        commands.push(documents);
        await new Promise((resolve) => setImmediate(resolve));
        const writeErrors = documents.flatMap((doc, index) => (doc === 'dup' ? [{ index, code: 11000 }] : []));
        // As the driver throws a reply that carries writeConcernError (test/node/platform/insert-keeping-first.test.ts).
        throw new MongoWriteConcernError({
          n: documents.length - writeErrors.length,
          writeErrors,
          ok: 1,
          writeConcernError,
        });
      },
      10,
      100,
    );
    const answers = [group.insert(['a']), group.insert(['b', 'dup']), group.insert(['c'])].map((answer) =>
      answer.catch((err: unknown) => err as MongoWriteConcernError),
    );
    const [first, second, third] = await Promise.all(answers);
    expect(commands).toEqual([['a'], ['b', 'dup', 'c']]);
    for (const err of [first, second, third]) {
      expect(err).toBeInstanceOf(MongoWriteConcernError);
      expect(err).toMatchObject({ code: 64, errInfo: undefined });
    }
    expect(second!.result).toEqual({ n: 1, writeErrors: [{ index: 1, code: 11000 }], ok: 1, writeConcernError });
    expect(third!.result).toEqual({ n: 1, ok: 1, writeConcernError });
  });

  it('sends each part alone when the server refused the whole command, so only the part it refuses fails', async () => {
    const commands: string[][] = [];
    const group = new InsertGroup(
      async (documents: string[]) => {
        commands.push(documents);
        await new Promise((resolve) => setImmediate(resolve));
        if (documents.includes('too big'))
          throw new MongoServerError({ message: 'object to insert too large', code: 2 });
        return { n: documents.length, ok: 1 };
      },
      10,
      100,
    );
    const first = group.insert(['a']);
    const fine = group.insert(['b']);
    const refused = group.insert(['too big']);
    await first;
    expect(await fine).toEqual({ n: 1, ok: 1 });
    await expect(refused).rejects.toMatchObject({ code: 2 });
    expect(commands).toEqual([['a'], ['b', 'too big'], ['b'], ['too big']]);
  });
});

describe('splitInsertReply', () => {
  it('gives each part the write concern failure, and an empty part nothing refused', () => {
    const reply = {
      n: 2,
      ok: 1,
      writeErrors: [{ index: 2, code: 11000, errmsg: 'dup' }],
      writeConcernError: { code: 64, errmsg: 'waiting for replication timed out' },
    };
    expect(splitInsertReply(reply, [2, 0, 1])).toEqual([
      { n: 2, ok: 1, writeConcernError: reply.writeConcernError },
      { n: 0, ok: 1, writeConcernError: reply.writeConcernError },
      {
        n: 0,
        ok: 1,
        writeConcernError: reply.writeConcernError,
        writeErrors: [{ index: 0, code: 11000, errmsg: 'dup' }],
      },
    ]);
  });
});

describe('isGroupableInsert', () => {
  const documents = new Uint8Array(5);
  it('groups an unordered insert of encoded documents with nothing else set', () => {
    expect(isGroupableInsert({ insert: 'events', ordered: false }, { documents }, {})).toBe(true);
  });
  it('leaves an insert of no documents as it is: the server refuses it alone, a group would answer it as stored', () => {
    expect(isGroupableInsert({ insert: 'events', ordered: false }, { documents: new Uint8Array(0) }, {})).toBe(false);
  });
  it('leaves any other command as it is', () => {
    expect(isGroupableInsert({ insert: 'events', ordered: true }, { documents }, {})).toBe(false);
    expect(
      isGroupableInsert({ insert: 'events', ordered: false, bypassDocumentValidation: true }, { documents }, {}),
    ).toBe(false);
    expect(isGroupableInsert({ insert: 'events', ordered: false }, { documents }, { readPreference: 'primary' })).toBe(
      false,
    );
    expect(isGroupableInsert({ update: 'events', ordered: false }, { updates: documents }, {})).toBe(false);
    expect(isGroupableInsert({ ordered: false, insert: 'events' }, { documents }, {})).toBe(false);
  });
});
