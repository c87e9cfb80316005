import type { ClientErrorStatusCode } from 'hono/utils/http-status';
import { ApiError, type ErrorDetail } from './errors';

/** What a client is told when a service refuses: the status, the message and, where fields are at fault, which. */
export interface Refusal {
  status: ClientErrorStatusCode;
  message: string;
  details?: ErrorDetail[];
}

/** A service's refused outcome: a bare name, or an object named by `outcome` carrying what its answer needs. */
export type Refused = string | { readonly outcome: string };

type NameOf<R> = R extends string ? R : R extends { readonly outcome: infer O extends string } ? O : never;

/** The objects among R named `name`, as the entry for that name receives them (never for bare names). */
type Carrying<R, Name> = R extends { readonly outcome: infer O }
  ? Name extends O
    ? R & { outcome: Name }
    : never
  : never;

/** What an outcome carries besides its name; an entry answers from it through a function, else it is plain. */
type Data<R, Name> = [Carrying<R, Name>] extends [never] ? never : Exclude<keyof Carrying<R, Name>, 'outcome'>;

type Entry<R, Name> = [Data<R, Name>] extends [never] ? Refusal : Refusal | ((refused: Carrying<R, Name>) => Refusal);

/**
 * Every refused outcome of a service with its answer, one table per resource; the typecheck fails on an
 * outcome left out or one the service never returns. An outcome carrying data may answer through a function.
 *
 * @example
 * const POST_REFUSALS: Refusals<'not-found' | 'not-yours'> = {
 *   'not-found': { status: 404, message: 'Post not found.' },
 *   'not-yours': { status: 403, message: 'You can delete only your own posts.' },
 * };
 * if (outcome !== 'deleted') throw refusal(POST_REFUSALS, outcome);
 */
export type Refusals<R extends Refused> = { readonly [Name in NameOf<R>]: Entry<R, Name> };

/** A body field the schema accepts but the stored data refuses (it names nothing there): a 400 like zod's. */
export const invalidBodyField = (field: string, message: string): Refusal => ({
  status: 400,
  message: 'Invalid request body.',
  details: [{ field, message }],
});

/** R once inferred from `refused` alone (NoInfer would keep a union whole, and its objects could not be told apart). */
type Deferred<T> = [T][T extends unknown ? 0 : never];

/** The ApiError that answers `refused`, as its resource's table words it. */
export function refusal<const R extends Refused>(table: Refusals<Deferred<R>>, refused: R): ApiError {
  const entries = table as Record<string, Refusal | ((refused: R) => Refusal)>;
  const entry = entries[typeof refused === 'string' ? refused : refused.outcome]!;
  const { status, message, details } = typeof entry === 'function' ? entry(refused) : entry;
  return new ApiError(status, message, { details });
}
