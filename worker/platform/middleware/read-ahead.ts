import type { GatewayQuery } from '../db/gateway-queries';
import type { TokenClaims } from '../tokens/token';

/**
 * A route's first read, sent by `auth({ ahead })` with the caller's account read in one call to the database
 * gateway, from the path as it came (before validation, which still runs after the check). The handler takes the
 * answer for the arguments it validated, or reads again when there is none (no such read was sent, or other
 * arguments): a refusal by the check answers as before, and the read-ahead never stands in for validation.
 */
export class ReadAhead<A, R> {
  private readonly answers = new WeakMap<Request, { args: A; answer: R }>();

  constructor(
    /** The read's arguments from the raw path params and the verified claims, or undefined to send none. */
    readonly argsOf: (params: Record<string, string>, claims: TokenClaims) => A | undefined,
    readonly query: GatewayQuery<A, unknown, R>,
    private readonly sameArgs: (a: A, b: A) => boolean,
  ) {}

  keep(request: Request, args: A, answer: R): void {
    this.answers.set(request, { args, answer });
  }

  /** The answer read for this request when it was read with these arguments; else undefined. Taken once. */
  take(request: Request, args: A): { answer: R } | undefined {
    const kept = this.answers.get(request);
    this.answers.delete(request);
    return kept && this.sameArgs(kept.args, args) ? { answer: kept.answer } : undefined;
  }
}
